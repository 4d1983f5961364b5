"""Mano a Mano rules engine (spec rules/mano_a_mano.md), pure Python: no RL library.

Work in progress (issue 5): the data catalogue with its derived statistics (spec §2, §13) and the
rulings. The combat engine, env and heuristic follow; the system is not in ``envs.SYSTEMS`` yet.
"""

from __future__ import annotations

from .catalogue import Catalogue, StatBlock, catalogue, encounters, load_catalogue, stat_blocks

__all__ = ["Catalogue", "StatBlock", "catalogue", "encounters", "load_catalogue", "stat_blocks"]
