"""Mano a Mano legal actions (spec §4.3 categories, §4.4 combos and weapon limits, RULING R11, R12,
R19, R41; §5.3 the action table; §12.1, §12.3 the CORE subset): the list the encounter offers the
deciding combatant, built from the grappling, missile, gun and mounted parts.

Plain functions of the encounter (``state.ManoEncounter``)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from envs.core import Action
from envs.core.hexgrid import Hex, distance

from . import grappling, missiles, modifiers, mounted, turns
from .catalogue import block_memo
from .fighter import Can, Fighter, Held, Turn, act, move_actions

if TYPE_CHECKING:
    from .state import ManoEncounter

STRIKE_VERBS = ("quick", "strategic", "cautious", "powerful")
CORE_KINDS = frozenset(
    {"end", "counter", "move", "rest", "drop", "stand", "instant_stand", "strike"}
)
"""the decisions of the CORE rules (spec §12.1 items 5-6; §12.3: block A entries 0-11 and strikes
with armor option 0); grappling, missiles, items, armor avoidance, cover, delay and mounts are
FULL"""


def compute_legal(enc: ManoEncounter) -> list[Action]:
    if enc._outcome is not None or not enc.stack:
        return []
    t = enc.stack[-1]
    f = enc.by_id[t.actor]
    fid = f.id
    if t.choice:  # spec §6.2: only the outcome choice
        return [act(fid, "choose", (c,), t.partner) for c in t.choice]
    can = categories(enc, f, t)
    acts: list[Action] = []
    grapples = enc.grapples
    in_grapple = bool(grapples) and any(fid in pair for pair in grapples)
    if not t.counter and not t.moved and t.actions == 0 and not t.declared:
        acts.append(act(fid, "counter"))
        if enc.full and turns.may_delay(
            enc, f
        ):  # spec §4.6, RULING R10: act right after a later character
            for later in enc.order[enc.turn_idx + 1 :]:
                if not enc.by_id[later].incapacitated:
                    acts.append(act(fid, "delay", (), later))
    occupied = {g.hex for g in enc.fighters}
    steps = open_steps(enc, f, t, in_grapple, occupied)
    if steps:
        moves = move_actions(fid)
        acts += [moves[d] for d in steps]
    if not in_grapple:  # RULING R19: no drop / stand / instant stand / rest while grappling
        if can.quick_free:
            acts.append(act(fid, "drop" if f.standing else "stand"))
        if not f.standing and can.strenuous:
            acts.append(act(fid, "instant_stand"))
        if can.other:
            acts.append(act(fid, "rest"))
    fhex, side = f.hex, f.side
    if enc.full and can.other:  # spec §6.4, RULING R29
        for g in enc.fighters:
            if g.side == side and g is not f and distance(fhex, g.hex) == 1:  # a helpless ally too
                acts.append(act(fid, "cover", (), g.id))
    foes = [(g, distance(fhex, g.hex)) for g in enc.fighters if g.side != side]
    held = held_profile(f)
    nearest = min((d for _, d in foes if d >= 1), default=held.longest + 1)
    for weapon, stats, reach in held.strikes if nearest <= held.longest else ():
        targets = [g for g, d in foes if 1 <= d <= reach]
        if not targets:
            continue
        verbs = [
            verb
            for verb in STRIKE_VERBS
            if verb_ok(enc, f, t, can, in_grapple, weapon, stats, verb)
        ]
        for target in targets:
            for verb in verbs:
                for avoid in modifiers.armor_options(enc, target):
                    acts.append(act(fid, "strike", (verb, weapon, *avoid), target.id))
    if nearest == 1:
        acts += grappling.grapple_actions(enc, f, t, can, foes, occupied)
    if f.held or f.stowed or enc.floor:
        acts += missiles.missile_actions(enc, f, t, can, foes, held)
    acts = mounted.adjust_legal(enc, f, t, acts)  # spec §5.11: mount, dismount; no grappling riders
    if (
        f.bow_drawn
    ):  # RULING R32: a drawn bow allows only bow actions, movement, dropping items, end
        acts = [a for a in acts if a.kind in ("move", "aim", "shoot", "relax", "drop_item", "end")]
    if in_grapple:
        for partner in enc.partners(fid):  # spec §5.3 row 35: a dominant member releases for free
            if enc.dominant_over(fid, partner):
                acts.append(act(fid, "release", (), partner))
    if t.actions and not can.quick:  # spec §5.3 mask, §4.8: after a single action (not quick,
        acts = [a for a in acts if a.kind != "drop_item"]  # or injured), only move and end
    if "unintelligent" in f.block.qualities:  # spec §2.8: only what its abilities cover
        acts = [a for a in acts if covered(f, a)]
    acts.append(act(fid, "end"))
    if not enc.full:  # spec §12.1, §12.3: the CORE actions only, strikes without armor avoidance
        acts = [
            a for a in acts if a.kind in CORE_KINDS and (a.kind != "strike" or len(a.args) == 2)
        ]
    return acts


ATTACK_ABILITIES = {"grapple": "grappling", "throw": "throwing", "shoot": "marksmanship"}
"""the ability an attack of each kind needs, for an unintelligent character (spec §2.8); a strike
needs its weapon's (``natural_weapons`` for natural weapons)"""


def covered(f: Fighter, a: Action) -> bool:
    """Whether an unintelligent ``f`` may take ``a``: it attacks only with a fighting ability that
    covers the attack (spec §2.8: "without a fighting ability it cannot attack")."""
    if a.kind == "strike":
        item = f.block.items.get(a.args[1].split("@")[0])
        need = (item.ability or "one_handed") if item is not None else "natural_weapons"
    else:
        need = ATTACK_ABILITIES.get(a.kind, "")
        if not need:
            return True
    return bool(f.block.ability(need))


def categories(enc: ManoEncounter, f: Fighter, t: Turn) -> Can:
    """What the action categories allow ``f`` now (spec §4.3, §4.4): the first action of a turn
    may be anything (strenuous only healthy and unencumbered); further ones only quick, in a
    combo begun while healthy, still healthy (RULING R12: "other" actions stand alone)."""
    if t.actions == 0:
        quick, strenuous, other = True, f.healthy and not f.encumbered, True
    else:
        quick, strenuous, other = t.quick_only and t.acted_while_healthy and f.healthy, False, False
    return Can(quick, strenuous, other, quick and capacity_ok(enc, f, t, None, None))


def verb_ok(
    enc: ManoEncounter,
    f: Fighter,
    t: Turn,
    can: Can,
    in_grapple: bool,
    weapon: str,
    stats: Any,
    verb: str,
) -> bool:
    """May ``f`` strike with ``weapon`` this way now (spec §4.4, §5.4, RULING R19, R41)?"""
    if verb == "quick":
        return can.quick and capacity_ok(enc, f, t, weapon, stats)
    if not can.strenuous or stats.unwieldy or not f.standing:
        return False
    return verb == "powerful" or not in_grapple  # RULING R19, R41


def capacity_ok(enc: ManoEncounter, f: Fighter, t: Turn, weapon: str | None, stats: Any) -> bool:
    """Combo capacity and per-weapon limits (spec §4.4, RULING R11); ``weapon=None`` for quick
    actions that use no weapon (stand, drop)."""
    memo = block_memo(f.block)
    limits = memo.get("combo")
    if limits is None:
        speed = f.block.speed
        limits = memo["combo"] = (math.ceil(speed), max(1, math.floor(speed)))
    cap, per_speed = limits
    n = t.actions
    if n + 1 > cap:
        used = set(t.weapons)
        if weapon:
            used.add(weapon)
        if not (n + 1 == cap + 1 and len(used) >= 2):
            return False
    if weapon is None:
        return True
    per_weapon = 1 if stats is not None and stats.unwieldy else per_speed
    return t.weapons[weapon] < per_weapon


def may_act(enc: ManoEncounter, f: Fighter, t: Turn, quick: bool, other: bool = False) -> bool:
    """One flag of ``_can``: an "other", a quick or a strenuous action."""
    can = categories(enc, f, t)
    return can.other if other else (can.quick if quick else can.strenuous)


def open_steps(
    enc: ManoEncounter, f: Fighter, t: Turn, in_grapple: bool, occupied: set[Hex]
) -> list[int]:
    """The directions ``f`` may walk one hex now (spec §4.5): movement points left (2 a hex on
    the ground), not in_grapple, a mount that may carry it, a passable and free destination."""
    if in_grapple or t.move_points < (1 if f.standing else 2) or not mounted.carrier_ok(enc, f, t):
        return []
    return [d for d, dest in enc.map.open_steps(f.hex) if dest not in occupied]


def held_profile(f: Fighter) -> Held:
    """What ``f``'s held items allow (``Held``), kept per stat block and held items."""
    b = f.block
    key = ("held_profile", tuple(sorted(f.held.items())))
    memo = block_memo(b)
    found = memo.get(key)
    if found is None:
        strikes = tuple(
            (w, s, 1 + s.range_m // 2 if s.range_m else 1) for w, s in f.weapons().items()
        )
        throws = []
        for hand, item in sorted(f.held.items()):
            it = b.items[item]
            if it.missile or it.kind == "armor":
                continue
            stats = b.item_stats(item, hand)
            q = (
                stats.quick_throw_range_m
                if stats.quick_throw_range_m is not None
                else max(0, b.ability("throwing") + b.strength - it.heft)
            )
            throws.append((hand, item, stats, q, it.throwable and not stats.unwieldy))
        free = () if "both" in f.held else tuple(h for h in ("right", "left") if h not in f.held)
        found = memo[key] = Held(
            strikes,
            max((r for *_, r in strikes), default=0),
            tuple(throws),
            free,
            next(((h, i) for h, i in f.held.items() if b.items[i].kind == "bow"), None),
            any(b.items[i].missile for i in f.held.values()),
        )
    return found
