"""FULL actions of a turn (spec §5.1 rows 8-19, §4.7): their legality (added to and filtered
from the CORE list by ``adjust``), the free actions (Stand up, Morale -> S.E., DROP_POWER_DRAW,
DROP_WARD), the costs paid at declaration (Power Draw's Stamina, a spell's E.E., the Stunned
fizzle of Closing Wounds, Power Draw and spells) and the main actions' effects (Power Draw,
Extinguish, Taunt, Distract, Knockdown, Cast, Escape). Opportunity casts (spec §6.2): 1-Action
attack spells at the mover."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .combatant import Combatant
from .events import ConditionChanged
from .full_state import stamina_cost
from .legal import act

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["FULL_FREE", "FULL_MAIN", "adjust", "is_full_free", "resolve_free", "declare",
           "resolve_full", "opportunity_casts", "cast_still_legal"]

FULL_FREE = ("stand", "morale_to_se")
FULL_MAIN = ("power_draw", "extinguish", "taunt", "distract", "knockdown", "cast", "escape")
POWER_DRAW_SECONDS = 3  # spec §5.5


def is_full_free(a: Action) -> bool:
    return a.kind in FULL_FREE or (a.kind == "drop" and a.args[:1] != ("closing_wounds",))


def adjust(enc: PalladiumEncounter, c: Combatant, acts: list[Action],
           committed: bool) -> list[Action]:
    """The FULL turn list: Prone and Stand limits on the CORE actions (spec §5.1, §7.3.5),
    then the FULL free and main actions."""
    o, fx, used = enc.options, c.fx, enc.free_used
    stood = "stand" in used
    if not fx.prone and not stood:
        out = acts  # no Prone or Stand limit to apply (``acts`` is this call's own list)
    else:
        out = []
        for a in acts:
            if (a.kind == "move" and (fx.prone or stood)) or (a.kind == "step" and fx.prone):
                continue  # spec §5.7: a Step is allowed after Stand up
            if a.kind == "strike" and (stood or (fx.prone
                                                 and c.profile.weapon(a.args[0]).hands > 1)):
                continue
            out.append(a)
    if o.common_effects and fx.prone and not committed and "stand" not in used:
        out.append(act(c.id, "stand"))
    if o.morale_to_se and c.morale >= 1 and c.profile.se_max > 0 and "morale_to_se" not in used:
        out.append(act(c.id, "morale_to_se"))
    if fx.power_draw is not None and "drop power_draw" not in used:
        out.append(act(c.id, "drop", ("power_draw",)))
    if fx.ward is not None and "drop ward" not in used:
        out.append(act(c.id, "drop", ("ward",)))
    if o.spells and c.profile.ee_max > 0 and fx.ee < c.profile.ee_max:
        out += [act(c.id, "power_draw", (str(x),))
                for x in range(1, rulings.CLOSING_WOUNDS_MAX + 1)
                if c.stamina >= stamina_cost(c, x)]
    if o.common_effects and fx.ignite is not None:
        out.append(act(c.id, "extinguish"))
    from .full_taunt import knockdown_legal, taunt_legal
    for t in enc.combatants:
        if t.id == c.id:
            continue
        if o.taunt_distract and taunt_legal(c, t):
            out += [act(c.id, "taunt", (), t.id), act(c.id, "distract", (), t.id)]
        if o.common_effects and not fx.prone and not stood and knockdown_legal(c, t):
            out.append(act(c.id, "knockdown", (), t.id))
    if o.spells:
        from .full_spells import castable, spell_of, target_ok
        for sid in c.profile.spells:
            sp = spell_of(sid)
            if castable(enc, c, sp):
                out += [act(c.id, "cast", (sid,), t.id) for t in enc.combatants
                        if target_ok(c, sp, t)]
    if o.escape:
        from .full_morale import can_escape
        if can_escape(enc, c):
            out.append(act(c.id, "escape"))
    return out


def resolve_free(enc: PalladiumEncounter, ev: list[Event], c: Combatant, a: Action) -> None:
    """Stand up, Morale -> S.E., DROP_POWER_DRAW, DROP_WARD (free, once each per turn)."""
    if a.kind == "stand":
        from .full_effects import stand
        enc.free_used.append("stand")
        stand(ev, c)
    elif a.kind == "morale_to_se":
        from .full_morale import morale_to_se
        enc.free_used.append("morale_to_se")
        morale_to_se(ev, c)
    else:
        enc.free_used.append(f"drop {a.args[0]}")
        setattr(c.fx, a.args[0], None)
        ev.append(ConditionChanged(c.id, a.args[0], 0))


def declare(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
            a: Action) -> bool:
    """spec §4.7, R33, R34: FULL costs paid at declaration, after the slot; False when a
    Stunned combatant's ability fizzled (the costs stay paid)."""
    from .full_effects import fizzles
    if a.kind == "power_draw":
        from .economy import pay_in_full
        return pay_in_full(ev, c, int(a.args[0]), "power draw") \
            and not fizzles(ctx, ev, c, "power draw")
    if a.kind == "closing_wounds" and enc.options.common_effects:
        return not fizzles(ctx, ev, c, "closing wounds")
    if a.kind == "cast":
        from .full_spells import pay_cast, spell_of
        ok = pay_cast(enc, ctx, ev, c, spell_of(a.args[0]), a.target or "")
        c.fx.fizzled = not ok
        return ok or spell_of(a.args[0]).actions > 1
    return True


def resolve_full(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
                 a: Action) -> None:
    """The effect of a FULL main action at the end of its (last) turn."""
    t = enc.by_id.get(a.target or "")
    if a.kind == "power_draw":  # spec §5.5: the larger X kept, tie -> new
        if c.fx.no_pe:  # R43: a being without P.E. is immune to magic buffs (Power Draw's too)
            return
        x = int(a.args[0])
        pd = c.fx.power_draw
        if pd is None or pd[0] <= x:
            c.fx.power_draw = (x, enc.t_abs, enc.t_abs + POWER_DRAW_SECONDS)
            ev.append(ConditionChanged(c.id, "power_draw", x))
    elif a.kind == "extinguish":
        from .full_effects import extinguish
        extinguish(enc, ev, c)
    elif a.kind in ("taunt", "distract") and t is not None:
        from .full_taunt import taunt
        taunt(enc, ctx, ev, c, t, a.kind)
    elif a.kind == "knockdown" and t is not None:
        from .full_taunt import knockdown
        knockdown(enc, ctx, ev, c, t)
    elif a.kind == "cast" and t is not None:
        from .full_spells import resolve_cast, spell_of
        if c.fx.fizzled:
            c.fx.fizzled = False
            return
        resolve_cast(enc, ctx, ev, c, spell_of(a.args[0]), t)
    elif a.kind == "escape":
        from .full_morale import escape
        escape(enc, ev, c)


def cast_still_legal(c: Combatant, a: Action, t: Combatant | None) -> bool:
    """spec §4.7: a committed spell re-checks its target and range at resolution."""
    from .full_spells import spell_of, target_ok
    return t is not None and c.active and target_ok(c, spell_of(a.args[0]), t)


def opportunity_casts(enc: PalladiumEncounter, e: Combatant, mover: Combatant,
                      dist: int) -> list[Action]:
    """spec §6.2 (FULL): 1-Action attack spells E can cast at the mover, paying E.E."""
    if not enc.options.spells or e.fx.prone:
        return []
    from .full_spells import spell_of
    out = []
    for sid in e.profile.spells:
        sp = spell_of(sid)
        if sp.attack and sp.actions == 1 and e.fx.ee >= sp.ee and isinstance(sp.range, int) \
                and dist <= sp.range:
            out.append(Action(e.id, "cast", (sid,), mover.id))
    return out
