"""Sizebound FULL geometry and motion (spec §8.7, R-42; §2.1, R-80; §3.2 FULL; §5.2.17,
§5.2.18; §8.8, R-47, R-79; §1.3 weather) with forced dice."""

from __future__ import annotations

from test_sizebound_rules import do, labels, texts

from envs.core.squaregrid import SquareGrid
from envs.sizebound.rules import from_situation
from envs.sizebound.rules.full_geometry import cone_cells, line_cells, placed_aoe, self_aoe

FULL_QUIET = {"version": "full", "exertion_control": "off"}
CORE_QUIET = {"version": "core", "exertion_control": "off"}
E, NE, N = 0, 1, 2  # squaregrid.DIRECTIONS indexes

COLOSSUS = {"name": "Colossus", "size": "Colossal", "level": 1,
            "totals": {"might": 15, "skill": 12, "magic": 10},
            "scaling_improvements": {"hp": 0, "mana": 0}, "armour": "none",
            "wielded": {}, "skills": [], "exertion_pool": "player"}


def sit(rows, options=FULL_QUIET, **top):
    return from_situation({"system": "sizebound", "options": options, "combatants": rows,
                           "side_order": ["A", "B"], **top}, "case.yaml")


# ---------------------------------------------------------------- areas (spec §8.7, R-42)
def test_we18_lines():
    g = SquareGrid(20, 20)
    assert line_cells(g, (5, 5), 1, E, 6) == {(x, 5) for x in range(6, 12)}
    wide = line_cells(g, (5, 5), 1, E, 6, 3)
    assert wide == {(x, y) for x in range(6, 12) for y in range(4, 7)} and len(wide) == 18
    # an even width puts the extra cell to the left of the direction (north of an east line)
    assert line_cells(g, (5, 5), 1, E, 2, 2) == {(6, 5), (7, 5), (6, 6), (7, 6)}


def test_cones_orthogonal_and_diagonal():
    g = SquareGrid(20, 20)
    assert cone_cells(g, (5, 5), 1, N, 2) == {(4, 6), (5, 6), (6, 6), (3, 7), (4, 7), (5, 7),
                                               (6, 7), (7, 7)}
    assert cone_cells(g, (5, 5), 1, NE, 1) == {(6, 5), (5, 6), (6, 6)}
    # a 2 x 2 source facing east leaves from the middle of its east edge, (6, 5)
    assert cone_cells(g, (5, 5), 2, E, 1) == {(7, 4), (7, 5), (7, 6)}


def test_placed_and_self_centred_aoe_and_walls():
    g = SquareGrid(20, 20)
    assert placed_aoe(g, (5, 5), 2) == {(5, 5), (6, 5), (5, 6), (6, 6)}
    assert placed_aoe(g, (5, 5), 3) == {(x, y) for x in (4, 5, 6) for y in (4, 5, 6)}
    assert len(self_aoe(g, (5, 5), 2, 1)) == 16  # a 2 x 2 core and a ring of 1
    walled = SquareGrid(20, 20, walls=frozenset({(7, 4), (7, 5), (7, 6)}))
    assert line_cells(walled, (5, 5), 1, E, 4) == {(6, 5)}  # cells behind the wall drop out


# ---------------------------------------------------------------- prone burst (§2.1, R-80)
def _trip_colossus(options):
    return sit([{"id": "knight", "side": "A", "stats": "knight", "at": [2, 5]},
                {"id": "squire", "side": "A", "stats": "knight", "at": [8, 6],
                 "state": {"conditions": ["deafened"]}},
                {"id": "colossus", "side": "B", "stats": COLOSSUS, "at": [3, 4]},
                {"id": "imp", "side": "B", "stats": "goblin", "at": [5, 8]}],
               options=options, map={"w": 16, "h": 16}, actor="knight")


def test_we24_colossal_prone_burst_hits_others_not_itself():
    enc = _trip_colossus(FULL_QUIET)
    before = {c: enc.by_id[c].hp for c in enc.by_id}
    ev = texts(do(enc, "knight: trip atk -> colossus", [20, 1, 2, 2, 2, 2, 3]))
    assert "colossus falls prone" in ev
    assert enc.by_id["colossus"].hp == before["colossus"] - 8  # 4d6 Fall = 8
    # 1d6 + Total Might 15 = 18 Sonic to the knight and the imp (an ally of the colossus);
    # the deafened squire is immune
    assert enc.by_id["knight"].hp == before["knight"] - 18
    assert enc.by_id["imp"].hp == before["imp"] - 18
    assert enc.by_id["squire"].hp == before["squire"]


def test_prone_burst_is_off_in_core():
    enc = _trip_colossus(CORE_QUIET)
    before = enc.by_id["knight"].hp
    do(enc, "knight: trip atk -> colossus", [20, 1, 2, 2, 2, 2])
    assert enc.by_id["knight"].hp == before


# ---------------------------------------------------------------- heights and speeds (§3.2)
BARE = {"name": "Bare", "size": "Medium", "level": 1,
        "totals": {"might": 12, "skill": 15, "magic": 10},
        "scaling_improvements": {"hp": 0, "mana": 0}, "armour": "none",
        "wielded": {}, "skills": [], "exertion_pool": "player"}


def _flyer(options=FULL_QUIET, z=0, **top):
    return sit([{"id": "harpy", "side": "A", "stats": BARE, "at": [5, 5],
                 "state": {"speeds": {"fly": 6}, "z": z}},
                {"id": "goblin", "side": "B", "stats": "goblin", "at": [6, 5]}],
               options=options, map={"w": 12, "h": 12}, actor="harpy", **top)


def test_rise_and_descend_change_height_and_reach():
    enc = _flyer()
    assert "harpy: rise" in labels(enc) and "harpy: descend" not in labels(enc)
    assert "harpy: jab atk -> goblin" in labels(enc)
    do(enc, "harpy: rise")
    assert enc.view("harpy")["combatants"]["harpy"]["z"] == 1
    assert enc.by_id["harpy"].budget == 5  # a Move opened with Fly 6, one level spent
    assert "harpy: jab atk -> goblin" in labels(enc)  # 1 above a 1-tall goblin: adjacent
    do(enc, "harpy: rise")
    assert enc.view("goblin")["combatants"]["harpy"]["distance"] == 2
    assert "harpy: jab atk -> goblin" not in labels(enc)
    do(enc, "harpy: descend")
    assert enc.by_id["harpy"].z == 1


def test_flyer_move_uses_fly_speed_and_the_wind():
    enc = _flyer(z=3)
    do(enc, "harpy: step n")
    assert enc.by_id["harpy"].budget == 5  # Fly 6, one step
    enc = _flyer({"version": "full", "exertion_control": "off", "weather": "heavy_wind"}, z=3)
    do(enc, "harpy: step n")
    assert enc.by_id["harpy"].budget == 4  # Heavy Wind: Fly -1 (WE-37)
    enc = _flyer({"version": "full", "exertion_control": "off", "weather": "heavy_rain"}, z=3)
    do(enc, "harpy: step n")
    assert enc.by_id["harpy"].budget == 4  # aerial difficult terrain: a step costs 2


def test_we27_swim_from_walk():
    from envs.sizebound.rules.full_motion import speed
    enc = _flyer()
    assert speed(enc.by_id["goblin"], "swim") == enc.by_id["goblin"].profile.walk // 3
    assert speed(enc.by_id["harpy"], "fly") == 6 and speed(enc.by_id["harpy"], "leap") == 0


def test_raised_ground_blocks_sight_and_a_high_flyer_sees_over_it():
    rows = [{"id": "archer", "side": "A", "stats": "goblin", "at": [2, 5]},
            {"id": "harpy", "side": "B", "stats": BARE, "at": [8, 5],
             "state": {"speeds": {"fly": 6}}}]
    enc = sit(rows, map={"w": 12, "h": 12, "heights": [[5, 0, 5, 11, 3]]}, actor="archer")
    assert "archer: attack main -> harpy" not in labels(enc)
    rows[1]["state"] = {"speeds": {"fly": 6}, "z": 6}
    enc = sit(rows, map={"w": 12, "h": 12, "heights": [[5, 0, 5, 11, 3]]}, actor="archer")
    assert "archer: attack main -> harpy" in labels(enc)


def test_core_rejects_heights_and_z():
    import pytest

    from envs.core.data import DataError
    with pytest.raises(DataError, match=r"case.yaml: combatants\[0\].state: field 'z'"):
        sit([{"id": "a", "side": "A", "stats": BARE, "at": [1, 1], "state": {"z": 2}},
             {"id": "b", "side": "B", "stats": "goblin", "at": [8, 8]}], options=CORE_QUIET)


# ---------------------------------------------------------------- falling (§8.8, R-47, R-79)
def test_we23_fall_distances_and_landing_damage():
    enc = sit([{"id": "goblin", "side": "B", "stats": "goblin", "at": [5, 5],
                "state": {"z": 24}},
               {"id": "knight", "side": "A", "stats": "knight", "at": [1, 1]}],
              side_order=["B", "A"], actor="goblin")
    assert "falling" in enc.view("goblin")["combatants"]["goblin"]["conditions"]
    ev = texts(do(enc, "goblin: end_turn"))  # no action: both steps at the end, 4 + 4
    assert "goblin falls 4 (height 20, 4 fallen so far)" in ev
    assert enc.by_id["goblin"].z == 16
    do(enc, "knight: end_turn")
    assert "goblin: dive" in labels(enc)
    ev = texts(do(enc, "goblin: dive"))  # the Dive's 4, then 6 after the first action
    assert ev[-1] == "goblin falls 6 (height 6, 18 fallen so far)"
    hp = enc.by_id["goblin"].hp
    ev = texts(do(enc, "goblin: end_turn", [1] * 12))  # 6 more: 24 fallen, 12d6
    assert "goblin lands after falling 24 (12d6 Fall)" in ev
    assert enc.by_id["goblin"].hp == hp - 12 and enc.by_id["goblin"].z == 0
    assert "falling" not in enc.view("goblin")["combatants"]["goblin"]["conditions"]


def test_wall_cling_takes_the_fall_so_far_minimized():
    enc = sit([{"id": "climber", "side": "B", "stats": BARE, "at": [5, 5],
                "state": {"z": 12, "reactions": 2}},
               {"id": "knight", "side": "A", "stats": "knight", "at": [1, 1]}],
              side_order=["B", "A"], actor="climber", map={"w": 12, "h": 12,
                                                          "walls": [[6, 0, 6, 11]]})
    enc.by_id["climber"].fall_turn = 1
    enc.by_id["climber"].conds.add("falling", now=enc.clock, forever=True)
    do(enc, "climber: end_turn")
    assert enc.window is not None and enc.window.kind == "fall"
    assert "climber: wall_cling" in labels(enc) and "climber: drop_prone" in labels(enc)
    do(enc, "climber: pass")  # falls 4
    assert enc.by_id["climber"].z == 8
    hp = enc.by_id["climber"].hp
    nimble = enc.by_id["climber"].nimble
    ev = texts(do(enc, "climber: wall_cling", [20 - nimble]))
    assert "climber clings to the wall" in ev
    assert enc.by_id["climber"].hp == hp - 2  # 4 fallen: 2d6 minimized
    assert enc.by_id["climber"].z == 8 and enc.by_id["climber"].fall_turn == 0


def test_plain_words_for_the_motion_kinds():
    from envs.sizebound.rules.describe import describe
    enc = _flyer(z=2)
    assert describe(enc.parse_action("harpy: rise"), enc) == (
        "fly or levitate one level up (to height 3; 1 movement)")
    assert describe(enc.parse_action("harpy: descend"), enc) == (
        "fly or levitate one level down (to height 1)")


# ---------------------------------------------------------------- weather (§1.3, WE-37)
def test_we37_large_hail_at_the_end_of_a_turn():
    enc = _flyer({"version": "full", "exertion_control": "off", "weather": "large_hail"})
    hp = enc.by_id["harpy"].hp
    ev = texts(do(enc, "harpy: end_turn", [1, 3]))  # the start-of-turn hail, then the end's
    assert f"harpy takes 1 Bludgeoning -> {hp - 1} HP" in ev
    assert f"harpy takes 3 Bludgeoning -> {hp - 4} HP" in ev
    enc = _flyer()
    do(enc, "harpy: end_turn")
    assert enc.by_id["harpy"].hp == hp  # no weather, no hail


def test_we37_hail_still_falls_on_a_creature_that_can_only_end_its_turn():
    # spec §4.3 passes a member with nothing but END_TURN automatically; under Large Hail its
    # end of turn rolls dice, so the Paralyzed goblin gets the decision and both d4s hit it
    hail = {"version": "full", "exertion_control": "off", "weather": "large_hail"}
    enc = sit([{"id": "harpy", "side": "A", "stats": BARE, "at": [5, 5]},
               {"id": "goblin", "side": "B", "stats": "goblin", "at": [6, 5],
                "state": {"conditions": ["paralyzed"]}}],
              options=hail, map={"w": 12, "h": 12}, actor="harpy")
    do(enc, "harpy: end_turn", [1, 1])
    assert enc.current_actor() == "goblin" and labels(enc) == ["goblin: end_turn"]
    hp = enc.by_id["goblin"].hp
    ev = texts(do(enc, "goblin: end_turn", [2, 4]))
    assert f"goblin takes 2 Bludgeoning -> {hp - 2} HP" in ev
    assert f"goblin takes 4 Bludgeoning -> {hp - 6} HP" in ev


def test_we37_wind_storm_pushes_the_airborne_less_their_mr():
    storm = {"version": "full", "exertion_control": "off", "weather": "wind_storm"}
    enc = _flyer(storm, z=3)
    assert enc.by_id["harpy"].mr == 3
    do(enc, "harpy: end_turn")
    assert enc.by_id["harpy"].x == 5  # 3 spaces, all cancelled by MR 3
    enc = _flyer({**storm, "weather": "hurricane"}, z=3)
    enc.by_id["goblin"].y = 9  # out of the way east
    ev = texts(do(enc, "harpy: end_turn"))
    assert enc.by_id["harpy"].x == 7  # 5 spaces less MR 3
    assert "the wind pushes harpy 2 east to x 7" in ev
    enc = _flyer({**storm, "weather": "hurricane"})  # on the ground: not pushed
    enc.by_id["goblin"].y = 9
    do(enc, "harpy: end_turn")
    assert enc.by_id["harpy"].x == 5
