"""FULL spell previews (DESIGN.md: agents never re-derive odds): a spell's chance to land and
its expected effect, exact over the d20s and the effect dice (spec §5.9; the crit tables and the
SAVE/POST_ROLL Morale are left out; a pending Morale boost counts).

* spell strike (Evocation): ``hit`` = the Spell Power total beats 4 (before any Dodge);
  ``expected_damage`` over the hit's damage dice (a critical doubles); ``effect`` names the rider;
* Affliction: ``hit`` = ``P(SP > save)``; ``expected_damage`` (Withering Curse) or
  ``expected_stacks`` (Stunning Hex: ``1 + floor(margin / 2)``) given the contest;
* Restoration: ``hit`` 1; ``expected_heal`` (a natural 20 doubles); Abjuration: ``shield``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import TYPE_CHECKING

from . import rulings
from .damage import pipeline
from .full_state import save_pct
from .rolls import combat_total, effective_bonus, roll_pct

if TYPE_CHECKING:
    from .sheet import DiceExpr
    from .state import PalladiumEncounter

__all__ = ["SpellPreview", "preview_spell"]


@dataclass(frozen=True, slots=True)
class SpellPreview:
    """One spell's odds and expected effect (see the module docstring)."""

    spell: str
    school: str
    ee: int
    castable: bool
    in_range: bool
    hit: float
    crit: float
    expected_damage: float
    expected_stacks: float
    expected_heal: float
    shield: int
    effect: str


def _mean(dice: DiceExpr, dm: int, crit: bool, cb: int, em: int, tm: int) -> Fraction:
    faces = list(product(range(1, dice.sides + 1), repeat=dice.count))
    return sum((Fraction(pipeline(sum(f), dm, crit, cb, em, tm)) for f in faces),
               Fraction(0)) / len(faces)


def preview_spell(enc: PalladiumEncounter, caster: str, spell: str,
                  target: str) -> SpellPreview:
    """The preview of ``caster`` casting ``spell`` at ``target`` from where they stand."""
    from .full_spells import castable, spell_of, target_ok
    from .strike import into_melee
    c, t = enc.by_id[caster], enc.by_id[target]
    sp = spell_of(spell)
    p20 = Fraction(1, 20)
    flat = effective_bonus(c, c.profile.spell_power) + (rulings.MORALE_PRE_ROLL
                                                        if c.boost_pending else 0)
    pct = roll_pct(c, "spell_power")
    cb, cm = c.profile.crit_bonus_pct, c.profile.crit_min
    tm = -dict(t.profile.resist_pct).get(sp.type or "magic", 0)
    hit = crit = dmg = stacks = heal = Fraction(0)
    rd = sp.rider
    effect = ("ignite" if rd.ignite else f"numbing {rd.numbing}" if rd.numbing
              else f"soaked {rd.soaked}" if rd.soaked else "stunned" if sp.stunned else
              "ward" if sp.buff else "heal" if sp.heal else "damage")
    if sp.resolve == "spell_strike":
        melee = into_melee(enc, c, t)
        if melee is not None:
            pct -= melee.penalty_pct * len(melee.members)
        for nat in range(1, 21):
            if combat_total(nat, flat, pct) <= rulings.RANGED_MISS:
                continue
            hit += p20
            crit += p20 if nat >= cm else 0
            if sp.damage is not None:
                dmg += p20 * _mean(sp.damage, c.profile.dmg_mod_pct, nat >= cm, cb,
                                   c.profile.end_mod_pct, tm)
    elif sp.resolve == "save":
        bonus = t.profile.save_magic if sp.save == "magic" else t.profile.save_insanity
        spct = save_pct(t, sp.save or "magic")
        boost = 5 * (t.fx.heartbeat is not None) + 15 * (t.fx.exposure is not None)
        for nat in range(1, 21):
            sp_total = combat_total(nat, flat, pct)
            for sn in range(1, 21):
                st = combat_total(sn, bonus, spct)
                if sp_total <= st:
                    continue
                q = p20 * p20
                hit += q
                crit += q if nat >= cm else 0
                if sp.damage is not None:
                    dmg += q * _mean(sp.damage, c.profile.dmg_mod_pct + boost, nat >= cm, cb,
                                     c.profile.end_mod_pct, tm)
                if sp.stunned is not None:
                    stacks += q * sp.stunned.stacks(sp_total - st)
    elif sp.resolve == "crit_only" and sp.heal is not None:
        fx = t.fx
        dm = 10 * (fx.focused[0] if fx.focused else 0) - 10 * len(fx.vital_blow)
        hit = Fraction(1)
        crit = Fraction(21 - cm, 20)
        heal = (1 - crit) * _mean(sp.heal, dm, False, cb, 0, 0) + crit * _mean(
            sp.heal, dm, True, cb, 0, 0)
    else:
        hit = Fraction(1)
    shield = sp.buff.damage_shield if sp.buff else 0
    return SpellPreview(sp.id, sp.school, sp.ee, castable(enc, c, sp), target_ok(c, sp, t),
                        float(hit), float(crit), float(dmg), float(stacks), float(heal), shield,
                        effect)
