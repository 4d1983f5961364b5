"""Sizebound's starter fields (the registry's ``starter`` part): what ``arena situation new``
writes beside the shared fields, as the situation reader (``envs/sizebound/rules/situation.py``)
accepts them: each combatant's anchor and state, an inline stat block in the catalogue's
schema, the map and the side order."""

from __future__ import annotations

from typing import Any

from envs.core.data import load_yaml
from envs.core.starter import Line

from .rules.catalogue import DATA, stat_blocks

__all__ = ["STARTER", "SizeboundStarter", "BLOCK_NOTES"]

BLOCK_NOTES = {
    "name": "shown by the tools",
    "size": "Miniscule .. Megalithic (spec §2.1)",
    "sn": "Size Number inside the size's range",
    "level": "1..30",
    "totals": "{might, skill, magic}: reachable from 10/12/14 and the level's bonuses",
    "scaling_improvements": "{hp, mana}: as many as the level grants",
    "armour": "none | light | medium | heavy",
    "wielded": "{main | off | both: weapon}",
    "stowed": "[weapon, ...]",
    "alternate_loadout": "{main | off | both: weapon}: what swap draws",
    "natural_weapons": "[weapon, ...] (natural: true)",
    "skills": "[skill, ...] from the skill pack",
    "exertion_pool": "player | host",
    "walk": "spaces per Move",
    "hands": "hands for items and grapples",
    "tags": "creature-type tags (spec §2.7)",
}
"""the comment of each field of an inline stat block (the rest: the catalogue's schema)"""


class SizeboundStarter:
    """Sizebound's fields (an ``envs.core.starter.CombatantStarter``)."""

    side_note = "any name; two sides or more, each listed in side_order"

    def block_id(self, c: dict[str, Any], snap: dict[str, Any] | None = None) -> str:
        """The catalogue stat block the combatant was built from (its profile names it); an
        inline one's id otherwise, or the first block where neither is in the catalogue."""
        block = str(((snap or {}).get("profiles", {}).get(c["id"]) or {}).get("block") or "")
        for cid in (block, str(c["id"])):
            if cid in stat_blocks():
                return cid
        return next(iter(stat_blocks()))

    def member(self, c: dict[str, Any]) -> list[Line]:
        return [Line("at", [c["x"], c["y"]], "anchor [x, y]: its cell with the smallest x and y")]

    def state(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        p = snap["profiles"][c["id"]]
        conds = sorted({str(k["name"]) for k in c["conds"]})
        return [
            Line("hp", c["hp"], f"{p['pnr']}..{p['max_hp']} (below 0: the HP Stun)"),
            Line("mana", c["mana"], f"0..{p['max_mana']}"),
            Line("guard", c["guard"], "0 or more"),
            Line("dice", c["dice"], f"Exertion Dice, 0..{p['exertion_max']}"),
            Line("reactions", c["reactions"], "reactions left in the pool"),
            Line("conditions", conds, "[prone, blinded, deafened, jarred, winded, ...] "
                                      "(until removed)"),
        ]

    def inline(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        blocks = load_yaml(DATA / "catalogue.yaml")["combatants"]
        raw = dict(blocks[self.block_id(c, snap)])
        return [Line(k, v, BLOCK_NOTES.get(k, "")) for k, v in raw.items()]

    def top(self, snap: dict[str, Any], own: bool) -> list[Line]:
        g = snap["grid"]
        walls = [[x, y, x, y] for x, y in sorted(tuple(c) for c in g.get("walls", []))]
        rough = [[x, y, x, y] for x, y in sorted(tuple(c) for c in g.get("difficult", []))]
        return [
            Line("map", note="default: the encounter's map, else 16 x 16 open", children=[
                Line("w", g["width"], "cells west to east"),
                Line("h", g["height"], "cells south to north"),
                Line("walls", walls, "inclusive rectangles [[x1, y1, x2, y2], ...]"),
                Line("difficult", rough, "inclusive rectangles [[x1, y1, x2, y2], ...]"),
            ]),
            Line("side_order", list(snap["side_order"]), "the sides by turn slot, the first acts "
                                                    "first (spec §3.4)"),
        ]


STARTER = SizeboundStarter()
"""the registry's ``starter`` part"""
