"""Palladium Revised's rules engine (docs/rules/palladium_revised.md): pure Python, standard
library and ``envs.core`` only.

Public surface: ``SYSTEM``, ``encounter_names``, ``new_encounter``, ``from_situation``,
``parse_options``, ``stat_blocks`` (the ``envs.RulesModule`` contract), ``PalladiumEncounter``
(``current_actor``, ``legal_actions``, ``apply``, ``decision``, ``view``, ``describe``,
``snapshot``/``from_snapshot``, ``clone``, ``parse_action``, ``harm``), ``RuleOptions``, ``CORE``,
``FULL``, ``build``, ``Profile``, ``Arm``, ``profile_of``, ``slot_counts``, and the previews
``preview_strike`` (``StrikePreview``), ``preview_defense`` (``DefensePreview``),
``dodge_slot``, ``zone_bands`` and (FULL) ``preview_spell`` (``SpellPreview``). Labels:
``labels``; events: ``events``; state invariants:
``envs.palladium_revised.invariants``.
"""

from __future__ import annotations

from typing import Any

from envs.core.data import DataError
from envs.core.dice import Dice

from .full_preview import SpellPreview, preview_spell
from .options import CORE, FULL, RuleOptions, parse_options
from .preview import (
    DefensePreview,
    StrikePreview,
    dodge_slot,
    preview_defense,
    preview_strike,
    zone_bands,
)
from .profile import Arm, Profile, profile_of
from .setup import build
from .slots import slot_counts
from .state import SYSTEM, PalladiumEncounter

__all__ = [
    "SYSTEM", "CORE", "FULL", "RuleOptions", "parse_options", "PalladiumEncounter",
    "new_encounter", "from_situation", "encounter_names", "stat_blocks", "build", "Profile",
    "Arm", "profile_of", "slot_counts", "preview_strike", "StrikePreview", "preview_defense",
    "DefensePreview", "dodge_slot", "zone_bands", "preview_spell", "SpellPreview",
]


def stat_blocks() -> dict[str, Any]:
    """The stat-block catalogue (spec §13): catalogue name -> stat block."""
    from .catalogue import stat_blocks as blocks
    return dict(blocks())


def _encounters() -> dict[str, Any]:
    from .catalogue import encounters
    return dict(encounters())


def encounter_names() -> list[str]:
    """The presets of spec §13.3, in data order."""
    return list(_encounters())


def new_encounter(name: str, options: Any = None, dice: Dice | None = None
                  ) -> PalladiumEncounter:
    """A fresh fight of a named preset (spec §13.3) with round 1's initiative rolled with
    ``dice`` (seeded 0 when ``None``)."""
    from .situation import preset_options, preset_rows
    encs = _encounters()
    if name not in encs:
        raise DataError(f"palladium_revised: unknown encounter {name!r}; known: "
                        f"{', '.join(encs)}")
    spec = encs[name]
    rows, over = preset_rows(spec)
    return build(rows, preset_options(spec, parse_options(options)), name, dice, over,
                 ambush=spec.ambush)


def from_situation(data: dict[str, Any], source: str = "situation",
                   dice: Dice | None = None) -> PalladiumEncounter:
    """The encounter a situation mapping describes (docs/situations.md)."""
    from .situation import from_situation as read
    return read(data, source, dice)
