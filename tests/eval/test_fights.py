"""eval.fights: a built-in encounter or a situation file as what a game starts from."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from agents import make_agent
from agents.episode import encounter_sides, play
from envs.core import SeededDice
from envs.core.data import DataError
from eval.fights import Fight, get_path, own_form, resolve_fight, set_path

DUEL = "configs/situations/sizebound_duel_midfight.yaml"


def test_a_name_and_a_file_resolve_and_bad_ones_are_one_line_errors(tmp_path: Path):
    named = resolve_fight("metanoia", "duel_seed")
    assert named.name == "duel_seed" and not named.is_file and named.label == "duel_seed"
    assert named.sides() == ("A", "B")
    f = resolve_fight(None, DUEL)
    assert f.is_file and f.system == "sizebound" and f.label == "sizebound_duel_midfight"
    assert f.record()["situation"]["yaml"] == Path(DUEL).read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="unknown encounter 'nope' for metanoia"):
        resolve_fight("metanoia", "nope")
    with pytest.raises(DataError, match="is a sizebound fight, not metanoia"):
        resolve_fight("metanoia", DUEL)
    with pytest.raises(ValueError, match="no such situation file"):
        resolve_fight("metanoia", str(tmp_path / "missing.yaml"))


def test_play_takes_a_fight_and_its_record_keeps_the_file():
    f = resolve_fight(None, DUEL)
    sides = encounter_sides("sizebound", f)
    agents = {s: make_agent("heuristic", "sizebound", k) for k, s in enumerate(sides)}
    rec = play("sizebound", f, agents, 3)
    assert rec.encounter == "sizebound_duel_midfight"
    assert rec.situation == {"source": DUEL, "yaml": Path(DUEL).read_text(encoding="utf-8")}
    again = play("sizebound", f, {s: make_agent("heuristic", "sizebound", k)
                                  for k, s in enumerate(sides)}, 3)
    assert (again.winner, again.rounds, again.actions) == (rec.winner, rec.rounds, rec.actions)
    named = play("metanoia", "duel_seed", {"A": make_agent("heuristic", "metanoia", 0),
                                           "B": make_agent("heuristic", "metanoia", 1)}, 0)
    assert named.situation is None and named.encounter == "duel_seed"


def test_own_form_lists_every_combatant_new_and_leave_one_out_drops_one():
    data = own_form("metanoia", "pvp_2v2")
    ids = [c["id"] for c in data["combatants"]]
    assert len(ids) == 4 and all("stats" in c and "side" in c for c in data["combatants"])
    assert "actor" not in data and "encounter" not in data
    f = Fight.named("metanoia", "pvp_2v2").without(ids[0])
    assert f.note == f"without {ids[0]}" and f.is_file
    assert list(f.members()) == ids[1:]
    with pytest.raises(ValueError, match="no combatant 'ghost'"):
        f.without("ghost")


@pytest.mark.parametrize("name", ["duel_sword_vs_rogue", "duel_reach", "skirmish_2v2",
                                  "ogre_ambush", "goblin_pack"])
def test_the_own_form_of_a_palladium_encounter_starts_and_plays_as_the_encounter(name: str):
    data = own_form("palladium_revised", name)
    assert "second" not in data and "actor" not in data  # a fresh start: nothing to place
    own = Fight.from_data(data, f"{name}_own.yaml")
    named = Fight.named("palladium_revised", name)
    a, b = (f.build(None, SeededDice(5)).snapshot() for f in (named, own))
    assert {k: v for k, v in a.items() if k != "name"} == \
        {k: v for k, v in b.items() if k != "name"}
    games = [play("palladium_revised", f, {s: make_agent("heuristic", "palladium_revised", k)
                                           for k, s in enumerate(f.sides())}, 7)
             for f in (named, own)]
    assert [(g.winner, g.rounds, g.actions) for g in games[1:]] == \
        [(games[0].winner, games[0].rounds, games[0].actions)]


def test_set_path_changes_one_field_of_a_copy():
    data = yaml.safe_load(Path(DUEL).read_text(encoding="utf-8"))
    hp = get_path(data, "combatants[0].state.hp")
    out = set_path(data, "combatants[0].state.hp", hp + 7)
    assert get_path(out, "combatants[0].state.hp") == hp + 7
    assert get_path(data, "combatants[0].state.hp") == hp  # the original is untouched
    with pytest.raises(KeyError, match="no 5 there"):
        set_path(data, "combatants[5].state.hp", 1)
    with pytest.raises(ValueError, match="bad field path"):
        get_path(data, "combatants..hp")


def test_a_fight_from_a_file_takes_the_variant_s_rules():
    f = resolve_fight(None, DUEL)
    assert f.build("core", SeededDice(0)).options.version == "core"
    assert f.build(None, SeededDice(0)).options.version == "full"
