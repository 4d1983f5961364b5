"""Sizebound's typed events (numbers are named fields; ``str(event)`` is one readable line)."""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.events import Event

__all__ = [
    "TeamTurnStarted", "TeamTurnEnded", "Stepped", "MoveOpened", "StoodUp", "Aimed", "Rolled",
    "Boosted", "AttackResult", "Damaged", "Blocked", "ContestResult", "BecameProne",
    "ConditionChanged", "GrappleChanged", "ItemMoved", "Recovered", "SkillUsed", "Healed",
    "Died", "ReactionGained", "ExertionRegained", "CritNegated", "Dragged",
]


@dataclass(frozen=True, slots=True)
class TeamTurnStarted(Event):
    round: int
    slot: int
    side: str

    def __str__(self) -> str:
        return f"side {self.side}'s team turn (round {self.round}, slot {self.slot})"


@dataclass(frozen=True, slots=True)
class TeamTurnEnded(Event):
    round: int
    side: str

    def __str__(self) -> str:
        return f"side {self.side}'s team turn ends"


@dataclass(frozen=True, slots=True)
class MoveOpened(Event):
    actor: str
    mode: str  # move | run
    budget: int

    def __str__(self) -> str:
        return f"{self.actor} opens a {self.mode} budget of {self.budget}"


@dataclass(frozen=True, slots=True)
class Stepped(Event):
    actor: str
    direction: str
    x: int
    y: int
    cost: int
    cancelled: bool = False

    def __str__(self) -> str:
        if self.cancelled:
            return f"{self.actor}'s step {self.direction} is held back (cost {self.cost})"
        return f"{self.actor} steps {self.direction} to ({self.x}, {self.y}) (cost {self.cost})"


@dataclass(frozen=True, slots=True)
class Dragged(Event):
    actor: str
    by: str
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.actor} is dragged by {self.by} to ({self.x}, {self.y})"


@dataclass(frozen=True, slots=True)
class StoodUp(Event):
    actor: str
    cost: int

    def __str__(self) -> str:
        return f"{self.actor} stands up (cost {self.cost})"


@dataclass(frozen=True, slots=True)
class Aimed(Event):
    actor: str

    def __str__(self) -> str:
        return f"{self.actor} aims (+4 Hit this turn)"


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """One d20 test: ``what`` is hit, parry, dodge, athletics, nimble..."""

    actor: str
    what: str
    faces: tuple[int, ...]
    natural: int
    modifier: int
    total: int

    def __str__(self) -> str:
        dice = "/".join(map(str, self.faces))
        return f"{self.actor} rolls {self.what}: d20 {dice} -> {self.natural} " \
               f"{self.modifier:+d} = {self.total}"


@dataclass(frozen=True, slots=True)
class Boosted(Event):
    actor: str
    what: str
    face: int
    total: int

    def __str__(self) -> str:
        return f"{self.actor} spends an Exertion Die on {self.what}: +{self.face} -> {self.total}"


@dataclass(frozen=True, slots=True)
class ExertionRegained(Event):
    actor: str
    dice: int

    def __str__(self) -> str:
        return f"{self.actor} regains an Exertion Die ({self.dice})"


@dataclass(frozen=True, slots=True)
class CritNegated(Event):
    actor: str

    def __str__(self) -> str:
        return f"{self.actor} spends an Exertion Die: the critical hit becomes a normal hit"


@dataclass(frozen=True, slots=True)
class AttackResult(Event):
    attacker: str
    target: str
    weapon: str
    result: str  # hit | crit | miss | fumble | parried | dodged
    total: int

    def __str__(self) -> str:
        return f"{self.attacker}'s {self.weapon} vs {self.target}: {self.result} ({self.total})"


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    target: str
    amount: int
    dtypes: tuple[str, ...]
    absorbed: int
    hp: int

    def __str__(self) -> str:
        kinds = "+".join(self.dtypes) or "untyped"
        guard = f", {self.absorbed} into Guard" if self.absorbed else ""
        return f"{self.target} takes {self.amount} {kinds}{guard} -> {self.hp} HP"


@dataclass(frozen=True, slots=True)
class Blocked(Event):
    blocker: str
    target: str
    guard: int

    def __str__(self) -> str:
        return f"{self.blocker} blocks for {self.target}: Guard +{self.guard}"


@dataclass(frozen=True, slots=True)
class ContestResult(Event):
    kind: str
    initiator: str
    defender: str
    i_total: int
    d_total: int
    won: bool

    def __str__(self) -> str:
        how = "wins" if self.won else "loses"
        return f"{self.initiator} {how} the {self.kind} contest against {self.defender} " \
               f"({self.i_total} vs {self.d_total})"


@dataclass(frozen=True, slots=True)
class BecameProne(Event):
    actor: str
    on_purpose: bool

    def __str__(self) -> str:
        return f"{self.actor} {'drops' if self.on_purpose else 'falls'} prone"


@dataclass(frozen=True, slots=True)
class ConditionChanged(Event):
    actor: str
    condition: str
    gained: bool

    def __str__(self) -> str:
        return f"{self.actor} {'is now' if self.gained else 'is no longer'} {self.condition}"


@dataclass(frozen=True, slots=True)
class GrappleChanged(Event):
    grappler: str
    target: str
    how: str  # grabbed | tightened | released | broke_free | ended

    def __str__(self) -> str:
        return f"grapple {self.grappler} -> {self.target}: {self.how}"


@dataclass(frozen=True, slots=True)
class ItemMoved(Event):
    actor: str
    item: str
    how: str  # drawn | stowed | picked_up | dropped | thrown | taken

    def __str__(self) -> str:
        return f"{self.actor}: {self.item} {self.how}"


@dataclass(frozen=True, slots=True)
class Recovered(Event):
    actor: str
    what: str  # hp | mana
    amount: int

    def __str__(self) -> str:
        return f"{self.actor} recovers {self.amount} {self.what}"


@dataclass(frozen=True, slots=True)
class SkillUsed(Event):
    actor: str
    skill: str
    mana: int
    overdraw: int

    def __str__(self) -> str:
        extra = f", overdraw {self.overdraw} True damage" if self.overdraw else ""
        return f"{self.actor} uses {self.skill} ({self.mana} Mana{extra})"


@dataclass(frozen=True, slots=True)
class Healed(Event):
    actor: str
    amount: int
    hp: int

    def __str__(self) -> str:
        return f"{self.actor} heals {self.amount} -> {self.hp} HP"


@dataclass(frozen=True, slots=True)
class Died(Event):
    actor: str
    hp: int

    def __str__(self) -> str:
        return f"{self.actor} dies ({self.hp} HP)"


@dataclass(frozen=True, slots=True)
class ReactionGained(Event):
    actor: str
    reactions: int

    def __str__(self) -> str:
        return f"{self.actor} kept its Defensive action: {self.reactions} reaction(s)"
