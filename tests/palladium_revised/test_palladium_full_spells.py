"""Palladium Revised FULL spells and their tables with forced dice (spec §5.9, §8.5, R34,
R40, R44): Stunning Hex against a Save with its stacks and the Stunned fizzle, Mend with a Burst
Heal critical (H.P. first), Ward absorbing a hit, the two-Action Withering Curse committing and
resolving at its last slot, an Affliction critical row, and the spell previews."""

from __future__ import annotations

import pytest

from envs.core.dice import ScriptedDice
from envs.palladium_revised.rules.catalogue import stat_blocks
from envs.palladium_revised.rules.events import Fizzled, ShieldAbsorbed
from envs.palladium_revised.rules.full_preview import preview_spell
from envs.palladium_revised.rules.full_tables import AFFLICTION, HEALING, table_row
from envs.palladium_revised.rules.options import FULL
from envs.palladium_revised.rules.profile import profile_of
from envs.palladium_revised.rules.rolls import roll_pct
from envs.palladium_revised.rules.setup import build

BLOCKS = stat_blocks()
SELL = profile_of(BLOCKS["sellsword"])
MAGE = profile_of(BLOCKS["battle_mage"])


def make(rows, faces, **kw):
    dice = ScriptedDice(faces)
    enc = build(rows, FULL, dice=dice, **kw)
    dice.check_exhausted()
    return enc


def play(enc, label, faces=()):
    dice = ScriptedDice(list(faces))
    ev = enc.apply(enc.parse_action(label), dice)
    dice.check_exhausted()
    return ev


def labels(enc):
    return [a.label for a in enc.legal_actions()]


def two_mages():
    """Mage m (A) at 80 first (16), mage n (B) at 100 (15 + 1... d20 1 + 1 = 2)."""
    return make([("m", "A", MAGE, 80), ("n", "B", MAGE, 100)], ["d20=15", "d20=1"])


def test_stunning_hex_stacks_by_margin_and_a_stunned_caster_fizzles_with_costs_paid():
    enc = two_mages()
    play(enc, "m: cast stunning_hex -> n", ["d20=14"])  # Spell Power 17
    assert enc.decision == "save"
    play(enc, "n: pass", ["d20=4"])  # Save vs Insanity (Stun) 4 + 1 = 5: margin 12
    n = enc.by_id["n"]
    assert n.fx.stunned == (("m", 8),) * 7  # 1 + floor(12 / 2) stacks, 7 s from Second 1
    assert roll_pct(n, "spell_power") == -35
    assert enc.current_actor() == "n"
    ev = play(enc, "n: cast fire_bolt -> m", ["d100=28"])  # 28 <= 4 x 7: fizzles
    assert any(isinstance(e, Fizzled) for e in ev)
    assert n.fx.ee == 45 and enc.by_id["m"].sdc == 25  # E.E. paid, nothing happened


def test_mend_critical_burst_heal_restores_hp_first_then_sdc():
    enc = make([("m", "A", MAGE, 80), ("s", "A", SELL, 80), ("x", "B", SELL, 140)],
               ["d20=15", "d20=10", "d20=1"], overrides={"s": {"hp": 20, "sdc": 0}})
    play(enc, "m: cast mend -> s", ["d20=20", "d100=85", "d6=3", "d6=4"])
    s = enc.by_id["s"]
    # Burst Heal: 7 x DM (100 + 100)% x CM 2 x EM 200% = 56; H.P. 20 -> 28, then S.D.C. +48
    assert (s.hp, s.sdc) == (28, 48)


def test_ward_absorbs_a_strike_before_the_body():
    enc = make([("m", "A", MAGE, 80), ("s", "B", SELL, 84)], ["d20=15", "d20=1"])
    play(enc, "m: cast ward -> m")
    m = enc.by_id["m"]
    assert m.fx.ward == (10, 16) and "m: drop ward" not in labels(enc)  # not m's turn now
    play(enc, "s: strike long_sword -> m", ["d20=12"])  # 15
    ev = play(enc, "m: pass", ["d6=6", "d6=6"])  # 6 + 6 + 3 = 15: 10 to the Ward, 5 to S.D.C.
    assert [e.amount for e in ev if isinstance(e, ShieldAbsorbed)] == [10]
    # the long sword's Wound ticks 1 at the start of Second 3, before m's next turn
    assert m.fx.ward is None and (m.wounds, m.sdc) == (1, 25 - 5 - 1)


def test_withering_curse_commits_two_actions_and_resolves_at_the_last_slot():
    enc = two_mages()
    play(enc, "m: cast withering_curse -> n")
    m, n = enc.by_id["m"], enc.by_id["n"]
    assert m.commitment == "m: cast withering_curse -> n" and m.fx.ee == 44
    assert m.slot_state[1] == "reserved"
    play(enc, "n: wait")
    assert (enc.second, enc.decision, enc.current_actor()) == (7, "committed", "m")
    play(enc, "m: continue", ["d20=10"])  # Spell Power 13
    play(enc, "n: pass", ["d20=5", "d6=6", "d6=6"])  # Save vs Magic 5: 12 to the body
    assert m.commitment is None and n.sdc == 25 - 12


def test_an_affliction_critical_rolls_its_table_before_the_damage():
    enc = two_mages()
    play(enc, "m: cast withering_curse -> n")
    play(enc, "n: wait")
    play(enc, "m: continue", ["d20=20"])  # a natural 20: 23
    # Exposure (81-90): +15% is for later afflictions; this one doubles on the critical
    play(enc, "n: pass", ["d20=5", "d100=85", "d6=2", "d6=3"])
    n = enc.by_id["n"]
    assert n.sdc == 25 - 10 and n.fx.exposure == 7 + 5


@pytest.mark.parametrize(("roll", "name"), [(1, "lung_crush"), (25, "lung_crush"),
                                            (52, "resistance_pierce"), (100, "vital_blow")])
def test_affliction_table_rows(roll, name):
    assert table_row(AFFLICTION, roll) == name


@pytest.mark.parametrize(("roll", "name"), [(26, "consuming_healing"), (67, "healing_dispel"),
                                            (81, "burst_heal"), (91, "revitalization")])
def test_healing_table_rows(roll, name):
    assert table_row(HEALING, roll) == name


def test_spell_previews_are_exact():
    enc = two_mages()
    bolt = preview_spell(enc, "m", "fire_bolt", "n")
    # 19 of 20 natural rolls beat 4 with +3 (nat 2..20); 2D6 mean 7, doubled on the 20
    assert bolt.hit == pytest.approx(19 / 20) and bolt.crit == pytest.approx(1 / 20)
    assert bolt.expected_damage == pytest.approx((18 * 7 + 14) / 20)
    assert bolt.in_range and bolt.castable and bolt.effect == "ignite"
    hex_ = preview_spell(enc, "m", "stunning_hex", "n")
    # P(d20 + 3 > d20 + 1) = P(a - b > -2) = 1 - P(a - b <= -2) = 1 - 171/400
    assert hex_.hit == pytest.approx(1 - 171 / 400)
    mend = preview_spell(enc, "m", "mend", "m")
    assert mend.expected_heal == pytest.approx(7 * 19 / 20 + 14 / 20)
