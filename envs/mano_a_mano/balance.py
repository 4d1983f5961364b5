"""Names of Mano a Mano's options for ``arena balance`` (registry part ``balance``).

A strike names its style and its weapon (``strike powerful``, ``weapon:machete``); a grapple its
move (``grapple wrench``); a stance choice its stance; movement only its family (the hexes moved
are not an option). Standard library only."""

from __future__ import annotations

from typing import Any

__all__ = ["option_keys", "TURN_STRUCTURE"]

TURN_STRUCTURE = frozenset({"family:end"})
"""options that are the turn's structure (ending it), not a choice to ban"""

_PLAIN = frozenset({"move", "delay"})


def option_keys(enc: Any, action: Any) -> tuple[str, ...]:
    """The options ``action`` uses: ``family:<kind>``, then its style or move, its weapon."""
    keys = [f"family:{action.kind}"]
    args = [str(a) for a in action.args]
    if action.kind in _PLAIN or not args:
        return tuple(keys)
    if not args[0].isdigit():
        keys.append(f"{action.kind} {args[0]}")
    if action.kind in ("strike", "throw", "shoot", "aim") and len(args) > 1:
        keys.append(f"weapon:{args[1]}")
    return tuple(keys)
