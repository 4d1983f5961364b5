"""Sizebound's rules engine (docs/rules/sizebound.md): pure Python, standard library and
``envs.core`` only.

Public surface: ``SYSTEM``, ``encounter_names``, ``new_encounter``, ``from_situation``,
``parse_options``, ``stat_blocks``, ``SizeboundEncounter``, ``RuleOptions``, ``CORE``, ``FULL``,
``preview_attack``, ``in_reach``.
"""

from __future__ import annotations

from typing import Any

from envs.core.data import DataError
from envs.core.dice import Dice

from .catalogue import catalogue, encounters, stat_blocks
from .options import CORE, FULL, RuleOptions, parse_options
from .preview import AttackPreview, in_reach, preview_attack
from .profile import profile_of
from .setup import build
from .situation import from_situation
from .state import SYSTEM, SizeboundEncounter

__all__ = [
    "SYSTEM", "CORE", "FULL", "RuleOptions", "parse_options", "SizeboundEncounter",
    "new_encounter", "from_situation", "encounter_names", "stat_blocks", "encounters",
    "catalogue", "preview_attack", "in_reach", "AttackPreview",
]


def encounter_names() -> list[str]:
    return list(encounters())


def new_encounter(name: str, options: Any = None, dice: Dice | None = None
                  ) -> SizeboundEncounter:
    """A fresh fight of a named encounter (spec §13.3); no dice are needed to set it up (the
    turn order is fixed, spec §3.4), unless ``first_side: random`` draws the first side."""
    encs = encounters()
    if name not in encs:
        raise DataError(f"sizebound: unknown encounter {name!r}; known: {', '.join(encs)}")
    spec = encs[name]
    rows = [(p.id, p.side, profile_of(p.block), (p.anchor[0], p.anchor[1]))
            for p in spec.placements]
    return build(rows, spec.grid(), list(spec.side_order), parse_options(options), name,
                 dice=dice)
