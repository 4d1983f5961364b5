"""Where combatants are (spec §3.2, §3.3, §5.0.5, R-28, R-29): footprints, distance, sight and
legal stopping places, on ``envs.core.squaregrid``."""

from __future__ import annotations

from collections.abc import Iterable

from envs.core.squaregrid import Cell, SquareGrid, distance, footprint

from .fighter import Fighter

__all__ = ["cells", "dist", "sight", "can_stop", "overlaps"]


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


def sight(grid: SquareGrid, a: Fighter, b: Fighter,
          heights: dict[Cell, int] | None = None) -> bool:
    """§3.2: walls block; in FULL raised ground between them blocks too (``full_geometry``)."""
    if not grid.line_of_sight(a.pos, a.n, b.pos, b.n):
        return False
    if heights:
        from .full_geometry import height_sight
        return height_sight(heights, a, b)
    return True


def overlaps(a: Fighter, b: Fighter) -> bool:
    return dist(a, b) == 0


def can_stop(grid: SquareGrid, mover: Fighter, anchor: Cell, others: Iterable[Fighter]) -> bool:
    """spec §5.0.5, R-29: every cell on the map and no wall; no hostile in any of them; a cell
    covered by a Large or bigger creature is never shared; fractional allies share a cell while
    their footprints, the mover's included, total at most 1."""
    mine = cells(mover, anchor)
    if not all(grid.passable(c) for c in mine):
        return False
    load: dict[Cell, float] = {}
    for o in others:
        if o is mover or not o.alive:
            continue
        if distance(anchor, mover.n, o.pos, o.n) > 0:
            continue
        if o.side != mover.side or o.profile.footprint >= 1 or mover.profile.footprint >= 1:
            return False
        load[o.pos] = load.get(o.pos, 0.0) + o.profile.footprint
    return all(v + mover.profile.footprint <= 1.0 + 1e-9 for v in load.values())
