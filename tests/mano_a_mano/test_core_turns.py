"""Mano a Mano CORE turns (spec §3.3-§4.8, §5.4, §5.8, §6.1, §8.3) with forced d20s."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core import Action, IllegalActionError, ScriptedDice, SeededDice
from envs.core.hexgrid import HexMap, distance
from envs.mano_a_mano.rules import encounters, stat_blocks
from envs.mano_a_mano.rules.setup import start_turn
from envs.mano_a_mano.rules.state import Fighter, ManoEncounter, new_encounter


def fight(*specs, order=None, dice=None):
    """``specs``: (id, block id, side, hex); order defaults to the listed order, no setup rolls."""
    blocks = stat_blocks()
    fighters = [
        Fighter(
            cid,
            blocks[b],
            side,
            k,
            tuple(h),
            held=dict(blocks[b].held),
            stowed=list(blocks[b].stowed),
        )
        for k, (cid, b, side, h) in enumerate(specs)
    ]
    enc = ManoEncounter(fighters, order or [f.id for f in fighters], HexMap.hexagon(7))
    enc.order = order or [f.id for f in fighters]
    start_turn(enc)
    return enc


def do(enc, dice, *labels):
    out = []
    for label in labels:
        out += enc.apply(enc.parse_action(label), dice)
    return out


def labels(enc):
    return {a.label for a in enc.legal_actions()}


def test_11_3_steven_versus_the_clone_replays_the_seed_combat_example():
    dice = ScriptedDice([13, 2, 14, 12, 14, 12, 17], sides=20)
    enc = new_encounter("duel_seed", "core", dice)
    assert enc.order == ["steven", "clone"] and enc.current_actor() == "steven"
    do(enc, dice, "steven: strike powerful machete -> clone", "steven: end")
    do(enc, dice, "clone: strike quick right_hand -> steven")
    s = enc.by_id["steven"]
    assert (s.damage, s.stun, s.health) == (1, 2, "healthy")
    assert "clone: strike quick right_hand -> steven" not in labels(enc)  # each hand once
    do(enc, dice, "clone: strike quick left_hand -> steven", "clone: end")  # 14 vs 14 misses (R36)
    assert (s.damage, s.stun) == (1, 2)
    do(enc, dice, "steven: counter")
    assert s.stun == 2  # the turn is left open: no recovery yet
    do(enc, dice, "clone: strike powerful right_hand -> steven")
    assert enc.current_actor() == "steven"  # the counter fires before the strike resolves
    do(enc, dice, "steven: strike powerful machete -> clone", "steven: end")
    c = enc.by_id["clone"]
    assert (c.damage, c.stun, c.health) == (10, 0, "injured") and s.stun == 1
    assert enc.current_actor() == "clone"
    assert not any(
        a.kind == "strike" and a.args[0] != "quick" for a in enc.legal_actions()
    )  # injured: no strenuous
    do(enc, dice, "clone: rest", "clone: end")
    do(
        enc,
        dice,
        "steven: strike quick right_foot -> clone",
        "steven: strike quick machete -> clone",
    )
    assert (c.damage, c.stun, c.health) == (15, 0, "incapacitated_by_damage")
    assert (s.damage, s.stun, s.health) == (1, 1, "healthy")  # no end-of-turn recovery (R54)
    assert enc.is_over() and enc.outcome().winner == "A"
    dice.check_exhausted()


def test_11_4_counter_timing_with_three_characters():
    dice = ScriptedDice([1, 1, 1], sides=20)
    enc = fight(
        ("a", "steven", "A", (0, 0)), ("b", "clone", "A", (2, -1)), ("c", "guard", "B", (1, 0))
    )
    do(enc, dice, "a: counter")
    do(enc, dice, "b: strike quick right_hand -> c", "b: end")  # misses
    do(enc, dice, "c: strike quick spear -> a")
    assert enc.current_actor() == "a"  # A's counter turn comes first
    do(enc, dice, "a: strike quick machete -> c", "a: end")
    assert enc.current_actor() == "c"  # then C decides again (keeps or changes its attack)
    do(enc, dice, "c: strike quick spear -> a", "c: end")
    assert enc.current_actor() == "a" and enc.round == 2  # A's regular turn was not used up
    dice.check_exhausted()


def test_combo_capacity_and_per_weapon_limits_rule_r11():
    dice = ScriptedDice([1] * 6, sides=20)
    enc = fight(("w", "wrestler", "A", (0, 0)), ("g", "guard", "B", (1, 0)))
    # speed 2: up to 2 quick actions with one weapon, 3 with two or more; each weapon at most twice
    do(enc, dice, "w: strike quick right_hand -> g", "w: strike quick right_hand -> g")
    assert "w: strike quick right_hand -> g" not in labels(enc)
    do(enc, dice, "w: strike quick left_foot -> g")
    assert not any(a.kind == "strike" for a in enc.legal_actions())  # capacity 3 used


def test_a_single_strenuous_action_ends_the_action_part_of_the_turn():
    dice = ScriptedDice([1], sides=20)
    enc = fight(("s", "steven", "A", (0, 0)), ("c", "clone", "B", (1, 0)))
    do(enc, dice, "s: strike strategic machete -> c")
    # spec §5.3 mask, §4.8: after a first action that was not quick, only move and end (not
    # even the free drop)
    assert {a.kind for a in enc.legal_actions()} == {"move", "end"}


def test_a_quick_first_action_cannot_be_followed_by_a_strenuous_one():
    dice = ScriptedDice([1], sides=20)
    enc = fight(("s", "steven", "A", (0, 0)), ("c", "clone", "B", (1, 0)))
    do(enc, dice, "s: strike quick right_foot -> c")
    assert {a.args[0] for a in enc.legal_actions() if a.kind == "strike"} == {"quick"}


def test_ground_rules_movement_cost_and_banned_attacks():
    dice = ScriptedDice([20], sides=20)
    enc = fight(("s", "steven", "A", (0, 0)), ("c", "clone", "B", (3, 0)))
    do(enc, dice, "s: drop")
    assert not enc.by_id["s"].standing
    moves = [a for a in enc.legal_actions() if a.kind == "move"]
    assert moves  # 5 points, 2 a hex on the ground
    do(enc, dice, "s: move 0")
    # drop used the one quick action of a speed-1 turn (no weapon): no strike or stand may follow
    assert not any(a.kind in ("strike", "stand") for a in enc.legal_actions())
    do(enc, dice, "s: move 0")
    assert enc.by_id["s"].hex == (2, 0)
    assert not any(
        a.kind == "move" for a in enc.legal_actions()
    )  # 1 point left < 2 a hex on the ground
    do(enc, dice, "s: end", "c: end")
    assert {a.args[0] for a in enc.legal_actions() if a.kind == "strike"} == {
        "quick"
    }  # no strenuous on the ground
    events = do(enc, dice, "s: strike quick machete -> c")
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    assert roll.modifier == 4 - 5  # -5 striking from the ground


def test_moving_is_blocked_by_occupied_hexes_and_the_map_edge():
    enc = fight(("s", "steven", "A", (7, 0)), ("c", "clone", "B", (6, 0)))
    dirs = {int(a.args[0]) for a in enc.legal_actions() if a.kind == "move"}
    assert 3 not in dirs and 0 not in dirs  # west occupied, east off the map


def test_charging_adds_power_after_a_straight_run_rule_r28():
    dice = ScriptedDice([19], sides=20)
    enc = fight(("s", "steven", "A", (-3, 0)), ("c", "clone", "B", (1, 0)))
    do(enc, dice, "s: move 0", "s: move 0", "s: move 0")  # 3 straight hexes = 6 m -> +1
    events = do(enc, dice, "s: strike powerful machete -> c")
    harmed = next(e for e in events if type(e).__name__ == "Harmed")
    assert harmed.power == 2 * 5 + 1


def test_cautious_and_rest_bonuses_last_until_the_next_turn_rule_r3():
    dice = ScriptedDice([1], sides=20)
    enc = fight(("s", "steven", "A", (0, 0)), ("c", "clone", "B", (1, 0)))
    do(enc, dice, "s: strike cautious machete -> c", "s: end")
    assert enc.by_id["s"].defense_bonus == 5
    do(enc, dice, "c: end")
    assert enc.by_id["s"].defense_bonus == 0  # gone at the start of its own turn


def test_incapacitated_recovery_and_speed_half_skips():
    dice = ScriptedDice([20, 1], sides=20)
    enc = fight(("e", "elephant", "A", (0, 0)), ("s", "steven", "B", (1, 0)))
    do(enc, dice, "e: strike quick tusks_and_trunk -> s")  # 25 blunt: 12 damage, 13 stun
    s = enc.by_id["s"]
    assert (s.damage, s.stun) == (12, 13) and s.health == "incapacitated" and not s.standing
    assert enc.is_over() and enc.outcome().winner == "A"


def test_speed_half_forces_a_skip_after_an_active_turn():
    dice = ScriptedDice([], sides=20)
    enc = fight(("e", "elephant", "A", (0, 0)), ("s", "steven", "B", (3, 0)))
    do(enc, dice, "e: move 0", "e: end")
    events = do(enc, dice, "s: end")
    assert enc.current_actor() == "s" and enc.round == 2  # the elephant's round-2 turn was skipped
    assert any(str(e) == "e skips this turn (speed)" for e in events)
    events = do(enc, dice, "s: end")
    assert enc.current_actor() == "e" and enc.round == 3  # and it acts again in round 3


def test_illegal_actions_are_refused():
    enc = fight(("s", "steven", "A", (0, 0)), ("c", "clone", "B", (2, 0)))
    with pytest.raises(IllegalActionError):
        enc.apply(
            Action("s", "strike", ("quick", "machete"), "c"), ScriptedDice([], sides=20)
        )  # not adjacent


@pytest.mark.parametrize("rules", ["core", "full"])
@pytest.mark.parametrize("name", list(encounters()))
def test_random_legal_play_terminates_with_sane_state(name, rules):
    for seed in range(8):
        dice = SeededDice(seed)
        enc = new_encounter(name, rules, dice)
        rng = np.random.default_rng(seed)
        for _ in range(20000):
            if enc.is_over():
                break
            legal = enc.legal_actions()
            assert legal and all(a.actor == enc.current_actor() for a in legal)
            enc.apply(legal[rng.integers(len(legal))], dice)
            hexes = [f.hex for f in enc.fighters if f.id not in enc.mounts]
            assert len(set(hexes)) == len(
                hexes
            )  # one per hex (R46), a rider in its mount's (§5.11)
            for rider, mount in enc.mounts.items():  # a standing rider on a standing, active mount
                r, m = enc.by_id[rider], enc.by_id[mount]
                assert r.hex == m.hex and r.standing and m.standing
                assert not r.incapacitated and not m.incapacitated
            assert all(f.stun >= 0 and f.damage >= 0 for f in enc.fighters)
            pending = (
                enc.stack and enc.stack[-1].choice
            )  # a pushed pair is apart until the actor chooses
            for pair, g in (
                [] if pending else enc.grapples.items()
            ):  # grapples link adjacent, capable members
                a, b = (enc.by_id[c] for c in pair)
                assert distance(a.hex, b.hex) == 1 and not a.incapacitated and not b.incapacitated
                assert g["dominant"] in (None, a.id, b.id)
        assert enc.is_over() and enc.outcome().round <= 50
        clone = enc.clone()
        assert clone.snapshot() == enc.snapshot()


@pytest.mark.parametrize("rules", ["core", "full"])
@pytest.mark.parametrize("name", list(encounters()))
def test_from_snapshot_continues_identically(name, rules):
    import json

    for seed in range(4):
        dice = SeededDice(seed)
        enc = new_encounter(name, rules, dice)
        rng = np.random.default_rng(seed)
        cut = int(rng.integers(1, 60))
        for _ in range(cut):
            if enc.is_over():
                break
            legal = enc.legal_actions()
            enc.apply(legal[rng.integers(len(legal))], dice)
        snap = json.loads(json.dumps(enc.snapshot()))
        restored = ManoEncounter.from_snapshot(snap)
        assert restored.snapshot() == enc.snapshot()
        logs = []
        for e in (enc, restored):
            d, r, log = SeededDice(seed + 100), np.random.default_rng(seed + 100), []
            for _ in range(3000):
                if e.is_over():
                    break
                legal = e.legal_actions()
                log.extend(str(ev) for ev in e.apply(legal[r.integers(len(legal))], d))
            logs.append(log)
        assert logs[0] == logs[1]
