"""Sizebound situations: a fight in progress from a situation file (docs/situations.md).

The shared fields (system, options, encounter and/or combatants, order, round, actor) are read by
``envs.core.situation``; this module gives it Sizebound's schema (catalogue ids or inline stat
blocks through the catalogue's ``stat_block_from_mapping``, an ``at: [x, y]`` anchor per
combatant) and reads the rest: the ``state`` overrides (hp, mana, guard, dice, reactions,
conditions) and the top-level ``map`` (``w``, ``h``, ``walls`` and ``difficult`` as inclusive
rectangles ``[x1, y1, x2, y2]``; FULL: ``heights``, and ``water``, ``shallow_water`` and ``magma``
rectangles, ``full_terrain``; ``fire`` and ``cover`` rectangles, ``full_areas``), ``skills``
(FULL: the situation's own skills, ``full_areas``), ``side_order`` and ``hazard_sides`` (FULL,
``full_sides``).
"""

from __future__ import annotations

from typing import Any

from envs.core.data import Entry
from envs.core.dice import Dice
from envs.core.situation import Member, SituationSchema, read_situation
from envs.core.squaregrid import SquareGrid

from .catalogue import catalogue, encounters, stat_block_from_mapping, stat_blocks
from .fighter import FatigueRung
from .full_areas import situation_catalogue
from .full_geometry import ground
from .full_motion import read_state
from .full_sides import order_sides
from .full_terrain import KINDS
from .options import RuleOptions, parse_options
from .procedures import can_fall_prone
from .profile import profile_of
from .setup import build
from .space import can_stop
from .state import SYSTEM, SizeboundEncounter
from .turns import start_at

__all__ = ["from_situation"]

DEFAULT_MAP = 16  # spec §3.2: 16 x 16 by default
STATE_INTS = ("hp", "mana", "guard", "dice", "reactions")


def _at(c: Entry, m: Member, opts: RuleOptions) -> None:
    at = c.opt("at", None, list)
    if at is not None:
        if len(at) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in at):
            c.fail("at", f"expected [x, y], got {at!r}")
        m.extra["at"] = (at[0], at[1])


def _rects(e: Entry, key: str, w: int, h: int) -> frozenset[tuple[int, int]]:
    out = set()
    for r in e.items(key, []):
        if not (isinstance(r, list) and len(r) == 4 and all(isinstance(v, int) for v in r)):
            e.fail(key, f"expected rectangles [x1, y1, x2, y2], got {r!r}")
        x1, y1, x2, y2 = r
        if not (0 <= x1 <= x2 < w and 0 <= y1 <= y2 < h):
            e.fail(key, f"rectangle {r} is off the {w} x {h} map")
        out |= {(x, y) for x in range(x1, x2 + 1) for y in range(y1, y2 + 1)}
    return frozenset(out)


def _heights(m: Entry, w: int, h: int) -> dict[tuple[int, int], int]:
    """``map.heights``: ``[x1, y1, x2, y2, height]`` ground heights (spec §3.2 FULL)."""
    out: dict[tuple[int, int], int] = {}
    for r in m.items("heights", []):
        if not (isinstance(r, list) and len(r) == 5 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in r)) or r[4] < 0:
            m.fail("heights", f"expected [x1, y1, x2, y2, height >= 0], got {r!r}")
        x1, y1, x2, y2, z = r
        if not (0 <= x1 <= x2 < w and 0 <= y1 <= y2 < h):
            m.fail("heights", f"rectangle {r[:4]} is off the {w} x {h} map")
        out.update({(x, y): z for x in range(x1, x2 + 1) for y in range(y1, y2 + 1)})
    return out


def _unnerved(enc: SizeboundEncounter, f: Any, st: Entry) -> None:
    """``state.unnerved``: ``[{value: n, source: id}, ...]`` Unnerved instances (spec §7.2; they
    add up, clamped to [-10, +5]); below -2 the creature is also Afraid of the source whose
    instance pushed it there (FULL, the ``fear`` option)."""
    from .rulings import AFRAID_BELOW
    items = st.items("unnerved", [])
    if items and not enc.options.fear:
        st.fail("unnerved", "needs the rule option 'fear' (spec §7.2)")
    for i, it in enumerate(items):
        if not isinstance(it, dict) or set(it) - {"value", "source"} or not isinstance(
                it.get("value"), int) or isinstance(it.get("value"), bool):
            st.fail("unnerved", f"item {i}: expected {{value: n, source: id}}, got {it!r}")
        src = str(it.get("source", ""))
        if src and src not in enc.by_id:
            st.fail("unnerved", f"item {i}: unknown source {src!r}")
        f.conds.add("unnerved", now=enc.clock, value=it["value"], source=src or f"#{i}",
                    forever=True)
        if f.unnerved < AFRAID_BELOW and src and "afraid" not in f.conds:
            f.conds.add("afraid", now=enc.clock, source=src, forever=True)


def from_situation(data: dict[str, Any], source: str = "situation", dice: Dice | None = None
                   ) -> SizeboundEncounter:
    """Build the fight a situation describes. With ``actor``, the fight stands at that
    combatant's decision in its side's team turn (turn-start processing done, then the
    ``state`` overrides applied); without it, the fight starts at round 1 (or ``round``)."""
    encs = encounters()
    cat = situation_catalogue(Entry(data, source, "situation"), catalogue()) \
        if isinstance(data, dict) else catalogue()  # FULL: a situation's own skills
    schema = SituationSchema(
        SYSTEM, parse_options, encs, lambda d: d.lineup(), stat_blocks(),
        lambda d, src, entry, cid: stat_block_from_mapping(d, src, entry, cid, cat),
        member_fields=_at)
    sit = read_situation(data, source, schema)
    e, opts = sit.entry, sit.options
    e.opt("skills", None)
    spec = encs[sit.encounter] if sit.encounter is not None else None
    anchors = {p.id: tuple(p.anchor) for p in spec.placements} if spec is not None else {}
    if e.has("map"):
        m = e.sub("map")
        w, h = m.integer("w", DEFAULT_MAP, lo=1), m.integer("h", DEFAULT_MAP, lo=1)  # §3.2
        shallow = _rects(m, "shallow_water", w, h)  # spec §5.2.18: difficult terrain
        grid = SquareGrid(w, h, _rects(m, "walls", w, h),
                          _rects(m, "difficult", w, h) | shallow)
        heights = _heights(m, w, h)
        terrain = {c: k for k in KINDS for c in _rects(m, k, w, h)}
        cover = _rects(m, "cover", w, h)  # FULL: roofed cells (Large Hail, WE-37)
        dark = _rects(m, "dark", w, h)  # FULL: Darkness (spec §3.2)
        for key in ("water", "magma", "shallow_water", "fire", "cover", "dark"):
            if m.has(key) and opts.version != "full":
                m.fail(key, "needs the FULL rules (spec §3.2: FULL adds water and hazards)")
        if set(terrain) & grid.walls:
            m.fail("water" if m.has("water") else "magma", "a wall cell cannot be water or magma")
        m.done()
    else:
        heights, terrain, cover, dark = {}, {}, frozenset(), frozenset()
        grid = spec.grid() if spec is not None else SquareGrid(DEFAULT_MAP, DEFAULT_MAP)
    sides = list(sit.sides())
    if len(sides) < 2:  # spec §3.1: an encounter has 2 or more sides
        e.fail("combatants", f"an encounter needs at least two sides; got {', '.join(sides)}")
    order = [str(s) for s in e.opt("side_order", None, list) or
             (list(spec.side_order) if spec is not None else sides)]
    if sorted(order) != sorted(sides):
        e.fail("side_order", f"must list every side once: {', '.join(sides)}")
    hazards = frozenset(str(s) for s in e.items("hazard_sides", []))
    if hazards:
        if opts.version != "full":
            e.fail("hazard_sides", "needs the FULL rules (spec §3.1: a hazard side is FULL)")
        if not hazards <= set(sides):
            e.fail("hazard_sides", f"unknown side; sides: {', '.join(sides)}")
        if not e.has("side_order"):
            order = order_sides(order, hazards)  # spec §3.4 item 2, R-20: hazards last
    rows = []
    for cid, mem in sit.members.items():
        at = mem.extra.get("at", anchors.get(cid))
        if at is None:
            (mem.listed or e).fail("at", f"{cid!r} needs a position 'at: [x, y]'")
        assert at is not None
        rows.append((cid, mem.side, profile_of(mem.block), (int(at[0]), int(at[1]))))
    if spec is None and not e.has("side_order"):
        # spec §3.4 item 2, R-20: after the instigator, the player sides, then the Host's (its
        # creatures draw on a Host pool), then hazard sides, each in the order listed
        host = {side for _, side, p, _ in rows if p.host_pool}
        rest = sorted(order[1:], key=lambda s: (s in hazards, s in host))
        order = order[:1] + rest
    enc = build(rows, grid, order, opts, sit.encounter or "situation", start=False)
    if heights and not opts.elevation:
        e.sub("map").fail("heights", "needs the FULL rule option 'elevation' (spec §3.2)")
    enc.heights = heights
    enc.terrain, enc.hazards, enc.cover, enc.dark = terrain, hazards, cover, dark
    for f in enc.fighters:
        f.ground = ground(enc, f.pos, f.n)
    for f in sorted(enc.fighters, key=lambda f: sit.members[f.id].listed is None):
        mem = sit.members[f.id]
        if not can_stop(grid, f, f.pos, enc.fighters):
            (mem.listed or e).fail("at", f"{f.id!r} cannot stand at {list(f.pos)} (off the map, "
                                         "a wall, or a cell it may not share, R-29)")
    if sit.round is not None:
        enc._round = sit.round
    if sit.actor is not None:
        enc.slot = order.index(enc.by_id[sit.actor].side)
    start_at(enc)
    for f in enc.fighters:
        st = sit.members[f.id].state
        if st is None:
            continue
        for key in STATE_INTS:
            if st.has(key):
                setattr(f, key, st.integer(key, lo=None if key == "hp" else 0))
        if st.has("dice"):  # spec §9.2: a shared pool (Host, per side) is one pool for the side
            from .full_sides import set_pool
            set_pool(enc, f, f.dice)
        if st.has("hp"):
            if f.hp > f.profile.max_hp or f.hp < f.profile.pnr:
                st.fail("hp", f"must be in {f.profile.pnr}..{f.profile.max_hp}")
        for name in st.items("conditions", []):
            if str(name) not in enc.table:
                st.fail("conditions", f"unknown condition {name!r}")
            f.conds.add(str(name), now=enc.clock, forever=True)
        if f.fatigue >= FatigueRung.DISABLED and can_fall_prone(f, enc=enc):
            f.conds.add("prone", now=enc.clock, forever=True)  # spec §7.2 Disabled: it is Prone
        _unnerved(enc, f, st)
        if st.has("z") or st.has("speeds"):
            if not opts.elevation:
                st.fail("z" if st.has("z") else "speeds",
                        "needs the FULL rule option 'elevation' (spec §5.2.18)")
            read_state(enc, f, st)
        st.done()
    e.done()
    if sit.actor is not None:
        if sit.actor not in enc.queue:
            e.fail("actor", f"{sit.actor!r} has no decision in its side's turn")
        enc.queue.remove(sit.actor)
        enc.queue.insert(0, sit.actor)
    enc._legal = None
    return enc
