"""Palladium Revised rules found wrong by an audit of the spec against the engine, each pinned with
exact numbers: Stamina losses take Suffocation's +25% but not Soaked's x1.5 (§9.1, §7.3.3, §8.9),
Healing Dispel weighs the crit-table debuffs (§8.5, §6.5, R55), a being without P.E. is never
Exhausted (§2.1, R43). The case files ``r*`` and ``s85_*`` under
``tests/cases/palladium_revised/`` cover the rest (Wound ticks and resistance, POST_ROLL against
the Unaware, retargeted shots, Racing Heart stacks, critical riders)."""

from __future__ import annotations

import yaml

from envs.palladium_revised.rules import from_situation
from envs.palladium_revised.rules.catalogue import stat_block_from_mapping, stat_blocks
from envs.palladium_revised.rules.full_effects import lose_stamina
from envs.palladium_revised.rules.full_state import stamina_cost
from envs.palladium_revised.rules.full_tables import dispel_one
from envs.palladium_revised.rules.options import parse_options
from envs.palladium_revised.rules.profile import profile_of
from envs.palladium_revised.rules.rolls import effective_bonus
from envs.palladium_revised.rules.setup import build


def sellsword_with(conditions):
    enc = from_situation(yaml.safe_load(f"""
system: palladium_revised
options: full
order: [s, d]
combatants:
  - {{id: s, side: A, stats: sellsword, x: 80, state: {{conditions: {conditions}}}}}
  - {{id: d, side: B, stats: duelist, x: 150}}
"""))
    return enc, enc.by_id["s"]


def test_a_stamina_loss_takes_suffocation_but_not_soaked():
    _, s = sellsword_with("{soaked: {by: d, stacks: 1}, suffocation: {stacks: 1, seconds: 5}}")
    assert s.stamina == 32
    lose_stamina([], s, 4, "vital blow")
    assert s.stamina == 32 - 5  # ceil(4 x 1.25); Soaked x1.5 is for costs only
    assert stamina_cost(s, 4) == 7  # a cost: ceil(4 x (1 + 0.5 + 0.25))


def test_healing_dispel_removes_the_concussion_before_a_lung_crush():
    enc, s = sellsword_with("{concussion: 2, lung_crush: 1}")
    assert dispel_one(enc, [], s) == "concussion"  # -5% on every Combat Roll, x2 > Maneuver -15%
    assert (s.concussion, s.fx.lung_crush) == (0, 1)
    enc, s = sellsword_with("{internal_bleeding: 1}")
    assert dispel_one(enc, [], s) == "internal_bleeding" and s.internal_bleeding == 0


def test_a_being_without_pe_is_never_exhausted():
    golem = stat_block_from_mapping(
        {"name": "Golem", "height_ft": 6, "level": 3, "package": "fighter",
         "attributes": {"mi": 10, "me": 10, "ma": 10, "ps": 18, "pe": None, "pp": 18, "pm": 10,
                        "pb": 10}, "armor": "none", "weapons": ["mace"]}, "test", "golem")
    rows = [("g", "A", profile_of(golem), 80),
            ("d", "B", profile_of(stat_blocks()["duelist"]), 150)]
    g = build(rows, parse_options("full")).by_id["g"]
    assert g.fx.no_pe and g.profile.stamina_max == 0
    assert not g.exhausted and not g.fatigued
    assert effective_bonus(g, g.profile.strike) == g.profile.strike == 4


def test_blood_vision_costs_a_spell_strike_as_a_ranged_strike():
    from envs.core.dice import ScriptedDice
    from envs.palladium_revised.rules.rolls import combat_total

    def spell_power(bv_stacks):
        mage = profile_of(stat_blocks()["battle_mage"])
        enc = build([("m", "A", mage, 80), ("n", "B", mage, 100)], parse_options("full"),
                    dice=ScriptedDice(["d20=15", "d20=1"]))
        m = enc.by_id["m"]
        m.fx.bv_ranged = (enc.t_abs + 7,) * bv_stacks  # spec §7.5, R42 (7 s a stack)
        ev = enc.apply(enc.parse_action("m: cast fire_bolt -> n"), ScriptedDice(["d20=14"]))
        return next(str(e) for e in ev if "spell power" in str(e)), m.profile.spell_power

    text, sp = spell_power(0)
    assert text == f"m's spell power for fire_bolt: d20 14 = {combat_total(14, sp, 0)}"
    text, _ = spell_power(2)  # -5% x n_inc (1: the spell's range is one increment) a stack
    assert text == f"m's spell power for fire_bolt: d20 14 = {combat_total(14, sp, -10)}"
