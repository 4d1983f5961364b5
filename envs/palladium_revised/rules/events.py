"""Palladium Revised's typed, frozen events (numbers are named fields; ``str`` gives one line)."""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.events import Event, TurnStarted

__all__ = [
    "InitiativeRolled", "SecondStarted", "TurnOpened", "SlotChanged", "Moved", "ZoneContest",
    "StrikeRolled", "DefenseRolled", "StrikeResolved", "Retargeted", "DamageDealt",
    "WoundsChanged", "CritRolled", "ConditionChanged", "PoolChanged", "StateChanged",
    "CommitmentChanged", "OpportunityOffered",
    "ContestRolled", "Redirected", "Fizzled", "SpellCast", "SpellRolled", "Healed",
    "ShieldAbsorbed", "MoraleAdded", "AmbushDetection", "HazardApplied", "CostFizzled", "Gained",
]


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    combatant: str
    d20: int
    total: int
    reroll: int  # 0 for the round's roll, 1.. for tie re-rolls (spec §3.4)

    def __str__(self) -> str:
        tie = f" (tie re-roll {self.reroll})" if self.reroll else ""
        return f"{self.combatant} rolls initiative d20 {self.d20} = {self.total}{tie}"


@dataclass(frozen=True, slots=True)
class SecondStarted(Event):
    round: int
    second: int

    def __str__(self) -> str:
        return f"- second {self.second} of round {self.round}"


@dataclass(frozen=True, slots=True)
class TurnOpened(TurnStarted):
    """A combatant's own slot opens (spec §4.4): the shared ``TurnStarted`` (``round``,
    ``actor``), which tools read (a search rollout is scored at its actor's next turn), with the
    Second, the pass and whether the slot was reserved by a commitment."""

    second: int
    pass_no: int
    committed: bool

    def __str__(self) -> str:
        c = " (committed)" if self.committed else ""
        return f"{self.actor}'s turn, second {self.second} pass {self.pass_no}{c}"


@dataclass(frozen=True, slots=True)
class SlotChanged(Event):
    combatant: str
    second: int
    pass_no: int
    state: str  # reserved | consumed | lost | available
    why: str

    def __str__(self) -> str:
        return f"{self.combatant}: slot {self.second}/{self.pass_no} {self.state} ({self.why})"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    combatant: str
    how: str  # move | step | multidodge_back
    start: int
    end: int
    why: str  # arrived | allowance | blocked | zone | fell

    def __str__(self) -> str:
        return (f"{self.combatant} {self.how}s {self.start} -> {self.end} ft "
                f"({abs(self.end - self.start)} ft, {self.why})")


@dataclass(frozen=True, slots=True)
class ZoneContest(Event):
    mover: str
    enemy: str
    mover_total: int
    enemy_total: int
    layers: int

    def __str__(self) -> str:
        return (f"{self.mover} contests {self.enemy}'s Zone: maneuver {self.mover_total} vs "
                f"{self.enemy_total}, {self.layers} layer(s)")


@dataclass(frozen=True, slots=True)
class OpportunityOffered(Event):
    enemy: str
    mover: str
    distance: int

    def __str__(self) -> str:
        return f"{self.mover} leaves a layer of {self.enemy}'s Zone at {self.distance} ft"


@dataclass(frozen=True, slots=True)
class StrikeRolled(Event):
    attacker: str
    target: str
    weapon: str
    nat: int
    total: int
    ranged: bool
    opportunity: bool = False
    retarget: bool = False

    def __str__(self) -> str:
        tag = " (opportunity)" if self.opportunity else " (retargeted)" if self.retarget else ""
        return (f"{self.attacker} strikes {self.target} with {self.weapon}{tag}: "
                f"d20 {self.nat} = {self.total}")


@dataclass(frozen=True, slots=True)
class DefenseRolled(Event):
    defender: str
    how: str  # parry | dodge | multidodge | stored
    nat: int
    total: int

    def __str__(self) -> str:
        roll = "stored" if self.how == "stored" else f"d20 {self.nat}"
        return f"{self.defender} {self.how}: {roll} = {self.total}"


@dataclass(frozen=True, slots=True)
class StrikeResolved(Event):
    attacker: str
    target: str
    s1: int
    s2: int
    hit: bool
    mitigated: bool
    layer: str  # armour | body | - (miss)
    crit: bool

    def __str__(self) -> str:
        if not self.hit:
            return f"{self.attacker} misses {self.target} ({self.s1})"
        tags = (" critical" if self.crit else "") + (" mitigated" if self.mitigated else "")
        return f"{self.attacker} hits {self.target} ({self.s2}) on the {self.layer}{tags}"


@dataclass(frozen=True, slots=True)
class Retargeted(Event):
    attacker: str
    old: str
    new: str
    d100: int

    def __str__(self) -> str:
        return f"{self.attacker}'s missed shot at {self.old} flies on to {self.new} ({self.d100})"


@dataclass(frozen=True, slots=True)
class DamageDealt(Event):
    target: str
    amount: int
    layer: str  # armour | body | tick | vital
    to_armour: int
    to_sdc: int
    to_hp: int
    sdc: int
    hp: int

    def __str__(self) -> str:
        return (f"{self.target} takes {self.amount} ({self.layer}): armour -{self.to_armour}, "
                f"S.D.C. -{self.to_sdc}, H.P. -{self.to_hp} -> S.D.C. {self.sdc}, H.P. {self.hp}")


@dataclass(frozen=True, slots=True)
class WoundsChanged(Event):
    combatant: str
    delta: int
    total: int
    why: str

    def __str__(self) -> str:
        return f"{self.combatant} wounds {self.delta:+d} = {self.total} ({self.why})"


@dataclass(frozen=True, slots=True)
class CritRolled(Event):
    target: str
    d100: int
    result: str

    def __str__(self) -> str:
        return f"critical on {self.target}: d100 {self.d100} {self.result}"


@dataclass(frozen=True, slots=True)
class ConditionChanged(Event):
    combatant: str
    condition: str
    value: int  # stacks (0: removed)

    def __str__(self) -> str:
        return f"{self.combatant}: {self.condition} {self.value}"


@dataclass(frozen=True, slots=True)
class PoolChanged(Event):
    combatant: str
    pool: str  # stamina | morale
    delta: int
    total: int
    why: str

    def __str__(self) -> str:
        return f"{self.combatant} {self.pool} {self.delta:+d} = {self.total} ({self.why})"


@dataclass(frozen=True, slots=True)
class StateChanged(Event):
    combatant: str
    state: str  # coma | dead

    def __str__(self) -> str:
        return f"{self.combatant} is {'in a coma' if self.state == 'coma' else self.state}"


@dataclass(frozen=True, slots=True)
class CommitmentChanged(Event):
    combatant: str
    action: str
    status: str  # committed | carried | continued | resolved | fizzled | abandoned

    def __str__(self) -> str:
        return f"{self.combatant}: {self.action} {self.status}"


# ---------------------------------------------------------------------- FULL (spec §12.2)
@dataclass(frozen=True, slots=True)
class ContestRolled(Event):
    """An opposed check: Taunt/Distract vs a save, Knockdown, Affliction vs a save."""

    kind: str  # taunt | distract | knockdown | <spell id>
    actor: str
    target: str
    actor_total: int
    target_total: int
    success: bool

    def __str__(self) -> str:
        won = "succeeds" if self.success else "fails"
        return (f"{self.actor}'s {self.kind} on {self.target}: {self.actor_total} vs "
                f"{self.target_total}, {won}")


@dataclass(frozen=True, slots=True)
class Redirected(Event):
    """spec §5.2 step 1: Taunt or Distract forces an attack onto another target."""

    attacker: str
    old: str
    new: str
    why: str  # taunt | distract
    d100: int

    def __str__(self) -> str:
        return (f"{self.attacker}'s attack on {self.old} goes to {self.new} "
                f"({self.why}, {self.d100})")


@dataclass(frozen=True, slots=True)
class Fizzled(Event):
    """spec §7.3.4, R34: a Stunned combatant's ability fizzles (costs paid)."""

    combatant: str
    what: str
    d100: int

    def __str__(self) -> str:
        return f"{self.combatant}'s {self.what} fizzles (stunned, d100 {self.d100})"


@dataclass(frozen=True, slots=True)
class CostFizzled(Event):
    """spec §8.3, R33: a cost that could not be paid in full (paid as far as it went)."""

    combatant: str
    what: str
    short: str  # the costs it was short of

    def __str__(self) -> str:
        return f"{self.combatant}'s {self.what} fizzles (cannot pay {self.short})"


@dataclass(frozen=True, slots=True)
class Gained(Event):
    """spec §8.4, R41: Gain N raises the current value and the maximum."""

    combatant: str
    pool: str
    amount: int
    total: int
    maximum: int

    def __str__(self) -> str:
        return f"{self.combatant} gains {self.amount} {self.pool} -> {self.total}/{self.maximum}"


@dataclass(frozen=True, slots=True)
class SpellCast(Event):
    caster: str
    spell: str
    target: str
    ee: int  # E.E. left

    def __str__(self) -> str:
        return f"{self.caster} casts {self.spell} at {self.target} (E.E. {self.ee})"


@dataclass(frozen=True, slots=True)
class SpellRolled(Event):
    caster: str
    spell: str
    nat: int
    total: int

    def __str__(self) -> str:
        return f"{self.caster}'s spell power for {self.spell}: d20 {self.nat} = {self.total}"


@dataclass(frozen=True, slots=True)
class Healed(Event):
    target: str
    amount: int
    to_hp: int
    to_sdc: int
    hp: int
    sdc: int
    why: str

    def __str__(self) -> str:
        return (f"{self.target} restores {self.amount} ({self.why}): H.P. +{self.to_hp}, "
                f"S.D.C. +{self.to_sdc} -> H.P. {self.hp}, S.D.C. {self.sdc}")


@dataclass(frozen=True, slots=True)
class ShieldAbsorbed(Event):
    target: str
    shield: str  # ward | empowered_body
    amount: int
    left: int

    def __str__(self) -> str:
        return f"{self.target}'s {self.shield} absorbs {self.amount} ({self.left} left)"


@dataclass(frozen=True, slots=True)
class MoraleAdded(Event):
    """spec §6.3, §6.4: 1 Morale for +2 before a save (SAVE) or +1 after a roll (POST_ROLL)."""

    combatant: str
    phase: str  # save | post_roll
    bonus: int
    total: int  # the total after the bonus (the save's flat bonus for SAVE)

    def __str__(self) -> str:
        return f"{self.combatant} spends 1 Morale ({self.phase}): +{self.bonus} -> {self.total}"


@dataclass(frozen=True, slots=True)
class AmbushDetection(Event):
    combatant: str
    d100: int
    needed: int
    detected: bool

    def __str__(self) -> str:
        word = "detects" if self.detected else "misses"
        return f"{self.combatant} {word} the ambush (d100 {self.d100} vs {self.needed})"


@dataclass(frozen=True, slots=True)
class HazardApplied(Event):
    """spec §8.9: a fall, a suffocation tick, a Save vs Coma/Death, merging."""

    combatant: str
    hazard: str
    detail: str

    def __str__(self) -> str:
        return f"{self.combatant}: {self.hazard} ({self.detail})"
