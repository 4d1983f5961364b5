"""Sizebound content tables and formulas: sizes, modifiers, levels, derived stats (spec §2).

Everything here is plain data and pure functions; the catalogue (``catalogue.py``) builds stat
blocks on top of it, and the engine reads the same functions, so a derived number is computed in
one place only.

* ``SIZES``: the size table of §2.1, one ``SizeRow`` per size, every column as data;
  ``size(name_or_index)`` looks one up (names are case-insensitive).
* ``modifier(total)``: ``floor(total / 2) - 5`` (R-02).
* ``LEVELS``: the level table of §2.4 for levels 1..30 (R-55); ``level_row(level)``.
* the derived-stat formulas of §2.3 as functions (``max_hp``, ``pnr``, ``athletics``...).

Bad values raise ``ValueError`` with one clear line (the loaders turn it into a ``DataError``
naming the file, the entry and the field).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from .conventions import stat_bonus_choices

__all__ = [
    "SizeRow", "SIZES", "SIZE_NAMES", "size", "MIN_LEVEL", "MAX_LEVEL", "modifier",
    "STAT_BONUS_KINDS", "LevelRow", "LEVELS", "level_row", "check_level",
    "CREATION_TOTALS", "UNARMOURED_DODGE_BONUS", "ARMOURED_DODGE_BONUS", "PRONE_BURST_DICE",
    "PRONE_BURST_TYPE", "movement_resistance", "hp_scaling", "mana_scaling", "max_hp", "pnr",
    "max_mana", "athletics", "nimble", "arcana", "inventory", "base_reactions", "exertion_max",
    "skill_points", "scaling_improvements", "defense", "hit_bonus", "dodge_bonus", "block_guard",
    "total_attacks", "totals_reachable",
]


@dataclass(frozen=True, slots=True)
class SizeRow:
    """One row of the size table (spec §2.1).

    ``footprint`` is the side in spaces: below 1 a fraction of one space (several such creatures
    share a space while the sum stays <= 1, R-29), 1 or more an N x N block of whole spaces.
    ``prone_dice`` is the fall damage when knocked Prone unintentionally, ``(count, sides)``
    (``(0, 6)``: none); ``prone_burst`` the size of the self-centred Sonic AoE a Colossal or
    Megalithic creature makes when it falls (0: none; ``PRONE_BURST_DICE`` + Total Might, R-80).
    """

    name: str
    index: int  # the "Sizes" count
    sn: int  # the Size Number
    footprint: Fraction
    height: Fraction  # in spaces
    default_hp_scaling: int
    mr: int  # Movement Resistance, max(0, floor(SN/2) - 1)
    nimble_term: int  # 16 - SN
    prone_dice: tuple[int, int]
    prone_burst: int
    example: str

    @property
    def fractional(self) -> bool:
        """A fraction of one space (Miniscule to Stocky), not a block of whole spaces."""
        return self.footprint < 1

    @property
    def side(self) -> int:
        """Cells along one side of the block: N for N x N creatures, 1 for fractional ones (they
        sit inside one cell, spec §2.1)."""
        return 1 if self.fractional else int(self.footprint)

    @property
    def share(self) -> Fraction:
        """The part of a cell's capacity (1) it takes: its footprint if fractional, else the
        whole cell (it shares none of its cells, R-29)."""
        return self.footprint if self.fractional else Fraction(1)

    def __str__(self) -> str:
        return self.name


def _row(name: str, index: int, sn: int, fp: str, height: str, dice: int, burst: int,
         example: str) -> SizeRow:
    return SizeRow(name, index, sn, Fraction(fp), Fraction(height), sn,
                   max(0, sn // 2 - 1), 16 - sn, (dice, 6), burst, example)


# spec §2.1 (MR clamped at 0, R-69; prone bursts R-80)
SIZES: tuple[SizeRow, ...] = (
    _row("Miniscule", 0, 0, "0", "0", 0, 0, "ladybug"),
    _row("Tiny", 1, 4, "0.2", "0.5", 0, 0, "house cat"),
    _row("Puny", 2, 5, "0.2", "0.5", 0, 0, "labrador"),
    _row("Small", 3, 7, "0.5", "1", 0, 0, "thin or weak human"),
    _row("Medium", 4, 8, "0.5", "1", 1, 0, "average human"),
    _row("Stocky", 5, 9, "0.5", "1", 1, 0, "hearty human"),
    _row("Large", 6, 10, "1", "1.5", 2, 0, "tiger, bear"),
    _row("Huge", 7, 11, "2", "2", 3, 0, "one-storey building"),
    _row("Massive", 8, 12, "3", "3", 3, 0, "1.5-storey building"),
    _row("Colossal", 9, 13, "4", "5", 4, 1, "3-storey building"),
    _row("Megalithic", 10, 15, "6", "8", 5, 2, "kaiju"),
)
SIZE_NAMES: tuple[str, ...] = tuple(r.name for r in SIZES)
PRONE_BURST_DICE = (1, 6)  # spec §2.1: 1d6 + Total Might
PRONE_BURST_TYPE = "Sonic"
_BY_NAME = {r.name.lower(): r for r in SIZES}


def size(value: str | int | SizeRow) -> SizeRow:
    """The size row of a name (``"Huge"``, any case) or a size index (0..10)."""
    if isinstance(value, SizeRow):
        return value
    if isinstance(value, str) and value.lower() in _BY_NAME:
        return _BY_NAME[value.lower()]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(SIZES):
        return SIZES[value]
    raise ValueError(f"unknown size {value!r}; expected one of {', '.join(SIZE_NAMES)} "
                     f"(or a size index 0..{len(SIZES) - 1})")


def modifier(total: int) -> int:
    """The modifier of a Total: ``floor(total / 2) - 5`` for every integer (R-02)."""
    return total // 2 - 5


# ---------------------------------------------------------------------------------------------
# Levels (spec §2.4, R-55, R-64)

MIN_LEVEL, MAX_LEVEL = 1, 30
CREATION_TOTALS = (10, 12, 14)  # spec §2.2: assigned to Might, Skill, Magic, one each
STAT_BONUS_KINDS = ("+1H/+2", "+0", "+1", "+2")
"""``+1H/+2``: +1 to a highest Total or +2 to a non-highest one; ``+N``: +N to any one Total
(spec §2.4, R-64)."""


@dataclass(frozen=True, slots=True)
class LevelRow:
    """One row of the level table (spec §2.4); ``improvements`` counts the scaling improvements
    (each +1 HP or +1 Mana Scaling) gained up to and including this level."""

    level: int
    stat_bonus: str
    scaling_improvement: bool
    improvements: int
    base_reactions: int
    exertion_dice: int
    skill_points: int


_H2, _P0, _P1, _P2 = STAT_BONUS_KINDS
# level: (stat bonus, scaling improvement, base reactions, exertion dice, skill points); §2.4
_LEVEL_TABLE = {
    1: (_H2, False, 0, 3, 10), 2: (_P0, True, 0, 3, 14), 3: (_H2, True, 0, 3, 18),
    4: (_P2, False, 0, 3, 22), 5: (_H2, False, 1, 3, 26), 6: (_P0, False, 1, 3, 30),
    7: (_H2, False, 1, 4, 34), 8: (_P0, True, 1, 4, 38), 9: (_P1, False, 1, 4, 42),
    10: (_P1, False, 2, 4, 46), 11: (_P1, False, 2, 4, 50), 12: (_P1, False, 2, 5, 54),
    13: (_H2, True, 2, 5, 58), 14: (_P1, False, 2, 5, 62), 15: (_P1, False, 3, 5, 66),
    16: (_P1, False, 3, 5, 70), 17: (_P1, False, 3, 6, 74), 18: (_H2, True, 3, 6, 78),
    19: (_P1, False, 3, 6, 82), 20: (_P1, False, 4, 6, 86), 21: (_P1, False, 4, 6, 90),
    22: (_P1, False, 4, 7, 94), 23: (_H2, True, 4, 7, 98), 24: (_P1, False, 4, 7, 102),
    25: (_P1, False, 5, 7, 106), 26: (_P1, False, 5, 7, 110), 27: (_P1, False, 5, 8, 114),
    28: (_H2, True, 5, 8, 118), 29: (_P1, False, 5, 8, 122), 30: (_P2, False, 6, 8, 126),
}


def _levels() -> tuple[LevelRow, ...]:
    rows, gained = [], 0
    for lv in range(MIN_LEVEL, MAX_LEVEL + 1):
        bonus, improves, reactions, dice, points = _LEVEL_TABLE[lv]
        gained += improves
        rows.append(LevelRow(lv, bonus, improves, gained, reactions, dice, points))
    return tuple(rows)


LEVELS: tuple[LevelRow, ...] = _levels()


def check_level(level: object) -> int:
    """``level`` if it is an integer in 1..30 (R-55), else ``ValueError``."""
    if isinstance(level, bool) or not isinstance(level, int) \
            or not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(f"expected a level in {MIN_LEVEL}..{MAX_LEVEL} (R-55), got {level!r}")
    return level


def level_row(level: int) -> LevelRow:
    """The level table's row for ``level`` (1..30)."""
    return LEVELS[check_level(level) - 1]


Totals = tuple[int, int, int]


def _plus(totals: Totals, i: int, n: int) -> Totals:
    out = list(totals)
    out[i] += n
    return (out[0], out[1], out[2])


def _bonus_options(totals: Totals, kind: str) -> list[Totals]:
    """The Totals one level's stat bonus can lead to (spec §2.4, R-64)."""
    return [_plus(totals, i, n) for i, n in stat_bonus_choices(totals, kind)] or [totals]


@cache
def totals_reachable(totals: Totals, level: int) -> bool:
    """Whether Totals ``(might, skill, magic)`` can come from 10/12/14 assigned at creation and
    the stat bonuses of levels 1..``level`` (spec §2.2, §2.4, R-64)."""
    target = tuple(totals)
    states: set[Totals] = set()
    for a in CREATION_TOTALS:
        for b in CREATION_TOTALS:
            if b != a:
                states.add((a, b, 36 - a - b))
    for row in LEVELS[:check_level(level)]:
        states = {s for t in states for s in _bonus_options(t, row.stat_bonus)
                  if all(x <= y for x, y in zip(s, target, strict=True))}
    return target in states


# ---------------------------------------------------------------------------------------------
# Derived stats (spec §2.3); ``level`` is checked everywhere it is used

UNARMOURED_DODGE_BONUS = 11  # spec §2.3: Dodge 1d20 + L + 11 without armour
ARMOURED_DODGE_BONUS = 0  # R-06 (config armoured_dodge_bonus): 1d20 + L in armour


def movement_resistance(sn: int) -> int:
    """``max(0, floor(SN/2) - 1)`` spaces (spec §2.3, R-69)."""
    return max(0, sn // 2 - 1)


def hp_scaling(sn: int, improvements: int = 0) -> int:
    """SN + the improvements chosen for HP (spec §2.3)."""
    return sn + improvements


def mana_scaling(improvements: int = 0, base: int = 6) -> int:
    """6 + the improvements chosen for Mana (spec §2.3)."""
    return base + improvements


def max_hp(scaling: int, level: int) -> int:
    """``HP Scaling x L + 40`` (spec §2.3)."""
    return scaling * check_level(level) + 40


def pnr(level: int) -> int:
    """The Point of No Return, ``-19 - L``: death as soon as HP < PNR (spec §2.3)."""
    return -19 - check_level(level)


def max_mana(scaling: int, level: int) -> int:
    """``Mana Scaling x L + 10`` (spec §2.3)."""
    return scaling * check_level(level) + 10


def athletics(might: int, attacks: int, sn: int) -> int:
    """``Might + Attacks + SN`` (Might is the modifier; Attacks the innate stat, R-03)."""
    return might + attacks + sn


def nimble(skill: int, attacks: int, sn: int) -> int:
    """``Skill + Attacks + (16 - SN)`` (spec §2.3, R-03)."""
    return skill + attacks + 16 - sn


def arcana(magic: int, mana_scale: int) -> int:
    """``Magic + Mana Scaling`` (spec §2.3)."""
    return magic + mana_scale


def inventory(total_might: int, sn: int) -> int:
    """``10 + TM + SN`` (spec §2.3; not used in combat)."""
    return 10 + total_might + sn


def base_reactions(level: int) -> int:
    """``floor(L / 5)`` (spec §2.3, R-10)."""
    return check_level(level) // 5


def exertion_max(level: int) -> int:
    """3, +1 at L7, 12, 17, 22, 27 (spec §2.3)."""
    return level_row(level).exertion_dice


def skill_points(level: int) -> int:
    """``4 x L + 6`` (spec §2.3; not used in combat)."""
    return 4 * check_level(level) + 6


def scaling_improvements(level: int) -> int:
    """Scaling improvements gained by ``level`` (levels 2, 3, 8, 13, 18, 23, 28; spec §2.3)."""
    return level_row(level).improvements


def defense(level: int) -> int:
    """``L + 9``, static; armour does not change it (spec §2.3)."""
    return check_level(level) + 9


def hit_bonus(level: int, attacks: int = 1) -> int:
    """The Hit roll's bonus: ``1d20 + L + Attacks`` (spec §2.3, R-03)."""
    return check_level(level) + attacks


def dodge_bonus(level: int, armour_bonus: int = UNARMOURED_DODGE_BONUS) -> int:
    """The Dodge roll's bonus, ``L + 11`` without armour and ``L`` in armour (spec §2.3, R-06);
    ``armour_bonus`` is the worn armour's ``dodge_bonus``."""
    return check_level(level) + armour_bonus


def block_guard(weapon_guards: Iterable[int], armour_guard_bonus: int = 0) -> int:
    """The Guard a Block gives: the highest Guard among the wielded weapons (unarmed 0) plus the
    armour's Guard Bonus (R-09, R-05)."""
    return max(weapon_guards, default=0) + armour_guard_bonus


def total_attacks(attacks: int, weapon_attacks: Iterable[int]) -> int:
    """Attacks + the wielded weapons' Weapon Attacks: the attack pool (spec §2.3, §4.5)."""
    return attacks + sum(weapon_attacks)
