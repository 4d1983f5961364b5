"""The Melee Grid and the slots of a round (spec §4.2, §4.3, §4.7; R8, R10, R19, R20).

A combatant with N Actions owns N slots per round, each ``(second, pass)``; ``slot_counts(N)``
places them for any N >= 1. Slot states: AVAILABLE, RESERVED (committed to a multi-Action
action), USED, CONSUMED (spent out of turn by a Dodge), LOST.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .content import GRID, slot_counts

if TYPE_CHECKING:
    from .combatant import Combatant

__all__ = ["GRID", "slot_counts", "slot_positions", "AVAILABLE", "RESERVED", "USED", "CONSUMED",
           "LOST", "STATES", "future_index", "next_reserved", "reserve", "release"]

# spec §4.2: the Melee Grid (``GRID``) and ``slot_counts`` are the content module's.

AVAILABLE, RESERVED, USED, CONSUMED, LOST = "available", "reserved", "used", "consumed", "lost"
STATES = (AVAILABLE, RESERVED, USED, CONSUMED, LOST)


@lru_cache(maxsize=64)
def slot_positions(n: int) -> tuple[tuple[int, int], ...]:
    """The slots of one round in time order (Second, then pass): ``((second, pass), ...)``
    (a tuple, remembered per N)."""
    return tuple((s, k) for s, c in sorted(slot_counts(n).items()) for k in range(1, c + 1))


def future_index(c: Combatant, cursor: tuple[int, int, int], init_index: int,
                 states: tuple[str, ...] = (AVAILABLE,)) -> int | None:
    """spec §4.3, §4.7, R8: index of ``c``'s earliest slot of this round that lies in the future
    of ``cursor`` (``(second, pass, init index)`` in lexicographic order) and is in ``states``;
    ``None`` if there is none."""
    for i, (s, k) in enumerate(c.slot_at):
        if c.slot_state[i] in states and (s, k, init_index) > cursor:
            return i
    return None


def next_reserved(c: Combatant, after: int) -> int | None:
    """The next RESERVED slot after slot index ``after``."""
    for i in range(after + 1, len(c.slot_at)):
        if c.slot_state[i] == RESERVED:
            return i
    return None


def reserve(c: Combatant, after: int, count: int) -> int:
    """spec §4.7: the next ``count`` AVAILABLE slots after ``after`` become RESERVED; returns the
    shortfall (the carry-over into the next round, R10)."""
    for i in range(after + 1, len(c.slot_at)):
        if count == 0:
            break
        if c.slot_state[i] == AVAILABLE:
            c.slot_state[i] = RESERVED
            count -= 1
    return count


def release(c: Combatant) -> None:
    """spec §4.7 abandonment: RESERVED slots return to AVAILABLE."""
    for i, st in enumerate(c.slot_state):
        if st == RESERVED:
            c.slot_state[i] = AVAILABLE
