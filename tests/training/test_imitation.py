"""Imitation warm start: recorded decisions are the teacher's legal choices; pre-training copies
them."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

import train
from agents.imitation import pretrain, record_decisions
from agents.learner import LearnerEnv


def test_recorded_decisions_are_legal_and_labelled_with_the_outcome():
    data = record_decisions(
        "metanoia", "duel_seed", "full", "heuristic", games=6, seed=3, draw_reward=-1.0
    )
    n = len(data["action"])
    assert n > 20
    assert data["obs"].shape[0] == data["mask"].shape[0] == data["outcome"].shape[0] == n
    assert data["mask"][np.arange(n), data["action"]].all()  # every recorded action is on its mask
    assert set(np.unique(data["outcome"])) <= {-1.0, 1.0}
    again = record_decisions(
        "metanoia", "duel_seed", "full", "heuristic", games=6, seed=3, draw_reward=-1.0
    )
    assert all(np.array_equal(data[k], again[k]) for k in data)  # seeded
    split = record_decisions(
        "metanoia", "duel_seed", "full", "heuristic", games=6, seed=3, draw_reward=-1.0,
        workers=2,
    )
    assert all(np.array_equal(data[k], split[k]) for k in data)  # two processes, the same data


def test_pretraining_makes_the_policy_pick_the_teachers_actions():
    cfg = train.load_config(
        None,
        [
            "imitation_games=30",
            "imitation_epochs=8",
            "net_arch=[64]",
            "batch_size=64",
            "n_envs=1",
            "n_steps=64",
        ],
    )
    model = MaskablePPO(
        "MlpPolicy",
        LearnerEnv("metanoia", "duel_seed", "full", {"random": 1.0}, seed=0),
        n_steps=64,
        batch_size=64,
        policy_kwargs={"net_arch": [64]},
        seed=0,
        device="cpu",
    )
    data = record_decisions(
        "metanoia",
        "duel_seed",
        "full",
        "heuristic",
        30,
        seed=cfg.seed + 50_000_000,
        draw_reward=cfg.draw_reward,
    )  # what pretrain records

    def agreement() -> float:
        dist = model.policy.get_distribution(
            torch.as_tensor(data["obs"]), action_masks=data["mask"]
        )
        return float((dist.distribution.probs.argmax(dim=1).numpy() == data["action"]).mean())

    before = agreement()
    messages: list[str] = []
    result = pretrain(model, cfg, log=messages.append)
    assert result["decisions"] == len(data["action"])
    assert result["accuracy"] == pytest.approx(agreement())
    assert result["accuracy"] > before + 0.25, (before, result)
    assert any("epoch 8/8" in m for m in messages)
