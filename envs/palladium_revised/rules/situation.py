"""Palladium Revised presets and situations (spec §3.3-§3.6, §4.3-§4.4, §13.3;
docs/situations.md).

``preset_rows`` turns a catalogue encounter (``catalogue.encounters()``) into the rows ``build``
takes. ``from_situation`` reads the shared fields through ``envs.core.situation`` (catalogue ids
or inline stat blocks through the catalogue's ``stat_block_from_mapping``), plus per combatant
``x`` (feet on the battle line) and its ``state`` (``situation_state``), and the top-level
``ambush`` (the ambushing side, default the encounter's) and ``second``. A situation may define
its own weapons, ``weapons: {id: weapon}`` in the catalogue's schema (spec §2.6, §13.4), which its
inline stat blocks may then carry beside the catalogue's.

Without ``order``, ``round`` and ``actor`` the fight starts fresh: the state is applied before
the start-of-fight state check and round 1's initiative is rolled from the dice. Otherwise the
fight stands in ``round`` (default 1) with ``order`` as its initiative order (no roll; every
combatant once): with ``actor`` (``order`` default: roster order) at that combatant's slot in
``second`` (default its first slot of the round, Second 1), every slot before it in time order
(Second, pass, initiative) spent; without ``actor`` at the round's first decision (without
``order`` its initiative is rolled from the dice). The clock runs from the
round's start to that decision (its tick phases and state checks, spec §4.4-§4.6), then the
``state`` is applied as the table shows it and the state check runs again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from envs.core.data import Entry
from envs.core.dice import Dice, SeededDice
from envs.core.events import Event
from envs.core.situation import Member, SituationSchema, read_situation

from . import rulings
from .combatant import Combatant
from .economy import apply_carry_over
from .geometry import home_signs
from .options import RuleOptions, parse_options
from .profile import profile_of
from .setup import Row
from .situation_state import apply_state
from .slots import AVAILABLE, LOST, USED, slot_positions
from .state import SYSTEM, PalladiumEncounter
from .turns import roll_initiative, state_check

__all__ = ["preset_rows", "preset_options", "from_situation"]


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


def _assemble(rows: list[Row], opts: RuleOptions, name: str,
              over: Mapping[str, Mapping[str, int]], ambush: str | None) -> PalladiumEncounter:
    """The fighters on the line with the encounter's start overrides (``setup.build`` without
    the start)."""
    cs = [Combatant(cid, side, p, x) for cid, side, p, x in rows]
    enc = PalladiumEncounter(cs, opts, name)
    enc.ambush = ambush
    for c in cs:  # FULL, spec §2.1, R43
        c.fx.no_pe = opts.no_pe_beings and not c.profile.has_pe
    for cid, values in over.items():
        for key, value in values.items():
            setattr(enc.by_id[cid].fx if key in ("ee", "se") else enc.by_id[cid], key, value)
    return enc


def _round_start(enc: PalladiumEncounter, rnd: int, order: list[str] | None, dice: Dice,
                 ev: list[Event]) -> None:
    """spec §4.4 ROUND START of round ``rnd`` (the rounds before it have passed): fresh slots,
    Step budgets, the initiative order ``order`` (``None``: rolled, spec §3.4); the clock then
    stands at the start of Second 1."""
    enc._round = rnd - 1
    enc.t_abs = (rnd - 1) * rulings.SECONDS
    enc._next_round(ev)
    for c in enc.combatants:
        c.slot_at = slot_positions(c.profile.actions)
        c.slot_state = [AVAILABLE if c.active else LOST] * len(c.slot_at)
        if c.active:
            apply_carry_over(ev, c)
        c.step_budget = c.eff_pm()
        c.initiative = None
    if order is None:
        enc.order = roll_initiative([c for c in enc.combatants if c.active], dice, ev)
    else:
        enc.order = [cid for cid in order if enc.by_id[cid].active]
    enc.second, enc.stage = 1, "second_start"


def _spend_before(enc: PalladiumEncounter, actor: str, second: int) -> None:
    """Every slot before ``actor``'s first slot in ``second`` (in time order: Second, pass,
    initiative) is spent: those turns were taken."""
    at = (second, 1, enc.order.index(actor))
    for i, cid in enumerate(enc.order):
        c = enc.by_id[cid]
        for j, (s, k) in enumerate(c.slot_at):
            if (s, k, i) < at and c.slot_state[j] == AVAILABLE:
                c.slot_state[j] = USED


def _in_progress(enc: PalladiumEncounter, e: Entry, order: list[str] | None, rnd: int,
                 actor: str | None, second: int | None, dice: Dice) -> list[Event]:
    """Run the clock from the start of ``rnd`` to the decision the file names."""
    ev: list[Event] = []
    _round_start(enc, rnd, order, dice, ev)
    if actor is not None:
        c = enc.by_id[actor]
        s = second or 1
        if not any(sec == s for sec, _ in c.slot_at):
            seconds = ", ".join(str(x) for x in sorted({sec for sec, _ in c.slot_at}))
            e.fail("second" if second else "actor",
                   f"{actor!r} has no turn in Second {s} (its {c.profile.actions} Actions "
                   f"take Seconds {seconds}, spec §4.2)")
        _spend_before(enc, actor, s)
    ev += enc.start(dice)
    if actor is not None and enc.current_actor() != actor:  # the clock ended the fight first
        e.fail("actor", f"{actor!r} has no decision in round {rnd}: the fight "
                        f"{'is over' if enc.is_over() else 'reaches ' + str(enc.current_actor())}")
    return ev


def _own_weapons(data: Any, source: str) -> Any:
    """The shipped catalogue, with the situation's own ``weapons: {id: weapon}`` added (a weapon
    of the catalogue's name is replaced for this file's stat blocks)."""
    from .catalogue import catalogue, parse_weapon

    cat = catalogue()
    own = data.get("weapons") if isinstance(data, dict) else None
    if not own:
        return cat
    if not isinstance(own, dict):
        Entry(data, source, "situation").fail("weapons", "expected a mapping {id: weapon}")
    weapons = dict(cat.weapons)
    for wid, raw in own.items():
        weapons[str(wid)] = parse_weapon(str(wid), raw, source)
    return replace(cat, weapons=weapons)


def from_situation(data: dict[str, Any], source: str = "situation",
                   dice: Dice | None = None) -> PalladiumEncounter:
    """Build the fight a situation describes (see the module docstring)."""
    from .catalogue import encounters, stat_block_from_mapping, stat_blocks
    encs = encounters()
    cat = _own_weapons(data, source)
    schema = SituationSchema(
        SYSTEM, parse_options, encs, _lineup, stat_blocks(),
        lambda d, src, entry, cid: stat_block_from_mapping(d, src, entry, cid, cat),
        member_fields=_fields)
    sit = read_situation(data, source, schema)
    e, opts = sit.entry, sit.options
    e.opt("weapons")  # read above
    dice = dice if dice is not None else SeededDice(0)
    spec = encs[sit.encounter] if sit.encounter is not None else None
    xs: dict[str, int] = {}
    over: dict[str, dict[str, int]] = {}
    ambush = None
    if spec is not None:
        opts = preset_options(spec, opts)
        rows0, over = preset_rows(spec)
        xs = {r[0]: r[3] for r in rows0}
        ambush = spec.ambush
    sides = list(sit.sides())
    if e.has("ambush"):
        ambush = e.opt("ambush", None, lambda v: v if v is None else str(v))
        if ambush is not None and ambush not in sides:
            e.fail("ambush", f"unknown side {ambush!r}; sides: {', '.join(sides)}")
    second = e.integer("second", None, lo=1, hi=rulings.SECONDS)
    if second is not None and sit.actor is None:
        e.fail("second", "needs an 'actor' (the fight stands at the actor's slot in it)")
    rows: list[Row] = []
    homes = home_signs(list(sides))
    for cid, mem in sit.members.items():
        default = opts.start_a if homes[mem.side] < 0 else opts.start_b  # spec §3.2
        x = int(mem.extra.get("x", xs.get(cid, default)))
        rows.append((cid, mem.side, profile_of(mem.block), x))
    enc = _assemble(rows, opts, sit.encounter or "situation", over, ambush)
    ev: list[Event] = []
    states = {cid: m.state for cid, m in sit.members.items() if m.state is not None}
    if not sit.in_progress:  # a fresh start: the state is where the fight begins
        apply_state(enc, states, None)
        for c in enc.combatants:  # spec §3.3: the state check runs once after setup
            state_check(ev, c)
        ev += enc.start(dice)
    else:
        for c in enc.combatants:
            state_check(ev, c)
        order = sit.order
        if order is None and sit.actor is not None:
            order = list(sit.members)
        ev += _in_progress(enc, e, order, sit.round or 1, sit.actor, second, dice)
        apply_state(enc, states, enc.current_actor())
        for c in enc.combatants:  # the table's state, checked as at a Second's end (§4.6)
            state_check(ev, c)
        enc.check_end(ev)
    e.done()
    enc.start_events = ev
    enc._legal = None
    return enc
