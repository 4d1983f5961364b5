"""Kept-die tests (envs/core/d20.py): Sizebound §5.0.1-5.0.2 (R-52, R-72) and Metaforce §2.3.1,
§2.4.3, §7.3, with forced dice."""

from __future__ import annotations

import dataclasses
import doctest
import itertools
from fractions import Fraction

import pytest

from envs.core import d20
from envs.core.d20 import Edge, KeptDieTest, chance, d20_test, edge_from_sources, edge_from_steps
from envs.core.dice import DiceExhausted, ScriptedDice, UnexpectedDie


def test_doctests():
    assert doctest.testmod(d20).failed == 0


def test_a_normal_test_draws_one_die_and_adds_the_modifier():
    dice = ScriptedDice(["d20=11"])
    t = d20_test(dice, 3, target=14)
    assert (t.faces, t.natural, t.other) == ((11,), 11, None)
    assert (t.total, t.success, t.margin) == (14, False, 0)
    assert str(t) == "d20 11 +3 = 14 vs >14: failure"
    dice.check_exhausted()


def test_advantage_keeps_the_higher_and_disadvantage_the_lower_in_draw_order():
    """Sizebound C-05: d20=[6,14] keeps 14."""
    adv = d20_test(ScriptedDice([6, 14]), 2, Edge.ADVANTAGE, target=15)
    assert (adv.natural, adv.other, adv.kept_index, adv.total, adv.success) == (14, 6, 1, 16, True)
    dis = d20_test(ScriptedDice([6, 14]), 2, Edge.DISADVANTAGE, target=15)
    assert (dis.natural, dis.other, dis.kept_index, dis.total, dis.success) == (6, 14, 0, 8, False)
    assert str(dis) == "d20 with disadvantage (6, 14) keeps 6 +2 = 8 vs >15: failure"
    tie = d20_test(ScriptedDice([9, 9]), 0, Edge.ADVANTAGE)
    assert (tie.kept_index, tie.natural, tie.other, tie.success) == (0, 9, 9, None)


def test_an_edge_asks_for_two_dice_of_the_named_size():
    with pytest.raises(DiceExhausted):
        d20_test(ScriptedDice([12]), edge=Edge.ADVANTAGE)
    with pytest.raises(UnexpectedDie):
        d20_test(ScriptedDice(["d12=5"]))  # a d20 test meets a scripted d12


def test_sources_of_one_kind_do_not_stack_and_one_of_each_cancels():
    """Sizebound §5.0.2 / R-52."""
    assert edge_from_sources(0, 0) is Edge.NORMAL
    assert edge_from_sources(3, 0) is Edge.ADVANTAGE
    assert edge_from_sources(0, 2) is Edge.DISADVANTAGE
    assert edge_from_sources(1, 4) is Edge.NORMAL


def test_metaforce_steps_below_minus_one_cost_four_each():
    """Metaforce §2.4.3: S >= 1 advantage, -1 disadvantage, -4 per step below -1."""
    assert [edge_from_steps(s) for s in (2, 1, 0, -1, -2, -4)] == [
        (Edge.ADVANTAGE, 0), (Edge.ADVANTAGE, 0), (Edge.NORMAL, 0),
        (Edge.DISADVANTAGE, 0), (Edge.DISADVANTAGE, -4), (Edge.DISADVANTAGE, -12)]


def test_metaforce_d12_check_keeps_the_12_and_the_other_die_is_v():
    """Metaforce WE-03 variant: advantage (12, 7): the kept 12 explodes, V = max(5, other) = 7."""
    t = d20_test(ScriptedDice(["d12=12", "d12=7"]), 2, Edge.ADVANTAGE, sides=12)
    assert (t.natural, t.top, t.other) == (12, True, 7)
    assert max(5, t.other or 0) + t.total == 21


def test_at_least_succeeds_on_the_target_number():
    """Metaforce §7.3: a save succeeds if roll >= TN; Sizebound R-13: ties fail an 'over' test."""
    assert d20_test(ScriptedDice([8]), 0, target=8, sides=12, beat="at_least").success is True
    assert d20_test(ScriptedDice([8]), 0, target=8, sides=12).success is False


def test_natural_1_misses_and_a_crit_range_hits_whatever_the_total():
    """Sizebound §5.0.4 A5 and A8 (R-72: the kept die decides)."""
    one = d20_test(ScriptedDice([1, 17]), 40, Edge.DISADVANTAGE, target=10, fumble=1)
    assert (one.natural, one.total, one.success) == (1, 41, False)
    crit = d20_test(ScriptedDice([19]), -30, target=10, sure=19)
    assert (crit.total, crit.success) == (-11, True)


def test_the_result_is_frozen():
    t = d20_test(ScriptedDice([5]))
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.modifier = 3  # type: ignore[misc]


@pytest.mark.parametrize("edge", list(Edge))
@pytest.mark.parametrize("beat", ["over", "at_least"])
@pytest.mark.parametrize("sides", [12, 20])
def test_chance_equals_the_count_over_every_face(edge, beat, sides):
    for modifier, target, fumble, sure in [(0, 10, 0, None), (3, 9, 1, 20), (-4, 2, 1, 19),
                                           (2, 30, 0, 20), (9, -3, 2, None)]:
        n = 1 if edge is Edge.NORMAL else 2
        wins = sum(
            bool(KeptDieTest(sides, edge, faces, modifier, target, beat, fumble, sure).success)
            for faces in itertools.product(range(1, sides + 1), repeat=n))
        assert chance(modifier, target, edge, sides=sides, beat=beat, fumble=fumble,
                      sure=sure) == Fraction(wins, sides ** n)
