"""Metaforce's typed, frozen events (numbers are named fields; ``str`` gives one line of text)."""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.events import Event

__all__ = [
    "InitiativeRolled", "FrameStarted", "FrameLost", "Moved", "AttackRolled", "CritUsed",
    "MetaDieRolled", "DamageDealt", "StatusChanged", "SaveRolled", "Stunned", "KnockedBack",
    "GrappleChanged", "CheckRolled", "StateChanged", "DeusExUsed", "AmmoChanged", "BowPrimed",
    "ReactionsChanged", "SpecialReady", "DotTicked", "WeaponThrown", "TurnEnded", "MPowerUsed",
    "ExertPaid", "Healed", "FearDrained", "FrameSlept", "InitiativeLinked", "GuestFrame",
    "HypeCopy", "SizeDice", "ExpertiseUsed",
]


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    combatant: str
    d12: int
    total: int
    place: int

    def __str__(self) -> str:
        return f"{self.combatant} rolls initiative d12 {self.d12} = {self.total} ({self.place})"


@dataclass(frozen=True, slots=True)
class FrameStarted(Event):
    combatant: str
    frame: int

    def __str__(self) -> str:
        return f"{self.combatant}: frame {self.frame}"


@dataclass(frozen=True, slots=True)
class FrameLost(Event):
    combatant: str
    stun_left: int

    def __str__(self) -> str:
        return f"{self.combatant} is stunned and loses a frame ({self.stun_left} more)"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    combatant: str
    how: str  # approach | retreat | dash | react | knockback | flee (Fear, FULL)
    x: int
    y: int
    squares: int

    def __str__(self) -> str:
        return f"{self.combatant} moves ({self.how}) {self.squares} sq to {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    attacker: str
    target: str
    weapon: str
    faces: tuple[int, ...]
    kept: int
    steps: int
    tohit: int
    evasion: int
    deflection: int
    band: str  # miss | deflected | direct
    v: int = 0

    def __str__(self) -> str:
        crit = f", critical V {self.v}" if self.v else ""
        return (f"{self.attacker} attacks {self.target} with {self.weapon}: d12 "
                f"{'/'.join(map(str, self.faces))} (S {self.steps:+d}) ToHit {self.tohit} vs "
                f"E {self.evasion} D {self.deflection}: {self.band}{crit}")


@dataclass(frozen=True, slots=True)
class CritUsed(Event):
    attacker: str
    use: str  # tohit | damage | magnitude (a grapple's) | magnitude | size
    v: int
    status: str = ""  # Magic Effect: the status whose magnitude V is (full_magic); "": its own

    def __str__(self) -> str:
        on = f"{self.use} ({self.status})" if self.status else self.use
        return f"{self.attacker} puts V {self.v} on {on}"


@dataclass(frozen=True, slots=True)
class ExpertiseUsed(Event):
    """spec §2.4.2, R-52: an expert's Versatile Bonus of its Level on an activity."""

    combatant: str
    use: str  # tohit | damage
    v: int

    def __str__(self) -> str:
        return f"{self.combatant}'s Expertise puts V {self.v} on {self.use}"


@dataclass(frozen=True, slots=True)
class MetaDieRolled(Event):
    combatant: str
    sides: int
    value: int
    paid: int  # MP paid (0: cancelled, R-41)

    def __str__(self) -> str:
        how = f"pays {self.paid} MP" if self.paid else "cancelled at no cost"
        return f"{self.combatant} creates a Meta-Die md{self.sides} {self.value}: {how}"


@dataclass(frozen=True, slots=True)
class DamageDealt(Event):
    target: str
    source: str
    raw: int
    amount: int
    hp: int
    damage_type: str

    def __str__(self) -> str:
        return (f"{self.target} takes {self.amount} {self.damage_type} damage from {self.source}"
                f" ({self.raw} before defences), HP {self.hp}")


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    combatant: str
    status: str
    magnitude: int
    severity: str  # partial | full | intense | ended | resisted | suppressed (R-17, FULL)

    def __str__(self) -> str:
        return f"{self.combatant}: {self.status} {self.severity} (magnitude {self.magnitude})"


@dataclass(frozen=True, slots=True)
class SaveRolled(Event):
    combatant: str
    save: str
    faces: tuple[int, ...]
    total: int
    tn: int
    result: str  # failure | success | miraculous

    def __str__(self) -> str:
        return (f"{self.combatant} {self.save} save d12 {'/'.join(map(str, self.faces))} = "
                f"{self.total} vs TN {self.tn}: {self.result}")


@dataclass(frozen=True, slots=True)
class SaveFailedOutright(Event):
    """A save lost without a roll (Crash Out after a natural 1, spec §6.4)."""

    combatant: str
    save: str
    tn: int
    why: str

    def __str__(self) -> str:
        return f"{self.combatant} fails its {self.save} save vs TN {self.tn} outright ({self.why})"


@dataclass(frozen=True, slots=True)
class Stunned(Event):
    combatant: str
    frames: int

    def __str__(self) -> str:
        return f"{self.combatant} is stunned for {self.frames} frame(s)"


@dataclass(frozen=True, slots=True)
class KnockedBack(Event):
    combatant: str
    squares: int
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.combatant} is knocked back {self.squares} sq to {self.x},{self.y}"


@dataclass(frozen=True, slots=True)
class GrappleChanged(Event):
    grappler: str
    target: str
    magnitude: int
    how: str  # grabbed | held | failed | ended | released

    def __str__(self) -> str:
        return f"{self.grappler} grapple on {self.target}: {self.how} (magnitude {self.magnitude})"


@dataclass(frozen=True, slots=True)
class CheckRolled(Event):
    combatant: str
    what: str  # escape:<status> | maintain
    faces: tuple[int, ...]
    total: int

    def __str__(self) -> str:
        return f"{self.combatant} {self.what}: d12 {'/'.join(map(str, self.faces))} = {self.total}"


@dataclass(frozen=True, slots=True)
class StateChanged(Event):
    combatant: str
    state: str  # incapacitated | dead | unconscious | retreated
    hp: int

    def __str__(self) -> str:
        return f"{self.combatant} is {self.state} (HP {self.hp})"


@dataclass(frozen=True, slots=True)
class DeusExUsed(Event):
    combatant: str
    mode: str
    mp_max: int

    def __str__(self) -> str:
        return f"{self.combatant} uses Deus Ex ({self.mode}); Max MP now {self.mp_max}"


@dataclass(frozen=True, slots=True)
class AmmoChanged(Event):
    combatant: str
    weapon: str
    how: str  # fired | unloaded | reloaded
    loaded: int
    reserve: int

    def __str__(self) -> str:
        return (f"{self.combatant} {self.how} {self.weapon}: {self.loaded} loaded, "
                f"{self.reserve} in reserve")


@dataclass(frozen=True, slots=True)
class BowPrimed(Event):
    combatant: str
    weapon: str
    arrows: int

    def __str__(self) -> str:
        return f"{self.combatant} primes {self.weapon} ({self.arrows} arrows left)"


@dataclass(frozen=True, slots=True)
class ReactionsChanged(Event):
    combatant: str
    reactions: int

    def __str__(self) -> str:
        return f"{self.combatant} holds {self.reactions} Reaction(s)"


@dataclass(frozen=True, slots=True)
class SpecialReady(Event):
    combatant: str
    status: str

    def __str__(self) -> str:
        return f"{self.combatant} sets up a Special Attack ({self.status})"


@dataclass(frozen=True, slots=True)
class DotTicked(Event):
    combatant: str
    status: str
    severity: str
    amount: int

    def __str__(self) -> str:
        return f"{self.combatant}: {self.status} ({self.severity}) ticks for {self.amount}"


@dataclass(frozen=True, slots=True)
class WeaponThrown(Event):
    combatant: str
    weapon: str

    def __str__(self) -> str:
        return f"{self.combatant} throws {self.weapon} (gone for the encounter)"


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    combatant: str
    reactions: int

    def __str__(self) -> str:
        return f"{self.combatant} ends its turn with {self.reactions} Reaction(s)"


@dataclass(frozen=True, slots=True)
class MPowerUsed(Event):
    """A FULL window's power or Reaction was used (dodge, crash_out, finishing_touch)."""

    combatant: str
    power: str
    mp: int
    detail: str

    def __str__(self) -> str:
        cost = f" for {self.mp} MP" if self.mp else ""
        return f"{self.combatant} uses {self.power.replace('_', ' ')}{cost} ({self.detail})"


@dataclass(frozen=True, slots=True)
class ExertPaid(Event):
    combatant: str
    exert: int
    total: int

    def __str__(self) -> str:
        return f"{self.combatant} exerts {self.exert} (Exert now {self.total})"


@dataclass(frozen=True, slots=True)
class Healed(Event):
    combatant: str
    source: str
    amount: int
    hp: int

    def __str__(self) -> str:
        return f"{self.combatant} absorbs the blow of {self.source}: heals {self.amount}, " \
               f"HP {self.hp}"


@dataclass(frozen=True, slots=True)
class FearDrained(Event):
    """Intense Fear at the start of the victim's turn (spec §7.5, FULL)."""

    combatant: str
    source: str
    amount: int

    def __str__(self) -> str:
        return f"{self.combatant} is terrified of {self.source} and loses {self.amount} HP"


@dataclass(frozen=True, slots=True)
class FrameSlept(Event):
    """A frame lost to Sleep at Full or Intense (spec §7.5, FULL)."""

    combatant: str

    def __str__(self) -> str:
        return f"{self.combatant} is asleep and loses a frame"


@dataclass(frozen=True, slots=True)
class InitiativeLinked(Event):
    """Initiative Link (spec §3.3, §6.4, FULL): the new initiative order."""

    combatant: str
    ally: str
    order: tuple[str, ...]

    def __str__(self) -> str:
        return f"initiative order now {', '.join(self.order)}"


@dataclass(frozen=True, slots=True)
class GuestFrame(Event):
    """A frame outside the combatant's own turn (Team Work, an Action-8 Reaction; FULL)."""

    combatant: str

    def __str__(self) -> str:
        return f"{self.combatant}: a frame outside its turn"


@dataclass(frozen=True, slots=True)
class HypeCopy(Event):
    """Hype Effect (spec §6.4, FULL): a die at its maximum rolls a copy, added to the same
    quantity."""

    combatant: str
    sides: int
    value: int
    quantity: str  # damage | penetration | magnitude | tohit

    def __str__(self) -> str:
        return f"{self.combatant}'s d{self.sides} hypes: a copy adds {self.value} to " \
               f"{self.quantity}"


@dataclass(frozen=True, slots=True)
class SizeDice(Event):
    """R-29 (FULL): a Size N creature's N V-Bonus dice (a critical's V: the N - 1 extra md12;
    a Create-a-Meta-Die: all N dice)."""

    combatant: str
    what: str  # V | Meta-Die
    faces: tuple[int, ...]
    total: int

    def __str__(self) -> str:
        return f"{self.combatant} rolls Size dice for its {self.what} " \
               f"({'/'.join(map(str, self.faces))}): {self.what} {self.total}"
