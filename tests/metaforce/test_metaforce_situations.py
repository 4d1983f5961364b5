"""Metaforce's shipped situations (``configs/situations/metaforce_*.yaml``): each loads, checks
clean through ``arena situation check``, gives its NPC a real choice, and ``arena suggest
--rollouts N --seed S --json`` ranks every legal move of the actor (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envs.core.cases import encounter_from_situation, load_situation
from eval.cli import main

ROOT = Path(__file__).resolve().parents[2]
FILES = {
    "metaforce_giant_swings": ("hill_giant", "b", 27),
    "metaforce_duel_last_mp": ("fighter", "a", 16),
    "metaforce_ghouls_inline": ("ghoul_2", "crypt", 18),
}
"""file stem -> (actor, its side, its legal moves)"""
ROLLOUTS = 40


def _path(stem: str) -> str:
    return str(ROOT / "configs" / "situations" / f"{stem}.yaml")


def _legal(stem: str) -> list[str]:
    enc = encounter_from_situation(load_situation(_path(stem)), stem)
    return [a.label for a in enc.legal_actions()]


def test_the_three_situations_are_shipped():
    shipped = sorted(p.stem for p in (ROOT / "configs" / "situations").glob("metaforce_*.yaml"))
    assert shipped == sorted(FILES)
    inline = [s for s in FILES if any(isinstance(c.get("stats"), dict)
                                      for c in load_situation(_path(s))["combatants"])]
    assert inline == ["metaforce_ghouls_inline"]
    assert load_situation(_path("metaforce_giant_swings"))["encounter"] == "giant_boss"
    assert load_situation(_path("metaforce_duel_last_mp"))["encounter"] == "duel_fighter_brawler"


@pytest.mark.parametrize("stem", sorted(FILES))
def test_a_shipped_situation_checks_clean(stem, capsys):
    actor, side, moves = FILES[stem]
    assert main(["situation", "check", _path(stem)]) == 0
    out = capsys.readouterr().out
    assert f"{actor} (side {side}) decides; {moves} legal moves:" in out
    assert len(_legal(stem)) == moves


def test_the_giant_reaches_the_foes_at_its_knees_and_not_the_wizard():
    legal = set(_legal("metaforce_giant_swings"))
    for foe in ("fighter", "detective", "odonghe_brawler"):
        assert f"hill_giant: attack great_club -> {foe}" in legal
    assert not any(a.startswith("hill_giant: attack") and a.endswith("-> wizard") for a in legal)
    assert "hill_giant: dash approach -> wizard" in legal


def test_the_fighter_may_spend_its_mp_or_keep_it():
    legal = set(_legal("metaforce_duel_last_mp"))
    assert {"fighter: action8", "fighter: react4",
            "fighter: attack warhammer -> odonghe_brawler",
            "fighter: attack warhammer -> odonghe_brawler +meta",
            "fighter: end_turn"} <= legal


def test_the_far_ghoul_reaches_the_detective_only_by_closing_in():
    legal = set(_legal("metaforce_ghouls_inline"))
    assert {"ghoul_2: attack claws approach -> detective",
            "ghoul_2: attack bite approach -> detective",
            "ghoul_2: grapple approach -> detective",
            "ghoul_2: dash approach -> wizard"} <= legal
    assert not any(a.startswith("ghoul_2: attack") and "wizard" in a for a in legal)


def _suggest(stem: str, capsys, seed: int = 3) -> dict:
    argv = ["suggest", _path(stem), "--rollouts", str(ROLLOUTS), "--seed", str(seed), "--json"]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("stem", sorted(FILES))
def test_suggest_ranks_every_legal_move_of_the_actor(stem, capsys):
    actor, side, moves = FILES[stem]
    r = _suggest(stem, capsys)
    legal = _legal(stem)
    assert (r["system"], r["actor"], r["side"], r["legal_moves"]) == ("metaforce", actor, side,
                                                                        moves)
    assert r["rollouts"] == ROLLOUTS and sum(m["rollouts"] for m in r["moves"]) == ROLLOUTS
    rows = [m["label"] for m in r["moves"]]
    named = [v for m in r["moves"] for v in [m["label"], *m["variants"]]]
    assert sorted(set(named)) == sorted(legal) and len(set(rows)) == len(rows)
    assert [m["rank"] for m in r["moves"]] == list(range(1, len(rows) + 1))
    wins = [m["win_prob"] for m in r["moves"] if m["rollouts"]]
    assert wins == sorted(wins, reverse=True)  # ranked by the estimate
    for m in r["moves"]:
        assert m["label"].startswith(f"{actor}: ") and m["words"] and actor not in m["words"]
        assert 0.0 <= m["interval"][0] <= m["win_prob"] <= m["interval"][1] <= 1.0


def test_the_same_seed_and_rollouts_give_the_same_answer(capsys):
    first = _suggest("metaforce_duel_last_mp", capsys, seed=5)
    again = _suggest("metaforce_duel_last_mp", capsys, seed=5)
    keys = ("label", "variants", "win_prob", "rollouts", "reason")
    assert [[m[k] for k in keys] for m in first["moves"]] == \
        [[m[k] for k in keys] for m in again["moves"]]
