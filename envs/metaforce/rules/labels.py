"""The label grammar (spec §12.5 actions as text): ``parse_action`` accepts only these shapes.

Frame actions (the turn owner; ``[mode]`` is ``approach`` or ``retreat``, none for hold)::

    <id>: pass [<mode> -> <ref>]            <id>: dash <mode> -> <ref>
    <id>: attack <weapon> [<mode>] -> <target> [+meta]
    <id>: fire <firearm> <shots> [<mode>] -> <target>
    <id>: throw <weapon> [<mode>] -> <target>
    <id>: special [<mode> -> <ref>]         <id>: reload <firearm> [<mode> -> <ref>]
    <id>: prime <bow> [<mode> -> <ref>]     <id>: grapple [<mode>] -> <target>
    <id>: maintain -> <grappled>            <id>: escape <status>
    <id>: release -> <grappled>             (free: the grappler lets go, spec §5.9 item 4)
    <id>: vigilance                         <id>: withdraw         <id>: end_turn

Windows (W-R1 Reaction after an enemy frame; W-I5 Deus Ex)::

    <id>: react attack <weapon> -> <trigger> [+meta]    <id>: react throw <weapon> -> <trigger>
    <id>: react approach -> <trigger>                   <id>: react retreat -> <trigger>
    <id>: deus_ex                                       <id>: pass

FULL adds ``react prime <bow>``, ``react maintain -> <grappled>`` (W-R1), ``dodge`` (W-R2),
``meta_die`` (W-I2, the defender's Create a Meta-Die),
``crash_out`` (W-I3), ``finish -> <target>`` (W-I4, Finishing Touch) and, with the option
``crit_policy: agent``, ``crit tohit|damage|magnitude|size`` (the V of a critical); on its own
turn an Action-8/React-4 holder may take the free ``action8`` (+1 frame) and ``react4``, a
Safe-6/Assurance-8 holder the free ``safe6`` and ``assurance8``; a caster ``cast <spell>
[<mode>] -> <target>``, ``channel [<mode>] -> <target>`` (the next casting frame) and
``tap_mana [<mode> -> <ref>]`` (R-24: a mode is a 5-ft step); the M-Powers of
``full_meta``: ``link -> <ally>`` (Initiative Link, free), ``team_work -> <ally>`` (a frame) and
``react action8`` (W-R1: the Reaction becomes a whole frame); and those of ``full_powers``:
``fudge 1|2`` (W-I1 Fudge Nudge), ``force_fate miss|deflected|direct`` (W-I1 for the attacker,
after W-I2 for the defender) and ``magic_effect 1..5`` (MP added to a V); Magic Effect's ``crit
magnitude <status>`` and ``meta_status <status>`` (a V on any status, ``full_magic``); an expert
shooter's ``reload_fire <gun> [<mode>] -> <target>`` (``full_firearms``).
"""

from __future__ import annotations

from envs.core.actions import Action, ActionSyntaxError

from .combatant import Combatant
from .full_magic import MAGIC_STATUSES
from .legal import MODES

__all__ = ["check_label", "KINDS"]

KINDS = ("pass", "dash", "attack", "fire", "throw", "special", "reload", "prime", "grapple",
         "maintain", "escape", "vigilance", "withdraw", "end_turn", "react", "deus_ex", "dodge",
         "crash_out", "finish", "crit", "action8", "react4", "safe6", "assurance8", "meta_die",
         "cast", "channel", "tap_mana", "link", "team_work", "fudge", "force_fate",
         "magic_effect", "reload_fire", "convoke", "concentrate", "release", "combo",
         "meta_status")
_POWER_ARGS = {"fudge": ("1", "2"), "force_fate": ("miss", "deflected", "direct"),
               "magic_effect": ("1", "2", "3", "4", "5")}
"""the one word of FULL's W-I1 powers (full_powers): the d12 nudged, the band, the MP"""
_WEAPON = ("attack", "fire", "throw", "reload", "prime", "reload_fire")
_NEEDS_TARGET = ("dash", "attack", "fire", "throw", "grapple", "maintain", "finish", "cast",
                 "channel", "link", "team_work", "reload_fire", "combo")
_BARE = ("vigilance", "withdraw", "end_turn", "deus_ex", "maintain", "dodge", "crash_out",
         "finish", "action8", "react4", "safe6", "assurance8", "meta_die", "channel",
         "tap_mana", "link", "team_work", "convoke", "concentrate")


def _fail(label: str, why: str) -> None:
    raise ActionSyntaxError(f"cannot read action {label!r}: {why}")


def check_label(a: Action, label: str, c: Combatant) -> None:
    """Raise ``ActionSyntaxError`` for a label outside the grammar (one clear message)."""
    if a.kind not in KINDS:
        _fail(label, f"unknown kind {a.kind!r}; known: {', '.join(KINDS)}")
    args = list(a.args)
    if a.boosts and (a.boosts != ("meta",) or a.kind not in ("attack", "react")):
        _fail(label, "the only '+' flag is '+meta', on attack and react attack")
    if a.kind == "react":
        if not args or args[0] not in ("attack", "throw", "approach", "retreat", "prime",
                                       "maintain", "action8"):
            _fail(label, "react takes attack <weapon>, throw <weapon>, prime <bow>, maintain, "
                         "approach, retreat or action8")
        want = 2 if args[0] in ("attack", "throw", "prime") else 1
        if len(args) != want:
            _fail(label, f"react {args[0]} takes {want - 1} more word(s)")
        if want == 2:
            _weapon(label, c, args[1])
        bare = args[0] in ("prime", "action8")
        if not bare and a.target is None:
            _fail(label, f"react {args[0]} needs '-> <target>'")
        if bare and a.target is not None:
            _fail(label, f"react {args[0]} takes no target")
    else:
        if args and args[-1] in MODES:
            if (a.kind in _BARE and a.kind not in ("channel", "tap_mana")) \
                    or a.kind == "escape":
                _fail(label, f"{a.kind} takes no movement mode")
            if a.target is None:
                _fail(label, "a movement mode needs '-> <reference>'")
            args.pop()
        elif a.kind == "dash":
            _fail(label, "dash needs approach or retreat")
        elif a.target is not None and a.kind in ("pass", "special", "reload", "prime"):
            _fail(label, f"{a.kind} takes a target only with a movement mode")
        if a.kind in _WEAPON:
            if not args:
                _fail(label, f"{a.kind} needs a weapon id")
            _weapon(label, c, args[0])
            more = 1 if a.kind == "fire" else 0
            if len(args) != 1 + more or (more and not args[1].isdigit()):
                _fail(label, f"{a.kind} takes <weapon>{' <shots>' if more else ''}")
        elif a.kind == "escape":
            if len(args) != 1:
                _fail(label, "escape takes one status (grappled, burn; FULL: slow, fear, "
                             "charm)")
        elif a.kind == "combo":
            n = len(c.profile.frame_combos)
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) >= n:
                _fail(label, f"{c.id} has {n} frame combo(s): combo takes 0..{n - 1}")
        elif a.kind == "release" and not (a.target is not None and not args):
            held = [sp.id for sp in c.profile.cantrips]
            if len(args) != 1 or args[0] not in held or a.target is not None:
                _fail(label, f"release takes '-> <grappled>' or one of {c.id}'s cantrips: "
                             f"{', '.join(held) or 'none'}")
        elif a.kind == "cast":
            spells = [sp.id for sp in c.profile.spells] + [sp.id for sp in c.profile.cantrips]
            if len(args) != 1 or args[0] not in spells:
                _fail(label, f"{c.id} has no spell {' '.join(args)!r}; spells: "
                             f"{', '.join(spells) or 'none'}")
            if len(args) < len(a.args) and args[0] not in [sp.id for sp in c.profile.spells]:
                _fail(label, "only a levelled spell's cast takes a movement mode (R-24)")
        elif a.kind in _POWER_ARGS:
            if len(args) != 1 or args[0] not in _POWER_ARGS[a.kind]:
                _fail(label, f"{a.kind} takes one of {', '.join(_POWER_ARGS[a.kind])}")
        elif a.kind == "crit":
            if args not in (["tohit"], ["damage"], ["magnitude"], ["size"]) and not (
                    len(args) == 2 and args[0] == "magnitude" and args[1] in MAGIC_STATUSES):
                _fail(label, "crit takes tohit, damage, magnitude, magnitude <status> or size")
        elif a.kind == "meta_status":
            if len(args) != 1 or args[0] not in MAGIC_STATUSES:
                _fail(label, f"meta_status takes one status: {', '.join(MAGIC_STATUSES)}")
        elif args:
            _fail(label, f"{a.kind} takes no words besides a movement mode")
    if a.kind in _NEEDS_TARGET and a.target is None:
        _fail(label, f"{a.kind} needs '-> <target>'")
    if a.kind in ("vigilance", "withdraw", "end_turn", "deus_ex", "dodge", "crash_out", "crit",
                  "action8", "react4", "safe6", "assurance8", "meta_die", "tap_mana",
                  "convoke", "concentrate", "meta_status", *_POWER_ARGS) \
            and a.target is not None and not (a.kind == "tap_mana" and len(args) < len(a.args)):
        _fail(label, f"{a.kind} takes no target")


def _weapon(label: str, c: Combatant, wid: str) -> None:
    ids = [w.id for w in c.profile.weapons]
    if wid not in ids:
        _fail(label, f"{c.id} has no weapon {wid!r}; weapons: {', '.join(ids) or 'none'}")
