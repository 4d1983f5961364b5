"""Square grid (envs/core/squaregrid.py): footprints, Chebyshev distance, steps, costs, sight.

Sizebound spec §3.2, §3.3, §5.0.5 (R-27 to R-29) and Metaforce spec §3.2 (R-26, R-27).
"""

from __future__ import annotations

import doctest

import pytest

from envs.core import squaregrid
from envs.core.squaregrid import (
    DIRECTIONS,
    SquareGrid,
    cell_distance,
    distance,
    footprint,
    supercover,
)


def test_doctests():
    assert doctest.testmod(squaregrid).failed == 0


def test_grids_of_any_size_and_bounds():
    g = SquareGrid(3, 7)
    assert len(g) == 21 and len(list(g)) == 21
    assert (2, 6) in g and (3, 0) not in g and (0, -1) not in g and (0, 7) not in g
    assert SquareGrid(1, 1).steps((0, 0)) == []
    with pytest.raises(ValueError, match="1 x 1"):
        SquareGrid(0, 4)
    with pytest.raises(ValueError, match=r"walls: \(5, 0\) is off the 5 x 5 grid"):
        SquareGrid(5, 5, walls=frozenset({(5, 0)}))


def test_footprint_is_anchored_at_the_smallest_x_and_y():
    """Sizebound §3.3: an N x N creature covers x..x+N-1, y..y+N-1."""
    assert footprint((4, 1)) == [(4, 1)]
    assert sorted(footprint((1, 2), 3)) == [(x, y) for x in (1, 2, 3) for y in (2, 3, 4)]
    assert footprint((0, 0), 0) == [(0, 0)]  # a fractional footprint holds one cell


def test_distance_is_chebyshev_between_the_closest_cells():
    """Sizebound §3.2 / R-28 and Metaforce §3.2: diagonals count 1, closest cells of the blocks."""
    assert cell_distance((0, 0), (5, 5)) == 5
    assert distance((0, 0), 1, (5, 5), 1) == 5
    assert distance((0, 0), 2, (5, 5), 1) == 4  # from (1, 1)
    assert distance((5, 5), 1, (0, 0), 2) == 4  # symmetric
    assert distance((0, 0), 3, (3, 0), 1) == 1  # adjacent to the east edge
    assert distance((0, 0), 3, (2, 2), 1) == 0  # inside the block: sharing a space
    assert distance((0, 0), 2, (2, 2), 2) == 1  # corner to corner
    assert distance((0, 6), 2, (0, 0), 4) == 3  # a 4 x 4 covers y 0..3, the 2 x 2 starts at y 6


def test_directions_are_counter_clockwise_from_east():
    assert DIRECTIONS[0] == (1, 0) and DIRECTIONS[2] == (0, 1) and len(set(DIRECTIONS)) == 8
    for d in range(8):
        dx, dy = DIRECTIONS[d]
        assert DIRECTIONS[(d + 4) % 8] == (-dx, -dy)


def test_steps_of_a_large_creature_need_every_destination_cell():
    """Sizebound §5.0.5: a multi-space creature moves its whole block; each cell must be legal."""
    g = SquareGrid(5, 5, walls=frozenset({(2, 2)}))
    # a 2 x 2 at (0, 0): east would cover (1..2, 0..1): fine; north-east covers (2, 2): a wall
    moves = {d: (a, c) for d, a, c in g.steps((0, 0), size=2)}
    assert set(moves) == {0, 2}
    assert moves[0] == ((1, 0), 1) and moves[2] == ((0, 1), 1)
    # an enemy standing on (1, 2) blocks the step north as well
    assert {d for d, _, _ in g.steps((0, 0), size=2, blocked={(1, 2)})} == {0}
    # the block may not leave the map: a 2 x 2 at (3, 3) may go west or south; south-west would
    # cover the wall (2, 2)
    assert {d for d, _, _ in g.steps((3, 3), size=2)} == {4, 6}


def test_difficult_cells_double_a_step_and_stack_with_the_prone_factor():
    """Sizebound §5.0.5: x2 for entering any difficult cell, x2 while prone, both: x4."""
    g = SquareGrid(6, 6, difficult=frozenset({(2, 1)}))
    assert g.step_cost((1, 1), 0) == 2
    assert g.step_cost((1, 1), 0, factor=2) == 4
    assert g.step_cost((1, 1), 2) == 1
    assert g.step_cost((2, 1), 0) == 1  # leaving difficult ground costs nothing extra
    # a 2 x 2 at (0, 0) moving east enters (2, 0) and (2, 1): one difficult cell is enough
    assert g.step_cost((0, 0), 0, size=2) == 2
    # moving north it enters (0, 2) and (1, 2): plain ground
    assert g.step_cost((0, 0), 2, size=2) == 1
    # a 2 x 2 at (1, 0) already covering (2, 1) pays nothing to move north (enters (1..2, 2))
    assert g.step_cost((1, 0), 2, size=2) == 1


def test_reachable_costs_with_difficult_ground_walls_and_occupants():
    g = SquareGrid(5, 1, walls=frozenset(), difficult=frozenset({(2, 0)}))
    assert g.reachable((0, 0), 3) == {(0, 0): 0, (1, 0): 1, (2, 0): 3}
    assert g.reachable((0, 0), 4) == {(0, 0): 0, (1, 0): 1, (2, 0): 3, (3, 0): 4}
    assert g.reachable((0, 0), 4, factor=2) == {(0, 0): 0, (1, 0): 2}
    # an ally on (1, 0) may be crossed, not stopped on; an enemy may not be crossed
    assert g.reachable((0, 0), 4, occupied={(1, 0)}) == {(0, 0): 0, (2, 0): 3, (3, 0): 4}
    assert g.reachable((0, 0), 4, blocked={(1, 0)}) == {(0, 0): 0}


def test_reachable_for_a_large_creature_around_a_wall():
    g = SquareGrid(4, 4, walls=frozenset({(1, 2)}))
    # a 2 x 2 block fits at the anchors in 0..2 x 0..2 whose block misses (1, 2): not (0, 1),
    # (1, 1), (0, 2) or (1, 2); so it goes round by the east
    assert g.reachable((0, 0), 2, size=2) == {(0, 0): 0, (1, 0): 1, (2, 0): 2, (2, 1): 2}
    assert g.reachable((0, 0), 3, size=2) == {(0, 0): 0, (1, 0): 1, (2, 0): 2, (2, 1): 2,
                                              (2, 2): 3}


def test_supercover_touches_every_cell_and_both_sides_of_a_corner():
    assert supercover((0, 0), (0, 0)) == [(0, 0)]
    assert supercover((0, 0), (3, 0)) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert supercover((2, 2), (0, 0)) == [(2, 2), (1, 2), (2, 1), (1, 1), (0, 1), (1, 0), (0, 0)]
    assert supercover((0, 0), (1, 2)) == [(0, 0), (0, 1), (1, 1), (1, 2)]


def test_line_of_sight_walls_block_creatures_do_not():
    """Sizebound §3.2: any clear centre-to-centre line; a wall beside a corner blocks that line."""
    g = SquareGrid(5, 5, walls=frozenset({(2, 2)}))
    assert not g.line_of_sight((0, 2), 1, (4, 2))
    assert g.line_of_sight((0, 1), 1, (4, 1))
    assert not g.line_of_sight((1, 1), 1, (3, 3))  # through the wall cell
    corner = SquareGrid(3, 3, walls=frozenset({(1, 0)}))
    assert not corner.line_of_sight((0, 0), 1, (1, 1))  # the wall is beside the corner crossed
    assert corner.line_of_sight((0, 0), 1, (0, 2))
    # footprints: any cell of the viewer to any cell of the target (walls at (2, 1) and (2, 2))
    big = SquareGrid(5, 5, walls=frozenset({(2, 2), (2, 1)}))
    assert not big.line_of_sight((0, 1), 1, (4, 0))  # (0, 1) -> (4, 0) touches (2, 1)
    assert big.line_of_sight((0, 0), 2, (4, 0))  # the 2 x 2 also covers (1, 0): row 0 is clear
    assert not big.line_of_sight((0, 3), 1, (4, 2))  # touches (2, 2)
    assert big.line_of_sight((0, 3), 1, (3, 2), 2)  # the 2 x 2 target covers (3, 3): row 3 is clear
    assert SquareGrid(4, 4).line_of_sight((0, 0), 1, (3, 3))  # Metaforce CORE: no walls, full sight


def test_to_dict_round_trip():
    g = SquareGrid(6, 4, walls=frozenset({(1, 1), (2, 3)}), difficult=frozenset({(0, 0)}))
    d = g.to_dict()
    assert d == {"width": 6, "height": 4, "walls": [[1, 1], [2, 3]], "difficult": [[0, 0]],
                 "difficult_factor": 2}
    assert SquareGrid.from_dict(d) == g


def _reference_reachable(g, start, budget, size, blocked, occupied, factor):
    """Relax every step (``SquareGrid.steps``) until nothing improves: the plain definition."""
    best = {start: 0}
    changed = True
    while changed:
        changed = False
        for a, c in list(best.items()):
            for _, n, cost in g.steps(a, size, blocked, factor):
                if c + cost <= budget and c + cost < best.get(n, budget + 1):
                    best[n] = c + cost
                    changed = True
    return {a: c for a, c in best.items()
            if a == start or not any(x in occupied for x in footprint(a, size))}


@pytest.mark.parametrize("seed", range(12))
def test_reachable_matches_the_step_by_step_definition_and_line_of_sight_the_brute_force(seed):
    import random

    rnd = random.Random(seed)
    w, h = rnd.randint(3, 9), rnd.randint(3, 9)
    cells = [(x, y) for x in range(w) for y in range(h)]
    walls = frozenset(rnd.sample(cells, k=len(cells) // 6))
    rough = frozenset(rnd.sample(cells, k=len(cells) // 4)) - walls
    g = SquareGrid(w, h, walls=walls, difficult=rough)
    size = rnd.choice([1, 1, 2, 3])
    starts = [c for c in cells if g.fits(c, size)] or [c for c in cells if g.fits(c, 1)]
    size = size if g.fits(starts[0], size) else 1
    assert starts  # every seed here has room for the creature
    start = rnd.choice(starts)
    others = set(cells) - set(footprint(start, size))
    blocked = set(rnd.sample(sorted(others), k=2))
    occupied = set(rnd.sample(sorted(others - blocked), k=2))
    factor = rnd.choice([1, 2])
    assert g.reachable(start, 7, size, blocked, occupied, factor) == _reference_reachable(
        g, start, 7, size, blocked, occupied, factor)
    for _ in range(10):
        a, b = rnd.choice(cells), rnd.choice(cells)
        sa, sb = rnd.choice([1, 2]), rnd.choice([1, 2])
        brute = any(not any(c in walls for c in supercover(p, q))
                    for p in footprint(a, sa) for q in footprint(b, sb))
        assert g.line_of_sight(a, sa, b, sb) == brute
