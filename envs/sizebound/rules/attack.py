"""The attack procedure (spec §5.0.4, A1-A12) with its windows (R-DECLARE, R-PARRY, R-DODGE,
E-D20, E-CRIT; R-BLOCK and E-DMG inside the damage procedure), and areas (spec §8.7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .conventions import percent_happens
from .damage import deal, immune_types, resist_vuln
from .economy import can_react, extra_payment, pay_extra, spend_reaction
from .events import AttackResult, CritNegated
from .fighter import FatigueRung, Fighter
from .full_conditions import DRUNK_HIT, no_decisions, petrified
from .full_damage import average_roll
from .full_reactions import declare_options, quick_draw
from .full_sides import gain_die, spend_die
from .procedures import (
    add_condition,
    can_fall_prone,
    exert_d20,
    has_steal_edge,
    make_prone,
    roll,
    use_steal_edge,
)
from .profile import UNARMED, WeaponProfile
from .space import dist, overlaps

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["Strike", "attack", "hit_terms", "dodge_bonus", "parry_weapon", "charge_ready",
           "area_attack", "regain"]


@dataclass(frozen=True, slots=True)
class Strike:
    """What an attack uses: a weapon profile, or a skill's numbers dressed as one."""

    weapon: WeaponProfile
    ranged: bool
    name: str
    parryable: bool = True


def regain(enc: SizeboundEncounter, ev: list[Event], f: Fighter) -> None:
    """R-56, R-72: a natural 1 on an attack roll regains one Exertion Die, capped (a Host
    pool: its side's, at most 3, FULL ``full_sides``)."""
    gain_die(enc, ev, f)


def flankers(enc: SizeboundEncounter, a: Fighter, t: Fighter) -> int:
    """RULING R-30: conscious, neither Paralyzed nor Petrified (Frozen is the same stone)."""
    n = sum(1 for f in enc.fighters if f.alive and f.side == a.side and f is not a
            and f.action_rung < 4 and not petrified(f) and dist(f, t) <= 1)
    n -= sum(1 for f in enc.fighters if f.alive and f.side == t.side and f is not t
             and overlaps(f, t))
    return max(0, n)


def hit_terms(enc: SizeboundEncounter, a: Fighter, t: Fighter, s: Strike
              ) -> tuple[int, int, int]:
    """spec §5.0.4 A3 and §5.0.2: (modifier without Unnerved, advantages, disadvantages)."""
    p = a.profile
    mod = p.level + p.attacks + rulings.FLANK_BONUS * flankers(enc, a, t)
    if a.aim_active:
        mod += rulings.AIM_BONUS
    if a.prone and s.ranged:
        mod += rulings.PRONE_RANGED_BONUS
    if a.tired:
        mod -= rulings.TIRED_PENALTY
    if "drunk" in a.conds:
        mod -= DRUNK_HIT  # spec §7.2 Drunk
    adv = dis = 0
    adv += has_steal_edge(a, t)  # spec §5.0.2, §5.2.15
    if not s.ranged:
        adv += t.prone
        dis += a.prone + ("blinded" in a.conds)
    elif t.prone and dist(a, t) > rulings.PRONE_RANGED_FAR:
        dis += 1
    if overlaps(a, t):
        dis += 1
    return mod, adv, dis


def can_dodge(f: Fighter) -> bool:
    """spec §6.3 R-DODGE, §6.4.1: a reaction, and neither Blinded nor falling."""
    return can_react(f) and "blinded" not in f.conds and "falling" not in f.conds


def dodge_bonus(enc: SizeboundEncounter, f: Fighter) -> int:
    """spec §2.3, R-06: ``L + 11`` unarmoured, ``L`` (+ the option) armoured."""
    p = f.profile
    return p.level + (enc.options.armoured_dodge_bonus if p.armoured else 11)


def parry_weapon(f: Fighter) -> WeaponProfile:
    """RULING R-78: main (or two-handed), off, natural weapons in order; else unarmed."""
    p = f.profile
    order = [f.wielded.get(k) for k in ("both", "main", "off")] + list(p.natural)
    for wid in order:
        if wid is not None and p.weapon(wid).melee:
            return p.weapon(wid)
    return UNARMED


def can_parry(f: Fighter) -> bool:
    return f.alive and can_react(f) and "blinded" not in f.conds


def charge_ready(enc: SizeboundEncounter, a: Fighter, t: Fighter) -> bool:
    """RULING R-31: the last >= 5 steps in one direction, each strictly closing on ``t``."""
    path = a.charge_path
    k = rulings.CHARGE_STEPS
    if a.charge_dir is None or len(path) < k + 1 or a.tired:
        return False
    from envs.core.squaregrid import distance
    ds = [distance(c, a.n, t.pos, t.n) for c in path[-(k + 1):]]
    return all(x > y for x, y in zip(ds, ds[1:], strict=False))


def attack(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], a: Fighter, t: Fighter,
           s: Strike, *, charge: bool = False, reacted: set[str] | None = None) -> None:
    """A2-A12 (A1, the cost, is paid by the caller). A Winded charger becomes Tired for 1
    round once its charging attack is made (spec §5.2.6, §7.2 Winded; RULING: after the attack,
    hit or miss, as after an Athletics contest, §5.0.3 step 4: the Tired -5 does not fall on
    the charging roll, and "Tired creatures cannot Charge" stays true of the charge made)."""
    winded = charge and a.fatigue == FatigueRung.WINDED
    _attack(enc, ctx, ev, a, t, s, charge, set() if reacted is None else reacted)
    if winded and a.alive:
        add_condition(enc, ev, a, "tired", rounds=1)


def _attack(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], a: Fighter, t: Fighter,
            s: Strike, charge: bool, reacted: set[str]) -> None:
    # ``reacted``: who has reacted to this triggering action already (spec §6.2, R-11; a
    # Dispel of the Arcane Bolt this attack is)
    w = s.weapon
    # spec §5.1 row 15: React is an Extra action on the creature's own turn (a riposte's target,
    # say), a Reaction off it; Quick Draw is always a Reaction
    own = enc.active_side == t.side

    def may_drop() -> bool:  # React payable now, and the creature can become Prone
        paid = extra_payment(t, "react") is not None if own else can_react(t)
        return paid and can_fall_prone(t, enc=enc)

    declare = declare_options(enc, t, may_drop())
    if not can_react(t):
        declare = [x for x in declare if x.kind != "quick_draw"]
    if len(declare) > 1 and t.id not in reacted:  # A2 R-DECLARE
        c = ctx.ask(t.id, "declare", declare,
                    {"attacker": a.id, "weapon": s.name, "ranged": s.ranged})
        if c.kind == "quick_draw":  # FULL, spec §6.4.5: strikes before the incoming attack
            quick_draw(enc, ctx, ev, t, a)
            if not a.alive or a.action_rung >= 4:
                return
            # "one more reaction against the same attack": R-DECLARE's React is still open
            if may_drop():
                c = ctx.ask(t.id, "declare", [Action(t.id, "drop_prone"), Action(t.id, "pass")],
                            {"attacker": a.id, "weapon": s.name, "ranged": s.ranged})
        if c.kind == "drop_prone":
            if own:
                pay_extra(t, "react")
            else:
                spend_reaction(t)
            reacted.add(t.id)
            make_prone(enc, ctx, ev, t, on_purpose=True)
    mod, adv, dis = hit_terms(enc, a, t, s)  # A3
    natural, total = roll(ctx, ev, a, "hit", mod, adv, dis)  # A4
    use_steal_edge(ev, a, t)  # spec §5.0.4 A12: a Steal advantage is spent by this roll
    terrified = "terrified" in t.conds  # attacks against it hit automatically
    if natural == 1 and not terrified:  # A5
        regain(enc, ev, a)
        ev.append(AttackResult(a.id, t.id, s.name, "fumble", total))
        return
    if natural == 1:
        regain(enc, ev, a)
    sure = bool(w.crit) and natural in w.crit or terrified  # A8: a hit whatever the total
    total = exert_d20(enc, ctx, ev, a, "hit", total, lambda x: True,  # A6
                      lambda x: not sure and x <= t.profile.defense)
    forced = None
    if not s.ranged and s.parryable:  # A7 R-PARRY
        cands = [t] + sorted((f for f in enc.fighters if f is not t and f is not a and f.alive
                              and dist(f, t) <= 1), key=lambda f: f.id)
        for p in cands:
            if p.id in reacted or not can_parry(p):
                continue
            c = ctx.ask(p.id, "parry", [Action(p.id, "parry"), Action(p.id, "pass")],
                        {"attacker": a.id, "target": t.id, "total": total})
            if c.kind != "parry":
                continue
            spend_reaction(p)
            reacted.add(p.id)
            pw = parry_weapon(p)
            pmod = p.profile.level + p.profile.attacks - (rulings.TIRED_PENALTY if p.tired else 0)
            pmod -= DRUNK_HIT if "drunk" in p.conds else 0  # spec §6.4.2
            if p.aim_active and p.side == enc.active_side:
                pmod += rulings.AIM_BONUS
            pn, ptotal = roll(ctx, ev, p, "parry", pmod, dis=int(p.prone))
            if pn == 1:  # R-12 (d)
                regain(enc, ev, p)
                break
            ptotal = exert_d20(enc, ctx, ev, p, "parry", ptotal, lambda x: x <= total)
            if ptotal > total:
                ev.append(AttackResult(a.id, t.id, s.name, "parried", total))
                if rulings.RIPOSTE_AUTOMATIC and pw.reach is not None and dist(p, a) <= pw.reach:
                    attack(enc, ctx, ev, p, a, Strike(pw, False, pw.id))
                return
            if ptotal == total:  # R-12 (b): the tie's riposte too needs A within pw's reach
                forced = (p, pw, pn in pw.crit, pw.reach is not None and dist(p, a) <= pw.reach)
            break
    crit = bool(w.crit) and natural in w.crit  # A8
    if not (forced or crit or total > t.profile.defense or terrified):
        ev.append(AttackResult(a.id, t.id, s.name, "miss", total))
        return
    maximize = crushing = False
    if charge:
        kind = w.type
        crit = crit or kind in ("Unarmed", "Crescent")
        maximize = kind in ("Sword", "Pole")
        crushing = kind in ("Axe", "Hammer") and "Crushing" not in immune_types(enc, t)
    if crit:
        crit = not _negate_crit(enc, ctx, ev, a, t, total)  # A9 E-CRIT
    if forced is None and t.id not in reacted and can_dodge(t):  # A10 R-DODGE
        c = ctx.ask(t.id, "dodge", [Action(t.id, "dodge"), Action(t.id, "pass")],
                    {"attacker": a.id, "total": total})
        if c.kind == "dodge":
            spend_reaction(t)
            reacted.add(t.id)
            _, dtot = roll(ctx, ev, t, "dodge", dodge_bonus(enc, t))
            dtot = exert_d20(enc, ctx, ev, t, "dodge", dtot, lambda x: x <= total)
            if dtot > total:
                ev.append(AttackResult(a.id, t.id, s.name, "dodged", total))
                return
    ev.append(AttackResult(a.id, t.id, s.name, "crit" if crit else "hit", total))
    dtypes = w.dtypes + (("Crushing",) if crushing else ())
    if crushing and not resist_vuln(enc, t, dtypes)[0]:  # D2: immune to all: Guard untouched
        t.guard = 0  # spec §5.2.6 Axe/Hammer: Crushing zeroes Guard before damage
    deal(enc, ctx, ev, dealer=a, target=t, dice_n=w.dice_n, dice_sides=w.dice_sides,
         flat=a.mod(w.stat), dtypes=dtypes, crit=crit, maximize=maximize, reacted=reacted)
    if forced is not None and forced[3] and forced[0].alive and a.alive:  # R-12 (c): riposte hits
        p, pw, pcrit, _ = forced
        if pcrit:  # spec §8.6, §6.5: E-CRIT against every crit, the riposte's included
            pcrit = not _negate_crit(enc, ctx, ev, p, a, total)
        ev.append(AttackResult(p.id, a.id, pw.id, "crit" if pcrit else "hit", total))
        deal(enc, ctx, ev, dealer=p, target=a, dice_n=pw.dice_n, dice_sides=pw.dice_sides,
             flat=p.mod(pw.stat), dtypes=pw.dtypes, crit=pcrit, reacted=set())
    if charge and w.type == "Shield" and t.alive and can_fall_prone(t, enc=enc):  # A12, R-33
        k = max(0, t.profile.sn - a.profile.sn)
        chance = rulings.SHIELD_CHARGE_BASE // (2 ** k)
        if chance >= 100 or percent_happens(_d100(ctx), chance):
            make_prone(enc, ctx, ev, t, on_purpose=False)


def _negate_crit(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], a: Fighter, t: Fighter,
                 total: int) -> bool:
    """A9 E-CRIT (spec §6.5, §8.6): a player-style pool's target may spend 1 die to make the
    crit a normal hit (not Unconscious, nor Petrified, which may use nothing, §4.6)."""
    if t.profile.host_pool or t.dice <= 0 or no_decisions(t) or not enc.exertion_windows:
        return False  # the Host never uses crit negation (CORE too)
    if not enc.exertion_auto:  # spec §9.2: the heuristic always spends E-CRIT
        c = ctx.ask(t.id, "crit", [Action(t.id, "negate"), Action(t.id, "pass")],
                    {"attacker": a.id, "total": total})
        if c.kind != "negate":
            return False
    spend_die(enc, t)  # the pool's die (a per-side pool is shared, full_sides)
    ev.append(CritNegated(t.id))
    return True


def _d100(ctx: Ctx) -> int:
    """spec §5.0.1: d100 as two d10s (tens, units); 00 reads 100."""
    tens, units = ctx.dice.roll(10, 2)
    v = (tens % 10) * 10 + units % 10
    return 100 if v == 0 else v


def area_attack(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], src: Fighter,
                targets: list[Fighter], doubled: set[str], dice_n: int, dice_sides: int,
                flat: int, dtypes: tuple[str, ...], faces_out: list[int] | None = None
                ) -> list[Fighter]:
    """spec §8.7: each target may Dodge first (R-DODGE); one damage roll reused for every
    target, each with its own D2-D14; Dodge reduces by half its total (R-43). Returns the
    targets that lost HP."""
    dodges: dict[str, int] = {}
    reacted: set[str] = set()  # spec §6.2, R-11: one reaction per creature per area, not per target
    for t in targets:
        if can_dodge(t):
            c = ctx.ask(t.id, "dodge", [Action(t.id, "dodge"), Action(t.id, "pass")],
                        {"attacker": src.id, "area": True})
            if c.kind == "dodge":
                spend_reaction(t)
                reacted.add(t.id)
                _, tot = roll(ctx, ev, t, "dodge", dodge_bonus(enc, t))
                # spec §6.5 E-D20: after any d20 roll, the Dodge against an area included; every
                # point counts there (it takes half the total off the damage, R-43)
                dodges[t.id] = exert_d20(enc, ctx, ev, t, "dodge", tot, lambda x: True)
    faces = list(ctx.dice.roll(dice_sides, dice_n)) \
        if dice_n and not average_roll(enc, src) else []  # R-61: an average needs no roll
    if faces_out is not None:
        faces_out.extend(faces)  # the one roll, for its caller (FULL: full_areas' fire)
    hurt = []
    for t in targets:
        if not t.alive:
            continue
        lost = deal(enc, ctx, ev, dealer=src, target=t, dice_n=dice_n, dice_sides=dice_sides,
                    flat=flat, dtypes=dtypes, area_double=t.id in doubled,
                    dodge_total=dodges.get(t.id), reacted=reacted, preset=tuple(faces))
        if lost > 0:
            hurt.append(t)
    return hurt
