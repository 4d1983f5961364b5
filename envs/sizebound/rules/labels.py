"""The label grammar (see ``legal``): ``parse_action`` accepts only these shapes."""

from __future__ import annotations

from envs.core.actions import Action, ActionSyntaxError
from envs.core.actions import parsed_label as parse
from envs.core.actions import shared_action as act

from . import rulings

__all__ = ["check_label", "SHAPES", "PAIRS", "act", "parse"]

SHAPES: dict[str, tuple[tuple[str, ...] | None, bool | None]] = {
    # kind: (allowed first args or None for none / any, needs target: True, False or None=maybe)
    "end_turn": ((), False), "step": (rulings.DIRECTIONS, False), "run": ((), False),
    "stand": ((), False), "aim": ((), False), "recover": (("hp", "mana"), False),
    "drop_prone": ((), False), "swap": ((), False), "free_hand": ((), False),
    "pick_up": (None, False), "drop": (None, False), "break_free": ((), True),
    "release": ((), True),
    "tighten": ((), True), "attack": (("main", "off"), True), "jab": (("atk", "bonus"), True),
    "trip": (("atk", "move"), True), "grapple": ((), True), "disarm": ((), True),
    "cast": (None, None), "parry": ((), False), "dodge": ((), False), "block": ((), False),
    "spend": ((), False), "negate": ((), False), "pass": ((), False),
    "rise": ((), False), "descend": ((), False), "dive": ((), False),  # FULL §5.2.17-18
    "wall_cling": ((), False),  # FULL: R-FALL answer (§5.2.17)
    # FULL (part B): Quick Draw (spec §6.4.5), Dispel and the caster's payment (spec §6.4.6)
    "quick_draw": ((), False), "quick_strike": ((), True), "dispel": ((), False),
    "pay": ((), False),
    # FULL (spec §5.1 rows 20-28, §5.2.12-§5.2.16, §6.6)
    "react": (("eyes", "ears", "breath"), False), "act": (("eyes", "ears", "breath"), False),
    "free_rooted": ((), False), "search": ((), False), "terrified": ((), False),
    "strangle": ((), True), "steal": ((), True), "extinguish": ((), True),
    "lift": ((), True), "throw": ((), True),  # FULL (spec §5.2.16)
    "swing": ((), True),  # FULL: a melee swing with a wielded creature (full_wield)
}
PAIRS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # kind: (first words, second words), no target: FULL Leap (full_leap) and a throw at a
    # cell (full_wield), ``<dir> <distance>``
    "leap": (rulings.DIRECTIONS, ("1", "2", "3")),
    "throw_to": (rulings.DIRECTIONS, ("1", "2", "3", "4", "5", "6")),
}


def check_label(a: Action, label: str) -> None:
    """Raise ``ActionSyntaxError`` for a label outside the grammar (one clear message)."""
    if a.kind in PAIRS or (a.kind == "cast" and len(a.args) == 2):
        _check_pair(a, label)
        return
    shape = SHAPES.get(a.kind)
    if shape is None:
        raise ActionSyntaxError(f"cannot read action {label!r}: unknown kind {a.kind!r}; "
                                f"known: {', '.join([*SHAPES, *PAIRS])}")
    args, target = shape
    if args == ():
        ok = not a.args
    elif args is None:
        ok = len(a.args) == 1
    else:
        ok = len(a.args) == 1 and a.args[0] in args
    if not ok:
        want = "no words" if args == () else "one word" if args is None else " or ".join(args)
        raise ActionSyntaxError(f"cannot read action {label!r}: {a.kind} takes {want}")
    if target is True and a.target is None:
        raise ActionSyntaxError(f"cannot read action {label!r}: {a.kind} needs '-> <target>'")
    if target is False and a.target is not None:
        raise ActionSyntaxError(f"cannot read action {label!r}: {a.kind} takes no target")
    if a.boosts:
        raise ActionSyntaxError(f"cannot read action {label!r}: Sizebound labels take no '+'")


def _check_pair(a: Action, label: str) -> None:
    """``leap <dir> <1-3>``, ``throw_to <dir> <1-6>`` and ``cast <skill> <dir>`` (a Line or
    Cone skill, FULL ``full_areas``): two words, no target."""
    if a.kind == "cast":
        first: tuple[str, ...] | None = None
        second: tuple[str, ...] = rulings.DIRECTIONS
    else:
        first, second = PAIRS[a.kind]
    ok = len(a.args) == 2 and (first is None or a.args[0] in first) and a.args[1] in second
    if not ok:
        want = f"<{'skill' if first is None else '|'.join(first)}> <{'|'.join(second)}>"
        raise ActionSyntaxError(f"cannot read action {label!r}: {a.kind} takes {want}")
    if a.target is not None:
        raise ActionSyntaxError(f"cannot read action {label!r}: {a.kind} takes no target")
    if a.boosts:
        raise ActionSyntaxError(f"cannot read action {label!r}: Sizebound labels take no '+'")
