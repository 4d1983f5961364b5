"""One policy interface for every agent (DESIGN.md, "Agents"; STYLE C15).

``scores(observation, mask, encounter) -> np.ndarray`` gives one score per action index, ``-inf``
where masked. Learned policies read the observation; heuristics and search read the encounter
(through ``view(actor)``) and never mutate it. ``act()`` picks from the scores: argmax with ties
broken by the agent's own generator, or a softmax sample.

Rules-level agents (heuristics) implement ``rank(encounter, actor, legal) -> list[float]`` over the
legal ``Action``s; ``RulesPolicy.scores`` maps that onto action indices through the system's
encoding, so the same heuristic plays in the PettingZoo env and in fast rules-only matches.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from envs.core import Action

__all__ = ["Policy", "RulesPolicy", "act"]


class Policy(Protocol):
    name: str

    def scores(self, observation: np.ndarray, mask: np.ndarray, encounter: Any) -> np.ndarray:
        """One score per action index; ``-inf`` where ``mask`` is 0."""
        ...


class RulesPolicy:
    """Base of policies that judge the legal actions of the rules engine directly."""

    name = "rules"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self._encodings: dict[str, Any] = {}

    def rank(self, encounter: Any, actor: str, legal: list[Action]) -> list[float]:
        """One score per legal action (higher is better)."""
        raise NotImplementedError

    def choose(self, encounter: Any) -> Action:
        """Best legal action for the current actor (ties broken by this agent's generator)."""
        legal = encounter.legal_actions()
        scores = [float(x) for x in self.rank(encounter, encounter.current_actor(), legal)]
        top = max(scores)
        best = [i for i, x in enumerate(scores) if x == top]
        return legal[int(self.rng.choice(best))] if len(best) > 1 else legal[best[0]]

    def scores(self, observation: np.ndarray, mask: np.ndarray, encounter: Any) -> np.ndarray:
        from envs import get_encoding

        enc_ = self._encodings.get(encounter.system)
        if enc_ is None:
            enc_ = self._encodings[encounter.system] = get_encoding(encounter.system)
        actor = encounter.current_actor()
        legal = encounter.legal_actions()
        out = np.full(len(mask), -np.inf)
        for a, s in zip(legal, self.rank(encounter, actor, legal), strict=True):
            out[enc_.encode_action(encounter, actor, a)] = s
        return out


def act(scores: np.ndarray, rng: np.random.Generator, temperature: float = 0.0) -> int:
    """Pick an index from scores: argmax (random tie-break) at temperature 0, else softmax
    sample."""
    finite = np.isfinite(scores)
    if not finite.any():
        raise ValueError("no legal action to choose from (all scores are -inf)")
    if temperature <= 0:
        best = np.flatnonzero(scores == scores[finite].max())
        return int(best[0] if len(best) == 1 else rng.choice(best))
    z = np.where(finite, scores / temperature, -np.inf)
    p = np.exp(z - z[finite].max())
    p /= p.sum()
    return int(rng.choice(len(p), p=p))
