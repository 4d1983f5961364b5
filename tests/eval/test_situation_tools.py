"""``arena situation new|check`` (eval/situation_tools.py) and what a player sees in ``arena play``
(the table, the text hex map, the ``?`` budget)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from envs import SYSTEMS, describe_action, get_rules
from envs.core import SeededDice
from envs.core.cases import encounter_from_situation, load_situation
from envs.core.data import DataError
from eval.cli import main as arena
from eval.play import HINT_SECONDS, fight_table, map_lines, parse_hint
from eval.situation_tools import check_situation, new_situation

ROOT = Path(__file__).resolve().parents[2]
SITUATIONS = sorted((ROOT / "configs" / "situations").glob("*.yaml"))
LEDGE = ROOT / "configs" / "situations" / "mano_archer_on_the_ledge.yaml"

STARTS = [(s, e) for s in SYSTEMS for e in [None, *get_rules(s).encounter_names()]]

MANO_STATE = ["hex", "standing", "stun", "damage", "held", "stowed", "counter_ready",
              "defense_bonus", "forced_skips", "bow_drawn", "aiming", "covering", "shots",
              "clip_out", "reloading"]
METANOIA_STATE = ["strain", "stacks", "conv", "injuries", "statuses", "defeated", "broken",
                  "fled", "guarding"]
SHARED = ["system", "title", "notes", "options", "encounter", "combatants", "order", "round",
          "actor"]
OWN_TOP = {"mano_a_mano": ["items", "map", "circumstances", "mounted", "grapples"],
           "metanoia": ["surprised", "hazards"]}


def _fresh(system: str, name: str):
    """The encounter standing at its first combatant's turn, with nothing overridden."""
    first = get_rules(system).new_encounter(name, None, SeededDice(0)).sides()[0].members[0]
    return encounter_from_situation({"system": system, "encounter": name, "actor": first}, "x")


def _keys(text: str) -> list[str]:
    """Every field of a starter, live or commented out (``# key: value``), in order."""
    out = []
    for line in text.splitlines():
        body = line.strip().removeprefix("- ")
        if body.startswith("# ") and " # " not in body[2:]:
            continue  # a comment, not a field left out (those have a note of their own)
        body = body.removeprefix("# ").removeprefix("- ")
        key, colon, _ = body.partition(":")
        if colon and key.isidentifier():
            out.append(key)
    return out


@pytest.mark.parametrize(("system", "encounter"), STARTS)
def test_every_starter_loads_and_checks_clean_as_written(tmp_path, system, encounter):
    path = tmp_path / "fight.yaml"
    text = new_situation(system, encounter)
    path.write_text(text)
    report = check_situation(str(path))
    data = load_situation(path)
    enc = encounter_from_situation(data, str(path), SeededDice(0))
    assert f"system {system}, round 1" in report
    assert f"{enc.current_actor()} (side {enc.side_of(enc.current_actor())}) decides" in report
    for action in enc.legal_actions():
        assert f"{describe_action(enc, action)}" in report and f"[{action.label}]" in report
    if system == "toy":
        assert _keys(text) == ["system", "title", "encounter", "rules", "max_rounds", "points",
                               "hp", "round"]
        return
    base = _fresh(system, encounter or get_rules(system).encounter_names()[0])
    if encounter is not None:  # every value written is the engine's own: nothing changed
        assert enc.snapshot() == base.snapshot()
        assert data["encounter"] == encounter
    else:  # the GM's own fight: the first encounter's lineup as new combatants, same state
        assert "encounter" not in data and "# encounter: " in text
        assert enc.describe(None) == base.describe(None)
        last = data["combatants"][-1]
        assert isinstance(last["stats"], dict) and last["stats"]["name"]
        assert all(isinstance(c["stats"], str) for c in data["combatants"][:-1])


@pytest.mark.parametrize("system", ["metanoia", "mano_a_mano"])
def test_a_starter_has_every_field_with_a_comment(system):
    text = new_situation(system, get_rules(system).encounter_names()[0])
    keys = _keys(text)
    state = MANO_STATE if system == "mano_a_mano" else METANOIA_STATE
    for key in SHARED + OWN_TOP[system] + state:
        assert key in keys, key
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            assert " # " in line, f"no comment: {line!r}"
    data = yaml.safe_load(text)
    first = data["combatants"][0]
    assert list(first["state"]) == [k for k in state if k in first["state"]]


def test_left_out_fields_are_commented_out_and_load_when_uncommented(tmp_path):
    text = new_situation("metanoia", "duel_seed")
    assert "# surprised: A " in text
    path = tmp_path / "surprise.yaml"
    path.write_text(text.replace("# surprised: A ", "surprised: B "))
    assert encounter_from_situation(load_situation(path), str(path)).surprised_side == "B"
    mano = new_situation("mano_a_mano", "duel_seed")
    assert "  # size: [15, 15] " in mano and "  radius: 7 " in mano


def test_a_system_without_a_starter_gets_the_shared_fields(monkeypatch, tmp_path):
    monkeypatch.setitem(SYSTEMS, "metanoia", replace(SYSTEMS["metanoia"], starter=None))
    text = new_situation("metanoia", "pvp_2v2")
    assert [k for k in _keys(text) if k != "options"] == [
        "system", "title", "notes", "encounter", "round"]
    path = tmp_path / "shared.yaml"
    path.write_text(text)
    assert "system metanoia, round 1" in check_situation(str(path))


def test_a_starter_keeps_an_encounters_own_values():
    mano = yaml.safe_load(new_situation("mano_a_mano", "cavalry"))
    assert mano["mounted"] == {"cavalry_guard": "war_horse"}
    guard = next(c for c in mano["combatants"] if c["id"] == "guard")
    assert guard["state"]["held"] == {"both": "spear"} and guard["side"] == "B"
    meta = yaml.safe_load(new_situation("metanoia", "duel_seed"))
    warden = next(c for c in meta["combatants"] if c["id"] == "shadow_warden")
    assert warden["state"]["statuses"] == {"obscured": 1}  # stealthy: obscured from the start


def test_situation_new_cli_prints_writes_and_refuses_to_overwrite(tmp_path, capsys):
    assert arena(["situation", "new", "metanoia", "duel_seed"]) == 0
    assert capsys.readouterr().out == new_situation("metanoia", "duel_seed")
    out = tmp_path / "mine.yaml"
    assert arena(["situation", "new", "mano_a_mano", "--out", str(out)]) == 0
    assert f"Wrote {out}; check it with: arena situation check {out}" in capsys.readouterr().out
    assert out.read_text() == new_situation("mano_a_mano")
    out.write_text("system: metanoia\n")
    assert arena(["situation", "new", "mano_a_mano", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (f"arena situation: error: --out: {out} already exists; add --force to "
                   "overwrite it\n")
    assert out.read_text() == "system: metanoia\n"  # unchanged
    assert arena(["situation", "new", "mano_a_mano", "--out", str(out), "--force"]) == 0
    assert out.read_text() == new_situation("mano_a_mano")
    assert arena(["situation", "new", "metanoia", "nope"]) == 2
    assert "unknown encounter 'nope' for metanoia; known: duel_seed" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        arena(["situation", "new", "chess"])
    assert info.value.code == 2 and "unknown system 'chess'" in capsys.readouterr().err


def test_situation_check_a_bad_file_is_one_line_naming_file_entry_and_field(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text(new_situation("mano_a_mano", "duel_seed").replace(
        "stun: 0 ", "stun: -1 ", 1))
    assert arena(["situation", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"arena situation: error: {path}: combatants[0].state: field 'stun': "
                   "expected an integer >= 0, got -1\n")
    assert arena(["situation", "check", str(tmp_path / "none.yaml")]) == 2
    assert "none.yaml" in capsys.readouterr().err
    with pytest.raises(DataError, match="field 'stun'"):
        check_situation(str(path))


@pytest.mark.parametrize("path", SITUATIONS, ids=lambda p: p.name)
def test_every_shipped_situation_checks_clean(path, capsys):
    assert arena(["situation", "check", str(path)]) == 0
    out = capsys.readouterr().out
    data = load_situation(path)
    assert out.startswith(f"{path}: {data['title']}\nsystem {data['system']}, round ")


def test_each_real_system_ships_three_situations_one_with_inline_creatures():
    for system in ("metanoia", "mano_a_mano"):
        files = [load_situation(p) for p in SITUATIONS if load_situation(p)["system"] == system]
        assert len(files) >= 3, system
        assert any(isinstance(c.get("stats"), dict) for d in files
                   for c in d.get("combatants", [])), system


def test_the_archer_on_the_ledge_as_the_engine_sees_it():
    report = check_situation(str(LEDGE))
    enc = encounter_from_situation(load_situation(LEDGE), str(LEDGE))
    assert report.splitlines()[:2] == [
        f"{LEDGE}: The archer on the ledge: shoot now or aim?", "system mano_a_mano, round 2"]
    assert "> archer     bandits  (3, -1)  standing" in report
    assert "left: light_bow  5" in report  # held weapon, movement left
    assert "  r= -1   . . . . . . . A ^ ." in report.splitlines()
    assert ("  A archer (bandits) at 3,-1; S spearman (bandits) at 2,0; t steven (heroes) at "
            "-1,0; w wrestler (heroes) at -2,2") in report.splitlines()
    labels = [a.label for a in enc.legal_actions()]
    assert f"archer (side bandits) decides; {len(labels)} legal moves:" in report
    assert "archer: shoot quick -> wrestler" in labels and "archer: aim" not in labels


def test_the_text_map_marks_walls_water_heights_and_riders():
    data = {"system": "mano_a_mano", "options": "full", "map": {
        "size": [4, 2], "walls": [[1, 0]], "water": [[3, 1]],
        "heights": [{"hex": [2, 0], "m": 1.0}]},
        "combatants": [
            {"id": "cavalry_guard", "side": "A", "stats": "cavalry_guard",
             "state": {"hex": [0, 0]}},
            {"id": "war_horse", "side": "A", "stats": "war_horse", "state": {"hex": [0, 0]}},
            {"id": "clone", "side": "B", "stats": "clone", "state": {"hex": [2, 1]}}],
        "mounted": {"cavalry_guard": "war_horse"}, "actor": "clone"}
    enc = encounter_from_situation(data, "map")
    assert map_lines(enc, "clone") == [
        "map (q grows to the east, r to the south-east; . open # wall ~ water ^ raised):",
        "  r=  0  C # ^ .",
        "  r=  1   . . l ~",  # C is taken: the next letter of its id
        "  C cavalry_guard (A) at 0,0, riding war_horse; W war_horse (A) at 0,0; "
        "l clone (B) at 2,1",
    ]


def test_the_table_shows_held_weapons_and_movement_left_where_the_view_has_them():
    mano = encounter_from_situation(load_situation(LEDGE), str(LEDGE))
    head, *rows = fight_table(mano, "archer")
    assert head.split()[-3:] == ["held", "move", "left"]
    assert rows[0].startswith("> archer") and rows[0].endswith("left: light_bow  5")
    assert rows[2].startswith("  steven") and rows[2].endswith("right: machete")
    toy = get_rules("toy").new_encounter("duel")
    assert fight_table(toy, "ann") == [
        "  id   side      points  hp",
        "> ann  heroes    0       2/2",
        "  bob  monsters  0       2/2",
    ]
    assert map_lines(toy, "ann") == []


def test_a_plain_question_mark_thinks_two_seconds_and_a_budget_sets_it():
    assert HINT_SECONDS == 2.0
    assert parse_hint("?") == 2.0 and parse_hint(" ? ") == 2.0
    assert parse_hint("? 5s") == 5.0 and parse_hint("?0.5s") == 0.5 and parse_hint("? 3") == 3.0
    assert parse_hint("?", default=0.25) == 0.25
    for bad in ("? fast", "? 0s", "? -1s", "? 500s", "? nan", "? inf", "? 5 s s"):
        with pytest.raises(ValueError, match="bad budget"):
            parse_hint(bad)
