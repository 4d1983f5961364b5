"""Metanoia situations: a fight in progress from a situation file (docs/situations.md).

The shared fields (system, options, encounter and/or combatants, order, round, actor) are read by
``envs.core.situation``; this module gives it Metanoia's schema (sides A and B, stat blocks of
``catalogue.py`` by id or inline, a ``zone`` per combatant) and reads the rest: the ``state``
overrides (strain, stacks, conv, injuries, statuses, defeated, broken, fled, guarding), and the
top-level ``surprised`` and ``hazards``.
"""

from __future__ import annotations

from typing import Any

from envs.core.data import DataError, Entry
from envs.core.dice import Dice
from envs.core.situation import Member, SituationSchema, read_situation

from . import rulings
from .catalogue import (
    SIDES,
    EncounterDef,
    StatBlock,
    catalogue,
    encounters,
    parse_hazards,
    parse_stat_block,
    stat_blocks,
)
from .options import RuleOptions, parse_options
from .state import STATUSES, SYSTEM, Fighter, MetanoiaEncounter

__all__ = ["from_situation", "default_zone"]


def default_zone(block: StatBlock, side: str, zones: int) -> int:
    """RULING R22: side A's rear (0), side B's rear (last); close-only attackers at the front."""
    attacks = [o for o in block.options if "Atk" in o.uses]
    if all(o.reach == "close" for o in attacks):
        return zones // 2
    return 0 if side == SIDES[0] else zones - 1


def _lineup(d: EncounterDef) -> list[tuple[str, str, Any]]:
    return [(p.id, side, p.block) for side in SIDES for p in d.sides[side]]


def _zone(c: Entry, m: Member, opts: RuleOptions) -> None:
    zone = c.integer("zone", None, lo=0, hi=opts.zones - 1)
    if zone is not None:
        m.extra["zone"] = zone


def from_situation(
    data: dict[str, Any], source: str = "situation", dice: Dice | None = None
) -> MetanoiaEncounter:
    """Build the fight a situation file describes (docs/situations.md, "Metanoia").

    With ``actor``, the fight stands at that combatant's turn decision, its turn-start effects
    already applied; ``order`` (default: roster order) is the initiative order. Without ``actor``
    the fight starts fresh: initiative is rolled from ``dice`` unless ``order`` is given.
    """
    encs = encounters()
    schema = SituationSchema(
        SYSTEM,
        parse_options,
        encs,
        _lineup,
        stat_blocks(),
        parse_stat_block,
        sides=SIDES,
        member_fields=_zone,
    )
    sit = read_situation(data, source, schema)
    e, opts = sit.entry, sit.options
    d = encs[sit.encounter] if sit.encounter is not None else None
    zones = {p.id: p.zone for side in SIDES for p in d.sides[side]} if d is not None else {}
    fighters: list[Fighter] = []
    states: dict[str, Entry] = {}
    by_side = sit.sides()
    for side in SIDES:
        members = by_side.get(side, [])
        if not 1 <= len(members) <= 4:
            e.fail("combatants", f"side {side} needs 1 to 4 combatants, has {len(members)}")
        for slot, m in enumerate(members):
            zone = m.extra.get("zone", zones.get(m.id))
            if zone is None:
                zone = default_zone(m.block, side, opts.zones)
            f = Fighter(m.id, m.block, side, slot, zone)
            if m.state is not None:
                _apply_state(f, m.state)
                states[f.id] = m.state
            fighters.append(f)
    side_of = {f.id: f.side for f in fighters}
    for f in fighters:  # RULING R25 (spec §5.13): one can only Guard another combatant of its side
        if f.guarding is not None and (f.guarding == f.id or side_of.get(f.guarding) != f.side):
            states[f.id].fail("guarding", f"{f.guarding!r} is not an ally of {f.id!r}")
    ids = [f.id for f in fighters]
    hazards: dict[int, int] = dict(d.hazards) if d is not None else {}
    surprised = e.choice("surprised", SIDES, d.surprised if d is not None else None)
    hazards.update(parse_hazards(e, opts.zones))
    e.done()
    rnd = sit.round or 1
    enc = MetanoiaEncounter(
        fighters,
        opts,
        list(sit.order) if sit.order else ids,
        hazards=hazards,
        surprised=surprised,
        name=sit.encounter or "custom",
    )
    if sit.actor is None:
        if sit.order is None and dice is None:
            raise DataError(
                f"{source}: situation: dice are needed to roll initiative "
                "(or give 'actor' or 'order')"
            )
        enc._round = rnd
        enc.begin(dice, roll_initiative=sit.order is None)
        return enc
    a = enc.by_id[sit.actor]
    if not a.active:
        raise DataError(f"{source}: situation: field 'actor': {sit.actor!r} is out of the fight")
    if enc.surprised_side and rnd == 1:
        for f in fighters:
            f.surprised = f.side == enc.surprised_side and f is not a
    enc._round = rnd
    enc.turn_idx = enc.order.index(sit.actor)
    enc.phase = "turn"
    enc._check_end(enc.start_events)
    return enc


def _apply_state(f: Fighter, s: Entry) -> None:
    """A combatant's ``state`` overrides (docs/situations.md, "Metanoia")."""
    b = f.block
    f.strain = s.integer("strain", f.strain, lo=0, hi=b.strain_max)
    f.stacks = s.integer("stacks", f.stacks, lo=0, hi=rulings.STACKS_CAP)
    if s.has("conv"):
        if b.conv_max is None:
            s.fail("conv", f"{f.id} is mindless (convictions none)")
        f.conv = s.integer("conv", lo=0, hi=b.conv_max)
    injuries = []
    for j, raw in enumerate(s.items("injuries", [])):
        if isinstance(raw, list) and len(raw) == 2:
            raw = {"keyword": raw[0], "severity": raw[1]}
        inj = Entry(raw, s.source, f"{s.entry}.injuries[{j}]")
        kw = inj.choice("keyword", list(catalogue().keywords))
        injuries.append((kw, inj.integer("severity", lo=1)))
        inj.done()
    if len(injuries) > b.injury_slots:
        s.fail("injuries", f"{len(injuries)} injuries but only {b.injury_slots} slots")
    if s.has("injuries"):
        f.injuries = injuries
    if s.has("statuses"):
        st = s.sub("statuses")
        f.statuses = {}
        for name in list(st.data):
            if name not in STATUSES:
                st.fail(str(name), f"unknown status; known: {', '.join(STATUSES)}")
            rank = st.integer(name, lo=0)
            if rank:
                f.statuses[name] = rank
        st.done()
    for flag in ("defeated", "broken", "fled"):
        setattr(f, flag, s.opt(flag, False, bool))
    f.guarding = s.opt("guarding", None, str)
    if len(f.injuries) >= b.injury_slots:
        f.defeated = True
    if f.conv is not None and f.conv <= 0:
        f.broken = True
    s.done()
