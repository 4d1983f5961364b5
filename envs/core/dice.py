"""Dice: the one source of randomness in a rules engine (DESIGN.md, "Dice are a parameter").

``Dice.roll(sides, count)`` is the only primitive. ``SeededDice`` wraps a numpy Generator for play
(numpy is allowed here and nowhere else in the rules layer); ``ScriptedDice`` hands out forced faces
for tests and case files and fails loudly when the script does not match what the rules ask for.
``roll_exploding`` rolls a die that adds another when it shows its top face (``Exploded`` keeps
every face).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "Dice",
    "DiceError",
    "DiceExhausted",
    "UnexpectedDie",
    "LeftoverDice",
    "SeededDice",
    "ScriptedDice",
    "Exploded",
    "roll_exploding",
]


class Dice(Protocol):
    """Anything that can roll dice."""

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        """Return ``count`` faces of a ``sides``-sided die, each in 1..sides."""
        ...


class DiceError(ValueError):
    """A scripted dice source did not match what the rules asked for."""


class DiceExhausted(DiceError):
    """The rules asked for more dice than the script holds."""


class UnexpectedDie(DiceError):
    """The rules asked for a die size other than the one the script names."""


class LeftoverDice(DiceError):
    """A script was not used up."""


class SeededDice:
    """Reproducible dice drawn from a numpy Generator, buffered for speed.

    Args:
        seed: an int seed, a ``numpy.random.SeedSequence`` or a ``numpy.random.Generator``.
    """

    _BATCH = 512

    def __init__(self, seed: object = None) -> None:
        import numpy as np  # the only numpy import of the rules layer

        self._rng = (seed if isinstance(seed, np.random.Generator)
                     else np.random.default_rng(seed))  # type: ignore[arg-type]
        self._buffers: dict[int, list[int]] = {}

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        buf = self._buffers.get(sides)
        if buf is None or len(buf) < count:
            fresh = self._rng.integers(1, sides + 1, size=max(self._BATCH, count)).tolist()
            buf = (buf or []) + fresh
            buf.reverse()  # pop() from the end is O(1); reverse keeps draw order
            self._buffers[sides] = buf
        return tuple(buf.pop() for _ in range(count))


_FACE = re.compile(r"^\s*(?:d(\d+)\s*=\s*)?(\d+)\s*$")


class ScriptedDice:
    """Test double: returns pre-agreed faces in order and checks each die size.

    Faces are ints, or strings ``"d6=4"`` naming the die size they must answer.

    >>> d = ScriptedDice([5, "d6=3"], sides=6)
    >>> d.roll(6, 2)
    (5, 3)
    """

    def __init__(self, faces: Iterable[int | str], sides: int | None = None) -> None:
        self._faces: deque[tuple[int | None, int]] = deque()
        for i, face in enumerate(faces):
            size, value = self._parse(face, i)
            size = size if size is not None else sides
            if size is not None and not 1 <= value <= size:
                raise DiceError(f"die {i + 1}: face {value} is not on a d{size}")
            self._faces.append((size, value))
        self.used = 0

    @staticmethod
    def _parse(face: int | str, i: int) -> tuple[int | None, int]:
        if isinstance(face, bool):
            raise DiceError(f"die {i + 1}: {face!r} is not a die face")
        if isinstance(face, int):
            return None, face
        m = _FACE.match(str(face))
        if not m:
            raise DiceError(f"die {i + 1}: {face!r} is not a die face (write 4 or 'd6=4')")
        return (int(m.group(1)) if m.group(1) else None), int(m.group(2))

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        if len(self._faces) < count:
            raise DiceExhausted(
                f"the rules asked for {count} more d{sides} after {self.used} dice, "
                f"but the script has {len(self._faces)} left"
            )
        out = []
        for _ in range(count):
            size, value = self._faces.popleft()
            self.used += 1
            if size is not None and size != sides:
                raise UnexpectedDie(
                    f"die {self.used}: the rules asked for a d{sides}, the script holds "
                    f"d{size}={value}"
                )
            if not 1 <= value <= sides:
                raise UnexpectedDie(f"die {self.used}: face {value} is not on a d{sides}")
            out.append(value)
        return tuple(out)

    @property
    def remaining(self) -> int:
        return len(self._faces)

    def check_exhausted(self) -> None:
        """Raise ``LeftoverDice`` if faces are left over."""
        if self._faces:
            left = [v for _, v in self._faces]
            raise LeftoverDice(f"{len(left)} scripted dice were not used: {left}")


@dataclass(frozen=True)
class Exploded:
    """An exploding roll with every face, in draw order (STYLE C5).

    Attributes:
        sides: the first die.
        faces: the raw faces: the first die, then each extra die in the order drawn.
        extra_sides: the size of every extra die.
        extra_minimum: extra faces below this count as this (a Metaforce Meta die, spec §2.3.2).
    """

    sides: int
    faces: tuple[int, ...]
    extra_sides: int
    extra_minimum: int = 1

    @property
    def first(self) -> int:
        """The face of the first die."""
        return self.faces[0]

    @property
    def extras(self) -> tuple[int, ...]:
        """What each extra die counts for (raised to ``extra_minimum``)."""
        return tuple(max(f, self.extra_minimum) for f in self.faces[1:])

    @property
    def explosions(self) -> int:
        """How many extra dice were rolled."""
        return len(self.faces) - 1

    @property
    def total(self) -> int:
        """The first face plus every extra die."""
        return self.first + sum(self.extras)

    def __str__(self) -> str:
        """``d12 12 explodes: md12 7 = 19``."""
        if not self.explosions:
            return f"d{self.sides} {self.first}"
        die = f"md{self.extra_sides}" if self.extra_minimum > 1 else f"d{self.extra_sides}"
        pairs = zip(self.faces[1:], self.extras, strict=True)
        shown = ", ".join(str(v) if v == f else f"{f}->{v}" for f, v in pairs)
        return f"d{self.sides} {self.first} explodes: {die} {shown} = {self.total}"


def roll_exploding(dice: Dice, sides: int, *, max_explosions: int | None,
                   extra_sides: int | None = None, extra_minimum: int = 1) -> Exploded:
    """Roll a die that adds an extra die whenever a die shows its top face.

    Used by Metaforce only: the d12 of a skill check, ToHit check or Saving Throw adds one md12
    (a d12 counted as at least 5) on a natural 12, and that die never explodes again
    (spec §2.3.1, WE-03: ``max_explosions=1, extra_minimum=5``); Hype Effect (§6.4) gives a die at
    its maximum one copy of itself that does not explode (``max_explosions=1``). Under advantage
    Metaforce draws no new die (the other die of the pair is V, see ``envs.core.d20``).
    Sizebound, Palladium Revised, Mano a Mano and Metanoia have no exploding dice.

    Dice order: the first die, then each extra die right after the die that exploded.

    Args:
        dice: the source of faces.
        sides: the first die.
        max_explosions: the most extra dice (``None``: open-ended, every top face explodes).
        extra_sides: size of the extra dice (default: ``sides``); an extra die explodes on its own
            top face while ``max_explosions`` allows.
        extra_minimum: extra faces below it count as it.

    >>> str(roll_exploding(ScriptedDice([12, 12]), 12, max_explosions=1, extra_minimum=5))
    'd12 12 explodes: md12 12 = 24'
    >>> roll_exploding(ScriptedDice([6, 6, 2]), 6, max_explosions=None).faces
    (6, 6, 2)
    """
    extra = sides if extra_sides is None else extra_sides
    faces = list(dice.roll(sides))
    top = sides
    while faces[-1] == top and (max_explosions is None or len(faces) <= max_explosions):
        faces.extend(dice.roll(extra))
        top = extra
    return Exploded(sides, tuple(faces), extra, extra_minimum)
