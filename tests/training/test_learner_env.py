"""``LearnerEnv`` (STYLE C16): every transition belongs to the learner; the loser gets its -1."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from conftest import write_random_policy
from stable_baselines3.common.env_checker import check_env

from agents.learner import LearnerEnv, check_pool


def play_episodes(env: LearnerEnv, episodes: int, seed: int = 0):
    """First-legal-index learner; yields (rewards, final info, learner steps) per episode."""
    env.reset(seed=seed)
    for _ in range(episodes):
        rewards, steps = [], 0
        while True:
            mask = env.action_masks()
            assert mask.any(), "the learner was asked to decide with nothing legal"
            obs, reward, term, trunc, info = env.step(int(np.flatnonzero(mask)[0]))
            assert env.observation_space.contains(obs)
            rewards.append(reward)
            steps += 1
            if term or trunc:
                break
        yield rewards, info, steps
        env.reset()


def test_the_loser_gets_minus_one_and_the_winner_plus_one_on_its_last_transition():
    env = LearnerEnv("metanoia", "duel_seed", "full", {"heuristic": 1.0}, seed=0)
    seen = Counter()
    for rewards, info, _ in play_episodes(env, 60):
        winner = info["outcome"]["winner"]
        side = info["learner_side"]
        expected = 0.0 if winner is None else (1.0 if winner == side else -1.0)
        assert rewards[-1] == expected
        assert all(r == 0.0 for r in rewards[:-1])  # no shaping: only the end pays
        assert info["score"] == (0.5 if winner is None else float(winner == side))
        assert info["opponent"] == "heuristic"
        seen[(side, expected)] += 1
    # the heuristic beats a first-legal-action learner most of the time, on both sides
    assert seen[("A", -1.0)] > 5 and seen[("B", -1.0)] > 5


def test_sides_are_drawn_and_the_pool_follows_its_weights(tmp_path):
    env = LearnerEnv(
        "metanoia", "duel_seed", "full", {"random": 3.0, "heuristic": 1.0, "self": 4.0}, seed=1
    )
    sides, opponents = Counter(), Counter()
    for _, info, _ in play_episodes(env, 200):
        sides[info["learner_side"]] += 1
        opponents[info["opponent"]] += 1
    assert set(sides) == {"A", "B"} and min(sides.values()) > 70
    assert set(opponents) == {
        "random",
        "heuristic",
    }  # no snapshot yet: 'self' shares its weight out
    assert 110 < opponents["random"] < 190
    env.set_snapshots([write_random_policy(tmp_path / "s.pt", "metanoia")])
    opponents.clear()
    for _, info, _ in play_episodes(env, 200, seed=2):
        opponents[info["opponent"]] += 1
    assert 70 < opponents["self"] < 130


def test_shared_side_control_in_a_2v2():
    env = LearnerEnv("metanoia", "pvp_2v2", "full", {"random": 1.0}, share_side=True, seed=3)
    obs, info = env.reset(seed=3)
    agents = set()
    for _ in range(200):
        agents.add(env._adapter.agent)
        _, _, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if term or trunc:
            env.reset()
    assert {a.rsplit("_", 1)[1] for a in agents} == {
        "0",
        "1",
    }  # both slots of a side decided by the learner


def test_passes_the_sb3_env_checker():
    check_env(LearnerEnv("metanoia", "duel_seed", "full", {"random": 1.0}, seed=0), warn=False)


def test_bad_pools_are_refused():
    with pytest.raises(ValueError, match="opponent 'x' is not one of"):
        check_pool({"x": 1})
    with pytest.raises(ValueError, match="side 'C' is not a side"):
        LearnerEnv("metanoia", "duel_seed", "full", {"random": 1.0}, sides=["C"])


def test_the_shipped_policy_is_an_opponent_by_its_bare_name():
    assert check_pool({"trained": 2}) == {"trained": 2.0}
    env = LearnerEnv("metanoia", "duel_seed", "full", {"trained": 1.0}, seed=0)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
        done = term or trunc
    assert info["opponent"] == "trained"
