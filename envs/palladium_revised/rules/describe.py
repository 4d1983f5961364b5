"""Plain words for an action (the registry's ``describe(action, view) -> str``): what a person
reads in ``suggest``, ``play`` and replay captions. ``view`` is the encounter the action is
legal in (read only)."""

from __future__ import annotations

from typing import Any

from envs.core.actions import Action

__all__ = ["describe"]

_MODES = {"engage": "to its own reach of", "close": "to close range of",
          "edge": "to just outside the Zone of", "away": "away from"}


def _name(view: Any, cid: str | None) -> str:
    c = view.by_id.get(cid or "") if view is not None else None
    return c.profile.name.replace("_", " ") if c is not None else str(cid)


def describe(action: Action, view: Any = None) -> str:
    """``action`` in plain words (e.g. "strike the duelist with the long sword")."""
    a, k = action, action.kind
    t = _name(view, a.target)
    morale = " spending 1 Morale (+2)" if a.boosts else ""
    if k == "strike":
        return f"strike the {t} with the {a.args[0].replace('_', ' ')}"
    if k in ("move", "step"):
        how = "run (1 Action)" if k == "move" else "step (free)"
        return f"{how} {_MODES[a.args[0]]} the {t}"
    if k == "closing_wounds":
        return f"close wounds ({a.args[0]} Stamina, no rolls for 3 s)"
    if k == "power_draw":
        return f"draw power ({a.args[0]} Stamina, +{a.args[0]} E.E. per s for 3 s, no rolls)"
    if k == "drop" and a.args and a.args[0] != "closing_wounds":
        return {"power_draw": "end Power Draw", "ward": "end the Ward"}.get(a.args[0], a.label)
    if k in ("taunt", "distract"):
        what = "to attack it" if k == "taunt" else "away from attacking it"
        return f"{k} the {t} (goad it {what})"
    if k == "knockdown":
        return f"knock the {t} down (opposed Maneuver)"
    if k == "cast":
        return f"cast {a.args[0].replace('_', ' ')} at the {t}"
    if k == "multidodge":
        back = " and fall back" if a.args == ("back",) else ""
        return f"multi-dodge every attack until the next turn{back}{morale}"
    words = {
        "wait": "wait (spend the slot)", "defend": "defend (dodges cost no slot)",
        "rest": "rest (1D4 Stamina per 5 s)", "continue": "keep the committed action going",
        "morale_boost": "spend 1 Morale for +2 on the next roll this turn",
        "drop": "end Closing Wounds", "parry": f"parry{morale}", "dodge": f"dodge{morale}",
        "pass": "no reaction",
        "stand": "stand up (free; no move or attack after it this turn)",
        "extinguish": "beat out the flames (Ignite -2 s)",
        "morale_to_se": "spend 1 Morale for 5% of the S.E. pool",
        "escape": "escape the fight at the home edge",
    }
    if k == "spend_morale":  # spec §6.3 (+2 before a save), §6.4 (+1 after a roll)
        w = getattr(view, "window", None)
        return ("spend 1 Morale for +2 on the save" if w is not None and w.kind == "save"
                else "spend 1 Morale for +1 on the roll")
    return words.get(k, a.label)
