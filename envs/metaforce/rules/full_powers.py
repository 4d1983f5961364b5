"""FULL M-Powers inside one attack roll (spec §6.1 W-I1, §6.4; §12.3) and the extra Size dice
(R-29): Fudge Nudge, Force Fate, Magic Effect, Hype Effect.

* **Fudge Nudge** (W-I1, the attacker, right after its roll): ``fudge <n>`` adds 1 to the n-th
  d12 of the roll (either die of an Advantage or Disadvantage roll), never above 12; the k-th
  nudge of a die costs k MP (each die starts at 1; the counters last one roll, which is the
  engine's "turn" of a die). A die made a 12 explodes and crits (its md12 is drawn then). The
  same window follows the user's damage die and Penetration die (``fudge_die``) and its saves'
  d12s, and its Create-a-Meta-Die die while that die alone does not change the band
  (``fudge_meta``: the attacker's W-I1 flag and the defender's W-I2; a Size N creature's N dice
  are not nudged).
* **Extra Size dice** (R-29): a Size N >= 2 creature rolls N V-Bonus dice and adds them: its
  critical's V gets N - 1 more md12 (drawn after the explosion and after Fudge Nudge), its
  Create a Meta-Die rolls N dice of the size its MP affords.
* **Magic Effect** (the attacker, once V is known): ``magic_effect <k>`` pays k MP (k up to its
  Level, 5 at most: the layout) to add k to V. Its other half, V on any status, is
  ``full_magic``.
* **Force Fate** (W-I1 for the attacker after its Create a Meta-Die; the defender after W-I2):
  ``force_fate <band>`` moves the ToHit exactly far enough to reach that band (up for the
  attacker, down for the defender), for MP equal to the change plus the user's earlier uses
  (``ff_uses``, persistent, spec §3.5).
* **Hype Effect** (passive): a non-d12 die of the user's at its maximum rolls one copy (no
  explosion) added to the same quantity: the weapon's bonus die (damage, and the magnitude that
  counts it in full, R-57), the Penetration die, a Special Attack's Attribute die (magnitude),
  a Create-a-Meta-Die die below md12 (ToHit). Dice order (spec §12.1): the copies of the bonus,
  Penetration and Attribute dice are item 6, after the Attribute die (item 5), which a Hype
  user therefore rolls before its damage is dealt; a Meta-Die's copy follows it at once (the
  band decides whether the bonus die is rolled).

MP is spent as each power is chosen; the windows open only for a Metaforce user holding the
power with MP for some option. CORE opens none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.d20 import Edge
from envs.core.dice import Dice
from envs.core.events import Event
from envs.core.flow import Ctx

from . import content as C
from .checks import Check, roll_meta, roll_rank
from .combatant import Combatant
from .events import HypeCopy, MPowerUsed, SizeDice

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["has", "size_extra", "size_v", "meta_value", "meta_reach", "fudge", "fudge_die",
           "fudge_meta",
           "magic_effect", "magic_mp", "force_fate", "hype_attack", "MAGIC_EFFECT_MAX"]

MAGIC_EFFECT_MAX = 5
"""ENGINE: the most MP Magic Effect adds to one V (the layout's ``magic_effect 1..5``)"""


def has(enc: MetaforceEncounter, c: Combatant, power: str) -> bool:
    return enc.options.full and c.mu and power in c.profile.mpowers


def size_extra(enc: MetaforceEncounter, c: Combatant) -> int:
    """R-29 (FULL): the extra V-Bonus dice of a Size N >= 2 creature, N - 1."""
    return int(c.profile.size) - 1 if enc.options.full and c.profile.size >= 2 else 0


def size_v(enc: MetaforceEncounter, dice: Dice, ev: list[Event], a: Combatant,
           chk: Check) -> Check:
    """R-29: a critical's V plus N - 1 md12 for a Size N attacker."""
    n = size_extra(enc, a)
    if not chk.crit or n <= 0:
        return chk
    extra = tuple(roll_meta(dice, C.VERSATILE_DIE) for _ in range(n))
    ev.append(SizeDice(a.id, "V", extra, chk.v + sum(extra)))
    return replace(chk, v=chk.v + sum(extra))


def meta_reach(enc: MetaforceEncounter, c: Combatant, sides: int) -> int:
    """The most a Create-a-Meta-Die of ``sides`` can add (R-29: N dice)."""
    return sides * (1 + size_extra(enc, c))


def meta_value(enc: MetaforceEncounter, dice: Dice, ev: list[Event], c: Combatant,
               sides: int, quantity: str = "tohit") -> tuple[int, int]:
    """Create a Meta-Die (dice order item 3): ``(value, cost)``. One md, or N for a Size N
    creature (R-29), plus a Hype copy (free) for each die below md12 at its maximum; the cost
    is the dice's result, at most the MP left (ENGINE: N dice can show more than it holds)."""
    faces = [roll_meta(dice, sides) for _ in range(1 + size_extra(enc, c))]
    if len(faces) > 1:
        ev.append(SizeDice(c.id, "Meta-Die", tuple(faces), sum(faces)))
    copies = sum(_hype(enc, dice, ev, c, sides, f, quantity, True) for f in faces)
    return sum(faces) + copies, min(sum(faces), c.mp)


def _hype(enc: MetaforceEncounter, dice: Dice, ev: list[Event], c: Combatant, sides: int,
          value: int, quantity: str, meta: bool) -> int:
    """Hype Effect: the copy of a non-d12 die at its maximum (0 when there is none)."""
    if not sides or sides == 12 or value < sides or not has(enc, c, "hype_effect"):
        return 0
    copy = roll_meta(dice, sides) if meta else dice.roll(sides)[0]
    ev.append(HypeCopy(c.id, sides, copy, quantity))
    return copy


def hype_attack(enc: MetaforceEncounter, dice: Dice, ev: list[Event], a: Combatant,
                bonus_die: int, bonus: int, pen_die: int, pen_meta: bool, pen: int,
                attr: int | None) -> tuple[int, int, int | None]:
    """A Hype user's attack after its bonus and Penetration dice: ``(bonus, pen, attribute
    die)``; ``attr`` is the Attribute of a Special Attack's magnitude die, rolled here (item 5)
    before the copies (item 6); ``None`` without one."""
    value = roll_rank(dice, attr) if attr is not None else None
    bonus += _hype(enc, dice, ev, a, bonus_die, bonus, "damage", False)
    if pen_die:
        pen += _hype(enc, dice, ev, a, pen_die, pen, "penetration", pen_meta)
    if value is not None and attr is not None:
        die = C.rank_die(attr)
        if die is not None and die.count == 1:
            value += _hype(enc, dice, ev, a, die.sides, value, "magnitude", True)
    return bonus, pen, value


def fudge(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant, t: Combatant,
          chk: Check, dice: Dice) -> Check:
    """Fudge Nudge (W-I1): nudge the roll's d12s one at a time until the attacker passes. In a
    one-die roll that is a 12, ``fudge 2`` nudges its explosion md12: RULING (ENGINE, spec §6.4
    "+1 to a rolled die"): a Meta die's nudge adds 1 to its result (at least its minimum), so
    to V, never above 12."""
    if not has(enc, a, "fudge_nudge"):
        return chk
    n = 1 if chk.other is None else 2
    faces, nudged = list(chk.faces[:n]), [0] * n
    md = chk.faces[1] if n == 1 and len(chk.faces) > 1 else None  # the explosion md12
    v, v_nudged = chk.v, 0
    while True:
        costs = {str(i + 1): nudged[i] + 1 for i in range(n)
                 if faces[i] < 12 and a.mp >= nudged[i] + 1}
        if md is not None and v < C.VERSATILE_DIE and a.mp >= v_nudged + 1:
            costs["2"] = v_nudged + 1
        if not costs:
            break
        opts = [Action(a.id, "fudge", (k,)) for k in sorted(costs)] + [Action(a.id, "pass")]
        info: dict[str, object] = {"target": t.id, "dice": list(faces), "costs": costs}
        if md is not None:
            info["v"] = v
        pick = ctx.ask(a.id, "fudge", opts, info)
        if pick.kind != "fudge":
            break
        cost = costs[pick.args[0]]
        a.mp -= cost
        if md is not None and pick.args[0] == "2":
            v_nudged += 1
            v += 1
            ev.append(MPowerUsed(a.id, "fudge_nudge", cost, f"V md12 now {v}"))
            continue
        i = int(pick.args[0]) - 1
        nudged[i] += 1
        faces[i] += 1
        ev.append(MPowerUsed(a.id, "fudge_nudge", cost, f"d12 {i + 1} now {faces[i]}"))
        if n == 1 and faces[0] == 12:  # a new 12 explodes: its md12 now (dice order item 2)
            md = dice.roll(C.VERSATILE_DIE)[0]
            v = max(md, C.meta_minimum(C.VERSATILE_DIE))
    if not any(nudged) and not v_nudged:
        return chk
    if n == 1:
        return Check(chk.steps, (faces[0],) if md is None else (faces[0], md), faces[0], None,
                     chk.penalty, v)
    kept = max(faces) if chk.edge is Edge.ADVANTAGE else min(faces)
    other = faces[1] if faces[0] == kept else faces[0]
    v = C.two_dice_versatile(other) if kept == 12 else chk.v
    return Check(chk.steps, (*faces, *chk.faces[n:]), kept, other, chk.penalty, v)


def fudge_die(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant, t: Combatant,
              face: int, sides: int, what: str) -> int:
    """Fudge Nudge on another of the user's own dice (spec §6.4: "any of the user's own
    rolls"): ``fudge 1`` adds 1 to that die (``what``: ``damage``, the weapon's bonus die), never
    above ``sides``; the k-th nudge of the die costs k MP. Returns the face."""
    if not has(enc, a, "fudge_nudge"):
        return face
    return _nudges(ctx, ev, a, t, face, sides, what, f"d{sides} ({what})")


def _nudges(ctx: Ctx, ev: list[Event], c: Combatant, other: Combatant, face: int, sides: int,
            what: str, name: str, works: Callable[[int], bool] | None = None,
            reserve: bool = False) -> int:
    """The ``fudge 1`` window on one die of ``c``'s, asked again after each nudge while the
    face is below ``sides`` (and, with ``works``, does not yet do its work) and the MP pay the
    next nudge (the k-th costs k; ``reserve``: and then the die's new result). Returns the
    face."""
    nudged = 0
    while face < sides and (works is None or not works(face)) \
            and c.mp >= nudged + 1 + (face + 1 if reserve else 0):
        cost = nudged + 1
        pick = ctx.ask(c.id, "fudge", [Action(c.id, "fudge", ("1",)), Action(c.id, "pass")],
                       {"target": other.id, "dice": [face], "costs": {"1": cost}, "die": what})
        if pick.kind != "fudge":
            break
        c.mp -= cost
        nudged += 1
        face += 1
        ev.append(MPowerUsed(c.id, "fudge_nudge", cost, f"{name} now {face}"))
    return face


def fudge_meta(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
               other: Combatant, value: int, sides: int, works: Callable[[int], bool]) -> int:
    """Fudge Nudge on ``c``'s own Create-a-Meta-Die die (spec §6.4 "any of the user's own
    rolls"): while the die's ``value`` does not yet do its work (``works``: it changes the
    band), ``fudge 1`` adds 1, never above ``sides``; the k-th nudge costs k MP, and a nudge is
    offered only while the MP left would still pay the die's new result (the Meta-Die's cost).
    Returns the value."""
    if not has(enc, c, "fudge_nudge") or size_extra(enc, c) or value >= sides:
        return value
    return _nudges(ctx, ev, c, other, value, sides, "Meta-Die", f"md{sides} (Meta-Die)", works,
                   reserve=True)


def magic_effect(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant,
                 t: Combatant, chk: Check) -> Check:
    """Magic Effect: up to Level MP added to a critical's V, +1 per MP."""
    if not chk.crit:
        return chk
    v = magic_mp(enc, ctx, ev, a, t, chk.v)
    return chk if v == chk.v else replace(chk, v=v)


def magic_mp(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant, t: Combatant,
             v: int) -> int:
    """Magic Effect's ``magic_effect k`` window on a V-Bonus ``v`` (a critical's, or a Meta-Die's
    put on a status, ``full_magic``): returns ``v + k`` (``v`` when passed or not open)."""
    if not has(enc, a, "magic_effect"):
        return v
    top = min(a.profile.level, a.mp, MAGIC_EFFECT_MAX)
    if top < 1:
        return v
    opts = [Action(a.id, "magic_effect", (str(k),)) for k in range(1, top + 1)]
    pick = ctx.ask(a.id, "magic_effect", opts + [Action(a.id, "pass")], {"target": t.id, "v": v})
    if pick.kind != "magic_effect":
        return v
    k = int(pick.args[0])
    a.mp -= k
    ev.append(MPowerUsed(a.id, "magic_effect", k, f"V {v} -> {v + k}"))
    return v + k


def force_fate(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], user: Combatant,
               other: Combatant, tohit: int, e: int, d: int, fd: bool, up: bool) -> int:
    """Force Fate on an attack's ToHit: ``up`` for the attacker (``user``), down for the
    defender. Returns the ToHit."""
    if not has(enc, user, "force_fate") or not user.active:
        return tohit
    from .attack import band
    now = band(tohit, e, d, fd)
    moves = {"deflected": e - tohit, "direct": (e if fd else d + 1) - tohit} if up else \
        {"miss": (e - 1) - tohit, "deflected": d - tohit}
    costs = {b: abs(k) + user.ff_uses for b, k in moves.items()
             if (k > 0 if up else k < 0) and band(tohit + k, e, d, fd) == b != now
             and abs(k) + user.ff_uses <= user.mp}
    if not costs:
        return tohit
    opts = [Action(user.id, "force_fate", (b,)) for b in costs] + [Action(user.id, "pass")]
    pick = ctx.ask(user.id, "force_fate", opts, {"other": other.id, "tohit": tohit,
                                                  "costs": costs})
    if pick.kind != "force_fate":
        return tohit
    goal = pick.args[0]
    user.mp -= costs[goal]
    user.ff_uses += 1
    new = tohit + moves[goal]
    ev.append(MPowerUsed(user.id, "force_fate", costs[goal], f"ToHit {tohit} -> {new}"))
    return new
