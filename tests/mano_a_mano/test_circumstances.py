"""Scenario circumstance modifiers (spec §5.1, §12.2 item 7, RULING R40): a situation's
``circumstances.attacks`` gives a side's or a fighter's attacks a favorable or unfavorable
circumstance; the preview and the roll both see it (forced d20s)."""

from __future__ import annotations

import copy

import pytest

from envs.core import ScriptedDice
from envs.core.data import DataError
from envs.mano_a_mano.rules import from_situation
from envs.mano_a_mano.rules.state import ManoEncounter

BASE = {
    "system": "mano_a_mano",
    "options": "full",
    "combatants": [
        {"id": "steven", "side": "A", "stats": "steven", "state": {"hex": [0, 0]}},
        {"id": "clone", "side": "B", "stats": "clone", "state": {"hex": [1, 0]}},
    ],
    "actor": "steven",
}
STRIKE = "steven: strike quick machete -> clone"


def _fight(attacks: dict | None) -> ManoEncounter:
    data = copy.deepcopy(BASE)
    if attacks is not None:
        data["circumstances"] = {"attacks": attacks}
    return from_situation(data, "fight.yaml")


def test_favorable_adds_to_the_roll_unfavorable_to_the_difficulty():
    plain = _fight(None).preview(_fight(None).parse_action(STRIKE))
    assert plain is not None
    enc = _fight({"A": "favorable"})
    p = enc.preview(enc.parse_action(STRIKE))
    assert p is not None and (p.modifier, p.difficulty) == (plain.modifier + 2, plain.difficulty)
    enc = _fight({"A": "favorable", "steven": "hostile"})  # the fighter's own entry wins
    p = enc.preview(enc.parse_action(STRIKE))
    assert p is not None and (p.modifier, p.difficulty) == (plain.modifier, plain.difficulty + 4)
    enc = _fight({"B": "unfavorable"})  # only the clone's attacks are hampered
    p = enc.preview(enc.parse_action(STRIKE))
    assert p is not None and (p.modifier, p.difficulty) == (plain.modifier, plain.difficulty)


def test_the_roll_uses_the_circumstance_and_a_snapshot_keeps_it():
    enc = _fight(None)
    p = enc.preview(enc.parse_action(STRIKE))
    assert p is not None
    need = p.difficulty - p.modifier + 1  # the lowest die that hits without a circumstance
    enc = _fight({"steven": "unfavorable"})  # +2 difficulty: that die now misses
    events = enc.apply(enc.parse_action(STRIKE), ScriptedDice([need], sides=20))
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    assert (roll.difficulty, roll.success) == (p.difficulty + 2, False)
    enc = _fight({"steven": "very_favorable"})
    back = ManoEncounter.from_snapshot(enc.snapshot())
    assert back.circumstances == {"steven": "very_favorable"} == enc.clone().circumstances
    events = back.apply(back.parse_action(STRIKE), ScriptedDice([need - 4], sides=20))
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    assert roll.success


@pytest.mark.parametrize(("attacks", "text"), [
    ({"nobody": "favorable"}, "field 'nobody': not a side or a combatant; known: A, B, clone"),
    ({"A": "lucky"}, "field 'A'"),
])
def test_bad_circumstances_name_the_field(attacks, text):
    with pytest.raises(DataError, match=text):
        _fight(attacks)
