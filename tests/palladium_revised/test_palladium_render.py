"""Palladium Revised's picture (envs/palladium_revised/render.py): one frame per encounter, its
size fixed per roster, the battle line with each fighter in its side's colour at its x, the Zone
bands and the round's Melee Grid."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.dice import SeededDice
from envs.palladium_revised import rules as R
from envs.palladium_revised.env import draw, raw_env
from envs.palladium_revised.render import (
    SIDE_COLOURS,
    SLOT_COLOURS,
    band_top,
    grid_cell,
    painter,
    scene,
)
from envs.palladium_revised.rules.slots import AVAILABLE, USED
from envs.render.style import BACKGROUND, HIGHLIGHT, mix


@pytest.mark.parametrize("name", R.encounter_names())
def test_a_picture_of_each_encounter(name):
    enc = R.new_encounter(name, None, SeededDice(0))
    frame = draw(enc, name)
    p = painter(enc)
    n = len(enc.combatants)
    assert frame.dtype == np.uint8 and frame.shape[1] == p.width and frame.shape[2] == 3
    assert frame.shape[0] > p.height + 20 * (n + 1)
    sides = [s.side for s in enc.sides()]
    spots = p.place(scene(enc).tokens)
    for row, c in enumerate(enc.combatants):
        x, y, r = spots[c.id]
        colour = SIDE_COLOURS[sides.index(c.side)]
        if sum(1 for o in enc.combatants if o.x == c.x) == 1:  # alone: the disc is at its x
            assert round(x) == round(p.centre((c.x, 0))[0])
        assert tuple(frame[round(y - 0.8 * r), round(x)]) == colour, c.id  # the disc
        # its Zone band row: the Reach layer in a pale tint of the side colour just inside r_R
        cx = p.centre((c.x, 0))[0]
        reach = c.profile.radii[3] * p.geometry.unit
        by = band_top(enc) + 18 * row + 7
        assert tuple(frame[by, round(cx + reach - 2)]) == mix(colour, BACKGROUND, 0.25 + 0.54)
        assert tuple(frame[by, round(cx + reach + 4)]) == BACKGROUND
        # its Melee Grid row: a free slot in Second 15 (every grid row holds Second 15)
        left, top, right, bottom = grid_cell(enc, row, 15)
        assert tuple(frame[(top + bottom) // 2, (left + right) // 2]) == SLOT_COLOURS[AVAILABLE]


def test_the_grid_shows_spent_slots_and_the_current_second():
    enc = R.new_encounter("duel_sword_vs_rogue", None, SeededDice(0))
    dice = SeededDice(1)
    while enc.second < 5 and not enc.is_over():
        legal = enc.legal_actions()
        wait = [a for a in legal if a.kind in ("wait", "pass")]
        enc.apply(wait[0], dice)
    frame = draw(enc)
    row = next(i for i, c in enumerate(enc.combatants) if c.slot_state[0] == USED)
    left, top, right, bottom = grid_cell(enc, row, 1)
    assert tuple(frame[(top + bottom) // 2, (left + right) // 2]) == SLOT_COLOURS[USED]
    left, top, right, bottom = grid_cell(enc, -1, enc.second)  # the header row of Seconds
    assert tuple(frame[top + 2, left + 3]) == HIGHLIGHT


def test_the_env_renders_rgb_frames_of_one_size():
    e = raw_env(encounter="ogre_ambush", render_mode="rgb_array")
    e.reset(seed=0)
    first = e.render()
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert e.render().shape == first.shape and first.dtype == np.uint8
