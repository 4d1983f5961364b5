"""Metaforce presets and situations (spec §3, §13.3; docs/situations.md).

``preset_rows`` turns a catalogue preset (``catalogue.encounters()``) into the rows ``build``
takes. ``from_situation`` reads the shared fields through ``envs.core.situation`` (catalogue ids
or inline stat blocks through the catalogue's ``stat_block_from_mapping``), plus per combatant
``at: [x, y]`` and ``aware``, the top-level ``map: {w, h}``, and the ``state`` overrides ``hp``,
``mp``, ``mp_max``, ``exert``, ``reactions``, ``stun``, ``rp`` (Rest Points, spec §9.5),
``deus_ex_uses``, ``force_fate_uses``, ``statuses`` (``{name: magnitude}``, CORE's Bleed and
Burn; ``grappled`` needs ``grappler``) and FULL's ``tapped_mana`` (true: the caster holds tapped
mana, spec §5.8, until the end of its next turn). ``order`` is the initiative order; with
``actor`` the fight stands at that combatant's first frame in ``round``.
"""

from __future__ import annotations

from typing import Any

from envs.core.data import Entry
from envs.core.dice import Dice, SeededDice
from envs.core.situation import Member, SituationSchema, read_situation
from envs.core.squaregrid import SquareGrid, footprint

from . import rulings
from .damage import exert_check
from .options import RuleOptions, parse_options
from .profile import profile_of
from .setup import Row, build
from .state import SYSTEM, MetaforceEncounter

__all__ = ["preset_rows", "preset_mode", "from_situation"]

STATE_INTS = ("hp", "mp", "exert", "reactions", "stun", "rp")


def preset_rows(spec: Any, options: RuleOptions) -> tuple[list[Row], SquareGrid, str | None]:
    """``(rows, grid, initiative mode)`` of a catalogue preset."""
    rows: list[Row] = [(m.name, m.team, profile_of(m.block, m.name, options),
                        (m.anchor[0], m.anchor[1]), bool(m.block.aware)) for m in spec.members]
    return rows, SquareGrid(spec.width, spec.height), spec.initiative_mode


def _lineup(spec: Any) -> list[tuple[str, str, Any]]:
    return [(m.name, m.team, m.block) for m in spec.members]


def _fields(c: Entry, m: Member, opts: Any) -> None:
    at = c.opt("at", None, list)
    if at is not None:
        if len(at) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in at):
            c.fail("at", f"expected [x, y], got {at!r}")
        m.extra["at"] = (at[0], at[1])
    m.extra["aware"] = c.opt("aware", True, bool)


def _state(enc: MetaforceEncounter, cid: str, st: Entry) -> None:
    c = enc.by_id[cid]
    p = c.profile
    if st.has("mp_max"):  # what earlier Deus Ex uses left (R-43; a campaign's next fight)
        c.mp_max = c.mp = st.integer("mp_max", lo=0, hi=p.mp_max)
        c.mu = c.mu and c.mp_max > 0
    for key, attr in (("deus_ex_uses", "deus_ex_uses"), ("force_fate_uses", "ff_uses")):
        if st.has(key):
            setattr(c, attr, st.integer(key, lo=0))
    for key in STATE_INTS:
        if st.has(key):
            setattr(c, key, st.integer(key, lo=None if key == "hp" else 0))
    if c.hp > p.hp_max:
        st.fail("hp", f"must be at most {p.hp_max} (Max HP)")
    if c.mp > c.mp_max:
        st.fail("mp", f"must be at most {c.mp_max} (Max MP)")
    if c.rp > p.level:
        st.fail("rp", f"must be at most {p.level} (Rest Points = Level, spec §9.5)")
    if c.hp <= 0:
        st.fail("hp", "must be above 0 for a combatant in the fight")
    raw = st.sub("statuses", {})
    for name in list(raw.data):
        if name not in rulings.CORE_STATUSES or name in ("knockback", "stun"):
            raw.fail(str(name), "unknown lasting status; known: bleed, burn, grappled")
        m = raw.integer(str(name), lo=1)
        src = cid
        if name == "grappled":
            src = st.req("grappler", str)
            g = enc.by_id.get(src)
            if g is None or g.side == c.side:
                st.fail("grappler", f"{src!r} is not an enemy of {cid!r}")
            assert g is not None
            g.add_grip(cid)
        x = rulings.DOT_DEFAULT_X
        c.statuses[str(name)] = (m, x, src)
    raw.done()
    st.opt("grappler")
    if st.opt("tapped_mana", False, bool):
        if not c.profile.magic:
            st.fail("tapped_mana", f"{cid!r} casts no spells (spec §5.8)")
        c.mana_until = c.turns + 1  # spec §5.8: until the end of its next turn
    st.done()


def preset_mode(opts: RuleOptions, mode: str | None) -> RuleOptions:
    """``initiative_mode: preset`` read as the preset's own order under FULL, else Direct; a
    named mode holds (spec §3.3, §13.3: party_3v3 alternates)."""
    if opts.initiative_mode != "preset":
        return opts
    from dataclasses import replace
    return replace(opts, initiative_mode=mode if opts.full and mode else "direct")


def from_situation(data: dict[str, Any], source: str = "situation", dice: Dice | None = None
                   ) -> MetaforceEncounter:
    """Build the fight a situation describes (see the module docstring)."""
    from .catalogue import encounters, stat_block_from_mapping, stat_blocks
    encs = encounters()
    schema = SituationSchema(
        SYSTEM, parse_options, encs, _lineup, stat_blocks(),
        lambda d, src, entry, cid: stat_block_from_mapping(d, src, f"{entry}.{cid}"),
        member_fields=_fields)
    sit = read_situation(data, source, schema)
    e, opts = sit.entry, sit.options
    spec = encs[sit.encounter] if sit.encounter is not None else None
    opts = preset_mode(opts, spec.initiative_mode if spec is not None else None)
    anchors = {m.name: m.anchor for m in spec.members} if spec is not None else {}
    if e.has("map"):
        m = e.sub("map")
        grid = SquareGrid(m.integer("w", lo=1), m.integer("h", lo=1))
        m.done()
    elif spec is not None:
        grid = SquareGrid(spec.width, spec.height)
    else:
        grid = SquareGrid(opts.grid_w, opts.grid_h)
    rows: list[Row] = []
    for cid, mem in sit.members.items():
        at = mem.extra.get("at", anchors.get(cid))
        rows.append((cid, mem.side, profile_of(mem.block, cid, opts),
                     None if at is None else (int(at[0]), int(at[1])),
                     bool(mem.extra.get("aware", getattr(mem.block, "aware", True)))))
    taken: dict[tuple[int, int], str] = {}
    for cid, _, p, at, _ in rows:
        if at is None:
            continue
        where = sit.members[cid].listed or e
        for cell in footprint(at, p.space):
            if cell not in grid:
                where.fail("at", f"{cid!r} at {list(at)} does not fit on the "
                                 f"{grid.width} x {grid.height} map")
            if cell in taken:
                where.fail("at", f"{cid!r} shares a square with {taken[cell]!r} (§3.2)")
            taken[cell] = cid
    order = sit.order
    if sit.actor is not None and order is None:
        order = [r[0] for r in rows]
    dice = dice if dice is not None else SeededDice(0)
    try:
        enc = build(rows, grid, opts, sit.encounter or "situation", dice, order, sit.actor)
    except ValueError as err:  # the default deployment (§3.2) does not fit the map
        e.fail("map" if e.has("map") else "combatants", str(err))
    if sit.round is not None:
        enc._round = sit.round
    for cid, mem in sit.members.items():
        if mem.state is not None:
            _state(enc, cid, mem.state)
    for c in enc.combatants:  # spec §7.6: a combatant set above its Exert Limit falls Unconscious
        exert_check(enc, enc.start_events, c)
    if sit.actor is not None and not enc.by_id[sit.actor].active and not enc.is_over():
        enc.frame_open = False  # the actor's turn is lost: run the clock on
        enc.start_events += enc.start(dice)
    e.done()
    enc._legal = None
    return enc
