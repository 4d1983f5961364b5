"""A turn's decisions (spec §4.7, §5.1, §5.4, §5.5, §5.10): free actions (Step, Morale boost,
Drop Closing Wounds), main actions paid with the turn's slot (Wait, Defend, Rest, Closing
Wounds, Strike, Full Move), multi-Action commitments (heavy crossbow) with CONTINUE and
abandonment."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action, parse_label
from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .combatant import Combatant
from .damage import abandon
from .economy import commit, pay_in_full, pay_stamina, spend_morale, spend_slot
from .events import CommitmentChanged, ConditionChanged, PoolChanged, SlotChanged
from .legal import can_strike
from .movement import destination, move
from .slots import LOST, RESERVED, USED, next_reserved
from .turns import close_turn

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["resolve_turn", "action_cost", "resolve_main"]


def action_cost(c: Combatant, a: Action) -> int:
    """spec §4.9: Actions a main action costs (a Strike: the weapon's ``cost``)."""
    if a.kind == "strike":
        return c.profile.weapon(a.args[0]).cost
    if a.kind == "cast":  # FULL, spec §5.9
        from .full_spells import spell_of
        return spell_of(a.args[0]).actions
    return 1


def _free(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, a: Action) -> None:
    enc.free_used.append(a.kind)
    if a.kind == "morale_boost":  # spec §5.10
        spend_morale(ev, c, "morale boost")
        c.boost_pending = True
    elif a.kind == "drop":  # spec §5.1 row 17
        c.closing = None
        ev.append(ConditionChanged(c.id, "closing_wounds", 0))
    else:  # spec §5.3 Step, free once per turn; movement clears resting (§5.4)
        c.resting, c.rest_seconds = False, 0
        if in_water_move(enc, a):  # FULL swimming: +1 Stamina per Step (spec §8.9)
            pay_stamina(ev, c, 1, "swimming")
        t = enc.by_id[a.target or ""]
        move(enc, ctx, ev, c, destination(enc, c, a.args[0], t, c.step_budget),
             c.step_budget, "step")
        if not c.active:  # R64 c: fell during its own free action
            if c.slot_state[enc.turn_slot] != LOST:
                c.slot_state[enc.turn_slot] = LOST
                s, k = c.slot_at[enc.turn_slot]
                ev.append(SlotChanged(c.id, s, k, LOST, "fell"))
            close_turn(enc)


def resolve_main(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
                 a: Action) -> None:
    """The effect of a main action at the end of its (last) turn."""
    if a.kind == "defend":  # spec §5.4, R47
        c.defending = True
    elif a.kind == "closing_wounds":  # spec §5.5: same-name buff, larger X kept, tie -> new
        x = int(a.args[0])
        if c.closing is None or c.closing[0] <= x:
            c.closing = (x, enc.t_abs, enc.t_abs + rulings.CLOSING_WOUNDS_SECONDS)
            ev.append(ConditionChanged(c.id, "closing_wounds", x))
    elif a.kind == "strike":
        from .strike import strike
        t = enc.by_id[a.target or ""]
        strike(enc, ctx, ev, c, c.profile.weapon(a.args[0]), t)
    elif a.kind == "move":  # spec §5.3 Full Move
        t = enc.by_id[a.target or ""]
        allowance = c.full_move_ft()
        move(enc, ctx, ev, c, destination(enc, c, a.args[0], t, allowance), allowance, "move")
    else:  # FULL main actions (full_actions.py)
        from .full_actions import resolve_full
        resolve_full(enc, ctx, ev, c, a)


def _finish_commitment(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event],
                       c: Combatant) -> None:
    """spec §4.7: the last reserved slot passed; targets, range and legality are re-checked
    now; an action no longer legal fizzles with its costs paid."""
    label = c.commitment or ""
    c.commitment = None
    a = parse_label(label)
    t = enc.by_id.get(a.target or "")
    w = c.profile.weapon(a.args[0]) if a.kind == "strike" else None
    if w is not None and (t is None or not t.alive or t.side == c.side or not c.active
                          or not can_strike(c, w, t, spent=True)):
        ev.append(CommitmentChanged(c.id, label, "fizzled"))
        return
    if a.kind == "cast":  # FULL: a committed spell re-checks target and range
        from .full_actions import cast_still_legal
        if c.fx.fizzled or not cast_still_legal(c, a, t):
            c.fx.fizzled = False
            ev.append(CommitmentChanged(c.id, label, "fizzled"))
            return
    ev.append(CommitmentChanged(c.id, label, "resolved"))
    resolve_main(enc, ctx, ev, c, a)


def in_water_move(enc: PalladiumEncounter, a: Action) -> bool:
    return enc.options.in_water and a.kind in ("move", "step")


def resolve_turn(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
                 a: Action) -> None:
    """spec §4.7 ``take_turn`` after the decision ``a``."""
    if enc.options.full:
        from .full_actions import is_full_free, resolve_free
        if is_full_free(a):
            resolve_free(enc, ev, c, a)
            return
    if a.kind in ("step", "morale_boost", "drop"):
        _free(enc, ctx, ev, c, a)
        return
    idx = enc.turn_slot
    if a.kind == "continue":  # spec §4.7 committed turn
        spend_slot(enc, ctx, ev, c, idx, USED)
        ev.append(CommitmentChanged(c.id, c.commitment or "", "continued"))
        if next_reserved(c, idx) is None and c.carry_over == 0 and c.commitment is not None:
            _finish_commitment(enc, ctx, ev, c)
        c.resting, c.rest_seconds = False, 0
        close_turn(enc)
        return
    if c.slot_state[idx] == RESERVED:  # another main action abandons the commitment
        abandon(ev, c, a.kind)
    cost = action_cost(c, a)
    spend_slot(enc, ctx, ev, c, idx, USED, rest=a.kind == "rest", kind=a.kind)
    go = True
    if a.kind == "closing_wounds":  # R33: costs paid at declaration (in full, or it fizzles)
        go = pay_in_full(ev, c, int(a.args[0]), "closing wounds")
    if enc.options.full and go:  # FULL costs at declaration and the Stunned fizzle
        from .full_actions import declare
        go = declare(enc, ctx, ev, c, a)
    if a.kind == "strike":
        w = c.profile.weapon(a.args[0])
        if w.ammo is not None:  # spec §5.2: a ranged Strike spends 1 ammo when declared
            c.ammo[w.id] -= 1
            ev.append(PoolChanged(c.id, f"ammo {w.id}", -1, c.ammo[w.id], "declared"))
    if a.kind == "rest":  # spec §5.4: rest_seconds kept only while still resting
        c.resting = True
    else:
        c.resting, c.rest_seconds = False, 0
    if in_water_move(enc, a):  # FULL swimming: +1 Stamina per Full Move (spec §8.9)
        pay_stamina(ev, c, 1, "swimming")
    if cost > 1 and c.active and go:
        commit(ev, c, idx, cost, a.label)
    elif c.active and go:
        resolve_main(enc, ctx, ev, c, a)
    close_turn(enc)
