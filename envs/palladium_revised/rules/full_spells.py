"""FULL spells (spec §5.9, R44): legality, declaration (Actions and E.E. paid, the Stunned
fizzle), and resolution by school: the Evocation spell strike (a ranged Strike with the Spell
Power roll: Dodge only, no P.S., no Wounds, rider effects, ranged fire into a melee with its
retarget, the Evocation table), the Affliction contest against a Save (SAVE and POST_ROLL
decisions, the Affliction and Stuns table), Restoration (d20 for the critical only, the Healing
Effects table) and Abjuration (Ward).

Dice order (spec §5.9): [caster's Internal Bleeding] -> [Stunned fizzle d100] -> [redirect d100
(+ choose)] -> Spell Power d20 -> [defender d20 or save d20] -> [ranged retarget dice] -> [crit
table d100] -> effect dice -> sub-dice; a multi-Action spell rolls the fizzle at declaration
and the rest at resolution.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from envs.core.events import Event
from envs.core.flow import Ctx

from . import content, rulings
from .combatant import Combatant
from .damage import apply_hit, crit_result, pipeline
from .events import (
    ContestRolled,
    PoolChanged,
    Retargeted,
    SpellCast,
    SpellRolled,
    StrikeResolved,
)
from .full_effects import apply_ignite, apply_numbing, apply_soaked, apply_stunned, restore
from .full_morale import post_roll_contest, post_roll_strike
from .full_tables import AFFLICTION, HEALING, affliction_result, healing_result, roll_table
from .full_taunt import distract_upkeep, redirect, save_roll, taunt_upkeep
from .profile import Arm
from .rolls import combat_roll, d

if TYPE_CHECKING:
    from .sheet import Spell
    from .state import PalladiumEncounter

__all__ = ["spell_of", "target_ok", "castable", "pay_cast", "resolve_cast", "spell_arm"]


def spell_of(sid: str) -> Spell:
    from .catalogue import catalogue
    return catalogue().spells[sid]


def spell_arm(sp: Spell) -> Arm:
    """The spell strike as the Strike's machinery sees it: a ranged ``Arm`` with no P.S.,
    no Wounds and the spell's range as one increment."""
    dmg = sp.damage
    rng = sp.range if isinstance(sp.range, int) else 0
    return Arm(sp.id, dmg.count if dmg else 0, dmg.sides if dmg else 1, 0, False, 1, "spell",
               0, sp.actions, False, max(1, rng), 1)


def target_ok(c: Combatant, sp: Spell, t: Combatant) -> bool:
    """spec §5.9: an attack spell at a living enemy within range; a touch spell on self or an
    ally within the caster's ``r_C`` (not dead)."""
    if not t.alive:
        return False
    if sp.touch:
        return t.side == c.side and c.dist(t) <= c.profile.radii[1]
    return t.side != c.side and isinstance(sp.range, int) and c.dist(t) <= sp.range


def castable(enc: PalladiumEncounter, c: Combatant, sp: Spell) -> bool:
    """spec §5.1 row 13: E.E. enough; Prone or after Stand this turn: no attack spell."""
    if c.fx.ee < sp.ee:
        return False
    return not (sp.attack and (c.fx.prone or "stand" in enc.free_used))


def pay_cast(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, sp: Spell,
             target: str) -> bool:
    """spec §5.9 step 1: E.E. at declaration, then the Stunned fizzle; False if it fizzled."""
    c.fx.ee -= sp.ee
    ev.append(PoolChanged(c.id, "ee", -sp.ee, c.fx.ee, sp.id))
    ev.append(SpellCast(c.id, sp.id, target, c.fx.ee))
    from .full_effects import fizzles
    return not fizzles(ctx, ev, c, sp.id)


def _boost(c: Combatant) -> int:
    if c.boost_pending:
        c.boost_pending = False
        return rulings.MORALE_PRE_ROLL
    return 0


def resolve_cast(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, sp: Spell,
                 t: Combatant, opportunity: bool = False) -> None:
    """spec §5.9 steps 2-7 at resolution (redirect and Distract upkeep first)."""
    if sp.attack and not opportunity:
        t = redirect(enc, ctx, ev, c, t, lambda x: target_ok(c, sp, x))
    distract_upkeep(enc, ev, c)
    if not target_ok(c, sp, t) and not opportunity:
        return
    if sp.resolve == "spell_strike":
        _spell_strike(enc, ctx, ev, c, sp, t, opportunity or not t.active or t.fx.surprised)
    elif sp.resolve == "save":
        _affliction(enc, ctx, ev, c, sp, t)
    elif sp.resolve == "crit_only":
        _restoration(enc, ctx, ev, c, sp, t)
    else:
        _abjuration(enc, ev, c, sp, t)


def _spell_strike(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
                  sp: Spell, t: Combatant, unaware: bool) -> None:
    from .strike import fall_back, strike_pct
    # spec §5.9 step 3: identical to a ranged Strike: fire into a melee, Blood Vision (R42)
    pct, _, melee = strike_pct(enc, c, spell_arm(sp), t, c.dist(t))
    r = combat_roll(ctx.dice, c, "spell_power", c.profile.spell_power, pct, _boost(c))
    ev.append(SpellRolled(c.id, sp.id, r.nat, r.total))
    hit = _land(enc, ctx, ev, c, sp, t, r.nat, r.total, unaware)
    if not hit and melee is not None and not enc.is_over():  # spec §5.2.2
        roll = d(ctx.dice, 100)
        if roll <= melee.retarget_pct:
            new = enc.by_id[melee.members[d(ctx.dice, len(melee.members)) - 1]]
            ev.append(Retargeted(c.id, t.id, new.id, roll))
            nat = d(ctx.dice, 20)
            ev.append(SpellRolled(c.id, sp.id, nat, nat))
            _land(enc, ctx, ev, c, sp, new, nat, nat, not new.active or new.fx.surprised,
                  False)  # spec §3.5.3: the ambush Second's surprised are Unaware
            fall_back(enc, ev, new, c)
    fall_back(enc, ev, t, c)


def _land(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, sp: Spell,
          t: Combatant, nat: int, s0: int, unaware: bool, morale: bool = True) -> bool:
    """spec §5.9 step 3: Dodge only (R62), armour by AR, the rider on any hit; ``morale=False``
    for a retargeted spell strike (spec §5.2.2: no Morale for the caster)."""
    from .strike import _defend
    w = spell_arm(sp)
    miss_at = rulings.RANGED_MISS
    dodge, rolled = None, False
    if not unaware and s0 > miss_at:
        stored = t.multidodge is not None
        dodge, _ = _defend(enc, ctx, ev, c, w, t, nat, s0, False)
        rolled = dodge is not None and not stored
    if s0 > miss_at:
        s0, dodge, _ = post_roll_strike(enc, ctx, ev, c, t, s0, dodge, None, miss_at, rolled,
                                        attacker=morale)
    s1 = max(0, s0 - dodge) if dodge is not None else s0
    if s1 <= miss_at:
        ev.append(StrikeResolved(c.id, t.id, s1, s1, False, False, "-", False))
        return False
    layer = "armour" if t.armor_sdc > 0 and s1 <= t.profile.ar else "body"
    crit = nat >= c.profile.crit_min
    ev.append(StrikeResolved(c.id, t.id, s1, s1, True, False, layer, crit))
    table = d(ctx.dice, 100) if crit and enc.options.critical_tables else None
    final = 0
    if sp.damage is not None:
        faces = ctx.dice.roll(sp.damage.sides, sp.damage.count)
        tm = -dict(t.profile.resist_pct).get(sp.type or "magic", 0)
        final = pipeline(sum(faces), c.profile.dmg_mod_pct, crit, c.profile.crit_bonus_pct,
                         c.profile.end_mod_pct, tm)
        apply_hit(enc, ev, t, final, layer)
    if table is not None:
        crit_result(enc, ctx, ev, t, table, final, 0)
    if enc.options.common_effects and t.alive:
        rd = sp.rider
        if rd.ignite:
            apply_ignite(enc, ev, t, c.id, final, crit)
        grow = content.crit_effect_factor(c.profile.crit_bonus_pct) if crit else 1
        apply_numbing(enc, ev, t, c.id, int(rd.numbing * grow))  # spec §8.5: x1.5, floored
        apply_soaked(enc, ev, t, c.id, int(rd.soaked * grow))
    taunt_upkeep(enc, ev, t)
    return True


def _affliction(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, sp: Spell,
                t: Combatant) -> None:
    """spec §5.9 step 4: ``SP > save`` succeeds; a critical rolls Affliction and Stuns; the
    magnitudes get Heartbeat +5%, Exposure +15%, Resistance Pierce +50%, a critical x1.5."""
    if t.fx.no_pe:  # R43: immune to Affliction
        return
    r = combat_roll(ctx.dice, c, "spell_power", c.profile.spell_power, flat=_boost(c))
    ev.append(SpellRolled(c.id, sp.id, r.nat, r.total))
    save = sp.save or "magic"
    _, st = save_roll(enc, ctx, ev, t, save, c.id, r.total)
    sp_total, st = post_roll_contest(enc, ctx, ev, c, r.total, t, st, sp.id)
    ok = sp_total > st
    ev.append(ContestRolled(sp.id, c.id, t.id, sp_total, st, ok))
    if not ok:
        return
    crit = r.nat >= c.profile.crit_min
    name = None
    if crit and enc.options.full_crit_tables:
        name = roll_table(ctx, ev, t, AFFLICTION)
    pierce = 50 if name == "resistance_pierce" else 0
    boost = 5 * (t.fx.heartbeat is not None) + 15 * (t.fx.exposure is not None) + pierce
    if sp.damage is not None:
        faces = ctx.dice.roll(sp.damage.sides, sp.damage.count)
        tm = -dict(t.profile.resist_pct).get(sp.type or "magic", 0)
        final = pipeline(sum(faces), c.profile.dmg_mod_pct + boost, crit,
                         c.profile.crit_bonus_pct, c.profile.end_mod_pct, tm)
        apply_hit(enc, ev, t, final, "body")  # armour ignored
    if sp.stunned is not None:
        grow = Fraction(c.profile.crit_bonus_pct, 200) if crit else Fraction(0)
        n = int(sp.stunned.stacks(sp_total - st) * (Fraction(100 + boost, 100) + grow))
        apply_stunned(enc, ev, t, c.id, n, int(7 * (1 + grow + Fraction(pierce, 100))))
    if name is not None:
        affliction_result(enc, ctx, ev, t, name)
    taunt_upkeep(enc, ev, t)


def _restoration(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, sp: Spell,
                 t: Combatant) -> None:
    """spec §5.9 step 5: the d20 only decides a critical (Healing Effects, Burst Heal before
    the dice); heal DM: Focused Healing +10%/stack, Vital Blow -10%/stack on the target."""
    nat = d(ctx.dice, 20)
    ev.append(SpellRolled(c.id, sp.id, nat, nat))
    crit = nat >= c.profile.crit_min
    name = roll_table(ctx, ev, t, HEALING) if crit and enc.options.full_crit_tables else None
    burst = 100 if name == "burst_heal" else 0
    fx = t.fx
    dm = 10 * (fx.focused[0] if fx.focused else 0) - 10 * len(fx.vital_blow) + burst
    heal = 0
    if sp.heal is not None:
        faces = ctx.dice.roll(sp.heal.sides, sp.heal.count)
        heal = pipeline(sum(faces), dm, crit, c.profile.crit_bonus_pct, burst)
    if not fx.no_pe:  # R43: immune to Restoration
        restore(enc, ev, t, heal, sp.id)
        if name is not None:
            healing_result(enc, ctx, ev, c, t, name, heal)


def _abjuration(enc: PalladiumEncounter, ev: list[Event], c: Combatant, sp: Spell,
                t: Combatant) -> None:
    """spec §5.9 step 6, §2.9: the Ward buff; the larger shield is kept (tie: the new)."""
    b = sp.buff
    if b is None or t.fx.no_pe:
        return
    from .events import ConditionChanged
    old = t.fx.ward
    if old is None or old[0] <= b.damage_shield:
        t.fx.ward = (b.damage_shield, enc.t_abs + b.duration_s)
        ev.append(ConditionChanged(t.id, "ward", b.damage_shield))


def spell_info(sp: Spell) -> dict[str, Any]:
    return {"spell": sp.id, "school": sp.school, "ee": sp.ee, "actions": sp.actions}
