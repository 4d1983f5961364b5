"""The shared hex map drawer (``envs.rl.hexrender``) and the env's ``renderer`` hook."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.hexgrid import HexMap, Terrain
from envs.rl.hexrender import GROUND, WALL, WATER, HexPainter, Link, Scene, Token, _mix

RED, GREEN = (200, 30, 30), (30, 160, 60)


def at(frame: np.ndarray, xy: tuple[float, float]) -> tuple[int, int, int]:
    return tuple(frame[round(xy[1]), round(xy[0])].tolist())


def small_map() -> HexMap:
    terrain = {
        (1, 0): Terrain(wall=True),
        (-1, 0): Terrain(water=True),
        (0, 1): Terrain(height_m=3.0),
    }
    return HexMap.hexagon(2, terrain)


def test_terrain_is_drawn_and_the_frame_size_is_fixed_by_the_map():
    p = HexPainter(small_map(), coords=False)
    frame = p.draw(Scene(title="terrain"))
    assert frame.shape == (p.height, p.width, 3) and frame.dtype == np.uint8
    assert at(frame, p.centre((0, 0))) == GROUND
    assert at(frame, p.centre((-1, 0))) == WATER
    wall = p.centre((1, 0))
    assert (
        at(frame, (wall[0] + 0.3 * p.size, wall[1] + 0.3 * p.size)) == WALL
    )  # between hatch lines
    assert at(frame, (p.centre((0, 1))[0], p.centre((0, 1))[1] - 0.3 * p.size)) == _mix(
        GROUND, (168, 146, 104), 0.5
    )  # 3 m of 6: half way to high ground
    busy = p.draw(Scene(tokens=[Token("a", (2, -2), "A", RED)], title="x" * 30))
    assert busy.shape == frame.shape
    assert HexPainter.for_map(small_map()) is HexPainter.for_map(small_map())


def test_tokens_links_and_shared_hexes():
    p = HexPainter(small_map(), coords=False)
    tokens = [
        Token("a", (0, 0), "A", RED),
        Token("b", (0, -1), "B", GREEN),
        Token("c", (0, -1), "C", RED),
    ]  # two of the same size share a hex
    frame = p.draw(Scene(tokens=tokens, links=[Link("a", "b", color=(0, 0, 255), marked="a")]))
    spots = p.place(tokens)
    assert at(frame, (spots["a"][0], spots["a"][1] - 0.6 * spots["a"][2])) == RED
    assert spots["b"][:2] != spots["c"][:2]
    for key in "bc":
        x, y, r = spots[key]
        assert at(frame, (x, y - 0.6 * r)) == (GREEN if key == "b" else RED)
    ax, ay, _ = spots["a"]
    bx, by, _ = spots["b"]
    assert at(frame, ((ax + bx) / 2, (ay + by) / 2)) == (0, 0, 255)


def test_the_renderer_hook_sets_the_render_modes():
    from envs.mano_a_mano.env import raw_env as mano_env
    from envs.metanoia.env import raw_env as metanoia_env

    class Pictured(metanoia_env):
        renderer = staticmethod(lambda enc, caption="": np.zeros((4, 6, 3), np.uint8))

    class Plain(mano_env):
        renderer = None

    assert Pictured.metadata["render_modes"] == ["ansi", "rgb_array"]
    assert metanoia_env.metadata["render_modes"] == ["ansi"]  # the parent is untouched
    assert Plain.metadata["render_modes"] == ["ansi"]
    env = Pictured(render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (4, 6, 3)
    with pytest.raises(ValueError, match="rgb_array"):
        Plain(render_mode="rgb_array")
