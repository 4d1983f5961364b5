"""Interruptible procedures, for any system whose actions stop mid-way for an off-turn decision
(Sizebound's reaction and exertion windows, Metaforce's interrupts): an action's resolution is
straight-line code that asks for those decisions with ``Ctx.ask``.

When a decision is needed and not yet made, ``ask`` raises ``NeedDecision``: the encounter
stops there, with the asked creature as ``current_actor()``. When the decision comes, the
encounter restores the state from before the action and runs the procedure again from the start
with the same dice faces (``ReplayDice``) and the decisions made so far, so every procedure
stays plain code (OpenSpiel style: a window is a state whose current actor is the decider).
Only the events after the ones already reported are new. ``Procedure`` holds what a replay
needs and ``run_procedure`` does the bookkeeping, for every system built this way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from envs.core.actions import Action
from envs.core.dice import Dice
from envs.core.events import Event

__all__ = ["NeedDecision", "Window", "ReplayDice", "Ctx", "Procedure", "run_procedure"]


@dataclass(frozen=True, slots=True)
class Window:
    """One pending off-turn decision: who, which window, the legal labels, and what it is about
    (attacker, target, the totals at stake) for views and agents."""

    actor: str
    kind: str  # the system's window name (Sizebound: declare, parry, dodge, block, ...)
    labels: tuple[str, ...]
    info: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"actor": self.actor, "kind": self.kind, "labels": list(self.labels),
                "info": {k: v for k, v in self.info}}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Window:
        return cls(d["actor"], d["kind"], tuple(d["labels"]), tuple(d["info"].items()))


class NeedDecision(Exception):
    def __init__(self, window: Window) -> None:
        super().__init__(window.kind)
        self.window = window


class ReplayDice:
    """Hands out the recorded faces first (checking the die), then draws from ``live`` and
    records what it drew."""

    def __init__(self, record: list[list[int]], live: Dice | None) -> None:
        self.record = record  # [sides, face, face...] per request
        self.live = live
        self.pos = 0

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        if self.pos < len(self.record):
            rec = self.record[self.pos]
            self.pos += 1
            assert rec[0] == sides and len(rec) == count + 1, f"replay drew d{sides} x{count}"
            return tuple(rec[1:])
        assert self.live is not None, "a replayed procedure asked for new dice"
        faces = tuple(self.live.roll(sides, count))
        self.record.append([sides, *faces])
        self.pos += 1
        return faces


class Ctx:
    """One run of a procedure: its dice and the decisions made so far."""

    def __init__(self, dice: ReplayDice, choices: list[str]) -> None:
        self.dice = dice
        self.choices = choices
        self.asked = 0

    def ask(self, actor: str, kind: str, options: list[Action],
            info: dict[str, Any] | None = None) -> Action:
        """The decision of ``actor`` among ``options`` (the last is always ``pass``)."""
        i = self.asked
        self.asked += 1
        if i < len(self.choices):
            for a in options:
                if a.label == self.choices[i]:
                    return a
            raise AssertionError(f"replayed choice {self.choices[i]!r} is no longer offered")
        raise NeedDecision(Window(actor, kind, tuple(a.label for a in options),
                                  tuple((info or {}).items())))


class Procedure:
    """An action's procedure in progress: its label (``""`` for the clock's run to the first
    decision), the state from before it (``base``), the dice faces drawn and the decisions made
    so far, and how many of its events were already handed out."""

    __slots__ = ("label", "base", "faces", "choices", "emitted")

    def __init__(self, label: str, base: Any, faces: list[list[int]] | None = None,
                 choices: list[str] | None = None, emitted: int = 0) -> None:
        self.label = label
        self.base = base
        self.faces: list[list[int]] = faces if faces is not None else []
        self.choices: list[str] = choices if choices is not None else []
        self.emitted = emitted

    def clone(self) -> Procedure:
        """A copy that records on its own (``base`` is never changed, so it is shared)."""
        return Procedure(self.label, self.base, [list(x) for x in self.faces],
                         list(self.choices), self.emitted)

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "base": self.base.snapshot(),
                "faces": [list(x) for x in self.faces], "choices": list(self.choices),
                "emitted": self.emitted}

    @classmethod
    def from_dict(cls, d: dict[str, Any], load_base: Callable[[dict[str, Any]], Any]) -> Procedure:
        return cls(d["label"], load_base(d["base"]), [list(x) for x in d["faces"]],
                   list(d["choices"]), d["emitted"])


class Replayable(Protocol):
    """What ``run_procedure`` needs of an encounter."""

    proc: Procedure | None
    window: Window | None

    def _copy(self) -> Any: ...

    def _restore(self, base: Any) -> None: ...

    def is_over(self) -> bool: ...


def run_procedure(enc: Replayable, label: str, dice: Dice | None,
                  body: Callable[[Ctx, list[Event], str], None]) -> list[Event]:
    """Run (or replay, with the decision ``label`` added) the procedure in progress and return
    its new events.

    With no procedure in progress, one starts for the action ``label`` from the state as it is.
    Otherwise ``label`` is the decision that the open window asked for: the state goes back to
    the procedure's base and ``body`` runs again from the start with the same faces and every
    decision so far. ``body(ctx, events, action_label)`` is the system's straight-line
    resolution; when it asks for a decision not yet made (``NeedDecision``) the encounter waits
    in that window, unless the fight ended on the way (then the procedure is over).
    """
    if enc.proc is None:
        enc.proc = Procedure(label, enc._copy())
    else:
        enc.proc.choices.append(label)
        enc._restore(enc.proc.base)  # keeps ``enc.proc``
    proc = enc.proc
    ev: list[Event] = []
    ctx = Ctx(ReplayDice(proc.faces, dice), proc.choices)
    enc.window = None
    try:
        body(ctx, ev, proc.label)
    except NeedDecision as nd:
        if not enc.is_over():
            enc.window = nd.window
            enc.proc = proc
            out = ev[proc.emitted:]
            proc.emitted = len(ev)
            return out
    enc.proc = None
    return ev[proc.emitted:]
