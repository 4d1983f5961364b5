"""Names of Palladium Revised's options for ``arena balance`` (registry part ``balance``).

A Strike names its weapon (``weapon:long_sword``, an opportunity Strike too; spec §5.2, §6.2), a
spell its name (``cast fire_bolt``, spec §5.9), a Multi-Dodge its kind (``multidodge back``,
spec §6.1), a Morale purchase on a reaction ``boost:morale`` (the ``_M`` variants, spec §5.10);
Steps and Full Moves name only their family (a mode toward a combatant is not an option), Closing
Wounds only its family (X is an amount). ``combatant_options`` lists every weapon and spell of the
stat block (from the public snapshot), so one never in reach shows too. It imports no RL library.
"""

from __future__ import annotations

from typing import Any

__all__ = ["option_keys", "combatant_options", "TURN_STRUCTURE", "RULE_CHOICES"]

RULE_CHOICES: dict[str, tuple[str, ...]] = {}
"""the text fields of ``RuleOptions`` besides ``version``: none (its rulings are flags and
numbers, spec §12.1-§12.2)"""

TURN_STRUCTURE = frozenset({"family:wait", "family:pass", "family:continue"})
"""the turn's structure, not a choice to ban: Wait spends the slot doing nothing, Pass declines a
reaction, Continue keeps a multi-Action commitment (spec §4.7, §4.8, §5.1 rows 4 and 18)"""

_PLAIN = frozenset({"step", "move", "closing_wounds", "power_draw"})


def option_keys(enc: Any, action: Any) -> tuple[str, ...]:
    """``family:<kind>``, ``weapon:<w>`` of a Strike, ``<kind> <arg>`` otherwise, and
    ``boost:<b>`` for a reaction bought up with Morale."""
    keys = [f"family:{action.kind}"]
    args = [str(a) for a in action.args]
    if args and action.kind not in _PLAIN:
        keys.append(f"weapon:{args[0]}" if action.kind == "strike"
                    else f"{action.kind} {args[0]}")
    keys += [f"boost:{b}" for b in action.boosts]
    return tuple(keys)


def combatant_options(enc: Any, cid: str) -> tuple[str, ...]:
    """Every weapon (``weapon:<w>``, unarmed included) of ``cid`` and, when the rules have
    spells (FULL, spec §12.2), every spell (``cast <s>``)."""
    snap = enc.snapshot()
    profile = snap["profiles"].get(cid, {})
    spells = profile.get("spells", ()) if snap["options"].get("spells") else ()
    return (*(f"weapon:{w['id']}" for w in profile.get("weapons", ())),
            *(f"cast {s}" for s in spells))
