"""The constructed worked examples of spec §11.2 that CORE covers (C2-C7, C12), with the spec's
dice in consumption order."""

from __future__ import annotations

import pytest

from envs.core.dice import ScriptedDice
from envs.palladium_revised.rules.catalogue import stat_blocks
from envs.palladium_revised.rules.events import Moved, Retargeted, StrikeRolled
from envs.palladium_revised.rules.options import CORE
from envs.palladium_revised.rules.profile import profile_of
from envs.palladium_revised.rules.setup import build

B = {k: profile_of(v) for k, v in stat_blocks().items()}


def fight(rows, init, over=None):
    dice = ScriptedDice(init)
    enc = build([(cid, side, B[block], x) for cid, side, block, x in rows], CORE, dice=dice,
                overrides=over)
    dice.check_exhausted()
    return enc


def play(enc, label, faces=()):
    dice = ScriptedDice(list(faces))
    ev = enc.apply(enc.parse_action(label), dice)
    dice.check_exhausted()
    return ev


def guard_vs_sellsword():
    return fight([("g", "A", "spear_guard", 80), ("s", "B", "sellsword", 90)],
                 ["d20=15", "d20=1"])


@pytest.mark.parametrize("reaction,faces,want", [
    ("s: parry", ["d20=13", "d8=6"], (39, 50, 0, 31)),  # (a) P 16 > 14: 7 x 25% = 1 to armour
    ("s: parry", ["d20=11", "d8=6"], (33, 50, 0, 31)),  # (b) P 14: not mitigated, S2 0 <= 12
    ("s: pass", ["d8=6"], (40, 43, 1, 32)),  # (c) 14 > AR 12: the body
])
def test_c2_strike_against_parry(reaction, faces, want):
    enc = guard_vs_sellsword()
    play(enc, "g: strike spear -> s", ["d20=12"])  # S0 = 12 + 2 = 14 (band R, no penalty)
    play(enc, reaction, faces)
    s = enc.by_id["s"]
    assert (s.armor_sdc, s.sdc, s.wounds, s.stamina) == want


def test_c3_critical_with_blood_gush():
    enc = fight([("s", "A", "sellsword", 80), ("d", "B", "duelist", 84)], ["d20=1", "d20=15"],
                over={"s": {"wounds": 2, "stamina": 0}})
    play(enc, "d: strike short_sword -> s", ["d20=19", "d100=30", "d8=5"])  # no defence: auto
    s = enc.by_id["s"]
    assert (s.sdc, s.wounds) == (37, 3)  # 50 - 10, +1 Wound, Blood Gush 3


@pytest.mark.parametrize("faces,end", [(["d20=7", "d20=10"], 73), (["d20=12", "d20=10"], 74)])
def test_c4_entering_a_spears_zone(faces, end):
    enc = fight([("g", "A", "spear_guard", 80), ("d", "B", "duelist", 65)], ["d20=1", "d20=15"])
    play(enc, "d: move engage -> g", faces)
    assert enc.by_id["d"].x == end


def test_c5_withdrawing_from_a_swordsman():
    enc = fight([("s", "A", "sellsword", 80), ("d", "B", "duelist", 82)], ["d20=1", "d20=15"])
    play(enc, "d: move away -> s")
    assert enc.decision == "opportunity"
    play(enc, "s: strike long_sword -> d", ["d20=12", "d6=4", "d6=4"])  # at 2 ft, one band in
    d = enc.by_id["d"]
    assert (d.sdc, d.wounds) == (27, 1)
    ev = play(enc, "s: strike long_sword -> d", ["d20=6", "d6=2", "d6=3"])  # at 6 ft: armour
    assert [e.total for e in ev if isinstance(e, StrikeRolled)] == [9]
    assert (d.armor_sdc, d.x) == (12, 130)
    assert next(e for e in ev if isinstance(e, Moved)).why == "arrived"


def test_c6_closing_wounds_timeline():
    enc = fight([("s", "A", "sellsword", 80), ("d", "B", "duelist", 120)], ["d20=15", "d20=1"],
                over={"s": {"wounds": 5, "sdc": 25}})
    play(enc, "s: wait")
    play(enc, "d: wait")
    play(enc, "d: wait")  # Second 3's tick: 5 -> S.D.C. 20
    s = enc.by_id["s"]
    assert (enc.second, s.sdc) == (5, 20)
    play(enc, "s: closing_wounds 2")  # on to Second 8: 6 (-2, tick 3), 7 (-2), 8 (-1)
    assert s.stamina == 30
    assert (enc.second, s.sdc, s.wounds, s.closing) == (8, 17, 0, (2, 5, 8))
    play(enc, "d: wait")  # the buff ends with Second 8; Second 9's tick deals 0
    assert (enc.second, s.sdc, s.closing) == (10, 17, None)


def test_c7_shooting_into_a_grapple():
    enc = fight([("s", "A", "sellsword", 101), ("a", "A", "archer", 40),
                 ("g", "B", "goblin_skirmisher", 100)], ["d20=1", "d20=15", "d20=5"])
    ev = play(enc, "a: strike long_bow -> g", ["d20=17", "d100=40", "d2=2", "d20=9"])
    assert [e.total for e in ev if isinstance(e, StrikeRolled)] == [0, 9]
    assert [(e.old, e.new) for e in ev if isinstance(e, Retargeted)] == [("g", "s")]
    play(enc, "s: pass", ["d6=3", "d6=4"])
    assert enc.by_id["s"].armor_sdc == 33


@pytest.mark.parametrize("faces,dist", [(["d20=9", "d20=8"], 11), (["d20=12", "d20=8"], 6)])
def test_c12_approaching_a_big_monster(faces, dist):
    enc = fight([("s", "A", "sellsword", 50), ("o", "B", "ogre_brute", 80)], ["d20=15", "d20=1"])
    play(enc, "s: move engage -> o", faces)
    assert 80 - enc.by_id["s"].x == dist
