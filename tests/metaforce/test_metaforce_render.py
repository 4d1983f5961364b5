"""Metaforce's map picture (envs/metaforce/render.py through ``draw``): a picture of each preset,
the Hill Giant's 4 x 4 footprint in its side's colour, and the scene's marks."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core import SeededDice
from envs.metaforce import rules as R
from envs.metaforce.env import draw, raw_env
from envs.metaforce.render import SIDE_COLOURS, labels, scene
from envs.render import MapPainter, SquareGeometry


@pytest.mark.parametrize("name", R.encounter_names())
def test_a_picture_of_each_preset(name):
    enc = R.new_encounter(name, "core", SeededDice(0))
    img = draw(enc, name)
    painter = MapPainter.for_geometry(SquareGeometry(enc.grid))
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape == painter.draw(scene(enc, name)).shape
    side = SquareGeometry(enc.grid).side
    assert img.shape[1] >= enc.grid.width * side and img.shape[0] >= enc.grid.height * side


def _share(img, x: float, y: float, colour, r: int = 4) -> float:
    """The share of the pixels around ``(x, y)`` within 30 of ``colour``."""
    near = img[int(y) - r:int(y) + r + 1, int(x) - r:int(x) + r + 1].reshape(-1, 3)
    return float((np.abs(near.astype(int) - np.array(colour)).sum(axis=1) < 30).mean())


def test_the_giants_footprint_covers_its_4x4_squares_in_its_side_colour():
    enc = R.new_encounter("giant_boss", "core", SeededDice(0))
    giant = enc.by_id["hill_giant"]
    assert (giant.n, giant.pos) == (4, (16, 8))
    img = draw(enc)
    painter = MapPainter.for_geometry(SquareGeometry(enc.grid))
    side = SquareGeometry(enc.grid).side
    purple = np.array(SIDE_COLOURS[1])
    # the four inner squares of the block lie under the disc's middle, in the side's colour
    for cell in ((17, 9), (18, 9), (17, 10), (18, 10)):
        assert _share(img, *painter.centre(cell), purple) > 0.5, cell
    # and the disc spans the block: far wider than one square
    x0, _ = painter.centre((16, 8))
    x1, _ = painter.centre((19, 8))
    _, yc = painter.centre((16, 8), 4)
    row = img[int(yc)]
    hits = np.flatnonzero(np.abs(row.astype(int) - purple).sum(axis=1) < 30)
    assert hits.max() - hits.min() > 2 * side
    assert x0 <= hits.min() + side and hits.max() <= x1 + 1
    # a one-square hero's disc in blue on its square
    x, y = painter.centre(enc.by_id["fighter"].pos)
    assert _share(img, x, y, SIDE_COLOURS[0], 8) > 0.3
    assert _share(img, x + side, y, SIDE_COLOURS[0], 8) == 0.0  # the next square is bare


def test_the_scene_shows_size_health_reactions_and_statuses():
    enc = R.from_situation({
        "system": "metaforce", "encounter": "party_3v3", "options": "core",
        "combatants": [{"id": "detective", "at": [5, 5], "state": {"hp": 5, "reactions": 0}},
                       {"id": "wolf", "at": [5, 6]},
                       {"id": "bandit", "at": [5, 4],
                        "state": {"statuses": {"grappled": 3, "bleed": 2},
                                  "grappler": "detective"}}]})
    s = scene(enc, "test")
    tok = {t.key: t for t in s.tokens}
    assert tok["detective"].ring == (244, 166, 20) and tok["detective"].marks == "0"
    assert tok["bandit"].marks == "1GL" and tok["bandit"].span == 1
    assert [(k.a, k.b) for k in s.links] == [("detective", "bandit")]
    assert labels(enc)["bandit"] == "B1" and labels(enc)["bandit_2"] == "B2"
    assert s.title.startswith("test | Metaforce, round 1: ")
    golem = scene(R.new_encounter("golem_puzzle", "core", SeededDice(0)))
    assert {t.key: t.span for t in golem.tokens}["stone_golem"] == 2


def test_the_env_renders_rgb_frames():
    env = raw_env(encounter="duel_fighter_brawler", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.shape[2] == 3
