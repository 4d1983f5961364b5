"""The action economy (spec §4.7, §6.1, §9.1; R8, R10, R60): spending slots, paying a Dodge's
Action out of turn, Stamina and Morale, commitments with carry-over."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx

from .combatant import Combatant
from .damage import abandon, add_wounds
from .events import CommitmentChanged, PoolChanged, SlotChanged
from .full_state import stamina_cost
from .rolls import d
from .slots import AVAILABLE, CONSUMED, RESERVED, future_index, reserve

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["spend_slot", "can_pay_dodge", "pay_dodge", "pay_stamina", "pay_in_full",
           "spend_morale", "commit", "apply_carry_over"]


def spend_slot(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, idx: int,
               state: str, rest: bool = False, kind: str = "") -> None:
    """spec §4.7, R60: slot ``idx`` becomes USED or CONSUMED; that is "spending 1 Action", so
    Internal Bleeding adds 1D4 Wounds per stack (not for Rest), its dice first (R60)."""
    c.slot_state[idx] = state
    if state == CONSUMED:
        s, k = c.slot_at[idx]
        ev.append(SlotChanged(c.id, s, k, CONSUMED, "dodge"))
    if c.internal_bleeding and not rest and enc.options.internal_bleeding_on_actions:
        for _ in range(c.internal_bleeding):
            add_wounds(ev, c, d(ctx.dice, 4), "internal bleeding")
    if c.fx.racing_heart and kind not in ("wait", "defend"):  # FULL, spec §7.5
        from .full_effects import racing_heart_beat
        racing_heart_beat(enc, ev, c, ctx)


def can_pay_dodge(enc: PalladiumEncounter, c: Combatant) -> bool:
    """spec §6.1, R8: Defending, or a future AVAILABLE or RESERVED slot this round."""
    if c.defending:
        return True
    return future_index(c, enc.cursor, enc.init_index(c.id), (AVAILABLE, RESERVED)) is not None


def pay_dodge(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant) -> None:
    """spec §6.1: no slot while Defending; otherwise abandon a commitment first (§4.7), then the
    earliest future AVAILABLE slot of this round is CONSUMED."""
    if c.defending:
        return
    abandon(ev, c, "dodge")
    idx = future_index(c, enc.cursor, enc.init_index(c.id))
    assert idx is not None, f"{c.id} has no slot to pay a dodge"
    spend_slot(enc, ctx, ev, c, idx, CONSUMED)


def pay_stamina(ev: list[Event], c: Combatant, cost: int, why: str) -> None:
    """spec §9.1: Stamina never below 0 (the mask keeps costs affordable, R33); ``cost`` is the
    base cost, raised by Soaked/Suffocation and waived without P.E. (FULL, ``stamina_cost``)."""
    cost = stamina_cost(c, cost)
    if cost <= 0:
        return
    c.stamina = max(0, c.stamina - cost)
    ev.append(PoolChanged(c.id, "stamina", -cost, c.stamina, why))


def pay_in_full(ev: list[Event], c: Combatant, cost: int, why: str) -> bool:
    """R33, spec §8.3: pay a Stamina cost; when it cannot be paid in full (a trigger on the slot,
    Racing Heart, took Stamina first), what can be paid is, and the ability fizzles (False)."""
    whole = stamina_cost(c, cost) <= c.stamina
    pay_stamina(ev, c, cost, why)
    if not whole:
        from .events import CostFizzled
        ev.append(CostFizzled(c.id, why, f"stamina {stamina_cost(c, cost)}"))
    return whole


def spend_morale(ev: list[Event], c: Combatant, why: str) -> None:
    """spec §9.2: 1 Morale (only while ``morale >= 1``)."""
    c.morale -= 1
    ev.append(PoolChanged(c.id, "morale", -1, c.morale, why))


def commit(ev: list[Event], c: Combatant, idx: int, cost: int, label: str) -> None:
    """spec §4.7, R10: the next ``cost - 1`` AVAILABLE slots become RESERVED; the shortfall
    carries over into the next round."""
    short = reserve(c, idx, cost - 1)
    for i, st in enumerate(c.slot_state):
        if st == RESERVED:
            s, k = c.slot_at[i]
            ev.append(SlotChanged(c.id, s, k, RESERVED, "committed"))
    c.carry_over = short
    c.commitment = label
    ev.append(CommitmentChanged(c.id, label, "committed"))


def apply_carry_over(ev: list[Event], c: Combatant) -> None:
    """R10, at round start: the first ``carry_over`` slots of the new round become RESERVED."""
    if not c.carry_over or c.commitment is None:
        c.carry_over = 0
        return
    c.carry_over = reserve(c, -1, c.carry_over)
    ev.append(CommitmentChanged(c.id, c.commitment, "carried"))
