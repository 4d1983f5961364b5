"""Options of a combatant and restricted play, for ``arena balance`` (docs/balance.md).

An **option** is a name for something a combatant may choose: an action family
(``family:attack``), a weapon (``weapon:greatsword``), a keyword, a reaction kind, a boost. A
system names the options an action uses through its optional registry part ``balance``
(``envs.get_balance``: ``option_keys(enc, action)`` and, optionally, ``combatant_options(enc,
cid)``); without one, ``default_option_keys`` names them from the action: ``family:<kind>``, then
``<kind> <first argument>`` when the action has a first argument that is not a number, and
``boost:<b>`` for each boost. The part may also give ``TURN_STRUCTURE``, the options that are the
turn's structure rather than a choice (``family:end_turn``: never banned, ``turn_structure_for``),
and ``RULE_CHOICES``, the accepted values of each text field of the system's ``RuleOptions``
(``rule_choices_for``, which ``arena balance rules`` plays).

``Restricted(enc, banned)`` is **restricted play**: a proxy of an encounter whose
``legal_actions()`` leaves out, for a banned combatant, every action that uses a banned option. A
ban never empties the list: when every legal action is banned the unfiltered list stays, and
``fallbacks`` counts it. ``clone()`` returns a proxy too, so the look-ahead of ``search`` respects
the ban; everything else is the encounter's own (``__getattr__``). Agents choose through it as
through any encounter.

``Tracking(agent, keys, usage, seen)`` wraps an agent: it counts the options of every action the
agent chooses (``usage[cid][option]``), and, with ``seen``, every option of the legal actions at
each decision (what a combatant had, so options never chosen show too) and which options always
went together (``alike``: every legal action that used one used the other, so banning either
removes the same actions: ``arena balance`` plays such a ban once).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["OptionKeys", "default_option_keys", "option_keys_for", "combatant_options_for",
           "turn_structure_for", "rule_choices_for",
           "Restricted", "RestrictedFight", "Tracking"]

OptionKeys = Callable[[Any, Any], tuple[str, ...]]
"""``option_keys(enc, action)``: the options an action uses"""


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def default_option_keys(enc: Any, action: Any) -> tuple[str, ...]:
    """The generic names: ``family:<kind>``, ``<kind> <arg0>`` (not a number), ``boost:<b>``."""
    keys = [f"family:{action.kind}"]
    if action.args and not _number(str(action.args[0])):
        keys.append(f"{action.kind} {action.args[0]}")
    keys += [f"boost:{b}" for b in action.boosts]
    return tuple(keys)


def option_keys_for(system: str) -> OptionKeys:
    """The system's ``option_keys`` (its ``balance`` part), else ``default_option_keys``."""
    from envs import get_balance

    part = get_balance(system)
    fn = getattr(part, "option_keys", None) if part is not None else None
    return fn if callable(fn) else default_option_keys


def turn_structure_for(system: str) -> frozenset[str]:
    """Options the system names as the turn's structure (``TURN_STRUCTURE``: ending a turn),
    which ``arena balance`` does not ban."""
    from envs import get_balance

    part = get_balance(system)
    return frozenset(getattr(part, "TURN_STRUCTURE", ()) if part is not None else ())


def rule_choices_for(system: str) -> dict[str, tuple[str, ...]]:
    """The accepted values of each text field of the system's ``RuleOptions`` (its ``balance``
    part's ``RULE_CHOICES``); ``{}`` for a system that lists none."""
    from envs import get_balance

    part = get_balance(system)
    listed = getattr(part, "RULE_CHOICES", None) if part is not None else None
    return {str(k): tuple(str(v) for v in vals) for k, vals in (listed or {}).items()}


def combatant_options_for(system: str) -> Callable[[Any, str], Iterable[str]]:
    """The system's ``combatant_options(enc, cid)``, else one that names nothing (the options
    then come from the legal actions seen in play)."""
    from envs import get_balance

    part = get_balance(system)
    fn = getattr(part, "combatant_options", None) if part is not None else None
    return fn if callable(fn) else (lambda enc, cid: ())


class Restricted:
    """An encounter in which ``banned[cid]`` options are not legal for ``cid`` (see the module
    docstring)."""

    def __init__(self, enc: Any, banned: dict[str, frozenset[str]], keys: OptionKeys,
                 counts: dict[str, int] | None = None) -> None:
        self.inner = enc
        self.banned = banned
        self.keys = keys
        self.counts = counts if counts is not None else {"fallbacks": 0, "removed": 0}

    def legal_actions(self) -> list[Any]:
        legal = self.inner.legal_actions()
        ban = self.banned.get(self.inner.current_actor())
        if not ban:
            return legal
        kept = [a for a in legal if ban.isdisjoint(self.keys(self.inner, a))]
        if not kept:
            self.counts["fallbacks"] += 1
            return legal
        self.counts["removed"] += len(legal) - len(kept)
        return kept

    def clone(self) -> Restricted:
        return Restricted(self.inner.clone(), self.banned, self.keys, {"fallbacks": 0,
                                                                        "removed": 0})

    @property
    def fallbacks(self) -> int:
        return self.counts["fallbacks"]

    def __getattr__(self, name: str) -> Any:
        if name == "inner":  # not set yet (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)


class RestrictedFight:
    """A ``Fight`` whose encounters are ``Restricted`` (``agents.episode.play`` builds it)."""

    def __init__(self, fight: Any, banned: dict[str, frozenset[str]], keys: OptionKeys) -> None:
        self.fight = fight
        self.banned = banned
        self.keys = keys
        self.built: Restricted | None = None

    @property
    def label(self) -> str:
        return str(self.fight.label)

    def record(self) -> dict[str, Any]:
        return dict(self.fight.record())

    def build(self, options: Any = None, dice: Any = None) -> Restricted:
        self.built = Restricted(self.fight.build(options, dice), self.banned, self.keys)
        return self.built


class Tracking:
    """An agent whose choices (and, with ``seen``, whose legal options) are counted by option."""

    def __init__(self, agent: Any, keys: OptionKeys, usage: dict[str, dict[str, int]],
                 seen: dict[str, set[str]] | None = None) -> None:
        self.agent = agent
        self.keys = keys
        self.usage = usage
        self.seen = seen
        self.shapes: dict[str, set[frozenset[str]]] = {}
        """with ``seen``: the distinct option sets of the legal actions, by combatant"""
        self.name = getattr(agent, "name", type(agent).__name__)

    def alike(self) -> dict[str, list[list[str]]]:
        """With ``seen``: by combatant, the options that went together in every legal action
        (every action using one used the others), as sorted groups of two or more."""
        out: dict[str, list[list[str]]] = {}
        for cid, shapes in self.shapes.items():
            member: dict[str, list[int]] = {}
            for i, shape in enumerate(sorted(shapes, key=sorted)):
                for key in shape:
                    member.setdefault(key, []).append(i)
            groups: dict[tuple[int, ...], list[str]] = {}
            for key, where in member.items():
                groups.setdefault(tuple(where), []).append(key)
            twins = sorted(sorted(g) for g in groups.values() if len(g) > 1)
            if twins:
                out[cid] = twins
        return out

    def choose(self, enc: Any) -> Any:
        actor = enc.current_actor()
        if self.seen is not None:
            have = self.seen.setdefault(actor, set())
            shapes = self.shapes.setdefault(actor, set())
            for a in enc.legal_actions():
                keys = self.keys(enc, a)
                have.update(keys)
                shapes.add(frozenset(keys))
        action = self.agent.choose(enc)
        mine = self.usage.setdefault(actor, {})
        for key in self.keys(enc, action):
            mine[key] = mine.get(key, 0) + 1
        return action
