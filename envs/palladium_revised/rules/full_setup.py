"""FULL setup and hazard modules: the ambush of spec §3.5 (R39), and the hazards of spec §8.9
(R48) behind scenario flags: suffocation (``options.no_air`` from ``options.no_air_from``),
swimming (``options.in_water``: terms read by the strike and the movement), and the scenario
events ``fall`` and ``merge`` a scenario calls on a combatant.

Dice orders: ambush ``d100`` per combatant not on the ambushing side, in roster order, before
round 1's initiative; suffocation: a Save vs Coma/Death ``d100`` when a Stamina loss cannot be
paid; fall: Balance ``d100``, then ``floor(feet/5)`` d8, then one Evocation-table ``d100`` per
full 10 ft (and its sub-dice) on a failed Balance check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx

from .combatant import DEAD, Combatant
from .damage import add_wounds, crit_result, pipeline, tick_damage, update_health
from .events import AmbushDetection, ConditionChanged, DamageDealt, HazardApplied, SlotChanged
from .rolls import d
from .slots import LOST

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["ambush", "suffocation_tick", "fall", "merge", "swim_terms", "SUFFOCATION_SECONDS"]

SUFFOCATION_SECONDS = 5  # spec §8.9: each stack lasts 5 s


def ambush(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event]) -> None:
    """spec §3.5, R39: every combatant not on the ambushing side rolls ``d100 <= perception +
    awareness_mod`` in roster order; one that fails is surprised: its Second-1 slots of round 1
    are LOST and it is Unaware in that Second."""
    for c in enc.combatants:
        if c.side == enc.ambush or not c.active:
            continue
        need = c.profile.perception_pct + enc.options.awareness_mod
        r = d(ctx.dice, 100)
        ok = r <= need
        ev.append(AmbushDetection(c.id, r, need, ok))
        if ok:
            continue
        c.fx.surprised = True
        for i, (s, k) in enumerate(c.slot_at):
            if s == 1:
                c.slot_state[i] = LOST
                ev.append(SlotChanged(c.id, s, k, LOST, "surprised"))


def coma_save(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant) -> None:
    """spec §8.9, R48: ``d100 <= 50 + save_coma_pct - 15 x previous successes`` or die."""
    need = 50 + c.profile.save_coma_pct - 15 * c.fx.coma_saves
    r = d(ctx.dice, 100)
    ok = r <= need
    ev.append(HazardApplied(c.id, "save vs coma/death", f"d100 {r} vs {need}, "
                            f"{'survives' if ok else 'dies'}"))
    if ok:
        c.fx.coma_saves += 1
        return
    c.hp = min(c.hp, -c.profile.hp_base)
    ev.append(DamageDealt(c.id, 0, "suffocation", 0, 0, 0, c.sdc, c.hp))
    update_health(enc, ev, c)


def suffocation_tick(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant) -> None:
    """spec §8.9, R48: without air since Second ``t0`` (``no_air_from``), at elapsed ``e > 10``
    with ``(e - 10) % 5 == 0``: lose 1 Stamina (+25% per stack, rounded up) and gain a 5-s
    Suffocation stack; a loss that cannot be paid calls for a Save vs Coma/Death. Immunity to
    Physical effects blocks it (a being without P.E. still gains the stacks: R43 waives its
    Stamina losses, not Suffocation)."""
    if c.profile.immune_physical_effects:
        return
    e = enc.t_abs - enc.options.no_air_from + 1
    if e <= 10 or (e - 10) % 5:
        return
    from .full_state import stamina_loss
    loss = stamina_loss(c, 1)
    if c.stamina < loss:
        coma_save(enc, ctx, ev, c)
    c.stamina = max(0, c.stamina - loss)
    c.fx.suffocation = (*c.fx.suffocation, enc.t_abs + SUFFOCATION_SECONDS)
    ev.append(ConditionChanged(c.id, "suffocation", len(c.fx.suffocation)))


def swim_terms(enc: PalladiumEncounter, ranged: bool) -> tuple[int, int]:
    """spec §8.9 swimming: ``(damage modifier %, flat to the strike roll)``: melee -50% damage;
    ranged -25% damage and -3 to the base roll."""
    if not enc.options.in_water:
        return 0, 0
    return (-25, -3) if ranged else (-50, 0)


def fall(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, feet: int,
         balance_pct: int = 0) -> int:
    """spec §8.9, R48 scenario event: Balance ``d100 <= balance_pct - floor(0.75 x feet)``;
    ``floor(feet/5)`` d8 Physical damage, halved on a success (no crits), else one
    Evocation-table roll per full 10 ft; Physical resistance only; armour S.D.C. and Damage
    Shields also lose 50%. Returns the damage to the body."""
    need = balance_pct - (3 * feet) // 4
    r = d(ctx.dice, 100)
    ok = r <= need
    faces = ctx.dice.roll(8, feet // 5) if feet >= 5 else ()
    raw = sum(faces)  # halved on a success: a x1/2 factor, one floor at the end (R51)
    final = pipeline(raw, dm_pct=-50 if ok else 0, tm_pct=-c.profile.resist_physical_pct)
    ev.append(HazardApplied(c.id, "fall", f"{feet} ft, balance d100 {r} vs {need}, "
                            f"{final} damage"))
    half = final // 2
    if c.armor_sdc > 0 and half:
        c.armor_sdc = max(0, c.armor_sdc - half)
    for name in ("ward", "empowered"):
        sh = getattr(c.fx, name)
        if sh is not None and half:
            left = sh[0] - half
            setattr(c.fx, name, (left, sh[1]) if left > 0 else None)
    tick_damage(enc, ev, c, final, "fall")
    if not ok and c.state != DEAD:
        for _ in range(feet // 10):
            crit_result(enc, ctx, ev, c, d(ctx.dice, 100), final, 0)
    return final


def merge(enc: PalladiumEncounter, ev: list[Event], c: Combatant, ar_points: int) -> int:
    """spec §8.9 scenario event, Merging into Objects: per AR point inside an object,
    ``floor(15% x (sdc_max + hp_max))`` damage (ignores shields and reductions) and 10 Wounds.
    The Painful check has no mechanic in the seed (GM-adjudicated) and is not modelled."""
    amount = ar_points * (15 * (c.sdc_max + c.hp_max) // 100)
    ev.append(HazardApplied(c.id, "merging", f"{ar_points} AR point(s), {amount} damage"))
    tick_damage(enc, ev, c, amount, "merging")
    add_wounds(ev, c, 10 * ar_points, "merging")
    return amount
