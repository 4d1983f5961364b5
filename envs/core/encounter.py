"""The ``Encounter`` protocol: the mutable state of one fight, same shape for every system.

Shaped like OpenSpiel's ``State``: a reaction (counter, challenge, intercept) is simply a state
whose ``current_actor()`` is the defender, so one loop covers interrupts::

    while not enc.is_over():
        actor = enc.current_actor()
        action = choose(enc.view(actor), enc.legal_actions())
        events = enc.apply(action, dice)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .actions import Action, IllegalActionError
from .dice import Dice
from .events import ActionTaken, EncounterEnded, Event, RoundStarted

__all__ = [
    "Encounter", "EncounterBase", "Outcome", "SideInfo",
    "DEFEAT", "MUTUAL_DEFEAT", "ROUND_CAP", "REASONS",
]

DEFEAT = "defeat"
"""The winner's enemies have no active combatant left."""
MUTUAL_DEFEAT = "mutual_defeat"
"""No side has an active combatant left (a draw)."""
ROUND_CAP = "round_cap"
"""The round cap was reached with no winner (a draw; the env reports it as a truncation)."""
REASONS = (DEFEAT, MUTUAL_DEFEAT, ROUND_CAP)
"""The standard outcome reasons; a system may add its own (Mano a Mano: ``incapacitated``...)."""

ILLEGAL_HINTS = 6
"""How many legal labels of the same kind an illegal-action message shows."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a fight ended.

    Attributes:
        winner: the winning side id, or ``None`` for a draw.
        reason: ``DEFEAT`` (the other side has no active combatant), ``MUTUAL_DEFEAT`` (no side
            has one: a draw), ``ROUND_CAP`` (a draw at the round cap), or a system's own reason.
        round: the round in which it ended.
    """

    winner: str | None
    reason: str
    round: int

    @property
    def truncated(self) -> bool:
        return self.reason == ROUND_CAP

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
        """Validate (``IllegalActionError``), resolve with ``dice``, advance to the next
        decision."""
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
        """Harm taken so far per combatant, in the system's own unit (Injury slots, stun,
        damage...).

        GM tools report harm dealt and taken from its changes; ``0`` means unhurt.
        """
        ...


class EncounterBase:
    """What every system's encounter shares: the end of the fight, the round cap, the legality
    check of ``apply`` and the standard outcome reasons.

    A subclass sets ``self._round``, ``self._outcome`` (``None`` while the fight is on) and
    ``self.by_id`` (combatant id -> an object with a ``side``), implements the reading half of the
    ``Encounter`` protocol, and provides:

    * ``_resolve(action, dice, events)``: carry out a legal action and advance to the next
      decision, appending to ``events`` (which already holds the ``ActionTaken``);
    * ``round_cap``: the last round (default ``self.options.round_limit``);
    * optionally ``_ended()``: clear its own decision state once ``_end`` has set the outcome.

    It calls ``_end(winner, reason, events)`` to finish the fight, ``_check_defeat(events)`` after
    anyone leaves the fight, and ``_check_round_cap(events)`` before it would start a new round
    (then ``_next_round(events)``).
    """

    _round: int
    _outcome: Outcome | None
    by_id: dict[str, Any]
    options: Any
    elimination_reasons: frozenset[str] = frozenset({DEFEAT, MUTUAL_DEFEAT})
    """the outcome reasons that mean the losing sides have no active combatant left (a system
    that passes its own reasons to ``_check_defeat`` names them here); checked by
    ``eval.invariants``"""

    @property
    def round(self) -> int:
        return self._round

    @property
    def round_cap(self) -> int:
        """The last round: at its end a fight with no winner is a draw (``ROUND_CAP``)."""
        return int(self.options.round_limit)

    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def side_of(self, combatant: str) -> str:
        return self.by_id[combatant].side

    # -- the protocol methods the subclass provides (declared here for the template methods)
    def sides(self) -> tuple[SideInfo, ...]:
        raise NotImplementedError

    def is_active(self, combatant: str) -> bool:
        raise NotImplementedError

    def current_actor(self) -> str | None:
        raise NotImplementedError

    def legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def _resolve(self, action: Action, dice: Dice, events: list[Event]) -> None:
        raise NotImplementedError

    # -- apply: one legality check and one message format for every system
    def apply(self, action: Action, dice: Dice) -> list[Event]:
        """Check ``action`` against ``legal_actions()`` (``IllegalActionError`` otherwise), then
        resolve it with ``dice``; returns the events, ``ActionTaken`` first."""
        if self._outcome is not None:
            raise IllegalActionError(self.illegal_message(action, []))
        legal = self.legal_actions()
        for a in legal:  # fast path: the very object legal_actions() gave
            if a is action:
                break
        else:
            if action not in legal:
                raise IllegalActionError(self.illegal_message(action, legal))
        events: list[Event] = [ActionTaken(action.label)]
        self._resolve(action, dice, events)
        return events

    def illegal_message(self, action: Action, legal: list[Action] | None = None) -> str:
        """Why ``action`` is not legal now, in the one format of every system::

            round 3: 'a: attack x -> b' is not legal now: the fight is over
            round 3: 'a: attack x -> b' is not legal now: it is b's decision
            round 3: 'a: attack x -> b' is not legal now for a; legal attack: a: attack y -> b; ...
        """
        head = f"round {self._round}: {action.label!r} is not legal now"
        if self._outcome is not None:
            return f"{head}: the fight is over"
        who = self.current_actor()
        if action.actor != who:
            return f"{head}: it is {who}'s decision"
        legal = self.legal_actions() if legal is None else legal
        same = sorted({a.label for a in legal if a.kind == action.kind})
        if same:
            more = f" (+{len(same) - ILLEGAL_HINTS} more)" if len(same) > ILLEGAL_HINTS else ""
            return f"{head} for {who}; legal {action.kind}: {'; '.join(same[:ILLEGAL_HINTS])}{more}"
        kinds = ", ".join(sorted({a.kind for a in legal}))
        return f"{head} for {who}; no legal {action.kind}; legal kinds: {kinds}"

    # -- the end of the fight
    def _end(self, winner: str | None, reason: str, events: list[Event]) -> None:
        """Finish the fight: set the outcome (round at most the cap), emit ``EncounterEnded``."""
        self._outcome = Outcome(winner, reason, min(self._round, self.round_cap))
        self._ended()
        events.append(EncounterEnded(winner, reason, self._outcome.round))

    def _ended(self) -> None:
        """Hook: clear the system's decision state after the outcome is set (default: nothing)."""

    def _check_defeat(self, events: list[Event], reason: str = DEFEAT,
                      mutual: str = MUTUAL_DEFEAT) -> bool:
        """End the fight when at most one side has an active combatant: that side wins with
        ``reason``; none left is a draw with ``mutual``. Returns whether the fight ended."""
        standing = [s.side for s in self.sides() if any(self.is_active(m) for m in s.members)]
        if len(standing) > 1:
            return False
        self._end(standing[0] if standing else None, reason if standing else mutual, events)
        return True

    def _next_round(self, events: list[Event]) -> None:
        """Start the next round (``RoundStarted``); call it after ``_check_round_cap`` said no."""
        self._round += 1
        events.append(RoundStarted(self._round))

    def _check_round_cap(self, events: list[Event]) -> bool:
        """At the end of a round: a fight still on at the round cap is a draw (``ROUND_CAP``).
        Returns whether the fight ended."""
        if self._round >= self.round_cap:
            self._end(None, ROUND_CAP, events)
            return True
        return False
