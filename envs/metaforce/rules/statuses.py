"""Statuses and saves (spec §7.1-§7.5, §5.9, §5.10): magnitude against Status Defence, severity,
Saving Throws (eligibility, TN, Miraculous), DoT ticks, Stun, Knockback and the Grappled state.

CORE statuses: Bleed, Burn (DoT), Knockback, Stun, Grappled (``rulings.CORE_STATUSES``); FULL
adds Poison, Acid Burn, Slow, Fear, Charm, Sleep and Deafened (``full_statuses``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx

from . import content as C
from . import rulings
from .checks import check_roll, dice_of, net_steps, rank_die, roll_rank
from .combatant import Combatant, severity, status_core
from .damage import defend, exert_check, take_damage
from .events import (
    CheckRolled,
    DotTicked,
    ExertPaid,
    GrappleChanged,
    ReactionsChanged,
    SaveRolled,
    StatusChanged,
    Stunned,
)
from .full_powers import fudge
from .full_statuses import BREAKABLE, DOT_TYPES, FULL_STATUSES, carried, step_mod, took_hold
from .moves import knockback, release_grapple
from .profile import size_step
from .records import STATUSES

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["can_save", "roll_save", "inflict", "stun", "dot_ticks", "escape", "breakable",
           "grapple_factor", "grapple_hit", "grip_limit", "maintain"]


def can_save(enc: MetaforceEncounter, c: Combatant, core: str) -> bool:
    """spec §7.3 eligibility: proficient or expert in the save attribute, a granted save
    (``saves`` of the stat block), or the FULL option ``gm_grants_saves``."""
    attr = C.SAVE_ATTRIBUTE[core]
    p = c.profile
    return (attr in p.proficient or attr in p.expertise or core in p.saves
            or enc.options.on("gm_grants_saves"))


def roll_save(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
              core: str, status: str | None = None) -> str:
    """spec §7.3, R-49: ``failure``, ``success`` or ``miraculous`` (dice order item 7);
    ``status``: what it saves against (a race's ``advantage_on_saves_vs``: +1 step, FULL)."""
    attr = C.SAVE_ATTRIBUTE[core]
    p = c.profile
    flat = c.attr(attr)
    tn = C.save_tn(flat)
    expert = attr in p.expertise
    base = 1 if expert else 0
    if enc.options.full and status is not None and status in p.save_advantage:
        base += 1  # spec §7.3: e.g. Odonghe vs disease -> Advantage (a race trait, §12.3)
    steps = net_steps(base, False, False, c.tired, c.exhausted)
    mine = dice_of(ctx.dice, c)
    chk = check_roll(mine, steps)
    chk = fudge(enc, ctx, ev, c, c, chk, mine)  # FULL, spec §6.4: any of the user's own rolls
    kept = chk.kept
    bonus = roll_rank(mine, flat) if expert else flat
    if enc.options.full and attr in p.take_average:  # Odonghe Expertise (FULL, §12.3)
        kept = max(kept, 6)
        die = rank_die(flat)
        if expert and die is not None:
            bonus = max(bonus, die[1] // 2)
    if enc.options.full and attr in p.save_level_bonus:
        bonus += p.level  # Odonghe: +Level on END (a race trait: FULL, spec §12.3)
    total = kept + chk.v + chk.penalty + bonus
    result = ("miraculous" if total >= tn + C.MIRACULOUS_MARGIN
              else "success" if total >= tn else "failure")
    ev.append(SaveRolled(c.id, core, chk.faces, total, tn, result))
    return result


DOTS = tuple(n for n, d in STATUSES.items() if d.dot)  # spec §7.4 (records.STATUSES)


def _save_core(status: str) -> str | None:
    """The save against a status (its core; ``None``: Knockback cannot be saved, §7.5)."""
    d = STATUSES.get(status)
    return d.core if d is not None and d.save_attr is not None else None


def stun(enc: MetaforceEncounter, ev: list[Event], c: Combatant, frames: int) -> None:
    """R-14: a new Stun does not add; the remaining lost frames become the larger. A Stunned
    grappler lets go (spec §5.9 item 4)."""
    if frames > c.stun:
        c.stun = frames
        ev.append(Stunned(c.id, frames))
    if c.casting is not None:
        from .full_spells import interrupt
        interrupt(ev, c, "stunned")
    if c.effects:
        from .full_focus import stunned
        stunned(ev, c, frames)  # spec §7.9, R-47
    if c.grappling is not None:
        release_grapple(enc, ev, c, "ended")


def inflict(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant, t: Combatant,
            status: str, m: int, deflected: bool, x: int) -> None:
    """spec §7.2 ToHit mode: deflected halves, resistance/immunity of the status, ``M >= SD``
    inflicts, an eligible Save halves (Miraculous: 0); then the status takes effect."""
    if not carried(enc.options.full, status) or not t.alive:
        return
    if status == "knockback" and t.profile.size > a.profile.size:
        m //= max(1, int(t.profile.size)) - max(1, int(a.profile.size)) + 1
    # spec §8.2.3, R-3: the whole defender pipeline, as for damage: Weakness before Deflection
    # halves every magnitude a deflected hit carries, and Deflection's own Resistance X
    m = max(0, defend(t.profile, m, status, deflected, status=True))
    sd = t.sd(status_core(status))
    lingers = STATUSES[status].lingers  # R-17, spec §7.1 (Acid Burn, FULL)
    held = t.magnitude(status) if lingers else 0
    if lingers:
        m += t.suppressed.pop(status, 0)  # a Suppressed magnitude joins the next attempt
    if held and m <= 0:
        return
    if not held and m < sd:  # held: a lingering status in force adds whatever comes
        if lingers and m > 0:
            t.suppressed[status] = m  # it stays Suppressed (held, not in force)
            ev.append(StatusChanged(t.id, status, m, "suppressed"))
            return
        ev.append(StatusChanged(t.id, status, m, "resisted"))
        return
    save = _save_core(status)
    if save is not None and not can_save(enc, t, save) and enc.options.on("exert_to_save"):
        t.exert += 1  # R-49 (FULL option): Exert 1 buys the Save
        ev.append(ExertPaid(t.id, 1, t.exert_total))
        if exert_check(enc, ev, t):  # spec §7.6: over the limit at once; out cold, no Save
            return
        eligible = True
    else:
        eligible = save is not None and can_save(enc, t, save)
    result = ""
    if save is not None and eligible:
        result = roll_save(enc, ctx, ev, t, save, status)
        if result == "miraculous":
            ev.append(StatusChanged(t.id, status, 0, "resisted"))
            return
        if result == "success":
            m //= 2
    m += held  # a lingering status adds to the magnitude it holds
    sev = severity(m, sd)
    if sev == "ended":
        return
    if status == "knockback":
        push = rulings.KNOCKBACK_SQUARES.get(sev, 0)
        ev.append(StatusChanged(t.id, status, m, sev))
        if push:
            knockback(enc, ev, a, t, push)
        if sev == "intense":
            stun(enc, ev, t, 1)
        return
    if status == "stun":
        ev.append(StatusChanged(t.id, status, m, sev))
        if sev == "partial":
            t.no_react = True
            if t.reactions:
                t.reactions = 0
                ev.append(ReactionsChanged(t.id, 0))
        else:
            stun(enc, ev, t, rulings.STUN_FRAMES[sev])
        return
    old = t.statuses.get(status)
    if old is not None and old[0] >= m:  # keep the higher
        return
    if status == "grappled":
        if old is not None and old[2] in enc.by_id and old[2] != a.id:
            enc.by_id[old[2]].drop_grip(t.id)  # a stronger grip takes over
        t.statuses[status] = (m, 0, a.id)
        a.add_grip(t.id)
        ev.append(GrappleChanged(a.id, t.id, m, "grabbed"))
    else:
        t.statuses[status] = (m, x, a.id)
    ev.append(StatusChanged(t.id, status, m, sev))
    if status in FULL_STATUSES:
        took_hold(enc, ev, t, status, sev)
    if status == "burn" and enc.options.full and not t.burn_injury and (
            sev == "intense" or (sev == "full" and result == "failure")):
        t.burn_injury = True  # Burn Injury, attack damage x1.5 (floor) from now on
        ev.append(StatusChanged(t.id, "burn_injury", m, sev))


def dot_ticks(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant) -> None:
    """spec §7.4, R-18: at the start of the victim's turn each DoT deals Partial floor(X/2),
    Full X, Intense 2X of its damage type (resistances apply, Deflection and Size do not)."""
    for name in DOTS:
        s = c.statuses.get(name)
        if s is None or not c.alive:
            continue
        m, x, src = s
        if enc.options.dot_x_mode == "half_magnitude":
            x = m // 2
        sev = c.status_severity(name)
        amount = {"partial": x // 2, "full": x, "intense": 2 * x}.get(sev, 0)
        dtype = DOT_TYPES.get(name, name)
        final = defend(c.profile, amount, dtype, False)
        ev.append(DotTicked(c.id, name, sev, final))
        if final != 0:  # Absorb of the type heals instead
            take_damage(enc, ctx, ev, c, final, f"{name}", dtype, amount)


def breakable(c: Combatant) -> list[str]:
    """spec §5.10: the statuses ``c`` may make an Escape / Break check against this frame (FULL
    adds Slow, Fear and Charm, not Charm at Intense)."""
    return [s for s in BREAKABLE if s in c.statuses and s not in c.escaped
            and not (s == "charm" and c.status_severity(s) == "intense")]


def escape(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
           status: str) -> None:
    """spec §5.10, R-38: d12 (ladder, explodes) + Attribute (flat, or its die if proficient) +
    a covering Metaphor rank, subtracted from the magnitude; at <= 0 the status ends."""
    p = c.profile
    attr = max(rulings.BREAK_ATTR[status], key=c.attr)
    prof = attr in p.proficient or attr in p.expertise
    steps = net_steps(0, prof, attr in p.expertise, c.tired, c.exhausted)
    mine = dice_of(ctx.dice, c)
    chk = check_roll(mine, steps)
    flat = c.attr(attr)
    value = roll_rank(mine, flat) if prof and rank_die(flat) else flat
    rank = p.grapple_bonus - p.attr(p.grapple_attr) if status == "grappled" \
        and p.grapple_proficient else 0
    xv = p.level if attr in p.expertise else 0  # spec §2.4.2, R-52: every point cuts M
    total = chk.kept + chk.v + chk.penalty + value + max(0, rank) + xv
    c.escaped.append(status)
    ev.append(CheckRolled(c.id, f"escape:{status}", chk.faces, total))
    m, x, src = c.statuses[status]
    left = m - total
    if left <= 0:
        del c.statuses[status]
        ev.append(StatusChanged(c.id, status, 0, "ended"))
        if status == "grappled" and src in enc.by_id:
            g = enc.by_id[src]
            if g.holds(c.id):
                g.drop_grip(c.id)
                ev.append(GrappleChanged(g.id, c.id, 0, "escaped"))
        return
    c.statuses[status] = (left, x, src)
    ev.append(StatusChanged(c.id, status, left, c.status_severity(status)))


def grapple_factor(a: Combatant, t: Combatant) -> int:
    """spec §5.9 item 1, R-36: x(Size_a - Size_t) when the grappler is 2+ Sizes bigger (Sizes
    below Medium count as 1)."""
    sa, st = max(1, int(a.profile.size)), max(1, int(t.profile.size))
    return sa - st if sa >= st + 2 else 1


def grapple_ok(a: Combatant, t: Combatant) -> bool:
    """R-36: the target is at most one Size step larger."""
    return size_step(t.profile.size) <= size_step(a.profile.size) + 1


def grapple_hit(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant, t: Combatant,
                kept: int, v_mag: int) -> None:
    """spec §5.9 item 2: ``M = (K + max(STR, AGI) flat + rank (+V) - Ward) x factor`` against
    the Reflex Status Defence; the Save halves (Miraculous: no grapple)."""
    from .full_focus import ward_on
    m = (kept + a.profile.grapple_bonus + v_mag - ward_on(enc, t)) * grapple_factor(a, t)
    # (§13.4 Ward: -2 Magnitude on an incoming attack, the grapple's included, before the size
    # factor as the bonus is)
    grips = a.grips()
    if t.id not in grips and len(grips) >= grip_limit(enc, a):
        release_grapple(enc, ev, a, "released", grips[0])  # CORE: one grapple
    inflict(enc, ctx, ev, a, t, "grappled", m, False, 0)
    if not a.holds(t.id):
        ev.append(GrappleChanged(a.id, t.id, m, "failed"))


def grip_limit(enc: MetaforceEncounter, a: Combatant) -> int:
    """spec §5.9 item 4: one grapple per free Manipulate appendage in FULL (the free hands);
    CORE: one grapple."""
    return max(1, a.free_hands()) if enc.options.full else 1


def maintain(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant,
             tid: str | None = None) -> None:
    """spec §5.9 item 3: ``d12 + max(STR, AGI) flat + rank (x factor)``; the magnitude becomes the
    larger of the current one and the new roll (of the grip on ``tid``, the first one by
    default)."""
    tid = tid or a.grappling
    assert tid is not None and a.holds(tid)
    t = enc.by_id[tid]
    p = a.profile
    steps = net_steps(step_mod(a, t), p.grapple_proficient, p.grapple_attr in p.expertise,
                      a.tired, a.exhausted)  # Fear / Charm (Partial) at the source (§7.5)
    chk = check_roll(dice_of(ctx.dice, a), steps)
    from .attack import expertise_v
    xv = expertise_v(a, p.grapple_attr)  # spec §2.4.2: Expertise's V
    total = (chk.kept + chk.v + chk.penalty + p.grapple_bonus + xv) * grapple_factor(a, t)
    ev.append(CheckRolled(a.id, "maintain", chk.faces, total))
    m, x, src = t.statuses.get("grappled", (0, 0, a.id))
    if total > m:
        t.statuses["grappled"] = (total, x, a.id)
    ev.append(GrappleChanged(a.id, t.id, max(m, total), "held"))
