"""Metanoia's declarative encoding: blocks through the layout, observation as named tables."""

from __future__ import annotations

import itertools

from envs.metanoia.encoding import (
    LAYOUT,
    OBS,
    OPTION_FEATURES,
    PENDING_FEATURES,
    SLOT_FEATURES,
    obs_features,
)


def test_strides_give_the_layout_index_of_every_coordinate():
    for block in LAYOUT.blocks:
        start, place = LAYOUT.strides(block.name)
        for coords in itertools.product(*(range(k) for _, k in block.axes)):
            i = start + sum(c * k for c, k in zip(coords, place, strict=True))
            assert i == LAYOUT.index(block.name, *coords)
            assert LAYOUT.coords(i) == (block.name, dict(zip((a for a, _ in block.axes), coords,
                                                             strict=True)))


def test_observation_features_tile_the_vector_exactly_once():
    rows = obs_features()
    covered = [i for _, off, n, _, _ in rows for i in range(off, off + n)]
    assert covered == list(range(OBS.size))
    names = [r[0] for r in rows]
    assert "slot7.reactions" in names and "pending.target" in names
    assert "options[7].instrument" in names and "phase" in names
    per_option = 8 * len(OPTION_FEATURES)
    assert len(names) == 8 * len(SLOT_FEATURES) + len(PENDING_FEATURES) + per_option + 2
