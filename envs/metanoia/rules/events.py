"""Metanoia events (spec §5, §7): frozen, self-describing values returned by ``apply``."""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.events import Event


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    """spec §3.3, RULING R24."""

    rolls: tuple[tuple[str, tuple[int, ...], int], ...]  # (id, faces, successes)
    order: tuple[str, ...]

    def __str__(self) -> str:
        rolls = ", ".join(f"{c} {list(f)}={s}" for c, f, s in self.rolls)
        return f"initiative: {rolls} -> order {' > '.join(self.order)}"


@dataclass(frozen=True, slots=True)
class Paid(Event):
    """Costs paid at declaration (RULING R8, R10): Strain, and stacks taken from ``stacks_from``."""

    combatant: str
    strain: int
    stacks: int = 0
    stacks_from: str | None = None
    what: str = ""

    def __str__(self) -> str:
        parts = []
        if self.strain:
            parts.append(f"{self.strain} Strain")
        if self.stacks:
            parts.append(f"{self.stacks} stack{'s' * (self.stacks != 1)} from {self.stacks_from}")
        tail = f" ({self.what})" if self.what else ""
        return f"{self.combatant} pays {' and '.join(parts)}{tail}"


@dataclass(frozen=True, slots=True)
class PoolRolled(Event):
    """One pool rolled (spec §2.2, §2.3)."""

    roller: str
    purpose: str
    texture: str
    faces: tuple[int, ...]
    successes: int
    pool_parts: str = ""

    def __str__(self) -> str:
        parts = f" ({self.pool_parts})" if self.pool_parts else ""
        return (f"{self.roller} rolls {len(self.faces)}d6{parts} for {self.purpose}: "
                f"{list(self.faces)} "
                f"{self.texture} -> {self.successes} success{'es' * (self.successes != 1)}")


@dataclass(frozen=True, slots=True)
class OpposedResolved(Event):
    """The result of an opposed roll (spec §5.2 steps 5-8, §5.4, §5.5)."""

    actor: str
    reactor: str
    actor_successes: int
    reactor_successes: int
    winner: str
    margin: int
    how: str  # roll | tie | rule0

    def __str__(self) -> str:
        if self.how == "rule0":
            return (f"{self.winner} wins automatically "
                    "(Realm Rule 0: two or more Realms apart, no dice)")
        if self.how == "tie":
            return (f"tie {self.actor_successes}-{self.reactor_successes}: "
                    f"{self.winner} wins the tie")
        hi = max(self.actor_successes, self.reactor_successes)
        lo = min(self.actor_successes, self.reactor_successes)
        return f"{self.winner} wins {hi}-{lo}, margin {self.margin}"


@dataclass(frozen=True, slots=True)
class StacksChanged(Event):
    combatant: str
    delta: int
    total: int
    why: str = ""

    def __str__(self) -> str:
        verb = "gains" if self.delta > 0 else "loses"
        n = abs(self.delta)
        tail = f" [{self.why}]" if self.why else ""
        return f"{self.combatant} {verb} {n} stack{'s' * (n != 1)} (now {self.total}){tail}"


@dataclass(frozen=True, slots=True)
class InjuryLanded(Event):
    """spec §5.6 Injury row, RULING R16/R17."""

    target: str
    keyword: str
    severity: int
    slots: int
    filled: int
    of: int

    def __str__(self) -> str:
        return (f"{self.target} takes [{self.keyword.capitalize()} {self.severity}] "
                "as an Injury in "
                f"{self.slots} slot{'s' * (self.slots != 1)} ({self.filled}/{self.of} filled)")


@dataclass(frozen=True, slots=True)
class NothingLands(Event):
    """RULING R13: a final rank of 0 lands nothing."""

    target: str
    keyword: str
    why: str

    def __str__(self) -> str:
        return f"[{self.keyword.capitalize()}] lands nothing on {self.target} ({self.why})"


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    """A status gained, changed or removed (rank 0) (spec §7.1)."""

    combatant: str
    status: str
    rank: int
    why: str = ""

    def __str__(self) -> str:
        tail = f" [{self.why}]" if self.why else ""
        if self.rank <= 0:
            return f"{self.combatant} loses [{self.status.capitalize()}]{tail}"
        return f"{self.combatant} has [{self.status.capitalize()} {self.rank}]{tail}"


@dataclass(frozen=True, slots=True)
class ConvictionsChanged(Event):
    combatant: str
    delta: int
    total: int

    def __str__(self) -> str:
        verb = "loses" if self.delta < 0 else "regains"
        n = abs(self.delta)
        return f"{self.combatant} {verb} {n} Conviction{'s' * (n != 1)} (now {self.total})"


@dataclass(frozen=True, slots=True)
class StrainChanged(Event):
    combatant: str
    delta: int
    total: int
    why: str = ""

    def __str__(self) -> str:
        verb = "regains" if self.delta >= 0 else "loses"
        tail = f" [{self.why}]" if self.why else ""
        return f"{self.combatant} {verb} {abs(self.delta)} Strain (now {self.total}){tail}"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    combatant: str
    frm: int
    to: int

    def __str__(self) -> str:
        return f"{self.combatant} moves from zone {self.frm} to zone {self.to}"


@dataclass(frozen=True, slots=True)
class Stayed(Event):
    combatant: str
    why: str

    def __str__(self) -> str:
        return f"{self.combatant} stays put ({self.why})"


@dataclass(frozen=True, slots=True)
class Healed(Event):
    """[Mend] on one Injury slot (spec §5.3 #9, RULING R33)."""

    target: str
    keyword: str
    before: int
    after: int

    def __str__(self) -> str:
        if self.after <= 0:
            return (f"{self.target}'s [{self.keyword.capitalize()} {self.before}] Injury is healed "
                    "(slot emptied)")
        return (f"{self.target}'s [{self.keyword.capitalize()}] Injury drops from {self.before} "
                f"to {self.after}")


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    combatant: str
    why: str

    def __str__(self) -> str:
        return f"{self.combatant} is revealed ({self.why})"


@dataclass(frozen=True, slots=True)
class CheckResult(Event):
    """An unopposed roll against a rank (Sense, hazards: spec §5.10, §5.15)."""

    roller: str
    purpose: str
    successes: int
    rank: int
    passed: bool

    def __str__(self) -> str:
        verdict = "succeeds" if self.passed else "fails"
        return f"{self.roller} {verdict} at {self.purpose} ({self.successes} vs rank {self.rank})"
