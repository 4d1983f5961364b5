"""FULL geometry (spec §8.7, R-42; §2.1, R-80; §3.2 FULL): the three area shapes as cell sets,
the creatures an area hits and which of them take double damage, the Colossal/Megalithic prone
burst, and heights (per-cell ground height, per-creature height ``z`` above its ground) with the
vertical part of distance and line of sight over raised ground.

Areas are plain functions of cells, so every skill (placed or self-centred AoE, Line, Cone)
uses the same code: ``placed_aoe``, ``self_aoe``, ``line_cells``, ``cone_cells``, then
``area_hits`` for the creatures inside and the ones with >= 3 of their cells inside (D8, R-41).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx
from envs.core.squaregrid import DIRECTIONS, Cell, SquareGrid, footprint, supercover

from .fighter import Fighter

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["placed_aoe", "self_aoe", "line_cells", "cone_cells", "area_hits", "prone_burst",
           "BURST_SIZE", "ground", "altitude", "tall", "vertical_gap", "height_sight"]

BURST_SIZE = {9: 1, 10: 2}
"""§2.1, R-80: the self-centred AoE size of the prone burst by size index (Colossal,
Megalithic)."""


def _seen(grid: SquareGrid, origin: Cell, cells: set[Cell]) -> set[Cell]:
    """§8.7 Walls: an area cell counts only on the map and in LoS of the centre or origin."""
    return {c for c in cells if c in grid and grid.line_of_sight(origin, 1, c, 1)}


def placed_aoe(grid: SquareGrid, centre: Cell, n: int) -> set[Cell]:
    """§8.7, R-42: the N x N block ``cx - floor((N-1)/2) .. cx + ceil((N-1)/2)`` (same in y)."""
    lo = (n - 1) // 2
    return _seen(grid, centre, set(footprint((centre[0] - lo, centre[1] - lo), n)))


def self_aoe(grid: SquareGrid, anchor: Cell, side: int, n: int) -> set[Cell]:
    """§8.7, R-42: every cell within Chebyshev distance N of the source's N x N block (its own
    cells are the 0-space core); LoS from the nearest source cell."""
    out = set()
    own = footprint(anchor, side)
    for x in range(anchor[0] - n, anchor[0] + side + n):
        for y in range(anchor[1] - n, anchor[1] + side + n):
            if (x, y) in grid and any(grid.line_of_sight(o, 1, (x, y), 1) for o in own):
                out.add((x, y))
    return out


def _start(anchor: Cell, side: int, d: int) -> Cell:
    """The source cell an area in direction ``d`` leaves from: the middle of the block's edge
    facing ``d`` (the corner cell for a diagonal); the anchor itself for one cell."""
    dx, dy = DIRECTIONS[d]
    mid = (side - 1) // 2
    x = anchor[0] + (side - 1 if dx > 0 else 0 if dx < 0 else mid)
    y = anchor[1] + (side - 1 if dy > 0 else 0 if dy < 0 else mid)
    return (x, y)


def line_cells(grid: SquareGrid, anchor: Cell, side: int, d: int, length: int,
               width: int = 1) -> set[Cell]:
    """§8.7, R-42: a Line L x W from the cell next to the source in direction ``d`` (0..7,
    ``squaregrid.DIRECTIONS``), W wide across its axis, the extra cell of an even W to the left
    of the direction (WE-18)."""
    o = _start(anchor, side, d)
    dx, dy = DIRECTIONS[d]
    lx, ly = -dy, dx  # the left of the direction (a quarter turn counter-clockwise)
    if dx and dy:  # diagonal: widen along one axis, the left one
        lx, ly = (-dx, 0) if dy > 0 else (0, -dy)
    left, right = width // 2, (width - 1) // 2
    cells = set()
    for i in range(1, length + 1):
        cx, cy = o[0] + dx * i, o[1] + dy * i
        for k in range(-right, left + 1):
            cells.add((cx + lx * k, cy + ly * k))
    return _seen(grid, o, cells)


def cone_cells(grid: SquareGrid, anchor: Cell, side: int, d: int, length: int) -> set[Cell]:
    """§8.7, R-42: a Cone of size L from origin O in direction ``d``; orthogonal: ``(O + v
    across, O + u along)`` with ``1 <= u <= L``, ``|v| <= u``; diagonal: the L x L quadrant
    ``0 <= a, b <= L`` without O."""
    o = _start(anchor, side, d)
    dx, dy = DIRECTIONS[d]
    cells = set()
    if dx and dy:
        for a in range(length + 1):
            for b in range(length + 1):
                if (a, b) != (0, 0):
                    cells.add((o[0] + dx * a, o[1] + dy * b))
    else:
        for u in range(1, length + 1):
            for v in range(-u, u + 1):
                cells.add((o[0] + dx * u + dy * v, o[1] + dy * u + dx * v))
    return _seen(grid, o, cells)


def area_hits(enc: SizeboundEncounter, area: set[Cell], exclude: tuple[str, ...] = ()
              ) -> tuple[list[Fighter], set[str]]:
    """The living creatures with a cell in ``area`` (id order of the roster) and the ids of
    those with >= 3 cells inside (D8 doubling, R-41; a fractional footprint counts as 1)."""
    hit, doubled = [], set()
    for g in enc.fighters:
        if not g.alive or g.id in exclude:
            continue
        inside = len(set(footprint(g.pos, g.n)) & area)
        if inside:
            hit.append(g)
            if inside >= 3:
                doubled.add(g.id)
    return hit, doubled


def prone_burst(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> None:
    """§2.1, R-80: a Colossal (AoE 1) or Megalithic (AoE 2) creature knocked Prone
    unintentionally deals 1d6 + Total Might Sonic to every other creature in a self-centred
    AoE (allies too), Dodge and Block allowed, Deafened creatures immune, one roll (§8.7)."""
    n = BURST_SIZE.get(f.profile.size_index)
    if n is None or not enc.options.prone_burst:
        return
    from .attack import area_attack
    area = self_aoe(enc.grid, f.pos, f.n, n)
    hit, doubled = area_hits(enc, area, exclude=(f.id,))
    hit = [g for g in hit if "deafened" not in g.conds]
    from .full_conditions import stat_totals
    area_attack(enc, ctx, ev, f, hit, doubled & {g.id for g in hit}, 1, 6,
                stat_totals(f)[0], ("Sonic",))  # R-80 with R-59: the Total as changed now


# ---------------------------------------------------------------------- heights (§3.2 FULL)
def ground(enc: SizeboundEncounter, anchor: Cell, side: int = 1) -> int:
    """The ground height under a block: the highest cell it covers (0 where none is set)."""
    h = enc.heights
    if not h:
        return 0
    return max(h.get(c, 0) for c in footprint(anchor, side))


def tall(f: Fighter) -> int:
    """The creature's own height in whole levels (§2.1 Height column, at least 1)."""
    from .content import size
    return max(1, int(size(f.profile.size).height))


def altitude(f: Fighter) -> int:
    """The level of the creature's base: its ground plus ``z``."""
    return f.ground + f.z


def vertical_gap(a: Fighter, b: Fighter) -> int:
    """Spaces between the two creatures' vertical extents (0 when they overlap in height)."""
    lo_a, lo_b = altitude(a), altitude(b)
    hi_a, hi_b = lo_a + tall(a) - 1, lo_b + tall(b) - 1
    return max(0, lo_a - hi_b, lo_b - hi_a)


def height_sight(h: dict[Cell, int], a: Fighter, b: Fighter) -> bool:
    """§3.2 FULL: some line from a cell of ``a`` to a cell of ``b`` (at eye level, the top of
    each creature) passes no cell whose ground rises above the line's height there."""
    if not h:
        return True
    ea, eb = altitude(a) + tall(a) - 1, altitude(b) + tall(b) - 1
    for ca in footprint(a.pos, a.n):
        for cb in footprint(b.pos, b.n):
            line = supercover(ca, cb)
            steps = max(1, len(line) - 1)
            if all(h.get(c, 0) <= ea + (eb - ea) * i / steps for i, c in enumerate(line)
                   if c not in (ca, cb)):
                return True
    return False
