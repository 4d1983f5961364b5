"""The Mano a Mano map picture (``render_mode="rgb_array"``): fighters, stances, health, links."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from test_core_turns import do, fight

from envs import make_env
from envs.core import ScriptedDice
from envs.mano_a_mano.render import GRAPPLE, HEALTH_COLOURS, SIDE_COLOURS, labels, render, scene
from envs.render import HexPainter
from envs.render.style import GROUND, PALE

BLUE, PURPLE = SIDE_COLOURS[0], SIDE_COLOURS[1]


def painter(enc) -> HexPainter:
    return HexPainter.for_map(enc.map)


def patch_colour(frame: np.ndarray, xy: tuple[float, float], half: int = 6) -> tuple[int, int, int]:
    """The most common colour in a small square around ``xy`` (labels cover only part of it)."""
    x, y = round(xy[0]), round(xy[1])
    block = frame[y - half : y + half + 1, x - half : x + half + 1].reshape(-1, 3)
    return Counter(map(tuple, block.tolist())).most_common(1)[0][0]


def ring_pixel(frame: np.ndarray, enc, cid: str) -> tuple[int, int, int]:
    """The colour of the health ring on the left of ``cid``'s token."""
    p = painter(enc)
    x, y, r = p.place(scene(enc).tokens)[cid]
    return tuple(frame[round(y), round(x - r - p.ring_width / 2)].tolist())


def duel():
    return fight(("steven", "steven", "A", (0, 0)), ("clone", "clone", "B", (3, 0)))


def test_a_frame_is_uint8_rgb_of_one_size_per_map_and_fast():
    enc = duel()
    frame = render(enc)
    p = painter(enc)
    assert frame.dtype == np.uint8 and frame.shape == (p.height, p.width, 3)
    assert 400 < p.width < 1400 and 400 < p.height < 1400
    enc.by_id["clone"].hex = (-7, 7)  # a corner of the radius-7 arena: still the same frame size
    assert render(enc).shape == frame.shape
    import time

    t0 = time.perf_counter()
    for _ in range(10):
        render(enc)
    assert (time.perf_counter() - t0) / 10 < 0.1


def test_each_fighter_stands_on_its_hex_in_its_side_colour():
    enc = duel()
    frame = render(enc)
    p = painter(enc)
    assert patch_colour(frame, p.centre((0, 0))) == BLUE
    assert patch_colour(frame, p.centre((3, 0))) == PURPLE
    assert patch_colour(frame, p.centre((1, 0))) == GROUND  # an empty hex
    assert labels(enc) == {"steven": "St", "clone": "Cl"}


def test_a_move_changes_the_old_and_the_new_hex_only_there():
    enc = duel()
    before = render(enc)
    do(enc, ScriptedDice([], sides=20), "steven: move 0")
    assert enc.by_id["steven"].hex == (1, 0)
    after = render(enc)
    p = painter(enc)
    assert patch_colour(after, p.centre((0, 0))) == GROUND
    assert patch_colour(after, p.centre((1, 0))) == BLUE
    assert patch_colour(after, p.centre((3, 0))) == PURPLE
    changed = np.any(before != after, axis=2)
    far = p.centre((-5, 3))  # nothing happened there
    assert not changed[
        round(far[1]) - 10 : round(far[1]) + 10, round(far[0]) - 10 : round(far[0]) + 10
    ].any()


def test_a_grapple_draws_a_link_with_the_dominant_end_marked():
    dice = ScriptedDice([4, 19, 2, 20], sides=20)
    enc = fight(("wrestler", "wrestler", "A", (0, 0)), ("clone", "clone", "B", (1, 0)))
    p = painter(enc)
    (ax, ay), (bx, by) = p.centre((0, 0)), p.centre((1, 0))
    mid = (round((ax + bx) / 2), round((ay + by) / 2))
    before = render(enc)
    assert tuple(before[mid[1], mid[0]].tolist()) != GRAPPLE
    do(enc, dice, "wrestler: grapple hold -> clone", "wrestler: choose hold_dominant -> clone")
    assert enc.grapple("wrestler", "clone") == {"base": "standing", "dominant": "wrestler"}
    after = render(enc)
    assert tuple(after[mid[1], mid[0]].tolist()) == GRAPPLE
    (link,) = scene(enc).links
    assert {link.a, link.b} == {"wrestler", "clone"} and link.marked == "wrestler"
    # the dot sits at the wrestler's end: the line is wider there than near the clone
    x, y, r = p.place(scene(enc).tokens)["wrestler"]
    near = round(x + r + p.ring_width - 1)  # where the line leaves the wrestler's ring
    x2, _, r2 = p.place(scene(enc).tokens)["clone"]
    far = round(x2 - r2 - p.ring_width + 1)

    def column(cx: int) -> int:  # how many pixels of that column are the link's colour
        return int(np.sum(np.all(after[round(y) - 12 : round(y) + 13, cx] == GRAPPLE, axis=1)))

    assert column(near) > column(far) > 0


def test_health_changes_the_ring_colour_and_the_bar():
    dice = ScriptedDice([18], sides=20)
    enc = fight(("steven", "steven", "A", (0, 0)), ("clone", "clone", "B", (1, 0)))
    before = render(enc)
    assert ring_pixel(before, enc, "clone") == HEALTH_COLOURS["healthy"]
    do(enc, dice, "steven: strike powerful machete -> clone")
    clone = enc.by_id["clone"]
    assert (clone.damage, clone.health) == (10, "injured")
    after = render(enc)
    assert ring_pixel(after, enc, "clone") == HEALTH_COLOURS["injured"]
    assert ring_pixel(after, enc, "steven") == HEALTH_COLOURS["healthy"]
    clone.damage = clone.block.stamina  # out of the fight by damage
    out = render(enc)
    assert ring_pixel(out, enc, "clone") == HEALTH_COLOURS["incapacitated_by_damage"]
    token = next(t for t in scene(enc).tokens if t.key == "clone")
    assert token.cross and token.bar[0][0] == 1.0


def test_on_the_ground_is_a_hollow_token_and_marks_show():
    enc = duel()
    enc.by_id["clone"].standing = False
    enc.by_id["steven"].counter_ready = True
    frame = render(enc)
    p = painter(enc)
    assert patch_colour(frame, p.centre((3, 0)), half=4) == PALE  # a ring of purple, pale inside
    x, y = p.centre((3, 0))
    r = p.token_radius
    assert tuple(frame[round(y), round(x - r + 2)].tolist()) == PURPLE
    tokens = {t.key: t for t in scene(enc).tokens}
    assert tokens["clone"].hollow and not tokens["steven"].hollow
    assert tokens["steven"].marks == "C" and tokens["steven"].highlight  # steven decides


def test_several_fighters_in_one_hex_are_all_visible_the_heaviest_in_the_middle():
    enc = fight(
        ("elephant", "elephant", "A", (0, 0)),
        ("steven", "steven", "A", (0, 0)),
        ("clone", "clone", "B", (2, 0)),
    )
    p = painter(enc)
    spots = p.place(scene(enc).tokens)
    (ex, ey, er), (sx, sy, sr) = spots["elephant"], spots["steven"]
    assert er > sr and (ex, ey) != (sx, sy)
    cx, cy = p.centre((0, 0))
    assert abs(ex - cx) + abs(ey - cy) < abs(sx - cx) + abs(sy - cy)
    frame = render(enc)
    assert patch_colour(frame, (sx, sy), half=3) == BLUE
    assert patch_colour(frame, (ex - er * 0.6, ey), half=3) == BLUE
    assert p.size * 0.45 < p.size  # both stay inside the hex
    for x, y, r in (spots["elephant"], spots["steven"]):
        assert abs(x - cx) + r < p.size and abs(y - cy) + r < p.size * 1.05


def test_the_env_renders_rgb_array_and_keeps_ansi():
    env = make_env("mano_a_mano", "giant", render_mode="rgb_array")
    assert "rgb_array" in env.unwrapped.metadata["render_modes"]
    env.reset(seed=3)
    frame = env.render()
    enc = env.unwrapped.encounter
    assert np.array_equal(frame, render(enc, "giant"))
    p = painter(enc)
    elephant = enc.by_id["elephant"]
    assert patch_colour(frame, p.centre(elephant.hex)) == BLUE
    agent = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert env.render().shape == frame.shape
    text = make_env("mano_a_mano", "duel_seed", render_mode="ansi")
    text.reset(seed=0)
    assert isinstance(text.render(), str)


def test_systems_without_a_picture_do_not_offer_rgb_array():
    from envs.metanoia.env import raw_env as metanoia_env

    assert metanoia_env.metadata["render_modes"] == ["ansi"] and metanoia_env.renderer is None
    with pytest.raises(ValueError, match="rgb_array"):
        metanoia_env(render_mode="rgb_array")
