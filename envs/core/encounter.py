"""The ``Encounter`` protocol: the mutable state of one fight, same shape for every system.

Shaped like OpenSpiel's ``State``: a reaction (counter, challenge, intercept) is simply a state whose
``current_actor()`` is the defender, so one loop covers interrupts::

    while not enc.is_over():
        actor = enc.current_actor()
        action = choose(enc.view(actor), enc.legal_actions())
        events = enc.apply(action, dice)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .actions import Action
from .dice import Dice
from .events import Event

__all__ = ["Encounter", "EncounterBase", "Outcome", "SideInfo"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a fight ended.

    Attributes:
        winner: the winning side id, or ``None`` for a draw.
        reason: ``defeat`` (the other side has no active combatant), ``round_cap`` (draw at the
            round limit), or a system-specific reason.
        round: the round in which it ended.
    """

    winner: str | None
    reason: str
    round: int

    @property
    def truncated(self) -> bool:
        return self.reason == "round_cap"

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "round": self.round}


@dataclass(frozen=True, slots=True)
class SideInfo:
    """One side's roster: ``members[slot]`` is a combatant id."""

    side: str
    members: tuple[str, ...]


@runtime_checkable
class Encounter(Protocol):
    """The mutable state of one fight (DESIGN.md, "The rules API")."""

    system: str

    def sides(self) -> tuple[SideInfo, ...]:
        """Both rosters in fixed order; agent names are ``<side>_<slot>``."""
        ...

    def side_of(self, combatant: str) -> str: ...

    def is_active(self, combatant: str) -> bool:
        """Still in the fight (not defeated, broken, fled...)."""
        ...

    def current_actor(self) -> str | None:
        """Id of the combatant who must decide now, or ``None`` when the fight is over."""
        ...

    def legal_actions(self) -> list[Action]:
        """Every legal choice of the current actor; never empty while the fight is on."""
        ...

    def apply(self, action: Action, dice: Dice) -> list[Event]:
        """Validate (``IllegalActionError``), resolve with ``dice``, advance to the next decision."""
        ...

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    @property
    def round(self) -> int: ...

    def clone(self) -> Encounter:
        """Independent deep copy, cheap enough for look-ahead rollouts."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain JSON-able data."""
        ...

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Encounter: ...

    def parse_action(self, label: str) -> Action:
        """Inverse of ``Action.label`` (raises ``IllegalActionError`` for unreadable labels)."""
        ...

    def view(self, actor: str) -> Any:
        """What ``actor`` may know (differs from the full state only where a spec hides things)."""
        ...

    def describe(self, viewer: str | None = None) -> list[dict[str, str]]:
        """One row of short texts per combatant for a person's screen (same keys in every row), as
        ``viewer`` may see it; ``None`` shows everything (the GM)."""
        ...

    def harm(self) -> dict[str, float]:
        """Harm taken so far per combatant, in the system's own unit (Injury slots, stun, damage...).

        GM tools report harm dealt and taken from its changes; ``0`` means unhurt.
        """
        ...


class EncounterBase:
    """Bookkeeping every system's encounter shares: the round, the outcome and combatant lookups.

    A subclass sets ``self._round``, ``self._outcome`` and ``self.by_id`` (combatant id -> an object
    with a ``side``).
    """

    _round: int
    _outcome: Outcome | None
    by_id: dict[str, Any]

    @property
    def round(self) -> int:
        return self._round

    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def side_of(self, combatant: str) -> str:
        return self.by_id[combatant].side
