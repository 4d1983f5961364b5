"""Combat Rolls (spec §1.4.3, R2, R3) and the percent modifiers of spec §7.6 that CORE uses.

``total = floor(max(0, nat + flat) x max(0, 100 + pct) / 100)`` with ``flat = B_eff +
situational flat`` and ``B_eff`` the bonus after Exhaustion/Fatigued (positive bonuses only).
Percent terms are exact ``Fraction``s (a two-handed weapon takes half of each arm's values).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from envs.core.dice import Dice

from . import rulings
from .combatant import Combatant
from .full_state import full_pct
from .profile import Arm

__all__ = ["Roll", "d", "effective_bonus", "roll_pct", "arm_stacks", "combat_total",
           "combat_roll"]


def d(dice: Dice, sides: int) -> int:
    """spec §1.4.1 ``d(sides)``: one die."""
    return dice.roll(sides)[0]


@dataclass(frozen=True, slots=True)
class Roll:
    """One Combat Roll, explained (STYLE C5)."""

    kind: str
    nat: int
    flat: int
    pct: Fraction
    total: int

    def __str__(self) -> str:
        pct = f" x {100 + self.pct}%" if self.pct else ""
        return f"{self.kind} d20 {self.nat} {self.flat:+d}{pct} = {self.total}"


def effective_bonus(c: Combatant, b: int) -> int:
    """spec §1.4.3, R3: a positive bonus loses 25% when Exhausted, 25% more when Fatigued
    (floored); negative bonuses are untouched."""
    r = rulings.EXHAUSTION_R * (int(c.exhausted) + int(c.fatigued))
    return b * (100 - r) // 100 if b > 0 else b


def arm_stacks(c: Combatant, w: Arm) -> Fraction:
    """spec §7.5 Crippled Arm stacks that apply to a weapon (two-handed: half of each arm)."""
    hand = c.profile.hand_of(w)
    if hand == "both":
        return Fraction(c.crippled["arm_left"] + c.crippled["arm_right"], 2)
    return Fraction(c.crippled[f"arm_{hand}"])


def roll_pct(c: Combatant, kind: str, w: Arm | None = None) -> Fraction:
    """The percent bucket of ``c``'s roll of ``kind`` (strike, parry, dodge, maneuver,
    initiative) from its conditions (spec §7.6, CORE rows)."""
    pct = Fraction(-5 * (c.depression + c.concussion))  # all Combat Rolls
    if c.closing is not None:
        pct -= 100  # spec §5.5: Closing Wounds, -100% to all Combat Rolls
    if kind == "dodge":
        pct -= 20 * (c.crippled["leg_right"] + c.crippled["leg_left"])
    elif kind == "initiative":
        pct -= 15 * c.dazed
    elif kind == "strike" and w is not None:
        pct -= 15 * arm_stacks(c, w)
    elif kind == "parry":
        primary = c.profile.weapons[0]
        pct -= 15 * arm_stacks(c, primary)
    return pct + full_pct(c, kind, w)  # FULL conditions (empty under CORE)


@lru_cache(maxsize=8192)
def combat_total(nat: int, flat: int, pct: Fraction) -> int:
    """spec §1.4.3: ``floor(max(0, nat + flat) x max(0, 100 + pct) / 100)`` (Threshold Rule).
    A pure function of its numbers, remembered (previews ask it thousands of times a game)."""
    value = Fraction(max(0, nat + flat)) * max(Fraction(0), 100 + pct) / 100
    return int(value.__floor__())


def combat_roll(dice: Dice, c: Combatant, kind: str, bonus: int, extra_pct: Fraction = Fraction(0),
                flat: int = 0, w: Arm | None = None) -> Roll:
    """Roll one d20 Combat Roll of ``c`` (spec §1.4.3)."""
    nat = d(dice, 20)
    f = effective_bonus(c, bonus) + flat
    pct = roll_pct(c, kind, w) + extra_pct
    return Roll(kind, nat, f, pct, combat_total(nat, f, pct))
