"""The Metanoia turn flow (spec §3.3, §4.2, §8.5; RULINGS R24, R26, R36, R39).

Initiative once per encounter, then rounds of one turn per active combatant in initiative order.
A turn starts (Guard ends, +1 Strain, Deteriorating ticks) and ends (Pinned ticks, surprise ends);
the fight ends when a side has no active combatant (``EncounterBase._check_defeat``) or at the
round cap (``EncounterBase._check_round_cap``: a draw).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.dice import Dice
from envs.core.events import Event, RoundStarted, TurnStarted

from . import rulings
from .effects import add_stacks, successes
from .events import InitiativeRolled, StatusChanged, StrainChanged
from .fighters import Fighter

if TYPE_CHECKING:
    from .state import MetanoiaEncounter


def begin(enc: MetanoiaEncounter, dice: Dice | None, roll_initiative: bool) -> list[Event]:
    """Start the fight: roll initiative (spec §3.3, RULING R24) and start the first turn."""
    events: list[Event] = []
    if roll_initiative:
        assert dice is not None
        rolls = []
        key = {}
        side_rank = {s.side: i for i, s in enumerate(enc.sides())}
        for f in enc.fighters:  # side A slot 0, 1, ..., then side B
            faces = dice.roll(6, rulings.INITIATIVE_DICE)
            s = successes(enc, f, faces)
            rolls.append((f.id, faces, s))
            key[f.id] = (-s, -f.block.realm, side_rank[f.side], f.slot)
        enc.order = sorted((f.id for f in enc.fighters), key=key.__getitem__)
        events.append(InitiativeRolled(tuple(rolls), tuple(enc.order)))
    if enc.surprised_side:
        for f in enc.fighters:
            f.surprised = f.side == enc.surprised_side
    events.append(RoundStarted(enc.round))
    enc.turn_idx = -1
    next_turn(enc, events)
    enc.start_events = events
    return events


def end_turn(enc: MetanoiaEncounter, events: list[Event]) -> None:
    """spec §4.2 steps 6-7 (RULING R39), then the next combatant's turn."""
    enc.phase = "turn"
    enc.pending = None
    c = enc.by_id[enc.order[enc.turn_idx]]
    if "pinned" in c.statuses:
        c.statuses["pinned"] -= 1
        if c.statuses["pinned"] <= 0:
            del c.statuses["pinned"]
        events.append(StatusChanged(c.id, "pinned", c.statuses.get("pinned", 0), "end of turn"))
    c.surprised = False  # RULING R36: its first turn has passed
    if enc._check_defeat(events):  # spec §8.5, RULING R26: a side with no active combatant loses
        return
    next_turn(enc, events)


def next_turn(enc: MetanoiaEncounter, events: list[Event]) -> None:
    n = len(enc.order)
    while True:
        enc.turn_idx += 1
        if enc.turn_idx >= n:
            enc.turn_idx = n - 1
            if enc._check_round_cap(events):  # RULING R26: a draw at the cap
                return
            enc.turn_idx = 0
            enc._next_round(events)
        c = enc.by_id[enc.order[enc.turn_idx]]
        if not c.active:
            continue
        if c.surprised and enc.round == 1:  # RULING R36: surprised skip round 1
            continue
        break
    start_turn(enc, c, events)


def start_turn(enc: MetanoiaEncounter, c: Fighter, events: list[Event]) -> None:
    """spec §4.2 steps 2-4 (RULING R39): Guard ends, +1 Strain, Deteriorating ticks."""
    enc.phase = "turn"
    events.append(TurnStarted(enc.round, c.id))
    c.guarding = None
    if c.strain < c.block.strain_max:
        c.strain += rulings.STRAIN_PER_TURN
    det = c.statuses.get("deteriorating", 0)
    if det:  # spec §5.3 #2 (RULING R31)
        if c.strain:
            c.strain -= 1
            events.append(StrainChanged(c.id, -1, c.strain, "deteriorating"))
        add_stacks(c, 1, "deteriorating", events)
        if det <= 1:
            del c.statuses["deteriorating"]
        else:
            c.statuses["deteriorating"] = det - 1
        events.append(StatusChanged(c.id, "deteriorating", det - 1, "ticks"))
