"""Metanoia rules engine (spec rules/metanoia.md): opposed d6 pools, keywords, Realms, three zones.

The combat loop (spec §1.2): initiative once; each round every active combatant takes one turn
and one action (Engage, Mark, Move, Hide, Sense, Recover; Guard and Withdraw in the full rules);
hostile Engages, Marks and challenged Moves are opposed rolls in which the target decides its
reaction off-turn. Injuries fill slots, Argues remove Convictions, margins become stacks. A side
with no active combatant loses; round 30 ends in a draw.

Public surface: ``new_encounter``, ``from_situation``, ``MetanoiaEncounter``, ``RuleOptions``,
``CORE``, ``FULL``, ``ENCOUNTERS``.
"""

from __future__ import annotations

from typing import Any

from envs.core.data import DataError, Entry
from envs.core.dice import Dice

from . import rulings
from .catalogue import (
    SIDES,
    StatBlock,
    catalogue,
    encounters,
    parse_hazards,
    parse_stat_block,
    stat_blocks,
)
from .options import CORE, FULL, RuleOptions, parse_options
from .state import STATUSES, SYSTEM, Fighter, MetanoiaEncounter

__all__ = [
    "SYSTEM", "CORE", "FULL", "RuleOptions", "parse_options", "MetanoiaEncounter", "Fighter",
    "new_encounter", "from_situation", "encounter_names", "stat_blocks", "encounters", "catalogue",
    "default_zone",
]


def encounter_names() -> list[str]:
    return list(encounters())


def default_zone(block: StatBlock, side: str, zones: int) -> int:
    """RULING R22: side A's rear (0), side B's rear (last); close-only attackers at the front."""
    attacks = [o for o in block.options if "Atk" in o.uses]
    if all(o.reach == "close" for o in attacks):
        return zones // 2
    return 0 if side == SIDES[0] else zones - 1


def new_encounter(encounter: str, options: Any = None, dice: Dice | None = None) -> MetanoiaEncounter:
    """A fresh fight of a named encounter (spec §13.3); rolls initiative with ``dice``."""
    encs = encounters()
    if encounter not in encs:
        raise DataError(f"metanoia: unknown encounter {encounter!r}; known: {', '.join(encs)}")
    opts = parse_options(options)
    d = encs[encounter]
    fighters = []
    for side in SIDES:
        for slot, p in enumerate(d.sides[side]):
            zone = p.zone if p.zone is not None else default_zone(p.block, side, opts.zones)
            fighters.append(Fighter(p.id, p.block, side, slot, min(zone, opts.zones - 1)))
    enc = MetanoiaEncounter(fighters, opts, [f.id for f in fighters], hazards=d.hazards,
                            surprised=d.surprised, name=encounter)
    if dice is None:
        raise ValueError("new_encounter needs dice to roll initiative")
    enc.begin(dice, roll_initiative=True)
    return enc


_STATE_FIELDS = ("strain", "stacks", "conv", "injuries", "statuses", "defeated", "broken", "fled", "guarding")


def from_situation(data: dict[str, Any], source: str = "situation", dice: Dice | None = None) -> MetanoiaEncounter:
    """Build the fight a situation file describes (DESIGN.md, "Situations and cases").

    Fields: ``system``, ``options`` (core/full/mapping), ``encounter`` (a named lineup) and/or
    ``combatants`` (``id``, ``side``, ``stats`` = stat block id or inline mapping, ``zone``,
    ``state`` overrides: strain, stacks, conv, injuries, statuses, defeated, broken, fled,
    guarding), ``round``, ``actor``, ``order``, ``surprised``, ``hazards``.

    With ``actor``, the fight stands at that combatant's turn decision, its turn-start effects
    already applied; ``order`` (default: roster order) is the initiative order. Without ``actor``
    the fight starts fresh: initiative is rolled from ``dice`` unless ``order`` is given.
    """
    e = Entry(data, source, "situation")
    e.choice("system", [SYSTEM])
    e.opt("title", "", str)
    e.opt("notes", "", str)
    opts = parse_options(e.opt("options"), source, "situation.options")
    enc_name = e.opt("encounter", None, str)
    encs = encounters()
    roster: dict[str, dict[str, Any]] = {}
    hazards: dict[int, int] = {}
    surprised = None
    if enc_name is not None:
        if enc_name not in encs:
            e.fail("encounter", f"unknown encounter {enc_name!r}; known: {', '.join(encs)}")
        d = encs[enc_name]
        hazards, surprised = dict(d.hazards), d.surprised
        for side in SIDES:
            for p in d.sides[side]:
                roster[p.id] = {"block": p.block, "side": side, "zone": p.zone, "state": None}
    listed = e.items("combatants", [])
    if not listed and not roster:
        e.fail("combatants", "a situation needs an encounter or a list of combatants")
    blocks = stat_blocks()
    seen: set[str] = set()
    for i, raw in enumerate(listed):
        c = Entry(raw, source, f"combatants[{i}]")
        cid = c.req("id", str)
        if " " in cid or ":" in cid or not cid:
            c.fail("id", f"ids may not contain spaces or ':' ({cid!r})")
        if cid in seen:
            c.fail("id", f"duplicate combatant id {cid!r}")
        seen.add(cid)
        known = roster.get(cid)
        if known is None:
            side = c.choice("side", SIDES)
            stats = c.req("stats")
            if isinstance(stats, str):
                if stats not in blocks:
                    c.fail("stats", f"unknown stat block {stats!r}; known: {', '.join(blocks)}")
                block = blocks[stats]
            else:
                block = parse_stat_block(stats, source, f"combatants[{i}].stats", cid)
            known = roster[cid] = {"block": block, "side": side, "zone": None, "state": None}
        else:
            if c.has("side") and c.data["side"] != known["side"]:
                c.fail("side", f"{cid!r} is on side {known['side']} in encounter {enc_name!r}")
            c.opt("side")
        zone = c.integer("zone", None, lo=0, hi=opts.zones - 1)
        if zone is not None:
            known["zone"] = zone
        known["state"] = c.sub("state", {})
        c.done()
    fighters: list[Fighter] = []
    for side in SIDES:
        members = [(cid, r) for cid, r in roster.items() if r["side"] == side]
        if not 1 <= len(members) <= 4:
            e.fail("combatants", f"side {side} needs 1 to 4 combatants, has {len(members)}")
        for slot, (cid, r) in enumerate(members):
            zone = r["zone"] if r["zone"] is not None else default_zone(r["block"], side, opts.zones)
            f = Fighter(cid, r["block"], side, slot, zone)
            if r["state"] is not None:
                _apply_state(f, r["state"])
            fighters.append(f)
    ids = [f.id for f in fighters]
    side_of = {f.id: f.side for f in fighters}
    for f in fighters:  # RULING R25 (spec §5.13): one can only Guard another combatant of its own side
        if f.guarding is not None and (f.guarding == f.id or side_of.get(f.guarding) != f.side):
            roster[f.id]["state"].fail("guarding", f"{f.guarding!r} is not an ally of {f.id!r}")
    order = e.opt("order", None, list)
    if order is not None and sorted(map(str, order)) != sorted(ids):
        e.fail("order", f"must list every combatant once: {', '.join(ids)}")
    surprised = e.choice("surprised", SIDES, surprised)
    hazards.update(parse_hazards(e, opts.zones))
    rnd = e.integer("round", 1, lo=1, hi=opts.round_limit)
    actor = e.opt("actor", None, str)
    if actor is not None and actor not in ids:
        e.fail("actor", f"unknown combatant {actor!r}; combatants: {', '.join(ids)}")
    e.done()
    enc = MetanoiaEncounter(fighters, opts, list(order) if order else ids, hazards=hazards,
                            surprised=surprised, name=enc_name or "custom")
    if actor is None:
        if order is None and dice is None:
            raise DataError(f"{source}: situation: dice are needed to roll initiative (or give 'actor' or 'order')")
        enc._round = rnd
        enc.begin(dice, roll_initiative=order is None)
        return enc
    a = enc.by_id[actor]
    if not a.active:
        raise DataError(f"{source}: situation: field 'actor': {actor!r} is out of the fight")
    if enc.surprised_side and rnd == 1:
        for f in fighters:
            f.surprised = f.side == enc.surprised_side and f is not a
    enc._round = rnd
    enc.turn_idx = enc.order.index(actor)
    enc.phase = "turn"
    enc._check_end(enc.start_events)
    return enc


def _apply_state(f: Fighter, s: Entry) -> None:
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
