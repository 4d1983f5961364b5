"""Mano a Mano's starter fields (the registry's ``starter`` part): what ``arena situation new``
writes beside the shared fields, as its situation reader (``envs/mano_a_mano/rules/situation.py``)
accepts them: each combatant's state, an inline stat block, the items, the map, the
circumstances, the mounts and the grapples."""

from __future__ import annotations

from typing import Any

from envs.core.data import load_yaml
from envs.core.starter import Line

from .rules.catalogue import DATA

__all__ = ["STARTER", "ManoStarter", "BLOCK_NOTES"]

BLOCK_NOTES = {
    "name": "shown by the tools",
    "source": "where it comes from (free text)",
    "template": "a catalogue template (human, horse, ...)",
    "cp": "character points",
    "mass_kg": "body mass, kg",
    "agility": "attacks, defenses, throws, grapples",
    "strength": "power, carrying capacity",
    "toughness": "health thresholds",
    "running": "hexes of movement per turn",
    "speed": "1/4, 1/2, 1, 2 or 3",
    "stamina": "always 2 x toughness",
    "abilities": "{ability: level}",
    "qualities": "[quality, ...]",
    "held": "{right | left | both: weapon}",
    "stowed": "[item, ...]",
    "armor": "[{item, cover, absorption, mass_kg, inside}]",
    "bow_drawn": "true/false",
}
"""the comment of each field of an inline stat block"""


class ManoStarter:
    """Mano a Mano's fields (an ``envs.core.starter.CombatantStarter``)."""

    side_note = "any name; two sides or more"

    def block_id(self, c: dict[str, Any]) -> str:
        return str(c["block"])

    def member(self, c: dict[str, Any]) -> list[Line]:
        return []

    def state(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        return [
            Line("hex", c["hex"], "[q, r] on the map, not a wall"),
            Line("standing", c["standing"], "false: on the ground"),
            Line("stun", c["stun"], "0 or more"),
            Line("damage", c["damage"], "0 or more"),
            Line("held", c["held"], "{right | left | both: item}"),
            Line("stowed", c["stowed"], "[item, ...]; the load is at most 2 x CC"),
            Line("counter_ready", c["counter_ready"], "true/false"),
            Line("defense_bonus", c["defense_bonus"], "0..5"),
            Line("forced_skips", c["forced_skips"], "0..3 (speeds below 1)"),
            Line("bow_drawn", c["bow_drawn"], "true/false (a held bow)"),
            Line("aiming", c["aiming"], "the held weapon aimed with (RULING R31)"),
            Line("covering", c["covering"], "the combatant it covers"),
            Line("shots", c["shots"], "{gun: shots left} (not given: full)"),
            Line("clip_out", c["clip_out"], "[clip gun, ...]"),
            Line("reloading", c["reloading"], "{muzzle-loader: reload actions done}"),
        ]

    def inline(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        blocks = load_yaml(DATA / "catalogue.yaml")["combatants"]
        raw = next(b for b in blocks if b["id"] == c["block"])
        raw = {k: v for k, v in raw.items() if k != "id"}
        for key, default in (("qualities", []), ("bow_drawn", False)):
            raw.setdefault(key, default)
        lines = [Line(k, v, BLOCK_NOTES.get(k, "")) for k, v in raw.items() if k != "mount"]
        mount = raw.get("mount")
        lines.append(Line("mount", mount or "war", "a war animal, ridden", live=mount is not None))
        return lines

    def top(self, snap: dict[str, Any], own: bool) -> list[Line]:
        hexes = [tuple(h) for h in snap["map"]["hexes"]]
        radius = max((abs(q) + abs(r) + abs(q + r)) // 2 for q, r in hexes)
        hexagon = len(hexes) == 3 * radius * (radius + 1) + 1
        width = max(q for q, _ in hexes) + 1 if not hexagon else 2 * radius + 1
        height = max(r for _, r in hexes) + 1 if not hexagon else 2 * radius + 1
        terrain = snap["map"]["terrain"]
        opts = snap["options"]
        return [
            Line("items", {}, "this file's items {id: item} (the catalogue's item schema)"),
            Line("map", note="default: a hexagon of radius 7", children=[
                Line("radius", radius, "a hexagon around [0, 0]", live=hexagon),
                Line("size", [width, height], "instead of radius: a rhombus", live=not hexagon),
                Line("walls", [t["hex"] for t in terrain if t["wall"]], "[[q, r], ...]"),
                Line("water", [t["hex"] for t in terrain if t["water"]], "[[q, r], ...]"),
                Line("heights", [{"hex": t["hex"], "m": t["height_m"]} for t in terrain
                                 if t["height_m"]], "[{hex: [q, r], m: metres}]"),
            ]),
            Line("circumstances", note="spec §5.1, RULING R40", children=[
                Line("darkness", opts["darkness"], "normal | very_dim | total"),
                Line("rear_attack_favorable", opts["rear_attack_favorable"], "RULING R9"),
                Line("attacks", snap["circumstances"],
                     "{side or id: favorable | very_favorable | unfavorable | hostile}"),
            ]),
            Line("mounted", snap["mounts"], "{rider: mount} (FULL rules)"),
            Line("grapples", snap["grapples"], "[{pair: [a, b], base: standing|ground, dominant}]"),
        ]


STARTER = ManoStarter()
"""the registry's ``starter`` part"""
