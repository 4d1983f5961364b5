"""The toy game's scripted tactics (the registry's ``heuristic`` part of the test-only toy).

Attack (two hits in three at 2 in 3 take an enemy out; three points at 1 in 2 take twice as long):
the weakest enemy first, then the one nearest to winning; score only for the winning point.
On defence, block whenever a point allows it, unless that point is the one before the last.
"""

from __future__ import annotations

from typing import Any

from envs.core import Action

from ..base import RulesPolicy

__all__ = ["ToyHeuristic"]


class ToyHeuristic(RulesPolicy):
    name = "heuristic"

    def rank(self, encounter: Any, actor: str, legal: list[Action]) -> list[float]:
        view = encounter.view(actor)
        return [self._score(view, actor, a) for a in legal]

    @staticmethod
    def _score(view: dict[str, Any], actor: str, a: Action) -> float:
        fighters, target = view["combatants"], view["target"]
        me = fighters[actor]
        if a.kind == "react":  # a block costs a point but saves a hit point half the time
            return 1.0 if a.args == ("block",) and me["points"] < target - 1 else 0.0
        if a.kind == "pass":
            return -10.0
        if a.kind == "score":  # 1 in 2 for one of three points: only a point from winning
            return 3.0 if me["points"] == target - 1 else 1.0
        # attack (2 in 3 for one of two hit points): the weakest enemy, then the nearest to winning
        foe = fighters[a.target]
        return 2.0 - 0.1 * foe["hp"] + 0.01 * foe["points"]
