"""Names of Metaforce's options for ``arena balance`` (registry part ``balance``).

An attack or a shot names its weapon (``weapon:warhammer``), a spell its name (``cast fireball``), a
reaction its kind (``react attack``); moving closer or away (``approach``, ``retreat``) is not an
option but the family is (``family:dash``). It imports no RL library."""

from __future__ import annotations

from typing import Any

from envs.metaforce.rules.options import CHOICES

__all__ = ["option_keys", "TURN_STRUCTURE", "RULE_CHOICES"]

RULE_CHOICES: dict[str, tuple[str, ...]] = dict(CHOICES)
"""the accepted values of each text field of ``RuleOptions`` (``arena balance rules``)"""

TURN_STRUCTURE = frozenset({"family:end_turn", "family:pass"})
"""options that are the turn's structure (ending it), not a choice to ban"""

_MOVES = frozenset({"approach", "retreat"})


def option_keys(enc: Any, action: Any) -> tuple[str, ...]:
    """``family:<kind>``, ``weapon:<w>`` of an attack or a shot, ``<kind> <arg>`` otherwise."""
    keys = [f"family:{action.kind}"]
    args = [str(a) for a in action.args if str(a) not in _MOVES]
    if not args:
        return tuple(keys)
    if action.kind in ("attack", "fire", "reload"):
        keys.append(f"weapon:{args[0]}")
    elif not args[0].isdigit():
        keys.append(f"{action.kind} {args[0]}")
    return tuple(keys)
