"""Mano a Mano missiles and items (spec §5.5 thrown weapons, RULING R8, R33, R56; §5.6 bows,
RULING R31, R32; §5.3 rows 11-18 and 34, §5.10 readying, picking up and dropping items, spec §2.7).
Guns are ``guns``.

Plain functions of the encounter (``state.ManoEncounter``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core import Action, Dice
from envs.core.events import Event
from envs.core.hexgrid import Hex, distance
from envs.core.hexgrid import neighbors as neighbors_of

from . import guns, legal, modifiers, preview, rulings, strikes, turns
from . import resolution as R
from .events import Note, Rolled
from .fighter import Can, Fighter, Held, Turn, act

if TYPE_CHECKING:
    from .state import ManoEncounter


def free_hands(enc: ManoEncounter, f: Fighter) -> list[str]:
    if "both" in f.held:
        return []
    return [h for h in ("right", "left") if h not in f.held]


def missile_targets(enc: ManoEncounter, f: Fighter, max_range_m: int) -> list[Fighter]:
    return [
        g
        for g in enc.fighters
        if g.side != f.side and rulings.range_m(distance(f.hex, g.hex)) <= max_range_m
    ]


def missile_actions(
    enc: ManoEncounter, f: Fighter, t: Turn, can: Can, foes: list[tuple[Fighter, int]], held: Held
) -> list[Action]:
    """Bow actions, throws and heaves, drops, readying and picking up, and the gun's actions
    (spec §5.3, §5.5, §5.6, §5.10); ``foes``: ``(enemy, distance)``."""
    out: list[Action] = []
    fid = f.id
    healthy_ok = can.strenuous
    bow = held.bow
    if bow is not None:
        hand, item = bow
        it = f.block.items[item]
        can_draw = it.heft < 2 * f.block.strength and len(held.free) >= 1
        stats = f.block.item_stats(item, hand)
        quick_ok = can.quick and legal.capacity_ok(
            enc, f, t, item, stats
        )  # unwieldy: one use (spec §4.4)
        strenuous_ok = (
            healthy_ok and not stats.unwieldy
        )  # RULING R56: only heave is strenuous-and-unwieldy
        if not f.bow_drawn:
            if quick_ok and can_draw:
                out.append(act(fid, "draw"))
            if strenuous_ok and can_draw:
                out += [
                    act(fid, "shoot", ("draw_and_fire",), g.id)
                    for g in missile_targets(enc, f, it.range_m)
                ]
        else:
            grappling = enc.grappling(fid)
            if quick_ok and not grappling and f.aiming != item:
                out.append(act(fid, "aim"))
            if quick_ok:
                out.append(act(fid, "relax"))
            out += shot_actions(
                enc, f, item, it.range_m, quick_ok, strenuous_ok and f.standing and not grappling
            )
    near_m = rulings.range_m(min((d for _, d in foes), default=0)) if held.throws else 0
    for hand, _item, stats, q, throwable in held.throws:
        quick_ok = can.quick and legal.capacity_ok(enc, f, t, f.weapon_id(hand), stats)
        for g, d in foes if near_m <= 2 * q else ():  # nobody in throwing range: only the drop
            d_m = rulings.range_m(d)
            for avoid in modifiers.armor_options(enc, g):
                if throwable:
                    if quick_ok and d_m <= q:
                        out.append(act(fid, "throw", ("quick", hand, *avoid), g.id))
                    if healthy_ok and f.standing and d_m <= 2 * q:
                        out.append(act(fid, "throw", ("powerful", hand, *avoid), g.id))
                if healthy_ok and d_m <= q:  # RULING R56: heave throws any liftable object
                    out.append(act(fid, "throw", ("heave", hand, *avoid), g.id))
        out.append(act(fid, "drop_item", (hand,)))  # spec §5.3 row 34: free
    free = held.free
    if free and can.quick_free:
        for item in sorted(set(f.stowed)):
            need = 2 if f.block.items[item].two_handed else 1
            if len(free) >= need:
                out.append(act(fid, "ready", (item,)))
        floor, fhex = enc.floor, f.hex
        if any(items and distance(h, fhex) <= 1 for h, items in floor.items()):
            for h in [fhex, *(g for g in neighbors_of(fhex))]:
                for item in floor_choices(enc, h) if floor.get(h) else ():
                    if (
                        len(free)
                        >= (2 if f.block.items[item].two_handed else 1)  # as for ready (§5.10)
                        and f.may_carry(item)
                    ):  # never above 2 x CC (spec §2.7)
                        out.append(act(fid, "pick_up", (item, f"{h[0]},{h[1]}")))
    if held.missile:
        out += guns.gun_actions(enc, f, t)  # guns.py: drops, aim, shots, load, unload (spec §5.6)
    return out


def floor_choices(enc: ManoEncounter, h: Hex) -> list[str]:
    """The items in hex ``h`` a fighter can pick up: the distinct items on top of the pile,
    most recent first (rulings.PICK_UP_CHOICES)."""
    out: list[str] = []
    for item in reversed(enc.floor.get(h, ())):
        if item not in out:
            out.append(item)
            if len(out) == rulings.PICK_UP_CHOICES:
                break
    return out


def shot_actions(
    enc: ManoEncounter, f: Fighter, item: str, range_m: int, quick_ok: bool, strenuous_ok: bool
) -> list[Action]:
    """The shots of a ready bow or gun at every enemy in range (spec §5.3 rows 12-14, §5.6):
    quick, then strategic (not while aiming, RULING R31) and cautious, per armor option."""
    out: list[Action] = []
    for g in missile_targets(enc, f, range_m):
        for avoid in modifiers.armor_options(enc, g):
            if quick_ok:
                out.append(Action(f.id, "shoot", ("quick", *avoid), g.id))
            if strenuous_ok:
                if f.aiming != item:
                    out.append(Action(f.id, "shoot", ("strategic", *avoid), g.id))
                out.append(Action(f.id, "shoot", ("cautious", *avoid), g.id))
    return out


def missile(
    enc: ManoEncounter,
    f: Fighter,
    t: Turn,
    action: Action,
    target: Fighter,
    dice: Dice,
    events: list[Event],
) -> None:
    """Thrown attacks and shots (spec §5.5, §5.6), rolled against ``preview.missile``."""
    p = preview.missile(enc, f, action, target)  # the odds the heuristic sees
    verb = action.args[0]
    if action.kind == "throw":
        item = f.held.pop(action.args[1])
        enc.floor.setdefault(target.hex, []).append(item)  # RULING R33: lands in its hex
    else:
        item = p.weapon
        if f.block.items[item].kind == "gun":
            guns.spend_shot(enc, f, item)  # spec §5.6: a shot uses one of s
        else:
            f.bow_drawn = False  # a shot un-draws the bow
    if f.aiming == item:  # spec §5.6: +5 to the next attack with the aimed weapon (p.part("aim")),
        f.aiming = None  # which ends the aim; an attack with another weapon keeps it (RULING R31)
    turns.count_action(enc, f, t, quick=p.quick, weapon=p.weapon)
    mod, diff = p.modifier, p.difficulty
    die = dice.roll(20)[0]
    hit = R.success(die, mod, diff)
    events.append(
        Rolled(f.id, f"{verb} {action.kind} ({p.weapon}) on {target.id}", die, mod, diff, hit)
    )
    if verb == "cautious":
        f.defense_bonus = 5
    power = p.power_at(die)
    if hit:
        strikes.harm(enc, target, power, p.sharpness, p.absorption, events)
    elif p.coverer is not None:
        coverer = enc.by_id[p.coverer]
        events.append(Note(coverer.id, f"takes the shot meant for {target.id}"))
        strikes.harm(enc, coverer, power, p.sharpness, coverer.block.best_absorption, events)

def item_action(
    enc: ManoEncounter, f: Fighter, t: Turn, action: Action, events: list[Event]
) -> None:
    kind = action.kind
    if kind == "drop_item":  # free: no combo slot, no weapon use
        item = f.held.pop(action.args[0])
        enc.floor.setdefault(f.hex, []).append(item)
        guns.to_floor(enc, f, item, f.hex)  # rulings.GUN_STATE_PER_ITEM
        if block_items(f, item).kind == "bow":
            f.bow_drawn = False
        if f.aiming == item:
            f.aiming = None  # RULING R31: the bow leaves the hands undrawn, as when relaxed
        events.append(Note(f.id, f"drops {item}"))
        return
    bow = f.bow()
    if kind in ("draw", "aim", "relax"):
        assert bow is not None  # legal only with a held bow
        turns.count_action(enc, f, t, quick=True, weapon=bow[1])
        if kind == "draw":
            f.bow_drawn = True
            events.append(Note(f.id, f"draws {bow[1]}"))
        elif kind == "aim":
            f.aiming = bow[1]
            events.append(Note(f.id, f"aims {bow[1]}"))
        else:
            f.bow_drawn = False
            f.aiming = None
            events.append(Note(f.id, f"relaxes {bow[1]}"))
        return
    turns.count_action(enc, f, t, quick=True, weapon=None)
    item = action.args[0]
    need = 2 if block_items(f, item).two_handed else 1
    hands = free_hands(enc, f)
    slot = "both" if need == 2 else hands[0]
    if kind == "ready":
        f.stowed.remove(item)
    else:
        q, r = (int(x) for x in action.args[1].split(","))
        enc.floor[(q, r)].remove(item)
        guns.from_floor(enc, f, item, (q, r))  # rulings.GUN_STATE_PER_ITEM
    f.held[slot] = item
    events.append(Note(f.id, f"{'readies' if kind == 'ready' else 'picks up'} {item}"))


def block_items(f: Fighter, item: str) -> Any:
    return f.block.items[item]
