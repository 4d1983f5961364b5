"""Mano a Mano rules engine (spec rules/mano_a_mano.md), pure Python: no RL library.

Work in progress (issue 5): the data catalogue with its derived statistics (spec §2, §13), the
resolution layer (``resolution``: rolls, armor, power, harm, health, positions), and the turn engine
(``state``: the CORE rules of spec §12.1 plus grappling, FULL item 1). Missiles, armor avoidance in
actions, cover, setup stances, the env, the heuristic and rendering follow; the system is not in
``envs.SYSTEMS`` yet.
"""

from __future__ import annotations

from .catalogue import Catalogue, StatBlock, catalogue, encounters, load_catalogue, stat_blocks
from .state import ManoEncounter, new_encounter


def encounter_names() -> list[str]:
    """The catalogue's encounters (spec §13.8)."""
    return list(encounters())


__all__ = ["Catalogue", "StatBlock", "ManoEncounter", "catalogue", "encounters", "encounter_names",
           "load_catalogue", "new_encounter", "stat_blocks"]
