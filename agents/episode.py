"""Play one seeded episode at the rules level and return a record (STYLE C17).

``play(system, encounter, agents_by_side, seed)``: dice come from ``SeededDice(seed)``, so two
matches with the same seed see the same dice stream; tournaments pair seeds and swap sides.
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


Check = Callable[[Any, str], None]
"""``check(enc, stage)``, with ``stage`` one of ``start`` (the encounter is built), ``decide``
(before each choice), ``applied`` (after each ``apply``) and ``end``; it raises to stop the game
(``arena soak`` and ``arena watch --check`` check the invariants this way)."""


def play(
    system: str,
    encounter: str,
    agents_by_side: dict[str, Any],
    seed: int,
    options: Any = None,
    names: dict[str, str] | None = None,
    log: list[str] | None = None,
    check: Check | None = None,
) -> EpisodeRecord:
    """Play a fight to the end; ``agents_by_side`` maps side id -> agent with ``choose(enc)``."""
    rules = get_rules(system)
    dice = SeededDice(seed)
    enc = rules.new_encounter(encounter, options, dice)
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
    return EpisodeRecord(
        system,
        encounter,
        options if isinstance(options, str | None) else str(options),
        seed,
        names,
        out.winner,
        out.reason,
        out.round,
        actions,
        usage,
    )


def encounter_sides(system: str, encounter: str, rules: Any = None) -> tuple[str, str]:
    """The two side ids of an encounter, in order (``ValueError`` for another number of sides)."""
    R = get_rules(system)
    enc = R.new_encounter(encounter, R.parse_options(rules), SeededDice(0))
    sides = tuple(info.side for info in enc.sides())
    if len(sides) != 2:
        raise ValueError(f"{system}/{encounter} has {len(sides)} sides; a match needs two")
    return sides[0], sides[1]
