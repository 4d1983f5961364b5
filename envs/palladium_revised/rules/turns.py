"""The clock (spec §3.4, §4.4-§4.6): rounds, initiative with tie re-rolls, Seconds with their
start-of-Second triggers and Wound ticks, the passes and turns of each Second, and the end of a
Second (expiry, rest regeneration, state checks); the round cap (§8.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.dice import Dice
from envs.core.events import Event

from . import rulings
from .combatant import Combatant
from .damage import remove_wounds, wound_tick
from .economy import apply_carry_over
from .events import ConditionChanged, InitiativeRolled, PoolChanged, SecondStarted, TurnOpened
from .rolls import combat_roll, d, roll_pct
from .slots import AVAILABLE, LOST, RESERVED, slot_positions

if TYPE_CHECKING:
    from envs.core.flow import Ctx

    from .state import PalladiumEncounter

__all__ = ["step", "advance", "roll_initiative", "state_check", "close_turn"]


def roll_initiative(group: list[Combatant], dice: Dice, ev: list[Event],
                    reroll: int = 0) -> list[str]:
    """spec §3.4, R18: ``1D20 + init`` (a Combat Roll) in roster order, highest first; a tied
    group re-rolls among itself (dice in roster order), groups from the highest total down.
    ENGINE: a tied group whose rolls are all forced to 0 (-100% or worse, e.g. Closing Wounds)
    cannot be separated by re-rolling and keeps roster order without rolling; after
    ``rulings.MAX_TIE_REROLLS`` re-rolls a group keeps roster order."""
    if reroll and (reroll > rulings.MAX_TIE_REROLLS
                   or all(roll_pct(c, "initiative") <= -100 for c in group)):
        return [c.id for c in group]
    totals = {}
    for c in group:
        r = combat_roll(dice, c, "initiative", c.profile.init)
        totals[c.id] = r.total
        if reroll == 0:
            c.initiative = r.total
        ev.append(InitiativeRolled(c.id, r.nat, r.total, reroll))
    out: list[str] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [c for c in group if totals[c.id] == total]
        out += [tied[0].id] if len(tied) == 1 else roll_initiative(tied, dice, ev, reroll + 1)
    return out


def state_check(ev: list[Event], c: Combatant) -> None:
    """spec §4.6 step 3, §7.1, R28: Exhaustion, Fatigued, Depression and the low-Morale
    insanity penalty from the pools (exact thresholds)."""
    if not c.alive:
        return
    smax, mmax = c.profile.stamina_max, c.profile.morale_max
    tireless = c.fx.no_pe  # FULL, spec §2.1, R43: never Exhausted or Fatigued
    exhausted = not tireless and 2 * c.stamina <= smax
    fatigued = not tireless and 4 * c.stamina <= smax
    m = c.morale  # ceil(max/10 - Morale) and ceil(max/2 - Morale), exact in integers (§1.4.2)
    moral = mmax > 0  # R43: no M.E., no Morale: never Depressed or insane
    depression = -((10 * m - mmax) // 10) if moral and 10 * m < mmax else 0
    insanity = -((2 * m - mmax) // 2) if moral and 2 * m < mmax else 0
    for name, new in (("exhausted", exhausted), ("fatigued", fatigued),
                      ("depression", depression), ("insanity", insanity)):
        if getattr(c, name) != new:
            setattr(c, name, new)
            ev.append(ConditionChanged(c.id, name, int(new)))


def _round_start(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event]) -> bool:
    """spec §4.4 ROUND START; returns False when the round cap ended the fight."""
    if enc.round >= 1 and enc._check_round_cap(ev):
        return False
    enc._next_round(ev)
    for c in enc.combatants:
        c.slot_at = slot_positions(c.profile.actions)
        c.slot_state = [AVAILABLE if c.active else LOST] * len(c.slot_at)
        if c.active:
            apply_carry_over(ev, c)
        c.step_budget = c.eff_pm()
        c.initiative = None
    if enc.round == 1 and enc.ambush and enc.options.ambush:  # FULL, spec §3.5
        from .full_setup import ambush
        ambush(enc, ctx, ev)
    enc.order = roll_initiative([c for c in enc.combatants if c.active], ctx.dice, ev)
    # R54: the "Entering Combat" hook runs here; it has no DEFAULT content.
    enc.second = 1
    enc.stage = "second_start"
    return True


def _second_start(enc: PalladiumEncounter, ev: list[Event], ctx: Ctx) -> None:
    """spec §4.5: one tick phase (triggers, then the Wound tick), no decisions, one combat-end
    check (R64 b)."""
    enc.t_abs += 1
    s = enc.second
    enc.cursor = (s, 0, -1)
    ev.append(SecondStarted(enc.round, s))
    living = [c for c in enc.in_order() if c.alive]
    from .full_effects import second_start
    for c in living:  # step 1, combatant by combatant in initiative order (spec §4.5)
        cw = c.closing  # 1.1 Closing Wounds, before the Wound tick (spec §5.5)
        if cw is not None and cw[1] < enc.t_abs <= cw[2]:
            remove_wounds(ev, c, cw[0], "closing wounds")
        if enc.options.full:  # FULL per-Second triggers (spec §4.5 step 1.2-1.6)
            second_start(enc, ctx, ev, [c])
    if s in rulings.WOUND_SECONDS:  # step 2 (spec §8.6)
        for c in living:
            wound_tick(enc, ev, c)
    enc.check_end(ev)
    enc.stage, enc.pass_no, enc.idx = "turns", 1, 0


def _second_end(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event]) -> None:
    """spec §4.6: expiry, rest regeneration (1D4 per 5 rest Seconds, initiative order), state
    checks, the combat-end check; after Second 15 the round ends (§4.4)."""
    full = enc.options.full
    if full:  # FULL expiry (spec §4.6 step 1)
        from .full_effects import expire
    for c in enc.combatants:
        if c.closing is not None and c.closing[2] <= enc.t_abs:
            c.closing = None
            ev.append(ConditionChanged(c.id, "closing_wounds", 0))
        if full:
            expire(enc, ev, c)
            c.fx.surprised = False  # spec §3.5: the ambush Second is over
    for c in enc.in_order():
        if c.resting and c.active:
            c.rest_seconds += 1
            if c.rest_seconds % enc.options.rest_every == 0:
                gain = min(d(ctx.dice, 4), c.profile.stamina_max - c.stamina)
                c.stamina += gain
                ev.append(PoolChanged(c.id, "stamina", gain, c.stamina, "rest"))
    for c in enc.combatants:
        state_check(ev, c)
    if enc.check_end(ev):
        return
    if enc.second >= rulings.SECONDS:
        for c in enc.combatants:  # Multi-Dodge windows close; initiative is discarded
            c.multidodge, c.md_back = None, None
        enc.order = []
        enc.stage = "round_start"
    else:
        enc.second += 1
        enc.stage = "second_start"


def _open_turn(enc: PalladiumEncounter, ev: list[Event]) -> bool:
    """spec §4.4 passes: the next AVAILABLE/RESERVED slot of this Second in initiative order;
    opens its turn (True) or moves the clock to the Second's end (False)."""
    s = enc.second
    top = max((k for c in enc.combatants for (sec, k) in c.slot_at if sec == s), default=0)
    while enc.pass_no <= top:
        while enc.idx < len(enc.order):
            c = enc.by_id[enc.order[enc.idx]]
            j = next((i for i, at in enumerate(c.slot_at)
                      if at == (s, enc.pass_no) and c.slot_state[i] in (AVAILABLE, RESERVED)),
                     None)
            if j is None:
                enc.idx += 1
                continue
            enc.cursor = (s, enc.pass_no, enc.idx)
            if not c.active:  # spec §4.7 take_turn: comatose, dead
                c.slot_state[j] = LOST
                enc.idx += 1
                continue
            c.defending = False  # both last "until the start of your next turn"
            c.multidodge, c.md_back = None, None
            enc.turn, enc.turn_slot, enc.free_used = c.id, j, []
            ev.append(TurnOpened(enc.round, c.id, s, enc.pass_no, c.slot_state[j] == RESERVED))
            return True
        enc.pass_no += 1
        enc.idx = 0
    enc.stage = "second_end"
    return False


def close_turn(enc: PalladiumEncounter) -> None:
    """The turn ends: a Morale boost not used is wasted (R64 f)."""
    if enc.turn is not None:
        enc.by_id[enc.turn].boost_pending = False
    enc.turn, enc.turn_slot, enc.free_used = None, -1, []
    enc.idx += 1


def advance(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event]) -> None:
    """Run the clock until someone has a decision or the fight ends (spec §4.4)."""
    while not enc.is_over() and enc.turn is None:
        if enc.stage == "round_start":
            if not _round_start(enc, ctx, ev):
                return
        elif enc.stage == "second_start":
            _second_start(enc, ev, ctx)
        elif enc.stage == "turns":
            if _open_turn(enc, ev):
                return
        else:
            _second_end(enc, ctx, ev)


def step(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], a: Action | None) -> None:
    """Carry out one turn decision (``None``: only run the clock, at the start) and advance."""
    if a is not None:
        from .resolve import resolve_turn
        resolve_turn(enc, ctx, ev, enc.by_id[a.actor], a)
        enc.check_end(ev)
    advance(enc, ctx, ev)
