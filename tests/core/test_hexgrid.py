"""Hex geometry (envs/core/hexgrid.py): distances, directions, rings, lines, maps with terrain."""

from __future__ import annotations

import doctest

import pytest

from envs.core import hexgrid
from envs.core.hexgrid import (
    DIRECTIONS,
    HexMap,
    Terrain,
    direction_to,
    disk,
    distance,
    line,
    neighbor,
    neighbors,
    ring,
)


def test_doctests():
    assert doctest.testmod(hexgrid).failed == 0


def test_distance_is_a_metric_and_matches_the_axial_formula():
    pts = disk((0, 0), 3)
    for a in pts:
        for b in pts:
            dq, dr = a[0] - b[0], a[1] - b[1]
            assert distance(a, b) == (abs(dq) + abs(dr) + abs(dq + dr)) // 2 == distance(b, a)
    assert all(distance((0, 0), n) == 1 for n in neighbors((0, 0)))


def test_directions_are_clockwise_from_east_and_opposites_cancel():
    assert DIRECTIONS[0] == (1, 0) and len(set(DIRECTIONS)) == 6
    for d in range(6):
        assert neighbor(neighbor((2, -1), d), (d + 3) % 6) == (2, -1)
        assert direction_to((2, -1), neighbor((2, -1), d)) == d
    assert direction_to((0, 0), (3, 0)) == 0 and direction_to((0, 0), (0, -3)) == 4


@pytest.mark.parametrize("radius", [0, 1, 2, 5, 7])
def test_rings_and_disks_have_the_right_sizes(radius):
    r = ring((1, 1), radius)
    assert len(r) == max(1, 6 * radius) and len(set(r)) == len(r)
    assert all(distance((1, 1), h) == radius for h in r)
    assert len(disk((1, 1), radius)) == 3 * radius * (radius + 1) + 1


def test_lines_are_connected_and_as_long_as_the_distance():
    for b in disk((0, 0), 4):
        ln = line((0, 0), b)
        assert ln[0] == (0, 0) and ln[-1] == b and len(ln) == distance((0, 0), b) + 1
        assert all(distance(x, y) == 1 for x, y in zip(ln, ln[1:], strict=False))


def test_maps_bounds_walls_and_reach():
    m = HexMap.hexagon(
        7, {(1, 0): Terrain(wall=True), (0, 2): Terrain(height_m=3.0), (2, 2): Terrain(water=True)}
    )
    assert len(m) == 169 and (7, 0) in m and (8, 0) not in m
    assert not m.passable((1, 0)) and m.passable((0, 1)) and not m.passable((8, 0))
    assert m.at((0, 2)).height_m == 3.0 and m.at((2, 2)).water and m.at((3, 3)) == Terrain()
    reach = m.reachable((0, 0), 2, blocked=[(0, 1)])
    assert (1, 0) not in reach and (0, 1) not in reach
    assert reach[(2, -1)] == 2 and reach[(-1, 0)] == 1
    # 2 points a hex (e.g. moving on the ground)
    assert m.reachable((0, 0), 4, cost=2)[(2, -1)] == 4
    assert HexMap.from_dict(m.to_dict()) == m
    assert len(HexMap.rhombus(11, 11)) == 121
