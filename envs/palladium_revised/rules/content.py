"""Palladium Revised content: the tables of spec §2 as data and the formulas that derive a stat
block's numbers, so that every derived number is computed in one place (catalogue and engine
both call these functions).

* arithmetic (§1.4.2, §1.4.3, §8.2): ``threshold`` (the Threshold Rule), ``pct_factor``,
  ``effective_bonus``, ``combat_roll_total``, ``damage_final``, ``increased_cost``;
* the attribute chart (§2.3, R46): ``pp_bonus``, ``ps_damage``, ``coma_pct`` for every value
  >= 0, ``Attributes``, ``Bonuses``, ``attribute_bonuses``, ``bonuses``;
* the DEFAULT training packages (§2.3): ``PACKAGES``, ``package``;
* pools (§2.2, R46): ``hp_base``, ``stamina_max``, ``morale_max``, ``mage_ee_max``, ``derive``;
* movement (§5.3, R21): ``eff_pm``, ``full_move_ft``, ``step_budget``;
* Zones of Control (§2.5, R22): ``BANDS``, ``ZoneRadii``, ``zone_radii`` for any height > 0
  (from ``geometry.py``, with ``rnd``, ``parse_height`` and ``band_index``);
* the Melee Grid (§4.2, R19, R20): ``GRID``, ``slot_counts`` for any N >= 1;
* criticals and parries (§2.4, §8.5, R11, R14): ``crit_range``, ``is_crit``,
  ``crit_effect_factor``, ``mitigated_loss``, ``prone_parry_mitigation``;
* level scaling (§2.8): ``level_bonus``; Damage Shields (§9.4): ``WARD_SHIELD``,
  ``empowered_body_shield``;
* the DEFAULT weapons (§2.6, R45) and armour (§2.7, R12): ``DEFAULT_WEAPONS``,
  ``DEFAULT_ARMOUR``, ``UNARMED`` (the catalogue file lists the same rows), ``weapon_slots``;
* a combatant's battle-line numbers (§2.5, §5.3): ``body`` -> ``Body``.

The record types (``Attributes``, ``Bonuses``, ``ZoneRadii``, ``DiceExpr``, ``Weapon``,
``Armour``) live in ``sheet.py`` and are re-exported here.

Bad values raise ``ValueError`` with one clear line (the loader turns it into a ``DataError``
naming the file, the entry and the field). Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from .geometry import band_index, parse_height, rnd, zoc_band, zone_radii
from .sheet import (
    ATTRIBUTE_NAMES,
    ATTRIBUTES,
    BAND_NAMES,
    BANDS,
    BONUS_FIELDS,
    FAR,
    WEAPON_KINDS,
    Armour,
    Attributes,
    Bonuses,
    C,
    DiceExpr,
    G,
    M,
    R,
    Weapon,
    ZoneRadii,
    check_int,
)

__all__ = [
    "threshold", "pct_factor", "effective_bonus", "combat_roll_total", "damage_final",
    "increased_cost", "ATTRIBUTES", "ATTRIBUTE_NAMES", "Attributes", "pp_bonus", "ps_damage",
    "coma_pct", "BONUS_FIELDS", "Bonuses", "NO_BONUSES", "attribute_bonuses", "bonuses",
    "Package", "PACKAGES", "package", "hp_base", "stamina_max", "morale_max", "mage_ee_max",
    "Derived", "derive", "eff_pm", "full_move_ft", "step_budget", "TURN_SECONDS", "BANDS",
    "BAND_NAMES", "band_index", "parse_height", "G", "C", "M", "R", "FAR", "ZoneRadii",
    "zone_radii", "rnd", "GRID", "slot_counts", "MAX_ACTIONS", "crit_range", "is_crit",
    "crit_effect_factor",
    "mitigated_loss", "prone_parry_mitigation", "PARRY_MITIGATION_PCT", "CRIT_BONUS_PCT",
    "CRIT_MIN", "PERCEPTION_PCT", "level_bonus", "LEVEL_CAP", "WARD_SHIELD",
    "WARD_DURATION_S", "empowered_body_shield", "EMPOWERED_BODY_DURATION_S", "DiceExpr",
    "Weapon", "Armour", "WEAPON_KINDS", "DEFAULT_WEAPONS", "DEFAULT_ARMOUR", "UNARMED",
    "weapon_slots", "Body", "body",
]

Number = int | Fraction


_int = check_int


# --- arithmetic (spec §1.4.2, §1.4.3, §8.2, R2, R3, R37, R51) -------------------------------


def threshold(value: Number, ignores_threshold: bool = False) -> Number:
    """The Threshold Rule (spec §1.4.2, seed rule): no roll total, damage amount, loss or gain
    crosses 0 because of modifiers (``3D6 - 10`` rolling 7 deals 0); an ability that *Ignores
    Threshold* keeps the signed value. H.P. and Morale pools may still go below 0 (that is the
    pool, not the amount)."""
    return value if ignores_threshold else max(0, value)


def pct_factor(pct_sum: Number) -> Fraction:
    """One percent bucket as an exact multiplier, ``max(0, 100 + sum) / 100`` (spec §1.4.2)."""
    return Fraction(max(0, 100 + pct_sum), 100)


def effective_bonus(bonus: int, reduction_pct: int = 0) -> int:
    """A positive Combat Bonus scaled down by Exhaustion/Fatigued (R 0, 25 or 50), floored;
    negative bonuses are untouched (spec §1.4.3, R3)."""
    if reduction_pct not in (0, 25, 50):
        raise ValueError(f"bonus reduction: expected 0, 25 or 50 percent, got {reduction_pct!r}")
    return bonus * (100 - reduction_pct) // 100 if bonus > 0 else bonus


def combat_roll_total(nat: int, bonus: int, flat: int = 0, pct: Number = 0,
                      reduction_pct: int = 0, post: int = 0) -> int:
    """A Combat Roll or Save total (spec §1.4.3, R2): ``floor(max(0, nat + B_eff + flat) *
    max(0, 100 + pct) / 100) + post``. ``reduction_pct`` applies to Combat Rolls only (pass 0
    for a Save); ``post`` is the after-roll Morale addition (FULL)."""
    base = threshold(nat + effective_bonus(bonus, reduction_pct) + flat)
    return math.floor(base * pct_factor(pct)) + post


def damage_final(initial: Number, dm_pct: Number = 0, crit_bonus_pct: Number | None = None,
                 em_pct: Number = 0, tm_pct: Number = 0) -> int:
    """The damage (or healing) pipeline of spec §8.2 (R16, R51): ``initial`` (dice + flat
    bonuses, Threshold Rule) x Damage Modifier x Critical Modifier (``crit_bonus_pct`` on a
    critical, ``None`` otherwise) x End modifier x Total modifier, exact, floored once."""
    total = threshold(initial) * pct_factor(dm_pct) * pct_factor(em_pct)
    if crit_bonus_pct is not None:
        total *= Fraction(100 + crit_bonus_pct, 100)
    return math.floor(total * pct_factor(tm_pct))


def increased_cost(cost: int, pct: Number) -> int:
    """A cost increased by a percentage rounds **up** (spec §1.4.2, R37: a Soaked 1-Stamina
    Parry at +50% costs 2)."""
    return math.ceil(threshold(cost) * pct_factor(pct))


# --- attributes and the DEFAULT chart (spec §2.1, §2.3, R43, R46) ---------------------------

def _chart_value(value: int | None, what: str) -> int | None:
    return None if value is None else _int(value, what, lo=0)


def pp_bonus(value: int | None) -> int:
    """The d20 bonus of an attribute: ``floor((A - 14) / 2)`` for A >= 16, else 0 (spec §2.3,
    R46); a missing attribute gives 0."""
    a = _chart_value(value, "pp_bonus")
    return (a - 14) // 2 if a is not None and a >= 16 else 0


def ps_damage(value: int | None) -> int:
    """The P.S. damage bonus: ``A - 15`` for A >= 16, else 0 (spec §2.3, R46)."""
    a = _chart_value(value, "ps_damage")
    return a - 15 if a is not None and a >= 16 else 0


def coma_pct(value: int | None) -> int:
    """The Save vs Coma/Death bonus in percent: ``4 + 2 (A - 16)`` for A >= 16, else 0
    (spec §2.3, R46)."""
    a = _chart_value(value, "coma_pct")
    return 4 + 2 * (a - 16) if a is not None and a >= 16 else 0


NO_BONUSES = Bonuses()


def attribute_bonuses(attrs: Attributes) -> Bonuses:
    """The part of every bonus that comes from the attribute chart (spec §2.3, R46): P.P. for
    strike/parry/dodge/maneuver, P.S. for damage, M.E. for spell power and Save vs Insanity,
    M.A. for taunt, P.E. for Save vs Magic and the coma percentage; init has none."""
    pp = pp_bonus(attrs.pp)
    return Bonuses(0, pp, pp, pp, pp, ps_damage(attrs.ps), pp_bonus(attrs.me),
                   pp_bonus(attrs.ma), pp_bonus(attrs.pe), pp_bonus(attrs.me),
                   coma_pct(attrs.pe))


def bonuses(attrs: Attributes, training: Bonuses = NO_BONUSES) -> Bonuses:
    """Final bonuses = chart part + training (spec §2.3). Recompute it whenever an attribute
    changes mid-fight (spec §2.1, seed rule)."""
    return attribute_bonuses(attrs) + training


@dataclass(frozen=True, slots=True)
class Package:
    """A DEFAULT training package (spec §2.3, R46, R14 for the Rogue's 19-20)."""

    name: str
    actions: int
    training: Bonuses
    sdc: int
    crit_min: int


def _pkg(name: str, n: int, init: int, strike: int, parry: int, dodge: int, maneuver: int,
         sp: int, sdc: int, crit_min: int) -> Package:
    return Package(name, n, Bonuses(init, strike, parry, dodge, maneuver, spell_power=sp), sdc,
                   crit_min)


# spec §2.3 DEFAULT training packages
PACKAGES: dict[str, Package] = {p.name: p for p in (
    _pkg("fighter", 4, 2, 2, 2, 1, 1, 0, 50, 20),
    _pkg("rogue", 5, 3, 1, 2, 3, 2, 0, 35, 19),
    _pkg("ranger", 4, 2, 2, 1, 2, 1, 0, 40, 20),
    _pkg("mage", 3, 1, 0, 1, 1, 0, 2, 25, 20),
)}


def package(name: str) -> Package:
    """A DEFAULT training package by name (``fighter``, ``rogue``, ``ranger``, ``mage``)."""
    if name not in PACKAGES:
        raise ValueError(f"unknown package {name!r}; expected one of {', '.join(PACKAGES)}")
    return PACKAGES[name]


# --- pools (spec §2.2, R43, R46) ------------------------------------------------------------


def hp_base(pe: int | None, level: int) -> int:
    """DEFAULT base H.P. = P.E. + 4 x level (R46); 0 for a being without P.E. (R43)."""
    _int(level, "level", lo=1)
    return 0 if pe is None else _int(pe, "P.E.", lo=0) + 4 * level


def stamina_max(pe: int | None) -> int:
    """Stamina = P.E. x 2 (spec §2.2, seed); 0 without P.E. (R43)."""
    return 0 if pe is None else 2 * _int(pe, "P.E.", lo=0)


def morale_max(me: int | None) -> int:
    """Morale = M.E. x 2 (spec §2.2, seed); 0 without M.E. (spec §2.1)."""
    return 0 if me is None else 2 * _int(me, "M.E.", lo=0)


def mage_ee_max(level: int) -> int:
    """DEFAULT Mage E.E. = 20 + 10 x level (spec §13, R46)."""
    return 20 + 10 * _int(level, "level", lo=1)


@dataclass(frozen=True, slots=True)
class Derived:
    """What the DEFAULT derivation gives a stat block (spec §2.2, §2.3, §13)."""

    hp_base: int
    stamina_max: int
    morale_max: int
    ee_max: int
    bonuses: Bonuses


def derive(attrs: Attributes, level: int, training: Bonuses = NO_BONUSES,
           package_name: str | None = None) -> Derived:
    """The DEFAULT pools and bonuses of a combatant (spec §2.2, §2.3, §13, R46). A Mage package
    gets ``mage_ee_max(level)`` E.E., every other combatant 0."""
    if package_name is not None:
        package(package_name)
    ee = mage_ee_max(level) if package_name == "mage" else 0
    return Derived(hp_base(attrs.pe, level), stamina_max(attrs.pe), morale_max(attrs.me), ee,
                   bonuses(attrs, training))


# --- movement (spec §5.3, §9.4, R21) ---------------------------------------------------------

TURN_SECONDS = 15  # spec §4.1: a Melee Round has 15 Seconds


def eff_pm(pm: int | None, movement_pct: Number = 0) -> int:
    """Effective P.M. = ``floor(P.M. x max(0, 100 + movement_pct) / 100)`` (spec §5.3)."""
    if pm is None:
        return 0
    return math.floor(_int(pm, "P.M.", lo=0) * pct_factor(movement_pct))


def full_move_ft(effective_pm: int, actions: int) -> int:
    """Feet of one Full Move: ``floor(eff_PM x 15 / N)`` (spec §5.3, R21)."""
    _int(effective_pm, "eff_PM", lo=0)
    return effective_pm * TURN_SECONDS // _int(actions, "actions N", lo=1)


def step_budget(effective_pm: int) -> int:
    """The free Step budget per round = ``eff_PM`` at round start (spec §5.3, §9.4, R21)."""
    return _int(effective_pm, "eff_PM", lo=0)


# --- the Melee Grid (spec §4.2, R19, R20) ----------------------------------------------------

GRID: dict[int, tuple[int, ...]] = {
    1: (1,), 2: (1, 15), 3: (1, 7, 15), 4: (1, 5, 10, 15), 5: (1, 4, 8, 11, 15),
    6: (1, 3, 7, 10, 13, 15), 7: (1, 3, 6, 8, 10, 13, 15), 8: (1, 3, 5, 7, 9, 11, 13, 15),
    9: (1, 3, 5, 7, 9, 11, 12, 14, 15), 10: (1, 2, 3, 5, 7, 9, 11, 12, 14, 15),
    11: (1, 2, 3, 5, 6, 7, 9, 11, 12, 14, 15), 12: (1, 2, 3, 5, 6, 7, 9, 10, 11, 12, 14, 15),
    13: (1, 2, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15),  # R20: the seed's "6, 8, 7" as a set
    14: (1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15), 15: tuple(range(1, 16)),
}
MAX_ACTIONS = 30  # spec §2.2: a stat block's N is 1..30 (slot_counts itself takes any N >= 1)


def slot_counts(actions: int) -> dict[int, int]:
    """``{second: slots in it}`` for N >= 1 Actions (spec §4.2, R19): N // 15 slots in every
    Second plus the Grid row of the remainder; seconds without a slot are left out."""
    q, r = divmod(_int(actions, "actions N", lo=1), TURN_SECONDS)
    counts = {s: q for s in range(1, TURN_SECONDS + 1)}
    for s in GRID.get(r, ()):
        counts[s] += 1
    return {s: c for s, c in counts.items() if c > 0}


# --- criticals, parry mitigation, shields (spec §2.4, §8.5, §9.4, R11, R14, R63) -------------

PARRY_MITIGATION_PCT = 75  # R11
CRIT_BONUS_PCT = 100  # R14
CRIT_MIN = 20  # R14
PERCEPTION_PCT = 30  # spec §2.2


def crit_range(crit_min: int) -> range:
    """The natural d20 faces that are criticals (spec §2.4): ``crit_min..20``."""
    return range(_int(crit_min, "crit_min", lo=1), 21)


def is_crit(nat: int, crit_min: int) -> bool:
    """A natural d20 in the crit range (the contest must also succeed, spec §8.5, R13)."""
    return nat in crit_range(crit_min)


def crit_effect_factor(crit_bonus_pct: int = CRIT_BONUS_PCT) -> Fraction:
    """Effects and durations on a critical grow by half the Critical Bonus (spec §2.4): x1.5."""
    return 1 + Fraction(crit_bonus_pct, 200)


def mitigated_loss(amount: int, parry_mitigation_pct: int = PARRY_MITIGATION_PCT) -> int:
    """A parried critical's table loss scaled by ``(100 - PM) / 100``, floored (spec §8.5,
    R14)."""
    return math.floor(threshold(amount) * Fraction(100 - parry_mitigation_pct, 100))


def prone_parry_mitigation(parry_mitigation_pct: int) -> int:
    """Parry Mitigation while Prone: ``min(PM, max(50, PM - 300))`` (R11)."""
    return min(parry_mitigation_pct, max(50, parry_mitigation_pct - 300))


LEVEL_CAP = 15  # spec §2.8


def level_bonus(value: int, increase: int, every: int, level: int,
                cap: int | None = LEVEL_CAP) -> int:
    """"V (+I per k Levels)" at level L (spec §2.8): V + I x #{l in 2..L : l % k == 0}, with L
    capped at ``cap`` (15 for Level abilities, ``None`` for Rank abilities)."""
    _int(every, "levels per increase", lo=1)
    top = min(_int(level, "level", lo=1), cap) if cap is not None else level
    return value + increase * (top // every - (1 if every == 1 else 0))


WARD_SHIELD, WARD_DURATION_S = 10, 15  # spec §5.9, §9.4
EMPOWERED_BODY_DURATION_S = 10  # spec §8.5


def empowered_body_shield(sdc_max: int) -> int:
    """Empowered Body's Damage Shield: ``floor(5% x sdc_max)`` (spec §8.5, R63)."""
    return _int(sdc_max, "sdc_max", lo=0) * 5 // 100


# --- DEFAULT weapons and armour (spec §2.6, §2.7, R12, R45) ----------------------------------


def _melee(wid: str, dice: str, reach: str, short: bool, hands: int, kind: str,
           wounds: int) -> Weapon:
    return Weapon(wid, DiceExpr.parse(dice), BANDS[reach], short, hands, kind, wounds, 1, True)


def _ranged(wid: str, dice: str, inc: int, n: int, hands: int, kind: str, cost: int,
            ps: bool, ammo: int | None) -> Weapon:
    return Weapon(wid, DiceExpr.parse(dice), None, False, hands, kind, 1, cost, ps, inc, n, ammo)


# spec §2.6 DEFAULT weapon table (R45)
DEFAULT_WEAPONS: dict[str, Weapon] = {w.id: w for w in (
    _melee("unarmed", "1d4", "C", True, 1, "blunt", 0),
    _melee("dagger", "1d6", "C", True, 1, "edged", 1),
    _melee("short_sword", "1d8", "M", False, 1, "edged", 1),
    _melee("long_sword", "2d6", "M", False, 1, "edged", 1),
    _melee("mace", "2d4", "M", False, 1, "blunt", 0),
    _melee("quarterstaff", "1d6", "M", False, 2, "blunt", 0),
    _melee("battle_axe", "3d6", "M", False, 2, "edged", 1),
    _melee("great_club", "2d6", "M", False, 2, "blunt", 0),
    _melee("spear", "1d8", "R", False, 2, "piercing", 1),
    _ranged("throwing_knife", "1d4", 20, 3, 1, "edged", 1, True, 3),
    _ranged("short_bow", "1d6", 60, 5, 2, "piercing", 1, False, None),
    _ranged("long_bow", "2d6", 80, 6, 2, "piercing", 1, False, None),
    _ranged("heavy_crossbow", "2d8", 80, 6, 2, "piercing", 2, False, None),
)}
UNARMED = DEFAULT_WEAPONS["unarmed"]  # every combatant can always use it (R45)

# spec §2.7 DEFAULT armour table (R12)
DEFAULT_ARMOUR: dict[str, Armour] = {a.id: a for a in (
    Armour("none", 0, 0), Armour("leather", 10, 20), Armour("chain_shirt", 12, 40),
    Armour("chain_mail", 13, 44), Armour("plate", 16, 100), Armour("ogre_hide_vest", 8, 30),
)}


def weapon_slots(weapons: Iterable[Weapon]) -> tuple[Weapon, ...]:
    """The listed weapons, then ``unarmed`` unless listed (spec §12.4 weapon slots, R45)."""
    listed = tuple(weapons)
    return listed + (() if UNARMED in listed else (UNARMED,))


@dataclass(frozen=True, slots=True)
class Body:
    """The battle-line numbers of a combatant with no modifiers (spec §2.5, §5.3)."""

    radii: ZoneRadii
    weapon_slots: tuple[Weapon, ...]
    zoc_band: int
    zoc_radius: int
    full_move_ft: int
    step_budget: int


def body(height: int | Fraction | float | str, weapons: Iterable[Weapon], pm: int | None,
         actions: int) -> Body:
    """Zone radii from the height, the weapon slots, the Zone of Control (the longest melee
    reach, at least Close), the Full Move and the Step budget (spec §2.5, §5.3, R21, R22)."""
    radii, slots = zone_radii(height), weapon_slots(weapons)
    zb = zoc_band(w for w in slots if not w.ranged)
    pm_eff = eff_pm(pm)
    return Body(radii, slots, zb, radii.radius(zb), full_move_ft(pm_eff, actions),
                step_budget(pm_eff))
