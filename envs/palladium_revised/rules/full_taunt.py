"""FULL Taunt, Distract and Knockdown (spec §5.6, §5.7, §7.4, R29, R38): the checks against a
Save vs Insanity (with the SAVE and POST_ROLL decisions), the debuffs and their stacks, the
forced re-targeting of an attack (redirect, spec §5.2 step 1), Distract upkeep (the
controller's attacks and non-attack spells) and Taunt upkeep (the controller is struck), and the
opposed Maneuver of a Knockdown.

Dice orders: Taunt/Distract: check d20 (actor) -> [SAVE] -> save d20 -> [POST_ROLL];
Knockdown: [redirect d100 (+ choose)] -> actor Maneuver d20 -> target Maneuver d20 (none when
surprised) -> [POST_ROLL]; redirect: d100, then ``choose(k)`` for a Distract.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .combatant import Combatant
from .events import ConditionChanged, ContestRolled, Redirected
from .full_morale import post_roll_contest, save_boost
from .full_state import save_pct
from .rolls import combat_roll, combat_total, d

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["TAUNT_RANGE", "TAUNT_SECONDS", "save_roll", "taunt", "redirect",
           "distract_upkeep", "taunt_upkeep", "knockdown", "knockdown_legal", "taunt_legal"]

TAUNT_RANGE = 60  # R29: feet
TAUNT_SECONDS = 15  # spec §5.6: 1 Round


def _boost(c: Combatant) -> int:
    if c.boost_pending:
        c.boost_pending = False
        return rulings.MORALE_PRE_ROLL
    return 0


def save_roll(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], t: Combatant, save: str,
              actor: str, check: int) -> tuple[int, int]:
    """spec §1.4.3, §6.3: the SAVE decision, then ``d20 + save bonus (+2)`` with the Save's
    percent bucket (no Exhaustion scaling); returns ``(nat, total)``."""
    flat = save_boost(enc, ctx, ev, t, save, actor, check)
    bonus = t.profile.save_magic if save == "magic" else t.profile.save_insanity
    nat = d(ctx.dice, 20)
    return nat, combat_total(nat, bonus + flat, save_pct(t, save))


def taunt_legal(c: Combatant, t: Combatant) -> bool:
    """spec §5.1 rows 9-10: a conscious enemy within 60 ft."""
    return t.side != c.side and t.active and c.dist(t) <= TAUNT_RANGE


def taunt(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], a: Combatant, t: Combatant,
          kind: str) -> bool:
    """spec §5.6: ``check = d20 + taunt (+2 boost)`` vs Save vs Insanity (Taunt|Distract);
    on ``check > save``: ``1 + floor(margin / 2)`` stacks controlled by A for 15 s (a Taunt's
    stacks each keep a timer; a new Distract stack refreshes all). Returns success."""
    if not taunt_legal(a, t):
        return False
    check = combat_roll(ctx.dice, a, "taunt", a.profile.taunt, flat=_boost(a)).total
    _, save = save_roll(enc, ctx, ev, t, f"insanity_{kind}", a.id, check)
    check, save = post_roll_contest(enc, ctx, ev, a, check, t, save, kind)
    ok = check > save
    ev.append(ContestRolled(kind, a.id, t.id, check, save, ok))
    if not ok:
        return False
    n = 1 + (check - save) // 2
    until = enc.t_abs + TAUNT_SECONDS
    fx = t.fx
    if kind == "taunt":
        old = fx.taunt[1] if fx.taunt and fx.taunt[0] == a.id else ()
        fx.taunt = (a.id, (*old, *(until,) * n))
        ev.append(ConditionChanged(t.id, "taunt", fx.taunt_stacks))
    else:
        old_n = fx.distract[1] if fx.distract and fx.distract[0] == a.id else 0
        fx.distract = (a.id, old_n + n, until)
        ev.append(ConditionChanged(t.id, "distract", fx.distract_stacks))
    return True


def redirect(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], a: Combatant, t: Combatant,
             legal: Callable[[Combatant], bool]) -> Combatant:
    """spec §5.2 step 1, at most one per attack: a Distract that T controls on A (``d100 <= 2
    x stacks``: another legal target, ``choose(k)`` in roster order, else T), or a Taunt on A
    controlled by U != T (``d100 <= stacks``: U if it is a legal target)."""
    if not enc.options.taunt_distract:
        return t
    fx = a.fx
    if fx.distract is not None and fx.distract[0] == t.id:
        r = d(ctx.dice, 100)
        if r <= 2 * fx.distract[1]:
            others = [x for x in enc.combatants if x.id != t.id and legal(x)]
            if others:
                new = others[d(ctx.dice, len(others)) - 1]
                ev.append(Redirected(a.id, t.id, new.id, "distract", r))
                return new
    elif fx.taunt is not None and fx.taunt[0] != t.id:
        r = d(ctx.dice, 100)
        u = enc.by_id.get(fx.taunt[0])
        if r <= fx.taunt_stacks and u is not None and legal(u):
            ev.append(Redirected(a.id, t.id, u.id, "taunt", r))
            return u
    return t


def distract_upkeep(enc: PalladiumEncounter, ev: list[Event], a: Combatant) -> None:
    """spec §5.6: every Distract A controls loses 1 stack (A attacked or cast a non-attack
    spell)."""
    if not enc.options.taunt_distract:
        return
    for o in enc.combatants:
        ds = o.fx.distract
        if ds is not None and ds[0] == a.id:
            o.fx.distract = (ds[0], ds[1] - 1, ds[2]) if ds[1] > 1 else None
            ev.append(ConditionChanged(o.id, "distract", o.fx.distract_stacks))


def taunt_upkeep(enc: PalladiumEncounter, ev: list[Event], t: Combatant) -> None:
    """spec §5.6, §5.2 step 12: T was struck successfully: every Taunt T controls loses 1
    stack (the one that expires first)."""
    if not enc.options.taunt_distract:
        return
    for o in enc.combatants:
        tn = o.fx.taunt
        if tn is not None and tn[0] == t.id:
            left = tuple(sorted(tn[1]))[1:]
            o.fx.taunt = (tn[0], left) if left else None
            ev.append(ConditionChanged(o.id, "taunt", len(left)))


def knockdown_legal(c: Combatant, t: Combatant) -> bool:
    """spec §5.1 row 11: an enemy, conscious or not but alive, within the actor's Close
    radius, not Prone."""
    return t.side != c.side and t.alive and c.band_to(t) <= 2 and not t.fx.prone


def knockdown(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], a: Combatant,
              t: Combatant) -> bool:
    """spec §5.7: redirect and Distract upkeep as for a Strike; opposed Maneuver (the target's
    total is 0 with no roll when surprised or unconscious); a strict win makes T Prone (its
    commitment is abandoned)."""
    t = redirect(enc, ctx, ev, a, t, lambda x: knockdown_legal(a, x))
    distract_upkeep(enc, ev, a)
    if not knockdown_legal(a, t):
        return False
    mine = combat_roll(ctx.dice, a, "maneuver", a.profile.maneuver, flat=_boost(a)).total
    rolled = t.active and not t.fx.surprised
    theirs = combat_roll(ctx.dice, t, "maneuver", t.profile.maneuver).total if rolled else 0
    mine, theirs = post_roll_contest(enc, ctx, ev, a, mine, t, theirs, "knockdown", rolled)
    ok = mine > theirs
    ev.append(ContestRolled("knockdown", a.id, t.id, mine, theirs, ok))
    if ok:
        from .full_effects import make_prone
        make_prone(ev, t)
    return ok
