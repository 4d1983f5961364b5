"""The seed's text conventions (its 3.1 Index; spec §11.1 WE-11, 13-19, 22, 29, 30, 32, 34, 35)
with the exact numbers of each worked example, plus the engine spots that use them (the damage
clamp, Absorption, the Then-and-PNR boundary), with forced dice.

The examples no fight can play yet (no skill or label carries the words) are checked here only:
WE-11, WE-14's typo, WE-15, WE-17, WE-18 (no Line skill), WE-19 (the engine rolls two d10s),
WE-22, WE-29 (no Leap action), WE-34 (no fire cells or pages), WE-35 (stat blocks at load).
WE-30's collision is played in test_sizebound_full_motion2.py."""

from __future__ import annotations

import pytest
from test_sizebound_rules import texts

from envs.core.dice import ScriptedDice
from envs.core.flow import Ctx, ReplayDice
from envs.core.squaregrid import SquareGrid
from envs.sizebound.rules import content as C
from envs.sizebound.rules import conventions as V
from envs.sizebound.rules import from_situation
from envs.sizebound.rules.damage import deal, harm
from envs.sizebound.rules.full_geometry import line_cells
from envs.sizebound.rules.full_move2 import TELEPORT_FACTOR, table_dice

FQ = {"version": "full", "exertion_control": "off"}
CQ = {"version": "core", "exertion_control": "off"}
BARE = {"name": "Bare", "size": "Medium", "level": 1,
        "totals": {"might": 12, "skill": 15, "magic": 10},
        "scaling_improvements": {"hp": 0, "mana": 0}, "armour": "none",
        "wielded": {}, "skills": [], "exertion_pool": "player"}


def _ctx(faces=()):
    return Ctx(ReplayDice([], ScriptedDice(list(faces))), [])


def _pair(target_stats, options=FQ, hp=None):
    rows = [{"id": "src", "side": "A", "stats": "duelist", "at": [2, 2]},
            {"id": "tgt", "side": "B", "stats": target_stats, "at": [8, 8],
             **({"state": {"hp": hp}} if hp is not None else {})}]
    enc = from_situation({"system": "sizebound", "options": options, "combatants": rows,
                          "map": {"w": 12, "h": 12}, "actor": "tgt"}, "case.yaml")
    return enc, enc.by_id["src"], enc.by_id["tgt"]


# ---------------------------------------------------------------- WE-11 Die Class
def test_we11_die_class_ladder_steps_and_clamps():
    assert V.DIE_CLASSES == ("0", "1", "1d4", "1d6", "1d8", "1d10", "1d12", "3d6", "1d20",
                             "3d10")
    assert V.step_die_class("1d20", -1) == "3d6"
    assert V.step_die_class("1d12", 1) == "3d6"
    assert V.step_die_class("1d4", -2) == "0"
    assert V.step_die_class("1d4", -5) == "0" and V.step_die_class("1d20", 3) == "3d10"
    assert V.step_die_class("2d4", 1) == "1d10"  # an equivalent dice is its class (WE-12)
    assert V.die_class_dice("1") == (0, 0, 1) and V.die_class_dice("3d6") == (3, 6, 0)
    assert V.die_class_dice("0") == (0, 0, 0)
    with pytest.raises(ValueError, match="not a Die Class"):
        V.step_die_class("1d7", 1)


# ---------------------------------------------------------------- WE-13 Gain
def test_we13_gain_adds_dice_and_a_negative_gain_clamps_damage_at_zero():
    assert V.gain_dice("1d8 + Magic", "+2d6") == "1d8 + Magic + 2d6"
    assert V.gain_dice("1d8 + Magic", "-3") == "1d8 + Magic - 3"
    assert V.gain_damage(7, -3) == 4
    assert V.gain(2, -3) == -1 and V.gain_damage(2, -3) == 0


def test_we13_engine_a_hit_below_zero_deals_zero():
    enc, src, tgt = _pair("goblin", CQ)
    ev: list = []
    # a 1d4 showing 2 that gains -3: -1, clamped to 0 at D10; 7 - 3 = 4 hurts
    assert deal(enc, _ctx([2]), ev, dealer=src, target=tgt, dice_n=1, dice_sides=4, flat=-3,
                dtypes=("Slashing",)) == 0
    assert tgt.hp == 47 and "tgt takes 0 Slashing -> 47 HP" in texts(ev)
    assert deal(enc, _ctx([4]), ev, dealer=src, target=tgt, dice_n=1, dice_sides=4, flat=3 - 3,
                dtypes=("Slashing",)) == 4 and tgt.hp == 43


# ---------------------------------------------------------------- WE-14 Reduce by
def test_we14_reduce_by_ignores_the_sign_and_changes_the_modifier():
    assert V.reduce_by(15, 4) == 11 and V.reduce_by(15, -4) == 11
    assert C.modifier(15) == 2 and C.modifier(V.reduce_by(15, 4)) == 0


# ---------------------------------------------------------------- WE-15 Stacking
def test_we15_a_bonus_stacks_with_itself_only_when_it_says_so():
    minute = V.ROUNDS_PER_MINUTE
    first = V.Bonus(2, minute)
    later = V.Bonus(first.value, first.rounds - 4)  # 4 rounds on, re-applied
    assert V.apply_bonus(later, V.Bonus(2, minute)) == V.Bonus(2, 10)  # the latest duration
    assert V.apply_bonus(first, V.Bonus(2, minute), stacks=True) == V.Bonus(4, 20)
    assert V.apply_bonus(None, first) == first


# ---------------------------------------------------------------- WE-16 Absorption
def test_we16_absorption_split():
    assert V.absorb_split(2, 50) == (1, 1)
    assert V.absorb_split(2, 100) == (0, 2)
    assert V.absorb_split(7, 0) == (7, 0) and V.absorb_split(3, 50) == (2, 1)


@pytest.mark.parametrize("pct, hp, healed", [(50, 30, 1), (100, 32, 2)])
def test_we16_engine_two_fire_at_hp_30(pct, hp, healed):
    block = {**BARE, "damage_mods": {"absorb": {"Fire": pct}}}
    enc, src, tgt = _pair(block, hp=30)
    ev: list = []
    taken = deal(enc, _ctx(), ev, dealer=None, target=tgt, dice_n=0, dice_sides=0, flat=2,
                 dtypes=("Fire",))
    assert tgt.hp == hp and taken == 2 - healed
    assert f"tgt heals {healed} -> {30 + healed} HP" in texts(ev)
    core, _, t2 = _pair(block, CQ, hp=30)  # CORE: no Absorption
    deal(core, _ctx(), [], dealer=None, target=t2, dice_n=0, dice_sides=0, flat=2,
         dtypes=("Fire",))
    assert t2.hp == 28


# ---------------------------------------------------------------- WE-17 Collective Might
def test_we17_collective_might_pools_might_never_skill():
    assert V.collective([20, 10]) == 30 and V.moves([20, 10], 30)
    assert not V.moves([29], 30)
    with pytest.raises(ValueError, match="only Might or Magic"):
        V.collective([12, 12], "skill")
    assert V.moves([8, 6], 14, "magic")
    assert V.FRAGILE_MIGHT == 12 and V.breaks_fragile([12]) and V.breaks_fragile([6, 6])
    assert not V.breaks_fragile([11])


# ---------------------------------------------------------------- WE-18 Lines
def test_we18_lines_from_the_source_facing_east():
    grid = SquareGrid(20, 20)
    east = 0  # squaregrid.DIRECTIONS[0] == (1, 0)
    # the source at (5, 5) stands for the example's (0, 0)
    six = line_cells(grid, (5, 5), 1, east, 6)
    assert six == {(5 + x, 5) for x in range(1, 7)} and len(six) == 6
    wide = line_cells(grid, (5, 5), 1, east, 6, width=3)
    assert wide == {(5 + x, 5 + y) for x in range(1, 7) for y in (-1, 0, 1)}
    assert len(wide) == 18


# ---------------------------------------------------------------- WE-19 Percent chance
def test_we19_percent_chance_from_a_d20():
    assert V.percent_from_d20(13) == 65 and not V.percent_happens(65, 50)
    assert V.percent_from_d20(10) == 50 and V.percent_happens(50, 50)


# ---------------------------------------------------------------- WE-22 Increase to / reduce to
def test_we22_increase_to_and_reduce_to_never_go_the_other_way():
    assert V.increase_to(3, 5) == 5 and V.increase_to(7, 5) == 7
    assert V.reduce_to(7, 5) == 5 and V.reduce_to(3, 5) == 3


# ---------------------------------------------------------------- WE-29, WE-30 movement
def test_we29_leap_bought_with_walk():
    assert V.LEAP_WALK_COST == 3
    assert V.leap_from_walk(5, 1) == 2 and V.leap_from_walk(5, 2) is None


def test_we30_teleport_damage_is_the_fall_damage_for_three_times_the_distance():
    assert TELEPORT_FACTOR * 2 == 6 and table_dice(6) == 3  # 2 spaces: 3d6 True
    assert max(1, table_dice(TELEPORT_FACTOR * 1)) == 1  # 1 space: 3 -> at least 1d6


# ---------------------------------------------------------------- WE-32 Then and the PNR
def test_we32_exact_kill_amount_then_the_second_part():
    assert V.exact_kill(48, -20) == 69
    assert V.then_chain(True, 69) == 69 and V.then_chain(False, 69) is None


def test_we32_engine_true_damage_exactly_enough_kills_one_less_does_not():
    enc, _, tgt = _pair("mage", CQ)
    assert tgt.profile.max_hp == 48 and tgt.profile.pnr == -20
    ev: list = []
    harm(enc, ev, tgt, V.exact_kill(48, -20) - 1, ("True",))  # 68: HP -20, not below the PNR
    assert tgt.alive and tgt.hp == -20
    tgt.hp = 48
    harm(enc, ev, tgt, V.exact_kill(tgt.hp, tgt.profile.pnr), ("True",))
    assert not tgt.alive and tgt.hp == -21 and "tgt dies (-21 HP)" in texts(ev)


# ---------------------------------------------------------------- WE-34 Water damage
def test_we34_water_damage_fire_and_pages():
    assert V.fires_put_out(10) == 1 and V.fires_put_out(9) == 0
    assert V.pages_soaked(1) == 2
    assert V.percent_happens(V.percent_from_d20(10), 50)  # each page: 50%


# ---------------------------------------------------------------- WE-35 Level-up ties
def test_we35_level_up_ties():
    assert V.stat_bonus_choices((14, 14, 10), "+1H/+2") == [(0, 1), (1, 1), (2, 2)]
    assert V.stat_bonus_choices((16, 16, 16), "+1H/+2") == [(0, 2), (1, 2), (2, 2)]
    assert V.stat_bonus_choices((14, 12, 10), "+2") == [(0, 2), (1, 2), (2, 2)]
    assert V.stat_bonus_choices((14, 12, 10), "+0") == []
    # the loader's reachability uses the same choices (spec §2.4): at L1 from 10/12/14,
    # +1 to the highest 14 or +2 to another
    assert C.totals_reachable((15, 12, 10), 1) and C.totals_reachable((14, 14, 10), 1)
    assert not C.totals_reachable((16, 12, 10), 1)
