"""The scene drawer on every geometry (envs/render): a square-grid scene and a line scene drawn
with the same scene code as the hex map, checked by frame shape and colours at token centres."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.hexgrid import HexMap
from envs.core.squaregrid import SquareGrid
from envs.render import (
    CellMark,
    HexGeometry,
    HexPainter,
    LineGeometry,
    Link,
    MapPainter,
    Scene,
    SquareGeometry,
    Token,
)
from envs.render.style import GROUND, HIGHLIGHT, PALE, ROUGH, WALL, mix

RED, BLUE, GREEN = (200, 30, 30), (30, 60, 200), (40, 170, 60)


def at(frame: np.ndarray, xy: tuple[float, float]) -> tuple[int, int, int]:
    return tuple(frame[round(xy[1]), round(xy[0])].tolist())


def above(xy: tuple[float, float], r: float) -> tuple[float, float]:
    """A point inside a disc of radius ``r``, clear of its label."""
    return (xy[0], xy[1] - 0.6 * r)


def square_grid() -> SquareGrid:
    return SquareGrid(6, 4, walls=frozenset({(3, 1)}), difficult=frozenset({(0, 3)}))


def test_a_square_grid_scene_draws_ground_tokens_and_a_large_footprint():
    grid = square_grid()
    p = MapPainter(SquareGeometry(grid), coords=False, legend_lines=1)
    side = p.geometry.side  # type: ignore[attr-defined]
    ogre = Token("ogre", (4, 2), "Og", RED, span=2, ring=GREEN, highlight=True)
    scout = Token("scout", (0, 0), "Sc", BLUE, hollow=True)
    scene = Scene(tokens=[ogre, scout], links=[Link("ogre", "scout")],
                  marks=[CellMark((2, 0))], title="round 1", legend=[[(RED, "ogre")]])
    frame = p.draw(scene)
    # 6 x 4 cells of 63 px, 10 px margins, title and one legend line; the legend sets the width
    assert side == 63
    assert frame.shape == (p.height, p.width, 3) == (30 + 4 * 63 + 20 + 19 + 4, 560, 3)
    # ground: floor, wall, difficult; north is up (y = 3 is the top row)
    assert at(frame, p.centre((1, 1))) == GROUND
    wall = p.centre((3, 1))
    assert at(frame, (wall[0] + 0.3 * side, wall[1] + 0.3 * side)) == WALL  # between hatch lines
    assert at(frame, p.centre((0, 3))) == ROUGH
    assert p.centre((0, 3))[1] < p.centre((0, 0))[1] and p.centre((1, 0))[0] > p.centre((0, 0))[0]
    # the 2 x 2 ogre stands on (4, 2) and is drawn over (4..5, 2..3), twice the size
    spots = p.place(scene.tokens)
    ox, oy, orad = spots["ogre"]
    assert (ox, oy) == pytest.approx(((p.centre((4, 2))[0] + p.centre((5, 3))[0]) / 2,
                                      (p.centre((4, 2))[1] + p.centre((5, 3))[1]) / 2))
    assert orad == 2 * p.token_radius
    assert at(frame, above((ox, oy), orad)) == RED
    assert at(frame, (ox, oy - orad - 0.5 * p.ring_width * 2)) == GREEN  # the health ring
    # the highlight outlines the whole block: its edge lies half a block from the centre
    assert at(frame, (ox - side + 2, oy)) == HIGHLIGHT
    # the scout lies on the ground: a pale middle inside a ring of its colour
    sx, sy, sr = spots["scout"]
    assert at(frame, above((sx, sy), sr)) == PALE
    assert at(frame, (sx, sy - sr + 2)) == BLUE
    # the same drawing code as the hex map: the shared painter
    assert MapPainter.for_geometry(SquareGeometry(grid)) is MapPainter.for_geometry(
        SquareGeometry(square_grid()))


def test_a_line_scene_places_tokens_by_position_and_shares_a_position():
    line = LineGeometry(200, tick=10, unit_name="ft")
    p = MapPainter.for_geometry(line)
    tokens = [Token("a", (80, 0), "A", RED), Token("b", (120, 0), "B", BLUE),
              Token("c", (120, 0), "C", GREEN), Token("d", (85, 0), "D", BLUE)]
    frame = p.draw(Scene(tokens=tokens, title="second 1"))
    assert frame.shape == (p.height, p.width, 3) == (30 + 72 + 20 + 3 * 19 + 4, 21 * 72 + 20, 3)
    spots = p.place(tokens)
    # 40 ft apart at 7.2 px a foot; position 85 lies between two boxes
    assert p.centre((120, 0))[0] - p.centre((80, 0))[0] == pytest.approx(40 * 7.2)
    assert p.centre((85, 0))[0] - p.centre((80, 0))[0] == pytest.approx(5 * 7.2)
    assert at(frame, above(spots["a"][:2], spots["a"][2])) == RED
    assert at(frame, above(spots["d"][:2], spots["d"][2])) == BLUE
    # b and c share 120 ft: two smaller discs side by side
    assert spots["b"][:2] != spots["c"][:2] and spots["b"][2] < p.token_radius
    for key, colour in (("b", BLUE), ("c", GREEN)):
        x, y, r = spots[key]
        assert at(frame, above((x, y), r)) == colour
    # alternate boxes are shaded; the box at 10 ft is the lighter one
    x10, y10 = p.centre((10, 0))
    assert at(frame, (x10, y10 - 0.5 * p.size)) == mix(GROUND, (252, 251, 247), 0.5)
    assert at(frame, (p.centre((0, 0))[0], y10 - 0.5 * p.size)) == GROUND


def test_zones_in_a_row_are_named_boxes():
    zones = LineGeometry(2, names=["near", "middle", "far"])
    p = MapPainter(zones, legend_lines=0)
    frame = p.draw(Scene(tokens=[Token("hero", (2, 0), "He", BLUE)]))
    assert frame.shape == (30 + 72 + 20 + 4, 560, 3)
    x, y, r = p.place([Token("hero", (2, 0), "He", BLUE)])["hero"]
    assert (x, y) == p.centre((2, 0)) and at(frame, above((x, y), r)) == BLUE
    with pytest.raises(ValueError, match="tick >= 1"):
        LineGeometry(5, tick=0)


def test_the_hex_painter_is_the_map_painter_over_hex_geometry():
    hexmap = HexMap.hexagon(2)
    scene = Scene(tokens=[Token("a", (1, -1), "A", RED, marks="C")], title="hex")
    via_hex = HexPainter(hexmap).draw(scene)
    via_map = MapPainter(HexGeometry(hexmap)).draw(scene)
    assert np.array_equal(via_hex, via_map)
    assert Token("a", (1, -1), "A", RED).hex == (1, -1)  # the old field name still reads
