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

FULL only (spec §12.2; never legal under CORE)::

    <id>: stand                 <id>: extinguish          <id>: morale_to_se
    <id>: power_draw <1..5>     <id>: drop power_draw     <id>: drop ward
    <id>: escape                <id>: spend_morale        (SAVE and POST_ROLL windows)
    <id>: taunt -> <enemy>      <id>: distract -> <enemy> <id>: knockdown -> <enemy>
    <id>: cast <spell> -> <target>          (TURN, COMMITTED; OPPORTUNITY: 1-Action attack
                                             spells at the mover)

Each maps onto one row of spec §12.4: STAND 4, EXTINGUISH 5, MORALE_TO_SE 7, POWER_DRAW 13-17,
DROP_POWER_DRAW 19, DROP_WARD 20, SPEND_MORALE 29, ESCAPE 30, TAUNT/DISTRACT/KNOCKDOWN j
31+21j+11..13, CAST spell slot s at j 31+21j+14+s (s = the spell's index in the caster's list).
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
    "drop": (("closing_wounds", "power_draw", "ward"), False, False),
    "strike": (None, True, False),
    "move": (MODES, True, False), "step": (MODES, True, False),
    "parry": ((), False, True), "dodge": ((), False, True),
    "multidodge": (("stay", "back"), False, True),
    # FULL (spec §12.2)
    "stand": ((), False, False), "extinguish": ((), False, False),
    "morale_to_se": ((), False, False), "escape": ((), False, False),
    "spend_morale": ((), False, False),
    "power_draw": (("1", "2", "3", "4", "5"), False, False),
    "taunt": ((), True, False), "distract": ((), True, False), "knockdown": ((), True, False),
    "cast": (None, True, False),
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
        what = "spell" if a.kind == "cast" else "weapon"
        ids = (list(c.profile.spells) if a.kind == "cast"
               else [w.id for w in c.profile.weapons])
        if len(a.args) != 1 or a.args[0] not in ids:
            _fail(label, f"{c.id} has no {what} {' '.join(a.args)!r}; {what}s: "
                  f"{', '.join(ids) or 'none'}")
    elif len(a.args) != 1 or a.args[0] not in args:
        _fail(label, f"{a.kind} takes one of {', '.join(args)}")
    if target and a.target is None:
        _fail(label, f"{a.kind} needs '-> <target>'")
    if not target and a.target is not None:
        _fail(label, f"{a.kind} takes no target")
    if a.boosts and (not morale or a.boosts != ("morale",)):
        _fail(label, "the only '+' flag is '+morale', on parry, dodge and multidodge")
