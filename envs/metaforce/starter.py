"""Metaforce's starter fields (the registry's ``starter`` part): what ``arena situation new``
writes beside the shared fields, as the situation reader (``envs/metaforce/rules/situation.py``)
accepts them: each combatant's square and awareness, its state (HP, MP, Exert, Reactions, Stun
and the lasting statuses with the grappler), an inline stat block in the catalogue's schema
(spec §13.5) and the map's size."""

from __future__ import annotations

import re
from typing import Any

from envs.core.data import load_yaml
from envs.core.starter import Line

from .rules.catalogue import DATA, stat_blocks

__all__ = ["STARTER", "MetaforceStarter", "BLOCK_NOTES"]

BLOCK_NOTES = {
    "name": "shown by the tools",
    "level": "1 or more",
    "size": "1/16 .. 8 (spec §2.9); 2 and up fill N x N squares",
    "protected": "true: a PC-like combatant that goes down before it dies (spec §8.6)",
    "metaforce_user": "has MP and M-Powers, may use Deus Ex",
    "attributes": "{str, end, agi, per, int, cha}",
    "proficient": "[attribute, ...]",
    "cores": "{body, reflex, mind}: checked against the attributes when given",
    "armour": "{name, deflection_bonus, resistance, bullet_resistant}",
    "weapons": "[weapon, ...] (spec §13.5 fields); the first 4 are attack slots",
    "mpowers": "[action8_react4 | safe6_assurance8 | finishing_touch | crash_out]",
}
"""the comment of each field of an inline stat block (the rest: the catalogue's schema)"""


def _raw_blocks() -> dict[str, dict[str, Any]]:
    return {b["id"]: b for b in load_yaml(DATA / "catalogue.yaml")["combatants"]}


class MetaforceStarter:
    """Metaforce's fields (an ``envs.core.starter.CombatantStarter``)."""

    side_note = "any name; two sides or more"

    def block_id(self, c: dict[str, Any]) -> str:
        """The catalogue stat block of the combatant: its id, or its id without a ``_2``
        count (``bandit_2`` -> ``bandit``), or the first block."""
        blocks = stat_blocks()
        cid = str(c["id"])
        for name in (cid, re.sub(r"_\d+$", "", cid)):
            if name in blocks:
                return name
        return next(iter(blocks))

    def member(self, c: dict[str, Any]) -> list[Line]:
        return [Line("at", [c["x"], c["y"]], "[x, y]: its south-west square, on the map"),
                Line("aware", c["aware"], "false: surprised, no Reaction in round 1 (§3.4)")]

    def state(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        statuses = {k: v[0] for k, v in c["statuses"].items()
                    if k in ("bleed", "burn", "grappled")}
        grappler = next((o["id"] for o in snap["combatants"].values()
                         if o.get("grappling") == c["id"]), None)
        return [
            Line("hp", c["hp"], "1 .. Max HP"),
            Line("mp", c["mp"], "0 .. Max MP"),
            Line("exert", c["exert"], "0 or more (Tired at the threshold, spec §7.6)"),
            Line("reactions", c["reactions"], "0 or more"),
            Line("stun", c["stun"], "own frames still to lose (R-14)"),
            Line("statuses", statuses, "{bleed | burn | grappled: magnitude}"),
            Line("grappler", grappler or "", "the enemy holding it (with grappled)",
                 live=grappler is not None),
        ]

    def inline(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        raw = _raw_blocks()[self.block_id(c)]
        return [Line(k, v, BLOCK_NOTES.get(k, "")) for k, v in raw.items() if k != "id"]

    def top(self, snap: dict[str, Any], own: bool) -> list[Line]:
        g = snap["grid"]
        return [Line("map", note="the battlefield in 5-ft squares (spec §3.2)", children=[
            Line("w", g["width"], "squares from west to east"),
            Line("h", g["height"], "squares from south to north"),
        ])]


STARTER = MetaforceStarter()
"""the registry's ``starter`` part"""
