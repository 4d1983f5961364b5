"""Sizebound's map picture (envs/sizebound/render.py): one frame per encounter, its size fixed
per map, and every creature drawn at its size in its side's colour."""

from __future__ import annotations

import numpy as np
import pytest

from envs.render import MapPainter, SquareGeometry
from envs.sizebound import rules as R
from envs.sizebound.env import draw, raw_env
from envs.sizebound.render import SIDE_COLOURS, scene


def _painter(enc):
    return MapPainter.for_geometry(SquareGeometry(enc.grid))


@pytest.mark.parametrize("name", R.encounter_names())
def test_a_picture_of_each_encounter(name):
    enc = R.new_encounter(name)
    frame = draw(enc, name)
    p = _painter(enc)
    assert frame.shape == (p.height, p.width, 3) and frame.dtype == np.uint8
    tokens = {t.key: t for t in scene(enc).tokens}
    assert set(tokens) == {f.id for f in enc.fighters}
    spots = p.place(scene(enc).tokens)
    for f in enc.fighters:
        x, y, r = spots[f.id]
        side = [s.side for s in enc.sides()].index(f.side)
        assert tuple(frame[round(y - 0.8 * r), round(x)]) == SIDE_COLOURS[side], f.id


def test_the_giant_covers_its_2x2_block_in_its_side_colour():
    enc = R.new_encounter("giant_vs_four")
    frame = draw(enc)
    p = _painter(enc)
    giant = enc.by_id["hill_giant"]
    assert giant.n == 2 and scene(enc).tokens[-1].span == 2
    purple = SIDE_COLOURS[1]
    cx, cy = p.centre(giant.pos, 2)
    for cell in ((11, 8), (12, 8), (11, 9), (12, 9)):
        x, y = p.centre(cell)
        px, py = round(cx + 0.75 * (x - cx)), round(cy + 0.75 * (y - cy))
        assert tuple(frame[py, px]) == purple, cell  # inside each of its four cells
    x, y = p.centre((13, 8))
    assert tuple(frame[round(y), round(x)]) != purple  # the cell east of it is bare ground


def test_fractional_creatures_are_smaller_marks_in_their_cell():
    enc = R.new_encounter("skirmish_2v2")
    tokens = {t.key: t for t in scene(enc).tokens}
    assert tokens["war_dog"].scale < tokens["goblin"].scale < 1.0
    assert tokens["war_dog"].span == tokens["goblin"].span == 1


def test_the_env_renders_rgb_frames():
    e = raw_env(encounter="skirmish_2v2", render_mode="rgb_array")
    e.reset(seed=0)
    frame = e.render()
    assert isinstance(frame, np.ndarray) and frame.ndim == 3
