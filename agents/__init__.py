"""Policies: random, heuristic (per system), and later search and trained.

``make_agent(spec, system, seed)`` builds an agent from its spec: ``random``, ``heuristic`` or
``search`` (Monte Carlo look-ahead, 0.2 s a decision; ``search:0.5s`` for seconds,
``search:800`` for rollouts; see ``agents.search``), ``trained:PATH`` (a policy file written by
``train.py``; see ``agents.trained``) or ``trained`` (the system's shipped policy, under
``agents/policies/``).
"""

from __future__ import annotations

from typing import Any

from .base import Policy, RulesPolicy, act
from .random_agent import RandomAgent

SEARCH_WIDTH = 6
"""moves the ``search`` agent looks at: the heuristic's top six (``arena suggest`` looks at all)"""

AGENT_KINDS = ("random", "heuristic", "search[:BUDGET]", "trained:PATH")
"""the kinds every system has (``trained``, the shipped policy, exists only where one ships)"""


def make_agent(spec: str, system: str, seed: int | None = None) -> Any:
    """Build an agent by name for ``system``; unknown names are a one-line error."""
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        from envs import get_heuristic

        return get_heuristic(system)(seed)
    if spec == "search" or spec.startswith("search:"):
        from .search import SearchAgent

        budget = spec.partition(":")[2]
        try:
            if not budget:
                return SearchAgent(seed, system=system, width=SEARCH_WIDTH)
            if budget.endswith("s"):
                return SearchAgent(
                    seed, seconds=float(budget[:-1]), system=system, width=SEARCH_WIDTH
                )
            return SearchAgent(seed, rollouts=int(budget), system=system, width=SEARCH_WIDTH)
        except ValueError as e:
            raise ValueError(
                f"agent {spec!r}: the budget must be like search:0.2s or search:500 ({e})"
            ) from None
    if spec == "trained":
        from .trained import TrainedAgent, shipped_policy

        return TrainedAgent(shipped_policy(system), system, seed, name=spec)
    if spec.startswith("trained:") and len(spec) > len("trained:"):
        from .trained import TrainedAgent

        return TrainedAgent(spec[len("trained:"):], system, seed, name=spec)
    raise ValueError(
        f"unknown agent {spec!r}; known: {', '.join(AGENT_KINDS)}, trained (the shipped policy)"
    )


__all__ = ["Policy", "RulesPolicy", "RandomAgent", "act", "make_agent", "AGENT_KINDS"]
