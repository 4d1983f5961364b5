"""Damage (spec §8.2-§8.7): the multiplicative pipeline, applying a hit to armour, S.D.C. and
H.P., tick damage, Wounds, Coma and death, and the Evocation and Attacks critical table (§8.5)
with the conditions it creates (§7.5)."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx

from .combatant import ACTIVE, COMA, DEAD, OUT, Combatant
from .events import (
    CommitmentChanged,
    ConditionChanged,
    CritRolled,
    DamageDealt,
    SlotChanged,
    StateChanged,
    WoundsChanged,
)
from .rolls import d
from .slots import AVAILABLE, LOST, RESERVED, release

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["pipeline", "apply_hit", "tick_damage", "add_wounds", "remove_wounds",
           "update_health", "abandon", "crit_result", "EVOCATION", "evocation_row", "cripple"]


def _mult(pct: Fraction | int) -> Fraction:
    return max(Fraction(0), 100 + Fraction(pct)) / 100


@lru_cache(maxsize=8192)
def pipeline(initial: int, dm_pct: Fraction | int = 0, crit: bool = False,
             crit_bonus_pct: int = 100, em_pct: Fraction | int = 0,
             tm_pct: Fraction | int = 0) -> int:
    """spec §8.2, R16, R51: ``floor(max(0, initial) x DM x CM x EM x TM)``, one floor at the end
    (Threshold Rule: never below 0). A pure function of its numbers, remembered."""
    cm = Fraction(100 + crit_bonus_pct, 100) if crit else Fraction(1)
    total = Fraction(max(0, initial)) * _mult(dm_pct) * cm * _mult(em_pct) * _mult(tm_pct)
    return int(total.__floor__())


def abandon(ev: list[Event], c: Combatant, why: str) -> None:
    """spec §4.7 abandonment: remaining RESERVED slots return to AVAILABLE, carry-over is
    cancelled, paid costs are not refunded."""
    if c.commitment is None:
        return
    release(c)
    c.carry_over = 0
    ev.append(CommitmentChanged(c.id, c.commitment, f"abandoned ({why})"))
    c.commitment = None


def update_health(enc: PalladiumEncounter, ev: list[Event], c: Combatant) -> None:
    """spec §8.7, R32: ``hp <= 0`` Coma, ``hp <= -hp_base`` Dead, checked at once. A comatose
    combatant loses its commitment and the rest of its slots this round (§7.1)."""
    if c.state in (DEAD, OUT):
        return
    if c.fx.no_pe:  # FULL, spec §2.1, §8.7: no H.P.; destroyed at 0 S.D.C.
        new = DEAD if c.sdc <= 0 else ACTIVE
    elif c.hp <= -c.profile.hp_base:
        new = DEAD
    elif c.hp <= 0:
        new = COMA
    else:
        new = ACTIVE
    if new == c.state:
        return
    c.state = new
    ev.append(StateChanged(c.id, new))
    if new == ACTIVE:
        return
    abandon(ev, c, new)
    c.multidodge, c.md_back, c.defending, c.resting, c.rest_seconds = None, None, False, False, 0
    for i, st in enumerate(c.slot_state):
        if st in (AVAILABLE, RESERVED):
            c.slot_state[i] = LOST
            s, k = c.slot_at[i]
            ev.append(SlotChanged(c.id, s, k, LOST, new))
    if new == DEAD:
        c.closing = None
        from .full_effects import on_death
        on_death(enc, ev, c)


def _body(ev: list[Event], c: Combatant, amount: int, layer: str, armour: int = 0) -> None:
    from_sdc = min(c.sdc, amount)
    c.sdc -= from_sdc
    c.hp -= amount - from_sdc
    ev.append(DamageDealt(c.id, amount + armour, layer, armour, from_sdc, amount - from_sdc,
                          c.sdc, c.hp))


def apply_hit(enc: PalladiumEncounter, ev: list[Event], c: Combatant, final: int,
              layer: str) -> int:
    """spec §8.3, R12: armour S.D.C. takes the whole hit on the ARMOUR layer (excess lost);
    else S.D.C. then H.P. Returns the body damage (>= 1 adds the weapon's Wounds). CORE has no
    Damage Shield source (Ward and Empowered Body are FULL)."""
    if final > 0 and (c.fx.ward or c.fx.empowered):  # FULL Damage Shields absorb first
        from .full_effects import absorb
        final = absorb(ev, c, final)
    if final <= 0:
        ev.append(DamageDealt(c.id, 0, layer, 0, 0, 0, c.sdc, c.hp))
        return 0
    if layer == "armour" and c.armor_sdc > 0:
        took = min(c.armor_sdc, final)
        c.armor_sdc -= took
        ev.append(DamageDealt(c.id, final, layer, took, 0, 0, c.sdc, c.hp))
        if c.armor_sdc == 0:
            ev.append(ConditionChanged(c.id, "armour_broken", 1))
        return 0
    _body(ev, c, final, "body")
    update_health(enc, ev, c)
    return final


def tick_damage(enc: PalladiumEncounter, ev: list[Event], c: Combatant, amount: int,
                layer: str = "tick") -> None:
    """spec §8.3: tick damage (Wounds, Blood Gush) bypasses armour: S.D.C. first, then H.P."""
    if amount <= 0 or not c.alive:
        return
    _body(ev, c, amount, layer)
    update_health(enc, ev, c)


def wound_tick(enc: PalladiumEncounter, ev: list[Event], c: Combatant) -> None:
    """spec §8.6, R17: 1 Physical damage per Wound; a fixed amount keeps only the target's
    resistances (TM, spec §8.2)."""
    tick_damage(enc, ev, c, pipeline(c.wounds, tm_pct=-c.profile.resist_physical_pct))


def add_wounds(ev: list[Event], c: Combatant, n: int, why: str) -> None:
    if n <= 0 or c.state == DEAD:
        return
    c.wounds += n
    ev.append(WoundsChanged(c.id, n, c.wounds, why))


def remove_wounds(ev: list[Event], c: Combatant, n: int, why: str) -> None:
    """spec §7.5: every removal is halved per Internal Bleeding stack (floor, minimum 0)."""
    n = n * max(0, 100 - 50 * c.internal_bleeding) // 100
    n = min(n, c.wounds)
    if n > 0:
        c.wounds -= n
        ev.append(WoundsChanged(c.id, -n, c.wounds, why))


EVOCATION = ((25, "vital_wound"), (35, "blood_gush"), (43, "leg_right"), (51, "arm_left"),
             (59, "arm_right"), (67, "leg_left"), (80, "concussion"), (90, "dazed"),
             (100, "internal_bleeding"))
# spec §8.5: the Evocation and Attacks table, (highest d100 of the row, result).


def evocation_row(roll: int) -> str:
    for top, name in EVOCATION:
        if roll <= top:
            return name
    raise ValueError(roll)


def cripple(enc: PalladiumEncounter, ev: list[Event], c: Combatant, which: str) -> None:
    """spec §7.5, R59: +1 Crippled stack (legs at most 15 each); the first stacks (shared cap)
    take 5% of ``sdc_max`` and of ``hp_base`` off both maximum and current values."""
    from . import rulings
    if which.startswith("leg") and c.crippled[which] >= rulings.CRIPPLED_LEG_MAX:
        return
    c.crippled[which] += 1
    ev.append(ConditionChanged(c.id, f"crippled_{which}", c.crippled[which]))
    if c.cripple_applied < enc.options.crippled_health_cap_stacks:
        c.cripple_applied += 1
        ds, dh = c.profile.sdc_max * 5 // 100, c.profile.hp_base * 5 // 100
        c.sdc_max, c.sdc = c.sdc_max - ds, max(0, c.sdc - ds)
        c.hp_max, c.hp = c.hp_max - dh, c.hp - dh
        update_health(enc, ev, c)


def crit_result(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, roll: int,
                final: int, mitigation_pct: int) -> None:
    """spec §8.5, R14, R15: apply the Evocation and Attacks result rolled before the damage (its
    sub-dice now). A mitigated critical scales its numeric losses by ``(100 - PM)%``."""
    name = evocation_row(roll)
    ev.append(CritRolled(c.id, roll, name))
    if c.state == DEAD:
        return

    def scaled(n: int) -> int:
        return n * (100 - mitigation_pct) // 100 if mitigation_pct else n

    if name == "vital_wound":  # R15: Death Damage straight to H.P.
        amount = scaled(final * 10 // 100)
        if amount > 0:
            c.hp -= amount
            ev.append(DamageDealt(c.id, amount, "vital", 0, 0, amount, c.sdc, c.hp))
            update_health(enc, ev, c)
    elif name == "blood_gush":  # R15: an immediate Wound tick
        wound_tick(enc, ev, c)
    elif name in ("leg_right", "leg_left", "arm_left", "arm_right"):
        cripple(enc, ev, c, name)
    elif name == "concussion":
        c.concussion += 1
        ev.append(ConditionChanged(c.id, "concussion", c.concussion))
    elif name == "dazed":
        c.dazed += 1
        ev.append(ConditionChanged(c.id, "dazed", c.dazed))
    else:  # internal bleeding: 1D4 Wounds, +1 stack
        add_wounds(ev, c, scaled(d(ctx.dice, 4)), "internal bleeding")
        c.internal_bleeding += 1
        ev.append(ConditionChanged(c.id, "internal_bleeding", c.internal_bleeding))
