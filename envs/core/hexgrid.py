"""Hex maps for grid systems: axial coordinates, distances, directions, and terrain layers.

Axial coordinates ``(q, r)`` on pointy-top hexes; the third cube coordinate is ``s = -q - r``.
Directions are numbered clockwise from east, the same order everywhere (actions, observations,
rendering)::

          4 (0,-1)   5 (+1,-1)
    3 (-1,0)    (q,r)    0 (+1,0)
          2 (-1,+1)  1 (0,+1)

``distance`` is the hex distance ``(|dq| + |dr| + |dq + dr|) / 2``. A ``HexMap`` is a set of hexes
(a hexagon of radius R or a rhombus) with optional terrain per hex: walls (impassable), height in
metres and water, so that falls, climbing, swimming and flying can be added without changing the map
model. Occupancy is not the map's business: it belongs to the encounter state.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Hex", "DIRECTIONS", "distance", "neighbor", "neighbors", "direction_to", "ring", "disk",
           "line", "Terrain", "HexMap"]

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""Unit steps by direction index 0..5, clockwise from east (see the module docstring)."""


def distance(a: Hex, b: Hex) -> int:
    """Hex distance between ``a`` and ``b``.

    >>> distance((0, 0), (2, -1)), distance((1, 1), (1, 1)), distance((0, 0), (-3, 3))
    (2, 0, 3)
    """
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbor(h: Hex, direction: int, steps: int = 1) -> Hex:
    """The hex ``steps`` steps from ``h`` in ``direction`` (0..5)."""
    dq, dr = DIRECTIONS[direction % 6]
    return (h[0] + dq * steps, h[1] + dr * steps)


def neighbors(h: Hex) -> list[Hex]:
    """The six adjacent hexes, in direction order."""
    return [neighbor(h, d) for d in range(6)]


def _cube_round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b``, both included (cube interpolation).

    >>> line((0, 0), (3, 0))
    [(0, 0), (1, 0), (2, 0), (3, 0)]
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6  # nudge off hex edges so ties break the same way every time
    return [_cube_round(a[0] + (b[0] - a[0]) * i / n + eps, a[1] + (b[1] - a[1]) * i / n + eps)
            for i in range(n + 1)]


def direction_to(a: Hex, b: Hex) -> int:
    """The direction index (0..5) of the first step from ``a`` toward ``b`` (``a != b``)."""
    if a == b:
        raise ValueError(f"no direction from {a} to itself")
    step = line(a, b)[1]
    return DIRECTIONS.index((step[0] - a[0], step[1] - a[1]))


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``center`` (``[center]`` for 0), going round
    clockwise."""
    if radius == 0:
        return [center]
    h = neighbor(center, 4, radius)  # start at the corner reached going direction 4
    out = []
    for d in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbor(h, d)
    return out


def disk(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``center`` (``3r(r+1) + 1`` hexes), centre first then ring by
    ring."""
    return [h for k in range(radius + 1) for h in ring(center, k)]


@dataclass(frozen=True)
class Terrain:
    """What a hex is made of. The default is open, level, dry ground."""

    wall: bool = False
    """impassable; an obstacle to fall into"""
    height_m: float = 0.0
    """ground height in metres (for falls and climbing)"""
    water: bool = False
    """swimming rules apply"""


OPEN = Terrain()


@dataclass
class HexMap:
    """A bounded set of hexes with terrain.

    Args:
        hexes: the hexes on the map.
        terrain: terrain of hexes that are not open ground.
    """

    hexes: frozenset[Hex]
    terrain: dict[Hex, Terrain] = field(default_factory=dict)
    _open_steps: dict[Hex, tuple[tuple[int, Hex], ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """``open_steps`` per hex, filled on first use (not part of the map's value: not compared,
    not shown, not saved by ``to_dict``)."""

    @classmethod
    def hexagon(cls, radius: int, terrain: dict[Hex, Terrain] | None = None) -> HexMap:
        """A hexagon of ``radius`` around ``(0, 0)`` (radius 7: 169 hexes)."""
        return cls(frozenset(disk((0, 0), radius)), dict(terrain or {}))

    @classmethod
    def rhombus(cls, width: int, height: int, terrain: dict[Hex, Terrain] | None = None) -> HexMap:
        """``width x height`` hexes with ``0 <= q < width``, ``0 <= r < height``."""
        return cls(
            frozenset((q, r) for q in range(width) for r in range(height)), dict(terrain or {})
        )

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __len__(self) -> int:
        return len(self.hexes)

    def __iter__(self) -> Iterator[Hex]:
        return iter(sorted(self.hexes))

    def at(self, h: Hex) -> Terrain:
        """Terrain of ``h`` (open ground unless set)."""
        return self.terrain.get(h, OPEN)

    def passable(self, h: Hex) -> bool:
        """On the map and not a wall."""
        return h in self.hexes and not self.at(h).wall

    def open_steps(self, h: Hex) -> tuple[tuple[int, Hex], ...]:
        """``(direction, hex)`` of every passable neighbour of ``h``, kept per hex in
        ``_open_steps``: the terrain is set before a fight starts and does not change during it."""
        found = self._open_steps.get(h)
        if found is None:
            found = tuple((d, n) for d, n in enumerate(neighbors(h)) if self.passable(n))
            self._open_steps[h] = found
        return found

    def steps(self, h: Hex, blocked: Iterable[Hex] = ()) -> list[tuple[int, Hex]]:
        """``(direction, hex)`` of every passable neighbour of ``h`` not in ``blocked``."""
        taken = set(blocked)
        return [(d, n) for d, n in enumerate(neighbors(h)) if self.passable(n) and n not in taken]

    def reachable(
        self, start: Hex, budget: int, blocked: Iterable[Hex] = (), cost: int = 1
    ) -> dict[Hex, int]:
        """Hexes reachable from ``start`` with ``budget`` movement points at ``cost`` a hex, and
        their cost."""
        taken = set(blocked)
        best = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for h in frontier:
                for _, n in self.steps(h, taken):
                    c = best[h] + cost
                    if c <= budget and c < best.get(n, budget + 1):
                        best[n] = c
                        nxt.append(n)
            frontier = nxt
        return best

    def to_dict(self) -> dict[str, object]:
        """Plain data (for snapshots)."""
        return {
            "hexes": sorted(map(list, self.hexes)),
            "terrain": [
                {"hex": list(h), "wall": t.wall, "height_m": t.height_m, "water": t.water}
                for h, t in sorted(self.terrain.items())
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HexMap:
        """The map that ``to_dict`` wrote."""
        terrain: dict[Hex, Terrain] = {
            tuple(t["hex"]): Terrain(t["wall"], t["height_m"], t["water"]) for t in data["terrain"]
        }
        return cls(frozenset(tuple(h) for h in data["hexes"]), terrain)
