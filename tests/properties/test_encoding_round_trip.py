"""Every registered system's encoding, at every decision of a deterministic game over each of its
encounters (FULL rules): the legal actions get distinct indices, the one-at-a-time index equals
the batch one where the encoding has ``encode_actions``, and ``decode(encode(a)) == a``."""

from __future__ import annotations

import pytest

from envs import SYSTEMS, get_encoding, get_rules
from envs.core import SeededDice


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_legal_action_round_trips_through_the_layout(system: str):
    R, encoding = get_rules(system), get_encoding(system)
    batch = getattr(encoding, "encode_actions", None)
    for name in R.encounter_names():
        dice = SeededDice(5)
        enc = R.new_encounter(name, R.parse_options("full"), dice)
        for _ in range(80):
            if enc.is_over():
                break
            actor = enc.current_actor()
            legal = enc.legal_actions()
            indices = [encoding.encode_action(enc, actor, a) for a in legal]
            assert len(set(indices)) == len(legal)
            if batch is not None:
                assert batch(enc, actor, legal) == indices
            for a, i in zip(legal, indices, strict=True):
                assert encoding.decode_action(enc, actor, i) == a
            enc.apply(legal[len(legal) // 2], dice)
