"""The damage procedure (spec §8.2, R-46): types, immunity, resistance and vulnerability, dice,
crits, the E-DMG window, area doubling and Dodge, the R-BLOCK window, Guard, HP, the HP Stun and
death (spec §8.10)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event, OutOfFight
from envs.core.flow import Ctx

from . import rulings
from .conventions import no_negative
from .economy import can_react, spend_reaction
from .events import Blocked, Boosted, Damaged, Died, GrappleChanged, ItemMoved
from .fighter import Fighter
from .full_conditions import cond_immunities, cond_resists, no_decisions, wet_hit
from .full_damage import absorb, average_of, average_roll, tag_immunities, tag_vulnerabilities
from .full_sides import one_die, spend_die
from .full_skills import record_damage
from .full_terrain import water_hit
from .space import dist

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["deal", "harm", "kill", "immune_types", "resist_vuln", "names_true", "true_damage"]


def immune_types(enc: SizeboundEncounter, t: Fighter) -> set[str]:
    p = t.profile
    out = set(p.immune)
    if "deafened" in t.conds:
        out.add("Sonic")  # spec §7.2 Deafened
    if p.totals[2] <= rulings.ARCANE_IMMUNE_TOTAL:
        out.add("Arcane")
    return out | tag_immunities(enc, t) | cond_immunities(t)  # FULL: spec §2.7, §7.2


def resist_vuln(enc: SizeboundEncounter, t: Fighter, dtypes: tuple[str, ...]
                ) -> tuple[bool, bool, bool]:
    """(immune to all, resistant, vulnerable) for a source of ``dtypes`` (spec §8.2 D1-D3). True
    damage skips D2-D3 unless the target has a feature that names True (spec §8.2 D2)."""
    if dtypes == ("True",) and not names_true(t):
        return False, False, False
    core = [d for d in dtypes if d not in rulings.TERTIARY] or list(dtypes)
    if dtypes == ("Water",):
        core = ["Bludgeoning"]  # spec §8.2 D1, §8.3: a source of Water alone is Bludgeoning
    imm = immune_types(enc, t)
    hit = [d for d in core if d not in imm]
    if not hit:
        return True, False, False
    p = t.profile
    resist = set(p.resist) | cond_resists(t)
    if p.totals[2] <= rulings.ARCANE_RESIST_TOTAL:
        resist.add("Arcane")
    res = len(hit) < len(core) or any(d in resist for d in core)
    kinds = set(dtypes) | set(core)  # Water alone is Bludgeoning for Vulnerability too
    vul = any(d in p.vulnerable for d in kinds) \
        or bool(tag_vulnerabilities(enc, t) & kinds)  # FULL, spec §2.7
    if res and vul:
        return False, False, False
    return False, res, vul


def names_true(t: Fighter) -> bool:
    """A feature of ``t`` names True damage (spec §8.2 D2, §8.3 True)."""
    p = t.profile
    return "True" in p.immune or "True" in p.resist or "True" in p.vulnerable


def true_damage(enc: SizeboundEncounter, ev: list[Event], t: Fighter, amount: int) -> int:
    """A flat amount of True damage (Mana overdraw, Cardiac Arrest): no Resistance, Immunity or
    Guard (spec §8.2), unless a feature names True: an immunity to True stops it (a flat amount
    has no dice for a Resistance or Vulnerability to change). Returns the HP lost."""
    if names_true(t) and "True" in immune_types(enc, t):
        return 0
    return harm(enc, ev, t, amount, ("True",))


def deal(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], *, dealer: Fighter | None,
         target: Fighter, dice_n: int, dice_sides: int, flat: int, dtypes: tuple[str, ...],
         crit: bool = False, maximize: bool = False, area_double: bool = False,
         dodge_total: int | None = None, reacted: set[str] | None = None,
         preset: tuple[int, ...] | None = None, minimize: bool = False) -> int:
    """One source against one target, D1-D14; returns the HP lost. ``preset``: the faces of
    an area's one damage roll (spec §8.7); ``minimize``: the source's dice are minimized (a
    Wall Cling's fall so far, R-79), which a maximize cancels as a Resistance's would (D4)."""
    immune, res, vul = resist_vuln(enc, target, dtypes)
    if immune:
        ev.append(Damaged(target.id, 0, dtypes, 0, target.hp))
        return 0
    wet_res, wet_vul = wet_hit(ev, target, dtypes)  # spec §7.2 Wet
    water_hit(enc, ev, target, dtypes)  # FULL: Water damage wets (spec §7.2, §8.3)
    res, vul = res or wet_res, vul or wet_vul
    if res and vul:
        res = vul = False
    up, down = vul or maximize, res or minimize
    if up and down:  # maximize and minimize cancel
        up = down = False
    if up:
        rolled = dice_n * dice_sides
    elif down:
        rolled = dice_n
    elif average_roll(enc, dealer):  # D4, R-61 (an area's one roll is averaged for all)
        rolled = average_of(dice_n, dice_sides)
    else:
        faces = preset if preset is not None else (
            ctx.dice.roll(dice_sides, dice_n) if dice_n else ())
        rolled = sum(faces)
    amount = rolled + flat
    if crit:
        amount *= 2  # D6
    if dealer is not None and enc.exertion_windows and not enc.exertion_auto and dealer.alive \
            and not no_decisions(dealer):  # spec §9.2: the heuristic spends no E-DMG
        while dealer.dice > 0:  # D7 E-DMG
            a = ctx.ask(dealer.id, "exert_dmg", [Action(dealer.id, "spend"),
                                                  Action(dealer.id, "pass")],
                        {"target": target.id, "amount": amount})
            if a.kind == "pass":
                break
            spend_die(enc, dealer)
            face = ctx.dice.roll(6)[0]
            amount += 2 * face
            ev.append(Boosted(dealer.id, "damage", 2 * face, amount))
            if one_die(enc, dealer):
                break  # spec §6.5: a Host-style pool, 1 die a window (FULL)
    if area_double:
        amount *= 2  # D8, R-41
    if dodge_total is not None:
        amount -= dodge_total // 2  # D9, R-43
    amount = no_negative(amount)  # D10 (seed 3.1 Damage)
    breaks = any(d in rulings.GUARD_BREAKERS for d in dtypes)
    if amount > 0 and "True" not in dtypes and not breaks:
        _block_window(enc, ctx, ev, target, amount, reacted if reacted is not None else set(),
                      dealer)
    amount = absorb(enc, ev, target, amount, dtypes)  # D12 (FULL)
    return harm(enc, ev, target, amount, dtypes)


def _block_window(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], t: Fighter, amount: int,
                  reacted: set[str], dealer: Fighter | None) -> None:
    """D11, spec §6.4.3: the target, then every creature adjacent to it in id order (not the
    dealer of damage to a foe: ``rulings.DEALER_NEVER_BLOCKS``; for its own ally, as in an
    area it cast, the choice is a real one and it is asked)."""
    cands = [t] + sorted((f for f in enc.fighters if f is not t and f.alive and dist(f, t) <= 1
                          and (f is not dealer or f.side == t.side)), key=lambda f: f.id)
    for b in cands:
        gain = b.block_guard()
        if gain <= 0 or b.id in reacted or not can_react(b):
            continue
        a = ctx.ask(b.id, "block", [Action(b.id, "block"), Action(b.id, "pass")],
                    {"target": t.id, "amount": amount, "guard": gain})
        if a.kind == "block":
            spend_reaction(b)
            reacted.add(b.id)
            t.guard += gain  # the Guard goes to the creature that would take the damage
            ev.append(Blocked(b.id, t.id, gain))


def harm(enc: SizeboundEncounter, ev: list[Event], t: Fighter, amount: int,
         dtypes: tuple[str, ...]) -> int:
    """D12-D14: Guard, then HP; the HP Stun is a state (R-17); death below PNR (spec §8.10)."""
    if not t.alive:
        return 0
    absorbed = 0
    if "True" not in dtypes:
        breakers = rulings.GUARD_BREAKERS.intersection(dtypes)
        if breakers and not breakers <= immune_types(enc, t):  # read only when one is dealt
            t.guard = 0
        absorbed = min(t.guard, amount)
        t.guard -= absorbed
        amount -= absorbed
    t.hp -= amount
    record_damage(t, amount)  # spec §8.2 D14, §9.4 (FULL)
    ev.append(Damaged(t.id, amount, dtypes, absorbed, t.hp))
    if t.hp < t.profile.pnr:
        kill(enc, ev, t)
    elif amount > 0:
        enc.check_end(ev)
    return amount


def kill(enc: SizeboundEncounter, ev: list[Event], t: Fighter) -> None:
    """spec §8.10: removed from the grid; its conditions and grapples end; held items drop."""
    t.alive = False
    ev.append(Died(t.id, t.hp))
    t.conds.clear()
    for other in enc.fighters:
        if t.id in other.grips:
            del other.grips[t.id]
            ev.append(GrappleChanged(other.id, t.id, "ended"))
        if t.id in other.grappled_by:
            other.grappled_by.remove(t.id)
            ev.append(GrappleChanged(t.id, other.id, "ended"))
    t.grips.clear()
    t.grappled_by.clear()
    for slot in list(t.wielded):
        w = t.wielded.pop(slot)
        enc.items.append([w, t.x, t.y])
        ev.append(ItemMoved(t.id, w, "dropped"))
    ev.append(OutOfFight(t.id, "dead"))
    enc.check_end(ev)
