"""Mano a Mano resolution (spec §5.1, §5.2.1, §2.6, §8) against the worked examples of spec §11."""

from __future__ import annotations

import doctest

import pytest

from envs.mano_a_mano.rules import resolution as R
from envs.mano_a_mano.rules.catalogue import Region


def test_doctests():
    assert doctest.testmod(R).failed == 0


def test_11_1_opposed_roll_with_equal_levels_is_fifty_percent():
    difficulty = R.opposed_difficulty(3)
    assert not R.success(10, 3, difficulty) and R.success(11, 3, difficulty)
    assert [d for d in range(1, 21) if R.success(d, 3, difficulty)] == list(range(11, 21))


def test_equality_fails_and_a_natural_20_always_succeeds_ruling_r36():
    assert not R.success(12, 2, 14)  # 11.3: 14 vs 14 misses
    assert R.success(20, -50, 99)


def test_tie_contest():
    assert R.tie_contest(15, 5, 0, 0) == "A"
    assert R.tie_contest(5, 15, 0, 0) == "B"
    assert R.tie_contest(15, 15, 0, 0) is None and R.tie_contest(2, 3, 0, 0) is None


def test_11_2_substitute_dice():
    assert R.substitute_roll("d10x2", 3) == (6, False)
    assert R.substitute_roll("d10x2", 10, 7) == (20, True)
    assert R.substitute_roll("d10x2", 10, 5) == (20, False)
    assert R.substitute_roll("d6", 6, 5) == (20, True)
    assert R.substitute_roll("d8", 8, 6) == (21, True)
    assert R.substitute_roll("d12", 12, 8) == (22, False)
    assert R.substitute_roll("d6", 6) == (20, False)  # second roll skipped


def test_circumstances_take_the_largest_only_and_darkness_adds_separately_ruling_r40():
    assert R.circumstance([2, 4, 2]) == 4 and R.circumstance([]) == 0
    assert R.darkness("total", "missile") == 5 and R.darkness("very_dim", "grappling") == 1
    assert R.darkness("total", "striking", blind=True) == 0 and R.darkness(None, "striking") == 0


def test_11_5_blunt_split():
    assert R.harm(5, "blunt", 0) == (2, 3)
    assert R.harm(5, "sharp", 0) == (5, 0)
    assert R.harm(5, "padded", 0) == (0, 5)


def test_harm_after_absorption_chokes_and_falls():
    assert R.harm(3, "sharp", 5) == (0, 0)
    assert R.harm(1, "blunt", 0, choke=True) == (0, 2)  # a choke does at least 2 stun
    assert R.harm(0, "blunt", 0, fall=True) == (0, 2)
    assert R.harm(0, "blunt", 0, fall=True, min_stun_exempt=True) == (0, 0)


JACKET, HELMET = R.Piece("leather_jacket", 5, 2), R.Piece("crash_helmet", 2, 5)


def test_11_6_avoiding_armor():
    regions = R.resolve_regions([JACKET, HELMET])
    assert R.best_absorption(regions) == 5 and R.total_cover(regions) == 7
    # no avoidance / avoid the helmet only / avoid both
    assert (R.avoid_cost(regions, 5), R.absorb_after(regions, 5)) == (0, 5)
    assert (R.avoid_cost(regions, 2), R.absorb_after(regions, 2)) == (2, 2)
    assert (R.avoid_cost(regions, 0), R.absorb_after(regions, 0)) == (7, 0)
    assert R.avoidance_levels(regions) == [5, 2, 0]


def test_11_7_layered_armor():
    regions = R.resolve_regions(
        [R.Piece("ballistic_vest", 3, 3), R.Piece("rifle_plate", 1, 5, inside="ballistic_vest")]
    )
    assert sorted(regions, key=lambda r: r.absorption) == [Region(2, 3), Region(1, 8)]
    assert R.best_absorption(regions) == 8 and R.total_cover(regions) == 3


def test_complete_cover_keeps_a_region_ruling_r55():
    hide = [Region(None, 1)]
    assert (
        R.total_cover(hide) == "complete"
        and R.avoid_cost(hide, 0) == 0
        and R.absorb_after(hide, 0) == 1
    )
    plated = [Region(6, 4), Region(5, 2)]  # covers add up to 11: complete, one region must stay
    assert R.total_cover(plated) == "complete"
    assert not R.avoidance_legal(plated, 0) and R.avoidance_legal(plated, 2)
    assert R.avoidance_levels(plated) == [4, 2]


def test_11_8_distance_penalty():
    assert [R.distance_penalty(d, 140) for d in (6, 7, 13, 14, 20, 70, 76)] == [
        0,
        1,
        1,
        2,
        2,
        10,
        10,
    ]
    assert R.distance_penalty(0, 1) == 0  # adjacent throws carry no penalty (RULING R8)


def test_power_doubling_optional_rules_and_charging():
    assert R.attack_power(5, double=True) == 10  # 11.3: powerful machete strike
    assert R.attack_power(5, double=True, die=12, random_damage=True) == 5
    assert R.attack_power(5, double=True, die=13, random_damage=True) == 10
    assert (
        R.attack_power(5, double=True, die=20, random_damage=True, critical_hits=True) == 15
    )  # R37: 3P
    assert R.attack_power(4, charge_hexes=3) == 4 + 1  # RULING R28: 6 m run -> +1
    assert R.attack_power(4, charge_hexes=2) == 4
    assert R.attack_power(4, kind="missile", charge_hexes=5) == 4


@pytest.mark.parametrize(
    ("stun", "damage", "state"),
    [
        (0, 0, "healthy"),
        (4, 3, "healthy"),
        (0, 8, "injured"),
        (3, 10, "injured"),
        (4, 10, "incapacitated"),
        (0, 14, "incapacitated_by_damage"),
        (14, 0, "incapacitated"),
        (1, 13, "incapacitated"),
    ],
)
def test_health_thresholds_ruling_r1(stun, damage, state):
    assert R.health(stun, damage, toughness=7) == state


def test_position_modifier_consequences():
    # two neutral grapplers striking each other: -5 attack, -5 defense
    assert R.attack_position_mod(True, False, False, "striking") == -5
    assert R.defense_position_mod(True, False, False, False, "striking") == -5
    # a dominant grappler against its inferior partner: +5 attack and the partner's -5 defense
    assert (
        R.attack_position_mod(True, True, False, "grappling")
        - R.defense_position_mod(True, False, False, False, "grappling")
        == 10
    )
    # ground grapplers get +5 against missiles; standing ones -5
    assert R.defense_position_mod(True, False, True, True, "missile") == 5
    assert R.defense_position_mod(True, False, False, False, "missile") == -5
    # on the ground, not grappling: -5 striking attack and defense, +5 against missiles,
    # grappling unaffected
    assert R.attack_position_mod(False, False, True, "striking") == -5
    assert R.attack_position_mod(False, False, True, "grappling") == 0
    assert R.defense_position_mod(False, False, False, True, "missile") == 5
    assert R.defense_position_mod(False, False, False, True, "striking") == -5
