"""Interruptible procedures, for any system whose actions stop mid-way for an off-turn decision
(Sizebound's reaction and exertion windows, Metaforce's interrupts): an action's resolution is
straight-line code that asks for those decisions with ``Ctx.ask``.

When a decision is needed and not yet made, ``ask`` raises ``NeedDecision``: the encounter
stops there, with the asked creature as ``current_actor()``. When the decision comes, the
encounter restores the state from before the action and runs the procedure again from the start
with the same dice faces (``ReplayDice``) and the decisions made so far, so every procedure
stays plain code (OpenSpiel style: a window is a state whose current actor is the decider).
Only the events after the ones already reported are new.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envs.core.actions import Action
from envs.core.dice import Dice

__all__ = ["NeedDecision", "Window", "ReplayDice", "Ctx"]


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
