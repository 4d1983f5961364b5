"""Where combatants are (spec §3.2, §3.3, §5.0.5, R-28, R-29): footprints, distance, sight and
legal stopping places, on ``envs.core.squaregrid``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from envs.core.squaregrid import Cell, SquareGrid, distance, footprint

from .fighter import Fighter

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["cells", "dist", "line_of_sight", "sight", "sees", "in_dark", "can_stop", "overlaps",
           "blockers", "stop_ok", "Blocker", "cells_within"]


def cells(f: Fighter, anchor: Cell | None = None) -> list[Cell]:
    """The cells ``f`` covers (one cell for a fractional footprint)."""
    return footprint(f.pos if anchor is None else anchor, f.n)


def dist(a: Fighter, b: Fighter, a_at: Cell | None = None) -> int:
    """R-28: Chebyshev distance between the closest cells of two footprints; in FULL, the
    larger of that and the height gap between them (§3.2 FULL, ``full_geometry``)."""
    d = distance(a.pos if a_at is None else a_at, a.n, b.pos, b.n)
    if a.z or b.z or a.ground != b.ground:
        from .full_geometry import vertical_gap
        d = max(d, vertical_gap(a, b))
    return d


_LOS: dict[tuple[frozenset[Cell], Cell, int, Cell, int], bool] = {}
"""``SquareGrid.line_of_sight`` by (walls, footprints): it reads the walls only"""


def line_of_sight(grid: SquareGrid, a: Cell, size_a: int, b: Cell, size_b: int = 1) -> bool:
    """``grid.line_of_sight(a, size_a, b, size_b)``, each answer worked out once."""
    walls = grid.walls
    if not walls:
        return True
    key = (walls, a, size_a, b, size_b)
    seen = _LOS.get(key)
    if seen is None:
        if len(_LOS) > 200_000:
            _LOS.clear()
        seen = _LOS[key] = grid.line_of_sight(a, size_a, b, size_b)
    return seen


def sight(grid: SquareGrid, a: Fighter, b: Fighter,
          heights: dict[Cell, int] | None = None) -> bool:
    """§3.2: walls block; in FULL raised ground between them blocks too (``full_geometry``)."""
    if grid.walls and not line_of_sight(grid, (a.x, a.y), a.n, (b.x, b.y), b.n):
        return False
    if heights:
        from .full_geometry import height_sight
        return height_sight(heights, a, b)
    return True


def in_dark(enc: SizeboundEncounter, a: Fighter, b: Fighter) -> bool:
    """§3.2 Darkness (FULL): a creature that cannot see in the dark (no ``darkvision`` tag) sees
    only adjacent things. **RULING**: ``b`` is unseen when it is farther than 1 and every cell of
    its block is dark (``map.dark``); a lit cell of it shows it, wherever ``a`` stands."""
    dark = enc.dark
    return bool(dark) and "darkvision" not in a.profile.tags and dist(a, b) > 1 \
        and all((b.x + i, b.y + j) in dark for i in range(b.n) for j in range(b.n))


def sees(enc: SizeboundEncounter, a: Fighter, b: Fighter) -> bool:
    """Line of sight (``sight``: walls, and FULL's raised ground) and light (``in_dark``)."""
    return sight(enc.grid, a, b, enc.heights) and not in_dark(enc, a, b)


def overlaps(a: Fighter, b: Fighter) -> bool:
    return dist(a, b) == 0


def can_stop(grid: SquareGrid, mover: Fighter, anchor: Cell, others: Iterable[Fighter]) -> bool:
    """spec §5.0.5, R-29: every cell on the map and no wall; no hostile in any of them; a cell
    covered by a Large or bigger creature is never shared; fractional allies share a cell while
    their footprints, the mover's included, total at most 1."""
    return stop_ok(grid, mover, anchor, blockers(mover, others))


Blocker = tuple[int, int, int, bool, Cell, float]
"""A creature a mover may not stop on: ``(x, y, N, never shared, anchor, footprint)``."""


def blockers(mover: Fighter, others: Iterable[Fighter]) -> list[Blocker]:
    """The living others of ``can_stop``, read once for many anchors of one mover (their
    order kept); ``never shared``: hostile, or either footprint Large or bigger."""
    big = mover.profile.footprint >= 1
    side = mover.side
    return [(o.x, o.y, o.n, big or o.side != side or o.profile.footprint >= 1, (o.x, o.y),
             o.profile.footprint) for o in others if o is not mover and o.alive]


def stop_ok(grid: SquareGrid, mover: Fighter, anchor: Cell, others: list[Blocker]) -> bool:
    """``can_stop`` on the ``blockers`` of the mover."""
    x, y = anchor
    n = mover.n
    walls = grid.walls
    if n == 1:
        if not (0 <= x < grid.width and 0 <= y < grid.height) or (walls and anchor in walls):
            return False
    elif not (0 <= x and x + n <= grid.width and 0 <= y and y + n <= grid.height) or (
            walls and any((x + i, y + j) in walls for i in range(n) for j in range(n))):
        return False
    load: dict[Cell, float] | None = None
    for ox, oy, on, never, pos, fp in others:
        if ox < x + n and x < ox + on and oy < y + n and y < oy + on:  # the footprints overlap
            if never:
                return False
            if load is None:
                load = {}
            load[pos] = load.get(pos, 0.0) + fp
    if load is None:
        return True
    mine = mover.profile.footprint
    return all(v + mine <= 1.0 + 1e-9 for v in load.values())


def cells_within(src: Fighter, g: Fighter, n: int) -> int:
    """spec §8.7: how many of ``g``'s cells a self-centred AoE of size ``n`` round ``src``
    covers (every cell within Chebyshev distance ``n`` of one of ``src``'s cells); 3 or more
    double its damage (D8, R-41)."""
    mine = cells(src)
    return sum(1 for x, y in cells(g) if any(max(abs(x - a), abs(y - b)) <= n for a, b in mine))
