"""Per-system scripted tactics (DESIGN.md, "Agents"): ``HEURISTICS[system]`` is the class."""

from __future__ import annotations

from .metanoia import MetanoiaHeuristic

# agents.heuristic.mano_a_mano.ManoHeuristic joins when mano_a_mano is registered in envs.SYSTEMS.
HEURISTICS = {"metanoia": MetanoiaHeuristic}
