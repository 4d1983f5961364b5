"""Sizebound grid rules (spec §3.2, §3.3, §5.0.5, R-27 to R-29, R-65): covered cells, distance
and adjacency between footprints, the steps of an N x N creature, cell capacity, line of sight and
reach/range, each with exact expected cells and costs."""

from __future__ import annotations

from fractions import Fraction

import pytest

from envs.core.squaregrid import SquareGrid
from envs.sizebound.rules import geometry as G
from envs.sizebound.rules.catalogue import catalogue
from envs.sizebound.rules.content import size

E, NE, N, NW, W, SW, S, SE = range(8)


def body(bid: str, side: str, at: tuple[int, int], sz: str) -> G.Body:
    return G.Body.of(bid, side, at, size(sz))


def test_covered_cells():
    assert G.covered((3, 4), size("Medium")) == [(3, 4)]
    assert G.covered((0, 0), size("Miniscule")) == [(0, 0)]
    assert G.covered((11, 8), size("Huge")) == [(11, 8), (11, 9), (12, 8), (12, 9)]
    assert G.covered((1, 1), size("Massive")) == [(x, y) for x in (1, 2, 3) for y in (1, 2, 3)]
    assert len(G.covered((0, 0), size("Colossal"))) == 16
    assert len(G.covered((0, 0), size("Megalithic"))) == 36
    assert body("g", "B", (11, 8), "Huge").cells == G.covered((11, 8), 2)


def test_footprint_numbers():
    assert [G.block_side(size(s)) for s in ("Tiny", "Stocky", "Large", "Megalithic")] == [
        1, 1, 1, 6]
    assert G.share(0.2) == Fraction(1, 5) and G.share(size("Large")) == 1 and G.share(4) == 1
    assert G.Body("t", "A", (0, 0), 0.2).footprint == Fraction(1, 5)
    with pytest.raises(ValueError, match="a footprint is a fraction below 1 or a whole N"):
        G.block_side(1.5)


def test_distance_and_adjacency():
    giant = body("giant", "B", (11, 8), "Huge")  # 11..12, 8..9
    assert G.distance(giant, body("d", "A", (3, 10), "Medium")) == 8
    corner = body("c", "A", (13, 10), "Medium")
    assert G.distance(giant, corner) == 1 and G.adjacent(giant, corner)
    two_off = body("f", "A", (14, 8), "Medium")
    assert G.distance(giant, two_off) == 2 and not G.adjacent(giant, two_off)
    a, b = body("a", "A", (2, 6), "Medium"), body("b", "A", (2, 6), "Medium")
    assert G.distance(a, b) == 0 and G.adjacent(a, b)  # sharing a space
    bear1, bear2 = body("x", "A", (0, 0), "Large"), body("y", "B", (2, 0), "Large")
    assert G.distance(bear1, bear2) == 2
    assert G.within_reach(bear1, bear2, 2) and not G.within_reach(bear1, bear2, 1)


def test_a_2x2_giant_steps_past_a_wall():
    grid = SquareGrid(8, 8, walls=frozenset({(5, 5)}))
    giant = body("giant", "B", (3, 4), "Huge")  # 3..4, 4..5
    got = [(s.direction, s.anchor, s.cost, s.stop_ok) for s in G.steps(grid, giant, [])]
    assert got == [(N, (3, 5), 1, True), (NW, (2, 5), 1, True), (W, (2, 4), 1, True),
                   (SW, (2, 3), 1, True), (S, (3, 3), 1, True), (SE, (4, 3), 1, True)]
    assert G.step(grid, giant, E, []) is None and G.step(grid, giant, NE, []) is None
    # at the map's corner only west and south stay on the map; south-west is the wall
    corner = giant.at((6, 6))
    assert [(s.direction, s.anchor) for s in G.steps(grid, corner, [])] == [
        (W, (5, 6)), (S, (6, 5))]


def test_step_costs_difficult_and_prone():
    grid = SquareGrid(8, 8, walls=frozenset({(5, 5)}), difficult=frozenset({(4, 6)}))
    giant = body("giant", "B", (3, 4), "Huge")
    costs = {s.direction: s.cost for s in G.steps(grid, giant, [])}
    assert costs == {N: 2, NW: 1, W: 1, SW: 1, S: 1, SE: 1}  # N enters (4, 6)
    prone = {s.direction: s.cost for s in G.steps(grid, giant, [], prone=True)}
    assert prone == {N: 4, NW: 2, W: 2, SW: 2, S: 2, SE: 2}  # R-27, §5.0.5: both apply


def test_hostile_cells_block_and_allied_cells_are_crossed():
    grid = SquareGrid(5, 5)
    hero = body("hero", "A", (1, 1), "Medium")
    foe = body("foe", "B", (2, 1), "Medium")
    friend = body("friend", "A", (1, 2), "Medium")
    big_friend = body("bear", "A", (0, 1), "Large")
    others = [hero, foe, friend, big_friend]
    assert G.step(grid, hero, E, others) is None
    assert G.step(grid, hero, N, others) == G.Step(N, (1, 2), 1, True)  # 0.5 + 0.5
    assert G.step(grid, hero, W, others) == G.Step(W, (0, 1), 1, False)  # crossed only
    assert G.can_enter(grid, hero, (0, 1), others) and not G.can_enter(grid, hero, (2, 1), others)
    assert not G.can_enter(grid, hero, (5, 1), others)
    # a Miniscule hostile still makes its space hostile
    mouse = body("mouse", "B", (1, 0), "Miniscule")
    assert G.step(grid, hero, S, [mouse]) is None


def test_cell_capacity():
    grid = SquareGrid(4, 4)
    at = (1, 1)
    mediums = [body(f"m{i}", "A", at, "Medium") for i in range(2)]
    assert not G.can_stop(grid, body("m9", "A", (0, 0), "Medium"), at, mediums)
    assert G.can_stop(grid, body("m9", "A", (0, 0), "Medium"), at, mediums[:1])
    tiny = [body(f"t{i}", "A", at, "Tiny") for i in range(5)]
    mover = body("t9", "A", (0, 0), "Tiny")
    assert G.can_stop(grid, mover, at, tiny[:4]) and not G.can_stop(grid, mover, at, tiny)
    assert G.can_stop(grid, body("bug", "A", (0, 0), "Miniscule"), at, mediums)  # 1.0 + 0
    large = body("bear", "A", (0, 0), "Large")
    bug = body("bug", "A", at, "Miniscule")
    assert not G.can_stop(grid, large, at, [bug])  # N x N blocks share nothing
    assert not G.can_stop(grid, mover, at, [large.at(at)])  # never stop in a Large's cell
    assert not G.can_stop(grid, mover, at, [body("foe", "B", at, "Tiny")])  # only allies
    assert G.can_stop(grid, large, (0, 0), [large])  # its own cells do not count


def test_placement_problems():
    grid = SquareGrid(6, 6, walls=frozenset({(0, 5)}))
    ok = [body("a", "A", (0, 0), "Medium"), body("b", "A", (0, 0), "Medium"),
          body("g", "B", (3, 3), "Huge")]
    assert G.placement_problem(grid, ok) is None
    assert G.placement_problem(grid, [body("g", "B", (5, 0), "Huge")]) == (
        "g", "cell [6, 0] of its 2 x 2 footprint at [5, 0] is off the 6 x 6 map")
    assert G.placement_problem(grid, [body("m", "A", (0, 5), "Small")]) == (
        "m", "it stands on the wall cell [0, 5]")
    mixed = [body("t", "A", (2, 2), "Tiny"), body("u", "B", (2, 2), "Tiny")]
    assert G.placement_problem(grid, mixed) == (
        "t", "cell [2, 2] is shared with u: only allies whose fractional footprints total "
        "<= 1.0 share a cell (R-29)")
    over = [body("g", "B", (3, 3), "Huge"), body("h", "B", (4, 4), "Medium")]
    assert G.placement_problem(grid, over)[0] == "g"


def test_reachable_crosses_allies_but_not_hostiles():
    grid = SquareGrid(3, 1)
    bear = body("bear", "A", (0, 0), "Large")
    ally, foe = body("ally", "A", (1, 0), "Medium"), body("foe", "B", (1, 0), "Medium")
    assert G.reachable(grid, bear, 2, [bear, ally]) == {(0, 0): 0, (2, 0): 2}
    assert G.reachable(grid, bear, 2, [bear, foe]) == {(0, 0): 0}
    hero = body("hero", "A", (0, 0), "Medium")
    assert G.reachable(grid, hero, 2, [ally]) == {(0, 0): 0, (1, 0): 1, (2, 0): 2}
    assert G.reachable(grid, hero, 2, [ally.at((1, 0)), body("x", "A", (1, 0), "Small")]) == {
        (0, 0): 0, (2, 0): 2}  # the cell is full (0.5 + 0.5)
    assert G.reachable(grid, hero, 3, [], prone=True) == {(0, 0): 0, (1, 0): 2}


def test_line_of_sight():
    grid = SquareGrid(10, 10, walls=frozenset((5, y) for y in range(5)))  # wall x=5, y 0..4
    target = body("t", "B", (6, 4), "Huge")  # 6..7, 4..5
    assert not G.line_of_sight(grid, body("m", "A", (4, 4), "Medium"), target)
    assert G.line_of_sight(grid, body("m", "A", (4, 5), "Medium"), target)  # row 5 is open
    small = body("s", "B", (6, 4), "Medium")
    assert not G.line_of_sight(grid, body("m", "A", (4, 4), "Medium"), small)
    # a Huge viewer sees from any of its cells: (4, 5) -> (6, 5) is clear
    assert G.line_of_sight(grid, body("g", "A", (3, 4), "Huge"), target)
    # creatures never block sight
    a, b = body("a", "A", (2, 7), "Medium"), body("b", "A", (8, 7), "Medium")
    assert G.line_of_sight(grid, a, b)
    assert G.in_range(grid, a, b, 6) and not G.in_range(grid, a, b, 5)
    assert not G.in_range(grid, body("m", "A", (4, 4), "Medium"), small, 2)


def test_attack_modes_by_reach_and_range():
    grid = SquareGrid(20, 20, walls=frozenset({(5, 1)}))
    w = catalogue().weapons
    me = body("me", "A", (2, 2), "Medium")
    at = {d: body(f"t{d}", "B", (2 + d, 2), "Medium") for d in (1, 2, 3, 4, 5, 12, 13)}
    assert G.attack_mode(grid, me, at[1], w["dagger"]) == "melee"
    assert G.attack_mode(grid, me, at[3], w["dagger"]) == "thrown"
    assert G.attack_mode(grid, me, at[5], w["dagger"]) is None
    assert G.attack_mode(grid, me, at[2], w["spear"]) == "melee"  # reach 2
    assert G.attack_mode(grid, me, at[2], w["sword"]) is None
    assert G.attack_mode(grid, me, at[12], w["shortbow"]) == "ranged"
    assert G.attack_mode(grid, me, at[13], w["shortbow"]) is None
    assert G.attack_mode(grid, me, at[1], w["shortbow"]) == "ranged"  # no adjacency penalty
    behind = body("b", "B", (8, 0), "Medium")  # the line (2,2)->(8,0) touches the wall (5, 1)
    assert not G.line_of_sight(grid, me, behind)
    assert G.attack_mode(grid, me, behind, w["longbow"]) is None
    assert G.attack_mode(grid, me, behind, w["spear"]) is None
