"""Metaforce battlefield (spec §3.2, §13.3, R-26, R-27, R-30): distances in feet between N x N
footprints, range bands, stopping places, the default deployment along opposite edges, and the
six encounter presets of §13.3."""

from __future__ import annotations

import pytest

from envs.core.squaregrid import SquareGrid
from envs.metaforce.rules import geometry as G
from envs.metaforce.rules.catalogue import encounters


def test_distance_is_closest_squares_chebyshev_times_five():
    assert G.distance_ft((0, 0), 1, (1, 1), 1) == 5  # a diagonal costs 5 ft
    assert G.distance_ft((0, 0), 1, (3, 7), 1) == 35
    assert G.distance_ft((0, 8), 1, (16, 8), 4) == 80  # the giant's nearest square
    assert G.distance_ft((4, 4), 1, (0, 0), 4) == 5  # adjacent to a 4 x 4 block's corner
    assert G.distance_ft((1, 1), 1, (0, 0), 4) == 0  # inside it


@pytest.mark.parametrize("dist, steps", [(0, 0), (5, 0), (60, 0), (61, -1), (120, -1),
                                         (121, -2), (180, -2), (181, None), (500, None)])
def test_range_bands_r30(dist, steps):
    assert G.range_steps(dist, 60) == steps


def test_range_bands_other_limits_and_bad_increment():
    assert G.range_steps(200, 60, max_increments=4) == -3
    with pytest.raises(ValueError, match="a range increment is at least 1 ft, got 0"):
        G.range_steps(10, 0)


def test_stop_ok_refuses_any_occupied_square_and_the_edge():
    others = [((5, 5), 1), ((10, 0), 2)]
    assert G.stop_ok(16, 16, (4, 4), 1, others)
    assert not G.stop_ok(16, 16, (5, 5), 1, others)  # ally or enemy: no ending there
    assert not G.stop_ok(16, 16, (4, 4), 2, others)  # a 2 x 2 block reaches (5, 5)
    assert not G.stop_ok(16, 16, (11, 1), 1, others)  # inside the 2 x 2 one
    assert not G.stop_ok(16, 16, (15, 15), 2, others)  # off the map
    assert G.stop_ok(16, 16, (14, 14), 2, others)


def test_paths_cross_allies_not_enemies_on_the_shared_grid():
    # §3.2 through envs.core.squaregrid: allies are ``occupied`` (crossed), enemies ``blocked``
    grid = SquareGrid(5, 1)
    ally_between = grid.reachable((0, 0), 4, occupied=[(1, 0)])
    enemy_between = grid.reachable((0, 0), 4, blocked=[(1, 0)])
    assert (2, 0) in ally_between and (1, 0) not in ally_between
    assert set(enemy_between) == {(0, 0)}


def test_placement_problem_reports_the_first_bad_member():
    assert G.placement_problem(8, 8, [("a", (0, 0), 2), ("b", (2, 2), 1)]) is None
    assert G.placement_problem(8, 8, [("a", (0, 0), 2), ("b", (1, 1), 1)]) == (
        "b", "shares a square with a (§3.2)")
    assert G.placement_problem(8, 8, [("a", (7, 0), 2)]) == (
        "a", "a 2 x 2 combatant at [7, 0] does not fit on the 8 x 8 map")


def test_default_deployment_two_teams_on_opposite_edges():
    out = G.default_deployment(16, 16, [[1, 1, 1], [1, 4]])
    assert out == [[(0, 6), (0, 7), (0, 8)], [(15, 5), (12, 6)]]
    assert G.default_deployment(12, 12, [[1], [1]]) == [[(0, 5)], [(11, 5)]]


def test_default_deployment_wraps_rows_and_uses_four_edges():
    out = G.default_deployment(20, 3, [[1, 1, 1, 1, 1], [1]], min_gap_ft=30)
    assert out == [[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)], [(19, 1)]]
    four = G.default_deployment(20, 20, [[1], [1], [1], [1]], min_gap_ft=30)
    assert four == [[(0, 9)], [(19, 9)], [(9, 0)], [(9, 19)]]


@pytest.mark.parametrize("w, h, teams, gap, msg", [
    (6, 6, [[1], [1]], 30, "on a 6 x 6 map the west and east teams start 25 ft apart, less "
                           "than 30 ft"),
    (8, 3, [[4], [1]], 0, "the west team does not fit on the 8 x 3 map"),
    (3, 3, [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1]], 0, "the teams do not fit"),
    (16, 16, [[1]], 30, "default deployment places 2 to 4 teams, got 1"),
])
def test_default_deployment_errors(w, h, teams, gap, msg):
    with pytest.raises(ValueError, match=msg):
        G.default_deployment(w, h, teams, gap)


# spec §13.3: teams, grid, start distance, initiative mode
PRESETS = {
    "duel_fighter_brawler": ({"a": ["fighter"], "b": ["odonghe_brawler"]}, (12, 12), 30,
                             "direct"),
    "detective_vs_bandits": ({"a": ["detective"], "b": ["bandit", "bandit_2"]}, (16, 16), 40,
                             "direct"),
    "skirmish_2v2": ({"a": ["fighter", "wizard"], "b": ["bandit", "wolf"]}, (16, 16), 30,
                     "direct"),
    "party_3v3": ({"a": ["fighter", "wizard", "detective"], "b": ["bandit", "bandit_2", "wolf"]},
                  (16, 16), 30, "alternating"),
    "giant_boss": ({"a": ["fighter", "wizard", "detective", "odonghe_brawler"],
                    "b": ["hill_giant"]}, (20, 20), 40, "direct"),
    "golem_puzzle": ({"a": ["fighter", "wizard", "detective", "odonghe_brawler"],
                      "b": ["stone_golem"]}, (16, 16), 30, "direct"),
}


@pytest.mark.parametrize("eid", list(PRESETS))
def test_13_3_presets(eid):
    teams, grid, gap, mode = PRESETS[eid]
    e = encounters()[eid]
    assert {t: [m.name for m in e.team(t)] for t in e.teams} == teams
    assert (e.width, e.height, e.min_start_distance_ft, e.initiative_mode) == (*grid, gap, mode)
    assert G.placement_problem(e.width, e.height, [
        (m.name, m.anchor, m.block.derived.space_squares) for m in e.members]) is None
    a, b = (e.team(t) for t in e.teams)
    assert all(x.anchor[0] == 0 for x in a)  # west edge
    assert all(y.anchor[0] + y.block.derived.space_squares == e.width for y in b)  # east edge
    assert min(G.distance_ft(x.anchor, x.block.derived.space_squares, y.anchor,
                             y.block.derived.space_squares) for x in a for y in b) >= gap
    assert all(m.block.id == m.name.removesuffix("_2") for m in e.members)


def test_giant_boss_positions():
    e = encounters()["giant_boss"]
    giant = e.team("b")[0]
    assert (giant.anchor, giant.block.derived.space_squares) == ((16, 8), 4)
    assert [m.anchor for m in e.team("a")] == [(0, 8), (0, 9), (0, 10), (0, 11)]
