"""Checks and dice (spec §2.3, §2.4.3, §12.1): the exploding d12 check with the Advantage
ladder, Meta dice, Attribute (rank) dice and Create-a-Meta-Die's die.

DICE ORDER (spec §12.1; every procedure draws in this order so forced dice replay):

1. the attack d12 (both dice of an Advantage/Disadvantage roll, in the order rolled);
2. the explosion md12, if the single kept d12 shows 12 (two dice: the other die is V, no roll);
3. the Create-a-Meta-Die die (``meta_die``), when the flag can improve the band (R-41);
4. the weapon's bonus die (Penetration die after it: FULL);
5. Attribute-die rolls for magnitude (a Special Attack's attack attribute);
6. Hype copies (FULL);
7. save d12(s) and their explosion;
8. the next attack.

Escape, Maintain and initiative rolls draw their own d12(s) at the point they happen; the
initiative d12 never explodes (R-7).
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.d20 import Edge, edge_from_steps
from envs.core.dice import Dice

from . import content as C
from . import rulings

__all__ = ["RaisedDice", "dice_of", "Check", "check_roll", "roll_meta", "rank_die", "roll_rank",
           "rank_average", "net_steps", "meta_die_for", "step_dist", "roll_outcomes"]


class RaisedDice:
    """Safe-6 / Assurance-8 (spec §6.4, R-44, FULL): the user's results below ``floor`` count as
    ``floor``, and a die that cannot reach it (a d4, a d6 under Assurance) counts as its
    maximum. A raised die never shows 12, so it never explodes; natural 12s still do."""

    def __init__(self, dice: Dice, floor: int) -> None:
        self.dice, self.floor = dice, floor

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        faces = self.dice.roll(sides, count)
        if sides <= self.floor:
            return tuple(sides for _ in faces)
        return tuple(max(f, self.floor) for f in faces)


def dice_of(dice: Dice, c: object) -> Dice:
    """The dice of ``c``'s own rolls: raised while its Safe-6 or Assurance-8 lasts."""
    floor = getattr(c, "safe", 0)
    return RaisedDice(dice, floor) if floor else dice


@dataclass(frozen=True, slots=True)
class Check:
    """One d12 check (spec §2.3.1, §5.3.2): the faces in draw order, the kept die ``K``, the
    other die, the ladder penalty, and the Versatile Bonus ``V`` of a natural 12 (0 otherwise)."""

    steps: int
    faces: tuple[int, ...]
    kept: int
    other: int | None
    penalty: int
    v: int

    @property
    def crit(self) -> bool:
        return self.kept == 12

    @property
    def edge(self) -> Edge:
        return edge_from_steps(self.steps, -C.LADDER_STEP_PENALTY)[0]

    def __str__(self) -> str:
        text = (f"d12 {self.faces[0]}" if len(self.faces) == 1 and not self.v
                else f"d12 ({', '.join(map(str, self.faces))}) keeps {self.kept}")
        if self.v:
            text += f", V {self.v}"
        if self.penalty:
            text += f" {self.penalty:+d}"
        return text


def check_roll(dice: Dice, steps: int, explode: bool = True) -> Check:
    """Roll a d12 check at net state ``steps`` (spec §2.4.3, R-5, R-6); dice order 1-2 above."""
    edge, penalty = edge_from_steps(steps, -C.LADDER_STEP_PENALTY)
    faces = tuple(dice.roll(12, 1 if edge is Edge.NORMAL else 2))
    if len(faces) == 1:
        kept, other = faces[0], None
    else:
        kept = max(faces) if edge is Edge.ADVANTAGE else min(faces)
        other = faces[1] if faces[0] == kept else faces[0]
    v = 0
    if explode and kept == 12:
        if other is None:  # spec §2.3.1: one md12
            extra = dice.roll(C.VERSATILE_DIE)[0]
            faces = faces + (extra,)
            v = max(extra, C.meta_minimum(C.VERSATILE_DIE))
        else:  # the other die is the md12, no new die
            v = C.two_dice_versatile(other)
    return Check(steps, faces, kept, other, penalty, v)


roll_meta = C.roll_meta  # spec §2.3.2 (content.py)
roll_rank = C.roll_rank_die  # spec §2.3.3 (content.py)


def rank_die(rank: int) -> tuple[int, int] | None:
    """spec §2.3.3 as ``(count, sides)`` (content.py's ``rank_die``), or ``None`` for rank <= 0."""
    die = C.rank_die(rank)
    return None if die is None else (die.count, die.sides)


def rank_average(rank: int) -> float:
    """Mean of ``roll_rank`` (for previews)."""
    die = rank_die(rank)
    if die is None:
        return float(rank)
    count, sides = die
    faces = C.meta_faces(sides)
    total = 0.0
    for k in range(1, sides + 1):  # P(max <= k)^count differences
        p = (sum(1 for f in faces if f <= k) / sides) ** count \
            - (sum(1 for f in faces if f <= k - 1) / sides) ** count
        total += k * p
    return total


def net_steps(base: int, proficient: bool, expert: bool, tired: bool, exhausted: bool) -> int:
    """spec §2.4.3: ``S`` from the step modifiers ``base`` (content.py's ``check_state``)."""
    return C.check_state(proficient, (base,), expert, tired, exhausted)


def meta_die_for(mp: int) -> int | None:
    """spec §6.4 Create a Meta-Die: the largest md whose size is at most ``mp`` (none below 4)."""
    for need, sides in rulings.META_DIE_FOR_MP:
        if mp >= need:
            return sides
    return None


def step_dist(steps: int) -> list[tuple[float, int, int | None]]:
    """The distribution of ``(probability, kept, other)`` of a check's dice (for previews)."""
    edge, _ = edge_from_steps(steps, -C.LADDER_STEP_PENALTY)
    if edge is Edge.NORMAL:
        return [(1 / 12, k, None) for k in range(1, 13)]
    out: list[tuple[float, int, int | None]] = []
    for a in range(1, 13):
        for b in range(1, 13):
            kept = max(a, b) if edge is Edge.ADVANTAGE else min(a, b)
            out.append((1 / 144, kept, b if a == kept else a))
    return out


def roll_outcomes(steps: int) -> list[tuple[float, int, int]]:
    """``(probability, kept, V)`` of a check's dice (for previews): ``step_dist`` with the V of
    a 12, its explosion md12 in a one-die roll, R-6's ``max(5, other)`` in a two-dice one."""
    out: list[tuple[float, int, int]] = []
    for p, kept, other in step_dist(steps):
        vs = [(1.0, 0)] if kept != 12 else (
            [(1 / 12, v) for v in C.meta_faces(C.VERSATILE_DIE)]
            if other is None else [(1.0, C.two_dice_versatile(other))])
        out += [(p * pv, kept, v) for pv, v in vs]
    return out
