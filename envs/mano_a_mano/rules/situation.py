"""Mano a Mano situations: a fight in progress from a situation file (docs/situations.md).

The shared fields (system, options, encounter and/or combatants, order, round, actor) are read by
``envs.core.situation``; this module gives it Mano a Mano's schema (any side names; stat blocks of
``catalogue.py`` by id, ``block`` as an older name of ``stats``, or inline in the catalogue's
schema, with the situation's own ``items``) and reads the rest:

- ``map``: ``radius`` (a hexagon, default 7, spec §3.2) or ``size: [width, height]`` (a rhombus),
  ``walls`` and ``water`` ([[q, r], ...]) and ``heights`` ([{hex: [q, r], m: 2.5}]);
- ``circumstances``: the circumstance and darkness modifiers of the scenario (spec §5.1, §12.2
  item 7, RULING R40): ``darkness``, ``rear_attack_favorable`` and ``attacks`` ({side or
  combatant: favorable | very_favorable | unfavorable | hostile}, the circumstance of every attack
  it makes; a combatant's entry wins over its side's);
- each combatant's ``state``: hex, standing, stun, damage, held, stowed, counter_ready,
  defense_bonus, forced_skips, bow_drawn, aiming, covering and the gun state of ``guns.py``;
  carried mass above 2 x CC is refused (spec §2.7);
- ``mounted`` ({rider: mount}, FULL rules, spec §5.11) and ``grapples`` (pairs of adjacent
  combatants, spec §5.7, rulings.GRAPPLES_NEED_ADJACENCY).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from envs.core import Dice
from envs.core.data import DataError, Entry
from envs.core.hexgrid import Hex, HexMap, Terrain, distance
from envs.core.situation import Member, SituationSchema, read_situation
from envs.core.snapshot import plain

from .catalogue import (
    HELD_SLOTS,
    Item,
    StatBlock,
    catalogue,
    parse_item,
    parse_stat_block,
    remember_source,
)
from .guns import situation_gun_state
from .modifiers import LEVELS
from .options import DARKNESS, RuleOptions, parse_options
from .setup import start_turn
from .state import ARENA_RADIUS, Fighter, ManoEncounter, place
from .turns import check_end

__all__ = ["from_situation", "SYSTEM"]

SYSTEM = "mano_a_mano"


def from_situation(
    data: dict[str, Any], source: str = "situation", dice: Dice | None = None
) -> ManoEncounter:
    """Build the fight a situation file describes (docs/situations.md, "Mano a Mano").

    With any of ``actor``, ``order`` and ``round`` the fight stands at the start of the actor's
    turn (default: the first of the order, which defaults to roster order), its upkeep done.
    With none of them it starts fresh: the encounter's surprise roll, turn order and initial
    stances come from ``dice`` and the steps.
    """
    cat = catalogue()
    items = _own_items(data, source, cat.items)
    blocks = cat.stat_blocks
    if items is not cat.items:  # the file's items are known to every sheet (picked up, disarmed)
        blocks = {k: replace(b, items=items) for k, b in blocks.items()}

    own_items = data.get("items") if isinstance(data, dict) else None

    def inline(raw: Any, src: str, entry: str, cid: str) -> StatBlock:
        block = parse_stat_block(raw, src, entry, cid, items)
        remember_source(block, {"block": plain(raw), "items": plain(own_items or {})})
        return block

    def lineup(d: Any) -> list[tuple[str, str, Any]]:
        return [(cid, side, blocks[cid]) for side, members in d.sides.items() for cid in members]

    schema = SituationSchema(
        SYSTEM, parse_options, cat.encounters, lineup, blocks, inline, block_alias="block"
    )
    sit = read_situation(data, source, schema)
    e = sit.entry
    e.opt("items")  # read above
    hexmap = _map(e)
    opts = _circumstances(e, sit.options)
    fighters = _fighters(sit.members, sit.encounter, sit.definition, hexmap, e)
    for m in sit.members.values():
        if m.state is not None:
            _apply_state(m.state, fighters[m.id], fighters, hexmap)
    for m in sit.members.values():
        _check_load(fighters[m.id], m, e)
    default = dict(sit.definition.mounted) if sit.definition is not None and opts.full else {}
    mounted = _situation_mounts(e, fighters, default, opts.full)
    hexes = [f.hex for cid, f in fighters.items() if cid not in mounted]  # riders share a hex
    if len(set(hexes)) != len(hexes):
        e.fail("combatants", "two combatants stand in one hex (RULING R46)")
    enc = ManoEncounter(list(fighters.values()), list(fighters), hexmap, opts)
    enc.mounts = mounted
    enc.circumstances = _attack_circumstances(e, {*fighters, *(f.side for f in fighters.values())})
    _grapples(e, enc, fighters)
    if not sit.in_progress:
        e.done()  # a fresh start: surprise, turn order and stances are rolled and chosen from here
        if dice is None:
            raise DataError(
                f"{source}: situation: a fresh start (no actor) needs dice for "
                "surprise and turn order"
            )
        enc.begin(dice, sit.definition.surprise_mode if sit.definition is not None else "none")
        return enc
    e.done()
    enc.order = list(sit.order or fighters)
    enc._round = sit.round or 1
    actor = sit.actor or enc.order[0]
    f = fighters[actor]
    if f.incapacitated:
        raise DataError(
            f"{source}: situation: field 'actor': {actor} is incapacitated and cannot decide"
        )
    start_turn(enc, actor, upkeep=False)
    check_end(enc, [])
    return enc


def _own_items(data: Any, source: str, known: dict[str, Item]) -> dict[str, Item]:
    """The catalogue's items plus the situation's own ``items: {id: item}`` (catalogue schema)."""
    if not isinstance(data, dict) or not data.get("items"):
        return known
    e = Entry(data, source, "situation")
    own = e.sub("items")
    items = dict(known)
    for iid in list(own.data):
        if iid in known:
            own.fail(str(iid), "already an item of the catalogue; give yours another id")
        items[str(iid)] = parse_item(str(iid), own.req(iid), source)
    return items


def _hex_list(e: Entry, key: str, hexmap: HexMap | None = None) -> list[Hex]:
    out = []
    for raw in e.items(key, []):
        if not _is_hex(raw) or (hexmap is not None and tuple(raw) not in hexmap):
            e.fail(key, f"expected a list of [q, r] on the map, got {raw!r}")
        out.append((raw[0], raw[1]))
    return out


def _is_hex(raw: Any) -> bool:
    return (
        isinstance(raw, list)
        and len(raw) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in raw)
    )


def _map(e: Entry) -> HexMap:
    """``map``: a hexagon of ``radius`` (default 7) or a rhombus of ``size``, with terrain."""
    m = e.sub("map", {})
    if m.has("size"):
        if m.has("radius"):
            m.fail("size", "give radius (a hexagon) or size (a rhombus), not both")
        size = m.req("size", list)
        if len(size) != 2 or not all(
            isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in size
        ):
            m.fail("size", f"expected [width, height] in hexes, got {size!r}")
        hexmap = HexMap.rhombus(size[0], size[1])
    else:
        hexmap = HexMap.hexagon(m.integer("radius", ARENA_RADIUS, lo=1))
    walls = set(_hex_list(m, "walls", hexmap))
    water = set(_hex_list(m, "water", hexmap))
    heights: dict[Hex, float] = {}
    for i, raw in enumerate(m.items("heights", [])):
        h = Entry(raw, m.source, f"{m.entry}.heights[{i}]")
        at = h.req("hex", list)
        if not _is_hex(at) or tuple(at) not in hexmap:
            h.fail("hex", f"expected [q, r] on the map, got {at!r}")
        heights[(at[0], at[1])] = float(h.req("m", (int, float), "metres"))
        h.done()
    m.done()
    for at_hex in sorted(walls | water | set(heights)):
        hexmap.terrain[at_hex] = Terrain(at_hex in walls, heights.get(at_hex, 0.0), at_hex in water)
    return hexmap


def _attack_circumstances(e: Entry, known: set[str]) -> dict[str, str]:
    """``circumstances.attacks``: {side or combatant id: favorable | very_favorable | unfavorable
    | hostile}, the circumstance of every attack that side or fighter makes (spec §5.1, §12.2
    item 7); a fighter's own entry wins over its side's."""
    c = e.sub("circumstances", {})
    if "attacks" not in c.data:
        return {}
    a = c.sub("attacks")
    out: dict[str, str] = {}
    for who in list(a.data):
        if str(who) not in known:
            a.fail(str(who), f"not a side or a combatant; known: {', '.join(sorted(known))}")
        out[str(who)] = a.choice(who, LEVELS)
    a.done()
    return out


def _circumstances(e: Entry, opts: RuleOptions) -> RuleOptions:
    """``circumstances``: the scenario's darkness (spec §5.1) and whether attacks from the rear are
    favorable (+2, spec §3.2, RULING R9); only the largest circumstance of a direction applies and
    darkness is added separately (RULING R40). Helpless targets are always very favorable (R23).
    ``attacks`` is read by ``_attack_circumstances``."""
    c = e.sub("circumstances", {})
    darkness = c.choice("darkness", DARKNESS, opts.darkness)
    rear = c.opt("rear_attack_favorable", opts.rear_attack_favorable, bool)
    c.opt("attacks")
    c.done()
    if (darkness, rear) == (opts.darkness, opts.rear_attack_favorable):
        return opts
    return replace(opts, darkness=darkness, rear_attack_favorable=rear)


def _fighters(
    members: dict[str, Member], name: str | None, definition: Any, hexmap: HexMap, e: Entry
) -> dict[str, Fighter]:
    """One fighter per member: the encounter's placement (spec §13.8) or the member's state.hex."""
    spots: dict[str, Hex] = {}
    if definition is not None:
        try:
            spots = place(name or "", definition.sides, definition.placement, hexmap)
        except ValueError as err:
            e.fail("map", str(err))
    slots: dict[str, int] = {}
    fighters: dict[str, Fighter] = {}
    for m in members.values():
        if m.id not in spots and (m.state is None or not m.state.has("hex")):
            where = m.listed or e
            where.fail("state", f"{m.id!r} is not placed by an encounter: it needs state.hex")
        slots[m.side] = slots.get(m.side, -1) + 1
        b = m.block
        fighters[m.id] = Fighter(
            m.id,
            b,
            m.side,
            slots[m.side],
            spots.get(m.id, (0, 0)),
            held=dict(b.held),
            stowed=list(b.stowed),
            bow_drawn=b.bow_drawn,
        )
    if len(slots) < 2:
        e.fail("combatants", "the combatants must form at least two sides")
    return fighters


def _apply_state(st: Entry, f: Fighter, fighters: dict[str, Fighter], hexmap: HexMap) -> None:
    """A combatant's ``state`` overrides (docs/situations.md, "Mano a Mano")."""
    cid = f.id
    if st.has("hex"):
        hx = st.req("hex", list)
        if not _is_hex(hx) or not hexmap.passable(tuple(hx)):
            st.fail("hex", f"expected [q, r] on the map and not a wall, got {hx!r}")
        f.hex = (hx[0], hx[1])
    f.standing = st.opt("standing", f.standing, bool)
    f.stun = st.integer("stun", f.stun, lo=0)
    f.damage = st.integer("damage", f.damage, lo=0)
    items = f.block.items
    if st.has("held"):
        held = st.req("held", dict)
        for slot, item in held.items():
            if slot not in HELD_SLOTS:
                st.fail("held", f"unknown hand {slot!r}; expected {{right|left|both: item}}")
            if item not in items or items[item].kind == "armor":
                st.fail(
                    "held",
                    f"unknown item {item!r} in hand {slot!r}; known: "
                    f"{', '.join(i for i in items if items[i].kind != 'armor')}",
                )
        if "both" in held and len(held) > 1:
            st.fail("held", "an item held in both hands leaves no hand free for another")
        f.held = dict(held)
    if st.has("stowed"):
        stowed = st.req("stowed", list)
        for item in stowed:
            if not isinstance(item, str) or item not in items:
                st.fail("stowed", f"unknown item {item!r}; known: {', '.join(items)}")
        f.stowed = list(stowed)
    f.counter_ready = st.opt("counter_ready", False, bool)
    f.defense_bonus = st.integer("defense_bonus", 0, lo=0, hi=5)
    f.forced_skips = st.integer("forced_skips", 0, lo=0, hi=3)  # speed 1/2, 1/4 (spec §4.1)
    f.bow_drawn = st.opt("bow_drawn", False, bool)
    if f.bow_drawn and not any(items[i].kind == "bow" for i in f.held.values()):
        st.fail("bow_drawn", f"{cid} holds no bow")
    f.aiming = st.opt("aiming", None, str)
    if f.aiming is not None and f.aiming not in f.held.values():
        st.fail(
            "aiming",
            f"{f.aiming!r} is not held by {cid} (held: {', '.join(f.held.values()) or 'nothing'})",
        )
    f.covering = st.opt("covering", None, str)
    if f.covering is not None and f.covering not in fighters:
        st.fail("covering", f"{f.covering!r} is not a combatant")
    situation_gun_state(st, f)  # guns.py: shots, clip_out, reloading
    st.done()


def _check_load(f: Fighter, m: Member, e: Entry) -> None:
    """Carried mass may never exceed 2 x CC (spec §2.7); natural weapons and armour weigh 0."""
    b = f.block
    mass, cap = b.mass_with(f.held.values(), f.stowed), 2 * b.carrying_capacity_kg
    if mass <= cap:
        return
    message = (
        f"{f.id} would carry {mass:g} kg, more than 2 x CC = {cap} kg "
        f"(strength {b.strength}, spec §2.7)"
    )
    st = m.state
    if st is not None and (st.has("stowed") or st.has("held")):
        st.fail("stowed" if st.has("stowed") else "held", message)
    e.fail("combatants", message)


def _situation_mounts(
    e: Entry, fighters: dict[str, Fighter], default: dict[str, str], full: bool
) -> dict[str, str]:
    """``mounted: {rider: mount}`` (spec §5.11, FULL rules): each rider goes to its mount's hex."""
    mounted = e.opt("mounted", default, dict)
    for rider, mount in mounted.items():
        if not full:
            e.fail("mounted", "mounted combat is part of the FULL rules (spec §12.2 item 9)")
        if (
            rider not in fighters
            or mount not in fighters
            or fighters[rider].side != fighters[mount].side
        ):
            e.fail("mounted", f"{rider!r} and {mount!r} must be combatants of one side")
        if fighters[mount].block.mount is None or fighters[rider].block.mount is not None:
            e.fail("mounted", f"{rider!r} cannot ride {mount!r}: only a war animal is ridden")
        fighters[rider].hex = fighters[mount].hex
    if len(set(mounted.values())) != len(mounted) or set(mounted) & set(mounted.values()):
        e.fail("mounted", "each mount carries one rider, and a rider is not a mount")
    return dict(mounted)


def _grapples(e: Entry, enc: ManoEncounter, fighters: dict[str, Fighter]) -> None:
    """``grapples``: [{pair: [a, b], base: standing|ground, dominant: id or null}] (spec §5.7);
    the two stand in adjacent hexes (rulings.GRAPPLES_NEED_ADJACENCY)."""
    for i, raw in enumerate(e.items("grapples", [])):
        g = Entry(raw, e.source, f"grapples[{i}]")
        pair = g.req("pair", list)
        if len(pair) != 2 or any(p not in fighters for p in pair) or pair[0] == pair[1]:
            g.fail("pair", f"expected two combatant ids, got {pair!r}")
        a, b = fighters[pair[0]], fighters[pair[1]]
        if distance(a.hex, b.hex) != 1:
            g.fail(
                "pair",
                f"{a.id} at {list(a.hex)} and {b.id} at {list(b.hex)} are not adjacent "
                f"(hex distance {distance(a.hex, b.hex)}); grapplers stand side by side",
            )
        dominant = g.opt("dominant", None, str)
        if dominant is not None and dominant not in pair:
            g.fail("dominant", f"{dominant!r} is not in the pair")
        base = g.choice("base", ("standing", "ground"), "standing")
        enc.grapples[frozenset(pair)] = {"base": base, "dominant": dominant}
        g.done()
