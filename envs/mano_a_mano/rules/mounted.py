"""Mano a Mano mounted combat (spec §5.11, §6.3; FULL rules, spec §12.2 item 9).

A trained war animal (a stat block with ``mount: war``) is a combatant of its own, with its own
turns and agent, on its rider's side. While mounted, rider and mount share one hex, the only case
of two standing fighters in one hex (RULING R46 otherwise); ``mounts`` maps each rider to its mount.

* Mount / dismount: quick actions without a weapon (rulings.MOUNT_ACTIONS_QUICK); labels
  ``cavalry_guard: mount -> war_horse`` and ``cavalry_guard: dismount``.
* Movement: the mount's moves carry the rider; the rider's moves move the pair with the mount's
  movement points, count toward the rider's charge, and spend the mount's next turn
  (rulings.RIDER_USES_MOUNT_MOVEMENT).
* Staying mounted: after each attack the mount makes or receives, the rider rolls d20 + riding vs 10
  (rulings.STAY_MOUNTED_*); failure is a fall from the mount's back (rulings.RIDER_FALL_HEIGHT_M,
  RIDER_LANDS_NEARBY). A mount that goes down, or a rider that is incapacitated, unseats the rider
  (rulings.MOUNT_DOWN_UNSEATS).
* A mounted rider neither grapples nor is grappled (rulings.MOUNTED_NO_GRAPPLING).
* Animal handling is not modelled (rulings.NO_ANIMAL_HANDLING).

Plain functions of the encounter (``state.ManoEncounter``: ``mounts`` maps rider -> mount,
``mount_spent`` lists the mounts whose movement their rider used).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core import Action, Dice
from envs.core.events import Event
from envs.core.hexgrid import Hex, distance, neighbors, ring

from . import legal, rulings, strikes, turns
from . import resolution as R
from .events import Dismounted, Mounted, Note, Rolled, Unseated

if TYPE_CHECKING:
    from .fighter import Fighter, Turn
    from .state import ManoEncounter


def rider_of(enc: ManoEncounter, mount: str) -> str | None:
    """The rider of ``mount``, if it is ridden."""
    for rider, m in enc.mounts.items():
        if m == mount:
            return rider
    return None


def mounted_on(enc: ManoEncounter, rider: str) -> str | None:
    """The mount ``rider`` sits on, if any."""
    return enc.mounts.get(rider)


def any_mount(enc: ManoEncounter) -> bool:
    """Can anybody in this fight be ridden? (The roster never changes during a fight.)"""
    return enc.rideable


def carrier_ok(enc: ManoEncounter, f: Fighter, t: Turn) -> bool:
    """May ``f`` walk now, as far as mounts go? A rider moves the pair: its mount must not be
    grappling nor already spent by an earlier turn (rulings.RIDER_USES_MOUNT_MOVEMENT)."""
    mount = enc.mounts.get(f.id)
    if mount is None:
        return True
    return not enc.grappling(mount) and (mount not in enc.mount_spent or t.moved)


def landing_hex(enc: ManoEncounter, around: Hex, first_ring_only: bool = False) -> Hex | None:
    """The first free, passable hex next to ``around`` in direction order, then further out
    (rulings.RIDER_LANDS_NEARBY)."""
    occupied = enc.occupied()
    hexmap = enc.map
    last = 1 if first_ring_only else max((distance(around, h) for h in hexmap.hexes), default=1)
    for radius in range(1, last + 1):
        spots = neighbors(around) if radius == 1 else ring(around, radius)
        free = [h for h in spots if hexmap.passable(h) and h not in occupied]
        if free:
            return free[0]
    return None


def adjust_legal(enc: ManoEncounter, f: Fighter, t: Turn, acts: list[Action]) -> list[Action]:
    """Filter and extend the actor's legal actions for mounted combat (FULL rules only)."""
    if not enc.full or (not enc.mounts and not any_mount(enc)):
        return acts  # nobody rides and nothing can be ridden: nothing to filter or add
    riding = enc.mounts.get(f.id)
    ridden = rider_of(enc, f.id) is not None
    out = []
    for a in acts:
        if a.kind == "grapple" and (riding is not None or a.target in enc.mounts):
            continue  # rulings.MOUNTED_NO_GRAPPLING
        if a.kind == "drop" and (riding is not None or ridden):
            continue  # rulings.MOUNT_DOWN_UNSEATS: no dropping with a rider; a rider dismounts
        out.append(a)
    quick_ok = legal.may_act(enc, f, t, quick=True) and legal.capacity_ok(enc, f, t, None, None)
    if not quick_ok:
        return out
    if riding is not None:
        if landing_hex(enc, f.hex, first_ring_only=True) is not None:
            out.append(Action(f.id, "dismount"))
    elif f.standing and not ridden and f.block.mount is None and not enc.grappling(f.id):
        for g in enc.fighters:
            if (
                g.side == f.side
                and g is not f
                and g.block.mount is not None
                and distance(f.hex, g.hex) == 1
                and g.standing
                and not g.incapacitated
                and not enc.grappling(g.id)
                and rider_of(enc, g.id) is None
            ):
                out.append(Action(f.id, "mount", (), g.id))
    return out


def mount_action(
    enc: ManoEncounter, f: Fighter, t: Turn, action: Action, events: list[Event]
) -> None:
    """Mount or dismount (rulings.MOUNT_ACTIONS_QUICK)."""
    turns.count_action(enc, f, t, quick=True, weapon=None)
    if action.kind == "mount":
        assert action.target is not None
        mount = enc.by_id[action.target]
        f.hex = mount.hex
        enc.mounts[f.id] = mount.id
        events.append(Mounted(f.id, mount.id, mount.hex))
    else:
        mount = enc.by_id[enc.mounts.pop(f.id)]
        landing = landing_hex(enc, mount.hex, first_ring_only=True)
        assert landing is not None  # dismount is legal only with a free hex next to the mount
        f.hex = landing
        events.append(Dismounted(f.id, mount.id, f.hex))
    t.move_points = min(t.move_points, turns.move_points(enc, f))


def carry(enc: ManoEncounter, f: Fighter) -> None:
    """After ``f`` moved one hex: its rider or its mount moves with it; a rider's move spends
    the mount's next turn (rulings.RIDER_USES_MOUNT_MOVEMENT)."""
    if not enc.mounts:
        return
    mount = enc.mounts.get(f.id)
    if mount is not None:
        enc.by_id[mount].hex = f.hex
        enc.mount_spent.add(mount)
        return
    rider = rider_of(enc, f.id)
    if rider is not None:
        enc.by_id[rider].hex = f.hex


def mount_rests(enc: ManoEncounter, f: Fighter, events: list[Event]) -> bool:
    """At the start of ``f``'s turn: was its movement spent by its rider? Then it skips this
    turn."""
    if f.id not in enc.mount_spent:
        return False
    enc.mount_spent.discard(f.id)
    events.append(
        Note(
            f.id,
            "skips this turn: its rider used its movement (rulings.RIDER_USES_MOUNT_MOVEMENT)",
        )
    )
    return True


def after_action(
    enc: ManoEncounter, actor: Fighter, action: Action, dice: Dice, events: list[Event]
) -> None:
    """After a resolved decision: riders of downed mounts fall, pairs share a hex again, and
    each rider whose mount attacked or was attacked rolls to stay mounted (spec §5.11, §6.3)."""
    if not enc.mounts:
        return
    settle(enc, events)
    if action.kind not in ("strike", "grapple", "throw", "shoot"):
        return
    for m in (actor.id, action.target):
        if m is None:
            continue
        rider = rider_of(enc, m)
        if rider is not None and enc._outcome is None:
            stay_mounted(enc, enc.by_id[rider], dice, events)


def settle(enc: ManoEncounter, events: list[Event]) -> None:
    """Unseat riders whose mount is down or who are incapacitated (rulings.MOUNT_DOWN_UNSEATS);
    keep every other rider in its mount's hex (a pushed mount carries its rider)."""
    for rider_id, mount_id in list(enc.mounts.items()):
        if enc._outcome is not None:
            return
        rider, mount = enc.by_id[rider_id], enc.by_id[mount_id]
        if mount.incapacitated or not mount.standing:
            unseat(enc, rider, f"{mount.id} goes down", events)
        elif rider.incapacitated:
            unseat(enc, rider, "is incapacitated", events)
        else:
            rider.hex = mount.hex


def stay_mounted(enc: ManoEncounter, rider: Fighter, dice: Dice, events: list[Event]) -> bool:
    """d20 + best of rulings.STAY_MOUNTED_ABILITIES (inept -4) > 10, or the rider falls."""
    b = rider.block
    mod = max(b.ability(a) for a in rulings.STAY_MOUNTED_ABILITIES) + b.inept_penalty(
        *rulings.STAY_MOUNTED_ABILITIES
    )
    die = dice.roll(20)[0]
    ok = R.success(die, mod, rulings.STAY_MOUNTED_DIFFICULTY)
    events.append(Rolled(rider.id, "stay mounted", die, mod, rulings.STAY_MOUNTED_DIFFICULTY, ok))
    if not ok:
        unseat(enc, rider, "is thrown", events)
    return ok


def unseat(enc: ManoEncounter, rider: Fighter, why: str, events: list[Event]) -> None:
    """The rider falls from its mount (spec §5.7.4 with no attacker, RULING R57 with
    rulings.RIDER_FALL_HEIGHT_M) into a landing hex (rulings.RIDER_LANDS_NEARBY)."""
    mount = enc.by_id[enc.mounts.pop(rider.id)]
    hexmap = enc.map
    land = landing_hex(enc, mount.hex) or mount.hex
    drop_m = rulings.RIDER_FALL_HEIGHT_M + max(
        0.0, hexmap.at(mount.hex).height_m - hexmap.at(land).height_m
    )
    rider.hex = land
    events.append(Unseated(rider.id, mount.id, why, land))
    b = rider.block
    own = max((b.natural_stats(w).power for w in b.natural_weapons), default=0)
    strikes.fall(enc, rider, own + int(drop_m), events)
    for t in enc.stack:
        if t.actor == rider.id and not t.choice:  # movement left: its own now
            t.move_points = min(t.move_points, turns.move_points(enc, rider))


def snapshot_fields(enc: ManoEncounter) -> dict[str, Any]:
    return {
        "mounts": dict(sorted(enc.mounts.items())),
        "mount_spent": sorted(enc.mount_spent),
    }


def restore(enc: ManoEncounter, data: dict[str, Any]) -> None:
    enc.mounts = dict(data.get("mounts", {}))
    enc.mount_spent = set(data.get("mount_spent", []))
