"""Mano a Mano rules engine (spec rules/mano_a_mano.md), pure Python: no RL library.

The data catalogue with its derived statistics (``catalogue``, spec §2, §13), the resolution layer
(``resolution``: rolls, armor, power, harm, health, positions), the project's rulings
(``rulings``, spec §10) and the turn engine (``state``, with the ``guns`` and ``mounted`` mixins):
CORE (spec §12.1) and FULL (spec §12.2 items 1-8, and from item 9 falls from heights and into walls
and mounted combat). Situations (``from_situation``) start a fight in progress."""

from __future__ import annotations

from typing import Any

from envs.core import Dice
from envs.core.data import DataError, Entry

from .catalogue import (
    HELD_SLOTS,
    Catalogue,
    StatBlock,
    catalogue,
    encounters,
    load_catalogue,
    stat_blocks,
)
from .guns import situation_gun_state
from .options import parse_options
from .state import ARENA_RADIUS, Fighter, ManoEncounter, Turn, new_encounter, place

SYSTEM = "mano_a_mano"


def encounter_names() -> list[str]:
    """The catalogue's encounters (spec §13.8)."""
    return list(encounters())


def from_situation(data: dict[str, Any], source: str = "situation", dice: Dice | None = None) -> ManoEncounter:
    """Build the fight a situation file describes (DESIGN.md, "Situations and cases").

    Fields: ``system``, ``options`` (core / full / mapping), ``encounter`` (the lineup, spec §13.8),
    ``combatants`` (``id`` and ``state`` overrides: ``hex`` [q, r], ``standing``, ``stun``,
    ``damage``, ``held`` {right|left|both: item}, ``stowed``, ``counter_ready``, ``defense_bonus``,
    ``forced_skips``, ``bow_drawn``, ``aiming`` (the held weapon aimed), ``covering`` (an ally), guns: ``shots`` {gun: shots left}, ``clip_out`` [gun], ``reloading`` {muzzle-loader: actions done}),
    or, without ``encounter``, a lineup of its own: each combatant gives ``side``, optionally
    ``block`` (a stat block id, default: its ``id``), and a ``state`` with its ``hex``,
    ``grapples`` ([{pair: [a, b], base: standing|ground, dominant: id or null}]), ``mounted``
    ({rider: mount}, FULL rules; default: the encounter's; a rider stands in its mount's hex),
    ``round``,
    ``order`` (default: roster order) and ``actor`` (whose turn decision it is; default: the first
    of the order). The fight stands at the start of the actor's turn, its upkeep done. With none of
    ``actor``, ``order`` and ``round`` the fight starts fresh: the encounter's surprise roll, turn
    order and initial stances come from ``dice`` and the steps.
    """
    from envs.core.hexgrid import HexMap

    e = Entry(data, source, "situation")
    e.choice("system", [SYSTEM])
    e.opt("title", "", str)
    e.opt("notes", "", str)
    opts = parse_options(e.opt("options"), source, "situation.options")
    encs = encounters()
    blocks = stat_blocks()
    hexmap = HexMap.hexagon(ARENA_RADIUS)
    name = e.opt("encounter", None, str)
    if name is None:  # a lineup of the situation's own: side and stat block per combatant
        fighters, surprise_mode = _lineup(e, source, blocks), "none"
    else:
        if name not in encs:
            e.fail("encounter", f"unknown encounter {name!r}; known: {', '.join(encs)}")
        d = encs[name]
        surprise_mode = d.surprise_mode
        spots = place(name, d.sides, d.placement, hexmap)
        fighters = {cid: Fighter(cid, blocks[cid], side, slot, spots[cid],
                                 held=dict(blocks[cid].held), stowed=list(blocks[cid].stowed),
                                 bow_drawn=blocks[cid].bow_drawn)
                    for side, members in d.sides.items() for slot, cid in enumerate(members)}
    for i, raw in enumerate(e.items("combatants", [])):
        c = Entry(raw, source, f"combatants[{i}]")
        cid = c.req("id", str)
        if name is None:
            c.opt("side")
            c.opt("block")
        elif cid not in fighters:
            c.fail("id", f"{cid!r} is not in encounter {name!r} ({', '.join(fighters)})")
        f = fighters[cid]
        st = c.sub("state", {})
        if st.has("hex"):
            hx = st.req("hex", list)
            if len(hx) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in hx) or tuple(hx) not in hexmap:
                st.fail("hex", f"expected [q, r] on the map (a hexagon of radius {ARENA_RADIUS}), got {hx!r}")
            f.hex = tuple(hx)
        f.standing = st.opt("standing", f.standing, bool)
        f.stun = st.integer("stun", f.stun, lo=0)
        f.damage = st.integer("damage", f.damage, lo=0)
        if st.has("held"):
            held = st.req("held", dict)
            for slot, item in held.items():
                if slot not in HELD_SLOTS or item not in f.block.items:
                    st.fail("held", f"expected {{right|left|both: item}}, got {slot!r}: {item!r}")
            f.held = dict(held)
        if st.has("stowed"):
            f.stowed = list(st.req("stowed", list))
        f.counter_ready = st.opt("counter_ready", False, bool)
        f.defense_bonus = st.integer("defense_bonus", 0, lo=0, hi=5)
        f.forced_skips = st.integer("forced_skips", 0, lo=0, hi=3)  # speed 1/2, 1/4 (spec §4.1)
        f.bow_drawn = st.opt("bow_drawn", False, bool)
        if f.bow_drawn and not any(f.block.items[i].kind == "bow" for i in f.held.values()):
            st.fail("bow_drawn", f"{cid} holds no bow")
        f.aiming = st.opt("aiming", None, str)
        if f.aiming is not None and f.aiming not in f.held.values():
            st.fail("aiming", f"{f.aiming!r} is not held by {cid} (held: {', '.join(f.held.values()) or 'nothing'})")
        f.covering = st.opt("covering", None, str)
        if f.covering is not None and f.covering not in fighters:
            st.fail("covering", f"{f.covering!r} is not a combatant")
        situation_gun_state(st, f)  # guns.py: shots, clip_out, reloading
        st.done()
        c.done()
    default = dict(encs[name].mounted) if name is not None and opts.full else {}
    mounted = _situation_mounts(e, fighters, default, opts.full)
    hexes = [f.hex for cid, f in fighters.items() if cid not in mounted]  # riders share a hex
    if len(set(hexes)) != len(hexes):
        e.fail("combatants", "two combatants stand in one hex (RULING R46)")
    enc = ManoEncounter(list(fighters.values()), list(fighters), hexmap, opts)
    enc.mounts = mounted
    for i, raw in enumerate(e.items("grapples", [])):
        g = Entry(raw, source, f"grapples[{i}]")
        pair = g.req("pair", list)
        if len(pair) != 2 or any(p not in fighters for p in pair):
            g.fail("pair", f"expected two combatant ids, got {pair!r}")
        dominant = g.opt("dominant", None, str)
        if dominant is not None and dominant not in pair:
            g.fail("dominant", f"{dominant!r} is not in the pair")
        enc.grapples[frozenset(pair)] = {"base": g.choice("base", ("standing", "ground"), "standing"), "dominant": dominant}
        g.done()
    if not e.has("actor") and not e.has("order") and not e.has("round"):
        e.done()  # a fresh start: surprise, turn order and stances are rolled and chosen from here
        if dice is None:
            raise DataError(f"{source}: situation: a fresh start (no actor) needs dice for surprise and turn order")
        enc.begin(dice, surprise_mode)
        return enc
    order = e.opt("order", list(fighters), list)
    if sorted(order) != sorted(fighters):
        e.fail("order", f"must list every combatant once: {', '.join(fighters)}")
    enc.order = list(order)
    enc._round = e.integer("round", 1, lo=1, hi=opts.round_limit)
    actor = e.opt("actor", order[0], str)
    if actor not in fighters:
        e.fail("actor", f"unknown combatant {actor!r}")
    e.done()
    f = fighters[actor]
    if f.incapacitated:
        raise DataError(f"{source}: situation: field 'actor': {actor} is incapacitated and cannot decide")
    enc.turn_idx = enc.order.index(actor)
    enc.stack = [Turn(actor, move_points=enc._move_points(f))]
    enc._check_end([])
    return enc


def _lineup(e: Entry, source: str, blocks: dict[str, StatBlock]) -> dict[str, Fighter]:
    """Fighters of a situation without ``encounter``: ``combatants`` name each one's ``side``, its
    ``block`` (default: the id) and, in ``state``, its ``hex``; slots follow the listed order."""
    fighters: dict[str, Fighter] = {}
    slots: dict[str, int] = {}
    for i, raw in enumerate(e.items("combatants", [])):
        c = Entry(raw, source, f"combatants[{i}]")
        cid = c.req("id", str)
        if cid in fighters:
            c.fail("id", f"{cid!r} is listed twice")
        side = str(c.req("side", (str, int)))
        bid = c.opt("block", cid, str)
        if bid not in blocks:
            c.fail("block", f"unknown stat block {bid!r}; known: {', '.join(blocks)}")
        if not c.sub("state", {}).has("hex"):
            c.fail("state", "a combatant of a lineup without encounter needs state.hex")
        b = blocks[bid]
        slots[side] = slots.get(side, -1) + 1
        fighters[cid] = Fighter(cid, b, side, slots[side], (0, 0), held=dict(b.held),
                                stowed=list(b.stowed), bow_drawn=b.bow_drawn)
    if len(slots) < 2:
        e.fail("combatants", "without an encounter, the combatants must form at least two sides")
    return fighters



def _situation_mounts(e: Entry, fighters: dict[str, Fighter], default: dict[str, str],
                      full: bool) -> dict[str, str]:
    """``mounted: {rider: mount}`` (spec §5.11, FULL rules): each rider goes to its mount's hex."""
    mounted = e.opt("mounted", default, dict)
    for rider, mount in mounted.items():
        if not full:
            e.fail("mounted", "mounted combat is part of the FULL rules (spec §12.2 item 9)")
        if (rider not in fighters or mount not in fighters
                or fighters[rider].side != fighters[mount].side):
            e.fail("mounted", f"{rider!r} and {mount!r} must be combatants of one side")
        if fighters[mount].block.mount is None or fighters[rider].block.mount is not None:
            e.fail("mounted", f"{rider!r} cannot ride {mount!r}: only a war animal is ridden")
        fighters[rider].hex = fighters[mount].hex
    if len(set(mounted.values())) != len(mounted) or set(mounted) & set(mounted.values()):
        e.fail("mounted", "each mount carries one rider, and a rider is not a mount")
    return dict(mounted)


__all__ = ["Catalogue", "StatBlock", "ManoEncounter", "SYSTEM", "catalogue", "encounters", "encounter_names",
           "from_situation", "load_catalogue", "new_encounter", "parse_options", "stat_blocks"]
