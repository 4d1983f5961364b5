"""The toy's actions in plain words (the registry's ``describe`` part)."""

from __future__ import annotations

from typing import Any

from envs.core import Action

__all__ = ["describe"]


def describe(action: Action, view: Any) -> str:
    """``pass`` -> "pass the turn", ``score`` -> "try to score a point (d6 4+)", ``attack -> bob``
    -> "attack bob (2 hit points left; d6 3+ hits)", ``react block`` -> "block (costs 1 of 2
    points)"."""
    if action.kind == "pass":
        return "pass the turn"
    if action.kind == "score":
        return "try to score a point (d6 4+)"
    if action.kind == "attack":
        target = action.target or "?"
        return f"attack {target} ({view.hp[target]} hit points left; d6 3+ hits)"
    if action.args == ("block",):
        return f"block the attack (costs 1 of {view.points[action.actor]} points; d6 4+ cancels)"
    return "take the hit without blocking"
