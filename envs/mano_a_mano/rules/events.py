"""Mano a Mano events (spec §5.1 rolls, §8 harm, and every other change worth a line).

``apply`` returns these frozen values; their ``str`` is the text of the event log (case files and
the behaviour digest compare it). The generic events (actions taken, rounds, turns, a combatant
out of the fight, the end) are ``envs.core.events``.
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.events import Event

__all__ = ["Harmed", "Note", "Rolled"]


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A d20 success roll (spec §5.1, RULING R36): ``die + modifier > difficulty``."""

    roller: str
    purpose: str
    die: int
    modifier: int
    difficulty: int
    success: bool

    def __str__(self) -> str:
        verdict = "success" if self.success else "failure"
        return (
            f"{self.roller} rolls d20={self.die} {self.modifier:+d} vs {self.difficulty} "
            f"for {self.purpose}: {verdict}"
        )


@dataclass(frozen=True, slots=True)
class Harmed(Event):
    """Harm taken (spec §8.1, §8.2): power less absorption, split into damage and stun."""

    target: str
    power: int
    absorption: int
    damage: int
    stun: int
    health: str

    def __str__(self) -> str:
        return (
            f"{self.target} takes power {self.power} - absorption {self.absorption}: "
            f"{self.damage} damage, {self.stun} stun ({self.health})"
        )


@dataclass(frozen=True, slots=True)
class Note(Event):
    """Any other change worth a line that carries no number (falls, stances, releases...)."""

    who: str
    text: str

    def __str__(self) -> str:
        return f"{self.who} {self.text}"
