"""The Strike (spec §5.2, §6.1, §8.1-§8.5; R9, R11, R13, R14, R26, R58, R62): the strike roll,
the DEFENSE decision and its payment, hit or miss, parry mitigation, the armour layer, the
critical table, the damage pipeline, Wounds, ranged fire into a melee with its retarget, and
the Multi-Dodge BACK move.

Dice order (spec §5.2, CORE): strike d20 -> [defender's Internal Bleeding 1D4s when its Dodge
or Multi-Dodge consumes a slot] -> [defender d20] -> [retarget d100 + choose(n) + new d20 + the
new defender's dice] -> [crit table d100] -> damage dice -> crit-table sub-dice. (The
attacker's Internal Bleeding dice for its slot come before all of these, ``economy.spend_slot``.)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .combatant import Combatant
from .damage import add_wounds, apply_hit, crit_result, pipeline
from .economy import can_pay_dodge, pay_dodge, pay_stamina, spend_morale
from .events import DefenseRolled, Retargeted, StrikeResolved, StrikeRolled
from .full_state import stamina_cost
from .movement import move_back
from .profile import Arm, band
from .rolls import arm_stacks, combat_roll, d, effective_bonus

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["strike", "defense_options", "into_melee", "Melee", "strike_pct"]


@dataclass(frozen=True, slots=True)
class Melee:
    """spec §5.2.2: the melee a ranged target stands in, as a third party sees it."""

    members: tuple[str, ...]
    band: int
    penalty_pct: int  # per member
    retarget_pct: int


def into_melee(enc: PalladiumEncounter, a: Combatant, t: Combatant) -> Melee | None:
    """spec §5.2.2, R26: ``None`` when T is engaged with nobody or A is in the melee."""
    if not enc.options.ranged_into_melee:
        return None
    engaged = [x for x in enc.combatants if x.side != t.side and x.active
               and t.dist(x) <= max(x.profile.zoc_radius, t.profile.zoc_radius)]
    if not engaged:
        return None
    members = (t.id, *(x.id for x in engaged))
    if a.id in members:
        return None
    b = min(4, min(band(t.profile.radii, t.dist(x)) for x in engaged))
    p, chance = rulings.INTO_MELEE[b]
    return Melee(members, b, p, chance)


def strike_pct(enc: PalladiumEncounter, a: Combatant, w: Arm, t: Combatant,
               dist: int) -> tuple[Fraction, int, Melee | None]:
    """The situational percent terms of a Strike: closer band (§5.2.1) and ranged fire into a
    melee (§5.2.2); returns ``(pct, k, melee)``."""
    k = 0 if w.ranged else max(0, w.reach - band(a.profile.radii, dist))
    pct = Fraction(-enc.options.closer_band_pct * k)
    melee = into_melee(enc, a, t) if w.ranged else None
    if melee is not None:
        pct -= melee.penalty_pct * len(melee.members)
    if w.ranged and a.fx.bv_ranged:  # FULL Blood Vision, R42: -5% x n_inc per stack (7 s)
        pct -= 5 * max(1, -(-dist // w.inc)) * len(a.fx.bv_ranged)
    return pct, k, melee


def defense_options(enc: PalladiumEncounter, t: Combatant, melee: bool) -> list[Action]:
    """spec §6.1 (mask): Parry only against melee Strikes (R62), Dodge and Multi-Dodge while a
    future slot or Defending pays, Stamina enough, ``+morale`` while Morale >= 1; ``pass``
    last (always legal)."""
    m = t.morale >= 1
    out: list[Action] = []

    def add(kind: str, args: tuple[str, ...] = ()) -> None:
        out.append(Action(t.id, kind, args))
        if m:
            out.append(Action(t.id, kind, args, None, ("morale",)))

    if melee and rulings.PARRY_MELEE_ONLY and t.stamina >= stamina_cost(t, rulings.PARRY_STAMINA):
        add("parry")
    if can_pay_dodge(enc, t):
        if t.stamina >= stamina_cost(t, rulings.DODGE_STAMINA):
            add("dodge")
        if t.stamina >= stamina_cost(t, rulings.MULTIDODGE_STAMINA):
            add("multidodge", ("stay",))
            add("multidodge", ("back",))
    out.append(Action(t.id, "pass"))
    return out


def _defend(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], a: Combatant, w: Arm,
            t: Combatant, nat: int, s0: int, parry_ok: bool
            ) -> tuple[int | None, int | None]:
    """spec §5.2 step 4: the DEFENSE decision and its roll; returns ``(D, P)``."""
    if t.multidodge is not None:  # R9: the stored total, no cost, no roll
        ev.append(DefenseRolled(t.id, "stored", 0, t.multidodge))
        return t.multidodge, None
    opts = defense_options(enc, t, parry_ok)
    if len(opts) == 1:  # spec §4.8: a decision with one option is auto-resolved
        return None, None
    info = {"attacker": a.id, "weapon": w.id, "s0": s0, "nat": nat, "ranged": w.ranged,
            "crit_range": nat >= a.profile.crit_min}
    c = ctx.ask(t.id, "defense", opts, info)
    if c.kind == "pass":
        return None, None
    t.resting, t.rest_seconds = False, 0
    flat = 0
    if c.boosts:
        spend_morale(ev, t, c.kind)
        flat = rulings.MORALE_PRE_ROLL
    if c.kind == "parry":
        pay_stamina(ev, t, rulings.PARRY_STAMINA, "parry")
        r = combat_roll(ctx.dice, t, "parry", t.profile.parry, flat=flat)
        ev.append(DefenseRolled(t.id, "parry", r.nat, r.total))
        return None, r.total
    multi = c.kind == "multidodge"
    pay_stamina(ev, t, rulings.MULTIDODGE_STAMINA if multi else rulings.DODGE_STAMINA, c.kind)
    pay_dodge(enc, ctx, ev, t)
    r = combat_roll(ctx.dice, t, "dodge", t.profile.dodge, flat=flat)
    ev.append(DefenseRolled(t.id, c.kind, r.nat, r.total))
    if multi:
        t.multidodge = r.total
        if c.args == ("back",):
            t.md_back = a.id
    return r.total, None


def _resolve(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], a: Combatant, w: Arm,
             t: Combatant, nat: int, s0: int, k: int, unaware: bool, parry_ok: bool,
             morale: bool = True) -> bool:
    """spec §5.2 steps 4-13 against one target; returns whether it hit. ``morale=False``: a
    retargeted shot, whose attacker buys no POST_ROLL (spec §5.2.2: "no Morale")."""
    miss_at = rulings.RANGED_MISS if w.ranged else rulings.MELEE_MISS
    dodge = parry = None
    rolled = False
    if not unaware and s0 > miss_at:  # R58: no defence decision when S0 already misses
        stored = t.multidodge is not None
        dodge, parry = _defend(enc, ctx, ev, a, w, t, nat, s0, parry_ok)
        rolled = not stored and (dodge is not None or parry is not None)
    if enc.options.post_roll and s0 > miss_at:  # FULL, spec §6.4: also right after S0 against
        from .full_morale import post_roll_strike  # an Unaware defender (who has no roll)
        s0, dodge, parry = post_roll_strike(enc, ctx, ev, a, t, s0, dodge, parry, miss_at,
                                            rolled, attacker=morale)
    s1 = max(0, s0 - dodge) if dodge is not None else s0
    if s1 <= miss_at:
        ev.append(StrikeResolved(a.id, t.id, s1, s1, False, False, "-", False))
        return False
    mitigated = parry is not None and parry > s0
    s2 = max(0, s1 - parry) if parry is not None else s1
    p = t.profile
    layer = "body"
    if t.armor_sdc > 0 and (mitigated or s2 <= p.ar):  # spec §6.5: the defender picks armour
        layer = "armour"
    crit = nat >= a.profile.crit_min
    ev.append(StrikeResolved(a.id, t.id, s1, s2, True, mitigated, layer, crit))
    table = d(ctx.dice, 100) if crit and enc.options.critical_tables else None
    faces = ctx.dice.roll(w.sides, w.dice)
    initial = sum(faces) + (effective_bonus(a, a.profile.damage) if w.ps else 0)
    arm = arm_stacks(a, w)
    pm = p.parry_mitigation_pct if mitigated else 0
    if mitigated and t.fx.prone:  # FULL Prone, R11
        from .content import prone_parry_mitigation
        pm = prone_parry_mitigation(pm)
    dm = a.profile.dmg_mod_pct - enc.options.closer_band_pct * k - 10 * arm - pm
    if enc.options.in_water:  # FULL swimming hazard (spec §8.9)
        from .full_setup import swim_terms
        dm += swim_terms(enc, w.ranged)[0]
    em = a.profile.end_mod_pct - 5 * arm
    final = pipeline(initial, dm, crit, a.profile.crit_bonus_pct, em, -p.resist_physical_pct)
    body = apply_hit(enc, ev, t, final, layer)
    if body >= 1:
        add_wounds(ev, t, w.wounds, w.id)
    if table is not None:
        crit_result(enc, ctx, ev, t, table, final, pm)
    if enc.options.taunt_distract:  # FULL, spec §5.2 step 12
        from .full_taunt import taunt_upkeep
        taunt_upkeep(enc, ev, t)
    return True


def strike(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], a: Combatant, w: Arm,
           t: Combatant, opportunity: bool = False, dist: int | None = None) -> bool:
    """spec §5.2 from step 3 (CORE has no redirect): returns whether a target was hit.
    ``opportunity``: §5.2.3, the mover is Unaware, ``dist`` its distance as it leaves."""
    if enc.options.taunt_distract:  # FULL, spec §5.2 steps 1-2
        from .full_taunt import distract_upkeep, redirect
        if not opportunity:
            from .legal import can_strike
            t = redirect(enc, ctx, ev, a, t,
                         lambda x: x.side != a.side and x.alive and can_strike(a, w, x, True))
        distract_upkeep(enc, ev, a)
    dist = a.dist(t) if dist is None else dist
    pct, k, melee = strike_pct(enc, a, w, t, dist)
    flat = 0
    if a.boost_pending:
        flat, a.boost_pending = rulings.MORALE_PRE_ROLL, False
    if enc.options.in_water:
        from .full_setup import swim_terms
        flat += swim_terms(enc, w.ranged)[1]
    r = combat_roll(ctx.dice, a, "strike", a.profile.strike, pct, flat, w)
    ev.append(StrikeRolled(a.id, t.id, w.id, r.nat, r.total, w.ranged, opportunity))
    unaware = opportunity or not t.active or t.fx.surprised  # FULL: the ambush Second
    hit = _resolve(enc, ctx, ev, a, w, t, r.nat, r.total, k, unaware, not w.ranged)
    if not hit and melee is not None and not enc.is_over():  # spec §5.2.2 retarget
        roll = d(ctx.dice, 100)
        if roll <= melee.retarget_pct:
            new = enc.by_id[melee.members[d(ctx.dice, len(melee.members)) - 1]]
            ev.append(Retargeted(a.id, t.id, new.id, roll))
            nat = d(ctx.dice, 20)  # a fresh natural d20 only (R26)
            ev.append(StrikeRolled(a.id, new.id, w.id, nat, nat, True, False, True))
            # spec §3.5.3, §5.2 step 4: Unaware if out of it or surprised in the ambush Second
            hit = _resolve(enc, ctx, ev, a, w, new, nat, nat, 0,
                           not new.active or new.fx.surprised, False, False)
            fall_back(enc, ev, new, a)  # its Multi-Dodge BACK, after that attack (spec §5.2)
    fall_back(enc, ev, t, a)
    return hit


def fall_back(enc: PalladiumEncounter, ev: list[Event], t: Combatant, a: Combatant) -> None:
    """spec §5.2 step 13: a defender who took MULTIDODGE_BACK against ``a`` moves away once the
    attack has resolved."""
    if t.md_back == a.id:
        t.md_back = None
        move_back(enc, ev, t, a)
