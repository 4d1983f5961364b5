"""Dice: the one source of randomness in a rules engine (DESIGN.md, "Dice are a parameter").

``Dice.roll(sides, count)`` is the only primitive. ``SeededDice`` wraps a numpy Generator for play
(numpy is allowed here and nowhere else in the rules layer); ``ScriptedDice`` hands out forced faces
for tests and case files and fails loudly when the script does not match what the rules ask for.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from typing import Protocol

__all__ = [
    "Dice",
    "DiceError",
    "DiceExhausted",
    "UnexpectedDie",
    "LeftoverDice",
    "SeededDice",
    "ScriptedDice",
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

        self._rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
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
                raise UnexpectedDie(f"die {self.used}: the rules asked for a d{sides}, the script holds d{size}={value}")
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
