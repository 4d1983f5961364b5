"""Per-system scripted tactics (DESIGN.md, "Agents"): ``HEURISTICS[system]`` is the class."""

from __future__ import annotations

from .metanoia import MetanoiaHeuristic

HEURISTICS = {"metanoia": MetanoiaHeuristic}
