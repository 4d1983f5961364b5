"""Mano a Mano mounted combat and falls (spec §5.11, §6.3, §5.7.4, RULING R57), with forced d20s.

Rulings under test are the named constants of ``envs.mano_a_mano.rules.rulings``: STAY_MOUNTED_*,
RIDER_USES_MOUNT_MOVEMENT, RIDER_FALL_HEIGHT_M, RIDER_LANDS_NEARBY, MOUNT_DOWN_UNSEATS,
MOUNTED_NO_GRAPPLING, MOUNT_ACTIONS_QUICK and LEDGE_FALL_M.
"""

from __future__ import annotations

import json

import pytest
from test_core_turns import do, labels

from envs.core import IllegalActionError, ScriptedDice, SeededDice
from envs.core.hexgrid import HexMap, Terrain
from envs.mano_a_mano.encoding import ENCODING, SINGLES
from envs.mano_a_mano.rules import from_situation, rulings, stat_blocks
from envs.mano_a_mano.rules.setup import start_turn
from envs.mano_a_mano.rules.state import Fighter, ManoEncounter, new_encounter


def mounted_fight(*specs, mounts=None, terrain=None, options=None):
    """``specs``: (id, block id, side, hex); ``mounts``: {rider: mount} (the rider is put in the
    mount's hex). The first listed combatant acts first; no setup rolls."""
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
    kwargs = {} if options is None else {"options": options}
    enc = ManoEncounter(fighters, [f.id for f in fighters], HexMap.hexagon(7, terrain), **kwargs)
    for rider, mount in (mounts or {}).items():
        enc.by_id[rider].hex = enc.by_id[mount].hex
        enc.mounts[rider] = mount
    start_turn(enc)
    return enc


def cavalry(*foes, mounted=True, terrain=None):
    """Cavalry Guard (riding 4) on the war horse at (0, 0), then ``foes`` (id, block, hex) on
    side B."""
    specs = [
        ("horse", "war_horse", "A", (0, 0)),
        ("rider", "cavalry_guard", "A", (0, 0) if mounted else (-1, 0)),
    ]
    specs += [(cid, b, "B", h) for cid, b, h in foes]
    return mounted_fight(*specs, mounts={"rider": "horse"} if mounted else None, terrain=terrain)


# ------------------------------------------------------------------------------ data


def test_war_horse_and_cavalry_guard_sheets():
    b = stat_blocks()["war_horse"]  # spec §2.9.5 horse row; the rest from the §2.3 formulas
    assert (b.mass_kg, b.agility, b.speed, b.toughness, b.strength, b.stamina, b.running) == (
        500,
        -2,
        1,
        12,
        8,
        24,
        8,
    )
    assert b.mount == "war" and b.best_absorption == 0 and b.total_cover == 0
    hooves = b.natural_stats(b.natural_weapons[0])
    assert (hooves.name, hooves.power, hooves.attack, hooves.defense, hooves.sharpness) == (
        "hooves",
        8,
        0,
        10,
        "blunt",
    )
    assert (b.melee_defense(), b.missile_defense) == (10, 8)
    assert (b.grapple_attack, b.grapple_defense, b.grapple_power) == (6, 16, 8)  # no hands: R16
    assert (b.grapple_roll_modifier, b.balance_roll_modifier) == (2, -4)  # inept (spec §2.8)
    rider = stat_blocks()["cavalry_guard"]
    assert rider.ability("riding") == 4 and rider.mount is None and rider.melee_defense() == 17


def test_the_cavalry_encounter_starts_mounted_under_full_rules_only():
    enc = new_encounter("cavalry", "full", SeededDice(0))
    horse, rider = enc.by_id["war_horse"], enc.by_id["cavalry_guard"]
    assert enc.mounts == {"cavalry_guard": "war_horse"} and rider.hex == horse.hex
    core = new_encounter("cavalry", "core", SeededDice(0))
    assert core.mounts == {} and core.by_id["cavalry_guard"].hex != core.by_id["war_horse"].hex
    for _ in range(40):  # CORE lacks mounted combat: nobody is offered to mount
        if core.is_over():
            break
        assert not any(a.kind in ("mount", "dismount") for a in core.legal_actions())
        core.apply(core.legal_actions()[0], SeededDice(1))


# ------------------------------------------------------------------------------ staying mounted


def test_the_mount_attacks_and_the_rider_stays_mounted():
    dice = ScriptedDice([15, 7], sides=20)  # hooves 15 + 0 > 12 hit; stay: 7 + riding 4 = 11 > 10
    enc = cavalry(("clone", "clone", (1, 0)))
    events = do(enc, dice, "horse: strike quick hooves -> clone")
    clone = enc.by_id["clone"]
    assert (clone.damage, clone.stun) == (4, 4)  # power 8 blunt, no armor
    roll = [e for e in events if type(e).__name__ == "Rolled"][-1]
    assert (roll.roller, roll.purpose, roll.modifier, roll.difficulty, roll.success) == (
        "rider",
        "stay mounted",
        4,
        10,
        True,
    )
    assert enc.mounts == {"rider": "horse"} and enc.by_id["rider"].hex == (0, 0)
    dice.check_exhausted()


def test_a_failed_stay_mounted_roll_is_a_fall_from_the_mounts_back():
    dice = ScriptedDice([2, 6], sides=20)  # the hooves miss; stay: 6 + 4 = 10, not above 10 (R36)
    enc = cavalry(("clone", "clone", (1, 0)))
    do(enc, dice, "horse: strike quick hooves -> clone")  # a miss is still an attack
    rider = enc.by_id["rider"]
    assert enc.mounts == {} and not rider.standing
    assert rider.hex == (
        0,
        1,
    )  # RIDER_LANDS_NEARBY: direction 0 is taken by the clone, direction 1 is free
    # spec §5.7.4 with no attacker: own natural power 4, + RIDER_FALL_HEIGHT_M 1 (R57) = 5 blunt,
    # - 2 absorption
    assert rulings.RIDER_FALL_HEIGHT_M == 1 and (rider.damage, rider.stun) == (1, 2)
    dice.check_exhausted()


def test_an_attack_on_the_mount_makes_the_rider_roll_an_attack_on_the_rider_does_not():
    dice = ScriptedDice(
        [3, 15], sides=20
    )  # the clone misses the horse; the rider stays on (15 + 4)
    enc = cavalry(("clone", "clone", (1, 0)))
    enc.order = ["clone", "horse", "rider"]
    enc.stack[-1].actor = "clone"
    enc.turn_idx = 0
    do(enc, dice, "clone: strike quick right_hand -> horse")
    dice.check_exhausted()
    dice = ScriptedDice([3], sides=20)
    do(enc, dice, "clone: strike quick left_hand -> rider")  # no stay-mounted roll
    dice.check_exhausted()
    assert enc.mounts == {"rider": "horse"}


def test_a_mount_that_goes_down_throws_its_rider_without_a_roll():
    dice = ScriptedDice([18], sides=20)
    enc = cavalry(("clone", "clone", (1, 0)))
    enc.by_id["horse"].damage = 20  # one hit from incapacitation (stamina 24)
    enc.order = ["clone", "horse", "rider"]
    enc.stack[-1].actor, enc.turn_idx = "clone", 0
    do(enc, dice, "clone: strike powerful right_hand -> horse")  # power 6 blunt: 3 damage, 3 stun
    assert enc.by_id["horse"].incapacitated and enc.mounts == {}
    rider = enc.by_id["rider"]
    assert not rider.standing and rider.hex == (0, 1) and (rider.damage, rider.stun) == (1, 2)
    dice.check_exhausted()


def test_a_rider_falls_further_from_a_mount_on_high_ground():
    terrain = {(0, 0): Terrain(height_m=2.0)}
    dice = ScriptedDice([2, 1], sides=20)
    enc = cavalry(("clone", "clone", (1, 0)), terrain=terrain)
    do(enc, dice, "horse: strike quick hooves -> clone")
    rider = enc.by_id[
        "rider"
    ]  # power 4 + 1 (the horse's back) + 2 (the drop to its landing hex) = 7
    assert (rider.damage, rider.stun) == (2, 3)


# ------------------------------------------------------------------------------ moving and charging


def test_the_rider_moves_the_pair_with_the_mounts_running_and_spends_its_next_turn():
    enc = cavalry(("clone", "clone", (6, 0)))
    enc.order = ["rider", "horse", "clone"]
    start_turn(enc, "rider", upkeep=False)
    assert enc.stack[-1].move_points == 8  # the horse's running, not the Guard's 5
    dice = ScriptedDice([], sides=20)
    do(enc, dice, *["rider: move 1"] * 2)
    assert enc.by_id["horse"].hex == enc.by_id["rider"].hex == (0, 2)
    events = do(enc, dice, "rider: end")
    assert any("its rider used its movement" in str(e) for e in events)  # the horse skips its turn
    assert enc.current_actor() == "clone" and enc.mount_spent == set()


def test_the_mounts_own_moves_carry_its_rider():
    enc = cavalry(("clone", "clone", (6, 0)))
    do(enc, ScriptedDice([], sides=20), "horse: move 3", "horse: move 3")
    assert enc.by_id["rider"].hex == enc.by_id["horse"].hex == (-2, 0)


def test_a_mounted_charge_adds_power_like_any_charge():
    dice = ScriptedDice([15], sides=20)  # spear 7 + 15 > 12
    enc = cavalry(("clone", "clone", (5, 0)))
    enc.order = ["rider", "horse", "clone"]
    start_turn(enc, "rider", upkeep=False)
    do(
        enc, dice, *["rider: move 0"] * 4, "rider: strike quick spear -> clone"
    )  # 4 straight hexes: 8 m
    assert enc.by_id["clone"].damage == 4 + 3  # spear 4 + (8 - 5) charge (spec §4.5, R28), sharp
    dice.check_exhausted()


# ------------------------------------------------------------------------------ mount and dismount


def test_mount_and_dismount_legality():
    enc = cavalry(("clone", "clone", (3, 0)), mounted=False)
    enc.order = ["rider", "horse", "clone"]
    enc.stack[-1].actor, enc.turn_idx = "rider", 0
    assert "rider: mount -> horse" in labels(enc) and "rider: dismount" not in labels(enc)
    dice = ScriptedDice([], sides=20)
    do(enc, dice, "rider: mount -> horse")
    rider = enc.by_id["rider"]
    assert enc.mounts == {"rider": "horse"} and rider.hex == (0, 0) and rider.standing
    now = labels(
        enc
    )  # the quick action used the speed-1 turn: movement (the horse's) and end are left
    assert "rider: dismount" not in now and "rider: drop" not in now and "rider: move 0" in now
    enc = cavalry(("clone", "clone", (1, 0)))
    enc.order = ["rider", "horse", "clone"]
    enc.stack[-1].actor, enc.turn_idx = "rider", 0
    assert "rider: dismount" in labels(enc) and "rider: drop" not in labels(enc)
    do(enc, dice, "rider: dismount")
    rider = enc.by_id["rider"]
    assert (
        enc.mounts == {} and rider.hex == (0, 1) and rider.standing
    )  # direction 0 holds the clone
    assert enc.stack[-1].move_points == 5  # its own running again
    with pytest.raises(IllegalActionError):
        enc.apply(enc.parse_action("rider: mount -> horse"), dice)


def test_no_mounting_an_enemy_animal_a_distant_one_or_one_already_ridden():
    enc = mounted_fight(
        ("clone", "clone", "B", (1, 0)),
        ("horse", "war_horse", "A", (0, 0)),
        ("steven", "steven", "B", (2, 0)),
    )
    assert not any(a.kind == "mount" for a in enc.legal_actions())  # the horse is an enemy
    enc = mounted_fight(
        ("clone", "clone", "A", (3, 0)),
        ("horse", "war_horse", "A", (0, 0)),
        ("steven", "steven", "B", (-4, 0)),
    )
    assert not any(a.kind == "mount" for a in enc.legal_actions())  # not adjacent
    enc = mounted_fight(
        ("clone", "clone", "A", (1, 0)),
        ("horse", "war_horse", "A", (0, 0)),
        ("rider", "cavalry_guard", "A", (0, 0)),
        ("steven", "steven", "B", (-4, 0)),
        mounts={"rider": "horse"},
    )
    assert not any(a.kind == "mount" for a in enc.legal_actions())  # ridden already


def test_a_mounted_rider_neither_grapples_nor_is_grappled_but_its_mount_is():
    enc = cavalry(("wrestler", "wrestler", (1, 0)))
    enc.order = ["wrestler", "horse", "rider"]
    enc.stack[-1].actor, enc.turn_idx = "wrestler", 0
    grapples = {a.target for a in enc.legal_actions() if a.kind == "grapple"}
    assert grapples == {"horse"}  # MOUNTED_NO_GRAPPLING
    enc = cavalry(("wrestler", "wrestler", (1, 0)))
    enc.order = ["rider", "horse", "wrestler"]
    enc.stack[-1].actor, enc.turn_idx = "rider", 0
    assert not any(a.kind == "grapple" for a in enc.legal_actions())


def test_pushing_the_mount_moves_the_pair_and_a_push_into_a_wall_unseats_the_rider():
    dice = ScriptedDice(
        [19, 15, 12], sides=20
    )  # push 19 + 10 > 16; balance 15 - 4 > 8; stay 12 + 4
    enc = cavalry(("wrestler", "wrestler", (1, 0)))
    enc.order = ["wrestler", "horse", "rider"]
    enc.stack[-1].actor, enc.turn_idx = "wrestler", 0
    do(enc, dice, "wrestler: grapple push 3 -> horse")
    assert enc.by_id["horse"].hex == enc.by_id["rider"].hex == (-1, 0) and enc.mounts == {
        "rider": "horse"
    }
    dice.check_exhausted()
    dice = ScriptedDice([19], sides=20)
    enc = cavalry(("wrestler", "wrestler", (1, 0)), terrain={(-1, 0): Terrain(wall=True)})
    enc.order = ["wrestler", "horse", "rider"]
    enc.stack[-1].actor, enc.turn_idx = "wrestler", 0
    do(enc, dice, "wrestler: grapple push 3 -> horse")  # into the wall: the horse falls in place
    horse, rider = enc.by_id["horse"], enc.by_id["rider"]
    assert horse.hex == (0, 0) and not horse.standing and enc.mounts == {}
    assert not rider.standing and rider.hex == (0, 1)  # direction 0 holds the wrestler
    dice.check_exhausted()


def test_an_incapacitated_rider_falls_off():
    dice = ScriptedDice([18], sides=20)
    enc = cavalry(("clone", "clone", (1, 0)))
    enc.by_id["rider"].damage = 14
    enc.order = ["clone", "horse", "rider"]
    enc.stack[-1].actor, enc.turn_idx = "clone", 0
    do(enc, dice, "clone: strike powerful right_hand -> rider")  # 6 - 2: 2 damage, 2 stun -> 18
    rider = enc.by_id["rider"]
    assert enc.is_over() or enc.mounts == {}  # the fall may end the fight at once (R54)
    assert rider.incapacitated and not rider.standing and enc.mounts == {}


# ------------------------------------------------------------------------------ falls from heights


def test_a_push_over_a_ledge_is_a_fall_whatever_the_balance_roll():
    terrain = {(0, 0): Terrain(height_m=2.0), (1, 0): Terrain(height_m=2.0)}
    dice = ScriptedDice([19], sides=20)  # no balance roll: LEDGE_FALL_M
    enc = mounted_fight(
        ("wrestler", "wrestler", "A", (0, 0)), ("clone", "clone", "B", (1, 0)), terrain=terrain
    )
    do(enc, dice, "wrestler: grapple push 0 -> clone")
    clone = enc.by_id["clone"]
    assert clone.hex == (2, 0) and not clone.standing
    assert (clone.damage, clone.stun) == (3, 4)  # G 5 + 2 m = 7 blunt, no armor (R57)
    dice.check_exhausted()


def test_a_small_drop_only_adds_to_a_failed_balance():
    terrain = {(0, 0): Terrain(height_m=1.0), (1, 0): Terrain(height_m=1.0)}
    dice = ScriptedDice([19, 15], sides=20)  # balance 15 > 8: no fall for a 1 m drop
    enc = mounted_fight(
        ("wrestler", "wrestler", "A", (0, 0)), ("clone", "clone", "B", (1, 0)), terrain=terrain
    )
    do(enc, dice, "wrestler: grapple push 0 -> clone")
    assert enc.by_id["clone"].standing and enc.by_id["clone"].damage == 0
    dice = ScriptedDice([19, 3], sides=20)
    enc = mounted_fight(
        ("wrestler", "wrestler", "A", (0, 0)), ("clone", "clone", "B", (1, 0)), terrain=terrain
    )
    do(enc, dice, "wrestler: grapple push 0 -> clone")
    assert (enc.by_id["clone"].damage, enc.by_id["clone"].stun) == (3, 3)  # G 5 + 1 m = 6 blunt


# ------------------------------------------------------------------------------ state and encoding


def test_snapshot_clone_and_from_snapshot_keep_the_mounted_relation():
    enc = cavalry(("clone", "clone", (6, 0)))
    enc.order = ["rider", "horse", "clone"]
    start_turn(enc, "rider", upkeep=False)
    do(enc, ScriptedDice([], sides=20), "rider: move 0")
    snap = json.loads(json.dumps(enc.snapshot()))
    assert snap["mounts"] == {"rider": "horse"} and snap["mount_spent"] == ["horse"]
    restored = ManoEncounter.from_snapshot(snap)
    assert restored.mounts == {"rider": "horse"} and restored.mount_spent == {"horse"}
    assert restored.snapshot() == enc.snapshot()
    copy = enc.clone()
    do(copy, ScriptedDice([], sides=20), "rider: dismount")
    assert enc.mounts == {"rider": "horse"} and copy.mounts == {}


def test_observation_flags_and_action_indices_for_mounting():
    enc = cavalry(("clone", "clone", (3, 0)), mounted=False)
    enc.order = ["rider", "horse", "clone"]
    enc.stack[-1].actor, enc.turn_idx = "rider", 0
    mount = enc.parse_action("rider: mount -> horse")
    i = ENCODING.encode_action(enc, "rider", mount)
    assert ENCODING.decode_action(enc, "rider", i) == mount
    do(enc, ScriptedDice([], sides=20), "rider: mount -> horse")
    obs = ENCODING.obs_spec.named(ENCODING.observe(enc, "rider"))
    assert list(obs["slot0"][42:44]) == [1.0, 0.0]  # I am mounted
    assert list(obs["slot1"][42:44]) == [0.0, 1.0]  # my ally, the horse, is ridden
    enc2 = cavalry(("clone", "clone", (3, 0)))
    enc2.order = ["rider", "horse", "clone"]
    enc2.stack[-1].actor, enc2.turn_idx = "rider", 0
    dismount = enc2.parse_action("rider: dismount")
    assert ENCODING.encode_action(enc2, "rider", dismount) == ENCODING.layout.offset(
        "single"
    ) + SINGLES.index("dismount")


def test_a_situation_names_who_rides_what():
    base = {
        "system": "mano_a_mano",
        "encounter": "cavalry",
        "options": "full",
        "actor": "cavalry_guard",
        "combatants": [
            {"id": "war_horse", "state": {"hex": [0, 0]}},
            {"id": "guard", "state": {"hex": [3, 0]}},
            {"id": "clone", "state": {"hex": [3, 1]}},
        ],
    }
    enc = from_situation(base)
    assert enc.mounts == {"cavalry_guard": "war_horse"} and enc.by_id["cavalry_guard"].hex == (0, 0)
    enc = from_situation(
        {
            **base,
            "mounted": {},
            "combatants": base["combatants"] + [{"id": "cavalry_guard", "state": {"hex": [-1, 0]}}],
        }
    )
    assert enc.mounts == {} and "cavalry_guard: mount -> war_horse" in labels(enc)
