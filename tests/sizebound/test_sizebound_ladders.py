"""Sizebound condition ladders across the HP Stun and across ladders (spec §7.1, §7.2, R-17),
applied through the engine's ``add_condition``."""

from __future__ import annotations

import pytest

from envs.sizebound.rules.procedures import add_condition
from envs.sizebound.rules.situation import from_situation


def _fight(options="core"):
    return from_situation({"system": "sizebound", "options": options, "map": {"w": 10, "h": 10},
                           "combatants": [
                               {"id": "a", "side": "A", "stats": "duelist", "at": [1, 1]},
                               {"id": "b", "side": "B", "stats": "goblin", "at": [5, 5]}],
                           "side_order": ["A", "B"], "round": 1, "actor": "a"}, "case.yaml")


def _held(f):
    return sorted((c.name, c.expires_at) for c in f.conds)


@pytest.mark.parametrize(("name", "options", "rounds", "lasts"), [
    ("disabled", "core", 5, 5),  # fatigue: not the action ladder, the source's 5 rounds
    ("terrified", {"version": "full"}, 3, 3),  # fear ladder (FULL): the source's 3 rounds
    ("paralyzed", "core", 5, 1),  # the action ladder's own step: max 1 round
])
def test_unconscious_lasts_one_round_only_from_the_action_ladder(name, options, rounds, lasts):
    # spec §7.2 Unconscious: "1 round when gained by action-ladder escalation; otherwise the
    # source's duration"
    enc = _fight(options)
    b = enc.by_id["b"]
    add_condition(enc, [], b, name, rounds=rounds)
    add_condition(enc, [], b, name, rounds=rounds)
    assert ("unconscious", enc.clock + lasts * enc.slots) in _held(b)


def test_under_the_hp_stun_a_lower_rung_is_stored_not_escalated():
    # spec §7.1: effective rung (3, the HP Stun, R-17) > r: store the rung-r instance
    enc = _fight()
    b = enc.by_id["b"]
    b.hp = 0
    add_condition(enc, [], b, "staggered", rounds=5)
    add_condition(enc, [], b, "staggered", rounds=5)
    assert [n for n, _ in _held(b)] == ["staggered", "staggered"]
    b.hp = 10  # healed: the stored Staggered takes over, no Stunned was made
    assert b.action_rung == 2
    enc2 = _fight()  # above 0 HP, Staggered twice escalates as ever
    c = enc2.by_id["b"]
    add_condition(enc2, [], c, "staggered", rounds=5)
    add_condition(enc2, [], c, "staggered", rounds=5)
    assert "stunned" in [n for n, _ in _held(c)]
