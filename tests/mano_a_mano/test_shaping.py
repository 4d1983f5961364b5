"""The optional harm shaping of Mano a Mano (envs/mano_a_mano/env.py: harm_shaping)."""

from __future__ import annotations

import pytest

from envs.core import Action
from envs.core.dice import ScriptedDice
from envs.mano_a_mano import rules
from envs.mano_a_mano.env import SHAPING, harm_shaping, raw_env

SITUATION = {
    "system": "mano_a_mano", "encounter": "duel_seed", "options": "core",
    "combatants": [{"id": "steven", "state": {"hex": [0, 0]}}, {"id": "clone", "state": {"hex": [1, 0]}}],
    "order": ["steven", "clone"], "actor": "steven",
}


def _strike(die: int):
    dice = ScriptedDice([die])
    enc = rules.from_situation(SITUATION, "test", dice)
    events = enc.apply(Action("steven", "strike", ("quick", "machete"), "clone"), dice)
    return enc, events


def test_a_hit_scores_its_share_of_the_target_stamina():
    # d20=10: 14 > 12, power 5 sharp -> 5 damage (spec §11.5); the clone's stamina is 14
    enc, events = _strike(10)
    terms = harm_shaping(0.1)(enc, events, "steven")
    assert terms["steven"]["harm"] == pytest.approx(0.1 * 5 / 14)
    assert terms["clone"]["harm"] == pytest.approx(-0.1 * 5 / 14)


def test_a_miss_scores_nothing():
    enc, events = _strike(2)  # 6 vs 12: miss
    assert harm_shaping(0.1)(enc, events, "steven") == {}


def test_the_env_uses_it_for_shaping_true():
    assert SHAPING is harm_shaping
    env = raw_env("duel_seed", shaping=True)
    assert env._shaping is not None
    enc, events = _strike(10)
    assert env._shaping(enc, events, "steven") == harm_shaping()(enc, events, "steven")
