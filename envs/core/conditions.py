"""Conditions with durations and stacking: a table of condition records and a per-combatant set.

Used by Sizebound (spec §4.8 durations, §7.1 instances and ladders, §7.2-7.3), Metaforce (spec §7.1
magnitude re-application, §7.5 Stun, §7.10 buffs) and Palladium Revised (spec §1.4.4 durations in
Seconds, §2.9 effect records, same-name rule and stacks, §7). What each spec needs, as options of
one ``ConditionDef`` (not copies):

=================  ===========================================================================
``REPLACE``        the new instance replaces the old one (Palladium §2.9: a same-name debuff
                   from another controller, or one that is not stackable)
``EXTEND``         one instance: the larger value and the later expiry (Metaforce §7.5, R-14:
                   a new Stun makes the remaining lost frames the larger of the two)
``KEEP_HIGHER``    one instance: whichever has the larger value, ties to the new one
                   (Metaforce §7.1 re-application; Palladium §2.9 buffs)
``ADD``            one instance: the values add, the later expiry (Metaforce §7.1 ``lingers``,
                   R-17)
``STACK``          each application is an instance with its own timer, up to ``max_stacks``
                   (the oldest goes first); ``refresh`` gives every stack the new timer
                   (Palladium R6: Numbing 15 stacks of 7 s, Distract refreshes); whether a new
                   instance stacks with one from the same or another source is an option
                   (Sizebound §7.1: other sources stack, the same one does not;
                   Palladium §2.9: the same controller stacks, another replaces); ``bounds``
                   clamps the summed value (Sizebound Unnerved(n): [-10, +5])
``LADDER``         Sizebound §7.1: every instance is kept; applying the effective rung again
                   adds the condition's ``escalates_to`` instead, for no longer than that one's
                   ``escalation_cap``; ``rung(ladder)`` is the highest unexpired rung
=================  ===========================================================================

Time: every condition counts its duration on one ``clock`` named by the table (``"round"``,
``"turn"``, ``"second"``, ``"frame"``, ... any name), in the engine's own absolute count on that
clock. An instance applied at ``now`` with duration ``D`` has ``expires_at = now + D`` and
``tick(clock, now)`` removes every instance of that clock with ``expires_at <= now``; the engine
calls it at the moments its spec names:

* Palladium §1.4.4/§4.6: clock ``second`` = ``t_abs``; tick at the end of every Second;
* Sizebound §4.8: "for N rounds" from turn slot ``s`` of round ``r`` ends at the start of slot ``s``
  of round ``r + N``: clock ``slot`` = ``(r - 1) * slots + s``, duration ``N * slots``, tick at
  the start of every slot; "until the end of your next turn" is clock ``turn_end`` counted per
  bearer;
* Metaforce §7.5: Stun N is clock ``frame`` (the bearer's own frames), duration N.

``duration=None`` means "until removed" (an end condition of the spec). ``to_dict``/``from_dict``
give JSON-able data for snapshots. Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from enum import Enum, IntEnum
from typing import Any

__all__ = ["Stacking", "ConditionDef", "ConditionTable", "Condition", "Applied", "ConditionSet",
           "UnknownCondition", "ladder"]


class Stacking(Enum):
    """What happens when a condition is applied to a combatant that already has it."""

    REPLACE = "replace"
    EXTEND = "extend"
    KEEP_HIGHER = "keep_higher"
    ADD = "add"
    STACK = "stack"
    LADDER = "ladder"


class UnknownCondition(KeyError):
    """A condition name that the table does not hold (the message lists the known ones)."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class ConditionDef:
    """One row of a system's condition table.

    Attributes:
        name: the rulebook's name (``"staggered"``, ``"numbing"``).
        stacking: see the module docstring.
        clock: the clock its durations are counted on.
        duration: the default duration on that clock; ``None``: until removed.
        max_stacks: STACK: the most instances at once (``None``: unlimited).
        refresh: STACK: a new stack gives every stack its expiry.
        stack_same_source: STACK: a new instance stacks with one of the same source (else it
            replaces that source's instances).
        stack_other_source: STACK: a new instance stacks with other sources' (else it replaces
            them all).
        bounds: ``(low, high)`` clamp of ``ConditionSet.value`` (``None``: no clamp).
        ladder: LADDER: the ladder it is a rung of; rung: its rung there (1 = lowest).
        escalates_to: LADDER: what applying it at the effective rung gives instead (``None``: the
            top, or a rung with no named next step: another instance of itself).
        escalation_cap: the longest duration it gets when gained by escalation.
    """

    name: str
    stacking: Stacking = Stacking.REPLACE
    clock: str = "round"
    duration: int | None = None
    max_stacks: int | None = None
    refresh: bool = False
    stack_same_source: bool = True
    stack_other_source: bool = True
    bounds: tuple[int, int] | None = None
    ladder: str | None = None
    rung: int = 0
    escalates_to: str | None = None
    escalation_cap: int | None = None

    def __post_init__(self) -> None:
        if self.stacking is Stacking.LADDER and (self.ladder is None or self.rung < 1):
            raise ValueError(f"condition {self.name!r}: a ladder rung needs a ladder and rung >= 1")


def ladder(name: str, levels: type[IntEnum], *, clock: str = "round",
           caps: Mapping[int, int] | None = None, tops: Iterable[int] = (),
           nexts: Mapping[int, str] | None = None) -> list[ConditionDef]:
    """Rung records of a ladder from an IntEnum (member values are the rungs, names the
    conditions in lower case); each rung escalates to the next one unless it is in ``tops``.

    Args:
        name: the ladder's name.
        levels: the rungs, e.g. ``class Action(IntEnum): JARRED = 1; STAGGERED = 2; ...``.
        clock: the clock of every rung.
        caps: ``{rung: escalation_cap}`` (Sizebound §7.2: Paralyzed and Unconscious, 1 round).
        tops: rungs with no named next step (Sizebound §7.1: Panicked).
        nexts: ``{rung: condition}`` escalations off the ladder (Sizebound: Disabled + Disabled
            gives Unconscious, a rung of the action ladder).

    >>> class Fear(IntEnum):
    ...     AFRAID = 1
    ...     PANICKED = 2
    >>> [(d.name, d.rung, d.escalates_to) for d in ladder("fear", Fear, tops=[2])]
    [('afraid', 1, 'panicked'), ('panicked', 2, None)]
    """
    members = sorted(levels, key=int)
    caps, nexts, stop = dict(caps or {}), dict(nexts or {}), set(tops)
    out = []
    for i, m in enumerate(members):
        up = nexts.get(int(m))
        if up is None and int(m) not in stop and i + 1 < len(members):
            up = members[i + 1].name.lower()
        out.append(ConditionDef(m.name.lower(), Stacking.LADDER, clock, ladder=name, rung=int(m),
                                escalates_to=up, escalation_cap=caps.get(int(m))))
    return out


class ConditionTable:
    """A system's condition records by name."""

    def __init__(self, defs: Iterable[ConditionDef]) -> None:
        self._defs: dict[str, ConditionDef] = {}
        for d in defs:
            if d.name in self._defs:
                raise ValueError(f"condition {d.name!r} is defined twice")
            self._defs[d.name] = d
        for d in self._defs.values():
            if d.escalates_to is not None and d.escalates_to not in self._defs:
                raise ValueError(f"condition {d.name!r} escalates to unknown {d.escalates_to!r}")

    def __getitem__(self, name: str) -> ConditionDef:
        found = self._defs.get(name)
        if found is None:
            known = ", ".join(sorted(self._defs))
            raise UnknownCondition(f"unknown condition {name!r} (known: {known})")
        return found

    def __contains__(self, name: object) -> bool:
        return name in self._defs

    def __iter__(self) -> Iterator[ConditionDef]:
        return iter(self._defs.values())

    def __len__(self) -> int:
        return len(self._defs)


@dataclass(frozen=True)
class Condition:
    """One instance on one combatant (Sizebound §7.1 ``{name, value, source, expires_at}``,
    Palladium §2.9 StackRecord)."""

    name: str
    value: int = 0
    source: str = ""
    applied_at: int = 0
    expires_at: int | None = None
    clock: str = "round"

    def to_dict(self) -> dict[str, Any]:
        """Plain data."""
        return {"name": self.name, "value": self.value, "source": self.source,
                "applied_at": self.applied_at, "expires_at": self.expires_at, "clock": self.clock}


@dataclass(frozen=True)
class Applied:
    """What one ``add`` did: the instances it added and those it removed (for events).

    ``asked`` is the condition applied; ``escalated`` says a ladder gave another one instead.
    """

    added: tuple[Condition, ...] = ()
    removed: tuple[Condition, ...] = ()
    asked: str = ""

    @property
    def escalated(self) -> bool:
        """It added a condition other than the one applied (a ladder step up)."""
        return any(c.name != self.asked for c in self.added)


def _later(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else max(a, b)


class ConditionSet:
    """The conditions on one combatant: add (with the table's stacking rules), tick, remove.

    >>> table = ConditionTable([ConditionDef("numbing", Stacking.STACK, "second", 7, max_stacks=2)])
    >>> s = ConditionSet(table)
    >>> for t in (1, 2, 3):
    ...     _ = s.add("numbing", now=t)
    >>> [c.applied_at for c in s], [c.applied_at for c in s.tick("second", 9)]
    ([2, 3], [2])
    """

    __slots__ = ("table", "_items", "_names", "_rungs")

    def __init__(self, table: ConditionTable, items: Iterable[Condition] = ()) -> None:
        self.table = table
        self._items: list[Condition] = list(items)
        self._names: frozenset[str] | None = None  # the index, built on the first read
        self._rungs: dict[str, int] = {}

    def _index(self) -> frozenset[str]:
        """The names present and each ladder's highest rung, rebuilt after a change (engines
        ask "is it Prone?" many times per decision between two changes)."""
        rungs: dict[str, int] = {}
        for c in self._items:
            d = self.table[c.name]
            if d.ladder is not None and d.rung > rungs.get(d.ladder, 0):
                rungs[d.ladder] = d.rung
        self._rungs = rungs
        self._names = names = frozenset(c.name for c in self._items)
        return names

    def _set(self, items: list[Condition]) -> None:
        self._items, self._names = items, None

    def __iter__(self) -> Iterator[Condition]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, name: object) -> bool:
        names = self._names
        if names is None:
            if not self._items:
                return False
            names = self._index()
        return name in names

    def names(self) -> frozenset[str]:
        """The names present (read-only; the index ``__contains__`` reads)."""
        if not self._items:
            return frozenset()
        return self._names or self._index()

    def any_of(self, names: frozenset[str]) -> bool:
        """Is any of ``names`` present?"""
        if not self._items:
            return False
        return not (self._names or self._index()).isdisjoint(names)

    def copy(self) -> ConditionSet:
        """An independent copy (instances are frozen, so a shallow copy is enough; the index,
        read-only, is shared)."""
        new = ConditionSet(self.table, self._items)
        new._names, new._rungs = self._names, self._rungs
        return new

    def instances(self, name: str) -> list[Condition]:
        """The instances of ``name``, oldest first."""
        return [c for c in self._items if c.name == name]

    def stacks(self, name: str) -> int:
        """How many instances of ``name`` are active."""
        return sum(c.name == name for c in self._items)

    def value(self, name: str) -> int:
        """The summed value of ``name``'s instances, clamped to its ``bounds``."""
        total = sum(c.value for c in self._items if c.name == name)
        bounds = self.table[name].bounds
        return total if bounds is None else min(max(total, bounds[0]), bounds[1])

    def rung(self, ladder_name: str) -> int:
        """The effective rung of a ladder: its highest unexpired rung, 0 if none."""
        if not self._items:
            return 0
        if self._names is None:
            self._index()
        return self._rungs.get(ladder_name, 0)

    def add(self, name: str, *, now: int = 0, duration: int | None = None,
            value: int = 0, source: str = "", forever: bool = False,
            escalate: bool = True) -> Applied:
        """Apply ``name`` at time ``now`` (on its clock) and return what changed.

        Args:
            name: a condition of the table.
            now: the current time on the condition's clock.
            duration: overrides the table's duration; ``forever=True`` means "until removed".
            value: its magnitude or ``n`` (Unnerved(n), Stun N, a Metaforce magnitude).
            source: who applied it (Palladium's controller, Sizebound's source).
            escalate: ``False`` stores a ladder rung as it is, without escalating (a rule
                outside the instances holds the effective rung higher: Sizebound's HP Stun).
        """
        d = self.table[name]
        dur = None if forever else (d.duration if duration is None else duration)
        new = Condition(name, value, source, now, None if dur is None else now + dur, d.clock)
        if not escalate and d.stacking is Stacking.LADDER:
            self._set(self._items + [new])
            return Applied((new,), asked=name)
        return replace(self._apply(d, new, now, dur), asked=name)

    def _apply(self, d: ConditionDef, new: Condition, now: int, dur: int | None) -> Applied:
        if d.stacking is Stacking.LADDER:
            return self._ladder(d, new, now, dur)
        old = self.instances(d.name)
        if not old or d.stacking is Stacking.REPLACE:
            return self._swap(old, [new])
        if d.stacking is Stacking.STACK:
            return self._stack(d, old, new)
        head = old[0]
        if d.stacking is Stacking.KEEP_HIGHER:
            return Applied() if head.value > new.value else self._swap(old, [new])
        total = max(head.value, new.value) if d.stacking is Stacking.EXTEND \
            else head.value + new.value  # ADD
        kept = replace(head, value=total, expires_at=_later(head.expires_at, new.expires_at))
        return self._swap(old, [kept])

    def _swap(self, old: list[Condition], new: list[Condition]) -> Applied:
        gone = {id(c) for c in old}
        self._set([c for c in self._items if id(c) not in gone] + new)
        return Applied(tuple(new), tuple(old))

    def _stack(self, d: ConditionDef, old: list[Condition], new: Condition) -> Applied:
        drop = [c for c in old if not (d.stack_same_source if c.source == new.source
                                       else d.stack_other_source)]
        keep = [c for c in old if all(c is not x for x in drop)]
        if d.max_stacks is not None and len(keep) + 1 > d.max_stacks:  # the oldest go first
            over = len(keep) + 1 - d.max_stacks
            drop, keep = drop + keep[:over], keep[over:]
        fresh: list[Condition] = []
        if d.refresh:
            fresh = [replace(c, expires_at=new.expires_at) for c in keep]
            drop += keep
        return self._swap(drop, fresh + [new])

    def _ladder(self, d: ConditionDef, new: Condition, now: int, dur: int | None) -> Applied:
        assert d.ladder is not None
        if self.rung(d.ladder) == d.rung and d.escalates_to is not None:
            up = self.table[d.escalates_to]
            # the cap is of a step within the target's own ladder (Sizebound §7.2: Unconscious
            # "1 round when gained by action-ladder escalation; otherwise the source's
            # duration"): a step in from another ladder (``nexts``) takes the new one's duration
            cap = up.escalation_cap if up.ladder == d.ladder else None
            longest = dur if cap is None else (cap if dur is None else min(dur, cap))
            step = Condition(up.name, new.value, new.source, now,
                             None if longest is None else now + longest, up.clock)
            return self._apply(up, step, now, longest)
        self._set(self._items + [new])
        return Applied((new,))

    def remove(self, name: str, source: str | None = None) -> tuple[Condition, ...]:
        """End every instance of ``name`` (only ``source``'s when given); return them."""
        gone = tuple(c for c in self._items
                     if c.name == name and (source is None or c.source == source))
        if gone:
            self._set([c for c in self._items if all(c is not g for g in gone)])
        return gone

    def clear(self) -> tuple[Condition, ...]:
        """End everything (Palladium §2.9: on death every effect is dispelled)."""
        gone = tuple(self._items)
        self._set([])
        return gone

    def tick(self, clock: str, now: int) -> tuple[Condition, ...]:
        """Expire the instances on ``clock`` with ``expires_at <= now``; return them (oldest
        first)."""
        gone = tuple(c for c in self._items
                     if c.clock == clock and c.expires_at is not None and c.expires_at <= now)
        if gone:
            self._set([c for c in self._items
                       if not (c.clock == clock and c.expires_at is not None
                               and c.expires_at <= now)])
        return gone

    def to_dict(self) -> list[dict[str, Any]]:
        """Plain JSON-able data, oldest first."""
        return [c.to_dict() for c in self._items]

    @classmethod
    def from_dict(cls, data: Iterable[Mapping[str, Any]], table: ConditionTable) -> ConditionSet:
        """The inverse of ``to_dict`` (names are checked against ``table``)."""
        items = []
        for row in data:
            d = table[str(row["name"])]
            exp = row.get("expires_at")
            items.append(Condition(d.name, int(row.get("value", 0)), str(row.get("source", "")),
                                   int(row.get("applied_at", 0)), None if exp is None else int(exp),
                                   str(row.get("clock", d.clock))))
        return cls(table, items)
