"""FULL common effects and effect bookkeeping (spec §7.3, §7.5, §8.3, §8.4, §4.5, §4.6):
Ignite, Numbing, Soaked, Stunned (with the fizzle check), Prone, Stand up and Extinguish; the
per-Second triggers (Power Draw, Enduring Heal, Ignite and Numbing ticks) and the end-of-Second
expiry; Damage Shields; healing (H.P. first, R40) with the healing counters of Lung Crush, Blood
Vision and Racing Heart; what a death removes (R7)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx

from . import content
from .combatant import COMA, Combatant
from .damage import abandon, pipeline, tick_damage
from .events import ConditionChanged, Fizzled, Healed, PoolChanged, ShieldAbsorbed
from .full_state import NUMBING_MAX, SOAKED_MAX, STUNNED_MAX
from .rolls import d
from .slots import AVAILABLE, LOST

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["apply_ignite", "apply_numbing", "apply_soaked", "apply_stunned", "make_prone",
           "stand", "extinguish", "fizzles", "absorb", "restore", "wake", "second_start",
           "expire", "on_death", "racing_heart_beat", "lose_stamina", "IGNITE_SECONDS",
           "NUMBING_SECONDS", "SOAKED_SECONDS", "STUNNED_SECONDS"]

IGNITE_SECONDS, NUMBING_SECONDS, SOAKED_SECONDS, STUNNED_SECONDS = 5, 7, 60, 7  # spec §7.3
HEARTBEAT_SECONDS = 5  # spec §7.5


def _cond(ev: list[Event], c: Combatant, name: str, value: int) -> None:
    ev.append(ConditionChanged(c.id, name, value))


def _crit_time(seconds: int, crit: bool, crit_bonus_pct: int = 100) -> int:
    """spec §8.5: durations x(1 + crit_bonus/200) on a critical, floored."""
    return int(seconds * content.crit_effect_factor(crit_bonus_pct)) if crit else seconds


def _immune(c: Combatant) -> bool:
    return c.profile.immune_physical_effects or not c.alive


def apply_ignite(enc: PalladiumEncounter, ev: list[Event], t: Combatant, by: str, hit: int,
                 crit: bool = False) -> None:
    """spec §7.3.1, R35: 5 s (x1.5 on a critical), tick ``max(1, floor(10% x hit))`` (15% on a
    critical); Soaked stacks trade 1-for-1 against Seconds; gaining it removes all Numbing."""
    if _immune(t):
        return
    fx = t.fx
    seconds = _crit_time(IGNITE_SECONDS, crit)
    traded = min(len(fx.soaked), seconds)
    if traded:
        fx.soaked = fx.soaked[traded:]
        _cond(ev, t, "soaked", len(fx.soaked))
        seconds -= traded
    if seconds <= 0:
        return
    if fx.numbing:
        fx.numbing = ()
        _cond(ev, t, "numbing", 0)
    tick = max(1, hit * (15 if crit else 10) // 100)
    fx.ignite = (by, tick, enc.t_abs + seconds)
    _cond(ev, t, "ignite", seconds)


def apply_numbing(enc: PalladiumEncounter, ev: list[Event], t: Combatant, by: str,
                  n: int) -> None:
    """spec §7.3.2: ``n`` stacks, plus 1 per Soaked stack dispelled (cap 15); a Numbing from
    another controller replaces the old one (same-name rule, R7)."""
    if _immune(t) or n <= 0:
        return
    fx = t.fx
    if fx.soaked:
        n += len(fx.soaked)
        fx.soaked = ()
        _cond(ev, t, "soaked", 0)
    old = tuple(s for s in fx.numbing if s[0] == by)
    fx.numbing = (old + ((by, enc.t_abs),) * n)[-NUMBING_MAX:]
    _cond(ev, t, "numbing", len(fx.numbing))


def apply_soaked(enc: PalladiumEncounter, ev: list[Event], t: Combatant, by: str,
                 n: int) -> None:
    """spec §7.3.3: ``n`` stacks of 60 s (cap 10)."""
    if _immune(t) or n <= 0:
        return
    fx = t.fx
    old = tuple(s for s in fx.soaked if s[0] == by)
    fx.soaked = (old + ((by, enc.t_abs),) * n)[-SOAKED_MAX:]
    _cond(ev, t, "soaked", len(fx.soaked))


def apply_stunned(enc: PalladiumEncounter, ev: list[Event], t: Combatant, by: str, n: int,
                  seconds: int = STUNNED_SECONDS) -> None:
    """spec §7.3.4: ``n`` stacks of 7 s each (cap 20)."""
    if not t.alive or n <= 0:
        return
    fx = t.fx
    old = tuple(s for s in fx.stunned if s[0] == by)
    fx.stunned = (old + ((by, enc.t_abs + seconds),) * n)[-STUNNED_MAX:]
    _cond(ev, t, "stunned", len(fx.stunned))


def make_prone(ev: list[Event], t: Combatant) -> None:
    """spec §7.3.5: Prone (GAME, a Physical debuff: immunity to Physical effects blocks it,
    spec §2.2); any commitment is abandoned."""
    if t.fx.prone or _immune(t):
        return
    t.fx.prone = True
    _cond(ev, t, "prone", 1)
    abandon(ev, t, "knocked down")


def stand(ev: list[Event], c: Combatant) -> None:
    """spec §5.7: the free action Stand up removes Prone (the turn's limits are in legal)."""
    c.fx.prone = False
    _cond(ev, c, "prone", 0)


def extinguish(enc: PalladiumEncounter, ev: list[Event], c: Combatant) -> None:
    """spec §5.8: Ignite's ``expires_at`` -2; removed at once when it is not after now."""
    ig = c.fx.ignite
    if ig is None:
        return
    until = ig[2] - 2
    c.fx.ignite = None if until <= enc.t_abs else (ig[0], ig[1], until)
    _cond(ev, c, "ignite", 0 if c.fx.ignite is None else until - enc.t_abs)


def fizzles(ctx: Ctx, ev: list[Event], c: Combatant, what: str) -> bool:
    """spec §7.3.4, R34: a Stunned user of a resource-cost ability rolls d100; ``<= 4 x
    stacks`` fizzles (its costs stay paid)."""
    n = len(c.fx.stunned)
    if not n:
        return False
    r = d(ctx.dice, 100)
    if r <= 4 * n:
        ev.append(Fizzled(c.id, what, r))
        return True
    return False


def absorb(ev: list[Event], c: Combatant, amount: int) -> int:
    """spec §8.3: Damage Shields absorb first, earliest expiry first; returns the rest."""
    fx = c.fx
    order = sorted((s for s in (("ward", fx.ward), ("empowered_body", fx.empowered))
                    if s[1] is not None), key=lambda s: s[1][1] if s[1] else 0)
    for name, sh in order:
        if amount <= 0 or sh is None:
            break
        took = min(sh[0], amount)
        amount -= took
        left = sh[0] - took
        new = (left, sh[1]) if left > 0 else None
        if name == "ward":
            fx.ward = new
        else:
            fx.empowered = new
        ev.append(ShieldAbsorbed(c.id, name, took, left))
    return amount


def lose_stamina(ev: list[Event], c: Combatant, n: int, why: str,
                 enc: PalladiumEncounter | None = None, ctx: Ctx | None = None) -> None:
    """spec §9.1: a Stamina loss (not a cost), +25% per Suffocation stack (rounded up); 0 for
    a being without P.E. While Suffocating, a loss it cannot pay calls for a Save vs Coma/Death
    (spec §8.9; with the fight's ``enc`` and ``ctx``, for its d100)."""
    from .full_state import stamina_loss
    n = stamina_loss(c, n)
    if n > c.stamina and c.fx.suffocation and enc is not None and ctx is not None \
            and c.alive:
        from .full_setup import coma_save
        coma_save(enc, ctx, ev, c)
    n = min(n, c.stamina)
    if n > 0:
        c.stamina -= n
        ev.append(PoolChanged(c.id, "stamina", -n, c.stamina, why))


def racing_heart_beat(enc: PalladiumEncounter, ev: list[Event], c: Combatant,
                      ctx: Ctx | None = None) -> None:
    """spec §7.5: an Action spent (not Wait/Defend): lose 1 Stamina per stack (R6: every listed
    modifier applies per stack) and gain Heartbeat."""
    lose_stamina(ev, c, c.fx.racing_heart, "racing heart", enc, ctx)
    if c.fx.heartbeat is None:
        _cond(ev, c, "heartbeat", 1)
    c.fx.heartbeat = enc.t_abs + HEARTBEAT_SECONDS


def restore(enc: PalladiumEncounter, ev: list[Event], t: Combatant, amount: int,
            why: str) -> int:
    """spec §8.4, R40: restore H.P. first (to ``hp_max``), then S.D.C.; the H.P. part counts
    down Lung Crush (50), Blood Vision (15) and Racing Heart (25). A comatose target healed
    above 0 wakes and may act from its next slot. Returns the amount restored."""
    if not t.alive or amount <= 0:
        return 0
    to_hp = max(0, min(amount, t.hp_max - t.hp))
    to_sdc = max(0, min(amount - to_hp, t.sdc_max - t.sdc))
    t.hp += to_hp
    t.sdc += to_sdc
    ev.append(Healed(t.id, to_hp + to_sdc, to_hp, to_sdc, t.hp, t.sdc, why))
    fx = t.fx
    for name, counter, limit in (("lung_crush", "lung_healed", 50),
                                 ("blood_vision", "bv_healed", 15),
                                 ("racing_heart", "rh_healed", 25)):
        if getattr(fx, name) and to_hp:
            setattr(fx, counter, getattr(fx, counter) + to_hp)
            if getattr(fx, counter) >= limit:
                setattr(fx, name, 0)
                setattr(fx, counter, 0)
                if name == "blood_vision":
                    fx.bv_ranged = ()
                _cond(ev, t, name, 0)
    if t.state == COMA and t.hp > 0:
        from .damage import update_health
        update_health(enc, ev, t)
        wake(enc, t)
    return to_hp + to_sdc


def wake(enc: PalladiumEncounter, t: Combatant) -> None:
    """spec §3.4, §7.1: woken from a Coma, its future slots this round are AVAILABLE again and
    it joins the end of the initiative order."""
    from .slots import future_index
    i = future_index(t, enc.cursor, enc.init_index(t.id), (LOST,))
    if i is not None:
        for j in range(i, len(t.slot_state)):
            if t.slot_state[j] == LOST:
                t.slot_state[j] = AVAILABLE
    if t.id not in enc.order and enc.order:
        enc.order.append(t.id)


def second_start(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event],
                 living: list[Combatant]) -> None:
    """spec §4.5 step 1 (after Closing Wounds): Power Draw, Enduring Heal, Ignite, Numbing,
    then the hazard timers, combatant by combatant."""
    now = enc.t_abs
    for c in living:
        fx = c.fx
        if not c.alive:
            continue
        if fx.power_draw is not None and fx.power_draw[1] < now <= fx.power_draw[2]:
            gain = min(fx.power_draw[0], c.profile.ee_max - fx.ee)
            if gain > 0:
                fx.ee += gain
                ev.append(PoolChanged(c.id, "ee", gain, fx.ee, "power draw"))
        eh = fx.enduring
        if eh is not None and 0 < now - eh[1] <= 15 and (now - eh[1]) % 3 == 0:
            restore(enc, ev, c, eh[0], "enduring heal")
        if fx.ignite is not None:
            tm = -dict(c.profile.resist_pct).get("fire", 0)
            tick_damage(enc, ev, c, pipeline(fx.ignite[1], tm_pct=tm), "fire")
        due = sum(1 for _, at in fx.numbing if now - at in (2, 4, 6))
        if due:
            tm = -dict(c.profile.resist_pct).get("cold", 0)
            tick_damage(enc, ev, c, pipeline(due, tm_pct=tm), "cold")
        if enc.options.no_air and c.alive:
            from .full_setup import suffocation_tick
            suffocation_tick(enc, ctx, ev, c)


def expire(enc: PalladiumEncounter, ev: list[Event], c: Combatant) -> None:
    """spec §4.6 step 1: every FULL stack or effect with ``expires_at <= t_abs`` ends."""
    fx, now = c.fx, enc.t_abs
    if (fx.power_draw is None and fx.ward is None and fx.empowered is None
            and fx.enduring is None and fx.focused is None and fx.ignite is None
            and not fx.numbing and not fx.soaked and not fx.stunned and not fx.vital_blow
            and not fx.bv_ranged and not fx.suffocation and fx.heartbeat is None
            and fx.exposure is None and fx.broken_resistance is None and fx.taunt is None
            and fx.distract is None):
        return  # nothing that could expire (the usual case)
    for name in ("power_draw", "ward", "empowered", "enduring", "focused"):
        rec = getattr(fx, name)
        if rec is not None and rec[-1] <= now:
            setattr(fx, name, None)
            _cond(ev, c, name, 0)
    if fx.ignite is not None and fx.ignite[2] <= now:
        fx.ignite = None
        _cond(ev, c, "ignite", 0)
    for name, life in (("numbing", NUMBING_SECONDS), ("soaked", SOAKED_SECONDS)):
        old = getattr(fx, name)
        if not old:  # no stack to end (the usual case)
            continue
        new = tuple(s for s in old if s[1] + life > now)
        if len(new) != len(old):
            setattr(fx, name, new)
            _cond(ev, c, name, len(new))
    if fx.stunned:
        new_st = tuple(s for s in fx.stunned if s[1] > now)
        if len(new_st) != len(fx.stunned):
            fx.stunned = new_st
            _cond(ev, c, "stunned", len(new_st))
    for name in ("vital_blow", "bv_ranged", "suffocation"):
        old = getattr(fx, name)
        if not old:
            continue
        new = tuple(u for u in old if u > now)
        if len(new) != len(old):
            setattr(fx, name, new)
            _cond(ev, c, name, len(new))
    for name in ("heartbeat", "exposure", "broken_resistance"):
        if getattr(fx, name) is not None and getattr(fx, name) <= now:
            setattr(fx, name, None)
            _cond(ev, c, name, 0)
    if fx.taunt is not None:
        left = tuple(u for u in fx.taunt[1] if u > now)
        if len(left) != len(fx.taunt[1]):
            fx.taunt = (fx.taunt[0], left) if left else None
            _cond(ev, c, "taunt", len(left))
    if fx.distract is not None and fx.distract[2] <= now:
        fx.distract = None
        _cond(ev, c, "distract", 0)


def on_death(enc: PalladiumEncounter, ev: list[Event], c: Combatant) -> None:
    """spec §2.9, §7.1, R7: every effect on the dead is dispelled; every debuff it controls on
    others (Ignite, Numbing, Soaked, Stunned, Taunt, Distract) is removed."""
    from .full_state import Effects
    c.fx = Effects(c.fx.ee, c.fx.se, c.fx.no_pe)
    for o in enc.combatants:
        fx = o.fx
        if fx.ignite is not None and fx.ignite[0] == c.id:
            fx.ignite = None
            _cond(ev, o, "ignite", 0)
        for name in ("numbing", "soaked", "stunned"):
            old = getattr(fx, name)
            new = tuple(s for s in old if s[0] != c.id)
            if len(new) != len(old):
                setattr(fx, name, new)
                _cond(ev, o, name, len(new))
        if fx.taunt is not None and fx.taunt[0] == c.id:
            fx.taunt = None
            _cond(ev, o, "taunt", 0)
        if fx.distract is not None and fx.distract[0] == c.id:
            fx.distract = None
            _cond(ev, o, "distract", 0)
