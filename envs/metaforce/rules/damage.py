"""Damage, defence and defeat (spec §5.3.5, §8.1, §8.2, §8.4, §8.6, §6.4 Deus Ex / W-I5).

Pure functions compute numbers (``attacker_damage``, ``defend``) so previews and resolution share
them; ``take_damage`` changes HP, decides defeat and death, and asks the victim about Deus Ex.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from .combatant import Combatant
from .events import DamageDealt, DeusExUsed, Healed, SaveRolled, StateChanged
from .moves import release_grapple
from .profile import Profile, size_mult

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["attacker_damage", "size_crit_mult", "gear_size", "resistance_x", "defend",
           "take_damage", "knock_out", "exert_check", "PHYSICAL"]

PHYSICAL = ("blunt", "slashing", "piercing")


def size_crit_mult(m_a: float, v: int, size_t: float, full: bool) -> float:
    """spec §8.4: ``max(m_a, min(V, T))``; under FULL a small attacker (m_a < 1)
    ``min(V x m_a, T)`` (R-28; spec §12.3 lists the Size critical for small attackers as FULL,
    and CORE's §5.3.4 uses the first formula for every attacker)."""
    if m_a >= 1 or not full:
        return max(m_a, min(v, size_t))
    return min(v * m_a, size_t)


def gear_size(full: bool, ranks: int, direct_only: bool, size_a: float, size_t: float,
              direct: bool, ma: float, size_crit: float | None) -> tuple[float, float | None]:
    """spec §8.4 (FULL): equipment that treats its damage as ``ranks`` Sizes larger against a
    bigger foe adds ``ranks`` to the Size multiplier (+100% of B each), up to the target's Size,
    the same cap as the Size critical's; with ``direct_only`` (the seed: "if conditions such as
    requiring to beat the target's Deflection need to be met") only on a direct hit. RULING:
    the ranks add to whichever multiplier the hit uses, the Size critical's included; a
    critical without it still doubles. Returns ``(m_a, size_crit)``."""
    if not full or ranks <= 0 or size_t <= size_a or (direct_only and not direct):
        return ma, size_crit
    if size_crit is not None:
        return ma, max(size_crit, min(size_crit + ranks, size_t))
    return max(ma, min(ma + ranks, size_t)), None


def attacker_damage(b: int, m_a: float, crit: bool, size_crit: float | None = None) -> int:
    """spec §8.1: ``floor(B * m_a)``, doubled on a critical, or ``floor(B * mult)`` when V went
    to Size Damage; at least 1 on a hit before defences (R-28)."""
    if size_crit is not None:
        return max(1, math.floor(b * size_crit))
    dmg = math.floor(b * m_a)
    if crit:
        dmg *= 2
    return max(1, dmg)


def resistance_x(p: Profile, key: str, firearm: bool) -> int | None:
    """The best Resistance X of ``p`` against ``key`` (a damage type or ``status:<id>``), or
    ``None`` without one (spec §8.2.2: sources do not stack, the highest X counts; §5.5, R-31:
    ordinary armour gives no Resistance against firearms)."""
    found: list[int] = []
    for table, armour in ((p.resistances, False), (p.armour_resistance, True)):
        if armour and firearm and not p.bullet_resistant:
            continue
        for k in (key, "physical" if key in PHYSICAL else None):
            if k is not None and k in table:
                found.append(int(table[k]))
    return max(found) if found else None


def _table(table: Mapping[str, int], key: str) -> int | None:
    """The value for ``key``, counting ``physical`` for the physical types (§8.2.2)."""
    found = [int(table[k]) for k in (key, "physical" if key in PHYSICAL else "") if k in table]
    return max(found) if found else None


def defend(p: Profile, dmg: int, key: str, deflected: bool, firearm: bool = False,
           giant: bool = False, status: bool = False, pen: int = 0) -> int:
    """spec §8.2 defender pipeline on ``dmg`` of type (or status) ``key`` (R-3, R-4, R-21,
    R-22): Immunity (Penetration ``pen`` beats Immunity X), Weakness, Deflection (deflected hits
    only), then the best of Resistance X and Absorb X. Returns the HP lost; a negative result is
    HP healed by Absorb.

    ``giant``: option ``deflection_vs_giants`` applies to this hit (§8.2.4). ``status``: ``key``
    is a status magnitude, looked up as ``status:<name>`` (§8.2.3). Penetration works only on
    direct hits.
    """
    if status:
        key = f"status:{key}"
    pen = 0 if deflected else pen
    immune = key in p.immunities or (key in PHYSICAL and "physical" in p.immunities)
    if immune:
        imm = _table(p.immunity_x, key) or 0  # step 1
        if pen <= imm:
            return 0
        dmg = min(dmg, pen - imm)
    weak = _table(p.weaknesses, key)
    if weak is not None and dmg > 0:
        dmg = max(2 * dmg, weak)  # step 2, R-21
    # spec §8.2.2: one variation (Resistance, Absorb or Immunity) at a time: a penetrated
    # Immunity is the one used, so no Resistance or Absorb follows (and Deflection's extra is 0)
    x = None if immune else resistance_x(p, key, firearm)
    ab = None if immune else _table(p.absorbs, key)
    extra = 0
    if deflected:  # step 3
        if giant and x is None:
            dmg = max(0, dmg - 1)  # R-4 option
        else:
            dmg //= 2
            extra = x or 0
    # step 4: the best of the defender's properties; "no resistance property" (dmg unchanged)
    # only when it has none: a Penetration that turns Absorb's H negative is taken in full
    outcomes = [] if x is not None or ab is not None else [dmg]
    if x is not None:  # step 4: Resistance X
        outcomes = [max(0, dmg // 2 - max(0, x // 2 - pen)) if pen
                    else max(0, dmg // 2 - x - extra)]
    if ab is not None:  # Absorb X: heals H, or H < 0 is damage
        h = -(-dmg // 2) + (ab // 2 - pen if pen else ab)
        outcomes.append(-h)
    return min(outcomes)  # the defender uses the property that leaves the least damage


def giant_hit(enc: MetaforceEncounter, a: Combatant, t: Combatant) -> bool:
    """§8.2.4: the option is on and the attacker's effective Size (after the defender's
    Size/Crush Resistance, §8.4) is at least 2 above the defender's."""
    if not enc.options.deflection_vs_giants:
        return False
    return effective_size(enc, a, t) >= t.profile.size + 2


def knock_out(enc: MetaforceEncounter, ev: list[Event], c: Combatant, state: str) -> None:
    """``c`` leaves the fight (spec §8.6): grapples on and by it end."""
    c.state = state
    enc.memo.clear()
    ev.append(StateChanged(c.id, state, c.hp))
    release_grapple(enc, ev, c, "ended")
    for o in enc.combatants:
        if o.holds(c.id):
            release_grapple(enc, ev, o, "ended", c.id)
    c.stun = 0
    if c.effects:
        from .full_focus import end_effects
        end_effects(ev, c, state)  # spec §7.9: no concentration out of the fight
    if enc.options.full:
        from .full_statuses import controller_gone
        controller_gone(enc, ev, c)  # spec §7.5: its Charms end
    enc.check_end(ev)


def exert_check(enc: MetaforceEncounter, ev: list[Event], c: Combatant) -> bool:
    """spec §7.6, R-20: Exert above L releases every Tension first; still above L, ``c`` falls
    Unconscious. Returns whether it did."""
    if not c.active or c.exert_total <= c.profile.exert_limit:
        return False
    if c.effects:
        from .full_focus import end_effects
        end_effects(ev, c, "over the Exert limit", tension_only=True)
    c.tension = 0
    if c.exert_total <= c.profile.exert_limit:
        return False
    knock_out(enc, ev, c, "unconscious")
    return True


def _deus_ex(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
             before: int) -> bool:
    """W-I5 (spec §6.4, R-43): the victim may cheat death. Returns whether it did."""
    if not (enc.options.deus_ex_enabled and c.mu and c.mp >= 1):
        return False
    use = Action(c.id, "deus_ex")
    pick = ctx.ask(c.id, "deus_ex", [use, Action(c.id, "pass")],
                   {"hp": c.hp, "mp": c.mp, "mp_max": c.mp_max})
    if pick != use:
        return False
    c.deus_ex_uses += 1
    c.mp = 1
    c.mp_max -= c.deus_ex_uses  # the n-th use costs n Max MP
    if c.mp_max <= 0:
        c.mp_max, c.mp, c.mu = 0, 0, False  # no longer a Metaforce user
    c.mp = min(c.mp, c.mp_max)
    mode = enc.options.deus_ex_mode
    ev.append(DeusExUsed(c.id, mode, c.mp_max))
    if mode == "negate":
        c.hp = before
        return True
    body = int(c.profile.cores.get("body", 0))
    c.hp = -body if c.profile.protected else 0
    if c.active:
        knock_out(enc, ev, c, "incapacitated")
    return True


def _luck_save(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
               body: int) -> bool:
    """R-46 (FULL option ``luck_save_on_death``): a Protected character about to die rolls
    ``d12 + Level`` against ``max(4, 12 - Level)``; on a success it is Incapacitated instead
    (at HP -Body, the lowest a living one may have)."""
    if not (enc.options.on("luck_save_on_death") and c.profile.protected):
        return False
    from .checks import check_roll, dice_of
    level = c.profile.level
    chk = check_roll(dice_of(ctx.dice, c), -1 if c.exhausted else 0)  # its own d12 (Safe-6)
    total = chk.kept + chk.v + chk.penalty + level
    tn = max(4, 12 - level)
    ok = total >= tn
    ev.append(SaveRolled(c.id, "luck", chk.faces, total, tn, "success" if ok else "failure"))
    if ok:
        c.hp = -body
        if c.active:
            knock_out(enc, ev, c, "incapacitated")
    return ok


def take_damage(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant, amount: int,
                source: str, dtype: str, raw: int) -> None:
    """Subtract ``amount`` from HP and apply spec §8.6: Protected combatants are Incapacitated at
    HP <= 0 and die below -Body; unprotected ones die at 0. A lethal result opens W-I5."""
    if not c.alive:
        return
    before = c.hp
    if amount < 0:  # Absorb: healing, x Size for Size 2+ (spec §8.3), capped at Max HP
        ev.append(Healed(c.id, source, c.heal(-amount), c.hp))
        return
    c.hp -= amount
    ev.append(DamageDealt(c.id, source, raw, amount, c.hp, dtype))
    if amount > 0 and "sleep" in c.statuses:
        from .full_statuses import wake
        wake(ev, c)  # spec §7.5: damage wakes a sleeper at Full (FULL)
    if c.hp > 0 or amount <= 0:
        return
    body = int(c.profile.cores.get("body", 0))
    lethal = c.hp < -body if c.profile.protected else True
    if lethal:
        if _luck_save(enc, ctx, ev, c, body) or _deus_ex(enc, ctx, ev, c, before):
            return
        knock_out(enc, ev, c, "dead")
    elif c.active:
        knock_out(enc, ev, c, "incapacitated")


def effective_size(enc: MetaforceEncounter, c: Combatant, t: Combatant) -> float:
    """The attacker's Size against ``t`` (spec §8.4): lowered by ``t``'s Size/Crush Resistance
    and Reduction, which are FULL rules (spec §12.3); its real Size otherwise."""
    p = c.profile
    if not enc.options.full or not (t.profile.size_res_sources or t.profile.size_res_reduction) \
            or p.size <= t.profile.size:
        return p.size
    from fractions import Fraction

    from .records import SizeResistance
    res = SizeResistance(t.profile.size_res_sources, t.profile.size_res_reduction)
    return float(res.attacker_size(Fraction(p.size).limit_denominator(16),
                                   Fraction(t.profile.size).limit_denominator(16)))


def m_a(enc: MetaforceEncounter, c: Combatant, t: Combatant) -> float:
    """The attacker's Size multiplier (spec §2.9) at its effective Size against ``t``."""
    return size_mult(effective_size(enc, c, t))
