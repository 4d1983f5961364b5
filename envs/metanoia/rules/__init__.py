"""Metanoia rules engine (spec rules/metanoia.md): opposed d6 pools, keywords, Realms, three zones.

The combat loop (spec §1.2): initiative once; each round every active combatant takes one turn
and one action (Engage, Mark, Move, Hide, Sense, Recover; Guard and Withdraw in the full rules);
hostile Engages, Marks and challenged Moves are opposed rolls in which the target decides its
reaction off-turn. Injuries fill slots, Argues remove Convictions, margins become stacks. A side
with no active combatant loses; round 30 ends in a draw.

Public surface: ``new_encounter``, ``from_situation``, ``MetanoiaEncounter``, ``RuleOptions``,
``CORE``, ``FULL``, ``ENCOUNTERS``; situations are read in ``situation.py``.
"""

from __future__ import annotations

from typing import Any

from envs.core.data import DataError
from envs.core.dice import Dice

from .catalogue import SIDES, catalogue, encounters, stat_blocks
from .options import CORE, FULL, RuleOptions, parse_options
from .situation import default_zone, from_situation
from .state import SYSTEM, Fighter, MetanoiaEncounter

__all__ = [
    "SYSTEM", "CORE", "FULL", "RuleOptions", "parse_options", "MetanoiaEncounter", "Fighter",
    "new_encounter", "from_situation", "encounter_names", "stat_blocks", "encounters", "catalogue",
    "default_zone",
]


def encounter_names() -> list[str]:
    return list(encounters())


def new_encounter(
    encounter: str, options: Any = None, dice: Dice | None = None
) -> MetanoiaEncounter:
    """A fresh fight of a named encounter (spec §13.3); rolls initiative with ``dice``."""
    encs = encounters()
    if encounter not in encs:
        raise DataError(f"metanoia: unknown encounter {encounter!r}; known: {', '.join(encs)}")
    opts = parse_options(options)
    d = encs[encounter]
    fighters = []
    for side in SIDES:
        for slot, p in enumerate(d.sides[side]):
            zone = p.zone if p.zone is not None else default_zone(p.block, side, opts.zones)
            fighters.append(Fighter(p.id, p.block, side, slot, min(zone, opts.zones - 1)))
    enc = MetanoiaEncounter(fighters, opts, [f.id for f in fighters], hazards=d.hazards,
                            surprised=d.surprised, name=encounter)
    if dice is None:
        raise ValueError("new_encounter needs dice to roll initiative")
    enc.begin(dice, roll_initiative=True)
    return enc
