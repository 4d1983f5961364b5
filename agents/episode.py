"""Play one seeded episode at the rules level and return a record (STYLE C17).

``play(system, encounter, agents_by_side, seed)``: dice come from ``SeededDice(seed)``, so two
matches with the same seed see the same dice stream; tournaments pair seeds and swap sides.
``encounter`` is an encounter name or a fight (``eval.fights.Fight``: anything with
``build(options, dice) -> Encounter``, a ``label`` and ``record()``); the record of a fight from a
situation file keeps the file's source and text (``situation``), so a replay needs no file.
``encounter_sides(system, encounter, rules)``: the side ids of an encounter, read from
``enc.sides()`` (shared code never writes side names). Used by ``eval`` (match, tournaments, GM
tools) and by training's evaluation (``agents.training``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from envs import get_rules
from envs.core import SeededDice


@dataclass
class EpisodeRecord:
    system: str
    encounter: str
    options: Any
    seed: int
    agents: dict[str, str]
    winner: str | None
    reason: str
    rounds: int
    actions: list[str] = field(default_factory=list)
    usage: dict[str, dict[str, int]] = field(default_factory=dict)
    """per side: action kind -> how many times that side chose it"""
    situation: dict[str, str] | None = None
    """a fight from a file: ``{"source", "yaml"}`` (``None``: a named encounter)"""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


Check = Callable[[Any, str], None]
"""``check(enc, stage)``, with ``stage`` one of ``start`` (the encounter is built), ``decide``
(before each choice), ``applied`` (after each ``apply``) and ``end``; it raises to stop the game
(``arena soak`` and ``arena watch --check`` check the invariants this way)."""


def build_encounter(system: str, encounter: Any, options: Any, dice: Any) -> Any:
    """The encounter a game starts from: a name of ``system``'s data, or ``fight.build``."""
    if isinstance(encounter, str):
        return get_rules(system).new_encounter(encounter, options, dice)
    return encounter.build(options, dice)


def play(
    system: str,
    encounter: Any,
    agents_by_side: dict[str, Any],
    seed: int,
    options: Any = None,
    names: dict[str, str] | None = None,
    log: list[str] | None = None,
    check: Check | None = None,
) -> EpisodeRecord:
    """Play a fight to the end; ``agents_by_side`` maps side id -> agent with ``choose(enc)``."""
    dice = SeededDice(seed)
    enc = build_encounter(system, encounter, options, dice)
    if log is not None:
        log.extend(str(e) for e in getattr(enc, "start_events", []))  # set-up rolls, if any
    if check is not None:
        check(enc, "start")
    actions = []
    usage: dict[str, dict[str, int]] = {side: {} for side in agents_by_side}
    while not enc.is_over():
        if check is not None:
            check(enc, "decide")
        actor = enc.current_actor()
        side = enc.side_of(actor)
        action = agents_by_side[side].choose(enc)
        events = enc.apply(action, dice)
        actions.append(action.label)
        usage[side][action.kind] = usage[side].get(action.kind, 0) + 1
        if log is not None:
            log.extend(str(e) for e in events)
        if check is not None:
            check(enc, "applied")
    if check is not None:
        check(enc, "end")
    out = enc.outcome()
    names = names or {s: getattr(a, "name", type(a).__name__) for s, a in agents_by_side.items()}
    kept = None if isinstance(encounter, str) else encounter.record().get("situation")
    return EpisodeRecord(
        system,
        encounter if isinstance(encounter, str) else encounter.label,
        options if isinstance(options, str | None) else str(options),
        seed,
        names,
        out.winner,
        out.reason,
        out.round,
        actions,
        usage,
        kept,
    )


def encounter_sides(system: str, encounter: Any, rules: Any = None) -> tuple[str, str]:
    """The two side ids of an encounter (a name or a fight), in order (``ValueError`` for another
    number of sides)."""
    R = get_rules(system)
    opts = None if rules is None and not isinstance(encounter, str) else R.parse_options(rules)
    enc = build_encounter(system, encounter, opts, SeededDice(0))
    sides = tuple(info.side for info in enc.sides())
    if len(sides) != 2:
        label = encounter if isinstance(encounter, str) else encounter.label
        raise ValueError(f"{system}/{label} has {len(sides)} sides; a match needs two")
    return sides[0], sides[1]
