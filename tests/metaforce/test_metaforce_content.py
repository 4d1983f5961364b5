"""Metaforce content (spec §2, §13): the dice, ladder, size and derived-stat tables, the §2.11
building steps replayed for every §13.1 derivation, every number of §13.1 and the §13.2 summary
table against the shipped catalogue, and bad data failing with one line naming the file, the
entry and the field."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pytest

from envs.core.dice import ScriptedDice
from envs.metaforce.rules import content as C
from envs.metaforce.rules.catalogue import (
    CorePick,
    Race,
    StatBlock,
    build_character,
    catalogue,
    stat_blocks,
)

# --- §2.3 dice -----------------------------------------------------------------------------


@pytest.mark.parametrize("sides, lo, avg", [(4, 1, "2.5"), (6, 2, "11/3"), (8, 3, "4.875"),
                                            (10, 4, "6.1"), (12, 5, "22/3"), (20, 10, "12.75")])
def test_meta_die_table(sides, lo, avg):
    # spec §2.3.2: minimum, faces raised to it, and the average column (2.50 ... 12.75)
    assert C.meta_minimum(sides) == lo
    faces = C.meta_faces(sides)
    assert len(faces) == sides and faces[:lo] == (lo,) * lo
    assert faces[lo:] == tuple(range(lo + 1, sides + 1))
    assert C.meta_average(sides) == Fraction(avg)


def test_meta_die_table_printed_faces():
    assert C.meta_faces(6) == (2, 2, 3, 4, 5, 6)
    assert C.meta_faces(12) == (5, 5, 5, 5, 5, 6, 7, 8, 9, 10, 11, 12)
    assert round(float(C.meta_average(6)), 2) == 3.67 and round(float(C.meta_average(12)), 2) \
        == 7.33


def test_roll_meta_raises_low_faces():
    dice = ScriptedDice(["d6=1", "d6=5", "d12=3", "d12=12"])
    assert [C.roll_meta(dice, 6), C.roll_meta(dice, 6)] == [2, 5]
    assert [C.roll_meta(dice, 12), C.roll_meta(dice, 12)] == [5, 12]
    dice.check_exhausted()
    with pytest.raises(ValueError, match="no Meta die md7"):
        C.meta_minimum(7)


@pytest.mark.parametrize("rank, text", [(1, "md4"), (2, "md6"), (3, "md8"), (4, "md10"),
                                        (5, "md12"), (6, "2md12k1"), (7, "3md12k1"),
                                        (8, "4md12k1"), (9, "5md12k1"), (10, "6md12k1"),
                                        (14, "10md12k1")])
def test_rank_die_table(rank, text):
    die = C.rank_die(rank)
    assert die is not None and str(die) == text
    assert die.minimum == (rank if rank <= 5 else 5)  # §2.3.3: the minimum equals the rank


def test_rank_zero_or_less_has_no_die_and_uses_the_flat_value():
    assert C.rank_die(0) is None and C.rank_die(-2) is None
    assert C.roll_rank_die(ScriptedDice([]), -2) == -2
    assert C.roll_rank_die(ScriptedDice(["d8=1"]), 3) == 3  # md8 never below 3
    assert C.roll_rank_die(ScriptedDice(["d12=3", "d12=9", "d12=1"]), 7) == 9  # 3md12k1
    assert C.roll_rank_die(ScriptedDice(["d12=1", "d12=2"]), 6) == 5
    with pytest.raises(ValueError, match="rank: expected an integer"):
        C.rank_die("3")  # type: ignore[arg-type]


def test_take_average_and_versatile_from_two_dice():
    assert [C.take_average(s) for s in (4, 6, 8, 10, 12)] == [2, 3, 4, 5, 6]
    assert (C.apply_take_average(2, 8), C.apply_take_average(7, 8)) == (4, 7)
    assert (C.two_dice_versatile(3), C.two_dice_versatile(9)) == (5, 9)
    assert (C.CHECK_DIE, C.EXPLODES_ON, C.VERSATILE_DIE) == (12, 12, 12)


# --- §2.4 Proficiency and the Advantage ladder --------------------------------------------

def test_advantage_ladder_rows():
    names = {s: C.advantage_row(s).name for s in (5, 1, 0, -1, -2, -6)}
    assert names == {5: "Advantage", 1: "Advantage", 0: "Normal", -1: "Disadvantage",
                     -2: "Disadvantage, worse", -6: "Disadvantage, worse"}
    assert [(C.advantage_row(s).dice, C.advantage_row(s).keep) for s in (1, 0, -1, -2)] == [
        (2, "high"), (1, "only"), (2, "low"), (2, "low")]
    assert [C.ladder_penalty(s) for s in (2, 0, -1, -2, -3, -4)] == [0, 0, 0, -4, -8, -12]


def test_check_state_follows_the_order_of_2_4_3():
    assert C.check_state(True) == 1 and C.check_state(False) == 0
    assert C.check_state(True, [-1, -1, -1]) == -2
    assert C.check_state(False, [-2], expert=True) == -1  # Expertise lifts one step
    assert C.check_state(False, [-1], expert=True) == 0  # ... but not above Normal
    assert C.check_state(True, [1], tired=True) == 0  # Tired loses Advantage
    assert C.check_state(True, exhausted=True) == -1


@pytest.mark.parametrize("proficient, states, penalties", [
    (True, ["Advantage", "Normal", "Disadvantage", "Disadvantage, worse"], [0, 0, 0, -4]),
    (False, ["Normal", "Disadvantage", "Disadvantage, worse", "Disadvantage, worse"],
     [0, 0, -4, -8]),
])
def test_trigger_limit_ladder_of_5_5(proficient, states, penalties):
    got = [C.check_state(proficient, [-shot]) for shot in range(4)]
    assert [C.advantage_row(s).name for s in got] == states
    assert [C.ladder_penalty(s) for s in got] == penalties


# --- §2.2, §2.5 derived statistics ---------------------------------------------------------

def test_cores_floor_half_points_and_take_base_core():
    attrs = {"str": 4, "end": 2, "agi": 2, "per": 1, "int": 0, "cha": 1}
    assert C.core_values(attrs) == {"body": 7, "reflex": 5, "mind": 2}  # 7.5, 5, 2.5
    assert C.core_values(attrs, base_core=5) == {"body": 12, "reflex": 10, "mind": 7}
    neg = {"str": -2, "end": -1, "agi": -1, "per": 0, "int": 0, "cha": 0}
    assert C.core_values(neg) == {"body": -4, "reflex": -2, "mind": -1}  # floor(-3.5) = -4


@pytest.mark.parametrize("bad, msg", [({"str": 1}, "missing attribute 'end'"),
                                      ({**dict.fromkeys(C.ATTRIBUTES, 0), "luck": 1},
                                       "unknown attribute 'luck'"),
                                      ({**dict.fromkeys(C.ATTRIBUTES, 0), "agi": 1.5},
                                       "attribute 'agi': expected an integer")])
def test_bad_attributes_are_clear_errors(bad, msg):
    with pytest.raises(ValueError, match=msg):
        C.check_attributes(bad)


def test_hp_mp_and_speed_formulas_any_level_and_size():
    assert C.max_hp(7, 1) == 54 and C.max_hp(7, 3, 4) == 264 and C.max_hp(8, 2, 2) == 132
    assert C.max_hp(10, 20, 7) == (6 + 6 * 30) * 7
    assert C.max_hp(2, 1, "tiny") == 24  # HP multiplier 1 below Size 2
    assert C.max_mp(1) == 15 and C.max_mp(2) == 18 and C.max_mp(20) == 72
    assert C.max_mp(5, metaforce_user=False) == 0
    assert [C.speed_ft(n) for n in (1, 2, 4, 10)] == [15, 20, 30, 60]
    assert C.speed_ft(1, 30) == 30 and C.speed_ft("1/4") == 15
    assert [C.space_squares(n) for n in (1, 2, 4, "tiny")] == [1, 2, 4, 1]
    assert [C.reach_ft(n) for n in (1, 2, 4, 9)] == [5, 10, 20, 45]
    assert [C.mpower_slots(lv) for lv in (1, 2, 3, 4, 11)] == [1, 1, 2, 2, 6]
    with pytest.raises(ValueError, match="level: expected an integer >= 1, got 0"):
        C.max_hp(7, 0)


def test_evasion_and_deflection_order_of_evaluation():
    assert C.evasion_deflection(5, 7, bonus_d=3) == (6, 10)  # Fighter: floor 6
    assert C.evasion_deflection(7, 2, bonus_d=2) == (7, 7)  # D floored by E
    assert C.evasion_deflection(2, 20, bonus_d=4) == (14, 24)  # step 3: D - E0 > 10
    assert C.evasion_deflection(2, 12, bonus_d=4) == (6, 16)  # gap exactly 10: E stays
    assert C.evasion_deflection(5, 7, bonus_d=3, evasion_floor=10) == (10, 10)
    assert C.evasion_deflection(5, 7, bonus_d=3, level_bonus=3) == (8, 13)  # R-1 option
    assert C.immobile_defence(7, 3) == (0, 10) and C.immobile_defence(2) == (0, 2)


def test_status_defence_exert_and_save_formulas():
    assert C.status_defence(7, 1, 3) == 11 and C.status_defence(2, 3) == 5
    assert C.exert_threshold(11, 3) == 3 and C.exert_limit(3) == 13
    assert [C.save_tn(a) for a in (0, 1, 2, 3, 8, 12)] == [12, 11, 10, 9, 4, 4]
    assert C.initiative_bonus(5) == 5 and C.initiative_bonus(5, 2) == 7


def test_stat_params_read_options_by_name():
    assert C.StatParams() == C.DEFAULT_PARAMS
    p = C.StatParams.from_options({"base_hp": 10, "hplv": 4, "max_rounds": 20})
    assert (p.base_hp, p.hplv, p.base_mp, p.evasion_floor) == (10, 4, 12, 6)

    class Opts:
        evasion_floor = 10
        base_core = 5

    assert (C.StatParams.from_options(Opts()).evasion_floor,
            C.StatParams.from_options(Opts()).base_core) == (10, 5)


# --- §2.6 Metaphors and §2.9 size ----------------------------------------------------------

def test_metaphor_arrays_and_components():
    assert C.PRIMARY_ARRAY == (4, 3)
    assert C.SECONDARY_ARRAYS == ((2, 2, 2, 1), (3, 2, 1), (4,))
    C.check_metaphor_components(4, [2, 2])
    with pytest.raises(ValueError, match="components add up to 5, more than the rank 4"):
        C.check_metaphor_components(4, [3, 2])
    heavy = stat_blocks()["fighter"].metaphors[0]
    assert [(c.name, c.adds, str(c.die)) for c in heavy.components] == [
        ("Crushing Blow", "damage", "md6"), ("Overpower", "magnitude", "md6")]


@pytest.mark.parametrize("name, rating, mult, needed", [
    ("fine", "1/16", "1/8", 8), ("diminutive", "1/8", "1/4", 4), ("tiny", "1/4", "1/2", 2),
    ("small", "1/2", "1", None), ("medium", "1", "1", None)])
def test_size_table_small_rows(name, rating, mult, needed):
    r = C.size_row(name)
    assert (r.rating, r.damage_mult, r.hp_mult, r.speed_bonus_ft, r.size_damage_needed) == (
        Fraction(rating), Fraction(mult), 1, 0, needed)
    assert C.size_row(rating) is r and C.size_row(name.upper()) is r


@pytest.mark.parametrize("n", [2, 3, 4, 7, 50])
def test_size_n_rows(n):
    r = C.size_row(n)
    assert (r.rating, r.damage_mult, r.hp_mult, r.speed_bonus_ft, r.size_damage_needed) == (
        n, n, n, 5 * (n - 1), None)
    assert C.size_row(str(n)) == r and C.size_row(Fraction(n)) == r


@pytest.mark.parametrize("bad", [0, -1, "3/2", "huge", 1.5, True, None, "1/3"])
def test_unknown_size_is_a_clear_error(bad):
    with pytest.raises(ValueError, match=r"unknown size .*expected an integer >= 1"):
        C.size_row(bad)


# --- §2.11 building, replayed for §13.1 ---------------------------------------------------

HILL_GIANT = Race("hill_giant", False, {})
BUILDS = {  # spec §13.1, step by step
    "fighter": ("human", [CorePick("body", ("str", "end")), CorePick("reflex", ("str", "agi"))],
                1, ("str", "cha"), [], [], None),
    "wizard": ("human", [CorePick("mind", ("int", "per")), CorePick("reflex", ("int", "agi"))],
               1, ("int", "end"), [], [], None),
    "detective": ("human", [CorePick("reflex", ("agi", "per")), CorePick("mind", ("per", "int"))],
                  1, ("per", "end"), [], [], None),
    "odonghe_brawler": ("odonghe", [CorePick("body", ("str", "str"))], 2, ("str", "agi"),
                        ["agi"], [], None),
    "bandit": ("human", [CorePick("body", ("str", "agi"))], 1, ("end", "per"), [], [], False),
    "hill_giant": (HILL_GIANT, [CorePick("body", ("str", "end"))], 3, ("str", "agi"),
                   ["str", "end"], ["per"], None),
}


@pytest.mark.parametrize("bid", list(BUILDS))
def test_13_1_derivations_replay_through_the_building_steps(bid):
    race, picks, level, one, ups, training, versatile = BUILDS[bid]
    b = build_character(race, picks, level, one, ups, training, versatile=versatile)
    block = stat_blocks()[bid]
    assert dict(b.attributes) == dict(block.attributes)
    assert (b.proficient, b.expertise) == (block.proficient, block.expertise)


@pytest.mark.parametrize("args, msg", [
    (("human", [CorePick("body", ("str", "int")), CorePick("mind", ("int", "cha"))], 1,
      ("str", "cha")), r"body pick: 'int' may not take an extra \+1"),
    (("human", [CorePick("body", ("str", "end"))], 1, ("str", "cha")),
     "expected 2 different Core Value pick"),
    (("human", [CorePick("body", ("str", "end")), CorePick("body", ("str", "end"))], 1,
      ("str", "cha")), "expected 2 different Core Value pick"),
    (("odonghe", [CorePick("body", ("str", "str"))], 1, ("str", "str")),
     "level 1: the second \\+1 went to 'str', now 5, above Level 1"),
    (("odonghe", [CorePick("body", ("str", "str"))], 2, ("str", "agi")),
     "expected 1 level-up point"),
    (("odonghe", [CorePick("body", ("str", "str"))], 1, ("str", "agi"), [], ["per"]),
     "training: 'per' would be 3, above Level 1"),
    (("elf", [], 1, ("str", "agi")), "unknown race 'elf'"),
    (("odonghe", [CorePick("soul", ("str", "str"))], 1, ("str", "agi")), "unknown core 'soul'"),
    (("odonghe", [CorePick("body", ("str", "str"))], 1, ("luck", "agi")),
     "level 1: unknown attribute 'luck'"),
])
def test_bad_building_steps_are_clear_errors(args, msg):
    with pytest.raises(ValueError, match=msg):
        build_character(*args)


# --- §13.1 and §13.2: every printed number against the catalogue ---------------------------

# id: attributes (str end agi per int cha), level, size, protected, MU, cores B/R/M, HP, MP,
# E, D, SD B/R/M, T, speed, space, reach, initiative
SHEETS = {
    "fighter": ((4, 2, 2, 1, 0, 1), 1, 1, True, True, (7, 5, 2), 54, 15, 6, 10, (11, 6, 3), 3,
                15, 1, 5, 5),
    "wizard": ((0, 1, 2, 2, 4, 1), 1, 1, True, True, (2, 6, 6), 24, 15, 6, 6, (3, 10, 7), 3,
               15, 1, 5, 6),
    "detective": ((0, 1, 2, 4, 2, 1), 1, 1, True, True, (2, 7, 5), 24, 15, 7, 7, (3, 8, 6), 3,
                  15, 1, 5, 7),
    "odonghe_brawler": ((4, 3, 2, 2, 0, 0), 2, 1, True, True, (8, 6, 2), 60, 18, 6, 8,
                        (13, 8, 4), 4, 15, 1, 5, 6),
    "bandit": ((2, 2, 1, 1, 0, 0), 1, 1, False, False, (4, 3, 1), 36, 0, 6, 6, (5, 4, 2), 2,
               15, 1, 5, 3),
    "wolf": ((2, 1, 3, 3, 0, 0), 1, 1, False, False, (4, 7, 2), 26, 0, 7, 7, (5, 8, 3), 3,
             30, 1, 5, 7),
    "hill_giant": ((4, 3, 1, 1, 0, 0), 3, 4, False, False, (7, 4, 2), 264, 0, 6, 7, (10, 7, 5),
                   5, 30, 4, 20, 4),
    "stone_golem": ((4, 4, 0, 1, 0, 0), 2, 2, False, False, (8, 3, 2), 132, 0, 6, 10,
                    (10, 5, 4), 4, 20, 2, 10, 3),
}


@pytest.mark.parametrize("bid", list(SHEETS))
def test_13_1_and_13_2_sheet_numbers(bid):
    (attrs, level, size, prot, mu, cores, hp, mp, e, d, sd, t, speed, space, reach,
     init) = SHEETS[bid]
    b = stat_blocks()[bid]
    got = b.derived
    assert tuple(b.attributes[a] for a in C.ATTRIBUTES) == attrs
    assert (b.level, b.size, b.protected, b.metaforce_user) == (level, size, prot, mu)
    assert tuple(got.cores[c] for c in C.CORES) == cores
    assert (got.hp_max, got.mp_max, got.evasion, got.deflection) == (hp, mp, e, d)
    assert tuple(got.status_defence[c] for c in C.CORES) == sd
    assert (got.exert_threshold, got.exert_limit) == (t, t + 10)
    assert (got.speed_ft, got.space_squares, got.reach_ft, got.initiative_bonus) == (
        speed, space, reach, init)
    # and the content functions alone give the same, from the spec's formulas
    assert C.core_values(b.attributes) == dict(zip(C.CORES, cores, strict=True))
    assert C.max_hp(cores[0], level, size, b.base_hp, b.hplv) == hp


# id: main attack, ToHit, damage base, bonus die, type, reach or increment, special status,
# magnitude bonus, weapon damage before components (§13.1 "Damage 6 + d6 + 2"), M-Powers
ATTACKS = {
    "fighter": ("warhammer", 8, 8, 6, "blunt", 5, "knockback", 6, 6, ("action8_react4",)),
    "wizard": ("fire_bolt", 8, 4, 8, "fire", 60, "burn", 4, 4, ("safe6_assurance8",)),
    "detective": ("revolver", 8, 12, 6, "piercing", 60, "bleed", 4, 12, ("finishing_touch",)),
    "odonghe_brawler": ("unarmed", 8, 6, 6, "blunt", 5, "knockback", 4, 6, ("crash_out",)),
    "bandit": ("mace", 5, 4, 6, "blunt", 5, "knockback", 3, 4, ()),
    "wolf": ("bite", 6, 4, 6, "piercing", 5, "bleed", 3, 4, ()),
    "hill_giant": ("great_club", 7, 4, 6, "blunt", 20, "knockback", 3, 4, ()),
    "stone_golem": ("slam", 6, 4, 8, "blunt", 10, "knockback", 2, 4, ()),
}


@pytest.mark.parametrize("bid", list(ATTACKS))
def test_13_2_main_attack(bid):
    wid, tohit, base, die, dtype, rng, status, mag, raw, mpowers = ATTACKS[bid]
    b = stat_blocks()[bid]
    w = b.attacks()[0]
    assert (w.id, w.tohit, w.damage_base, w.bonus_die, w.damage_type) == (
        wid, tohit, base, die, dtype)
    assert (w.range_increment_ft if w.ranged else w.reach_ft) == rng
    assert (w.special_status, w.magnitude_bonus) == (status, mag)
    assert w.damage_base - b.damage_adds("spells" if w.kind == "spell" else w.id) == raw
    assert b.expected_tohit(w) == tohit or w.kind == "spell"
    assert C.check_state(b.proficient_with(w)) == 1  # "+N Adv" in every row
    assert C.size_row(b.size).damage_mult == b.size  # "(4 + d6) x 4", "(4 + d8) x 2"
    assert b.mpowers == mpowers


def test_13_1_details_of_single_combatants():
    blocks = stat_blocks()
    f, wz, det, br = (blocks[k] for k in ("fighter", "wizard", "detective", "odonghe_brawler"))
    assert f.armour.deflection_bonus == 3 and det.armour.deflection_bonus == 2
    assert f.covering("warhammer").adds("magnitude") == 2  # "Knockback (+2 mag)"
    assert wz.casting_attr == "int" and wz.expected_spell_tohit() == 8 and wz.dodge_bonus == 3
    assert [w.id for w in wz.attacks()] == ["fire_bolt", "shocking_grasp", "unarmed"]
    fireball = wz.spells[2]
    assert (fireball.level, fireball.frames, fireball.exert, fireball.core_attack) == (
        2, 2, 4, False)
    assert (fireball.tapped_frames, fireball.tapped_exert) == (1, 2)  # §13.4 "(1 with ...)"
    rev = det.weapons[0]
    assert (rev.trigger_limit, rev.auto, rev.capacity, rev.chamber_plus_one) == (2, False, 6,
                                                                                  False)
    assert rev.reload is not None and rev.reload.per_frame == 3 and rev.bypasses_deflection
    assert (rev.max_range_ft, det.firearm_proficient) == (180, True)
    assert br.grapple is not None and (br.grapple.attr, br.grapple.bonus) == ("str", 8)
    assert br.resistance_x("disease") == 0 and br.advantage_on_saves_vs == ("disease",)
    assert (br.base_hp, br.hplv, br.race) == (20, 4, "odonghe")
    assert br.expertise_take_average == {"end", "per"} and br.level_bonus_on == {"end"}


@pytest.mark.parametrize("bid, saves, tns", [
    ("fighter", ("body", "reflex"), (10, 10)), ("wizard", ("reflex", "mind"), (10, 11)),
    ("detective", ("reflex", "mind"), (10, 11)), ("odonghe_brawler", ("body",), (9,)),
    ("bandit", ("body",), (10,)), ("wolf", ("reflex",), (9,)), ("hill_giant", ("body",), (9,)),
    ("stone_golem", ("body",), (8,))])
def test_13_1_saves_and_their_tn(bid, saves, tns):
    b = stat_blocks()[bid]
    assert b.saves == saves == b.eligible_saves()
    assert tuple(C.save_tn(b.attributes[C.SAVE_ATTRIBUTE[s]]) for s in saves) == tns


def test_13_1_odonghe_body_save_is_expert():
    br = stat_blocks()["odonghe_brawler"]
    assert "end" in br.expertise and str(C.rank_die(br.attributes["end"])) == "md8"
    assert C.check_state(True, expert=True) == 1  # Advantage


def test_13_2_golem_defences():
    g = stat_blocks()["stone_golem"]
    assert [g.resistance_x(t) for t in ("blunt", "slashing", "piercing", "fire")] == [
        3, 3, 3, None]
    assert g.resistance_x("piercing", firearm=True) == 3  # innate, kept against bullets
    assert (g.weakness("electric"), g.weakness("fire")) == (5, None)
    assert (g.immunity("poison"), g.immunity("status:poison"), g.immunity("status:bleed"),
            g.immunity("blunt")) == (0, 0, 0, None)
    assert g.armour.bullet_resistant and g.derived.deflection == 10


def test_13_3_detective_vs_one_bandit_numbers():
    # §13.3: "every shot hits (ToHit at least 9 against Evasion 6) for at least 13, so the
    # first three shots kill it"
    det, bandit = stat_blocks()["detective"], stat_blocks()["bandit"]
    rev = det.weapons[0]
    assert 1 + rev.tohit == 9 >= bandit.derived.evasion == 6
    assert rev.damage_base + 1 == 13 and 3 * 13 >= bandit.derived.hp_max == 36


def test_other_parameters_change_every_block():
    # R-1's older alternatives: an option away from its default replaces each block's value
    alt = C.StatParams(base_hp=10, hplv=4, evasion_floor=10, base_core=5)
    f, br = stat_blocks()["fighter"], stat_blocks()["odonghe_brawler"]
    assert f.stats(alt).cores == {"body": 12, "reflex": 10, "mind": 7}
    assert f.stats(alt).hp_max == 10 + 4 * (1 + 12)
    assert br.stats(alt).hp_max == 10 + 4 * (2 + 13)
    assert br.stats(C.StatParams(base_mp=10, mplv=5)).mp_max == 20
    assert br.stats(C.DEFAULT_PARAMS) == br.derived


def test_catalogue_reference_sections():
    cat = catalogue()
    assert isinstance(cat.stat_blocks["wolf"], StatBlock)
    carbine, shotgun = cat.weapons["automatic_carbine"], cat.weapons["shotgun"]
    assert (carbine.trigger_limit, carbine.auto, carbine.capacity, carbine.chamber_plus_one,
            carbine.reload) == (3, True, 30, True, carbine.reload)
    assert carbine.reload is not None and carbine.reload.per_frame is None  # Reload: All
    assert (shotgun.damage_base, shotgun.bonus_die, shotgun.range_increment_ft) == (16, 8, 30)
    assert cat.weapons["dagger"].thrown_ft == 20 and cat.weapons["longbow"].kind == "bow"
    assert cat.armour["knights_warded_plate"].resistance == {
        "blunt": 4, "slashing": 4, "piercing": 4}
    assert cat.armour["shield"].hands == 1 and cat.armour["heavy"].deflection_bonus == 4
    mm = cat.spells["magic_missile"]
    assert (mm.resolution, mm.range_ft, mm.damage_base, mm.bonus_die) == (
        "ignores_evasion", 120, 2, 4)
    assert sorted(cat.spells) == sorted(["fire_bolt", "shocking_grasp", "magic_missile",
                                         "ray_of_frost", "ward", "heal", "fireball"])
    assert cat.spells["ray_of_frost"].special_status == "slow"


def test_blocks_answer_to_their_13_5_field_names():
    # a reader may take a stat block or its YAML mapping alike (§13.5 names)
    import yaml

    from envs.metaforce.rules.catalogue import DATA
    raw = yaml.safe_load((DATA / "catalogue.yaml").read_text(encoding="utf-8"))
    for item in raw["combatants"]:
        b = stat_blocks()[item["id"]]
        for key in ("cores", "hp_max", "mp_max", "evasion", "deflection", "status_defence",
                    "exert_threshold", "speed_ft", "space_squares", "reach_ft",
                    "initiative_bonus", "weaknesses", "level", "protected", "saves"):
            got = getattr(b, key)
            plain = dict(got) if isinstance(got, Mapping) else list(got) if isinstance(
                got, tuple) else got
            assert plain == item[key], (b.id, key)
        assert list(b.immunities) == item["immunities"]
        for w, raw_w in zip(b.weapons, item["weapons"], strict=True):
            assert (w.type, w.reload_mode) == (raw_w["type"], raw_w.get("reload_mode"))
