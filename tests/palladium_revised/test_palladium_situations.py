"""Palladium Revised's shipped situations (``configs/situations/palladium_*.yaml``): each loads,
checks clean through ``arena situation check``, stands where its header says, gives its decider
a real choice, and ``arena suggest --rollouts N --seed S --json`` ranks every legal move of the
actor (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envs.core.cases import encounter_from_situation, load_situation
from eval.cli import main

ROOT = Path(__file__).resolve().parents[2]
FILES = {
    "palladium_goblin_pack_last_knife": ("gob_3", "B", 33),
    "palladium_duel_closing_wounds": ("sellsword_1", "A", 21),
    "palladium_bandits_inline": ("chief", "bandits", 35),
}
"""file stem -> (actor, its side, its legal moves)"""
ROLLOUTS = 40


def _path(stem: str) -> str:
    return str(ROOT / "configs" / "situations" / f"{stem}.yaml")


def _enc(stem: str):
    return encounter_from_situation(load_situation(_path(stem)), stem)


def _legal(stem: str) -> list[str]:
    return [a.label for a in _enc(stem).legal_actions()]


def test_the_three_situations_are_shipped():
    shipped = sorted(p.stem for p in (ROOT / "configs" / "situations").glob("palladium_*.yaml"))
    assert shipped == sorted(FILES)
    inline = [s for s in FILES if any(isinstance(c.get("stats"), dict)
                                      for c in load_situation(_path(s))["combatants"])]
    assert inline == ["palladium_bandits_inline"]
    assert load_situation(_path("palladium_goblin_pack_last_knife"))["encounter"] == \
        "goblin_pack"
    assert load_situation(_path("palladium_duel_closing_wounds"))["encounter"] == \
        "duel_sword_vs_rogue"


@pytest.mark.parametrize("stem", sorted(FILES))
def test_a_shipped_situation_checks_clean(stem, capsys):
    actor, side, moves = FILES[stem]
    assert main(["situation", "check", _path(stem)]) == 0
    out = capsys.readouterr().out
    assert f"{actor} (side {side}) decides; {moves} legal moves:" in out
    assert len(_legal(stem)) == moves


def test_the_third_goblin_decides_in_second_7_with_its_last_knife():
    enc = _enc("palladium_goblin_pack_last_knife")
    assert (enc.round, enc.second, enc.cursor) == (2, 7, (7, 1, 3))
    s = enc.by_id["sellsword_1"]
    assert s.defending and s.step_budget == 0 and s.wounds == 3
    assert s.slot_state == ["used", "used", "available", "available"]
    assert enc.by_id["gob_3"].ammo == {"throwing_knife": 1}
    legal = set(_legal("palladium_goblin_pack_last_knife"))
    assert {"gob_3: strike throwing_knife -> sellsword_1", "gob_3: move engage -> sellsword_1",
            "gob_3: taunt -> sellsword_1", "gob_3: distract -> sellsword_1",
            "gob_3: wait"} <= legal
    assert not any("short_sword" in a for a in legal)  # 18 ft off: no blade reaches


def test_the_bleeding_sellsword_may_close_his_wounds_or_strike():
    enc = _enc("palladium_duel_closing_wounds")
    assert (enc.round, enc.second, enc.order) == (3, 5, ["duelist_1", "sellsword_1"])
    assert enc.by_id["duelist_1"].slot_state == ["used", "used", "available", "available",
                                                 "available"]
    legal = set(_legal("palladium_duel_closing_wounds"))
    assert {f"sellsword_1: closing_wounds {x}" for x in range(1, 6)} <= legal
    assert {"sellsword_1: strike long_sword -> duelist_1", "sellsword_1: step away -> duelist_1",
            "sellsword_1: knockdown -> duelist_1"} <= legal


def test_the_bandit_chief_stands_beyond_his_axe_and_inside_the_spear():
    enc = _enc("palladium_bandits_inline")
    chief = enc.by_id["chief"]
    # the fighter package derives 4 Actions, 32 H.P. and 50 S.D.C. for the inline chief
    assert (chief.profile.actions, chief.profile.hp_base, chief.profile.sdc_max) == (4, 32, 50)
    assert chief.dist(enc.by_id["guard"]) == 10 and chief.sdc == 30
    legal = set(_legal("palladium_bandits_inline"))
    assert "chief: strike battle_axe -> guard" not in legal
    assert {"chief: step close -> guard", "chief: move close -> mage",
            "chief: taunt -> guard"} <= legal


def _suggest(stem: str, capsys, seed: int = 3) -> dict:
    argv = ["suggest", _path(stem), "--rollouts", str(ROLLOUTS), "--seed", str(seed), "--json"]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("stem", sorted(FILES))
def test_suggest_ranks_every_legal_move_of_the_actor(stem, capsys):
    actor, side, moves = FILES[stem]
    r = _suggest(stem, capsys)
    legal = _legal(stem)
    assert (r["system"], r["actor"], r["side"], r["legal_moves"]) == \
        ("palladium_revised", actor, side, moves)
    assert r["rollouts"] == ROLLOUTS and sum(m["rollouts"] for m in r["moves"]) == ROLLOUTS
    rows = [m["label"] for m in r["moves"]]
    named = [v for m in r["moves"] for v in [m["label"], *m["variants"]]]
    assert sorted(set(named)) == sorted(legal) and len(set(rows)) == len(rows)
    assert [m["rank"] for m in r["moves"]] == list(range(1, len(rows) + 1))
    wins = [m["win_prob"] for m in r["moves"] if m["rollouts"]]
    assert wins == sorted(wins, reverse=True)  # ranked by the estimate
    for m in r["moves"]:
        assert m["label"].startswith(f"{actor}: ") and m["words"]
        assert 0.0 <= m["interval"][0] <= m["win_prob"] <= m["interval"][1] <= 1.0


def test_the_same_seed_and_rollouts_give_the_same_answer(capsys):
    first = _suggest("palladium_duel_closing_wounds", capsys, seed=5)
    again = _suggest("palladium_duel_closing_wounds", capsys, seed=5)
    keys = ("label", "variants", "win_prob", "rollouts", "reason")
    assert [[m[k] for k in keys] for m in first["moves"]] == \
        [[m[k] for k in keys] for m in again["moves"]]
