"""Palladium Revised timeline (spec §3.4, §4.2-§4.7): the Melee Grid, initiative ties, turn
order by Second, commitments with carry-over and abandonment, ticks, rest and state checks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from envs.core.dice import ScriptedDice
from envs.palladium_revised.rules.catalogue import stat_blocks
from envs.palladium_revised.rules.content import DEFAULT_WEAPONS
from envs.palladium_revised.rules.events import CommitmentChanged, DamageDealt, InitiativeRolled
from envs.palladium_revised.rules.options import CORE
from envs.palladium_revised.rules.profile import arm_of, profile_of, radii
from envs.palladium_revised.rules.rolls import effective_bonus
from envs.palladium_revised.rules.setup import build
from envs.palladium_revised.rules.slots import slot_counts, slot_positions

BLOCKS = stat_blocks()
SELL = profile_of(BLOCKS["sellsword"])
DUEL = profile_of(BLOCKS["duelist"])
UNARMED = arm_of(DEFAULT_WEAPONS["unarmed"])
XBOW = arm_of(DEFAULT_WEAPONS["heavy_crossbow"])
ARCH = replace(profile_of(BLOCKS["archer"]), weapons=(XBOW, UNARMED))


def duel(faces, a=SELL, b=DUEL, xa=80, xb=120, over=None):
    dice = ScriptedDice(faces)
    enc = build([("s", "A", a, xa), ("d", "B", b, xb)], CORE, dice=dice, overrides=over)
    dice.check_exhausted()
    return enc


def play(enc, label, faces=()):
    dice = ScriptedDice(list(faces))
    ev = enc.apply(enc.parse_action(label), dice)
    dice.check_exhausted()
    return ev


def test_slot_counts_follow_the_grid_for_any_n():
    assert slot_counts(4) == {1: 1, 5: 1, 10: 1, 15: 1}
    assert sorted(slot_counts(13)) == [1, 2, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15]  # R20
    assert slot_counts(17) == {s: (2 if s in (1, 15) else 1) for s in range(1, 16)}  # R19
    assert slot_counts(30) == {s: 2 for s in range(1, 16)}
    assert slot_positions(17)[:3] == ((1, 1), (1, 2), (2, 1))
    with pytest.raises(ValueError):
        slot_counts(0)


def test_zone_radii_scale_with_height():
    assert radii(6) == (1, 2, 6, 12)
    assert radii(10) == (1, 4, 10, 20)
    assert radii(4) == (1, 2, 4, 8)


def test_initiative_ties_re_roll_among_the_tied_until_distinct():
    # s 11+2 = 13, d 10+3 = 13: tie; re-roll 5+2 = 7, 4+3 = 7: tie; 2+2 = 4, 9+3 = 12
    enc = duel(["d20=11", "d20=10", "d20=5", "d20=4", "d20=2", "d20=9"])
    assert enc.order == ["d", "s"]
    rolls = [(e.combatant, e.total, e.reroll) for e in enc.start_events
             if isinstance(e, InitiativeRolled)]
    assert rolls == [("s", 13, 0), ("d", 13, 0), ("s", 7, 1), ("d", 7, 1), ("s", 4, 2),
                     ("d", 12, 2)]
    assert enc.current_actor() == "d" and enc.second == 1


def test_turns_follow_the_melee_grid_in_initiative_order():
    enc = duel(["d20=15", "d20=1"])  # s 17, d 4
    seen = []
    for i in range(9):
        seen.append((enc.second, enc.current_actor()))
        play(enc, f"{enc.current_actor()}: wait", ["d20=1", "d20=15"] if i == 8 else [])
    # sellsword (N=4): 1, 5, 10, 15; duelist (N=5): 1, 4, 8, 11, 15
    assert seen == [(1, "s"), (1, "d"), (4, "d"), (5, "s"), (8, "d"), (10, "s"), (11, "d"),
                    (15, "s"), (15, "d")]
    # round 2: initiative re-rolled (s 3, d 18), Second 1 again
    assert (enc.round, enc.second, enc.order, enc.current_actor()) == (2, 1, ["d", "s"], "d")


def test_a_two_action_strike_reserves_the_next_slot_and_resolves_on_continue():
    enc = duel(["d20=15", "d20=1"], a=ARCH)  # archer 17, duelist 4
    ev = play(enc, "s: strike heavy_crossbow -> d")
    s = enc.by_id["s"]
    assert s.slot_state == ["used", "reserved", "available", "available"]
    assert any(isinstance(e, CommitmentChanged) and e.status == "committed" for e in ev)
    play(enc, "d: wait")
    play(enc, "d: wait")  # second 4
    assert (enc.second, enc.decision, enc.current_actor()) == (5, "committed", "s")
    assert "s: continue" in [a.label for a in enc.legal_actions()]
    assert "s: step away -> d" not in [a.label for a in enc.legal_actions()]
    play(enc, "s: continue", ["d20=15"])  # S0 = 15 + 4 = 19 (ranged: no parry offered)
    labels = [a.label for a in enc.legal_actions()]
    assert enc.decision == "defense" and "d: parry" not in labels and "d: dodge" in labels
    play(enc, "d: pass", ["d8=3", "d8=4"])
    d = enc.by_id["d"]
    # 35 - 7 = 28, then the new Wound ticks at the start of Second 6 on the way to Second 8
    assert (d.sdc, d.wounds, s.commitment, enc.second) == (27, 1, None, 8)


def test_another_main_action_at_a_committed_turn_abandons_it():
    enc = duel(["d20=15", "d20=1"], a=ARCH)
    play(enc, "s: strike heavy_crossbow -> d")
    play(enc, "d: wait")
    play(enc, "d: wait")
    ev = play(enc, "s: wait")
    assert any(isinstance(e, CommitmentChanged) and e.status.startswith("abandoned") for e in ev)
    s = enc.by_id["s"]
    assert s.commitment is None and s.slot_state[:2] == ["used", "used"]


def test_a_commitment_short_of_slots_carries_into_the_next_round():
    one = replace(ARCH, actions=1)
    enc = duel(["d20=15", "d20=1"], a=one)
    play(enc, "s: strike heavy_crossbow -> d")
    assert enc.by_id["s"].carry_over == 1
    for i in range(5):  # the duelist's five slots of round 1; then round 2's initiative
        play(enc, "d: wait", ["d20=15", "d20=1"] if i == 4 else [])
    s = enc.by_id["s"]
    assert (enc.round, enc.decision, enc.current_actor()) == (2, "committed", "s")
    assert s.slot_state == ["reserved"] and s.carry_over == 0


def test_wounds_tick_at_second_three():
    enc = duel(["d20=15", "d20=1"], over={"d": {"wounds": 3}})
    play(enc, "s: wait")
    ev = play(enc, "d: wait")
    ticks = [e for e in ev if isinstance(e, DamageDealt) and e.layer == "tick"]
    assert [(e.target, e.amount) for e in ticks] == [("d", 3)]
    assert enc.by_id["d"].sdc == 32 and enc.second == 4


def test_a_wound_tick_into_a_coma_ends_the_fight():
    enc = duel(["d20=15", "d20=1"], over={"d": {"sdc": 0, "hp": 2, "wounds": 2}})
    play(enc, "s: wait")
    play(enc, "d: wait")
    d = enc.by_id["d"]
    assert d.state == "coma" and d.hp == 0
    assert enc.is_over() and enc.outcome().winner == "A"


def test_rest_restores_1d4_stamina_per_five_rest_seconds():
    enc = duel(["d20=15", "d20=1"], over={"s": {"stamina": 20}})
    play(enc, "s: rest")
    play(enc, "d: wait")
    play(enc, "d: wait")  # second 4
    play(enc, "s: rest", ["d4=3"])  # second 5 counts: rest_seconds 5 at its end
    assert enc.by_id["s"].stamina == 23


def test_exhaustion_scales_positive_bonuses_at_the_state_check():
    enc = duel(["d20=15", "d20=1"], over={"s": {"stamina": 16}})
    s = enc.by_id["s"]
    assert s.exhausted and not s.fatigued
    assert effective_bonus(s, 3) == 2 and effective_bonus(s, -2) == -2


def test_a_dodge_abandons_a_commitment_and_consumes_its_reserved_slot():
    # spec §11.2 C9 (b) with a heavy crossbow: the archer commits slots 1 and 5, then dodges
    enc = duel(["d20=15", "d20=1"], a=ARCH, xb=85)
    play(enc, "s: strike heavy_crossbow -> d")
    play(enc, "d: strike short_sword -> s", ["d20=14"])  # S0 = 14 + 4 = 18
    ev = play(enc, "s: dodge", ["d20=16"])  # D = 16 + 4 = 20: a miss
    s = enc.by_id["s"]
    assert any(isinstance(e, CommitmentChanged) and e.status == "abandoned (dodge)" for e in ev)
    assert s.commitment is None and s.slot_state == ["used", "consumed", "available",
                                                     "available"]
    assert (s.stamina, enc.second, enc.current_actor()) == (27, 4, "d")
