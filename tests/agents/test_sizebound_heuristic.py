"""The Sizebound heuristic (agents/heuristic/sizebound.py): exact choices in constructed
positions, it never changes the encounter, and it beats random play."""

from __future__ import annotations

import random

from agents.heuristic.sizebound import SizeboundHeuristic, p_contest, p_over
from envs.core import SeededDice
from envs.core.dice import ScriptedDice
from envs.sizebound.rules import from_situation, new_encounter


def situation(encounter: str, actor: str, combatants: list[dict], rules: str = "core") -> object:
    return from_situation({"system": "sizebound", "encounter": encounter, "options": rules,
                           "actor": actor, "combatants": combatants}, "test.yaml")


def choice(enc) -> str:
    return SizeboundHeuristic(seed=0).choose(enc).label


def test_contest_and_d20_odds_are_exact():
    assert p_over(2, 10) == 12 / 20  # d20 + 2 > 10: 9..20
    assert p_over(30, 10) == 19 / 20  # a natural 1 fails
    assert abs(p_over(0, 10, edge=1) - (1 - (10 / 20) ** 2)) < 1e-12
    assert abs(p_contest(0, 0) - 190 / 400) < 1e-12  # ties go to the defender
    assert abs(p_contest(12, 10) - 229 / 400) < 1e-12  # knight's trip on the duelist


def test_adjacent_hurt_enemy_gets_the_sword():
    enc = situation("duel_blade_vs_shield", "duelist", [
        {"id": "duelist", "at": [8, 6]}, {"id": "knight", "at": [9, 6], "state": {"hp": 3}}])
    assert choice(enc) == "duelist: attack main -> knight"


def test_out_of_reach_it_runs_then_closes_in():
    enc = new_encounter("duel_blade_vs_shield", "core")  # 7 apart: nothing to hit this turn
    h = SizeboundHeuristic(seed=0)
    assert h.choose(enc).label == "duelist: run"
    enc.apply(enc.parse_action("duelist: run"), ScriptedDice([]))
    for gap in (6, 5, 4, 3, 2, 1):
        a = h.choose(enc)
        assert a.kind == "step"
        enc.apply(a, ScriptedDice([]))
        assert enc.view("duelist")["combatants"]["knight"]["distance"] == gap


def test_focus_fire_on_the_enemy_it_can_finish():
    # Claws 1d8 + 3 take the mage (-15 HP) below its Point of No Return (-20).
    enc = situation("party_vs_bear", "cave_bear", [
        {"id": "cave_bear", "at": [10, 7]}, {"id": "duelist", "at": [9, 7]},
        {"id": "mage", "at": [11, 7], "state": {"hp": -15}}, {"id": "knight", "at": [3, 8]}])
    a = SizeboundHeuristic(seed=0).choose(enc)
    assert (a.kind, a.target) == ("attack", "mage")


def test_stomp_when_it_finishes_one_and_hurts_another():
    enc = situation("giant_vs_four", "hill_giant", [
        {"id": "hill_giant", "at": [11, 8]}, {"id": "knight", "at": [10, 8]},
        {"id": "mage", "at": [13, 8], "state": {"hp": -15}},
        {"id": "duelist", "at": [2, 10]}, {"id": "captain", "at": [2, 12]}], "full")
    assert choice(enc) == "hill_giant: cast stomp"  # Stomp is FULL content (spec §12.2)


def test_a_weak_creature_next_to_the_giant_strikes_then_steps_away():
    enc = situation("giant_vs_four", "duelist", [
        {"id": "duelist", "at": [10, 8], "state": {"hp": 6}}, {"id": "hill_giant", "at": [11, 8]},
        {"id": "knight", "at": [4, 8]}, {"id": "mage", "at": [1, 9]},
        {"id": "captain", "at": [4, 11]}])
    h, dice, mine = SizeboundHeuristic(seed=0), SeededDice(1), []
    while not mine or mine[-1] != "duelist: end_turn":
        actor = enc.current_actor()
        if actor == "duelist":
            a = h.choose(enc)
            mine.append(a.label)
        elif enc.window is not None:
            a = enc.parse_action(f"{actor}: pass")
        else:
            a = enc.parse_action(f"{actor}: end_turn")
        enc.apply(a, dice)
    kinds = [x.split(": ")[1].split()[0] for x in mine if x.split(": ")[1] != "pass"]
    assert kinds[0] == "attack" and kinds[-2:] == ["step", "end_turn"]
    assert enc.view("duelist")["combatants"]["hill_giant"]["distance"] == 2


def test_at_zero_hp_it_spends_a_die_to_end_the_stun():
    enc = situation("duel_blade_vs_shield", "duelist", [
        {"id": "duelist", "at": [8, 6], "state": {"hp": -4}}, {"id": "knight", "at": [9, 6]}])
    assert choice(enc) == "duelist: recover hp"


def _to_window(enc, kind: str, dice) -> None:
    """Answer ``pass`` until a window of ``kind`` is asked."""
    while enc.window is not None and enc.window.kind != kind:
        enc.apply(enc.parse_action(f"{enc.current_actor()}: pass"), dice)


def test_parry_when_the_odds_pay():
    # The giant's club (d20 + 6) rolls 9: 15 beats the captain's Defense 14. Parry d20 + 6 beats
    # it 55% and ripostes; Dodge d20 + 5 (armoured) 50%; Block keeps off only 4.
    enc = situation("giant_vs_four", "hill_giant", [
        {"id": "hill_giant", "at": [11, 8]}, {"id": "captain", "at": [10, 8],
                                               "state": {"reactions": 1}},
        {"id": "knight", "at": [4, 8]}, {"id": "mage", "at": [1, 9]},
        {"id": "duelist", "at": [3, 10]}])
    dice = ScriptedDice([9])
    enc.apply(enc.parse_action("hill_giant: attack main -> captain"), dice)
    h = SizeboundHeuristic(seed=0)
    assert enc.window.kind == "declare" and h.choose(enc).label == "captain: pass"
    _to_window(enc, "parry", dice)
    assert enc.window.info == (("attacker", "hill_giant"), ("target", "captain"), ("total", 15))
    assert h.choose(enc).label == "captain: parry"


def test_no_parry_against_a_roll_that_misses_anyway():
    enc = situation("giant_vs_four", "hill_giant", [
        {"id": "hill_giant", "at": [11, 8]}, {"id": "captain", "at": [10, 8],
                                               "state": {"reactions": 1}},
        {"id": "knight", "at": [4, 8]}, {"id": "mage", "at": [1, 9]},
        {"id": "duelist", "at": [3, 10]}])
    dice = ScriptedDice([6])
    enc.apply(enc.parse_action("hill_giant: attack main -> captain"), dice)
    _to_window(enc, "parry", dice)  # 12 does not beat Defense 14
    assert SizeboundHeuristic(seed=0).choose(enc).label == "captain: pass"


def test_the_knight_blocks_a_sword_hit():
    enc = situation("duel_blade_vs_shield", "duelist", [
        {"id": "duelist", "at": [8, 6]}, {"id": "knight", "at": [9, 6], "state": {"reactions": 1}}])
    dice = ScriptedDice([15, 6])
    enc.apply(enc.parse_action("duelist: attack main -> knight"), dice)
    _to_window(enc, "block", dice)  # 17 hits; 6 + 2 = 8 Slashing; Block gives Guard 6
    assert SizeboundHeuristic(seed=0).choose(enc).label == "knight: block"


def _play(name: str, seed: int, side: str) -> str | None:
    enc = new_encounter(name, "core")
    dice, rng, h = SeededDice(seed), random.Random(seed), SizeboundHeuristic(seed)
    while not enc.is_over():
        actor = enc.current_actor()
        a = h.choose(enc) if enc.side_of(actor) == side else rng.choice(enc.legal_actions())
        enc.apply(a, dice)
    return enc.outcome().winner


def test_it_never_changes_the_encounter():
    enc = new_encounter("skirmish_2v2", "core")
    dice, h = SeededDice(3), SizeboundHeuristic(seed=3)
    for _ in range(150):
        if enc.is_over():
            break
        before = enc.snapshot()
        legal = enc.legal_actions()
        scores = h.rank(enc, enc.current_actor(), legal)
        assert len(scores) == len(legal) and enc.snapshot() == before
        enc.apply(h.choose(enc), dice)
        assert enc.snapshot() != before


def test_it_beats_random_play_from_either_side():
    wins = sum(_play("duel_blade_vs_shield", seed, side) == side
               for seed in range(5) for side in ("A", "B"))
    assert wins == 10
