"""Attack resolution (spec §5.3, §5.4, §5.5 bands, §6.1 Create a Meta-Die R-41, §8): the
Advantage state, the roll, outcome bands, criticals with the default V policy (R-10), damage
and the status of a Special Attack. Dice are drawn in the order of ``checks`` (spec §12.1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .checks import check_roll, dice_of, meta_die_for, net_steps, roll_meta, roll_rank
from .combatant import Combatant
from .damage import (
    attacker_damage,
    defend,
    gear_size,
    giant_hit,
    m_a,
    size_crit_mult,
    take_damage,
)
from .events import AttackRolled, CritUsed, ExpertiseUsed, MetaDieRolled
from .full_firearms import defender_profile, piercing
from .full_focus import ward_on
from .full_magic import magic_statuses, meta_status
from .full_powers import (
    force_fate,
    fudge,
    fudge_die,
    fudge_meta,
    has,
    hype_attack,
    magic_effect,
    meta_reach,
    meta_value,
    size_v,
)
from .full_statuses import carried, step_mod
from .full_windows import crash_out, crit_choice, defender_meta_die, dodge, finishing_touch
from .moves import dist
from .profile import Weapon
from .records import default_status
from .statuses import grapple_hit, inflict

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["band", "attack_steps", "in_range", "stop_squares", "attack", "grapple_attack",
           "special_status", "direct_only", "Hit", "crit_use", "range_squares"]


@dataclass(frozen=True, slots=True)
class Hit:
    """What one attack did (for the caller: ammo, throwing, the W-R1 trigger)."""

    band: str
    damage: int
    crit: bool


def range_squares(enc: MetaforceEncounter, a: Combatant, w: Weapon, thrown: bool = False) -> int:
    """The farthest a weapon reaches, in squares (R-27 reach, R-30 three increments)."""
    sq = rulings.SQUARE_FT
    if thrown:
        return w.thrown_ft // sq
    if w.ranged:  # a fixed range (Magic Missile's 120 ft) is one band (spec §13.4)
        return w.range_increment_ft * (1 if w.fixed_range else enc.options.range_increments) \
            // sq
    return max(w.reach_ft, a.profile.reach_ft) // sq


def stop_squares(enc: MetaforceEncounter, a: Combatant, w: Weapon, thrown: bool = False) -> int:
    """spec §5.1 APPROACH: "stop as soon as t is within reach of the chosen activity": a melee
    attack's reach, a ranged one's whole range (its last increment, with its band penalty)."""
    return range_squares(enc, a, w, thrown)


def in_range(enc: MetaforceEncounter, a: Combatant, w: Weapon, t: Combatant,
             at: tuple[int, int] | None = None, thrown: bool = False) -> bool:
    return dist(a, t, at) <= range_squares(enc, a, w, thrown)


def direct_only(w: Weapon, t: Combatant) -> bool:
    """spec §5.3.3, §5.5: firearm projectiles skip Deflection unless the armour is
    bullet-resistant."""
    return w.family == "firearm" and not t.profile.bullet_resistant


def band(tohit: int, e: int, d: int, firearm_direct: bool = False) -> str:
    """spec §5.3.3: miss below E, deflected up to D, direct above D (firearms: direct at E)."""
    if tohit < e:
        return "miss"
    if firearm_direct or tohit > d:
        return "direct"
    return "deflected"


def attack_steps(enc: MetaforceEncounter, a: Combatant, w: Weapon, t: Combatant,
                 extra: int = 0, thrown: bool = False) -> int:
    """spec §2.4.3, §5.3.1: the net Advantage state of an attack by ``a`` on ``t``."""
    base = extra
    if w.ranged and not thrown:
        inc = max(1, w.range_increment_ft)
        feet = dist(a, t) * rulings.SQUARE_FT
        increments = max(1, math.ceil(feet / inc))
        base -= enc.options.range_band_penalty * (increments - 1)
    base += target_steps(enc, a, t)
    return net_steps(base, w.proficient, w.attr in a.profile.expertise, a.tired, a.exhausted)


def target_steps(enc: MetaforceEncounter, a: Combatant, t: Combatant) -> int:
    """The steps an activity of ``a`` aimed at ``t`` gains or loses from ``t`` (attacks, spells)."""
    base = 0
    if a.immobilised and "grappled" in a.statuses and a.statuses["grappled"][2] != t.id:
        base -= 1
    if enc.options.on("unaware_bonus") and not t.aware and not t.acted:
        base += 1  # FULL only (CORE ignores it, whatever the setting)
    return base + step_mod(a, t)  # spec §5.3.1: Fear / Charm (Partial) at the source (FULL)


def special_status(w: Weapon, full: bool = False) -> str | None:
    """spec §2.7, R-16: the status of a weapon's Special Attack (data first), if these rules
    have it (``full``: the FULL statuses too, spec §12.3)."""
    s = w.special_status or default_status(w.damage_type)
    return s if carried(full, s) else None


def crit_use(enc: MetaforceEncounter, w: Weapon, a: Combatant, t: Combatant, tohit: int, v: int,
             b: int, e: int | None = None, d: int | None = None) -> str:
    """spec §5.3.4 default allocation policy (R-10), once ToHit is at least E and B is known;
    ``e``, ``d``: the Evasion and Deflection this attack faces (a Dodge's, Magic Missile's E 0;
    default the target's own)."""
    ma, st = m_a(enc, a, t), t.profile.size
    if st > a.profile.size and b * size_crit_mult(ma, v, st, enc.options.full) > (b + v) * ma * 2:
        return "size"
    e = t.evasion() if e is None else e
    d = t.deflection() if d is None else d
    return "tohit" if lifts_to_direct(w, t, tohit, v, e, d) else "damage"


def lifts_to_direct(w: Weapon, t: Combatant, tohit: int, v: int, e: int, d: int) -> bool:
    """R-10: a Versatile Bonus ``v`` on ToHit turns this deflected hit into a direct one ("not a
    firearm": a gun's V goes to damage even against bullet-resistant armour)."""
    return w.family != "firearm" and e <= tohit <= d and tohit + v > d


def expertise_v(a: Combatant, attr: str) -> int:
    """spec §2.4.2: an activity with an Attribute the combatant is expert in gains a Versatile
    Bonus equal to its Level (0 otherwise)."""
    return a.profile.level if attr in a.profile.expertise else 0


def expertise_use(w: Weapon, t: Combatant, tohit: int, xv: int, e: int, d: int) -> str:
    """R-52 on a hit (against Evasion ``e`` and Deflection ``d``): ToHit where it turns a
    deflected hit into a direct one (as a critical's V would, R-10), otherwise damage. RULING:
    never magnitude (the default policy's choice)."""
    return "tohit" if lifts_to_direct(w, t, tohit, xv, e, d) else "damage"


def _meta_die(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant,
              t: Combatant, tohit: int, e: int, d: int, fd: bool) -> int:
    """R-41: roll the largest affordable md only if it could lift the band; pay its result only
    if it did. Returns the new ToHit."""
    sides = meta_die_for(a.mp) if a.mu else None
    now = band(tohit, e, d, fd)
    if sides is None or now == "direct" or band(tohit + meta_reach(enc, a, sides), e, d, fd) \
            == now:
        return tohit
    value, cost = meta_value(enc, ctx.dice, ev, a, sides)  # item 3 (R-29, Hype: FULL)
    nudged = fudge_meta(enc, ctx, ev, a, t, value, sides,
                        lambda v: band(tohit + v, e, d, fd) != now)  # FULL, spec §6.4
    if nudged != value:
        value, cost = nudged, min(nudged, a.mp)
    if band(tohit + value, e, d, fd) == now:
        ev.append(MetaDieRolled(a.id, sides, value, 0))
        return tohit
    a.mp -= cost
    ev.append(MetaDieRolled(a.id, sides, value, cost))
    return tohit + value


def attack(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant, w: Weapon,
           t: Combatant, *, meta: bool = False, extra_steps: int = 0, steps: int | None = None,
           thrown: bool = False) -> Hit:
    """One attack roll of ``a`` with ``w`` on ``t`` (spec §5.3; ``steps`` overrides the state,
    for the firearm ladder of §5.5)."""
    e, d = t.evasion(), t.deflection()
    if w.ignores_evasion:  # Magic Missile (§13.4): at least deflected, direct if ToHit > D
        e = 0
    else:
        bonus_e = dodge(enc, ctx, ev, a, t)  # W-R2 before the roll (FULL)
        e, d = e + bonus_e, max(d, e + bonus_e)
    fd = direct_only(w, t) or piercing(enc, w, t)  # armour-piercing rounds (FULL)
    ward = ward_on(enc, t)  # §13.4 Ward (FULL): -2 ToHit and -2 Magnitude
    s = attack_steps(enc, a, w, t, extra_steps, thrown) if steps is None else steps
    mine = dice_of(ctx.dice, a)  # the attacker's own dice (Safe-6 raises them, FULL)
    chk = check_roll(mine, s)  # dice order items 1-2
    chk = fudge(enc, ctx, ev, a, t, chk, mine)  # W-I1 Fudge Nudge (FULL)
    chk = size_v(enc, mine, ev, a, chk)  # R-29 (FULL): the extra Size dice of V
    chk = magic_effect(enc, ctx, ev, a, t, chk)  # Magic Effect: MP added to V (FULL)
    special = a.special_until >= 0 and rulings.SETUP_USED_BY_ANY_ATTACK
    if special:
        a.special_until = -1
    tohit = chk.kept + w.tohit + chk.penalty - ward
    full = enc.options.full
    own = special_status(w, full)
    pick = crit_choice(enc, ctx, a, t, own is not None, chk.v, magic_statuses(enc, a, own)) \
        if chk.crit else None
    use = pick[0] if pick else None
    named = pick[1] if pick and len(pick) > 1 else ""  # Magic Effect: V on any status (FULL)
    if chk.crit and use is None and tohit < e:
        use = "tohit"  # V is needed to reach Evasion
    if use == "tohit":
        tohit += chk.v
    xv = expertise_v(a, w.attr)  # spec §2.4.2, R-52: to ToHit while the hit still needs it
    x_use = "tohit" if xv and tohit < e else None
    if x_use:
        tohit += xv
    if meta:
        tohit = _meta_die(enc, ctx, ev, a, t, tohit, e, d, fd)
    tohit = force_fate(enc, ctx, ev, a, t, tohit, e, d, fd, up=True)  # W-I1 (FULL)
    tohit = defender_meta_die(enc, ctx, ev, a, t, tohit, e, d, fd)  # W-I2 (FULL)
    tohit = force_fate(enc, ctx, ev, t, a, tohit, e, d, fd, up=False)  # the defender's
    got = band(tohit, e, d, fd)
    if got == "miss":
        ev.append(AttackRolled(a.id, t.id, w.id, chk.faces, chk.kept, s, tohit, e, d, got,
                               chk.v))
        if use:
            ev.append(CritUsed(a.id, use, chk.v, named))
        if x_use:
            ev.append(ExpertiseUsed(a.id, x_use, xv))
        crash_out(enc, ctx, ev, a, t, chk.kept)  # W-I3 (FULL)
        return Hit(got, 0, chk.crit)
    bonus = mine.roll(w.bonus_die)[0] if w.bonus_die else 0  # dice order item 4
    if w.bonus_die:  # FULL: Fudge Nudge on the user's damage die (spec §6.4)
        bonus = fudge_die(enc, ctx, ev, a, t, bonus, w.bonus_die, "damage")
    pen = w.pen_flat
    if w.pen_die:  # ... then the Penetration die (spec §8.2.2)
        pen = roll_meta(mine, w.pen_die) if w.pen_meta else mine.roll(w.pen_die)[0]
        pen = fudge_die(enc, ctx, ev, a, t, pen, w.pen_die, "penetration")  # FULL, spec §6.4
    early = None  # Hype Effect (FULL): the magnitude's Attribute die, then the copies
    if has(enc, a, "hype_effect"):
        bonus, pen, early = hype_attack(enc, mine, ev, a, w.bonus_die, bonus, w.pen_die,
                                        w.pen_meta, pen, a.attr(w.attr) if special else None)
    b = w.damage_base + bonus
    if chk.crit and use is None:
        use = crit_use(enc, w, a, t, tohit, chk.v, b, e, d)
        if use == "tohit":
            tohit += chk.v
            got = band(tohit, e, d, fd)
    if xv and x_use is None:
        x_use = expertise_use(w, t, tohit, xv, e, d)
        if x_use == "tohit":
            tohit += xv
            got = band(tohit, e, d, fd)
    ev.append(AttackRolled(a.id, t.id, w.id, chk.faces, chk.kept, s, tohit, e, d, got, chk.v))
    if use:
        ev.append(CritUsed(a.id, use, chk.v, named))
    if x_use:
        ev.append(ExpertiseUsed(a.id, x_use, xv))
    if use == "damage":
        b += chk.v
    if x_use == "damage":
        b += xv
    ma = m_a(enc, a, t)  # spec §8.4 Size/Crush Resistance lowers it
    size_crit = size_crit_mult(ma, chk.v, t.profile.size, enc.options.full) \
        if use == "size" else None
    ma, size_crit = gear_size(enc.options.full, w.size_ranks, w.size_ranks_direct,
                              a.profile.size, t.profile.size, got == "direct", ma, size_crit)
    raw = attacker_damage(b, ma, chk.crit, size_crit)
    final = defend(defender_profile(enc, w, t), raw, w.damage_type, got == "deflected",
                   w.family == "firearm", giant_hit(enc, a, t), pen=pen)
    if t.burn_injury and final > 0:
        final = final * 3 // 2  # R-19 (FULL): Burn Injury
    take_damage(enc, ctx, ev, t, final, a.id, w.damage_type, raw)
    if final > 0 and not enc.is_over():
        finishing_touch(enc, ctx, ev, a, t, chk.v)  # W-I4 (FULL)
    mine_v = use == "magnitude" and not named  # V on the weapon's own status
    status = own if special or mine_v else None
    named_v = chk.v if named else 0
    if not named and t.alive and not enc.is_over():
        got_named = meta_status(enc, ctx, ev, a, t)  # WE-27: a Meta-Die's V on any status
        if got_named:
            named, named_v = got_named
    if (status is not None or named) and t.alive and not enc.is_over():
        attr = a.attr(w.attr)
        value = early if early is not None else roll_rank(mine, attr) if special else attr
        m = chk.kept + value + bonus + w.magnitude_bonus - ward  # spec §5.3.4 Magnitude
        x = w.bonus_die // 2 if w.bonus_die else rulings.DOT_DEFAULT_X
        if status is not None:
            inflict(enc, ctx, ev, a, t, status, m + (chk.v if mine_v else 0), got == "deflected",
                    x)
        if named and t.alive and not enc.is_over():
            inflict(enc, ctx, ev, a, t, named, m + named_v, got == "deflected", x)
    return Hit(got, final, chk.crit)


def grapple_attack(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant,
                   t: Combatant) -> Hit:
    """spec §5.9 item 1: an attack roll against Evasion only; a hit makes the grapple magnitude.
    A critical's V goes to ToHit if it is needed to reach E, else to the Magnitude (ENGINE: a
    grapple has no damage)."""
    p = a.profile
    e = t.evasion() + dodge(enc, ctx, ev, a, t)  # W-R2 (FULL)
    s = net_steps(target_steps(enc, a, t), p.grapple_proficient, p.grapple_attr in p.expertise,
                  a.tired, a.exhausted)  # an attack roll (§5.9 item 1): §5.3.1's target steps
    # (R-37 grappled, R-8 unaware, Fear / Charm Partial: FULL)
    mine = dice_of(ctx.dice, a)
    chk = fudge(enc, ctx, ev, a, t, check_roll(mine, s), mine)  # W-I1 Fudge Nudge (FULL)
    chk = size_v(enc, mine, ev, a, chk)  # R-29 (FULL)
    if a.special_until >= 0:
        a.special_until = -1
    tohit = chk.kept + p.grapple_bonus + chk.penalty - ward_on(enc, t)  # §13.4 Ward (FULL)
    use = None
    if chk.crit:
        use = "tohit" if tohit < e else "magnitude"
        if use == "tohit":
            tohit += chk.v
    xv = expertise_v(a, p.grapple_attr)  # spec §2.4.2, R-52: to ToHit while the hit needs it,
    x_use = ("tohit" if tohit < e else "magnitude") if xv else None  # else to the Magnitude
    if x_use == "tohit":
        tohit += xv
    # W-I1 and W-I2 on the grapple's roll (spec §6.1; FULL): the attacker's Force Fate, the
    # defender's Create a Meta-Die and Force Fate; against Evasion only, a hit is "direct"
    tohit = force_fate(enc, ctx, ev, a, t, tohit, e, e, True, up=True)
    tohit = defender_meta_die(enc, ctx, ev, a, t, tohit, e, e, True)
    tohit = force_fate(enc, ctx, ev, t, a, tohit, e, e, True, up=False)
    got = "miss" if tohit < e else "direct"
    ev.append(AttackRolled(a.id, t.id, "grapple", chk.faces, chk.kept, s, tohit, e, e, got,
                           chk.v))
    if use:
        ev.append(CritUsed(a.id, use, chk.v))
    if x_use:
        ev.append(ExpertiseUsed(a.id, x_use, xv))
    if got == "direct":
        grapple_hit(enc, ctx, ev, a, t, chk.kept, (chk.v if use == "magnitude" else 0)
                    + (xv if x_use == "magnitude" else 0))
    else:
        crash_out(enc, ctx, ev, a, t, chk.kept)  # W-I3 (FULL)
    return Hit(got, 0, chk.crit)
