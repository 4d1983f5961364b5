"""Actions with canonical text labels (DESIGN.md, "The rules API").

An ``Action`` is a frozen value. Its ``label`` is the canonical text, like a chess move in UCI::

    duelist: attack deteriorating+rot_blade -> warden +motive+identity
    <actor>: <kind> [<arg> ...] [-> <target>] [+<boost>[+<boost>...]]

``parse_label`` is the exact inverse of ``Action.label`` for every system.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Action", "IllegalActionError", "ActionSyntaxError", "parse_label", "shared_action",
           "parsed_label"]


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (rules never substitute another)."""


class ActionSyntaxError(IllegalActionError):
    """A label that cannot be read as an action."""


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one combatant.

    Attributes:
        actor: id of the combatant deciding.
        kind: what it does (system vocabulary: ``attack``, ``move``, ``react``, ...).
        args: further words of the choice (option, zone, yes/no), in label order.
        target: id of the combatant aimed at, if any.
        boosts: optional extras bought for the roll (e.g. Metanoia's ``motive``/``identity``).
    """

    actor: str
    kind: str
    args: tuple[str, ...] = ()
    target: str | None = None
    boosts: tuple[str, ...] = ()
    _label: str = field(default="", init=False, repr=False, compare=False)
    """the label once built (an Action is immutable: built on the first read)"""

    @property
    def label(self) -> str:
        text = self._label
        if text:
            return text
        text = f"{self.actor}: {self.kind}"
        if self.args:
            text += " " + " ".join(self.args)
        if self.target is not None:
            text += " -> " + self.target
        if self.boosts:
            text += " +" + "+".join(self.boosts)
        object.__setattr__(self, "_label", text)
        return text

    def __str__(self) -> str:
        return self.label


def parse_label(label: str) -> Action:
    """Read a canonical label back into an ``Action`` (inverse of ``Action.label``)."""
    if not isinstance(label, str):
        raise ActionSyntaxError(f"action label must be text, got {type(label).__name__}")
    head, sep, rest = label.strip().partition(":")
    actor = head.strip()
    words = rest.split()
    if not sep or not actor or " " in actor or not words:
        raise ActionSyntaxError(f"cannot read action {label!r}: expected '<actor>: <kind> ...'")
    kind, words = words[0], words[1:]
    boosts: tuple[str, ...] = ()
    if words and words[-1].startswith("+"):
        boosts = tuple(b for b in words[-1][1:].split("+"))
        if not all(boosts):
            raise ActionSyntaxError(f"cannot read action {label!r}: empty boost in {words[-1]!r}")
        words = words[:-1]
    target = None
    if "->" in words:
        i = words.index("->")
        if i != len(words) - 2:
            raise ActionSyntaxError(
                f"cannot read action {label!r}: '->' must be followed by one target")
        target, words = words[-1], words[:i]
    return Action(actor, kind, tuple(words), target, boosts)


_SHARED: dict[tuple[str, str, tuple[str, ...], str | None], Action] = {}


def shared_action(actor: str, kind: str, args: tuple[str, ...] = (), target: str | None = None
                  ) -> Action:
    """``Action(actor, kind, args, target)``, one shared object per value (an ``Action`` is
    frozen, and keeps its label once built): legal-action builders offer the same few hundred
    actions decision after decision, so each is built once."""
    key = (actor, kind, args, target)
    found = _SHARED.get(key)
    if found is None:
        if len(_SHARED) > 50_000:
            _SHARED.clear()
        found = _SHARED[key] = Action(actor, kind, args, target)
    return found


_PARSED: dict[str, Action] = {}


def parsed_label(label: str) -> Action:
    """``parse_label(label)``, read once per distinct label (an engine reads its own labels back
    at every decision; errors are not remembered)."""
    if not isinstance(label, str):
        return parse_label(label)  # its message for a label that is not text
    found = _PARSED.get(label)
    if found is None:
        if len(_PARSED) > 50_000:
            _PARSED.clear()
        found = _PARSED[label] = parse_label(label)
    return found
