"""Metaforce engine fixes found by the last case files (issue 14): Exert above the limit in a
situation (spec §7.6, R-20)."""

from __future__ import annotations

from typing import Any

from test_metaforce_kit import act, fight, labels, texts

from envs.core.dice import ScriptedDice
from envs.metaforce import rules as R
from envs.metaforce.invariants import state_invariants


def _wizard_fight(exert: int, actor: str, order: list[str]) -> Any:
    """The Wizard (T 3, L 13, HP 24), the Fighter and a Bandit, Exert set by the situation."""
    return R.from_situation({
        "system": "metaforce", "options": "core", "map": {"w": 16, "h": 16},
        "combatants": [
            {"id": "w", "side": "heroes", "stats": "wizard", "at": [2, 2],
             "state": {"exert": exert}},
            {"id": "f", "side": "heroes", "stats": "fighter", "at": [3, 2]},
            {"id": "b", "side": "foes", "stats": "bandit", "at": [6, 2]}],
        "order": order, "actor": actor}, "c08.yaml", ScriptedDice([]))


def test_a_situation_above_the_exert_limit_without_tension_is_unconscious():
    # spec §7.6, R-20, C-08 row 3: Exert 14 > L 13, no Tension to release -> Unconscious, alive
    enc = _wizard_fight(14, "b", ["b", "w", "f"])
    w = enc.by_id["w"]
    assert (w.state, w.hp, w.exert) == ("unconscious", 24, 14)
    assert "w is unconscious (HP 24)" in texts(enc.start_events)
    moves = sorted(a for a in labels(enc) if a.startswith(("b: dash", "b: pass ")))
    assert moves == ["b: dash approach -> f", "b: dash retreat -> f", "b: pass approach -> f",
                     "b: pass retreat -> f"]  # no movement relative to an Unconscious w
    assert enc.current_actor() == "b" and not enc.is_over()
    state_invariants(enc)


def test_a_situation_exactly_at_the_exert_limit_stays_in_the_fight_exhausted():
    # spec §7.6: Exert = L is Exhausted, not over the limit
    enc = _wizard_fight(13, "b", ["b", "w", "f"])
    w = enc.by_id["w"]
    assert (w.state, w.exhausted) == ("active", True)
    assert "b: dash approach -> w" in labels(enc)


def test_an_actor_above_the_exert_limit_loses_its_turn_to_the_next():
    # spec §4.1, §7.6: out at the start of its turn, the clock runs on to the Fighter's frame 1
    enc = _wizard_fight(14, "w", ["w", "f", "b"])
    assert enc.by_id["w"].state == "unconscious"
    assert (enc.current_actor(), enc.by_id["f"].frame) == ("f", 1)
    assert texts(enc.start_events)[-4:] == [
        "w ends its turn with 0 Reaction(s)", "f's turn", "f holds 0 Reaction(s)", "f: frame 1"]
    state_invariants(enc)


def test_tension_is_released_first_at_the_start_of_the_turn():
    # spec §7.6: Exert 10 + Tension 4 = 14 > L 13 -> Tension released -> 10, still in the fight
    enc = fight((R.profile_of(R.stat_blocks()["bandit"], "b"), "foes", (6, 2)),
                (R.profile_of(R.stat_blocks()["wizard"], "w"), "heroes", (2, 2)))
    w = enc.by_id["w"]
    w.exert, w.tension = 10, 4
    act(enc, "b: end_turn", [])
    assert (enc.current_actor(), w.state, w.exert_total) == ("w", "active", 10)
    w.exert, w.tension = 14, 5  # Exert 14 alone is above L: released, then Unconscious
    act(enc, "w: end_turn", [])
    act(enc, "b: end_turn", [])
    assert (w.state, w.tension) == ("unconscious", 0)
