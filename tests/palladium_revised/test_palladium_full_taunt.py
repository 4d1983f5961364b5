"""Palladium Revised FULL Taunt, Distract and the Morale windows with forced dice (spec §5.6,
§6.3, §6.4, R27, R29): the check against a Save vs Insanity with its stacks, the SAVE +2, the
forced re-targeting of a Strike, Distract and Taunt upkeep, POST_ROLL on an opposed check and
on a Strike's armour boundary."""

from __future__ import annotations

from envs.core.dice import ScriptedDice
from envs.palladium_revised.rules.catalogue import stat_blocks
from envs.palladium_revised.rules.events import ContestRolled, Redirected, StrikeResolved
from envs.palladium_revised.rules.options import FULL
from envs.palladium_revised.rules.profile import profile_of
from envs.palladium_revised.rules.setup import build

BLOCKS = stat_blocks()
SELL = profile_of(BLOCKS["sellsword"])
DUEL = profile_of(BLOCKS["duelist"])


def make(rows, faces):
    dice = ScriptedDice(faces)
    enc = build(rows, FULL, dice=dice)
    dice.check_exhausted()
    return enc


def play(enc, label, faces=()):
    dice = ScriptedDice(list(faces))
    ev = enc.apply(enc.parse_action(label), dice)
    dice.check_exhausted()
    return ev


def labels(enc):
    return [a.label for a in enc.legal_actions()]


def test_taunt_beats_the_save_and_stacks_one_plus_half_the_margin():
    # duelist first (15 + 3 = 18 vs 1 + 2 = 3)
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 120)], ["d20=1", "d20=15"])
    play(enc, "d: taunt -> s", ["d20=10"])  # check 10 + 1 = 11
    assert enc.decision == "save" and labels(enc) == ["s: spend_morale", "s: pass"]
    ev = play(enc, "s: pass", ["d20=3"])  # Save vs Insanity 3 + 0
    con = next(e for e in ev if isinstance(e, ContestRolled))
    assert (con.actor_total, con.target_total, con.success) == (11, 3, True)
    assert enc.by_id["s"].fx.taunt == ("d", (16,) * 5)  # 1 + floor(8 / 2), 15 s from Second 1


def test_the_save_phase_adds_two_for_one_morale_and_ties_go_to_the_defender():
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 120)], ["d20=1", "d20=15"])
    play(enc, "d: distract -> s", ["d20=6"])  # 7
    play(enc, "s: spend_morale", ["d20=5"])  # 5 + 2 = 7: a tie
    assert enc.decision == "post_roll" and enc.current_actor() == "d"  # +1 would win it
    ev = play(enc, "d: pass")  # the tie goes to the defender
    s = enc.by_id["s"]
    assert s.morale == 23 and s.fx.distract is None
    con = next(e for e in ev if isinstance(e, ContestRolled))
    assert (con.actor_total, con.target_total, con.success) == (7, 7, False)


def _taunted_trio():
    """Sellsword (A) at 80 taunted 5 stacks by duelist d (B) at 81; a second duelist g (B) at
    81. Initiative: d 18, s 17, g 4."""
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 81), ("g", "B", DUEL, 81)],
               ["d20=15", "d20=15", "d20=1"])
    play(enc, "d: taunt -> s", ["d20=10"])
    play(enc, "s: pass", ["d20=3"])
    assert enc.current_actor() == "s" and enc.by_id["s"].fx.taunt_stacks == 5
    return enc


def test_a_taunted_attacker_is_forced_onto_the_taunter_and_striking_it_costs_a_stack():
    enc = _taunted_trio()
    ev = play(enc, "s: strike dagger -> g", ["d100=5", "d20=15"])  # 5 <= 1 x 5 stacks
    red = next(e for e in ev if isinstance(e, Redirected))
    assert (red.old, red.new, red.why) == ("g", "d", "taunt")
    assert enc.decision == "defense" and enc.current_actor() == "d"
    play(enc, "d: pass", ["d6=3"])  # S0 18 hits d's body (AR 10)
    # Taunt upkeep: the struck taunter's Taunt on s loses the stack that expires first
    assert enc.by_id["s"].fx.taunt_stacks == 4


def test_a_redirect_roll_above_the_stacks_keeps_the_target():
    enc = _taunted_trio()
    ev = play(enc, "s: strike dagger -> g", ["d100=6", "d20=15"])
    assert not any(isinstance(e, Redirected) for e in ev)
    assert enc.current_actor() == "g"


def test_distract_forces_the_attack_away_and_each_attack_of_the_distracter_costs_a_stack():
    # d distracts s (5 stacks), then s attacks d: d100 <= 10 moves the Strike onto g
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 81), ("g", "B", DUEL, 81)],
               ["d20=15", "d20=15", "d20=1"])
    play(enc, "d: distract -> s", ["d20=10"])
    play(enc, "s: pass", ["d20=3"])
    s = enc.by_id["s"]
    assert s.fx.distract == ("d", 5, 16)
    ev = play(enc, "s: strike dagger -> d", ["d100=10", "d1=1", "d20=15"])  # choose(1)
    red = next(e for e in ev if isinstance(e, Redirected))
    assert (red.new, red.why) == ("g", "distract") and enc.current_actor() == "g"
    play(enc, "g: pass", ["d6=2"])
    assert s.fx.distract == ("d", 5, 16)
    assert (enc.second, enc.current_actor()) == (1, "g")
    play(enc, "g: wait")
    play(enc, "d: strike dagger -> s", ["d20=1"])  # d attacks: its Distract loses 1
    assert enc.decision == "defense" and s.fx.distract == ("d", 4, 16)


def test_post_roll_on_an_opposed_check_attacker_first_then_the_defender():
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 82)], ["d20=15", "d20=1"])
    play(enc, "s: knockdown -> d", ["d20=8", "d20=5"])  # 10 vs 10: a tie
    assert enc.decision == "post_roll" and enc.current_actor() == "s"
    play(enc, "s: spend_morale")  # 11 vs 10: now the defender is exactly 1 lower
    assert enc.decision == "post_roll" and enc.current_actor() == "d"
    ev = play(enc, "d: spend_morale")  # 11 vs 11: the tie goes to the defender
    con = next(e for e in ev if isinstance(e, ContestRolled))
    assert (con.actor_total, con.target_total, con.success) == (11, 11, False)
    assert not enc.by_id["d"].fx.prone
    assert (enc.by_id["s"].morale, enc.by_id["d"].morale) == (23, 27)


def test_post_roll_on_a_strike_moves_the_hit_from_the_armour_to_the_body():
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 84)], ["d20=15", "d20=1"])
    play(enc, "s: strike long_sword -> d", ["d20=7"])  # S0 = 10 = the duelist's AR
    play(enc, "d: pass")
    assert enc.decision == "post_roll" and labels(enc) == ["s: spend_morale", "s: pass"]
    ev = play(enc, "s: spend_morale", ["d6=2", "d6=3"])
    res = next(e for e in ev if isinstance(e, StrikeResolved))
    assert (res.s2, res.layer) == (11, "body")
    d = enc.by_id["d"]
    assert (d.armor_sdc, d.sdc) == (20, 35 - 8)


def test_no_post_roll_when_one_more_point_changes_nothing():
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 84)], ["d20=15", "d20=1"])
    play(enc, "s: strike long_sword -> d", ["d20=12"])  # S0 15: body either way
    ev = play(enc, "d: pass", ["d6=2", "d6=3"])
    assert any(isinstance(e, StrikeResolved) for e in ev) and enc.decision == "turn"
