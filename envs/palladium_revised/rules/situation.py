"""Palladium Revised presets and situations (spec §3.6, §13.3; docs/situations.md).

``preset_rows`` turns a catalogue encounter (``catalogue.encounters()``) into the rows ``build``
takes. ``from_situation`` reads the shared fields through ``envs.core.situation`` (catalogue ids
or inline stat blocks through the catalogue's ``stat_block_from_mapping``), plus per combatant
``x`` (feet on the battle line) and the ``state`` overrides ``sdc``, ``hp``, ``stamina``,
``morale``, ``wounds`` and ``armor_sdc``. ``order``, ``round`` and ``actor`` (a fight stopped
mid-round) are not supported yet and are refused with a clear message.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from envs.core.data import Entry
from envs.core.dice import Dice
from envs.core.situation import Member, SituationSchema, read_situation

from .options import RuleOptions, parse_options
from .profile import profile_of
from .setup import Row, build
from .state import SYSTEM, PalladiumEncounter

__all__ = ["preset_rows", "from_situation", "STATE_FIELDS"]

STATE_FIELDS = ("sdc", "hp", "stamina", "morale", "wounds", "armor_sdc")


def _lineup(spec: Any) -> list[tuple[str, str, Any]]:
    return [(m.id, s.name, m.block) for s in spec.sides for m in s.members]


def preset_rows(spec: Any) -> tuple[list[Row], dict[str, dict[str, int]]]:
    """``(rows, start overrides)`` of a catalogue encounter."""
    rows: list[Row] = [(m.id, s.name, profile_of(m.block), m.x)
                       for s in spec.sides for m in s.members]
    over: dict[str, dict[str, int]] = {}
    for cid, key, value in spec.start_overrides:
        over.setdefault(cid, {})[key] = value
    return rows, over


def preset_options(spec: Any, opts: RuleOptions) -> RuleOptions:
    """The encounter's arena length (spec §3.6)."""
    return replace(opts, arena_length=spec.arena_length)


def _fields(c: Entry, m: Member, opts: Any) -> None:
    if c.has("x"):
        m.extra["x"] = c.integer("x", lo=0, hi=opts.arena_length)


def from_situation(data: dict[str, Any], source: str = "situation",
                   dice: Dice | None = None) -> PalladiumEncounter:
    """Build the fight a situation describes (see the module docstring)."""
    from .catalogue import encounters, stat_block_from_mapping, stat_blocks
    encs = encounters()
    schema = SituationSchema(
        SYSTEM, parse_options, encs, _lineup, stat_blocks(),
        lambda d, src, entry, cid: stat_block_from_mapping(d, src, entry, cid),
        member_fields=_fields)
    sit = read_situation(data, source, schema)
    e, opts = sit.entry, sit.options
    for key in ("order", "round", "actor"):
        if e.has(key):
            e.fail(key, "a Palladium Revised situation starts at round 1 (mid-round "
                        "situations are not supported yet)")
    spec = encs[sit.encounter] if sit.encounter is not None else None
    xs: dict[str, int] = {}
    over: dict[str, dict[str, int]] = {}
    if spec is not None:
        opts = preset_options(spec, opts)
        rows0, over = preset_rows(spec)
        xs = {r[0]: r[3] for r in rows0}
    first = next(iter(sit.sides()), None)
    rows: list[Row] = []
    for cid, mem in sit.members.items():
        default = opts.start_a if mem.side == first else opts.start_b
        x = int(mem.extra.get("x", xs.get(cid, default)))
        rows.append((cid, mem.side, profile_of(mem.block), x))
    for cid, mem in sit.members.items():
        st = mem.state
        if st is None:
            continue
        p = next(r[2] for r in rows if r[0] == cid)
        tops = {"sdc": p.sdc_max, "hp": p.hp_base, "stamina": p.stamina_max,
                "morale": p.morale_max, "wounds": None, "armor_sdc": p.armor_sdc}
        for key in STATE_FIELDS:
            if st.has(key):
                lo = None if key in ("hp", "morale") else 0
                over.setdefault(cid, {})[key] = st.integer(key, lo=lo, hi=tops[key])
        if over.get(cid, {}).get("hp", 1) <= 0:
            st.fail("hp", "must be above 0 for a combatant in the fight")
        st.done()
    e.done()
    return build(rows, opts, sit.encounter or "situation", dice, over)
