"""One situation reader for every system (DESIGN.md, "Situations and cases"; docs/situations.md).

A situation file describes a fight in progress. ``read_situation`` reads the fields every system
shares and checks them the same way:

- ``system`` (the system's name), ``title`` and ``notes`` (free text), ``options`` (the system's
  ``parse_options``: core, full or a mapping of rule options);
- ``encounter`` (a named lineup of the system's data) and/or ``combatants``: each with an ``id``;
  a combatant of the encounter may give its ``side`` (it must match) and ``state``; any other
  combatant is new and gives its ``side`` and ``stats`` (a stat block id of the catalogue, or an
  inline stat block in the catalogue's own schema, read by the catalogue's own parser);
- ``state``: per-combatant overrides, left to the system (its ``Member.state`` entry);
- ``order`` (every combatant once), ``round`` (1 .. the round limit) and ``actor`` (a combatant).

What is system-specific goes through ``SituationSchema``: the options parser, the encounters and
their lineups, the stat blocks and the inline stat-block parser, the side names, and a hook for
extra per-combatant fields (Metanoia's ``zone``). The system then reads its own top-level fields
(a map, grapples, hazards) from ``Situation.entry`` and finishes with ``entry.done()``, which
rejects fields nobody read. Every problem is one ``DataError`` naming the file, entry and field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .data import Entry

__all__ = ["Member", "Situation", "SituationSchema", "read_situation", "check_id"]


@dataclass
class Member:
    """One combatant of a situation, before the system builds its fighter."""

    id: str
    side: str
    block: Any
    """the system's stat block"""
    state: Entry | None = None
    """the combatant's ``state`` overrides (``None``: not listed), read by the system"""
    listed: Entry | None = None
    """the combatant's entry in ``combatants`` (``None``: not listed), for error messages"""
    new: bool = False
    """defined by the situation itself (not a member of its encounter)"""
    extra: dict[str, Any] = field(default_factory=dict)
    """what the schema's ``member_fields`` hook read (Metanoia: ``zone``)"""


@dataclass
class Situation:
    """The shared fields of a situation; the system's own fields are still unread in ``entry``."""

    entry: Entry
    options: Any
    encounter: str | None
    definition: Any
    """the encounter's definition in the system's data (``None`` without ``encounter``)"""
    members: dict[str, Member]
    """every combatant, in roster order: the encounter's first, then the situation's own"""
    order: list[str] | None
    round: int | None
    actor: str | None

    @property
    def source(self) -> str:
        return self.entry.source

    @property
    def in_progress(self) -> bool:
        """Does the file set the turn (``actor``, ``order`` or ``round``)? Else a fresh start."""
        return self.actor is not None or self.order is not None or self.round is not None

    def sides(self) -> dict[str, list[Member]]:
        """The members by side, sides in order of first appearance."""
        out: dict[str, list[Member]] = {}
        for m in self.members.values():
            out.setdefault(m.side, []).append(m)
        return out


@dataclass(frozen=True)
class SituationSchema:
    """What a system tells the reader (see the module docstring)."""

    system: str
    parse_options: Callable[[Any, str, str], Any]
    """``parse_options(spec, source, entry)``"""
    encounters: Mapping[str, Any]
    lineup: Callable[[Any], Iterable[tuple[str, str, Any]]]
    """an encounter's definition -> ``(id, side, stat block)`` in roster order"""
    blocks: Mapping[str, Any]
    """the catalogue's stat blocks by id"""
    inline_block: Callable[[Any, str, str, str], Any]
    """``inline_block(data, source, entry, id)``: the catalogue's parser of one stat block"""
    sides: tuple[str, ...] | None = None
    """the side names (``None``: any text)"""
    block_alias: str | None = None
    """an older name of ``stats`` that takes a block id, the combatant's id by default (Mano a
    Mano's ``block``)"""
    member_fields: Callable[[Entry, Member, Any], None] | None = None
    """``member_fields(combatant_entry, member, options)`` reads extra per-combatant fields"""


def check_id(c: Entry, cid: str) -> None:
    """Ids name combatants in action labels (``c1: strike -> c2``): no spaces, no ``:``."""
    if not cid or " " in cid or ":" in cid:
        c.fail("id", f"ids may not be empty or contain spaces or ':' ({cid!r})")


def read_situation(data: Any, source: str, schema: SituationSchema) -> Situation:
    """Read the shared fields of a situation (see the module docstring)."""
    e = Entry(data, source, "situation")
    e.choice("system", [schema.system])
    e.opt("title", "", str)
    e.opt("notes", "", str)
    opts = schema.parse_options(e.opt("options"), source, "situation.options")
    name = e.opt("encounter", None, str)
    definition = None
    members: dict[str, Member] = {}
    if name is not None:
        if name not in schema.encounters:
            e.fail(
                "encounter", f"unknown encounter {name!r}; known: {', '.join(schema.encounters)}"
            )
        definition = schema.encounters[name]
        for cid, side, block in schema.lineup(definition):
            members[cid] = Member(cid, side, block)
    listed = e.items("combatants", [])
    if not listed and not members:
        e.fail("combatants", "a situation needs an encounter or a list of combatants")
    seen: set[str] = set()
    for i, raw in enumerate(listed):
        c = Entry(raw, source, f"combatants[{i}]")
        cid = c.req("id", str)
        check_id(c, cid)
        if cid in seen:
            c.fail("id", f"duplicate combatant id {cid!r} (listed twice)")
        seen.add(cid)
        m = members.get(cid)
        if m is None:
            m = members[cid] = _new_member(c, cid, name, members, schema)
        else:
            if c.has("side") and str(c.data["side"]) != m.side:
                c.fail("side", f"{cid!r} is on side {m.side} in encounter {name!r}")
            c.opt("side")
            for key in ("stats", schema.block_alias):
                if key is not None and c.has(key):
                    c.fail(key, f"{cid!r} comes with its stat block from encounter {name!r}")
        m.state, m.listed = c.sub("state", {}), c
        if schema.member_fields is not None:
            schema.member_fields(c, m, opts)
        c.done()
    ids = list(members)
    order = e.opt("order", None, list)
    if order is not None and sorted(map(str, order)) != sorted(ids):
        e.fail("order", f"must list every combatant once: {', '.join(ids)}")
    rnd = e.integer("round", None, lo=1, hi=opts.round_limit)
    actor = e.opt("actor", None, str)
    if actor is not None and actor not in members:
        e.fail("actor", f"unknown combatant {actor!r}; combatants: {', '.join(ids)}")
    return Situation(
        e,
        opts,
        name,
        definition,
        members,
        [str(x) for x in order] if order is not None else None,
        rnd,
        actor,
    )


def _new_member(
    c: Entry,
    cid: str,
    encounter: str | None,
    members: Mapping[str, Member],
    schema: SituationSchema,
) -> Member:
    """A combatant the situation defines: ``side`` and ``stats`` (an id or an inline block)."""
    alias = schema.block_alias
    if (
        encounter is not None
        and not c.has("side")
        and not c.has("stats")
        and not (alias and c.has(alias))
    ):
        c.fail(
            "id",
            f"unknown combatant {cid!r}: encounter {encounter!r} has "
            f"{', '.join(members)} (a new combatant needs 'side' and 'stats')",
        )
    if schema.sides is not None:
        side = c.choice("side", schema.sides)
    else:
        side = str(c.req("side", (str, int), "a side name"))
    if alias is not None and not c.has("stats"):
        stats: Any = c.opt(alias, cid, str)
        key = alias
    else:
        stats, key = c.req("stats"), "stats"
    if isinstance(stats, str):
        if stats not in schema.blocks:
            c.fail(key, f"unknown stat block {stats!r}; known: {', '.join(schema.blocks)}")
        block = schema.blocks[stats]
    else:
        block = schema.inline_block(stats, c.source, f"{c.entry}.stats", cid)
    return Member(cid, side, block, new=True)
