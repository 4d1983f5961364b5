"""The optional harm shaping of Mano a Mano (envs/mano_a_mano/env.py: harm_shaping)."""

from __future__ import annotations

import pytest

from envs.core import Action
from envs.core.dice import ScriptedDice
from envs.mano_a_mano import rules
from envs.mano_a_mano.env import SHAPING, harm_shaping, raw_env

SITUATION = {
    "system": "mano_a_mano",
    "encounter": "duel_seed",
    "options": "core",
    "combatants": [
        {"id": "steven", "state": {"hex": [0, 0]}},
        {"id": "clone", "state": {"hex": [1, 0]}},
    ],
    "order": ["steven", "clone"],
    "actor": "steven",
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


GIANT = {
    "system": "mano_a_mano",
    "encounter": "giant",
    "options": "core",
    "combatants": [
        {"id": "elephant", "state": {"hex": [0, 0]}},
        {"id": "steven", "state": {"hex": [1, 0]}},
        {"id": "wrestler", "state": {"hex": [-3, 0]}},
    ],
    "order": ["elephant", "steven", "wrestler"],
    "actor": "elephant",
}


def test_harm_is_clipped_to_stamina_and_an_incapacitation_adds_a_quarter():
    # spec §11.23: strategic strike d20=9 hits Steven for 12 damage, 13 stun: T = 25 > stamina 14
    dice = ScriptedDice([9])
    enc = rules.from_situation(GIANT, "test", dice)
    shaping = harm_shaping(0.1)
    shaping.start(enc)
    events = enc.apply(
        Action("elephant", "strike", ("strategic", "tusks_and_trunk"), "steven"), dice
    )
    terms = shaping(enc, events, "elephant")
    assert terms["elephant"] == pytest.approx({"harm": 0.1 * 1.0, "incapacitation": 0.25})
    assert terms["steven"] == pytest.approx({"harm": -0.1, "incapacitation": -0.25})
    assert terms["wrestler"] == terms["steven"]


def test_recovery_counts_as_harm_undone():
    dice = ScriptedDice([])
    enc = rules.from_situation(
        {
            **SITUATION,
            "combatants": [
                {"id": "steven", "state": {"hex": [0, 0], "stun": 4}},
                {"id": "clone", "state": {"hex": [3, 0]}},
            ],
        },
        "test",
        dice,
    )
    shaping = harm_shaping(0.1)
    shaping.start(enc)
    events = enc.apply(Action("steven", "end"), dice)  # end of turn: stun 4 -> 3 (spec §4.7)
    assert enc.by_id["steven"].stun == 3
    terms = shaping(enc, events, "steven")
    assert terms["steven"]["harm"] == pytest.approx(0.1 / 14)  # its own T fell by 1 of 14
    assert terms["clone"]["harm"] == pytest.approx(-0.1 / 14)


def test_the_env_starts_the_shaping_at_reset_and_reports_the_terms():
    env = raw_env("giant", rules="core", shaping=True)
    env.reset(seed=0, options={"situation": GIANT})
    env._dice = ScriptedDice([9])
    index = next(
        i
        for i, a in env.legal_index_map().items()
        if a.label == "elephant: strike strategic tusks_and_trunk -> steven"
    )
    env.step(index)
    assert env.infos["A_0"]["shaping"] == pytest.approx({"harm": 0.1, "incapacitation": 0.25})
    assert env.rewards["B_0"] == pytest.approx(-0.35)
