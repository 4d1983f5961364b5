"""Per-system scripted tactics (DESIGN.md, "Agents"), one module per system.

The registry names each system's class (``envs.SystemEntry.heuristic``, e.g.
``agents.heuristic.metanoia:MetanoiaHeuristic``); ``envs.get_heuristic(system)`` imports it on
demand, so this package imports no system's heuristic by itself.
"""
