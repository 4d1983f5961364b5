"""Mano a Mano events (spec §5.1 rolls, §8 harm, and every other change worth a line).

``apply`` returns these frozen values; their ``str`` is the text of the event log (case files and
the behaviour digest compare it). The generic events (actions taken, rounds, turns, a combatant
out of the fight, the end) are ``envs.core.events``.
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.events import Event
from envs.core.hexgrid import Hex

__all__ = [
    "DefenseBonus", "Delayed", "Dismounted", "FirstTurnRoll", "FollowedInto", "GunLoaded",
    "Harmed", "LedgeDrop", "LongestReach", "Mounted", "Moved", "Note", "Pushed", "PushedIntoWall",
    "Regenerated", "Reloading", "Rolled", "StunRecovered", "TurnOrder", "Unseated",
]


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
    """Any other change worth a line that carries no number (falls, stances, releases...); a
    change with a number or a position has its own event below."""

    who: str
    text: str

    def __str__(self) -> str:
        return f"{self.who} {self.text}"


# ---------------------------------------------------------------------------------- turn flow


@dataclass(frozen=True, slots=True)
class TurnOrder(Event):
    """The turn order is settled (spec §3.5, RULING R10, R53); ``order[0]`` acts first."""

    order: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.order[0]} acts first; turn order {' > '.join(self.order)}"


@dataclass(frozen=True, slots=True)
class FirstTurnRoll(Event):
    """A side's roll-off die for the first turn (spec §3.5, RULING R53)."""

    side: str
    die: int

    def __str__(self) -> str:
        return f"side {self.side} rolls d20={self.die} for the first turn"


@dataclass(frozen=True, slots=True)
class LongestReach(Event):
    """A side goes first by the longest reach (spec §3.5, optional ``reach_initiative``)."""

    side: str
    reach_m: int

    def __str__(self) -> str:
        return f"side {self.side} has the longest reach ({self.reach_m} m) and goes first"


@dataclass(frozen=True, slots=True)
class Delayed(Event):
    """``who`` delays to act right after ``after`` (spec §4.6); ``order`` is the new order."""

    who: str
    after: str
    order: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.who} delays to act after {self.after}; order {' > '.join(self.order)}"


@dataclass(frozen=True, slots=True)
class StunRecovered(Event):
    """Stun recovery at the end of a turn (spec §4.7): ``stun`` left, ``health`` now."""

    who: str
    stun: int
    health: str

    def __str__(self) -> str:
        return f"{self.who} recovers stun (now {self.stun}, {self.health})"


@dataclass(frozen=True, slots=True)
class Regenerated(Event):
    """Sudden regeneration while resting (spec §2.8, RULING R44): ``damage`` healed."""

    who: str
    damage: int

    def __str__(self) -> str:
        return f"{self.who} regenerates {self.damage} damage"


@dataclass(frozen=True, slots=True)
class DefenseBonus(Event):
    """A defense bonus gained (RULING R3): ``how`` is ``rest`` (stun also 0), ``instant_stand`` or
    ``evade`` (the initial stance of spec §3.4, until the first turn)."""

    who: str
    how: str
    bonus: int

    def __str__(self) -> str:
        if self.how == "rest":
            return f"{self.who} rests: stun 0, +{self.bonus} defense until its next turn"
        if self.how == "instant_stand":
            return f"{self.who} stands up at once (+{self.bonus} defense until its next turn)"
        return f"{self.who} starts evading (+{self.bonus} defense until its first turn)"


# ---------------------------------------------------------------------------------- positions


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """A one-hex move (spec §4.5)."""

    who: str
    start: Hex
    end: Hex

    def __str__(self) -> str:
        return f"{self.who} moves {self.start} -> {self.end}"


@dataclass(frozen=True, slots=True)
class Pushed(Event):
    """A grapple push moved ``who`` one hex (spec §5.7.3, RULING R43)."""

    who: str
    start: Hex
    end: Hex

    def __str__(self) -> str:
        return f"{self.who} is pushed {self.start} -> {self.end}"


@dataclass(frozen=True, slots=True)
class PushedIntoWall(Event):
    """A push into a wall: a fall in place (spec §5.7.4)."""

    who: str
    wall: Hex

    def __str__(self) -> str:
        return f"{self.who} is pushed into the wall at {self.wall}"


@dataclass(frozen=True, slots=True)
class LedgeDrop(Event):
    """A push over an edge of ``drop_m`` metres (rulings.LEDGE_FALL_M, RULING R57)."""

    who: str
    drop_m: float

    def __str__(self) -> str:
        return f"{self.who} goes over a {self.drop_m:g} m drop"


@dataclass(frozen=True, slots=True)
class FollowedInto(Event):
    """A dominant pusher follows into the vacated hex (RULING R43)."""

    who: str
    hex: Hex

    def __str__(self) -> str:
        return f"{self.who} moves into {self.hex}"


@dataclass(frozen=True, slots=True)
class Mounted(Event):
    """``who`` mounts ``mount`` in its hex (spec §5.11)."""

    who: str
    mount: str
    hex: Hex

    def __str__(self) -> str:
        return f"{self.who} mounts {self.mount} at {self.hex}"


@dataclass(frozen=True, slots=True)
class Dismounted(Event):
    """``who`` dismounts from ``mount`` into ``hex`` (spec §5.11)."""

    who: str
    mount: str
    hex: Hex

    def __str__(self) -> str:
        return f"{self.who} dismounts from {self.mount} into {self.hex}"


@dataclass(frozen=True, slots=True)
class Unseated(Event):
    """A rider falls from its mount into ``hex`` (rulings.MOUNT_DOWN_UNSEATS, STAY_MOUNTED_*)."""

    who: str
    mount: str
    why: str
    hex: Hex

    def __str__(self) -> str:
        return f"{self.who} falls from {self.mount} ({self.why}) into {self.hex}"


# ---------------------------------------------------------------------------------- guns


@dataclass(frozen=True, slots=True)
class GunLoaded(Event):
    """A clip gun gets a full clip, or a round-by-round gun one more round (spec §5.6, R50)."""

    who: str
    item: str
    shots: int
    one_round: bool

    def __str__(self) -> str:
        if self.one_round:
            return f"{self.who} loads a round into {self.item}: {self.shots} shots"
        return f"{self.who} loads {self.item}: {self.shots} shots"


@dataclass(frozen=True, slots=True)
class Reloading(Event):
    """A muzzle-loader reload action ``done`` of ``needed`` (RULING R50); ``shots`` once loaded."""

    who: str
    item: str
    done: int
    needed: int
    shots: int | None = None

    def __str__(self) -> str:
        text = f"{self.who} reloads {self.item} ({self.done}/{self.needed})"
        if self.shots is None:
            return text
        return f"{text}: {self.shots} shot{'s' if self.shots > 1 else ''}"
