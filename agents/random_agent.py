"""Uniform random play over the legal actions (its own generator, STYLE C3)."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core import Action

from .base import RulesPolicy


class RandomAgent(RulesPolicy):
    """Uniform over the mask (env) or over ``legal_actions()`` (rules)."""

    name = "random"

    def rank(self, encounter: Any, actor: str, legal: list[Action]) -> list[float]:
        return [0.0] * len(legal)

    def choose(self, encounter: Any) -> Action:
        legal = encounter.legal_actions()
        return legal[int(self.rng.integers(len(legal)))]

    def scores(self, observation: np.ndarray, mask: np.ndarray, encounter: Any) -> np.ndarray:
        return np.where(np.asarray(mask) == 1, 0.0, -np.inf)
