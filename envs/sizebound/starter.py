"""Sizebound's starter fields (the registry's ``starter`` part): what ``arena situation new``
writes beside the shared fields, as the situation reader (``envs/sizebound/rules/situation.py``)
accepts them: each combatant's anchor and state (FULL: its Unnerved instances, height and move
speeds), an inline stat block in the catalogue's schema, the map (FULL: heights, water, shallow
water, magma), the side order and the hazard sides (FULL)."""

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
        unnerved = [{"value": k["value"], "source": k["source"]} for k in c["conds"]
                    if k["name"] == "unnerved"]
        fear = {u["source"] for u in unnerved}  # an Afraid the reader adds from `unnerved`
        conds = sorted({str(k["name"]) for k in c["conds"] if k["name"] != "unnerved"
                        and not (k["name"] == "afraid" and k["source"] in fear)})
        lift = bool(snap["options"].get("elevation"))
        return [
            Line("hp", c["hp"], f"{p['pnr']}..{p['max_hp']} (below 0: the HP Stun)"),
            Line("mana", c["mana"], f"0..{p['max_mana']}"),
            Line("guard", c["guard"], "0 or more"),
            Line("dice", c["dice"], f"Exertion Dice, 0..{p['exertion_max']}"),
            Line("reactions", c["reactions"], "reactions left in the pool"),
            Line("conditions", conds, "[prone, blinded, deafened, jarred, winded, ...] "
                                      "(until removed)"),
            Line("unnerved", unnerved, "[{value: n, source: id}, ...] (option fear)"),
            Line("z", c.get("z", 0), "FULL (elevation): height above its ground",
                 live=lift),
            Line("speeds", dict(c.get("speeds") or {}), "FULL (elevation): {fly, levitate, "
                 "leap, swim, burrow: spaces}", live=lift),
        ]

    def inline(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        blocks = load_yaml(DATA / "catalogue.yaml")["combatants"]
        raw = dict(blocks[self.block_id(c, snap)])
        for key in ("wielded", "alternate_loadout"):  # YAML 1.1 reads an unquoted off as false
            if isinstance(raw.get(key), dict):
                raw[key] = {("off" if k is False else k): v for k, v in raw[key].items()}
        return [Line(k, v, BLOCK_NOTES.get(k, "")) for k, v in raw.items()]

    def top(self, snap: dict[str, Any], own: bool) -> list[Line]:
        g = snap["grid"]
        walls = [[x, y, x, y] for x, y in sorted(tuple(c) for c in g.get("walls", []))]
        rough = [[x, y, x, y] for x, y in sorted(tuple(c) for c in g.get("difficult", []))]
        heights = [[x, y, x, y, z] for x, y, z in sorted(tuple(c) for c in snap.get("heights", []))]
        terrain = sorted(tuple(c) for c in snap.get("terrain", []))
        full = snap["options"].get("version") == "full"

        def cells(kind: str) -> list[list[int]]:
            return [[x, y, x, y] for x, y, k in terrain if k == kind]

        rects = "inclusive rectangles [[x1, y1, x2, y2], ...]"
        return [
            Line("map", note="default: the encounter's map, else 16 x 16 open", children=[
                Line("w", g["width"], "cells west to east"),
                Line("h", g["height"], "cells south to north"),
                Line("walls", walls, "inclusive rectangles [[x1, y1, x2, y2], ...]"),
                Line("difficult", rough, rects),
                Line("heights", heights, "FULL (elevation): [[x1, y1, x2, y2, height], ...]"),
                Line("water", cells("water"), f"FULL: deep water, {rects}", live=full),
                Line("shallow_water", [], "FULL: difficult terrain, rectangles", live=full),
                Line("magma", cells("magma"), f"FULL: magma, {rects}", live=full),
            ]),
            Line("side_order", list(snap["side_order"]), "the sides by turn slot, the first acts "
                                                    "first (spec §3.4)"),
            Line("hazard_sides", sorted(snap.get("hazards", [])), "FULL: sides that are hazards "
                 "(without side_order: they act last)"),
        ]


STARTER = SizeboundStarter()
"""the registry's ``starter`` part"""
