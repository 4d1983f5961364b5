"""Names of Sizebound's options for ``arena balance`` (registry part ``balance``).

An attack names the weapon in the hand it uses (``weapon:sword`` for ``attack main``, read from the
public snapshot's ``wielded``), as well as its family; steps and runs name only their family (a
direction is not an option). It imports no RL library."""

from __future__ import annotations

from typing import Any

from envs.sizebound.rules import options as _options

__all__ = ["option_keys", "TURN_STRUCTURE", "RULE_CHOICES"]

RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "defeat_mode": _options.DEFEAT_MODES, "exertion_control": _options.EXERTION_CONTROL,
    "mana_overdraw": _options.MANA_OVERDRAW, "weather": _options.WEATHER,
    "damage_roll_mode": _options.DAMAGE_ROLL_MODES, "first_side": _options.FIRST_SIDE,
    "exertion_pool": _options.EXERTION_POOLS,
}
"""the accepted values of each text field of ``RuleOptions`` (``arena balance rules``)"""

TURN_STRUCTURE = frozenset({"family:end_turn", "family:pass"})
"""options that are the turn's structure (ending it), not a choice to ban"""

_PLAIN = frozenset({"step", "run", "move", "fly", "climb", "swim"})


def _wielded(enc: Any, cid: str) -> dict[str, str]:
    """The hands of ``cid`` -> weapon: the fighter's own record (what the snapshot's ``wielded``
    copies; read directly, as a snapshot per legal action made a ban's game 18% slower)."""
    fighter = getattr(enc, "by_id", {}).get(cid)
    if fighter is not None:
        return dict(fighter.wielded)
    return dict(enc.snapshot()["combatants"].get(cid, {}).get("wielded", {}))


def option_keys(enc: Any, action: Any) -> tuple[str, ...]:
    """``family:<kind>``, ``<kind> <arg>`` (not a direction), and the weapon of an attack."""
    keys = [f"family:{action.kind}"]
    if not action.args or action.kind in _PLAIN:
        return tuple(keys)
    arg = str(action.args[0])
    if action.kind == "attack" and arg in ("main", "off", "both"):
        wielded = _wielded(enc, action.actor)
        weapon = wielded.get(arg) or wielded.get("both")
        keys.append(f"weapon:{weapon}" if weapon else f"attack {arg}")
    elif not arg.lstrip("-").isdigit():
        keys.append(f"{action.kind} {arg}")
    return tuple(keys)
