"""What every system's ``describe(action, view)`` (the registry's ``describe`` part) shares: the
dispatch by action kind with the plain-label fallback, and display names that stay unique.

A system keeps a table ``{kind: words(view, actor, action) -> str}`` and calls
``by_kind(table, action, view)``; an unknown kind, or an action that does not fit the state
(the words raise), reads as its label without the actor, so describing never raises.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .actions import Action

__all__ = ["Words", "by_kind", "plain", "unique_name"]

Words = Callable[[Any, Any, Action], str]
"""``words(view, actor, action)``: one kind of action in plain words"""


def plain(action: Action) -> str:
    """The label without its actor: ``steven: move 1`` -> ``move 1``."""
    return action.label.split(": ", 1)[-1]


def by_kind(table: Mapping[str, Words], action: Action, view: Any) -> str:
    """``table[action.kind](view, view.by_id[action.actor], action)``, else ``plain(action)``."""
    words = table.get(action.kind)
    if words is not None:
        try:
            return words(view, view.by_id[action.actor], action)
        except (AssertionError, AttributeError, IndexError, KeyError, TypeError, ValueError):
            pass  # not an action of this state: the plain label
    return plain(action)


def unique_name(text: str, cid: str, names: Iterable[str]) -> str:
    """``text`` as it is, or ``"text [cid]"`` when another combatant has the same name."""
    return f"{text} [{cid}]" if sum(1 for n in names if n == text) > 1 else text
