"""Palladium Revised content (spec §1.4, §2, §4.2, §5.9, §13): the attribute chart and training
packages, the derived pools, Zone radii for any height, the Melee Grid for any N, the Threshold
Rule and the exact arithmetic, the DEFAULT weapons, armour and spells, every number of §13.1 and
§13.2 against the shipped catalogue and against the formulas, the §13.3 encounters, and bad data
failing with one line naming the file, the entry and the field.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
import yaml

from envs.core.data import DataError
from envs.palladium_revised.rules import content as C
from envs.palladium_revised.rules.catalogue import (
    DATA,
    catalogue,
    encounter_from_mapping,
    encounters,
    load_catalogue,
    stat_block_from_mapping,
    stat_blocks,
)

SHIPPED = DATA / "catalogue.yaml"

# --- the attribute chart (spec §2.3, R46) ----------------------------------------------------

# spec §2.3 chart, values 16..30: pp_bonus, ps_damage, coma_pct
CHART = {16: (1, 1, 4), 17: (1, 2, 6), 18: (2, 3, 8), 19: (2, 4, 10), 20: (3, 5, 12),
         21: (3, 6, 14), 22: (4, 7, 16), 23: (4, 8, 18), 24: (5, 9, 20), 25: (5, 10, 22),
         26: (6, 11, 24), 27: (6, 12, 26), 28: (7, 13, 28), 29: (7, 14, 30), 30: (8, 15, 32)}


def test_attribute_chart_as_printed():
    for value, row in CHART.items():
        assert (C.pp_bonus(value), C.ps_damage(value), C.coma_pct(value)) == row, value
    for value in range(0, 16):  # "15 or less" gives 0
        assert (C.pp_bonus(value), C.ps_damage(value), C.coma_pct(value)) == (0, 0, 0)


def test_attribute_chart_formula_beyond_the_printed_range():
    # floor((A - 14) / 2), A - 15, 4 + 2 (A - 16) for any A >= 16
    assert [C.pp_bonus(a) for a in (31, 32, 40, 99)] == [8, 9, 13, 42]
    assert [C.ps_damage(a) for a in (31, 40)] == [16, 25]
    assert [C.coma_pct(a) for a in (31, 40)] == [34, 52]
    assert C.pp_bonus(None) == C.ps_damage(None) == C.coma_pct(None) == 0  # no score (R43)


@pytest.mark.parametrize("bad", [-1, 1.5, "16", True])
def test_attribute_chart_rejects_bad_values(bad):
    with pytest.raises(ValueError, match="expected an integer"):
        C.pp_bonus(bad)
    with pytest.raises(ValueError, match="expected an integer"):
        C.Attributes(10, 10, 10, 10, bad, 10, 10, 10)


# spec §2.3 DEFAULT packages: N, init, strike, parry, dodge, maneuver, spell_power, S.D.C., crit
PACKAGES = {"fighter": (4, 2, 2, 2, 1, 1, 0, 50, 20), "rogue": (5, 3, 1, 2, 3, 2, 0, 35, 19),
            "ranger": (4, 2, 2, 1, 2, 1, 0, 40, 20), "mage": (3, 1, 0, 1, 1, 0, 2, 25, 20)}


def test_training_packages():
    assert list(C.PACKAGES) == list(PACKAGES)
    for name, (n, init, st, pa, do, ma, sp, sdc, crit) in PACKAGES.items():
        p = C.package(name)
        t = p.training
        assert (p.actions, t.init, t.strike, t.parry, t.dodge, t.maneuver, t.spell_power,
                p.sdc, p.crit_min) == (n, init, st, pa, do, ma, sp, sdc, crit)
        assert (t.damage, t.taunt, t.save_magic, t.save_insanity, t.save_coma_pct) == (0,) * 5
    with pytest.raises(ValueError, match="unknown package 'paladin'; expected one of fighter"):
        C.package("paladin")


def test_bonuses_are_chart_plus_training():
    attrs = C.Attributes(10, 16, 18, 24, 20, 21, 12, 10)
    chart = C.attribute_bonuses(attrs)
    # P.P. 21 -> +3 on strike/parry/dodge/maneuver; P.S. 24 -> +9; M.E. 16 -> +1 spell power and
    # insanity; M.A. 18 -> +2 taunt; P.E. 20 -> +3 save vs magic and 12% coma; init none
    assert chart.as_dict() == {"init": 0, "strike": 3, "parry": 3, "dodge": 3, "maneuver": 3,
                               "damage": 9, "spell_power": 1, "taunt": 2, "save_magic": 3,
                               "save_insanity": 1, "save_coma_pct": 12}
    fighter = C.package("fighter").training
    assert C.bonuses(attrs, fighter) - chart == fighter
    assert C.bonuses(attrs, fighter).strike == 5 and C.bonuses(attrs, fighter).init == 2


def test_pools():
    assert C.hp_base(16, 3) == 28 and C.hp_base(10, 1) == 14  # P.E. + 4 x level (R46)
    assert C.hp_base(None, 5) == 0 and C.stamina_max(None) == 0  # no P.E. (R43)
    assert C.stamina_max(16) == 32 and C.morale_max(12) == 24 and C.morale_max(None) == 0
    assert [C.mage_ee_max(lv) for lv in (1, 3, 10)] == [30, 50, 120]
    with pytest.raises(ValueError, match="level: expected an integer >= 1, got 0"):
        C.hp_base(12, 0)


def test_level_scaling_w1():
    # spec §11 W1: "+10 to P.S. (+1/1 Level)" and "+1 to Strike/5 Levels"
    assert [C.level_bonus(10, 1, 1, lv) for lv in (1, 2, 5)] == [10, 11, 14]
    assert [C.level_bonus(0, 1, 5, lv) for lv in (1, 4, 5, 9, 10, 15, 20)] == [0, 0, 1, 1, 2, 3,
                                                                               3]
    assert C.level_bonus(0, 1, 5, 20, cap=None) == 4  # a raised cap / a Rank ability


# --- arithmetic (spec §1.4.2, §1.4.3, §8.2) --------------------------------------------------


def test_threshold_rule_w4():
    assert C.threshold(2 + 2 + 3 - 10) == 0  # 3D6 - 10 rolling 7 deals 0, not -3
    assert C.threshold(1 - 2) == 0  # "lose 1D4 - 2 Morale" rolling 1 loses 0
    assert C.threshold(-3, ignores_threshold=True) == -3
    assert C.threshold(Fraction(7, 2)) == Fraction(7, 2)


def test_percent_buckets_add_then_multiply_once():
    assert C.pct_factor(-25 + -10) == Fraction(65, 100)
    assert C.pct_factor(-150) == 0 and C.pct_factor(50) == Fraction(3, 2)


def test_combat_roll_totals():
    # spec §11 C10: Exhausted (25%) and Fatigued (50%) scale positive bonuses, floored
    sellsword = (3, 3, 2, 2, 2, 3)
    assert [C.effective_bonus(b, 25) for b in sellsword] == [2, 2, 1, 1, 1, 2]
    assert [C.effective_bonus(b, 50) for b in sellsword] == [1, 1, 1, 1, 1, 1]
    assert C.effective_bonus(-3, 50) == -3  # R3: penalties untouched
    assert C.combat_roll_total(10, 3, reduction_pct=25) == 12
    assert C.combat_roll_total(12, 3, pct=-25) == 11  # §11 C5: floor((12 + 3) x 0.75)
    assert C.combat_roll_total(17, 4, pct=-150) == 0  # §11 C7: two in a grapple
    assert C.combat_roll_total(1, -5) == 0  # Threshold Rule on the roll
    assert C.combat_roll_total(10, 2, flat=2, pct=-10, post=1) == 13  # floor(14 x 0.9) + 1
    with pytest.raises(ValueError, match="expected 0, 25 or 50 percent"):
        C.effective_bonus(3, 30)


def test_damage_pipeline():
    assert C.damage_final(7, dm_pct=-75) == 1  # §11 C2: floor(1.75)
    assert C.damage_final(4 + 4 + 3, dm_pct=-25) == 8  # §11 C5: closer band
    assert C.damage_final(5, crit_bonus_pct=100) == 10  # §11 C3
    assert C.damage_final(11, dm_pct=-75, crit_bonus_pct=100) == 5  # 11 x 0.25 x 2 = 5.5
    assert C.damage_final(10, dm_pct=10, em_pct=-5, tm_pct=-50) == 5  # 10 x 1.1 x 0.95 x 0.5
    assert C.damage_final(-3) == 0
    assert C.increased_cost(1, 50) == 2 and C.increased_cost(3, 50) == 5  # R37 rounds up


def test_criticals_and_parry():
    assert list(C.crit_range(19)) == [19, 20] and list(C.crit_range(20)) == [20]
    assert C.is_crit(19, 19) and not C.is_crit(19, 20)
    assert C.crit_effect_factor() == Fraction(3, 2) and C.crit_effect_factor(50) == Fraction(5, 4)
    assert C.mitigated_loss(7) == 1 and C.mitigated_loss(4, 50) == 2  # R14
    assert C.prone_parry_mitigation(75) == 50 and C.prone_parry_mitigation(40) == 40  # R11
    assert C.prone_parry_mitigation(400) == 100
    assert (C.PARRY_MITIGATION_PCT, C.CRIT_BONUS_PCT, C.CRIT_MIN) == (75, 100, 20)
    d = catalogue().defaults  # spec §13.4 defaults, the same as the records' own defaults
    assert (d.parry_mitigation_pct, d.crit_bonus_pct, d.crit_min, d.perception_pct) == \
        (C.PARRY_MITIGATION_PCT, C.CRIT_BONUS_PCT, C.CRIT_MIN, C.PERCEPTION_PCT) == (75, 100, 20,
                                                                                  30)
    assert d == type(d)()


def test_damage_shields():
    assert (C.WARD_SHIELD, C.WARD_DURATION_S) == (10, 15)
    assert C.empowered_body_shield(50) == 2 and C.empowered_body_shield(80) == 4
    assert C.EMPOWERED_BODY_DURATION_S == 10


# --- movement, Zones, Melee Grid (spec §2.5, §4.2, §5.3) -------------------------------------


def test_movement_formulas():
    assert C.full_move_ft(12, 4) == 45 and C.full_move_ft(10, 4) == 37  # floor(P.M. x 15 / N)
    assert C.full_move_ft(16, 17) == 14 and C.step_budget(12) == 12
    assert C.eff_pm(12, -5 - 5) == 10 and C.eff_pm(10, -200) == 0 and C.eff_pm(None) == 0
    with pytest.raises(ValueError, match="actions N: expected an integer >= 1, got 0"):
        C.full_move_ft(12, 0)


# spec §2.5 table: height -> r_G, r_C, r_M, r_R
RADII = {4: (1, 2, 4, 8), 5: (1, 2, 5, 10), 6: (1, 2, 6, 12), 8: (1, 3, 8, 16),
         10: (1, 4, 10, 20), 12: (1, 4, 12, 24)}


def test_zone_radii_table():
    for height, radii in RADII.items():
        r = C.zone_radii(height)
        assert (r.g, r.c, r.m, r.r) == radii, height


def test_zone_radii_any_height_exact():
    assert C.zone_radii(1) == C.ZoneRadii(1, 2, 3, 4)  # each layer one past the inner one
    assert C.zone_radii(Fraction(11, 2)) == C.zone_radii(5.5) == C.ZoneRadii(1, 2, 6, 11)
    assert C.zone_radii(30) == C.ZoneRadii(3, 11, 30, 60)  # rnd(10.5) = 11, half up
    assert C.zone_radii("0.5") == C.ZoneRadii(1, 2, 3, 4)
    assert C.rnd(Fraction(7, 2)) == 4 and C.rnd(Fraction(5, 2)) == 3 and C.rnd(Fraction(1, 2)) == 1


@pytest.mark.parametrize("bad", [0, -6, "tall", True, None])
def test_zone_radii_bad_height(bad):
    with pytest.raises(ValueError, match="expected a height in feet > 0"):
        C.zone_radii(bad)


def test_bands_by_distance_w8():
    six = C.zone_radii(6)
    assert [six.band(d) for d in (0, 1, 2, 5, 6, 9, 12, 13, 100)] == [1, 1, 2, 3, 3, 4, 4, 5, 5]
    assert [six.radius(b) for b in (1, 2, 3, 4)] == [1, 2, 6, 12]
    assert C.band_index("R") == C.R == 4 and C.BAND_NAMES[C.FAR] == "Far"
    with pytest.raises(ValueError, match="band: expected 1..4, got 5"):
        six.radius(5)
    with pytest.raises(ValueError, match="unknown band 'X'"):
        C.band_index("X")


# spec §4.2 Melee Grid
GRID = {1: "1", 2: "1 15", 3: "1 7 15", 4: "1 5 10 15", 5: "1 4 8 11 15", 6: "1 3 7 10 13 15",
        7: "1 3 6 8 10 13 15", 8: "1 3 5 7 9 11 13 15", 9: "1 3 5 7 9 11 12 14 15",
        10: "1 2 3 5 7 9 11 12 14 15", 11: "1 2 3 5 6 7 9 11 12 14 15",
        12: "1 2 3 5 6 7 9 10 11 12 14 15", 13: "1 2 3 4 6 7 8 9 10 12 13 14 15",
        14: "1 2 3 4 5 6 8 9 10 11 12 13 14 15", 15: " ".join(map(str, range(1, 16)))}


def test_melee_grid_rows():
    for n, seconds in GRID.items():
        want = [int(s) for s in seconds.split()]
        assert list(C.GRID[n]) == want and len(want) == n
        assert C.slot_counts(n) == {s: 1 for s in want}


def test_slot_counts_beyond_fifteen():
    seventeen = C.slot_counts(17)  # §11 W6: two slots in Seconds 1 and 15
    assert seventeen == {s: 2 if s in (1, 15) else 1 for s in range(1, 16)}
    assert C.slot_counts(30) == {s: 2 for s in range(1, 16)}
    assert C.slot_counts(34) == {s: 3 if s in (1, 5, 10, 15) else 2 for s in range(1, 16)}
    for n in range(1, 100):
        assert sum(C.slot_counts(n).values()) == n
    for bad in (0, -1, 2.0):
        with pytest.raises(ValueError, match="actions N: expected an integer"):
            C.slot_counts(bad)


# --- DEFAULT weapons, armour, spells (spec §2.6, §2.7, §5.9) ---------------------------------

# spec §2.6: damage, reach, short, hands, kind, wounds, cost, ps, inc, max_inc, ammo
WEAPONS = {
    "unarmed": ("1d4", 2, True, 1, "blunt", 0, 1, True, None, None, None),
    "dagger": ("1d6", 2, True, 1, "edged", 1, 1, True, None, None, None),
    "short_sword": ("1d8", 3, False, 1, "edged", 1, 1, True, None, None, None),
    "long_sword": ("2d6", 3, False, 1, "edged", 1, 1, True, None, None, None),
    "mace": ("2d4", 3, False, 1, "blunt", 0, 1, True, None, None, None),
    "quarterstaff": ("1d6", 3, False, 2, "blunt", 0, 1, True, None, None, None),
    "battle_axe": ("3d6", 3, False, 2, "edged", 1, 1, True, None, None, None),
    "great_club": ("2d6", 3, False, 2, "blunt", 0, 1, True, None, None, None),
    "spear": ("1d8", 4, False, 2, "piercing", 1, 1, True, None, None, None),
    "throwing_knife": ("1d4", None, False, 1, "edged", 1, 1, True, 20, 3, 3),
    "short_bow": ("1d6", None, False, 2, "piercing", 1, 1, False, 60, 5, None),
    "long_bow": ("2d6", None, False, 2, "piercing", 1, 1, False, 80, 6, None),
    "heavy_crossbow": ("2d8", None, False, 2, "piercing", 1, 2, False, 80, 6, None),
}


def test_weapon_table_in_content_and_file():
    shipped = catalogue().weapons
    assert list(C.DEFAULT_WEAPONS) == list(WEAPONS) == list(shipped)
    for wid, row in WEAPONS.items():
        w = C.DEFAULT_WEAPONS[wid]
        assert (str(w.damage), w.reach, w.short, w.hands, w.kind, w.wounds, w.cost, w.ps,
                w.inc, w.max_inc, w.ammo) == row, wid
        assert shipped[wid] == w
    bow = C.DEFAULT_WEAPONS["long_bow"]
    assert bow.ranged and bow.max_range == 480 and C.UNARMED.id == "unarmed"
    assert [bow.increment(d) for d in (0, 60, 80, 81, 480)] == [1, 1, 1, 2, 6]
    with pytest.raises(ValueError, match="dagger is a melee weapon"):
        C.DEFAULT_WEAPONS["dagger"].increment(3)


def test_armour_table_in_content_and_file():
    table = {"none": (0, 0), "leather": (10, 20), "chain_shirt": (12, 40),
             "chain_mail": (13, 44), "plate": (16, 100), "ogre_hide_vest": (8, 30)}
    assert {a.id: (a.ar, a.sdc) for a in C.DEFAULT_ARMOUR.values()} == table
    assert catalogue().armour == C.DEFAULT_ARMOUR


def test_spells_of_5_9():
    s = catalogue().spells
    # id: school, actions, E.E., range, resolve, save, damage, type, crit table
    table = {
        "fire_bolt": ("evocation", 1, 5, 60, "spell_strike", None, "2d6", "fire", "evocation"),
        "frost_lance": ("evocation", 1, 4, 60, "spell_strike", None, "1d6", "cold", "evocation"),
        "drench": ("evocation", 1, 2, 30, "spell_strike", None, None, "water", "evocation"),
        "withering_curse": ("affliction", 2, 6, 60, "save", "magic", "2d6", "magic",
                            "affliction"),
        "stunning_hex": ("affliction", 1, 4, 30, "save", "insanity_stun", None, None,
                         "affliction"),
        "mend": ("restoration", 1, 6, "touch", "crit_only", None, None, None, "healing"),
        "ward": ("abjuration", 1, 5, "touch", "none", None, None, None, None),
    }
    assert list(s) == list(table)
    for sid, row in table.items():
        sp = s[sid]
        got = (sp.school, sp.actions, sp.ee, sp.range, sp.resolve, sp.save,
               None if sp.damage is None else str(sp.damage), sp.type, sp.crit_table)
        assert got == row, sid
    assert (s["fire_bolt"].rider.ignite, s["frost_lance"].rider.numbing,
            s["drench"].rider.soaked) == (True, 1, 2)
    assert s["withering_curse"].armour_ignored and not s["fire_bolt"].armour_ignored
    assert [s["stunning_hex"].stunned.stacks(m) for m in (0, 1, 5, 14)] == [1, 1, 3, 8]  # W12
    assert str(s["mend"].heal) == "2d6" and s["mend"].touch and not s["mend"].attack
    assert s["ward"].buff is not None and (s["ward"].buff.name, s["ward"].buff.damage_shield,
                                           s["ward"].buff.duration_s) == ("Ward", 10, 15)
    assert s["stunning_hex"].attack and s["ward"].crit_table is None


# --- §13.1 and §13.2 -------------------------------------------------------------------------

# spec §13.2: Ht N H.P. S.D.C. Sta Mor E.E. init str par dod man dmg sp crit AR/S.D.C. zone
# radius, Full Move / Step budget, then the weapons
SUMMARY = {
    "sellsword": ("6 4 28 50 32 24 0 2 3 3 2 2 3 0 20 12 40 6 45 12", "long_sword dagger"),
    "spear_guard": ("6 4 27 50 30 26 0 2 2 2 1 1 1 0 20 13 44 12 37 10", "spear dagger"),
    "duelist": ("6 5 26 35 28 28 0 3 4 5 6 5 0 0 19 10 20 6 48 16", "short_sword dagger"),
    "archer": ("6 4 26 40 28 24 0 2 4 3 4 3 0 0 20 10 20 2 52 14", "long_bow dagger"),
    "battle_mage": ("6 3 24 25 24 32 50 1 0 1 1 0 0 3 20 0 0 6 50 10", "quarterstaff"),
    "ogre_brute": ("10 3 36 80 40 16 0 0 2 1 0 3 9 0 20 8 30 10 70 14", "great_club"),
    "goblin_skirmisher": ("4 3 14 12 20 16 0 2 2 2 3 2 0 0 20 0 0 4 80 16",
                          "short_sword throwing_knife"),
}
ARMOUR = {"sellsword": "chain_shirt", "spear_guard": "chain_mail", "duelist": "leather",
          "archer": "leather", "battle_mage": "none", "ogre_brute": "ogre_hide_vest",
          "goblin_skirmisher": "none"}


def _summary_row(b):
    bo = b.bonuses
    return [int(b.height_ft), b.actions, b.hp_base, b.sdc_max, b.stamina_max, b.morale_max,
            b.ee_max, bo.init, bo.strike, bo.parry, bo.dodge, bo.maneuver, bo.damage,
            bo.spell_power, b.crit_min, b.armor.ar, b.armor.sdc, b.zoc_radius, b.full_move_ft,
            b.step_budget]


@pytest.mark.parametrize("bid", list(SUMMARY))
def test_summary_table_13_2(bid):
    b = stat_blocks()[bid]
    numbers, weapons = SUMMARY[bid]
    assert _summary_row(b) == [int(v) for v in numbers.split()]
    assert [w.id for w in b.weapons] == weapons.split() and b.armor.id == ARMOUR[bid]
    assert (b.parry_mitigation_pct, b.crit_bonus_pct) == (75, 100)  # "All have ..."
    assert list(b.crit_range) == list(range(b.crit_min, 21))


def test_summary_table_lists_every_shipped_combatant():
    assert list(stat_blocks()) == list(SUMMARY)
    assert [s.id for s in stat_blocks()["battle_mage"].spells] == list(catalogue().spells)
    assert stat_blocks()["goblin_skirmisher"].weapons[1].ammo == 3  # "3 throwing knives"


# spec §13.1: how each was built (package or monster training), and the notes' other numbers:
# save magic, coma %, taunt, save insanity, radii
BUILT = {
    "sellsword": ("fighter", None, (1, 4, 0, 0)),
    "spear_guard": ("fighter", None, (0, 0, 0, 0)),
    "duelist": ("rogue", None, (0, 0, 1, 0)),
    "archer": ("ranger", None, (0, 0, 0, 0)),
    "battle_mage": ("mage", None, (0, 0, 0, 1)),
    "ogre_brute": (None, C.Bonuses(init=0, strike=2, parry=1, dodge=0, maneuver=3), (3, 12, 0, 0)),
    "goblin_skirmisher": (None, C.Bonuses(init=2, strike=1, parry=1, dodge=2, maneuver=1),
                          (0, 0, 0, 0)),
}


@pytest.mark.parametrize("bid", list(BUILT))
def test_derivations_13_1_follow_the_formulas(bid):
    b = stat_blocks()[bid]
    pkg, training, saves = BUILT[bid]
    training = C.package(pkg).training if pkg else training
    d = C.derive(b.attributes, b.level, training, pkg)
    assert (d.hp_base, d.stamina_max, d.morale_max, d.ee_max) == \
        (b.hp_base, b.stamina_max, b.morale_max, b.ee_max)
    assert d.bonuses == b.bonuses and b.training == training and b.package == pkg
    bo = b.bonuses
    assert (bo.save_magic, bo.save_coma_pct, bo.taunt, bo.save_insanity) == saves
    if pkg:
        p = C.package(pkg)
        assert (b.actions, b.sdc_max, b.crit_min) == (p.actions, p.sdc, p.crit_min)
    assert b.full_move_ft == C.full_move_ft(b.attributes.pm, b.actions)
    assert b.step_budget == b.attributes.pm and b.has_pe and b.has_me


def test_derivation_notes_13_1_radii():
    assert stat_blocks()["ogre_brute"].radii == C.ZoneRadii(1, 4, 10, 20)
    assert stat_blocks()["goblin_skirmisher"].radii == C.ZoneRadii(1, 2, 4, 8)
    assert stat_blocks()["ogre_brute"].zoc_band == C.M == stat_blocks()["duelist"].zoc_band
    assert stat_blocks()["spear_guard"].zoc_band == C.R and stat_blocks()["archer"].zoc_band == C.C


def test_a_package_alone_derives_the_sellsword():
    # the §13.4 block without its listed numbers: the package and the chart give them all
    inline = {"height_ft": 6, "level": 3, "package": "fighter", "armor": "chain_shirt",
              "attributes": {"mi": 10, "me": 12, "ma": 10, "ps": 18, "pe": 16, "pp": 16,
                             "pm": 12, "pb": 10},
              "weapons": ["long_sword", "dagger"]}
    b = stat_block_from_mapping(inline, "situation.yaml", "situation.combatants.sellsword")
    assert b == stat_blocks()["sellsword"]


def test_a_being_without_pe_or_me():
    inline = {"height_ft": 5, "level": 2, "actions": 2, "sdc_max": 60,
              "attributes": {"mi": 3, "me": None, "ma": 3, "ps": 20, "pe": None, "pp": 10,
                             "pm": 6, "pb": 3}, "weapons": ["mace"], "has_pe": False}
    b = stat_block_from_mapping(inline, "s.yaml", "combatants.golem")
    assert (b.id, b.has_pe, b.has_me) == ("golem", False, False)
    assert (b.hp_base, b.stamina_max, b.morale_max, b.sdc_max) == (0, 0, 0, 60)
    assert b.bonuses.damage == 5 and b.bonuses.save_coma_pct == 0 and b.package is None
    assert (b.full_move_ft, b.step_budget, b.zoc_radius) == (45, 6, 5)


# --- §13.3 encounters ------------------------------------------------------------------------

# spec §13.3: id -> side A (template, x) ..., side B ...
ENCOUNTERS = {
    "duel_sword_vs_rogue": ([("sellsword", 80)], [("duelist", 120)]),
    "duel_reach": ([("spear_guard", 80)], [("duelist", 120)]),
    "skirmish_2v2": ([("sellsword", 80), ("battle_mage", 70)],
                     [("spear_guard", 120), ("archer", 140)]),
    "ogre_ambush": ([("sellsword", 80), ("duelist", 80), ("archer", 60)],
                    [("ogre_brute", 120)]),
    "goblin_pack": ([("sellsword", 80)], [("goblin_skirmisher", x) for x in (120, 120, 125, 125)]),
}


def test_encounters_13_3():
    assert list(encounters()) == list(ENCOUNTERS)
    for eid, (side_a, side_b) in ENCOUNTERS.items():
        enc = encounters()[eid]
        assert (enc.arena_length, enc.max_rounds, enc.ambush) == (200, 20, None)
        assert [s.name for s in enc.sides] == ["A", "B"]
        for side, want in zip(enc.sides, (side_a, side_b), strict=True):
            assert [(m.block.id, m.x) for m in side.members] == want
            assert all(m.side == side.name for m in side.members)
        ids = [m.id for m in enc.members]
        assert len(set(ids)) == len(ids) and enc.member(ids[0]).side == "A"
    assert [m.id for m in encounters()["goblin_pack"].members] == \
        ["sellsword_1", "gob_1", "gob_2", "gob_3", "gob_4"]


def test_scenario_format_3_6_inline():
    data = {"id": "duel_sellsword_vs_duelist", "arena_length": 200, "max_rounds": 20,
            "ambush": {"side": "B"},
            "sides": {"A": [{"id": "sellsword_1", "template": "sellsword", "x": 80}],
                      "B": [{"id": "duelist_1", "template": "duelist"}]},
            "start_overrides": {"sellsword_1": {"stamina": 22}}}
    enc = encounter_from_mapping(data, "s.yaml", "encounter", "duel_sellsword_vs_duelist")
    assert enc.ambush == "B" and enc.member("duelist_1").x == 120  # §3.2 default start
    assert enc.start_overrides == (("sellsword_1", "stamina", 22),)
    with pytest.raises(KeyError, match="no combatant 'nobody'"):
        enc.member("nobody")


# --- bad data: one line naming the file, the entry and the field -----------------------------


def _shipped():
    return yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))


def _load_changed(tmp_path, change):
    data = _shipped()
    change(data)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_catalogue(path)
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    return message[len(f"{path}: "):]


def _set(*keys_and_value):
    *keys, value = keys_and_value

    def change(data):
        node = data
        for k in keys[:-1]:
            node = node[k]
        if value is _DELETE:
            del node[keys[-1]]
        else:
            node[keys[-1]] = value
    return change


_DELETE = object()

BAD = [
    (("weapons", "dagger", "damage", "1x6"),
     "weapons.dagger: field 'damage': expected dice like '1d8' or '2d6', got '1x6'"),
    (("weapons", "spear", "reach", "X"),
     "weapons.spear: field 'reach': unknown value 'X'; expected one of G, C, M, R"),
    (("weapons", "long_bow", "reach", "M"),
     "weapons.long_bow: field 'reach': a ranged weapon has no melee reach (spec §2.6)"),
    (("weapons", "dagger", "ammo", 3),
     "weapons.dagger: field 'ammo': only a ranged weapon has ammunition (spec §2.6)"),
    (("weapons", "short_bow", "ranged", "inc", 0),
     "weapons.short_bow.ranged: field 'inc': expected an integer >= 1, got 0"),
    (("weapons", "unarmed", _DELETE),
     "weapons: field 'unarmed': missing (every combatant can always use it, R45)"),
    (("armor", "plate", "ar", "high"),
     "armor.plate: field 'ar': expected an integer >= 0, got 'high'"),
    (("armor", "leather", "weight", 15), "armor.leather: field 'weight': unknown field"),
    (("spells", "fire_bolt", "school", "necromancy"),
     "spells.fire_bolt: field 'school': unknown value 'necromancy'; expected one of evocation"),
    (("spells", "withering_curse", "resolve", {"save": "reflex"}),
     "spells.withering_curse.resolve: field 'save': unknown value 'reflex'"),
    (("spells", "mend", "range", "far"),
     "spells.mend: field 'range': expected feet (an integer >= 0) or 'touch', got 'far'"),
    (("spells", "stunning_hex", "effect", "stunned", "2 * margin"),
     "spells.stunning_hex.effect: field 'stunned': expected a formula like"),
    (("spells", "fire_bolt", "type", "acid"),
     "spells.fire_bolt: field 'type': unknown damage type 'acid'"),
    (("defaults", "crit_min", 0),
     "defaults: field 'crit_min': expected an integer in 1..20, got 0"),
    (("combatants", "sellsword", "attributes", "pe", -1),
     "combatants.sellsword.attributes: field 'pe': expected an integer >= 0, got -1"),
    (("combatants", "sellsword", "attributes", "luck", 12),
     "combatants.sellsword.attributes: field 'luck': unknown field"),
    (("combatants", "sellsword", "actions", 0),
     "combatants.sellsword: field 'actions': expected an integer in 1..30, got 0"),
    (("combatants", "duelist", "level", "three"),
     "combatants.duelist: field 'level': expected an integer >= 1, got 'three'"),
    (("combatants", "sellsword", "height_ft", 0),
     "combatants.sellsword: field 'height_ft': expected a height in feet > 0, got 0"),
    (("combatants", "sellsword", "armor", "kevlar"),
     "combatants.sellsword: field 'armor': unknown armour 'kevlar'; known: none, leather"),
    (("combatants", "duelist", "weapons", ["rapier"]),
     "combatants.duelist: field 'weapons': unknown weapon 'rapier'; known: unarmed, dagger"),
    (("combatants", "duelist", "weapons", ["dagger", "dagger"]),
     "combatants.duelist: field 'weapons': a weapon is listed twice"),
    (("combatants", "battle_mage", "spells", ["fireball"]),
     "combatants.battle_mage: field 'spells': unknown spell 'fireball'; known: fire_bolt"),
    (("combatants", "archer", "package", "paladin"),
     "combatants.archer: field 'package': unknown value 'paladin'; expected one of fighter"),
    (("combatants", "archer", "training", {"strike": 2}),
     "combatants.archer: field 'training': a stat block has a package or a training, not both"),
    (("combatants", "ogre_brute", "bonuses", "strike", 2.5),
     "combatants.ogre_brute.bonuses: field 'strike': expected an integer, got 2.5"),
    (("combatants", "ogre_brute", "crit_min", 21),
     "combatants.ogre_brute: field 'crit_min': expected an integer in 1..20, got 21"),
    (("combatants", "goblin_skirmisher", "primary_hand", "tail"),
     "combatants.goblin_skirmisher: field 'primary_hand': unknown value 'tail'"),
    (("combatants", "goblin_skirmisher", "hp", 14),
     "combatants.goblin_skirmisher: field 'hp': unknown field"),
    (("combatants", "goblin_skirmisher", "resist_pct", {"acid": 50}),
     "combatants.goblin_skirmisher.resist_pct: field 'acid': unknown damage type"),
    (("encounters", "duel_reach", "sides", "A", 0, "x", 250),
     "encounters.duel_reach.sides.A[0]: field 'x': expected an integer in 0..200, got 250"),
    (("encounters", "duel_reach", "sides", "B", 0, "template", "dragon"),
     "encounters.duel_reach.sides.B[0]: field 'template': unknown combatant 'dragon'"),
    (("encounters", "goblin_pack", "sides", "B", 1, "id", "gob_1"),
     "encounters.goblin_pack.sides.B[1]: field 'id': two combatants have the id 'gob_1'"),
    (("encounters", "duel_reach", "sides", {"A": [{"id": "a", "template": "duelist"}]}),
     "encounters.duel_reach: field 'sides': an encounter needs at least two sides (spec §3.1)"),
    (("encounters", "duel_reach", "sides", "B", []),
     "encounters.duel_reach.sides: field 'B': a side needs at least one combatant"),
    (("encounters", "ogre_ambush", "ambush", {"side": "C"}),
     "encounters.ogre_ambush.ambush: field 'side': unknown value 'C'; expected one of A, B"),
    (("encounters", "duel_reach", "start_overrides", {"guard_1": {"stamina": 31}}),
     "encounters.duel_reach.start_overrides.guard_1: field 'stamina': expected an integer in "
     "0..30, got 31"),
    (("encounters", "duel_reach", "start_overrides", {"guard_1": {"luck": 1}}),
     "encounters.duel_reach.start_overrides.guard_1: field 'luck': unknown pool"),
    (("encounters", "duel_reach", "start_overrides", {"ghost": {"hp": 1}}),
     "encounters.duel_reach.start_overrides: field 'ghost': unknown combatant"),
    (("encounters", "duel_reach", "max_rounds", 0),
     "encounters.duel_reach: field 'max_rounds': expected an integer >= 1, got 0"),
]


@pytest.mark.parametrize("change, message", BAD, ids=[m.split(":")[0] + ":" + m.split("'")[1]
                                                       for _, m in BAD])
def test_bad_data_is_one_line_naming_file_entry_and_field(tmp_path, change, message):
    assert _load_changed(tmp_path, _set(*change)).startswith(message)


def test_duplicate_keys_and_bad_yaml_name_the_file(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("weapons: {}\nweapons: {}\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"dup\.yaml: line 2: duplicate key 'weapons'"):
        load_catalogue(path)
    path.write_text("weapons: [\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"dup\.yaml: line \d+: invalid YAML"):
        load_catalogue(path)


def test_a_being_without_pe_lists_no_hp_or_stamina():
    attrs = dict.fromkeys(("mi", "me", "ma", "ps", "pe", "pp", "pm", "pb"), 10)
    base = {"height_ft": 6, "level": 1, "actions": 1, "sdc_max": 10,
            "attributes": {**attrs, "pe": None}}
    with pytest.raises(DataError, match=r"^s\.yaml: combatants\.golem: field 'hp_base': a being "
                                        r"without P\.E\. has none \(spec §2\.1, R43\), got 5$"):
        stat_block_from_mapping({**base, "hp_base": 5}, "s.yaml", "combatants.golem")
    with pytest.raises(DataError, match=r"field 'morale_max': a being without M\.E\."):
        stat_block_from_mapping({**base, "attributes": {**attrs, "me": None}, "morale_max": 4},
                                "s.yaml", "combatants.golem")
    with pytest.raises(DataError, match=r"^s\.yaml: combatants\.golem: field 'has_pe': disagrees "
                                        r"with attributes\.pe \(null, no score, spec §2\.1\)$"):
        stat_block_from_mapping({**base, "has_pe": True}, "s.yaml", "combatants.golem")
    with pytest.raises(DataError, match=r"^s\.yaml: combatants\.golem\.attributes: field 'pb': "
                                        r"missing \(an integer >= 0, or null for no score"):
        no_pb = {k: v for k, v in attrs.items() if k != "pb"}
        stat_block_from_mapping({**base, "attributes": no_pb}, "s.yaml", "combatants.golem")
    with pytest.raises(DataError, match=r"^s\.yaml: combatants\.golem: field 'actions': missing$"):
        stat_block_from_mapping({k: v for k, v in base.items() if k != "actions"}, "s.yaml",
                                "combatants.golem")


def test_the_shipped_file_is_the_spec_format_plus_how_each_was_built():
    data = _shipped()
    assert list(data) == ["weapons", "armor", "spells", "defaults", "combatants", "encounters"]
    for bid, block in data["combatants"].items():
        extra = {"package", "training"} & set(block)
        assert len(extra) == 1, bid  # the only keys beyond spec §13.4
    assert load_catalogue(SHIPPED) == catalogue()


def test_the_file_exactly_as_the_spec_prints_it_loads_the_same_blocks(tmp_path):
    data = _shipped()
    for block in data["combatants"].values():
        block.pop("package", None)
        block.pop("training", None)
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    plain = load_catalogue(path)
    for bid, b in stat_blocks().items():
        # the training is read back from the listed bonuses (bonuses - chart)
        assert plain.stat_blocks[bid] == dataclasses.replace(b, package=None), bid
    assert plain.encounters.keys() == encounters().keys()
