"""Sizebound FULL geometry and motion (spec §8.7, R-42; §2.1, R-80; §3.2 FULL; §5.2.17,
§5.2.18; §8.8, R-47, R-79; §1.3 weather) with forced dice."""

from __future__ import annotations

from test_sizebound_rules import do, texts

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
