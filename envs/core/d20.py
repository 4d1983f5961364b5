"""Kept-die tests with advantage and disadvantage: roll one die, or two and keep one.

Used by Sizebound (spec §5.0.1 d20 tests, §5.0.2 advantage and disadvantage, R-52, R-72) and
Metaforce (spec §2.3.1 and §2.4.3: the d12 check die and its advantage state ladder). Mano a Mano
(spec §4 success rolls) and Palladium Revised (spec §1.4.3 Combat Rolls) roll one d20 with no edge,
which is the ``Edge.NORMAL`` case. How the specs differ (options, not copies):

* die: ``sides=20`` (Sizebound, Mano a Mano, Palladium) or ``sides=12`` (Metaforce);
* how sources combine into an edge: Sizebound R-52, sources of one kind do not stack and one of
  each kind cancels (``edge_from_sources``); Metaforce §2.4.3, signed steps add up and every step
  below -1 costs -4 on the result (``edge_from_steps``, whose penalty goes into the modifier);
* success: Sizebound's attack hits when the total **exceeds** Defense and a contest needs
  ``I > D`` (ties to the defender, R-13): ``beat="over"``; Metaforce's save succeeds when the roll
  is **at least** the target number (§7.3): ``beat="at_least"``;
* natural results that decide alone: Sizebound §5.0.4 A5/A8, a natural 1 misses (``fumble=1``)
  and a natural in the weapon's crit range hits (``sure=19`` for 19-20); none in Metaforce.

Dice order: a NORMAL test draws one die; an ADVANTAGE or DISADVANTAGE test draws two dice in one
``dice.roll(sides, 2)`` call, in that order. The kept die is the **natural** result (Sizebound
§5.0.1, R-72: it alone decides natural 1s and 20s); on equal faces the first is kept. The other die
stays in the result (Metaforce §2.3.1: when the kept d12 is a 12, the other die supplies V).

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from typing import Literal

from .dice import Dice

__all__ = ["Edge", "Beat", "edge_from_sources", "edge_from_steps", "KeptDieTest", "d20_test",
           "chance"]

Beat = Literal["over", "at_least"]
"""``over``: success when ``total > target``; ``at_least``: when ``total >= target``."""


class Edge(IntEnum):
    """Whether a test rolls one die or two, and which of two it keeps."""

    DISADVANTAGE = -1
    NORMAL = 0
    ADVANTAGE = 1


def edge_from_sources(advantages: int, disadvantages: int) -> Edge:
    """Sizebound §5.0.2 / R-52: several sources of one kind count once; one of each cancels.

    >>> edge_from_sources(2, 0).name, edge_from_sources(3, 1).name, edge_from_sources(0, 1).name
    ('ADVANTAGE', 'NORMAL', 'DISADVANTAGE')
    """
    return Edge((advantages > 0) - (disadvantages > 0))


def edge_from_steps(steps: int, penalty_per_step: int = 4) -> tuple[Edge, int]:
    """Metaforce §2.4.3: the net state ``S`` -> ``(edge, modifier)``.

    ``S >= +1`` is Advantage (no more above +1), ``-1`` Disadvantage, and every step below -1 adds
    ``-penalty_per_step`` to the result.

    >>> [(e.name, m) for e, m in map(edge_from_steps, (3, 0, -1, -3))]
    [('ADVANTAGE', 0), ('NORMAL', 0), ('DISADVANTAGE', 0), ('DISADVANTAGE', -8)]
    """
    edge = Edge(max(-1, min(1, steps)))
    return edge, -penalty_per_step * max(0, -1 - steps)


@dataclass(frozen=True)
class KeptDieTest:
    """One test: the faces in draw order, which one was kept, and what it made (STYLE C5).

    Attributes:
        sides: the die (20, or 12 for Metaforce).
        edge: NORMAL (one die), ADVANTAGE (keep the higher), DISADVANTAGE (keep the lower).
        faces: every face drawn, in draw order (one, or two under an edge).
        modifier: everything added to the natural result.
        target: the number to beat, or ``None`` for a bare roll (a contest total).
        beat: ``over`` (total > target) or ``at_least`` (total >= target).
        fumble: a natural at or below this fails whatever the total (0: none).
        sure: a natural at or above this succeeds whatever the total (``None``: none).
    """

    sides: int
    edge: Edge
    faces: tuple[int, ...]
    modifier: int = 0
    target: int | None = None
    beat: Beat = "over"
    fumble: int = 0
    sure: int | None = None

    @property
    def kept_index(self) -> int:
        """Index into ``faces`` of the kept die (the first of equal faces)."""
        if len(self.faces) == 1:
            return 0
        best = max(self.faces) if self.edge is Edge.ADVANTAGE else min(self.faces)
        return self.faces.index(best)

    @property
    def natural(self) -> int:
        """The kept die: it decides natural 1s and maximums (Sizebound R-72)."""
        return self.faces[self.kept_index]

    @property
    def other(self) -> int | None:
        """The die not kept, or ``None`` for a one-die test (Metaforce §2.3.1 V)."""
        if len(self.faces) == 1:
            return None
        return self.faces[1 - self.kept_index]

    @property
    def total(self) -> int:
        """The natural result plus the modifier."""
        return self.natural + self.modifier

    @property
    def success(self) -> bool | None:
        """Against ``target`` as ``beat`` says; ``None`` without a target."""
        if self.target is None:
            return None
        if self.sure is not None and self.natural >= self.sure:
            return True
        if self.natural <= self.fumble:
            return False
        return self.total > self.target if self.beat == "over" else self.total >= self.target

    @property
    def margin(self) -> int | None:
        """``total - target`` (Sizebound "succeed by k" is ``margin >= k``), or ``None``."""
        return None if self.target is None else self.total - self.target

    @property
    def top(self) -> bool:
        """The kept die shows its highest face (a natural 20; Metaforce's exploding 12)."""
        return self.natural == self.sides

    def __str__(self) -> str:
        """``d20 with advantage (7, 14) keeps 14 +2 = 16 vs 15: success``."""
        how = {Edge.NORMAL: "", Edge.ADVANTAGE: " with advantage",
               Edge.DISADVANTAGE: " with disadvantage"}[self.edge]
        dice = f"({', '.join(map(str, self.faces))}) keeps {self.natural}" if len(self.faces) > 1 \
            else f"{self.natural}"
        mod = f" {self.modifier:+d}" if self.modifier else ""
        text = f"d{self.sides}{how} {dice}{mod} = {self.total}"
        if self.target is not None:
            sign = ">" if self.beat == "over" else ">="
            text += f" vs {sign}{self.target}: {'success' if self.success else 'failure'}"
        return text


def d20_test(dice: Dice, modifier: int = 0, edge: Edge = Edge.NORMAL, target: int | None = None,
             *, sides: int = 20, beat: Beat = "over", fumble: int = 0,
             sure: int | None = None) -> KeptDieTest:
    """Roll a kept-die test (dice order in the module docstring).

    >>> from envs.core.dice import ScriptedDice
    >>> t = d20_test(ScriptedDice([7, 14]), 2, Edge.ADVANTAGE, target=15)
    >>> t.natural, t.other, t.total, t.success, str(t)
    (14, 7, 16, True, 'd20 with advantage (7, 14) keeps 14 +2 = 16 vs >15: success')
    """
    faces = dice.roll(sides, 1 if edge is Edge.NORMAL else 2)
    return KeptDieTest(sides, Edge(edge), tuple(faces), modifier, target, beat, fumble, sure)


def chance(modifier: int, target: int, edge: Edge = Edge.NORMAL, *, sides: int = 20,
           beat: Beat = "over", fumble: int = 0, sure: int | None = None) -> Fraction:
    """Exact probability that ``d20_test`` with these arguments succeeds (for previews).

    >>> chance(0, 10), chance(0, 10, Edge.ADVANTAGE), chance(5, 10, Edge.DISADVANTAGE)
    (Fraction(1, 2), Fraction(3, 4), Fraction(9, 16))
    >>> chance(30, 10, fumble=1), chance(-30, 10, sure=20)
    (Fraction(19, 20), Fraction(1, 20))
    """
    need = target - modifier + (1 if beat == "over" else 0)  # the least natural that succeeds
    need = max(need, fumble + 1)
    if sure is not None:
        need = min(need, sure)
    p = Fraction(min(max(sides - need + 1, 0), sides), sides)  # one die
    if edge is Edge.ADVANTAGE:
        return 1 - (1 - p) ** 2
    if edge is Edge.DISADVANTAGE:
        return p * p
    return p
