"""The invariant checker's share of observations (``InvariantChecker(observers=k)``): the deciding
combatant's view on every check, the others' in turn."""

from __future__ import annotations

from envs import get_rules
from envs.core import SeededDice
from eval.invariants import InvariantChecker


class _Counting:
    """An encoding that records whose observation was built."""

    def __init__(self, inner):
        self.inner, self.seen = inner, []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def observe(self, enc, cid):
        self.seen.append(cid)
        return self.inner.observe(enc, cid)


def _checker(observers):
    check = InvariantChecker("sizebound", encoding_every=1, observers=observers)
    check.encoding = _Counting(check.encoding)
    return check


def test_two_observers_are_the_actor_and_the_others_in_turn():
    enc = get_rules("sizebound").new_encounter("skirmish_2v2", None, SeededDice(3))
    check = _checker(2)
    actor = enc.current_actor()
    others = [c for s in enc.sides() for c in s.members if c != actor]
    assert len(others) == 3
    for _ in range(3):
        check(enc, "decide")  # the state does not move: the rotation alone changes
    assert check.encoding.seen == [actor, others[0], actor, others[1], actor, others[2]]


def test_by_default_every_combatant_is_observed():
    enc = get_rules("sizebound").new_encounter("skirmish_2v2", None, SeededDice(3))
    check = _checker(None)
    check(enc, "decide")
    assert check.encoding.seen == [c for s in enc.sides() for c in s.members]
