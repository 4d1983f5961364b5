"""Mano a Mano rules engine (spec rules/mano_a_mano.md), pure Python: no RL library.

The data catalogue with its derived statistics (``catalogue``, spec §2, §13), the resolution layer
(``resolution``: rolls, armor, power, harm, health, positions), the project's rulings
(``rulings``, spec §10), the encounter (``state.ManoEncounter``, on ``envs.core.EncounterBase``)
and the rules as plain functions of it, one module per part of the spec (``turns``, ``legal``,
``modifiers``, ``strikes``, ``missiles``, ``guns``, ``grappling``, ``mounted``, ``preview``,
``snapshot``): CORE (spec §12.1) and FULL (spec §12.2 items 1-8, and from item 9 falls from heights
and into walls and mounted combat). Situations (``situation.from_situation``) start a fight in
progress; ``setup.start_turn`` hands a decision to a combatant."""

from __future__ import annotations

from .catalogue import Catalogue, StatBlock, catalogue, encounters, load_catalogue, stat_blocks
from .options import parse_options
from .situation import SYSTEM, from_situation
from .state import ManoEncounter, new_encounter


def encounter_names() -> list[str]:
    """The catalogue's encounters (spec §13.8)."""
    return list(encounters())


__all__ = ["Catalogue", "StatBlock", "ManoEncounter", "SYSTEM", "catalogue", "encounters",
           "encounter_names", "from_situation", "load_catalogue", "new_encounter", "parse_options",
           "stat_blocks"]
