"""Metaforce checks and attacks with forced dice (spec §2.3, §2.4.3, §5.3, §5.5, §8, §12.1)."""

from __future__ import annotations

from test_metaforce_kit import (
    act,
    block,
    detective,
    fight,
    fighter,
    labels,
    novice,
    revolver,
    texts,
)

from envs.core.dice import ScriptedDice
from envs.metaforce.rules import Weapon
from envs.metaforce.rules.checks import check_roll, meta_die_for, net_steps, rank_die, roll_rank
from envs.metaforce.rules.damage import attacker_damage, defend, gear_size, size_crit_mult


def duel(a, b, **kw):
    """``a`` at (0, 0) acts first; ``b`` at (0, 1), adjacent; nobody holds a Reaction."""
    return fight((a, "a", (0, 0)), (b, "b", (0, 1)), aware=False, **kw)


# ---------------------------------------------------------------- dice (§2.3, §2.4.3, R-5, R-6)
def test_a_single_d12_explodes_into_one_md12_that_never_explodes_again():
    c = check_roll(ScriptedDice(["d12=12", "d12=3"]), 0)
    assert (c.kept, c.v, c.faces, c.crit) == (12, 5, (12, 3), True)  # md12: 3 counts as 5
    c = check_roll(ScriptedDice(["d12=12", "d12=12"]), 0)
    assert c.v == 12 and len(c.faces) == 2  # V never explodes


def test_with_two_dice_the_other_die_is_v_and_no_die_is_drawn():
    c = check_roll(ScriptedDice(["d12=4", "d12=12"]), 1)
    assert (c.kept, c.other, c.v) == (12, 4, 5)
    c = check_roll(ScriptedDice(["d12=12", "d12=12"]), -1)
    assert (c.kept, c.v) == (12, 12)  # Disadvantage: both 12, V 12


def test_the_ladder_keeps_the_lower_die_and_costs_4_per_step_below_minus_1():
    c = check_roll(ScriptedDice([9, 4]), -3)
    assert (c.kept, c.penalty) == (4, -8)
    c = check_roll(ScriptedDice([9, 4]), 3)
    assert (c.kept, c.penalty) == (9, 0)


def test_net_steps_proficiency_expertise_tired_and_exhausted():
    assert net_steps(0, True, False, False, False) == 1
    assert net_steps(-2, True, False, False, False) == -1
    assert net_steps(-2, False, True, False, False) == -1  # Expertise lifts one step
    assert net_steps(-1, False, True, False, False) == 0  # ... but not above Normal
    assert net_steps(1, True, False, True, False) == 0  # Tired: no Advantage
    assert net_steps(1, True, False, False, True) == -1  # Exhausted: Disadvantage


def test_rank_dice_and_the_meta_die_mp_can_afford():
    assert [rank_die(r) for r in (0, 1, 3, 5, 6, 8)] == [None, (1, 4), (1, 8), (1, 12),
                                                         (2, 12), (4, 12)]
    assert roll_rank(ScriptedDice(["d10=2"]), 4) == 4  # md10: at least 4
    assert roll_rank(ScriptedDice(["d12=3", "d12=9"]), 6) == 9  # 2md12k1
    assert roll_rank(ScriptedDice([]), -1) == -1  # flat value, no die
    assert [meta_die_for(mp) for mp in (3, 4, 7, 9, 11, 15)] == [None, 4, 6, 8, 10, 12]


# ---------------------------------------------------------------- bands and criticals (§5.3)
def test_a_natural_12_doubles_damage_and_v_goes_to_damage_on_a_direct_hit():
    enc = duel(novice(), block("bandit"))
    ev = act(enc, "novice: attack mace -> bandit", ["d12=12", "d12=3", "d6=4"])
    assert "novice attacks bandit with mace: d12 12/3 (S +0) ToHit 17 vs E 6 D 6: direct, " \
           "critical V 5" in texts(ev)
    assert "novice puts V 5 on damage" in texts(ev)
    assert enc.by_id["bandit"].hp == 36 - (4 + 4 + 5) * 2  # (base + d6 + V) x 2


def test_bands_deflected_halves_direct_does_not_miss_draws_no_bonus_die():
    enc = duel(block("bandit"), fighter(), order=["bandit", "fighter"])
    act(enc, "bandit: attack mace -> fighter", ["d12=3", "d12=4", "d6=5"])  # 9: E 6 <= 9 <= 10
    assert enc.by_id["fighter"].hp == 54 - 4  # (4 + 5) // 2
    act(enc, "bandit: attack mace -> fighter", ["d12=6", "d12=2", "d6=3"])  # 11 > D 10: direct
    assert enc.by_id["fighter"].hp == 50 - 7
    weak = block("weak", weapons=(Weapon("stick", "melee", "str", 0, 1, 4, "blunt"),),
                  proficient=frozenset())
    enc = duel(weak, fighter())
    ev = act(enc, "weak: attack stick -> fighter", ["d12=5"])  # 5 < E 6: miss, no d4
    assert any("ToHit 5 vs E 6 D 10: miss" in t for t in texts(ev))


def test_v_goes_to_tohit_to_turn_a_deflected_hit_into_a_direct_one():
    enc = duel(fighter(), block("wall", deflection=25))
    ev = act(enc, "fighter: attack warhammer -> wall", ["d12=12", "d12=9", "d6=3"])
    assert "fighter puts V 9 on tohit" in texts(ev)
    assert any("ToHit 29 vs E 6 D 25: direct" in t for t in texts(ev))
    assert enc.by_id["wall"].hp == 36 - (8 + 3) * 2


def test_v_goes_to_size_damage_against_a_larger_target_when_it_is_bigger():
    giant = block("giant", size=4.0, hp_max=264, deflection=7, space=4)
    enc = fight((fighter(), "a", (0, 0)), (giant, "b", (0, 1)), aware=False)
    ev = act(enc, "fighter: attack warhammer -> giant", ["d12=12", "d12=12", "d6=6"])
    assert "fighter puts V 12 on size" in texts(ev)
    assert enc.by_id["giant"].hp == 264 - 14 * 4  # B 14 x min(V 12, Size 4)
    assert size_crit_mult(1.0, 12, 4.0, True) == 4 and size_crit_mult(1.0, 3, 4.0, True) == 3
    # R-28 (FULL): a small attacker multiplies by min(V x m_a, T); CORE keeps max(m_a, min(V, T))
    assert size_crit_mult(0.5, 5, 4.0, True) == 2.5 and size_crit_mult(0.5, 5, 4.0, False) == 4


def test_size_enhanced_gear_adds_its_ranks_up_to_the_targets_size():
    # spec §8.4 (FULL): N ranks add N to the multiplier against a bigger foe, capped at its Size
    assert gear_size(True, 2, False, 1.0, 4.0, True, 1.0, None) == (3.0, None)
    assert gear_size(True, 5, False, 1.0, 4.0, False, 1.0, None) == (4.0, None)  # the cap
    assert gear_size(True, 2, False, 2.0, 4.0, True, 2.0, None) == (4.0, None)  # +200% at most
    assert gear_size(True, 2, False, 1.0, 4.0, True, 1.0, 3.0) == (1.0, 4.0)  # a Size critical
    assert gear_size(True, 2, False, 4.0, 4.0, True, 4.0, None) == (4.0, None)  # equal Sizes
    assert gear_size(True, 2, True, 1.0, 4.0, False, 1.0, None) == (1.0, None)  # needs direct
    assert gear_size(False, 2, False, 1.0, 4.0, True, 1.0, None) == (1.0, None)  # CORE
    assert attacker_damage(9, 3.0, True) == 54  # a critical on Damage still doubles


def test_a_giant_multiplies_its_damage_by_its_size():
    giant = block("giant", size=4.0, hp_max=264, deflection=7, space=4, reach_ft=20)
    enc = fight((giant, "b", (0, 2)), (fighter(), "a", (0, 0)), aware=False,
                order=["giant", "fighter"])
    act(enc, "giant: attack mace -> fighter", ["d12=2", "d12=9", "d6=6"])  # 14 > D 10
    assert enc.by_id["fighter"].hp == 54 - (4 + 6) * 4


# ---------------------------------------------------------------- Create a Meta-Die
def test_the_meta_die_is_rolled_and_paid_only_when_it_lifts_the_band():
    enc = duel(fighter(), block("wall", deflection=15, hp_max=90))
    ev = act(enc, "fighter: attack warhammer -> wall +meta", ["d12=3", "d12=2", "d12=3",
                                                              "d6=2"])
    assert "fighter creates a Meta-Die md12 5: pays 5 MP" in texts(ev)  # 11 + 5 > 15: direct
    assert enc.by_id["fighter"].mp == 10 and enc.by_id["wall"].hp == 90 - 10
    enc = duel(fighter(), block("wall", deflection=17, hp_max=90))
    ev = act(enc, "fighter: attack warhammer -> wall +meta", ["d12=3", "d12=2", "d12=3",
                                                              "d6=2"])
    assert "fighter creates a Meta-Die md12 5: cancelled at no cost" in texts(ev)
    assert enc.by_id["fighter"].mp == 15 and enc.by_id["wall"].hp == 90 - 5  # deflected
    enc = duel(fighter(), block("wall", deflection=30, hp_max=90))
    act(enc, "fighter: attack warhammer -> wall +meta", ["d12=3", "d12=2", "d6=2"])  # no roll


def test_the_meta_flag_needs_a_metaforce_user_with_4_mp():
    enc = duel(fighter(), block("bandit"))
    assert "fighter: attack warhammer -> bandit +meta" in labels(enc)
    enc = duel(fighter(mp_max=3), block("bandit"))
    assert "fighter: attack warhammer -> bandit +meta" not in labels(enc)
    enc = duel(block("bandit"), fighter())
    assert not any(x.endswith("+meta") for x in labels(enc))


# ---------------------------------------------------------------- firearms (§5.5, R-35)
def test_the_trigger_ladder_steps_down_each_shot_for_a_non_proficient_shooter():
    gunner = novice("gunner", weapons=(revolver(trigger_limit=3, proficient=False),))
    enc = duel(gunner, block("bandit"))
    assert "gunner: fire revolver 3 -> bandit" in labels(enc)
    ev = act(enc, "gunner: fire revolver 3 -> bandit",
             ["d12=5", "d6=2", "d12=9", "d12=4", "d6=1", "d12=2", "d12=7", "d6=6"])
    rolls = [t for t in texts(ev) if "attacks" in t]
    assert ["(S +0) ToHit 13" in rolls[0], "(S -1) ToHit 12" in rolls[1],
            "(S -2) ToHit 6" in rolls[2]] == [True, True, True]
    assert all(t.endswith(": direct") for t in rolls)  # firearms skip Deflection
    assert enc.by_id["bandit"].state == "dead" and enc.outcome().winner == "a"
    assert enc.by_id["gunner"].loaded["revolver"] == 3


def test_auto_fire_only_loses_advantage_and_a_proficient_first_shot_has_it():
    from dataclasses import replace

    from envs.metaforce.rules.arms import shot_steps
    enc = duel(detective(), block("bandit"))
    d, b = enc.by_id["detective"], enc.by_id["bandit"]
    gun = d.profile.weapon("revolver")  # proficient: the first shot at S +1
    assert [shot_steps(enc, d, gun, b, i) for i in (1, 2, 3, 4)] == [1, 0, -1, -2]
    auto = replace(gun, auto=True)
    assert [shot_steps(enc, d, auto, b, i) for i in (1, 2, 3)] == [1, 0, 0]
    assert [shot_steps(enc, d, auto, b, i, first=-1) for i in (1, 2)] == [-1, -1]
    ev = act(enc, "detective: fire revolver 2 -> bandit",
             ["d12=3", "d12=5", "d6=1", "d12=2", "d6=1"])
    rolls = [t for t in texts(ev) if "attacks" in t]
    assert "d12 3/5 (S +1) ToHit 13" in rolls[0] and "d12 2 (S +0) ToHit 10" in rolls[1]


def test_range_bands_cost_a_step_per_extra_increment_and_end_at_three():
    far = fight((detective(), "a", (0, 0)), (block("bandit"), "b", (0, 25)), size=(4, 40),
                aware=False)
    ev = act(far, "detective: fire revolver 1 -> bandit", ["d12=4", "d12=9", "d6=1"])  # -2 +1
    assert any("(S -1) ToHit 12" in t for t in texts(ev))
    out = fight((detective(), "a", (0, 0)), (block("bandit"), "b", (0, 37)), size=(4, 40),
                aware=False)
    assert not any(x.startswith("detective: fire revolver 1 -> bandit") and "approach" not in x
                   for x in labels(out))  # 185 ft > 3 x 60 ft


# ---------------------------------------------------------------- defender pipeline (§8.2)
KNIGHT = block("knight", deflection_bonus=4,
               armour_resistance={"blunt": 4, "slashing": 4, "piercing": 4})
GOLEM = block("golem", resistances={"physical": 3}, weaknesses={"electric": 5},
              immunities=frozenset({"poison", "status:bleed"}), bullet_resistant=True)


def test_the_knight_example_quarter_then_subtract_double():
    p = KNIGHT
    assert defend(p, 48, "blunt", True) == 4  # 48 -> 24 -> 12 - 4 - 4
    assert defend(p, 48, "blunt", False) == 20  # direct: 24 - 4
    assert defend(p, 48, "fire", True) == 24  # no resistance: Deflection only
    assert defend(p, 48, "piercing", False, firearm=True) == 48  # armour fails vs bullets


def test_weakness_immunity_and_innate_resistance():
    p = GOLEM
    assert defend(p, 2, "electric", False) == 5  # max(2 x 2, 5)
    assert defend(p, 10, "electric", False) == 20
    assert defend(p, 30, "poison", False) == 0
    assert defend(p, 20, "piercing", False, firearm=True) == 7  # innate: 10 - 3
    assert defend(p, 9, "bleed", False, status=True) == 0  # status immunity


def test_attacker_damage_floors_small_sizes_with_a_minimum_of_1():
    assert attacker_damage(5, 0.5, False) == 2
    assert attacker_damage(1, 0.25, False) == 1
    assert attacker_damage(7, 1.0, True) == 14


def test_we13_to_we16_resistance_immunity_absorb_and_penetration():
    golem = block("golem", resistances={"fire": 5})
    assert defend(golem, 14, "fire", False) == 2  # WE-13: 14 // 2 - 5
    immune = block("wall", immunities=frozenset({"physical"}), immunity_x={"physical": 5})
    assert [defend(immune, 14, "blunt", False, pen=p) for p in (8, 5, 4)] == [3, 0, 0]  # WE-14
    assert defend(immune, 14, "blunt", True, pen=8) == 0  # no Penetration on a deflected hit
    elemental = block("elemental", absorbs={"fire": 5})
    assert defend(elemental, 13, "fire", False) == -12  # WE-15: heals ceil(13 / 2) + 5
    assert defend(elemental, 14, "fire", False, pen=5) == -4  # WE-16: 7 + (2 - 5)
    assert defend(elemental, 14, "fire", False, pen=12) == 3  # 7 + (2 - 12) = -3: takes 3


def test_a_penetration_that_turns_absorb_negative_is_taken_even_above_the_raw_damage():
    # spec §8.2 step 4: Absorb is the defender's property, so "no resistance property" (dmg
    # unchanged) is no option: H = ceil(2 / 2) + floor(0 / 2) - 10 = -9, it takes 9
    elemental = block("elemental", absorbs={"fire": 0})
    assert defend(elemental, 2, "fire", False, pen=10) == 9
    assert defend(block("plain"), 2, "fire", False, pen=10) == 2  # no property: unchanged


def test_an_absorbed_attack_heals_up_to_max_hp():
    enc = duel(fighter(), block("elemental", absorbs={"blunt": 5}))
    e = enc.by_id["elemental"]
    e.hp = 32
    ev = act(enc, "fighter: attack warhammer -> elemental", ["d12=7", "d12=3", "d6=1"])
    assert "elemental absorbs the blow of fighter: heals 4, HP 36" in texts(ev)  # 9 + 5, capped
