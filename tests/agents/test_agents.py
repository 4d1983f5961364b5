"""Agents (DESIGN.md "Agents", STYLE C15): legal choices only, scores -inf exactly where masked, the
heuristic beats random, and ``make_agent`` names its choices.

No ``__init__.py`` here on purpose: a package ``tests/agents`` would be imported as ``agents`` and
shadow the real ``agents`` package.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import AGENT_KINDS, RandomAgent, act, make_agent
from agents.episode import encounter_sides, play
from envs import SYSTEMS, get_env_module, get_heuristic, get_rules, make_env
from envs.core import SeededDice

CASES = [(s, e) for s in SYSTEMS for e in get_rules(s).encounter_names()]
MAX_DECISIONS = 5000
"""far more than any fight to the round cap needs: more means the rules let someone stall for
ever"""
IDS = [f"{s}-{e}" for s, e in CASES]
SEARCHED = "search[:BUDGET]"
AGENT_CASES = [
    pytest.param(s, e, k, id=f"{s}-{e}-{k}")
    for s, e in CASES for k in AGENT_KINDS
    # search plays whole rollouts every decision: its choices are checked on each system's
    # first encounter (every other agent on every encounter), so the suite stays fast
    if k != SEARCHED or e == get_rules(s).encounter_names()[0]
]


@pytest.mark.parametrize(("system", "encounter", "kind"), AGENT_CASES)
def test_rules_level_choices_are_legal_and_leave_the_state_alone(
    system: str, encounter: str, kind: str, policy_files
):
    kind = kind.replace("PATH", str(policy_files[system])).replace("search[:BUDGET]", "search:2")
    R = get_rules(system)
    for rules in ("core", "full"):
        dice = SeededDice(5)
        enc = R.new_encounter(encounter, rules, dice)
        agent = make_agent(kind, system, 5)
        for _ in range(MAX_DECISIONS):
            if enc.is_over():
                break
            before = json.dumps(enc.snapshot(), sort_keys=True)
            legal = enc.legal_actions()
            action = agent.choose(enc)
            assert action in legal, f"{kind} chose {action.label}, not legal"
            assert json.dumps(enc.snapshot(), sort_keys=True) == before, (
                f"{kind} changed the state while choosing"
            )
            enc.apply(action, dice)
        assert enc.is_over(), f"{kind}: no end after {MAX_DECISIONS} decisions (round {enc.round})"


@pytest.mark.parametrize(("system", "encounter", "kind"), AGENT_CASES)
def test_env_level_scores_are_minus_inf_exactly_where_masked(
    system: str, encounter: str, kind: str, policy_files
):
    """Through the env: ``scores()`` is finite exactly on the mask, and ``act()`` picks a legal
    index."""
    kind = kind.replace("PATH", str(policy_files[system])).replace("search[:BUDGET]", "search:2")
    env = make_env(system, encounter)
    env.reset(seed=3)
    agent = make_agent(kind, system, 3)
    rng = np.random.default_rng(3)
    decisions = 0
    for _ in env.agent_iter(5000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        scores = agent.scores(obs["observation"], mask, env.unwrapped.encounter)
        assert scores.shape == mask.shape
        assert np.array_equal(np.isneginf(scores), mask == 0), (
            f"{kind}: -inf does not match the mask"
        )
        assert np.all(np.isfinite(scores[mask == 1])), f"{kind}: a legal action scored nan/inf"
        index = act(scores, rng)
        assert mask[index] == 1
        env.step(index)
        decisions += 1
    assert decisions > 0


def test_env_and_rules_heuristic_agree():
    """The best index of ``scores()`` decodes to an action ``rank()`` scores best."""
    env = make_env("metanoia", "pvp_2v2")
    env.reset(seed=8)
    h = get_heuristic("metanoia")(0)
    encoding = get_env_module("metanoia").ENCODING
    for _ in range(60):
        if not env.agents:
            break
        name = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        enc = env.unwrapped.encounter
        scores = h.scores(obs["observation"], obs["action_mask"], enc)
        legal = enc.legal_actions()
        ranks = h.rank(enc, enc.current_actor(), legal)
        best = int(np.argmax(scores))
        chosen = encoding.decode_action(enc, env.unwrapped.combatant(name), best)
        assert ranks[legal.index(chosen)] == max(ranks)
        env.step(best)


def test_random_agent_is_uniform_over_the_legal_actions():
    dice = SeededDice(0)
    enc = get_rules("metanoia").new_encounter("duel_seed", "full", dice)
    legal = enc.legal_actions()
    agent = RandomAgent(0)
    counts: dict[str, int] = {}
    for _ in range(400 * len(legal)):
        label = agent.choose(enc).label
        counts[label] = counts.get(label, 0) + 1
    assert set(counts) == {a.label for a in legal}
    assert min(counts.values()) > 250  # expected 400 each


def test_agents_own_their_generators():
    dice = SeededDice(0)
    enc = get_rules("metanoia").new_encounter("duel_seed", "full", dice)
    picks = {make_agent("random", "metanoia", 42).choose(enc).label for _ in range(3)}
    assert len(picks) == 1, "same seed, same choice"
    a, b = make_agent("random", "metanoia", 1), make_agent("random", "metanoia", 1)
    assert [a.choose(enc) for _ in range(20)] == [b.choose(enc) for _ in range(20)]


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_heuristic_beats_random(system: str):
    """60 games on the system's first encounter: 30 paired seeds, sides swapped; >= 80% wins."""
    encounter = get_rules(system).encounter_names()[0]
    first, second = encounter_sides(system, encounter)  # the sides come from the encounter
    wins = games = 0
    for seed in range(30):
        for h_side, r_side in ((first, second), (second, first)):
            agents = {
                h_side: make_agent("heuristic", system, 2 * seed),
                r_side: make_agent("random", system, 2 * seed + 1),
            }
            rec = play(system, encounter, agents, seed)
            games += 1
            wins += rec.winner == h_side
            assert rec.agents == {h_side: "heuristic", r_side: "random"}
    assert games == 60
    assert wins >= 0.8 * games, f"heuristic won only {wins}/{games} against random"


def test_make_agent_rejects_unknown_names():
    with pytest.raises(
        ValueError, match=r"unknown agent 'genius'; known: random, heuristic"
    ) as err:
        make_agent("genius", "metanoia")
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="unknown system 'chess'; known: metanoia, mano_a_mano"):
        make_agent("heuristic", "chess")


def test_act_picks_argmax_or_samples_and_refuses_an_empty_mask():
    rng = np.random.default_rng(0)
    scores = np.array([-np.inf, 1.0, 3.0, 3.0, -np.inf])
    assert {act(scores, rng) for _ in range(50)} == {2, 3}
    sampled = {act(scores, rng, temperature=1.0) for _ in range(200)}
    assert sampled == {1, 2, 3}
    with pytest.raises(ValueError, match="no legal action"):
        act(np.full(3, -np.inf), rng)
