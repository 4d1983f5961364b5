"""Mano a Mano's declarative encoding: blocks through the layout, observation as named tables."""

from __future__ import annotations

from envs.core.dice import SeededDice
from envs.mano_a_mano.encoding import (
    ENCODING,
    OBS,
    SLOT_FEATURES,
    SLOT_SIZE,
    TURN_FEATURES,
    obs_features,
)
from envs.mano_a_mano.rules import new_encounter


def test_observation_features_tile_the_vector_exactly_once():
    rows = obs_features()
    covered = [i for _, off, n, _, _ in rows for i in range(off, off + n)]
    assert covered == list(range(OBS.size))
    names = [r[0] for r in rows]
    assert "slot7.gun" in names and "turn.charge_used" in names and "around[5].occupied" in names
    assert len(names) == 8 * len(SLOT_FEATURES) + 2 + len(TURN_FEATURES) + 18
    assert SLOT_SIZE == 52


def test_slot_features_name_the_values_observe_writes():
    enc = new_encounter("duel_seed", "full", SeededDice(1))
    enc.by_id["steven"].stun = 3
    vec = ENCODING.observe(enc, "steven")
    at = {name: off for name, off, _, _, _ in obs_features()}
    stamina = enc.by_id["steven"].block.stamina
    assert vec[at["slot0.present"]] == 1.0 and vec[at["slot0.ally"]] == 1.0
    assert vec[at["slot4.ally"]] == 0.0
    assert vec[at["slot0.harm"]] == min(1.0, 3 / stamina)
    assert vec[at["slot0.padding"]] == 0.0
