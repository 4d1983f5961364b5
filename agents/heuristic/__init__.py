"""Per-system scripted tactics (DESIGN.md, "Agents"): ``HEURISTICS[system]`` is the class."""

from __future__ import annotations

from .mano_a_mano import ManoHeuristic
from .metanoia import MetanoiaHeuristic

HEURISTICS = {"metanoia": MetanoiaHeuristic, "mano_a_mano": ManoHeuristic}
