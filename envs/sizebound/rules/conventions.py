"""The seed's text conventions (its 3.1 Index, restated in spec §11.1 WE-11 to WE-35): the
words a designer's skill or stat block is written in, as plain functions of numbers.

* Die Class ladder (WE-11): ``0, 1, 1d4, ... 3d10``, stepped up or down and clamped at its ends;
  the Damage Die equivalents (``2d4`` is the class of ``1d8``, WE-12).
* "Gain" / "increase by" is addition; damage that would go below 0 is 0 (WE-13).
* "Reduce by" is subtraction, whatever the sign written (a "-4" is a typo, WE-14).
* "Increase to" / "reduce to" set a value, never past it the other way (WE-22).
* Stacking (WE-15): a bonus stacks with other bonuses but not with itself unless it says so.
* Absorption (WE-16): ``floor(amount x p / 100)`` of the damage heals instead.
* Collective Might (WE-17): Total Mights add up; Skill is never pooled; Fragile breaks at 12.
* Percent chance (WE-19): two d10s, or ``d20 x 5`` without d10s; it happens if roll <= chance.
* "Then" (WE-32): the second part needs the first done; the exact-kill amount below the PNR.
* Level-up ties (WE-35, R-64): which Totals a ``+1H/+2`` may go to.
* Movement words (WE-29 Leap from Walk, WE-34 Water damage's side effects).

The engine uses them where it has the matching spot: the damage clamp (spec §8.2 D10), the
Absorption split (D12), healing reduced to Max HP (Mend, Absorption; spec §2.3), the percent
roll of a Shield Charge (spec §5.2.6) and the level-up bonus choices (spec §2.4). Pure Python;
it imports nothing from the engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "DIE_CLASSES", "DIE_EQUIVALENTS", "die_class", "step_die_class", "die_class_dice",
    "gain", "gain_damage", "no_negative", "gain_dice", "reduce_by", "increase_to", "reduce_to",
    "ROUNDS_PER_MINUTE", "Bonus", "apply_bonus", "absorb_split", "collective", "moves",
    "FRAGILE_MIGHT", "breaks_fragile", "percent_from_d20", "percent_happens", "exact_kill",
    "then_chain", "stat_bonus_choices", "LEAP_WALK_COST", "leap_from_walk",
    "WATER_PER_FIRE", "PAGES_PER_WATER", "fires_put_out", "pages_soaked",
]

# ---------------------------------------------------------------------- Die Class (WE-11)
DIE_CLASSES = ("0", "1", "1d4", "1d6", "1d8", "1d10", "1d12", "3d6", "1d20", "3d10")
"""seed 3.1 Die Class, spec §11.1 WE-11: the ladder from lowest to highest."""
DIE_EQUIVALENTS = {"2d4": "1d8", "2d6": "1d12", "4d4": "3d6", "2d10": "1d20", "5d6": "3d10"}
"""seed 3.1 Damage Die: the equivalent dice of a class; the engine rolls the canonical one
(R-61, WE-12)."""


def die_class(die: str) -> int:
    """The rung of ``die`` (or of its equivalent dice) on the ladder; ``ValueError`` if none."""
    d = DIE_EQUIVALENTS.get(die.strip(), die.strip())
    if d not in DIE_CLASSES:
        raise ValueError(f"{die!r} is not a Die Class; the ladder: {', '.join(DIE_CLASSES)}")
    return DIE_CLASSES.index(d)


def step_die_class(die: str, steps: int) -> str:
    """WE-11: raise (``steps > 0``) or reduce (``< 0``) a Die Class, clamped to ``0`` and
    ``3d10``: 1d20 down 1 -> 3d6; 1d12 up 1 -> 3d6; 1d4 down 2 -> 0."""
    i = min(len(DIE_CLASSES) - 1, max(0, die_class(die) + steps))
    return DIE_CLASSES[i]


def die_class_dice(die: str) -> tuple[int, int, int]:
    """``(dice count, sides, flat)`` of a class: ``0`` -> (0, 0, 0), ``1`` -> (0, 0, 1),
    ``3d6`` -> (3, 6, 0)."""
    d = DIE_CLASSES[die_class(die)]
    if "d" not in d:
        return 0, 0, int(d)
    n, sides = d.split("d")
    return int(n), int(sides), 0


# ---------------------------------------------------------------------- words for numbers
def gain(value: int, bonus: int) -> int:
    """seed 3.1 Gain / Increase by / Grant: addition (a negative gain subtracts)."""
    return value + bonus


def no_negative(amount: int) -> int:
    """seed 3.1 Damage, spec §8.2 D10: damage that would go below 0 is 0."""
    return max(0, amount)


def gain_damage(amount: int, bonus: int) -> int:
    """WE-13: "Gain -3 to all damage": 7 -> 4, 2 -> -1, clamped to 0."""
    return no_negative(gain(amount, bonus))


def gain_dice(expr: str, extra: str) -> str:
    """WE-13: a gain of dice joins the expression: ``1d8 + Magic`` gains ``+2d6`` ->
    ``1d8 + Magic + 2d6`` (a ``-3`` joins as `` - 3``)."""
    term = extra.strip()
    sign = "-" if term.startswith("-") else "+"
    return f"{expr} {sign} {term.lstrip('+-').strip()}"


def reduce_by(value: int, amount: int) -> int:
    """seed 3.1 Reduce by, WE-14: subtraction; "reduce by -4" is a typo for 4 (TM 15 -> 11)."""
    return value - abs(amount)


def increase_to(value: int, to: int) -> int:
    """seed 3.1 Increase to, WE-22: a lower value becomes ``to``; a higher one stays."""
    return max(value, to)


def reduce_to(value: int, to: int) -> int:
    """seed 3.1 Reduce to, WE-22: a higher value becomes ``to``; a lower one stays."""
    return min(value, to)


# ---------------------------------------------------------------------- Stacking (WE-15)
ROUNDS_PER_MINUTE = 10  # spec §4.8, §9.4: 1 minute = 10 rounds


@dataclass(frozen=True, slots=True)
class Bonus:
    """One bonus on a creature: its value and the rounds it has left."""

    value: int
    rounds: int


def apply_bonus(current: Bonus | None, new: Bonus, stacks: bool = False) -> Bonus:
    """seed 3.1 Stacking, WE-15: a bonus that does not stack with itself keeps its value and
    takes the duration of the latest application; one that stacks adds both values and lasts
    for the durations added together (+2 for 1 minute twice: +4 for 2 minutes). Different
    bonuses stack with each other (the caller keeps one ``Bonus`` per source)."""
    if current is None:
        return new
    if not stacks:
        return Bonus(new.value, new.rounds)
    return Bonus(current.value + new.value, current.rounds + new.rounds)


# ---------------------------------------------------------------------- Absorption (WE-16)
def absorb_split(amount: int, pct: int) -> tuple[int, int]:
    """seed 3.1 Absorption, spec §8.2 D12, WE-16: ``(taken, healed)`` with ``healed =
    floor(amount x pct / 100)``: 2 at 50% -> (1, 1); 2 at 100% -> (0, 2)."""
    healed = no_negative(amount) * pct // 100
    return amount - healed, healed


# ---------------------------------------------------------------------- Collective (WE-17)
FRAGILE_MIGHT = 12  # seed 3.1 Fragile, spec §7.2: 12 Collective Might breaks a Fragile object
POOLED = ("might", "magic")


def collective(totals: Iterable[int], stat: str = "might") -> int:
    """seed 3.1 Collective Might/Magic, WE-17, R-45: the Totals of every helper add up. Skill is
    never pooled (``ValueError``)."""
    if stat not in POOLED:
        raise ValueError(f"only Might or Magic can be collective (seed 3.1), not {stat!r}")
    return sum(totals)


def moves(totals: Iterable[int], need: int, stat: str = "might") -> bool:
    """WE-17: the helpers together reach ``need`` (TM 20 + 10 moves a 30 boulder, 29 alone
    cannot)."""
    return collective(totals, stat) >= need


def breaks_fragile(totals: Iterable[int]) -> bool:
    """WE-17: a Fragile object breaks at 12 Collective Might."""
    return moves(totals, FRAGILE_MIGHT)


# ---------------------------------------------------------------------- Percent (WE-19)
def percent_from_d20(face: int) -> int:
    """seed 3.1 Percent Chance, spec §5.0.1: without d10s, ``d20 x 5`` (13 -> 65)."""
    return face * 5


def percent_happens(roll: int, chance: int) -> bool:
    """spec §5.0.1: the event happens if the roll is at most the chance (65 vs 50%: no; 50:
    yes)."""
    return roll <= chance


# ---------------------------------------------------------------------- Then (WE-32)
def exact_kill(hp: int, pnr: int) -> int:
    """WE-32, spec §8.10: the damage "exactly enough to kill instantly": HP must end below the
    PNR, ``hp - (pnr - 1)`` (48 HP, PNR -20: 69, HP -21)."""
    return hp - (pnr - 1)


def then_chain(first_done: bool, amount: int) -> int | None:
    """seed 3.1 Then, WE-32: the part after "then" happens (with ``amount``) only once the
    part before it is done; otherwise nothing (``None``)."""
    return amount if first_done else None


# ---------------------------------------------------------------------- Level-up ties (WE-35)
def stat_bonus_choices(totals: tuple[int, int, int], kind: str) -> list[tuple[int, int]]:
    """spec §2.4, R-64, WE-35: the ``(Total index, amount)`` choices of one level's stat bonus.
    ``+1H/+2``: +1 to a highest Total (ties: all of them) or +2 to any other; all three tied
    count as lowest, so any takes +2. ``+N``: +N to any one. ``+0``: none."""
    if kind == "+0":
        return []
    if kind in ("+1", "+2"):
        return [(i, int(kind[1])) for i in range(3)]
    if kind != "+1H/+2":
        raise ValueError(f"unknown stat bonus {kind!r}")
    top = max(totals)
    tied_all = len(set(totals)) == 1
    return [(i, 1 if t == top and not tied_all else 2) for i, t in enumerate(totals)]


# ---------------------------------------------------------------------- movement words
LEAP_WALK_COST = 3  # spec §5.2.18, WE-29: 3 Walk buys 1 space of Leap


def leap_from_walk(walk: int, leap: int) -> int | None:
    """WE-29: the Walk left after buying ``leap`` spaces of Leap (Walk 5, Leap 1: 2 left), or
    ``None`` when the Walk cannot pay."""
    left = walk - LEAP_WALK_COST * leap
    return left if left >= 0 else None


WATER_PER_FIRE = 10  # spec §8.3 Water, WE-34: 10 Water damage puts out 1 space of fire
PAGES_PER_WATER = 2  # spec §8.3 Water, WE-34: 1 point soaks up to 2 pages (50% each)


def fires_put_out(water: int) -> int:
    """WE-34: the spaces of fire ``water`` points of Water damage put out."""
    return water // WATER_PER_FIRE


def pages_soaked(water: int) -> int:
    """WE-34: the pages ``water`` points of Water damage soak (each unreadable at 50%)."""
    return PAGES_PER_WATER * water
