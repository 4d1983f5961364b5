"""Square-grid battlefields: W x H cells, N x N footprints, Chebyshev distance, line of sight.

Used by Sizebound (spec §3.2, §3.3, §5.0.5, R-27 to R-29) and Metaforce (spec §3.2, R-26, R-27).
Cells are ``(x, y)`` with ``0 <= x < width`` and ``0 <= y < height``; x grows to the east and y to
the north (Sizebound §3.3; Metaforce gives no orientation and uses the same one). The eight step
directions are numbered counter-clockwise from east, the same order everywhere::

    3 (-1,+1)  2 (0,+1)  1 (+1,+1)
    4 (-1, 0)   (x,y)    0 (+1, 0)
    5 (-1,-1)  6 (0,-1)  7 (+1,-1)

A creature of size N occupies the N x N block whose **anchor** is its cell with the smallest x and
y: ``x..x+N-1, y..y+N-1`` (Sizebound §3.3; Metaforce §3.2 "Size N >= 2 occupies N x N squares").
Fractional footprints (Sizebound's Tiny and smaller) occupy one cell here; how many may share that
cell is the engine's business (Sizebound R-29).

How the two specs agree and differ (options, not copies):

* distance: both use the Chebyshev distance between the closest cells of the two footprints
  (Sizebound §3.2 and R-28, Metaforce §3.2: "a diagonal costs 5 ft"), so a diagonal step costs
  the same as a straight one in both; there is no diagonal option to choose;
* terrain: Sizebound has walls (block movement and sight) and difficult cells (a step that enters
  any difficult cell costs ``difficult_factor`` = 2, §5.0.5); Metaforce CORE has neither ("no
  terrain or cover, full line of sight"), which is a grid with no walls and no difficult cells;
* a step of an N x N creature moves its whole block, and every destination cell must be on the
  map, not a wall and not ``blocked`` (hostiles; Sizebound §5.0.5, Metaforce §3.2); cells in
  ``occupied`` may be crossed but not stopped in (allies, both specs);
* other cost factors (Sizebound's crawling while Prone, x2, R-27) are the caller's ``factor``.

Line of sight (Sizebound §3.2): a line from the centre of any cell of the viewer's footprint to the
centre of any cell of the target's footprint, traced as a **supercover** line (every cell the
segment touches, both cells beside a corner it passes exactly through); sight exists if at least
one such line touches no wall. Creatures never block sight. For 1 x 1 creatures this is one line.

Standard library only.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Cell", "DIRECTIONS", "footprint", "distance", "cell_distance", "supercover",
           "SquareGrid"]

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = (
    (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
"""Unit steps by direction index 0..7, counter-clockwise from east (see the module docstring)."""


def footprint(anchor: Cell, size: int = 1) -> list[Cell]:
    """The cells of a ``size`` x ``size`` block anchored at its smallest ``(x, y)``.

    >>> footprint((2, 3), 2)
    [(2, 3), (2, 4), (3, 3), (3, 4)]
    """
    x, y = anchor
    n = max(1, size)
    return [(x + i, y + j) for i in range(n) for j in range(n)]


def cell_distance(a: Cell, b: Cell) -> int:
    """Chebyshev distance between two cells (a diagonal step counts 1).

    >>> cell_distance((0, 0), (3, -2))
    3
    """
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def distance(a: Cell, size_a: int, b: Cell, size_b: int) -> int:
    """Chebyshev distance between the closest cells of two footprints (0 when they overlap).

    Args:
        a: anchor of the first creature; size_a: its footprint side N.
        b: anchor of the second creature; size_b: its footprint side N.

    >>> distance((0, 0), 2, (3, 1), 1), distance((0, 0), 3, (1, 1), 1)
    (2, 0)
    >>> distance((0, 0), 1, (1, 1), 1)
    1
    """
    na = size_a if size_a > 1 else 1  # written out: this runs many times per decision
    nb = size_b if size_b > 1 else 1
    gx = b[0] - a[0] - na + 1
    t = a[0] - b[0] - nb + 1
    if t > gx:
        gx = t
    gy = b[1] - a[1] - na + 1
    t = a[1] - b[1] - nb + 1
    if t > gy:
        gy = t
    g = gx if gx > gy else gy
    return g if g > 0 else 0


def _entered(x: int, y: int, dx: int, dy: int, n: int) -> Iterator[Cell]:
    """The cells an N x N block anchored at ``(x, y)`` enters when it steps by ``(dx, dy)``."""
    nx, ny = x + dx, y + dy
    for i in range(n):
        for j in range(n):
            cx, cy = nx + i, ny + j
            if not (x <= cx < x + n and y <= cy < y + n):
                yield (cx, cy)


def supercover(a: Cell, b: Cell) -> list[Cell]:
    """Every cell the segment between the centres of ``a`` and ``b`` touches, from ``a`` to ``b``.

    Where the segment passes exactly through a corner, both cells beside the corner are included
    (before the diagonal cell), so a wall on either side of a corner blocks the line.

    >>> supercover((0, 0), (3, 1))
    [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (3, 1)]
    >>> supercover((0, 0), (4, 1))
    [(0, 0), (1, 0), (2, 0), (2, 1), (3, 1), (4, 1)]
    >>> supercover((0, 0), (2, 2))
    [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)]
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    nx, ny = abs(dx), abs(dy)
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    x, y = a
    out = [a]
    ix = iy = 0
    while ix < nx or iy < ny:
        decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if decision == 0:  # through a corner: both side cells, then the diagonal one
            out.append((x + sx, y))
            out.append((x, y + sy))
            x += sx
            y += sy
            ix += 1
            iy += 1
        elif decision < 0:
            x += sx
            ix += 1
        else:
            y += sy
            iy += 1
        out.append((x, y))
    return out


_NEIGHBOURS: dict[tuple[int, int], dict[Cell, tuple[Cell, ...]]] = {}
"""per ``(columns, rows)`` of anchors: each anchor's neighbours on the grid, in direction order"""


def _neighbours(w: int, h: int) -> dict[Cell, tuple[Cell, ...]]:
    """The steps between anchors ``0 <= x < w``, ``0 <= y < h`` (``SquareGrid._flood``)."""
    got = _NEIGHBOURS.get((w, h))
    if got is None:
        if len(_NEIGHBOURS) > 64:
            _NEIGHBOURS.clear()
        got = _NEIGHBOURS[(w, h)] = {
            (x, y): tuple((x + dx, y + dy) for dx, dy in DIRECTIONS
                          if 0 <= x + dx < w and 0 <= y + dy < h)
            for x in range(w) for y in range(h)}
    return got


@dataclass(frozen=True)
class SquareGrid:
    """A rectangular battlefield of ``width`` x ``height`` cells with walls and difficult cells.

    Args:
        width: cells from west to east (any size >= 1).
        height: cells from south to north (any size >= 1).
        walls: impassable cells that block line of sight.
        difficult: cells whose entry multiplies a step's cost by ``difficult_factor``.
        difficult_factor: Sizebound §3.2/§5.0.5: 2.

    Occupancy is not the grid's business: the encounter passes ``blocked`` and ``occupied`` cells.
    """

    width: int
    height: int
    walls: frozenset[Cell] = frozenset()
    difficult: frozenset[Cell] = frozenset()
    difficult_factor: int = 2

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a grid needs at least 1 x 1 cells, got {self.width} x {self.height}")
        for name in ("walls", "difficult"):
            cells = frozenset(tuple(c) for c in getattr(self, name))
            off = sorted(c for c in cells if c not in self)
            if off:
                raise ValueError(f"{name}: {off[0]} is off the {self.width} x {self.height} grid")
            object.__setattr__(self, name, cells)

    def __contains__(self, c: object) -> bool:
        if not isinstance(c, tuple) or len(c) != 2:
            return False
        return 0 <= c[0] < self.width and 0 <= c[1] < self.height

    def __len__(self) -> int:
        return self.width * self.height

    def __iter__(self) -> Iterator[Cell]:
        return ((x, y) for x in range(self.width) for y in range(self.height))

    def passable(self, c: Cell) -> bool:
        """On the grid and not a wall."""
        return c in self and c not in self.walls

    def fits(self, anchor: Cell, size: int = 1, blocked: Iterable[Cell] = ()) -> bool:
        """Every cell of the footprint is passable and not in ``blocked``."""
        taken = blocked if isinstance(blocked, (set, frozenset)) else set(blocked)
        return all(self.passable(c) and c not in taken for c in footprint(anchor, size))

    def step_cost(self, anchor: Cell, direction: int, size: int = 1, factor: int = 1) -> int:
        """Cost of the step of an N x N block in ``direction``: ``factor``, times
        ``difficult_factor`` if any cell it enters is difficult (Sizebound §5.0.5)."""
        rough = self.difficult
        if not rough:
            return factor
        dx, dy = DIRECTIONS[direction % 8]
        x, y = anchor
        n = max(1, size)
        if n == 1:
            return factor * (self.difficult_factor if (x + dx, y + dy) in rough else 1)
        if any(c in rough for c in _entered(x, y, dx, dy, n)):
            return factor * self.difficult_factor
        return factor

    def steps(self, anchor: Cell, size: int = 1, blocked: Iterable[Cell] = (),
              factor: int = 1) -> list[tuple[int, Cell, int]]:
        """``(direction, new anchor, cost)`` of every legal step of an N x N block.

        A step is legal when every destination cell is on the grid, not a wall and not in
        ``blocked`` (Sizebound §5.0.5: "every destination cell must be legal").
        """
        taken = set(blocked)
        out = []
        for d, (dx, dy) in enumerate(DIRECTIONS):
            new = (anchor[0] + dx, anchor[1] + dy)
            if self.fits(new, size, taken):
                out.append((d, new, self.step_cost(anchor, d, size, factor)))
        return out

    def reachable(self, start: Cell, budget: int, size: int = 1, blocked: Iterable[Cell] = (),
                  occupied: Iterable[Cell] = (), factor: int = 1) -> dict[Cell, int]:
        """Anchors an N x N creature can stop at with ``budget`` movement, and the least cost.

        Args:
            start: the creature's anchor now (always in the answer, at cost 0).
            budget: movement points to spend.
            size: footprint side N.
            blocked: cells that may not be entered (hostile creatures).
            occupied: cells that may be crossed but not stopped in (allies).
            factor: cost multiplier of every step (Sizebound R-27: 2 while Prone).
        """
        taken = set(blocked) | self.walls
        busy = set(occupied)
        n = max(1, size)
        w, h = self.width - n, self.height - n
        rough = self.difficult
        if not rough and factor > 0:
            return self._flood(start, budget, n, taken, busy, factor)
        extra = self.difficult_factor
        fit: dict[Cell, bool] = {}

        def fits(x: int, y: int) -> bool:
            ok = fit.get((x, y))
            if ok is None:
                ok = fit[(x, y)] = 0 <= x <= w and 0 <= y <= h and not any(
                    (x + i, y + j) in taken for i in range(n) for j in range(n))
            return ok

        best = {start: 0}
        heap = [(0, start)]
        while heap:  # Dijkstra: step costs differ on difficult ground
            c, (x, y) = heapq.heappop(heap)
            if c > best[(x, y)]:
                continue
            for dx, dy in DIRECTIONS:
                nx, ny = x + dx, y + dy
                if not fits(nx, ny):
                    continue
                step = factor
                if rough and any(cell in rough for cell in _entered(x, y, dx, dy, n)):
                    step *= extra
                nc = c + step
                if nc <= budget and nc < best.get((nx, ny), budget + 1):
                    best[(nx, ny)] = nc
                    heapq.heappush(heap, (nc, (nx, ny)))
        return {a: c for a, c in best.items()
                if a == start or not any(x in busy for x in footprint(a, size))}

    def _flood(self, start: Cell, budget: int, n: int, taken: set[Cell], busy: set[Cell],
               factor: int) -> dict[Cell, int]:
        """``reachable`` where every step costs ``factor`` (no difficult cells): breadth first,
        one cost level at a time, each level expanded in sorted order, the order in which
        Dijkstra's heap pops it, so the answer (and its order) is the same."""
        w, h = self.width - n + 1, self.height - n + 1
        steps = _neighbours(w, h)
        if start not in steps:  # an anchor off the grid may still step onto it
            steps = {**steps, start: tuple((start[0] + dx, start[1] + dy) for dx, dy in DIRECTIONS
                                           if 0 <= start[0] + dx < w and 0 <= start[1] + dy < h)}
        if n == 1:
            seen = set(taken)
        else:  # the anchors whose block would cover a taken cell
            seen = {(x - i, y - j) for x, y in taken for i in range(n) for j in range(n)}
        seen.add(start)
        best = {start: 0}
        level = [start]
        cost = factor
        while level and cost <= budget:
            nxt = []
            for cell in level:
                for new in steps[cell]:
                    if new not in seen:
                        seen.add(new)
                        best[new] = cost
                        nxt.append(new)
            nxt.sort()
            level = nxt
            cost += factor
        if not busy:
            return best
        if n == 1:
            return {a: c for a, c in best.items() if a == start or a not in busy}
        offsets = [(i, j) for i in range(n) for j in range(n)]
        return {a: c for a, c in best.items()
                if a == start or not any((a[0] + i, a[1] + j) in busy for i, j in offsets)}

    def clear_line(self, a: Cell, b: Cell) -> bool:
        """No wall on the supercover line between the centres of cells ``a`` and ``b``."""
        walls = self.walls
        return not walls or not any(c in walls for c in supercover(a, b))

    def _walls_between(self, a: Cell, size_a: int, b: Cell, size_b: int) -> bool:
        """Some wall lies in the bounding box of both footprints (no wall there: every line is
        clear, since a supercover line never leaves that box)."""
        x0, y0 = min(a[0], b[0]), min(a[1], b[1])
        x1 = max(a[0] + max(1, size_a), b[0] + max(1, size_b)) - 1
        y1 = max(a[1] + max(1, size_a), b[1] + max(1, size_b)) - 1
        return any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in self.walls)

    def line_of_sight(self, a: Cell, size_a: int, b: Cell, size_b: int = 1) -> bool:
        """Sight between two footprints: at least one clear centre-to-centre line (module
        docstring; Sizebound §3.2). Without walls every pair sees the other (Metaforce CORE)."""
        if not self.walls or not self._walls_between(a, size_a, b, size_b):
            return True
        targets = footprint(b, size_b)
        return any(self.clear_line(s, t) for s in footprint(a, size_a) for t in targets)

    def to_dict(self) -> dict[str, object]:
        """Plain data (for snapshots and situation files)."""
        return {"width": self.width, "height": self.height,
                "walls": sorted(map(list, self.walls)),
                "difficult": sorted(map(list, self.difficult)),
                "difficult_factor": self.difficult_factor}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SquareGrid:
        """The inverse of ``to_dict``."""
        walls = frozenset((int(c[0]), int(c[1])) for c in data.get("walls", ()))
        rough = frozenset((int(c[0]), int(c[1])) for c in data.get("difficult", ()))
        return cls(int(data["width"]), int(data["height"]), walls, rough,
                   int(data.get("difficult_factor", 2)))
