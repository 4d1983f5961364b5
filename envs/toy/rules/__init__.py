"""Toy rules engine ("race to 3 points" with a reaction phase), pure Python: no RL library.

The toy system, in full:

* Two sides of 1 or 2 combatants each (``heroes`` and ``monsters`` in the named encounters),
  2 hit points each. Initiative: one d6 per side at the start, higher side first (ties: the
  first side); turns then alternate sides in roster order.
* On its turn a combatant may ``pass``, ``score`` (d6 >= 4: +1 point) or ``attack -> enemy``.
* An attack opens a reaction: the defender decides ``react none`` or ``react block`` (costs 1
  point, legal only with a point, and only under FULL rules). Then the attacker rolls d6 (>= 3
  hits); a blocking defender rolls d6 (>= 4 cancels the hit). A hit costs 1 hit point; at 0 the
  defender is out of the fight.
* A side wins when one of its combatants reaches 3 points (``race``) or every enemy is out
  (``defeat``); after ``round_limit`` rounds the fight is a draw (``round_cap``).

Public surface (``envs.RulesModule``): ``SYSTEM``, ``encounter_names``, ``new_encounter``,
``from_situation``, ``parse_options``, ``stat_blocks``; plus ``RaceEncounter`` and ``ToyOptions``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envs.core import Dice
from envs.core.data import DataError

from .state import CORE, DUEL, FULL, TWO_VS_TWO, RaceEncounter, Rolled, Scored, ToyOptions, Wounded

SYSTEM = "toy"

ENCOUNTERS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "duel": (("heroes", ("ann",)), ("monsters", ("bob",))),
    "skirmish": (("heroes", ("ann", "amy")), ("monsters", ("bob", "ben"))),
}
"""The named encounters: ``(side, members)`` in side order."""

STAT_BLOCKS: dict[str, dict[str, int]] = {"combatant": {"hp": 2, "target": 3}}
"""The toy's one stat block: every combatant has 2 hit points and races to 3 points."""


def encounter_names() -> list[str]:
    return list(ENCOUNTERS)


def stat_blocks() -> dict[str, Any]:
    return dict(STAT_BLOCKS)


def parse_options(value: Any) -> ToyOptions:
    """``core`` (no block), ``full`` or ``None`` (FULL), a ``ToyOptions``, or a mapping of its
    fields (``{"round_limit": 10}``) on top of FULL."""
    if value is None:
        return FULL
    if isinstance(value, ToyOptions):
        return value
    if isinstance(value, str):
        named = {"core": CORE, "full": FULL}
        if value not in named:
            raise ValueError(f"unknown toy rules {value!r}; known: core, full")
        return named[value]
    if isinstance(value, Mapping):
        unknown = sorted(set(value) - {"round_limit", "blocks"})
        if unknown:
            raise ValueError(f"unknown toy option {unknown[0]!r}; known: round_limit, blocks")
        return ToyOptions(
            int(value.get("round_limit", FULL.round_limit)), bool(value.get("blocks", FULL.blocks))
        )
    raise TypeError(
        f"toy options must be a name, a mapping or ToyOptions, not {type(value).__name__}"
    )


def new_encounter(encounter: str, options: Any = None, dice: Dice | None = None) -> RaceEncounter:
    if encounter not in ENCOUNTERS:
        raise ValueError(f"unknown toy encounter {encounter!r}; known: {', '.join(ENCOUNTERS)}")
    opts = parse_options(options)
    return RaceEncounter(
        ENCOUNTERS[encounter], dice=dice, max_rounds=opts.round_limit, blocks=opts.blocks
    )


def apply_situation(enc: RaceEncounter, data: Mapping[str, Any], source: str) -> RaceEncounter:
    """Set ``points`` and ``hp`` (by combatant id) and ``round`` of a situation on ``enc``."""
    for key in ("points", "hp"):
        table = getattr(enc, key)
        for cid, value in (data.get(key) or {}).items():
            if cid not in table:
                raise DataError(
                    f"{source}: field '{key}': unknown combatant {cid!r}; known: {', '.join(table)}"
                )
            table[cid] = value
    enc._round = data.get("round", 1)
    return enc


def from_situation(
    data: dict[str, Any], source: str = "situation", dice: Dice | None = None
) -> RaceEncounter:
    """Situation fields: ``encounter`` (default ``duel``), ``rules``, ``max_rounds``, ``points``
    and ``hp`` overrides by combatant, ``round``."""
    name = data.get("encounter", "duel")
    if name not in ENCOUNTERS:
        raise DataError(
            f"{source}: field 'encounter': unknown toy encounter {name!r}; "
            f"known: {', '.join(ENCOUNTERS)}"
        )
    opts = parse_options(data.get("rules"))
    enc = RaceEncounter(
        ENCOUNTERS[name],
        dice=dice,
        max_rounds=data.get("max_rounds", opts.round_limit),
        blocks=opts.blocks,
    )
    return apply_situation(enc, data, source)


__all__ = [
    "SYSTEM",
    "ENCOUNTERS",
    "CORE",
    "FULL",
    "ToyOptions",
    "RaceEncounter",
    "DUEL",
    "TWO_VS_TWO",
    "Rolled",
    "Scored",
    "Wounded",
    "encounter_names",
    "stat_blocks",
    "parse_options",
    "new_encounter",
    "from_situation",
    "apply_situation",
]
