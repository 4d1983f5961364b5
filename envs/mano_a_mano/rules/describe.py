"""This system's actions in plain words (the registry's ``describe`` part)."""

from __future__ import annotations

from typing import Any

from envs.core import Action

__all__ = ["describe"]


def describe(action: Action, view: Any) -> str:
    """The action's label without its actor (first version; being written out in full)."""
    return action.label.split(": ", 1)[-1]
