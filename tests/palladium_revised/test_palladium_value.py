"""Palladium Revised's value estimate (``agents/values/palladium_revised``, ``agents.value``): the
shipped file loads for the current encoding and ranks a clearly won duel above a clearly lost one,
and a search rollout is cut at its actor's next own slot (spec §4.4: ``TurnOpened`` is the shared
``TurnStarted``), where the estimate scores it."""

from __future__ import annotations

from agents.rollouts import Job, rollout
from agents.value import load_value
from envs import get_encoding, get_heuristic
from envs.core import ScriptedDice, TurnStarted
from envs.core.cases import encounter_from_situation

SYSTEM = "palladium_revised"


def _duel(sellsword: dict, duelist: dict):
    """The duel in round 2, both fighters 2 ft apart with the given state overrides."""
    data = {
        "system": SYSTEM, "options": "full", "encounter": "duel_sword_vs_rogue",
        "combatants": [{"id": "sellsword_1", "x": 100, "state": sellsword},
                       {"id": "duelist_1", "x": 102, "state": duelist}],
        "order": ["sellsword_1", "duelist_1"], "round": 2, "actor": "sellsword_1",
    }
    return encounter_from_situation(data, "<duel>")


WHOLE = {"stamina": 20}
SPENT = {"sdc": 0, "armor_sdc": 0, "hp": 1, "wounds": 6, "stamina": 0}


def test_the_shipped_estimate_loads_for_the_current_encoding():
    model = load_value(SYSTEM)
    assert model is not None
    assert model.encoding == get_encoding(SYSTEM).name
    assert model.meta["system"] == SYSTEM and model.meta["games"] >= 100
    assert model.meta["brier"] < model.meta["brier_base_rate"]  # better than the base rate
    assert model.meta["play"] is False  # not measured against the heuristic: suggest only


def test_a_clearly_won_duel_is_rated_above_a_clearly_lost_one():
    model = load_value(SYSTEM)
    assert model is not None
    won = _duel(WHOLE, SPENT)  # the duelist at 1 H.P. with nothing left, the sellsword whole
    lost = _duel(SPENT, WHOLE)
    assert model(won, "A") > model(lost, "A")
    assert model(lost, "B") > model(won, "B")  # and the other way round for the duelist
    assert model(won, "A") > 0.5 > model(lost, "A")


def test_a_palladium_rollout_is_scored_at_the_actors_next_turn():
    enc = _duel(WHOLE, WHOLE)
    actor, legal = enc.current_actor(), enc.legal_actions()
    wait = next(i for i, a in enumerate(legal) if a.label == f"{actor}: wait")
    events = enc.clone().apply(legal[wait], ScriptedDice([]))
    opened = [e for e in events if isinstance(e, TurnStarted)]
    assert opened and opened[0].actor == "duelist_1" and opened[0].round == 2
    policy = get_heuristic(SYSTEM)(0)
    cut = Job(enc, tuple(legal), policy, actor, "A", None, value=lambda sim, side: 0.25)
    whole = Job(enc, tuple(legal), policy, actor, "A", None)
    short, ended = rollout(cut, wait, 7), rollout(whole, wait, 7)
    assert ended.result in (0.0, 0.5, 1.0) and ended.rounds > 2  # a duel lasts past round 2
    assert short.result == 0.25 and short.rounds == 2  # cut in round 2, at sellsword's next slot
