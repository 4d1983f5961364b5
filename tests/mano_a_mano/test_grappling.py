"""Mano a Mano grappling (spec §5.7, §6.2) and the constructed examples of spec §11."""

from __future__ import annotations

from test_core_turns import do, fight, labels

from envs.core import ScriptedDice


def test_11_19_grappling_sequence():
    dice = ScriptedDice([4, 19, 2, 20], sides=20)
    enc = fight(("wrestler", "wrestler", "A", (0, 0)), ("clone", "clone", "B", (1, 0)))
    do(enc, dice, "wrestler: grapple hold -> clone")
    assert labels(enc) == {
        "wrestler: choose hold_dominant -> clone",
        "wrestler: choose release -> clone",
    }
    do(enc, dice, "wrestler: choose hold_dominant -> clone", "wrestler: end")
    assert enc.grapple("wrestler", "clone") == {"base": "standing", "dominant": "wrestler"}
    assert not any(a.kind == "move" for a in enc.legal_actions())  # grapplers cannot walk
    events = do(enc, dice, "clone: grapple hold -> wrestler")
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    assert (roll.modifier, roll.difficulty, roll.success) == (-2, 25, False)
    assert enc.current_actor() == "wrestler"  # the defender chooses after a failed grappling action
    do(enc, dice, "wrestler: choose keep -> clone", "clone: end")
    assert (
        enc.grapple("wrestler", "clone")["dominant"] == "wrestler"
    )  # it was already dominant (R18)
    events = do(enc, dice, "wrestler: grapple choke -> clone")
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    assert (roll.modifier, roll.difficulty) == (15, 8)
    clone = enc.by_id["clone"]
    assert (clone.stun, clone.damage, clone.health) == (10, 0, "injured")
    do(enc, dice, "wrestler: choose hold_dominant -> clone", "wrestler: end")
    assert "clone: rest" not in labels(enc)  # no rest while grappling (R19)
    assert not any(
        a.kind == "strike" and a.args[0] != "quick" for a in enc.legal_actions()
    )  # injured
    do(enc, dice, "clone: grapple hold -> wrestler")  # natural 20: success despite 18 < 25
    do(enc, dice, "clone: choose release -> wrestler")
    assert enc.grapple("wrestler", "clone") is None
    do(enc, dice, "clone: end")
    assert clone.stun == 9
    dice.check_exhausted()


def test_11_24_push_balance_fall_and_follow_to_the_ground():
    dice = ScriptedDice([9, 5], sides=20)
    enc = fight(("wrestler", "wrestler", "A", (0, 0)), ("guard", "guard", "B", (1, 0)))
    do(enc, dice, "wrestler: grapple push 0 -> guard")
    guard = enc.by_id["guard"]
    assert guard.hex == (2, 0) and not guard.standing
    assert (guard.damage, guard.stun) == (
        1,
        2,
    )  # fall power 5 blunt - 2 absorption: 1 damage, 2 stun
    assert labels(enc) == {
        "wrestler: choose follow_to_ground -> guard",
        "wrestler: choose let_go -> guard",
    }
    do(enc, dice, "wrestler: choose follow_to_ground -> guard")
    w = enc.by_id["wrestler"]
    assert enc.grapple("wrestler", "guard") == {"base": "ground", "dominant": "wrestler"}
    assert not w.standing and w.hex == (1, 0)  # the pair moves together (R43)
    dice.check_exhausted()


def test_11_25_slam_onto_the_target_with_breakfall():
    dice = ScriptedDice([10, 12], sides=20)
    enc = fight(("wrestler", "wrestler", "A", (0, 0)), ("clone", "clone", "B", (1, 0)))
    do(enc, dice, "wrestler: grapple slam_onto -> clone")
    clone = enc.by_id["clone"]
    assert (
        (clone.damage, clone.stun) == (2, 3)
        and not clone.standing
        and not enc.by_id["wrestler"].standing
    )
    do(enc, dice, "wrestler: choose hold_dominant -> clone")
    assert enc.grapple("wrestler", "clone") == {"base": "ground", "dominant": "wrestler"}


def test_a_failed_breakfall_takes_the_whole_slam():
    dice = ScriptedDice([10, 3], sides=20)
    enc = fight(("wrestler", "wrestler", "A", (0, 0)), ("clone", "clone", "B", (1, 0)))
    do(enc, dice, "wrestler: grapple slam_onto -> clone")
    assert (enc.by_id["clone"].damage, enc.by_id["clone"].stun) == (5, 5)


def test_starting_a_grapple_needs_the_same_base_state_rule_r19():
    enc = fight(("wrestler", "wrestler", "A", (0, 0)), ("clone", "clone", "B", (1, 0)))
    enc.by_id["clone"].standing = False
    assert not any(a.kind == "grapple" for a in enc.legal_actions())


def test_11_21_charge_then_powerful_strike():
    dice = ScriptedDice([15], sides=20)
    enc = fight(("steven", "steven", "A", (-4, 0)), ("guard", "guard", "B", (1, 0)))
    do(enc, dice, *["steven: move 0"] * 4)
    events = do(enc, dice, "steven: strike powerful machete -> guard")
    harmed = next(e for e in events if type(e).__name__ == "Harmed")
    assert (harmed.power, harmed.damage) == (13, 11) and enc.by_id["guard"].health == "injured"


def test_11_23_half_speed_giant_and_knock_out_recovery():
    dice = ScriptedDice([9], sides=20)
    enc = fight(
        ("elephant", "elephant", "A", (0, 0)),
        ("steven", "steven", "B", (1, 0)),
        ("wrestler", "wrestler", "B", (5, -2)),
        order=["elephant", "steven", "wrestler"],
    )
    do(enc, dice, "elephant: strike strategic tusks_and_trunk -> steven")
    s = enc.by_id["steven"]
    assert (s.damage, s.stun, s.health, s.standing) == (12, 13, "incapacitated", False)
    assert not enc.is_over()  # the Wrestler is still up
    do(enc, dice, "elephant: end")  # Steven's turn: recovery only, 13 -> 6
    assert s.stun == 6 and enc.current_actor() == "wrestler"
    do(enc, dice, "wrestler: end")  # round 2: the elephant skips, Steven 6 -> 3
    assert s.stun == 3 and enc.current_actor() == "wrestler" and enc.round == 2
    do(enc, dice, "wrestler: end")  # round 3: the elephant acts again
    assert enc.current_actor() == "elephant"
    do(enc, dice, "elephant: end")  # Steven 3 -> 1: T 13 < 14, injured; acts from round 4
    assert s.stun == 1 and s.health == "injured" and enc.current_actor() == "wrestler"


def test_11_21_avoiding_all_armor_raises_the_difficulty():
    dice = ScriptedDice([15], sides=20)
    enc = fight(("steven", "steven", "A", (0, 0)), ("guard", "guard", "B", (1, 0)))
    # the Guard's regions (5, 2) and (1, 2): one lower level (0), so only "avoid_next" is offered
    strikes = {
        a.label
        for a in enc.legal_actions()
        if a.kind == "strike" and a.args[:2] == ("powerful", "machete")
    }
    assert strikes == {
        "steven: strike powerful machete -> guard",
        "steven: strike powerful machete avoid_next -> guard",
    }
    events = do(enc, dice, "steven: strike powerful machete avoid_next -> guard")
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    assert (roll.modifier + roll.die, roll.difficulty, roll.success) == (19, 23, False)


def test_avoidance_lowers_absorption_on_a_hit():
    dice = ScriptedDice([20], sides=20)
    enc = fight(("steven", "steven", "A", (0, 0)), ("guard", "guard", "B", (1, 0)))
    events = do(enc, dice, "steven: strike quick machete avoid_next -> guard")
    harmed = next(e for e in events if type(e).__name__ == "Harmed")
    assert (harmed.absorption, harmed.damage) == (0, 5)
    # an elephant's complete hide can never be avoided
    enc = fight(("steven", "steven", "A", (0, 0)), ("elephant", "elephant", "B", (1, 0)))
    assert not any(len(a.args) > 2 for a in enc.legal_actions() if a.kind == "strike")


def test_pushed_into_a_wall_or_off_a_ledge():
    from envs.core.hexgrid import HexMap, Terrain

    dice = ScriptedDice([9], sides=20)
    enc = fight(("wrestler", "wrestler", "A", (0, 0)), ("guard", "guard", "B", (1, 0)))
    enc.map = HexMap.hexagon(7, {(2, 0): Terrain(wall=True)})
    assert "wrestler: grapple push 0 -> guard" in labels(enc)  # FULL: a wall may be pushed into
    do(enc, dice, "wrestler: grapple push 0 -> guard")
    guard = enc.by_id["guard"]
    assert (
        guard.hex == (1, 0) and not guard.standing and (guard.damage, guard.stun) == (1, 2)
    )  # a fall, G 5
    dice = ScriptedDice([9, 5], sides=20)
    enc = fight(("wrestler", "wrestler", "A", (0, 0)), ("guard", "guard", "B", (1, 0)))
    enc.map = HexMap.hexagon(7, {(0, 0): Terrain(height_m=3.0), (1, 0): Terrain(height_m=3.0)})
    do(enc, dice, "wrestler: grapple push 0 -> guard")  # onto ground 3 m lower; balance fails
    guard = enc.by_id["guard"]
    assert (guard.damage, guard.stun) == (3, 3)  # power 5 + 3 m = 8, absorption 2: 6 blunt
