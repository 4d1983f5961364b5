"""Metaforce content tables and formulas (spec §2): attributes and cores, dice, the Advantage
ladder, derived statistics, Metaphor arrays and sizes (the §2.11 building steps are in
``building.py``).

Plain data and pure functions only: the catalogue (``catalogue.py``) builds stat blocks on top of
them and the engine reads the same functions, so each derived number is computed in one place.
Every §12.1 option a formula reads is a field of ``StatParams`` (defaults as in §12.1).

Bad values raise ``ValueError`` with one clear line; the loaders turn it into a ``DataError``
naming the file, the entry and the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from math import ceil, floor
from typing import Any

from envs.core.dice import Dice

__all__ = [
    "ATTRIBUTES", "ATTRIBUTE_NAMES", "CORES", "CORE_FULL", "CORE_HALF", "CORE_PRIMARY",
    "CORE_AFFECTED", "SAVE_ATTRIBUTE", "check_attributes", "core_values",
    "CHECK_DIE", "EXPLODES_ON", "VERSATILE_DIE", "META_MINIMUM", "meta_minimum", "meta_faces",
    "meta_average", "roll_meta", "RankDie", "rank_die", "roll_rank_die", "take_average",
    "apply_take_average", "two_dice_versatile",
    "PROFICIENCY_STEP", "LADDER_STEP_PENALTY", "AdvantageRow", "ADVANTAGE_LADDER",
    "advantage_row", "check_state", "ladder_penalty",
    "StatParams", "DEFAULT_PARAMS", "max_hp", "max_mp", "evasion_deflection", "immobile_defence",
    "status_defence", "initiative_bonus", "exert_threshold", "exert_limit", "speed_ft",
    "space_squares", "reach_ft", "mpower_slots", "save_tn", "MIRACULOUS_MARGIN",
    "PRIMARY_ARRAY", "SECONDARY_ARRAYS", "check_metaphor_components",
    "SizeRow", "SMALL_SIZES", "size_row", "parse_size", "SIZE_NAMES", "check_level",
]

# spec §2.1: the six Attributes, and which cores each adds +1 / +0.5 to
ATTRIBUTES = ("str", "end", "agi", "per", "int", "cha")
ATTRIBUTE_NAMES = {"str": "Strength", "end": "Endurance", "agi": "Agility",
                   "per": "Perception", "int": "Intellect", "cha": "Charisma"}
CORES = ("body", "reflex", "mind")
CORE_FULL = {"body": ("str", "end"), "reflex": ("agi", "per"), "mind": ("int", "cha")}
CORE_HALF = {"body": ("agi", "cha"), "reflex": ("str", "int"), "mind": ("end", "per")}
# spec §2.11 step 2: primary Attributes (automatic +1 and Proficiency) and the ones that may
# take the two extra +1s
CORE_PRIMARY = CORE_FULL
CORE_AFFECTED = {"body": ("str", "end", "agi", "cha"), "reflex": ("str", "agi", "per", "int"),
                 "mind": ("end", "per", "int", "cha")}
SAVE_ATTRIBUTE = {"body": "end", "reflex": "agi", "mind": "cha"}  # spec §7.3


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what}: expected an integer, got {value!r}")
    return value


def check_attributes(attrs: Mapping[str, Any]) -> dict[str, int]:
    """All six Attributes as integers (any integer is allowed, §2.1), in ``ATTRIBUTES`` order."""
    unknown = [k for k in attrs if k not in ATTRIBUTES]
    if unknown:
        raise ValueError(f"unknown attribute {unknown[0]!r}; expected {', '.join(ATTRIBUTES)}")
    missing = [a for a in ATTRIBUTES if a not in attrs]
    if missing:
        raise ValueError(f"missing attribute {missing[0]!r} (all of {', '.join(ATTRIBUTES)})")
    return {a: _int(attrs[a], f"attribute {a!r}") for a in ATTRIBUTES}


def core_values(attrs: Mapping[str, int], base_core: int = 0) -> dict[str, int]:
    """spec §2.2, R-1: ``floor(base + full contributions + 0.5 * half contributions)``."""
    a = check_attributes(attrs)
    return {c: floor(base_core + sum(a[x] for x in CORE_FULL[c])
                     + Fraction(sum(a[x] for x in CORE_HALF[c]), 2)) for c in CORES}


# spec §2.3.1: the check die, its explosion, and the Versatile Bonus die
CHECK_DIE = 12
EXPLODES_ON = 12
VERSATILE_DIE = 12  # V is one md12 (5..12); it never explodes again
# spec §2.3.2: Meta die minimums (md20 is the unofficial one)
META_MINIMUM = {4: 1, 6: 2, 8: 3, 10: 4, 12: 5, 20: 10}


def meta_minimum(sides: int) -> int:
    if sides not in META_MINIMUM:
        raise ValueError(f"no Meta die md{sides}; expected one of "
                         f"{', '.join(f'md{s}' for s in META_MINIMUM)}")
    return META_MINIMUM[sides]


def meta_faces(sides: int) -> tuple[int, ...]:
    """The faces of an mdX as the spec's table lists them (low faces raised to the minimum)."""
    lo = meta_minimum(sides)
    return tuple(max(f, lo) for f in range(1, sides + 1))


def meta_average(sides: int) -> Fraction:
    faces = meta_faces(sides)
    return Fraction(sum(faces), len(faces))


def roll_meta(dice: Dice, sides: int) -> int:
    """spec §2.3.2: ``max(roll(dX), minimum[X])``; one die drawn."""
    lo = meta_minimum(sides)
    return max(dice.roll(sides)[0], lo)


def two_dice_versatile(other: int) -> int:
    """spec §2.3.1, R-6: with two d12 and the kept one a 12, ``V = max(5, other die)``."""
    return max(META_MINIMUM[VERSATILE_DIE], other)


@dataclass(frozen=True, slots=True)
class RankDie:
    """The die of a rank (spec §2.3.3): ``count`` Meta dice of ``sides``, keep the highest."""

    count: int
    sides: int

    @property
    def minimum(self) -> int:
        return META_MINIMUM[self.sides]

    def __str__(self) -> str:
        return f"md{self.sides}" if self.count == 1 else f"{self.count}md{self.sides}k1"


def rank_die(rank: int) -> RankDie | None:
    """spec §2.3.3: 0 or less none (use the flat value); 1..5 md4..md12; R >= 6 (R-4)md12k1."""
    rank = _int(rank, "rank")
    if rank <= 0:
        return None
    if rank <= 5:
        return RankDie(1, (4, 6, 8, 10, 12)[rank - 1])
    return RankDie(rank - 4, 12)


def roll_rank_die(dice: Dice, rank: int) -> int:
    """Roll the die of ``rank`` (keep the highest Meta die); the flat value when it has none."""
    die = rank_die(rank)
    if die is None:
        return rank
    return max(roll_meta(dice, die.sides) for _ in range(die.count))


def take_average(sides: int) -> int:
    """spec §2.3.4, R-9: the average of a die is half its sides (d12 -> 6, d8 -> 4)."""
    if _int(sides, "die sides") < 2:
        raise ValueError(f"a die has at least 2 sides, got {sides}")
    return sides // 2


def apply_take_average(face: int, sides: int) -> int:
    """A "take average" effect raises a lower result to the average (§2.3.4)."""
    return max(face, take_average(sides))


# spec §2.4.1, §2.4.3, R-5: Proficiency gives +1 step (at most +1 from all sources); each step
# below Disadvantage costs -4 on the result
PROFICIENCY_STEP = 1
LADDER_STEP_PENALTY = -4


@dataclass(frozen=True, slots=True)
class AdvantageRow:
    """One rung of the ladder (§2.4.3): ``dice`` d12 rolled, keep ``keep`` (high/low/only), and
    the penalty per step below ``-1`` (``LADDER_STEP_PENALTY``) for the lowest rung."""

    lowest: int | None  # the row covers states lowest..highest (None: unbounded)
    highest: int | None
    name: str
    dice: int
    keep: str


ADVANTAGE_LADDER = (
    AdvantageRow(1, None, "Advantage", 2, "high"),
    AdvantageRow(0, 0, "Normal", 1, "only"),
    AdvantageRow(-1, -1, "Disadvantage", 2, "low"),
    AdvantageRow(None, -2, "Disadvantage, worse", 2, "low"),
)


def advantage_row(state: int) -> AdvantageRow:
    state = _int(state, "advantage state")
    for row in ADVANTAGE_LADDER:
        if (row.lowest is None or state >= row.lowest) and (row.highest is None
                                                             or state <= row.highest):
            return row
    raise AssertionError(state)  # pragma: no cover - the rows cover every integer


def ladder_penalty(state: int) -> int:
    """``-4 * max(0, -1 - S)`` (§5.3.2)."""
    return LADDER_STEP_PENALTY * max(0, -1 - _int(state, "advantage state"))


def check_state(proficient: bool, steps: Iterable[int] = (), expert: bool = False,
                tired: bool = False, exhausted: bool = False) -> int:
    """The net state ``S`` of one roll, in the order of §2.4.3."""
    s = (PROFICIENCY_STEP if proficient else 0) + sum(steps)
    if expert and s <= -1:
        s = min(s + 1, 0)
    if tired:
        s = min(s, 0)
    if exhausted:
        s = min(s, -1)
    return s


@dataclass(frozen=True, slots=True)
class StatParams:
    """The §12.1 options the derived statistics read (R-1, §2.5, R-51)."""

    base_core: int = 0
    defense_adds_level: bool = False
    base_hp: int = 6
    hplv: int = 6
    base_mp: int = 12
    mplv: int = 3
    base_speed_ft: int = 15
    evasion_floor: int = 6

    @classmethod
    def from_options(cls, options: Any) -> StatParams:
        """The fields of this class read from any object (a RuleOptions) or mapping that has
        them; missing ones keep their defaults."""
        get = options.get if isinstance(options, Mapping) else (
            lambda k, d: getattr(options, k, d))
        return cls(**{f.name: get(f.name, f.default) for f in fields(cls)})


DEFAULT_PARAMS = StatParams()


def check_level(level: int) -> int:
    """A level is an integer >= 1 (any level works)."""
    if _int(level, "level") < 1:
        raise ValueError(f"level: expected an integer >= 1, got {level}")
    return level


def max_hp(body: int, level: int, size: Any = 1, base_hp: int = 6, hplv: int = 6) -> int:
    """spec §2.5: ``(Base_HP + HPLV * (Level + Body)) * SizeMult_HP``."""
    return (base_hp + hplv * (check_level(level) + body)) * size_row(size).hp_mult


def max_mp(level: int, metaforce_user: bool = True, base_mp: int = 12, mplv: int = 3) -> int:
    """spec §2.5: ``Base_MP + MPLV * Level``; non-Metaforce-users have 0."""
    return base_mp + mplv * check_level(level) if metaforce_user else 0


def evasion_deflection(reflex: int, body: int, bonus_e: int = 0, bonus_d: int = 0,
                       evasion_floor: int = 6, level_bonus: int = 0) -> tuple[int, int]:
    """spec §2.5 order of evaluation: E0 = max(floor, Reflex + bonus); D = max(Body + bonus, E0);
    E = D - 10 when D - E0 > 10. ``level_bonus`` is the Level under ``defense_adds_level``
    (R-1), added to both before the floors."""
    e0 = max(evasion_floor, reflex + bonus_e + level_bonus)
    d = max(body + bonus_d + level_bonus, e0)
    return (d - 10 if d - e0 > 10 else e0), d


def immobile_defence(body: int, bonus_d: int = 0, level_bonus: int = 0) -> tuple[int, int]:
    """spec §2.5 step 5: Immobilised or Incapacitated: E = 0, D = Body + bonus (no E floor)."""
    return 0, body + bonus_d + level_bonus


def status_defence(core: int, level: int, bonus: int = 0) -> int:
    """spec §2.5, §7.1, R-12: ``Core + Level + bonuses`` (Fitness/Discipline-Will/Dodge +rank)."""
    return core + check_level(level) + bonus


def initiative_bonus(reflex: int, bonus: int = 0) -> int:
    return reflex + bonus


def exert_threshold(sd_body: int, sd_mind: int) -> int:
    """R-20: ``T = min(Body SD, Mind SD)``."""
    return min(sd_body, sd_mind)


def exert_limit(threshold: int) -> int:
    """R-20: ``L = T + 10``."""
    return threshold + 10


def speed_ft(size: Any = 1, base_speed_ft: int = 15) -> int:
    """spec §2.5, §2.9, R-51: base + 5 ft per Size above 1."""
    return base_speed_ft + size_row(size).speed_bonus_ft


def space_squares(size: Any = 1) -> int:
    """spec §2.5, R-27: N x N squares for Size N >= 2, else 1."""
    r = size_row(size)
    return int(r.rating) if r.rating >= 2 else 1


def reach_ft(size: Any = 1) -> int:
    """spec §2.5, R-27: 5 ft x N for Size N >= 2, else 5 ft."""
    return 5 * space_squares(size)


def mpower_slots(level: int) -> int:
    """spec §2.5, §6.4: ``ceil(Level / 2)`` selectable M-Powers."""
    return ceil(check_level(level) / 2)


MIRACULOUS_MARGIN = 10  # spec §7.3: miraculous at TN + 10


def save_tn(attribute_flat: int) -> int:
    """spec §7.3, R-48: ``TN = max(4, 12 - attribute flat)``."""
    return max(4, 12 - _int(attribute_flat, "save attribute"))


# spec §2.6: starting Metaphor arrays
PRIMARY_ARRAY = (4, 3)
SECONDARY_ARRAYS = ((2, 2, 2, 1), (3, 2, 1), (4,))


def check_metaphor_components(rank: int, component_ranks: Iterable[int]) -> None:
    """spec §2.6: at creation a Metaphor's rank equals the sum of its component ranks (a +4 may
    be two +2 components). An empty component list means unspecified and is allowed."""
    ranks = list(component_ranks)
    if any(_int(r, "component rank") < 1 for r in ranks):
        raise ValueError(f"component ranks must be >= 1, got {ranks}")
    if ranks and sum(ranks) > rank:
        raise ValueError(f"components add up to {sum(ranks)}, more than the rank {rank} (§2.6)")


@dataclass(frozen=True, slots=True)
class SizeRow:
    """One row of the size table (spec §2.9). ``damage_mult`` is ``m_a``; ``size_damage_needed``
    is the Size Damage a small attacker needs for normal damage against Medium (None: none)."""

    name: str
    rating: Fraction
    damage_mult: Fraction
    hp_mult: int
    speed_bonus_ft: int
    size_damage_needed: int | None

    def __str__(self) -> str:
        return self.name


SMALL_SIZES = (
    SizeRow("fine", Fraction(1, 16), Fraction(1, 8), 1, 0, 8),
    SizeRow("diminutive", Fraction(1, 8), Fraction(1, 4), 1, 0, 4),
    SizeRow("tiny", Fraction(1, 4), Fraction(1, 2), 1, 0, 2),
    SizeRow("small", Fraction(1, 2), Fraction(1), 1, 0, None),
    SizeRow("medium", Fraction(1), Fraction(1), 1, 0, None),
)
SIZE_NAMES = tuple(r.name for r in SMALL_SIZES)
_BY_NAME = {r.name: r for r in SMALL_SIZES}
_BY_RATING = {r.rating: r for r in SMALL_SIZES}


def parse_size(value: Any) -> Fraction:
    """A Size Rating from an integer (1, 2, 3...), a fraction text ("1/4") or a category name
    ("tiny"); every Size N >= 2 works (§2.9)."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _BY_NAME:
            return _BY_NAME[text].rating
        try:
            rating = Fraction(text)
        except (ValueError, ZeroDivisionError):
            rating = None
    elif isinstance(value, Fraction):
        rating = value
    elif isinstance(value, int) and not isinstance(value, bool):
        rating = Fraction(value)
    else:
        rating = None
    if rating is None or not (rating in _BY_RATING or rating.denominator == 1 and rating >= 2):
        raise ValueError(f"unknown size {value!r}; expected an integer >= 1, one of "
                         f"{', '.join(SIZE_NAMES)}, or 1/16, 1/8, 1/4, 1/2")
    return rating


def size_row(size: Any) -> SizeRow:
    """The §2.9 row of a size (any form ``parse_size`` takes); Size N >= 2: x N damage and HP,
    +5 ft x (N - 1) speed."""
    rating = parse_size(size)
    if rating in _BY_RATING:
        return _BY_RATING[rating]
    n = int(rating)
    return SizeRow(f"size {n}", rating, rating, n, 5 * (n - 1), None)
