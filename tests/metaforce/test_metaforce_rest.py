"""Metaforce Rest between encounters (spec §9.5, §8.3) with forced dice and exact outcomes; the
case files tests/cases/metaforce/rest_*.yaml cover a short and a long rest end to end."""

from __future__ import annotations

import pytest
from test_metaforce_kit import cat, fight

from envs.core.dice import ScriptedDice
from envs.metaforce.rules import FULL
from envs.metaforce.rules.rest import (
    long_rest,
    long_rest_points,
    rest_event,
    short_rest,
    short_rest_points,
)


def one(profile, **state):
    enc = fight((profile, "a", (0, 0)), (cat("bandit"), "b", (6, 6)), options=FULL)
    c = enc.by_id[profile.id]
    for k, v in state.items():
        setattr(c, k, v)
    return enc, c


def texts(ev):
    return [str(e) for e in ev]


def test_short_rest_points_by_length_rest_points_and_endurance():
    _, f = one(cat("fighter", level=3), rp=3)  # END 2: md6
    assert short_rest_points(f, 10, 1, ScriptedDice([])) == (3, "Level 3")
    assert short_rest_points(f, 29, 1, ScriptedDice([]))[0] == 3  # counts as 10
    assert short_rest_points(f, 45, 1, ScriptedDice(["d6=1"])) == (5, "Level 3 + END 2")  # md6
    assert short_rest_points(f, 60, 2, ScriptedDice(["d6=6", "d6=3"])) == (
        24, "(Level 3 + END 6 + END 3) x 2 RP")
    assert short_rest_points(f, 9, 1, ScriptedDice([]))[0] == 0
    assert short_rest_points(f, 60, 1, ScriptedDice(["d6=6", "d6=6"]), harsh=True)[0] == 7
    _, weak = one(cat("fighter", attributes={**cat("fighter").attributes, "end": 0}))
    assert short_rest_points(weak, 60, 1, ScriptedDice([])) == (3, "Level 1 + END 1 + END 1")


def test_long_rest_points_count_body_blocks_and_unused_rest_points():
    _, f = one(cat("fighter", level=2), rp=1)  # Body 7
    assert long_rest_points(f, 3.5) == (0, "under 4 hours")
    assert long_rest_points(f, 4)[0] == 7 + 2
    assert long_rest_points(f, 5.9)[0] == 7 + 2
    assert long_rest_points(f, 6)[0] == 14 + 2
    assert long_rest_points(f, 12)[0] == 21 + 2  # x3 at most
    assert long_rest_points(f, 8, harsh=True)[0] == 23 // 2


def test_a_short_rest_spends_rest_points_and_only_what_it_has():
    _, f = one(cat("fighter"), hp=50)
    ev = short_rest(f, 10, ScriptedDice([]))
    assert f.rp == 0 and f.hp == 51 and texts(ev)[-1] == "fighter recovers 1 HP (HP 51)"
    ev = short_rest(f, 10, ScriptedDice([]), rp=0)
    assert f.hp == 51 and "= 0 point(s)" in texts(ev)[0]
    with pytest.raises(ValueError, match="holds 0 RP, cannot spend 1"):
        short_rest(f, 10, ScriptedDice([]))


def test_points_nothing_needs_are_lost_and_a_long_rest_restores_rest_points():
    _, f = one(cat("fighter", level=2), hp=54, exert=1, rp=0)
    ev = long_rest(f, 4)  # Body 7: 1 on Exert, the other 6 lost (HP is full)
    assert (f.exert, f.hp, f.rp) == (0, 54, 2)
    assert texts(ev) == ["fighter takes a long rest (4 h): Body 7 x 1 = 7 point(s), 2 RP left",
                         "fighter sheds 1 Exert (Exert 0)"]


def test_an_incapacitated_combatant_rested_above_0_hp_is_active_again_and_the_dead_do_not_rest():
    _, f = one(cat("fighter"), hp=-3, state="incapacitated", rp=1)
    long_rest(f, 8)  # 21 + 1 points: HP -3 -> 19
    assert (f.hp, f.state) == (19, "active")
    _, b = one(cat("bandit", "thug"), hp=-1, state="dead")
    with pytest.raises(ValueError, match="the dead do not rest"):
        long_rest(b, 8)


def test_rest_event_texts_and_their_one_line_errors():
    enc, f = one(cat("fighter"), hp=30, statuses={"bleed": (4, 3, "bandit")})
    ev = rest_event(enc.by_id, "rest long fighter 4 bleed 4", ScriptedDice([]))
    assert "fighter: bleed ended (magnitude 0)" in texts(ev) and f.hp == 30 + 4  # 7 + 1 RP
    for text, message in (
            ("rest nap fighter 4", "expected 'rest short"),
            ("rest long nobody 4", "no combatant 'nobody'"),
            ("rest long fighter four", "the length must be a number"),
            ("rest long fighter 4 hp", "'hp' needs a whole number"),
            ("rest long fighter 4 rp 1", "'rp' is for a short rest"),
            ("rest short fighter 10.5", "minutes must be whole"),
            ("rest long fighter 4 burn 2", "has no 'burn' to recover")):
        with pytest.raises(ValueError, match=message):
            rest_event(enc.by_id, text, ScriptedDice([]))
