"""``agents.value``: the value estimate that scores cut-short rollouts (fit, save, load, refuse a
file fitted for another encoding) and the rollouts it cuts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.rollouts import Job, rollout
from agents.value import fit_value, load_value, save_value, value_path
from envs import get_heuristic, get_rules
from envs.core import SeededDice


def test_fit_save_and_load_round_trip(tmp_path):
    model = fit_value("toy", games=200, seed=3, l2=0.01)
    assert model.meta["games"] == 200 and model.meta["samples"] > 2000
    assert model.meta["brier"] < model.meta["brier_base_rate"]  # better than the base rate
    path = save_value(model, tmp_path)
    assert path == value_path("toy", tmp_path) and path.with_suffix(".json").exists()
    again = load_value("toy", tmp_path)
    assert again is not None
    np.testing.assert_array_equal(again.weights, model.weights)
    enc = get_rules("toy").new_encounter("duel", "full", SeededDice(0))
    p = again(enc, "heroes")
    assert 0.0 < p < 1.0 and p == pytest.approx(model(enc, "heroes"))


def test_no_file_is_no_model_and_a_file_for_another_encoding_is_refused(tmp_path):
    assert load_value("toy", tmp_path) is None
    path = save_value(fit_value("toy", games=10), tmp_path)
    meta = json.loads(path.with_suffix(".json").read_text())
    meta["encoding"] = "toy_v0_old"
    path.with_suffix(".json").write_text(json.dumps(meta))
    with pytest.raises(ValueError) as e:
        load_value("toy", tmp_path)
    assert str(e.value).count("\n") == 0
    assert "fitted for toy_v0_old" in str(e.value) and "arena fit-value toy" in str(e.value)


def test_a_rollout_past_the_horizon_is_scored_by_the_value_estimate():
    enc = get_rules("toy").new_encounter("duel", "full", SeededDice(0))
    actor = enc.current_actor()
    legal = enc.legal_actions()
    policy = get_heuristic("toy")(0)
    full = Job(enc, tuple(legal), policy, actor, enc.side_of(actor), None)
    cut = Job(enc, tuple(legal), policy, actor, enc.side_of(actor), None,
              value=lambda sim, side: 0.25, horizon=0)
    ends = [rollout(full, 0, seed) for seed in range(20)]
    cuts = [rollout(cut, 0, seed) for seed in range(20)]
    assert {r.result for r in ends} <= {0.0, 0.5, 1.0}
    # a fight still going when the actor's next turn starts (round 2 in a duel) is scored 0.25;
    # one over by then keeps its result
    for whole, short in zip(ends, cuts, strict=True):
        if whole.rounds > 1:
            assert short.result == 0.25 and short.rounds == 2
        else:
            assert short == whole
    assert any(r.result == 0.25 for r in cuts)
    assert enc.round == 1 and enc.current_actor() == actor  # the fight itself is untouched


def test_the_search_agent_plays_with_an_estimate_only_where_its_sidecar_says_so():
    from agents.search import SearchAgent

    meta = {"metanoia": False, "mano_a_mano": True}
    for system, play in meta.items():
        shipped = load_value(system)
        assert shipped is not None and bool(shipped.meta.get("play")) is play
        agent = SearchAgent(0, system=system)
        assert (agent.value_model(system) is not None) is play
        assert SearchAgent(0, system=system, value="shipped").value_model(system) is not None
        assert SearchAgent(0, system=system, value=None).value_model(system) is None
