"""The toy's starter fields (the registry's ``starter`` part): its situation reader is its own
(``from_situation`` in ``envs/toy/rules/__init__.py``), so the starter gives the whole file (an
``envs.core.starter.FileStarter``)."""

from __future__ import annotations

from envs.core.starter import Line

from . import rules

__all__ = ["STARTER", "ToyStarter"]


class ToyStarter:
    """The toy's fields: encounter, rule set, round cap, points and hit points."""

    def lines(self, name: str, own: bool) -> list[Line]:
        snap = rules.new_encounter(name).snapshot()
        return [
            Line("system", rules.SYSTEM, "the rules system (required)"),
            Line("title", f"{name}, round 1", "free text, shown by the tools"),
            Line("encounter", name, f"known: {', '.join(rules.encounter_names())}"),
            Line("rules", "full", "core (no blocks) | full"),
            Line("max_rounds", snap["rules"][2], "the round cap"),
            Line("points", snap["points"], "{combatant: points}"),
            Line("hp", snap["hp"], "{combatant: hit points}"),
            Line("round", snap["round"], "the round"),
        ]


STARTER = ToyStarter()
"""the registry's ``starter`` part"""
