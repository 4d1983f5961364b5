"""The label grammar (spec §12.4 kinds as text): ``parse_action`` accepts only these shapes.

Turn (TURN / COMMITTED decisions)::

    <id>: wait                          <id>: defend              <id>: rest
    <id>: closing_wounds <1..5>         <id>: morale_boost        <id>: drop closing_wounds
    <id>: strike <weapon> -> <enemy>    <id>: continue
    <id>: move engage|close|edge|away -> <ref>      (Full Move, 1 Action)
    <id>: step engage|close|edge|away -> <ref>      (free, once per turn)

Windows (DEFENSE, OPPORTUNITY; ``pass`` always legal)::

    <id>: parry [+morale]     <id>: dodge [+morale]     <id>: multidodge stay|back [+morale]
    <id>: strike <weapon> -> <mover>                    <id>: pass
"""

from __future__ import annotations

from envs.core.actions import Action, ActionSyntaxError

from .combatant import Combatant
from .movement import MODES

__all__ = ["check_label", "SHAPES"]

SHAPES: dict[str, tuple[tuple[str, ...] | None, bool, bool]] = {
    # kind: (allowed single arg, () for none, None for a weapon id; needs target; +morale)
    "wait": ((), False, False), "defend": ((), False, False), "rest": ((), False, False),
    "continue": ((), False, False), "morale_boost": ((), False, False),
    "pass": ((), False, False),
    "closing_wounds": (("1", "2", "3", "4", "5"), False, False),
    "drop": (("closing_wounds",), False, False),
    "strike": (None, True, False),
    "move": (MODES, True, False), "step": (MODES, True, False),
    "parry": ((), False, True), "dodge": ((), False, True),
    "multidodge": (("stay", "back"), False, True),
}


def _fail(label: str, why: str) -> None:
    raise ActionSyntaxError(f"cannot read action {label!r}: {why}")


def check_label(a: Action, label: str, c: Combatant) -> None:
    """Raise ``ActionSyntaxError`` for a label outside the grammar (one clear message)."""
    shape = SHAPES.get(a.kind)
    if shape is None:
        _fail(label, f"unknown kind {a.kind!r}; known: {', '.join(SHAPES)}")
        return
    args, target, morale = shape
    if args == ():
        if a.args:
            _fail(label, f"{a.kind} takes no words")
    elif args is None:
        ids = [w.id for w in c.profile.weapons]
        if len(a.args) != 1 or a.args[0] not in ids:
            _fail(label, f"{c.id} has no weapon {' '.join(a.args)!r}; weapons: {', '.join(ids)}")
    elif len(a.args) != 1 or a.args[0] not in args:
        _fail(label, f"{a.kind} takes one of {', '.join(args)}")
    if target and a.target is None:
        _fail(label, f"{a.kind} needs '-> <target>'")
    if not target and a.target is not None:
        _fail(label, f"{a.kind} takes no target")
    if a.boosts and (not morale or a.boosts != ("morale",)):
        _fail(label, "the only '+' flag is '+morale', on parry, dodge and multidodge")
