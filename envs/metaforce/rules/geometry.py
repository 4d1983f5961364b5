"""Metaforce battlefield rules on ``envs.core.squaregrid`` (spec §3.2, R-26, R-27, R-30).

The shared grid already gives N x N footprints, the closest-square Chebyshev distance, and paths
that cross ``occupied`` cells (allies) but not ``blocked`` ones (enemies). This module adds what
only Metaforce needs: distances in feet, range bands, where a combatant may stop, and the default
deployment along opposite edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from envs.core.squaregrid import Cell, distance

__all__ = ["SQUARE_FT", "MAX_INCREMENTS", "distance_ft", "range_steps", "stop_ok",
           "placement_problem", "default_deployment", "EDGES"]

SQUARE_FT = 5  # spec §3.2: 5 ft squares
MAX_INCREMENTS = 3


def distance_ft(a: Cell, size_a: int, b: Cell, size_b: int) -> int:
    """spec §3.2: Chebyshev distance between the closest squares x 5 ft (a diagonal is 5 ft)."""
    return SQUARE_FT * distance(a, size_a, b, size_b)


def range_steps(dist_ft: int, increment_ft: int,
                max_increments: int = MAX_INCREMENTS) -> int | None:
    """R-30: the Advantage steps a ranged attack at ``dist_ft`` takes: 0 within one increment,
    -1 for each further increment, None beyond ``max_increments`` (out of range)."""
    if increment_ft < 1:
        raise ValueError(f"a range increment is at least 1 ft, got {increment_ft}")
    bands = max(1, -(-dist_ft // increment_ft))
    return None if bands > max_increments else 1 - bands


def _overlap(a: Cell, na: int, b: Cell, nb: int) -> bool:
    return a[0] < b[0] + nb and b[0] < a[0] + na and a[1] < b[1] + nb and b[1] < a[1] + na


def stop_ok(width: int, height: int, anchor: Cell, size: int,
            others: Iterable[tuple[Cell, int]]) -> bool:
    """spec §3.2: an N x N block may end a move here if it is on the map and shares no square
    with any other combatant (``(anchor, size)`` pairs), ally or enemy."""
    x, y = anchor
    if not (0 <= x and x + size <= width and 0 <= y and y + size <= height):
        return False
    return not any(_overlap(anchor, size, o, n) for o, n in others)


def placement_problem(width: int, height: int,
                      placed: Sequence[tuple[str, Cell, int]]) -> tuple[str, str] | None:
    """The first ``(name, problem)`` among ``(name, anchor, size)`` placements: off the map,
    or sharing a square with an earlier one; None when all are fine."""
    for i, (name, at, n) in enumerate(placed):
        x, y = at
        if not (0 <= x and x + n <= width and 0 <= y and y + n <= height):
            return name, (f"a {n} x {n} combatant at {list(at)} does not fit on the "
                          f"{width} x {height} map")
        for other, o_at, o_n in placed[:i]:
            if _overlap(at, n, o_at, o_n):
                return name, f"shares a square with {other} (§3.2)"
    return None


EDGES = ("west", "east", "south", "north")


def _line(length: int, sizes: Sequence[int]) -> list[tuple[int, int]] | None:
    """Pack blocks of ``sizes`` along an edge of ``length`` squares, centred, in rows away from
    the edge: ``(offset along the edge, depth from the edge)`` per block; None if too deep."""
    rows: list[list[int]] = [[]]
    for n in sizes:
        if n > length:
            return None
        if sum(rows[-1]) + n > length:
            rows.append([])
        rows[-1].append(n)
    out, depth = [], 0
    for row in rows:
        pos = (length - sum(row)) // 2
        for n in row:
            out.append((pos, depth))
            pos += n
        depth += max(row)
    return out


def default_deployment(width: int, height: int, teams: Sequence[Sequence[int]],
                       min_gap_ft: int = 30) -> list[list[Cell]]:
    """spec §3.2: each team along its own edge (west, east, then south, north for a third and
    fourth team), centred, in rows away from the edge; every two members of different teams at
    least ``min_gap_ft`` apart. ``teams`` lists each team's footprint sides; the answer is each
    member's anchor. Raises ``ValueError`` when the map is too small."""
    if not 2 <= len(teams) <= len(EDGES):
        raise ValueError(f"default deployment places 2 to {len(EDGES)} teams, got {len(teams)}")
    out: list[list[Cell]] = []
    for edge, sizes in zip(EDGES, teams, strict=False):
        along = height if edge in ("west", "east") else width
        line = _line(along, sizes)
        if line is None:
            raise ValueError(f"the {edge} team does not fit on the {width} x {height} map")
        cells = []
        for (pos, depth), n in zip(line, sizes, strict=True):
            if edge == "west":
                cells.append((depth, pos))
            elif edge == "east":
                cells.append((width - depth - n, pos))
            elif edge == "south":
                cells.append((pos, depth))
            else:
                cells.append((pos, height - depth - n))
        out.append(cells)
    placed = [(f"{EDGES[t]} team member {i + 1}", c, teams[t][i])
              for t, cells in enumerate(out) for i, c in enumerate(cells)]
    problem = placement_problem(width, height, placed)
    if problem is not None:
        raise ValueError(f"the teams do not fit on the {width} x {height} map: "
                         f"{problem[0]} {problem[1]}")
    for t, cells in enumerate(out):
        for u in range(t + 1, len(out)):
            for i, a in enumerate(cells):
                for j, b in enumerate(out[u]):
                    gap = distance_ft(a, teams[t][i], b, teams[u][j])
                    if gap < min_gap_ft:
                        raise ValueError(
                            f"on a {width} x {height} map the {EDGES[t]} and {EDGES[u]} teams "
                            f"start {gap} ft apart, less than {min_gap_ft} ft (§3.2)")
    return out
