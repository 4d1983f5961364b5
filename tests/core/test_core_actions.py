"""envs/core/actions.py: ``parse_label`` is the exact inverse of ``Action.label``."""

from __future__ import annotations

import pytest

from envs.core.actions import Action, ActionSyntaxError, IllegalActionError, parse_label

LABELS = [
    "c1: attack deteriorating@rot_blade -> c2",
    "c1: attack deteriorating+sword -> c2 +motive",
    "c2: react counter",
    "c2: react none +motive+identity",
    "c1: mark -> c2",
    "sk: move 0 +motive",
    "brute: challenge yes",
    "sk: hide +motive",
    "wyrm: sense -> sk +motive+identity",
    "medic: support mend -> c2",
    "medic: guard -> duelist",
    "medic: intercept yes",
    "c1: recover",
]


@pytest.mark.parametrize("label", LABELS)
def test_label_round_trip(label):
    action = parse_label(label)
    assert action.label == label
    assert str(action) == label
    assert parse_label(action.label) == action


def test_parse_fields():
    a = parse_label("wyrm: sense -> sk +motive+identity")
    assert a == Action("wyrm", "sense", (), "sk", ("motive", "identity"))
    b = parse_label("c1: attack deteriorating+sword -> c2 +motive")
    assert (b.actor, b.kind, b.args, b.target, b.boosts) == (
        "c1",
        "attack",
        ("deteriorating+sword",),
        "c2",
        ("motive",),
    )
    assert parse_label("sk: move 0") == Action("sk", "move", ("0",))


def test_action_to_label_round_trip():
    for a in (Action("x", "recover"), Action("x", "move", ("2",), None, ("identity",)),
              Action("x", "attack", ("strike@fangs",), "y", ("motive", "identity"))):
        assert parse_label(a.label) == a


def test_extra_whitespace_is_tolerated():
    assert parse_label("  c1:   mark   ->  c2 ").label == "c1: mark -> c2"


def test_actions_are_hashable_values():
    assert len({parse_label("c1: mark -> c2"), Action("c1", "mark", (), "c2")}) == 1


@pytest.mark.parametrize("bad", ["c1 mark -> c2", ": mark", "c1:", "c 1: mark", "c1: mark ->",
                                 "c1: mark -> c2 c3", "c1: hide +", "c1: hide +motive+", 5])
def test_unreadable_labels(bad):
    with pytest.raises(ActionSyntaxError):
        parse_label(bad)


def test_syntax_errors_are_illegal_action_errors():
    assert issubclass(ActionSyntaxError, IllegalActionError)
