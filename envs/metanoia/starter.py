"""Metanoia's starter fields (the registry's ``starter`` part): what ``arena situation new``
writes beside the shared fields, as its situation reader (``envs/metanoia/rules/situation.py``)
accepts them: each combatant's zone and state, an inline stat block, surprise and hazards."""

from __future__ import annotations

from typing import Any

from envs.core.starter import Line

from .rules.fighters import STATUSES

__all__ = ["STARTER", "MetanoiaStarter", "BLOCK_NOTES"]

BLOCK_NOTES = {
    "name": "shown by the tools",
    "basis": "where it comes from (free text)",
    "realm": "power tier, 1 or more",
    "texture": "tranquil | volatile | rampant",
    "motive": "trait, 0-5",
    "identity": "trait, 0-5",
    "strain_max": "default 4 + 2 x realm",
    "injury_slots": "default 2 + realm",
    "convictions": "default 2 + realm, or none (mindless)",
    "polarity": "shadow | decay | steel | stone | storm | verdant | will",
    "abilities": "[{keyword, rank, polarity, reach}]",
    "items": "[{id, rank, polarity, instrument, keywords: [{keyword, reach}]}]",
    "passives": "[{keyword: resistance | stealthy, rank, polarity}]",
}
"""the comment of each field of an inline stat block"""


class MetanoiaStarter:
    """Metanoia's fields (an ``envs.core.starter.CombatantStarter``)."""

    side_note = "A | B (1 to 4 combatants each)"

    def block_id(self, c: dict[str, Any]) -> str:
        return str(c["block_id"])

    def member(self, c: dict[str, Any]) -> list[Line]:
        return [Line("zone", c["zone"], "0 .. zones - 1 (default: RULING R22)")]

    def state(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        conv = (
            Line("conv", c["conv"], f"Convictions, 0..{c['conv_max']}")
            if c["conv_max"] is not None
            else Line("", note="conv: none (mindless)")
        )
        return [
            Line("strain", c["strain"], f"0..{c['strain_max']}"),
            Line("stacks", c["stacks"], "stacks on it"),
            conv,
            Line("injuries", c["injuries"],
                 f"[{{keyword, severity}}], at most {c['injury_slots']}"),
            Line("statuses", c["statuses"], f"{{status: rank}}: {', '.join(STATUSES)}"),
            Line("defeated", c["defeated"], "true/false"),
            Line("broken", c["broken"], "true/false (no Conviction left)"),
            Line("fled", c["fled"], "true/false"),
            Line("guarding", c["guarding"], "an ally it guards (RULING R25)"),
        ]

    def inline(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        raw = {k: v for k, v in snap["blocks"][c["block_id"]].items() if k != "id"}
        raw.setdefault("passives", [])
        return [Line(k, v, BLOCK_NOTES.get(k, "")) for k, v in raw.items()]

    def top(self, snap: dict[str, Any], own: bool) -> list[Line]:
        surprised = snap["surprised"]
        return [
            Line("surprised", surprised or "A", "A | B: the side surprised (RULING R36)",
                 live=surprised is not None),
            Line("hazards", {int(z): r for z, r in snap["hazards"].items()},
                 "{zone: rank} (RULING R35)"),
        ]


STARTER = MetanoiaStarter()
"""the registry's ``starter`` part"""
