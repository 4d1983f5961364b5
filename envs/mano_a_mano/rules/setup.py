"""Mano a Mano setups: starting hexes of a catalogue fight (``place``, spec §13.8), and "X's turn
in this state" (``start_turn``), for tests and tools that build a position by hand.

A test builds fighters and an encounter (or edits one), then calls ``start_turn`` to hand the
decision to a combatant, instead of reaching into the turn engine::

    enc = ManoEncounter(fighters, ["steven", "clone"], HexMap.hexagon(7))
    start_turn(enc)                       # the first of the order starts its turn, as in play
    start_turn(enc, "rider", upkeep=False)  # the rider decides now, nothing else changes

After editing the state of an encounter whose legal actions were already listed, call
``enc.refresh()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core.events import Event
from envs.core.hexgrid import Hex, HexMap, ring

from . import turns
from .fighter import Turn

if TYPE_CHECKING:
    from .state import ManoEncounter

__all__ = ["place", "start_turn"]


def start_turn(enc: ManoEncounter, actor: str | None = None, *, upkeep: bool = True) -> list[Event]:
    """Make it ``actor``'s turn (default: the first of ``enc.order``) in the state as it stands.

    ``upkeep=True``: the turn starts as in play (spec §4.8: the bonuses of RULING R3 end, cover
    ends, a lapsed counter recovers, forced skips and spent mounts pass on to the next combatant);
    the events of that start are returned. ``upkeep=False``: ``actor`` decides now with its full
    movement points and nothing else changes (a situation's "its upkeep done")."""
    actor = enc.order[0] if actor is None else actor
    events: list[Event] = []
    enc.turn_idx = enc.order.index(actor)
    if upkeep:
        enc.turn_idx -= 1
        enc.stack = []
        turns.next_turn(enc, events)
    else:
        enc.stack = [Turn(actor, move_points=turns.move_points(enc, enc.by_id[actor]))]
    enc.refresh()
    return events


def place(
    encounter_id: str,
    sides: dict[str, tuple[str, ...]],
    placement: Any,
    hexmap: HexMap,
    shooters: frozenset[str] = frozenset(),
) -> dict[str, Hex]:
    """Starting hexes (spec §13.8): ``adjacent``, ``{distance_hexes: n}`` (sides n apart, members
    in a column; ``shooters`` two hexes further back, spec §13.8 "archer at the back") or
    ``{ring_radius_hexes: r}`` (side A's first member in the centre, the rest on a ring)."""
    names = list(sides)
    out: dict[str, Hex] = {}
    if placement == "adjacent":
        a, b = sides[names[0]], sides[names[1]]
        for k, cid in enumerate(a):
            out[cid] = (0, k)
        for k, cid in enumerate(b):
            out[cid] = (1, k)
    elif isinstance(placement, dict) and "distance_hexes" in placement:
        n = int(placement["distance_hexes"])
        left = -(n // 2)
        for s, col, back in ((names[0], left, -2), (names[1], left + n, 2)):
            for k, cid in enumerate(sides[s]):
                out[cid] = (col + (back if cid in shooters else 0), k)
    elif isinstance(placement, dict) and "ring_radius_hexes" in placement:
        r = int(placement["ring_radius_hexes"])
        centre = sides[names[0]]
        out[centre[0]] = (0, 0)
        others = [c for s in names for c in sides[s] if c != centre[0]]
        spots = ring((0, 0), r)
        for k, cid in enumerate(others):
            out[cid] = spots[(k * len(spots)) // max(1, len(others))]
    else:
        raise ValueError(f"encounter {encounter_id!r}: unknown placement {placement!r}")
    for cid, h in out.items():
        if h not in hexmap:
            raise ValueError(f"encounter {encounter_id!r}: {cid} starts off the map at {h}")
    return out
