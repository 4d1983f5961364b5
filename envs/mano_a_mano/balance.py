"""Names of Mano a Mano's options for ``arena balance`` (registry part ``balance``).

A strike names its style and what it strikes with (``strike powerful``, ``weapon:machete``, or a
body part: ``weapon:left_foot``); a throw its style and the item thrown, read from the public
snapshot's ``held`` (its argument is a hand); a shot or an aim the missile weapon held; a grapple
its move (``grapple wrench``); movement only its family (the hexes moved are not an option).
It imports no RL library."""

from __future__ import annotations

from typing import Any

from envs.mano_a_mano.rules.options import ARMOR_LEVELS, DARKNESS

__all__ = ["option_keys", "TURN_STRUCTURE", "RULE_CHOICES"]

RULE_CHOICES: dict[str, tuple[str, ...]] = {"darkness": DARKNESS, "armor_levels": ARMOR_LEVELS}
"""the accepted values of each text field of ``RuleOptions`` (``arena balance rules``)"""

TURN_STRUCTURE = frozenset({"family:end"})
"""options that are the turn's structure (ending it), not a choice to ban"""

_PLAIN = frozenset({"move", "delay"})
_HANDS = ("right", "left", "both")


def _held(enc: Any, cid: str) -> dict[str, str]:
    held = enc.snapshot()["combatants"].get(cid, {}).get("held", {})
    return held if isinstance(held, dict) else {}


def option_keys(enc: Any, action: Any) -> tuple[str, ...]:
    """The options ``action`` uses: ``family:<kind>``, then its style or move, its weapon."""
    keys = [f"family:{action.kind}"]
    args = [str(a) for a in action.args]
    if action.kind in ("shoot", "aim"):
        weapons = sorted(set(_held(enc, action.actor).values()))
        if args and not args[0].isdigit():
            keys.append(f"{action.kind} {args[0]}")
        if len(weapons) == 1:
            keys.append(f"weapon:{weapons[0]}")
        return tuple(keys)
    if action.kind in _PLAIN or not args:
        return tuple(keys)
    if not args[0].isdigit():
        keys.append(f"{action.kind} {args[0]}")
    if action.kind == "strike" and len(args) > 1:
        keys.append(f"weapon:{args[1]}")
    elif action.kind == "throw" and len(args) > 1 and args[1] in _HANDS:
        item = _held(enc, action.actor).get(args[1])
        if item:
            keys.append(f"weapon:{item}")
    return tuple(keys)
