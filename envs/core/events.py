"""Frozen events: everything the rules report (DESIGN.md: ``apply`` returns events; rules never
print).

Systems add their own event classes next to these shared ones. Every event prints itself as one
line of readable text (``str(event)``); logs, replays, explanations and reports are built from them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Event", "RoundStarted", "TurnStarted", "ActionTaken", "OutOfFight", "EncounterEnded"]


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of every event."""

    def __str__(self) -> str:  # pragma: no cover - every subclass overrides
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int

    def __str__(self) -> str:
        return f"-- round {self.round} --"


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    round: int
    actor: str

    def __str__(self) -> str:
        return f"{self.actor}'s turn"


@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """The label of an applied action, first event of every ``apply``."""

    label: str

    def __str__(self) -> str:
        return f"> {self.label}"


@dataclass(frozen=True, slots=True)
class OutOfFight(Event):
    combatant: str
    how: str  # defeated | broken | fled | ...

    def __str__(self) -> str:
        return f"{self.combatant} is {self.how} and out of the fight"


@dataclass(frozen=True, slots=True)
class EncounterEnded(Event):
    winner: str | None
    reason: str
    round: int

    def __str__(self) -> str:
        who = f"side {self.winner} wins" if self.winner else "draw"
        return f"== fight over in round {self.round}: {who} ({self.reason}) =="
