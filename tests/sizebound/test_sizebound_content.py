"""Sizebound content (spec §2.1 to §2.4, §13): the size, modifier and level tables, the derived
values of the eight shipped combatants against every number printed in §13.1 and §13.2, the four
encounters of §13.3, and bad data failing with one line naming the file, the entry and the field.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from envs.core.data import DataError
from envs.sizebound.rules import content as C
from envs.sizebound.rules.catalogue import (
    DATA,
    catalogue,
    encounters,
    load_catalogue,
    stat_block_from_mapping,
    stat_blocks,
)

SHIPPED = DATA / "catalogue.yaml"

# spec §2.1: name, index, SN, footprint, height, HP scaling, MR, 16 - SN, prone dice, burst size
SIZE_TABLE = [
    ("Miniscule", 0, 0, "0", "0", 0, 0, 16, 0, 0),
    ("Tiny", 1, 4, "0.2", "0.5", 4, 1, 12, 0, 0),
    ("Puny", 2, 5, "0.2", "0.5", 5, 1, 11, 0, 0),
    ("Small", 3, 7, "0.5", "1", 7, 2, 9, 0, 0),
    ("Medium", 4, 8, "0.5", "1", 8, 3, 8, 1, 0),
    ("Stocky", 5, 9, "0.5", "1", 9, 3, 7, 1, 0),
    ("Large", 6, 10, "1", "1.5", 10, 4, 6, 2, 0),
    ("Huge", 7, 11, "2", "2", 11, 4, 5, 3, 0),
    ("Massive", 8, 12, "3", "3", 12, 5, 4, 3, 0),
    ("Colossal", 9, 13, "4", "5", 13, 5, 3, 4, 1),
    ("Megalithic", 10, 15, "6", "8", 15, 6, 1, 5, 2),
]


@pytest.mark.parametrize("row", SIZE_TABLE, ids=lambda r: r[0])
def test_size_table_row(row):
    name, index, sn, fp, height, hp, mr, nimble, dice, burst = row
    r = C.size(name)
    assert (r.name, r.index, r.sn) == (name, index, sn)
    assert (r.footprint, r.height) == (Fraction(fp), Fraction(height))
    assert (r.default_hp_scaling, r.mr, r.nimble_term) == (hp, mr, nimble)
    assert r.mr == C.movement_resistance(sn)
    assert (r.prone_dice, r.prone_burst) == ((dice, 6), burst)
    assert C.size(index) is r and C.size(name.upper()) is r
    assert r.fractional == (Fraction(fp) < 1)
    assert r.side == (1 if Fraction(fp) < 1 else int(fp))
    assert r.share == (Fraction(fp) if Fraction(fp) < 1 else 1)


def test_size_table_is_in_order_and_complete():
    assert [r.name for r in C.SIZES] == [row[0] for row in SIZE_TABLE]
    assert C.PRONE_BURST_DICE == (1, 6) and C.PRONE_BURST_TYPE == "Sonic"


@pytest.mark.parametrize("bad", ["Gigantic", 11, -1, True, None, 4.0])
def test_unknown_size_is_a_clear_error(bad):
    with pytest.raises(ValueError, match=r"unknown size .*expected one of Miniscule, Tiny"):
        C.size(bad)


def test_modifier_table_and_beyond():
    # spec §2.2 table: 0-1 -5, 2-3 -4, ... 22-23 +6
    for lo, mod in zip(range(0, 24, 2), range(-5, 7), strict=True):
        assert (C.modifier(lo), C.modifier(lo + 1)) == (mod, mod)
    assert [C.modifier(t) for t in (-2, -1, 24, 30, 31)] == [-6, -6, 7, 10, 10]


# spec §2.4: level, stat bonus, scaling improvement, base reactions, exertion dice, skill points
LEVEL_TABLE = """
1 +1H/+2 - 0 3 10 | 2 +0 y 0 3 14 | 3 +1H/+2 y 0 3 18 | 4 +2 - 0 3 22 | 5 +1H/+2 - 1 3 26
6 +0 - 1 3 30 | 7 +1H/+2 - 1 4 34 | 8 +0 y 1 4 38 | 9 +1 - 1 4 42 | 10 +1 - 2 4 46
11 +1 - 2 4 50 | 12 +1 - 2 5 54 | 13 +1H/+2 y 2 5 58 | 14 +1 - 2 5 62 | 15 +1 - 3 5 66
16 +1 - 3 5 70 | 17 +1 - 3 6 74 | 18 +1H/+2 y 3 6 78 | 19 +1 - 3 6 82 | 20 +1 - 4 6 86
21 +1 - 4 6 90 | 22 +1 - 4 7 94 | 23 +1H/+2 y 4 7 98 | 24 +1 - 4 7 102 | 25 +1 - 5 7 106
26 +1 - 5 7 110 | 27 +1 - 5 8 114 | 28 +1H/+2 y 5 8 118 | 29 +1 - 5 8 122 | 30 +2 - 6 8 126
"""


def test_level_table_rows():
    rows = [r.split() for r in LEVEL_TABLE.replace("\n", "|").split("|") if r.strip()]
    assert len(rows) == 30 == len(C.LEVELS)
    gained = 0
    for lv, bonus, imp, reactions, dice, points in rows:
        r = C.level_row(int(lv))
        gained += imp == "y"
        assert (r.level, r.stat_bonus, r.scaling_improvement) == (int(lv), bonus, imp == "y")
        assert (r.base_reactions, r.exertion_dice, r.skill_points) == (
            int(reactions), int(dice), int(points))
        assert r.improvements == gained == C.scaling_improvements(int(lv))
        # the §2.3 formulas agree with the table
        assert C.base_reactions(int(lv)) == int(lv) // 5 == int(reactions)
        assert C.skill_points(int(lv)) == 4 * int(lv) + 6 == int(points)
        assert C.exertion_max(int(lv)) == int(dice)
    assert [r.level for r in C.LEVELS if r.scaling_improvement] == [2, 3, 8, 13, 18, 23, 28]
    assert [r.level for r in C.LEVELS if r.exertion_dice > C.LEVELS[r.level - 2].exertion_dice
            and r.level > 1] == [7, 12, 17, 22, 27]


@pytest.mark.parametrize("bad", [0, 31, -1, True, "3", 2.0])
def test_level_outside_1_to_30_is_a_clear_error(bad):
    with pytest.raises(ValueError, match=r"expected a level in 1\.\.30 \(R-55\), got"):
        C.level_row(bad)
    with pytest.raises(ValueError):
        C.max_hp(8, bad)


def test_formulas_at_the_extremes():
    assert (C.max_hp(15, 30), C.pnr(30), C.max_mana(6, 30)) == (490, -49, 190)
    assert (C.defense(30), C.hit_bonus(30), C.dodge_bonus(30), C.dodge_bonus(30, 0)) == (
        39, 31, 41, 30)
    assert C.movement_resistance(0) == 0  # the formula gives -1
    assert C.athletics(-5, 1, 15) == 11 and C.nimble(-5, 1, 15) == -3
    assert C.arcana(2, 6) == 8 and C.inventory(12, 8) == 30
    assert C.block_guard([], 0) == 0 and C.block_guard([2, 3, 1], 3) == 6
    assert C.total_attacks(1, [0, 1]) == 2


def test_totals_reachability():
    # §13.1 derivations
    assert C.totals_reachable((12, 15, 10), 1) and C.totals_reachable((16, 12, 10), 3)
    assert C.totals_reachable((19, 12, 10), 5) and C.totals_reachable((18, 14, 10), 5)
    assert not C.totals_reachable((12, 14, 10), 1)  # L1 must add +1 (highest) or +2
    assert not C.totals_reachable((13, 14, 10), 1)  # +1 only to the highest
    assert C.totals_reachable((12, 14, 12), 1)  # +2 to a non-highest
    assert not C.totals_reachable((20, 12, 10), 5)


# spec §13.2 summary table (Dodge and Hit as bonuses), plus Walk, Total Attacks and footprints
SUMMARY = {
    #            size    SN  L  HP  PNR  Mana Def Hit Dodge Ath Nim Arc MR Walk Re Ex BG TA
    "duelist": ("Medium", 8, 1, 48, -20, 16, 10, 2, 12, 10, 11, 6, 3, 5, 0, 3, 2, 2),
    "knight": ("Stocky", 9, 1, 49, -20, 16, 10, 2, 1, 12, 9, 6, 3, 5, 0, 3, 6, 1),
    "mage": ("Medium", 8, 1, 48, -20, 16, 10, 2, 12, 9, 10, 8, 3, 5, 0, 3, 2, 1),
    "goblin": ("Small", 7, 1, 47, -20, 16, 10, 2, 12, 9, 12, 6, 2, 5, 0, 3, 0, 1),
    "war_dog": ("Puny", 5, 1, 45, -20, 16, 10, 2, 12, 7, 14, 6, 1, 7, 0, 3, 0, 1),
    "cave_bear": ("Large", 10, 3, 76, -22, 28, 12, 4, 14, 14, 8, 6, 4, 6, 0, 3, 0, 2),
    "hill_giant": ("Huge", 11, 5, 105, -24, 40, 14, 6, 16, 16, 7, 6, 4, 6, 1, 3, 1, 1),
    "captain": ("Medium", 8, 5, 90, -24, 40, 14, 6, 5, 13, 11, 6, 3, 5, 1, 3, 4, 1),
}
FIELDS = ("size", "sn", "level", "max_hp", "pnr", "max_mana", "defense", "hit_mod", "dodge_mod",
          "athletics", "nimble", "arcana", "mr", "walk", "base_reactions", "exertion_max",
          "block_guard", "total_attacks")


@pytest.mark.parametrize("bid", list(SUMMARY))
def test_summary_table_row(bid):
    b = stat_blocks()[bid]
    got = tuple(getattr(b, f) for f in FIELDS)
    assert (got[0].name, *got[1:]) == SUMMARY[bid]


# §13.1/§13.2: Totals, modifiers, the attacks each can make: (weapon, dice, bonus, WA, crit low)
DETAIL = {
    "duelist": ((12, 15, 10), (1, 2, 0), [("sword", "1d8", 2, 0, 20), ("dagger", "1d4", 2, 1, 19)]),
    "knight": ((15, 12, 10), (2, 1, 0), [("sword", "1d8", 2, 0, 20), ("shield", "1d4", 2, 0, 20)]),
    "mage": ((10, 12, 15), (0, 1, 2), [("quarterstaff", "1d8", 1, 0, 20)]),
    "goblin": ((12, 15, 10), (1, 2, 0), [("shortbow", "1d6", 2, 0, 20)]),
    "war_dog": ((12, 15, 10), (1, 2, 0), [("nat_bite_small", "1d6", 2, 0, 20)]),
    "cave_bear": ((16, 12, 10), (3, 1, 0),
                  [("nat_claw", "1d8", 3, 0, 20), ("nat_bite", "1d6", 3, 1, 19)]),
    "hill_giant": ((19, 12, 10), (4, 1, 0), [("greatclub", "3d6", 4, 0, 20)]),
    "captain": ((18, 14, 10), (4, 2, 0), [("greatsword", "2d6", 4, 0, 20)]),
}


@pytest.mark.parametrize("bid", list(DETAIL))
def test_derivation_details(bid):
    b = stat_blocks()[bid]
    totals, mods, attacks = DETAIL[bid]
    assert (b.total_might, b.total_skill, b.total_magic) == totals
    assert (b.might, b.skill, b.magic) == mods
    got = [(w.id, str(w.dice), b.stat_mod(w.stat), w.weapon_attacks, min(w.crit))
           for w in b.weapons]
    assert got == attacks


def test_sheet_specifics_of_section_13_1():
    s = stat_blocks()
    assert s["duelist"].wielded.slots() == {"main": "sword", "off": "dagger"}
    assert s["knight"].armour.id == "heavy" and s["knight"].armoured
    assert s["knight"].block_guard == 3 + 3 and s["captain"].block_guard == 2 + 2
    assert [k.id for k in s["mage"].skills] == ["arcane_bolt", "arcane_burst", "mend"]
    bolt = s["mage"].skills[0]
    assert (str(bolt.dice), s["mage"].stat_mod(bolt.stat), bolt.range, bolt.mana) == (
        "1d8", 2, 12, 2)
    goblin = s["goblin"]
    assert goblin.wielded.slots() == {"both": "shortbow"} and goblin.wielded.both.range == 12
    assert [w.id for w in goblin.stowed] == ["dagger"]
    assert goblin.alternate_loadout is not None
    assert goblin.alternate_loadout.slots() == {"main": "dagger"}
    assert goblin.size.prone_dice == (0, 6) and goblin.footprint == Fraction(1, 2)
    dog = s["war_dog"]
    assert (dog.hands, dog.footprint, dog.tags) == (1, Fraction(1, 5), frozenset({"animal"}))
    bear = s["cave_bear"]
    assert (bear.hp_scaling, bear.size.prone_dice, bear.footprint) == (12, (2, 6), 1)
    assert all(w.natural and w.hands == 0 for w in bear.natural_weapons)
    giant = s["hill_giant"]
    assert (giant.hp_scaling, giant.footprint, giant.size.side, giant.size.prone_dice) == (
        13, 2, 2, (3, 6))
    stomp, roar = giant.skills
    assert (stomp.id, str(stomp.dice), giant.stat_mod(stomp.stat)) == ("stomp", "1d6", 4)
    assert stomp.requires_size_at_least is C.size("Huge")
    assert (roar.apply.condition, roar.apply.value, roar.apply.duration_rounds) == (
        "Unnerved", -3, 2)
    assert s["captain"].dodge_mod == 5 and s["captain"].hp_scaling == 10
    assert all(b.exertion_pool == "player" for b in s.values())


# spec §13.3
ENCOUNTERS = {
    "duel_blade_vs_shield": ((12, 12), {"A": [("duelist", (2, 6))], "B": [("knight", (9, 6))]}),
    "skirmish_2v2": ((14, 14), {"A": [("knight", (2, 6)), ("mage", (1, 8))],
                                "B": [("goblin", (12, 7)), ("war_dog", (11, 5))]}),
    "party_vs_bear": ((14, 14), {"A": [("cave_bear", (10, 7))],
                                 "B": [("duelist", (3, 6)), ("knight", (3, 8)),
                                       ("mage", (1, 7))]}),
    "giant_vs_four": ((16, 16), {"A": [("duelist", (3, 10)), ("knight", (4, 8)),
                                       ("mage", (1, 9)), ("captain", (4, 11))],
                                 "B": [("hill_giant", (11, 8))]}),
}


@pytest.mark.parametrize("eid", list(ENCOUNTERS))
def test_encounters(eid):
    enc = encounters()[eid]
    (w, h), sides = ENCOUNTERS[eid]
    assert (enc.width, enc.height, enc.first_side, enc.side_order) == (w, h, "A", ("A", "B"))
    assert {s.name: [(p.id, p.anchor) for p in s.members] for s in enc.sides} == sides
    assert [(i, side, b.id) for i, side, b in enc.lineup()] == [
        (p, s, p) for s, ms in sides.items() for p, _ in ms]
    grid = enc.grid()
    assert (grid.width, grid.height) == (w, h)


def test_encounter_maps():
    enc = encounters()
    assert enc["skirmish_2v2"].difficult == {(x, y) for x in (6, 7) for y in range(4, 10)}
    assert enc["giant_vs_four"].walls == {(0, 0), (1, 0), (2, 0), (3, 0)}
    giant = enc["giant_vs_four"].sides[1].members[0].body
    assert sorted(giant.cells) == [(11, 8), (11, 9), (12, 8), (12, 9)]
    for e in ("duel_blade_vs_shield", "party_vs_bear"):
        assert not enc[e].walls and not enc[e].difficult


def test_catalogue_tables_of_section_2_5():
    cat = catalogue()
    assert len(cat.weapons) == 20 and set(cat.armour) == {"none", "light", "medium", "heavy"}
    spear, dagger, bow = cat.weapons["spear"], cat.weapons["dagger"], cat.weapons["longbow"]
    assert (spear.reach, spear.thrown, spear.range, spear.melee) == (2, 6, None, True)
    assert (dagger.crit, dagger.weapon_attacks, dagger.guard) == (frozenset({19, 20}), 1, 1)
    assert (bow.reach, bow.range, bow.hands, bow.melee) == (None, 20, 2, False)
    assert [(a.guard_bonus, a.dodge_bonus) for a in cat.armour.values()] == [
        (0, 11), (1, 0), (2, 0), (3, 0)]
    assert set(cat.skills) == {"arcane_bolt", "arcane_burst", "mend", "arcane_aura", "stomp",
                               "roar"}
    burst = cat.skills["arcane_burst"]
    assert (burst.cost_actions, burst.mana, burst.area.shape, burst.area.size) == (
        ("P",), 6, "aoe", 3)
    assert cat.skills["arcane_aura"].concentration and cat.skills["roar"].uses_per_encounter == 1


# ---------------------------------------------------------------------------------------------
# bad data: one line naming the file, the entry and the field


def broken(tmp_path: Path, *edits: tuple[str, str]) -> str:
    """Load the shipped file with text edits; return the DataError's message."""
    text = SHIPPED.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) >= 1, old
        text = text.replace(old, new, 1)
    path = tmp_path / "catalogue.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_catalogue(path)
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    return message[len(f"{path}: "):]


DUELIST = "    level: 1\n    totals: {might: 12, skill: 15, magic: 10}"


@pytest.mark.parametrize("edit, expected", [
    ((DUELIST, DUELIST.replace("level: 1", "level: 31")),
     "combatants.duelist: field 'level': expected a level in 1..30 (R-55), got 31"),
    (("    size: Medium\n    level: 1\n    totals: {might: 12",
      "    size: Mediun\n    level: 1\n    totals: {might: 12"),
     "combatants.duelist: field 'size': unknown size 'Mediun'; expected one of Miniscule, Tiny, "
     "Puny, Small, Medium, Stocky, Large, Huge, Massive, Colossal, Megalithic (or a size index "
     "0..10)"),
    ((DUELIST, DUELIST.replace("skill: 15", "skill: 16")),
     "combatants.duelist: field 'totals': might 12, skill 16, magic 10 cannot come from 10/12/14 "
     "and the stat bonuses of levels 1..1 (spec §2.2, §2.4, R-64)"),
    (("wielded: {main: sword, off: dagger}", "wielded: {main: sword, off: daggr}"),
     "combatants.duelist.wielded: field 'off': unknown weapon 'daggr'; known: unarmed, dagger, "
     "sword, greatsword, spear, quarterstaff, halberd, battleaxe, greataxe, warhammer, maul, "
     "greatclub, sickle, shield, shortbow, longbow, javelin"),
    (("wielded: {main: sword, off: dagger}", "wielded: {main: greatsword}"),
     "combatants.duelist.wielded: field 'main': greatsword takes 2 hand(s): a two-handed weapon "
     "goes in 'both', a one-handed one in 'main' or 'off'"),
    (("wielded: {both: quarterstaff}", "wielded: {both: quarterstaff, main: dagger}"),
     "combatants.mage: field 'wielded': a weapon in both hands leaves no hand for 'main' or "
     "'off'"),
    (("    hands: 1\n", "    hands: 1\n    damage_mods: {immune: [Fire, Cold, Acid]}\n"),
     "combatants.war_dog.damage_mods: field 'immune': at most 2 Immunities beyond the creature "
     "type's, Arcane and Tertiary ones (spec §2.7), got Acid, Cold, Fire"),
    (("scaling_improvements: {hp: 2, mana: 0}", "scaling_improvements: {hp: 1, mana: 0}"),
     "combatants.cave_bear: field 'scaling_improvements': hp + mana must be 2, the improvements "
     "level 3 grants (spec §2.3), got 1"),
    (("skills: [arcane_bolt, arcane_burst, mend]", "skills: [arcane_bolt, stomp]"),
     "combatants.mage: field 'skills': stomp needs a creature of size Huge or larger (spec §5.3), "
     "this one is Medium"),
    (("    exertion_pool: player\n", "    exertion_pool: player\n    tagz: [animal]\n"),
     "combatants.duelist: field 'tagz': unknown field (known here: alternate_loadout, armour, "
     "attacks, damage_mods, damage_roll_mode, exertion_pool, hands, level, mana_scaling, name, "
     "natural_weapons, scaling_improvements, size, skills, stowed, tags, totals, walk, wielded)"),
    (("    tags: [animal]\n", "    tags: [anmal]\n"),
     "combatants.war_dog: field 'tags': unknown tag 'anmal'; known: animal, humanoid, undead, "
     "vile, fae, shifter, magical, spectral, inanimate, no_blood, no_breath, no_heart, slither, "
     "darkvision"),
    (("dagger:       {type: Sword,    hands: 1, dice: \"1d4\"",
      "dagger:       {type: Sword,    hands: 1, dice: \"d4\""),
     "weapons.dagger: field 'dice': expected dice like '1d8' or '2d6', got 'd4'"),
    (("reach: 1, thrown: 4, weapon_attacks: 1, guard: 1, crit: [19, 20]",
      "reach: 1, thrown: 4, weapon_attacks: 1, guard: 1, crit: [18, 20]"),
     "weapons.dagger: field 'crit': expected [] (never) or the faces of one of 20-20, 19-20, "
     "18-20, 17-20, 16-20, 15-20, 14-20, 13-20, 12-20, 11-20, 10-20, 8-20, 6-20, 2-20, got "
     "[18, 20]"),
    (("dtype: [Piercing],    reach: 1, thrown: 4", "dtype: [Piercing, Fire, Cold], reach: 1, "
      "thrown: 4"),
     "weapons.dagger: field 'dtype': 3 damage types; a source has at most 2, or 3 when one of "
     "them is Tertiary (spec §8.2 D1)"),
    (("area: {shape: aoe, size: 3}", "area: {shape: aoe, size: 3, width: 2}"),
     "skills.arcane_burst.area: field 'width': only a line has a width (spec §8.7), not 'aoe'"),
    (("  duelist:    {max_hp: 48,", "  duelist:    {max_hp: 47,"),
     "expected_derived.duelist: field 'max_hp': the stat block gives 48, the file expects 47"),
    (("A: [{id: duelist, at: [2, 6]}]", "A: [{id: duelist, at: [12, 6]}]"),
     "encounters.duel_blade_vs_shield.sides.A[0]: field 'at': cell [12, 6] of its 1 x 1 "
     "footprint at [12, 6] is off the 12 x 12 map"),
    (("B: [{id: hill_giant, at: [11, 8]}]", "B: [{id: hill_giant, at: [15, 8]}]"),
     "encounters.giant_vs_four.sides.B[0]: field 'at': cell [16, 8] of its 2 x 2 footprint at "
     "[15, 8] is off the 16 x 16 map"),
    (("{id: mage, at: [1, 9]}", "{id: mage, at: [2, 0]}"),
     "encounters.giant_vs_four.sides.A[2]: field 'at': it stands on the wall cell [2, 0]"),
    (("B: [{id: hill_giant, at: [11, 8]}]", "B: [{id: hill_giant, at: [3, 9]}]"),
     "encounters.giant_vs_four.sides.A[0]: field 'at': cell [3, 10] is shared with hill_giant: "
     "only allies whose fractional footprints total <= 1.0 share a cell (R-29)"),
    (("B: [{id: knight, at: [9, 6]}]", "B: [{id: knight, at: [2, 6]}]"),
     "encounters.duel_blade_vs_shield.sides.A[0]: field 'at': cell [2, 6] is shared with "
     "knight: only allies whose fractional footprints total <= 1.0 share a cell (R-29)"),
    (("map: {w: 14, h: 14, difficult: [[6, 4, 7, 9]]}",
      "map: {w: 14, h: 14, difficult: [[6, 4, 7, 14]]}"),
     "encounters.skirmish_2v2.map: field 'difficult': [6, 4, 7, 14] is not inside the 14 x 14 "
     "map (x1 <= x2, y1 <= y2)"),
    (("A: [{id: duelist, at: [2, 6]}]", "A: [{id: duelst, at: [2, 6]}]"),
     "encounters.duel_blade_vs_shield.sides.A[0]: field 'id': unknown combatant 'duelst'; "
     "known: duelist, knight, mage, goblin, war_dog, cave_bear, hill_giant, captain"),
    (("    side_order: [A, B]\n    sides:\n      A: [{id: duelist, at: [2, 6]}]",
      "    side_order: [A, C]\n    sides:\n      A: [{id: duelist, at: [2, 6]}]"),
     "encounters.duel_blade_vs_shield: field 'side_order': expected each side once (A, B), got "
     "['A', 'C']"),
])
def test_bad_data_names_file_entry_and_field(tmp_path, edit, expected):
    assert broken(tmp_path, edit) == expected


def test_allies_may_share_a_cell_up_to_capacity(tmp_path):
    # two Medium allies fill one cell exactly (0.5 + 0.5); a third would not fit
    old = "A: [{id: knight, at: [2, 6]}, {id: mage, at: [1, 8]}]"
    text = SHIPPED.read_text(encoding="utf-8").replace(
        old, "A: [{id: knight, at: [2, 6]}, {id: mage, at: [2, 6]}]")
    path = tmp_path / "ok.yaml"
    path.write_text(text, encoding="utf-8")
    enc = load_catalogue(path).encounters["skirmish_2v2"]
    assert [p.anchor for p in enc.sides[0].members] == [(2, 6), (2, 6)]
    message = broken(tmp_path, (old, "A: [{id: knight, at: [2, 6]}, {id: mage, at: [2, 6]}, "
                                     "{id: duelist, at: [2, 6]}]"))
    assert message == ("encounters.skirmish_2v2.sides.A[0]: field 'at': cell [2, 6] is shared "
                       "with mage, duelist: only allies whose fractional footprints total <= "
                       "1.0 share a cell (R-29)")


def test_repeated_combatants_get_numbered_ids(tmp_path):
    old = "B: [{id: knight, at: [9, 6]}]"
    text = SHIPPED.read_text(encoding="utf-8").replace(
        old, "B: [{id: knight, at: [9, 6]}, {id: knight, at: [9, 2]}]")
    path = tmp_path / "two.yaml"
    path.write_text(text, encoding="utf-8")
    enc = load_catalogue(path).encounters["duel_blade_vs_shield"]
    assert [p.id for p in enc.placements] == ["duelist", "knight", "knight_2"]


def test_the_off_hand_key_survives_yaml_1_1():
    # `off` unquoted is a YAML 1.1 boolean; the §13.4 format writes it so
    assert stat_blocks()["knight"].wielded.off.id == "shield"


def test_inline_stat_block():
    data = {"size": "Huge", "level": 5, "totals": {"might": 19, "skill": 12, "magic": 10},
            "scaling_improvements": {"hp": 2, "mana": 0}, "walk": 6,
            "wielded": {"both": "maul"}, "skills": ["stomp"],
            "damage_mods": {"immune": ["Fire", "Psychic"], "resist": ["Cold"]}}
    b = stat_block_from_mapping(data, "sit.yaml", "combatants.ogre")
    assert (b.id, b.name, b.max_hp, b.hit_mod, b.block_guard, b.attacks, b.hands) == (
        "ogre", "ogre", 105, 6, 1, 1, 2)
    assert b.damage_mods.immune == {"Fire", "Psychic"}
    assert stat_block_from_mapping({**data, "id": "brute"}, "s.yaml", "c[0]").id == "brute"
    # scaling improvements default to HP
    b2 = stat_block_from_mapping({"size": "Medium", "level": 3,
                                  "totals": {"might": 15, "skill": 14, "magic": 10}},
                                 "s.yaml", "combatants.grunt", "grunt")
    assert (b2.hp_scaling, b2.max_hp, b2.armour.id, b2.wielded.weapons) == (10, 70, "none", ())
    with pytest.raises(DataError) as err:
        stat_block_from_mapping({**data, "level": 0}, "sit.yaml", "combatants.ogre")
    assert str(err.value) == ("sit.yaml: combatants.ogre: field 'level': expected a level in "
                              "1..30 (R-55), got 0")
    with pytest.raises(DataError, match=r"^sit\.yaml: combatants\.ogre: expected a mapping"):
        stat_block_from_mapping(["x"], "sit.yaml", "combatants.ogre")


def test_undead_immunities_do_not_count_toward_the_limit():
    data = {"size": "Medium", "level": 1, "totals": {"might": 12, "skill": 15, "magic": 10},
            "tags": ["undead"], "damage_mods": {"immune": ["Necrotic", "Iron", "Arcane", "Fire",
                                                           "Cold"]}}
    b = stat_block_from_mapping(data, "s.yaml", "combatants.wight")
    assert b.damage_mods.immune == {"Necrotic", "Iron", "Arcane", "Fire", "Cold"}
    with pytest.raises(DataError, match="got Acid, Cold, Fire$"):
        stat_block_from_mapping({**data, "damage_mods": {"immune": ["Fire", "Cold", "Acid"]}},
                                "s.yaml", "combatants.wight")


def _totals_for(level: int) -> dict[str, int]:
    """Totals reachable at ``level``: 14/12/10, every bonus on Might (the highest)."""
    might = 14 + sum(1 if r.stat_bonus == "+1H/+2" else int(r.stat_bonus[1])
                     for r in C.LEVELS[:level])
    return {"might": might, "skill": 12, "magic": 10}


@pytest.mark.parametrize("level", [1, 2, 7, 13, 29, 30])
def test_every_size_builds_at_any_level(level):
    for row in C.SIZES:
        data = {"size": row.name, "level": level, "totals": _totals_for(level),
                "scaling_improvements": {"hp": 0, "mana": C.scaling_improvements(level)}}
        b = stat_block_from_mapping(data, "s.yaml", f"combatants.{row.name}")
        imp = C.scaling_improvements(level)
        assert (b.max_hp, b.max_mana, b.pnr) == (
            row.sn * level + 40, (6 + imp) * level + 10, -19 - level)
        assert (b.mr, b.athletics, b.nimble) == (
            row.mr, b.might + 1 + row.sn, b.skill + 1 + 16 - row.sn)
        assert (b.base_reactions, b.exertion_max, b.defense, b.hit_mod, b.dodge_mod) == (
            level // 5, C.level_row(level).exertion_dice, level + 9, level + 1, level + 11)
        assert b.arcana == b.magic + 6 + imp
