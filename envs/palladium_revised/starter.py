"""Palladium Revised's starter fields (the registry's ``starter`` part): what ``arena situation
new`` writes beside the shared fields, as the situation reader
(``envs/palladium_revised/rules/situation.py``) accepts them: each combatant's ``x`` on the battle
line, its ``state`` (S.D.C., H.P., Stamina, Morale, Wounds, armour S.D.C.) and an inline stat
block in the catalogue's schema (spec §13.4)."""

from __future__ import annotations

from typing import Any

from envs.core.data import load_yaml
from envs.core.starter import Line

from .rules.catalogue import DATA, encounters, stat_blocks

__all__ = ["STARTER", "PalladiumStarter", "BLOCK_NOTES"]

BLOCK_NOTES = {
    "height_ft": "feet; sets the Zone radii (spec §2.5)",
    "level": "1 or more",
    "package": "fighter | rogue | ranger | mage (spec §2.3)",
    "training": "{init, strike, parry, dodge, maneuver}: a monster's instead of a package",
    "attributes": "{mi, me, ma, ps, pe, pp, pm, pb}",
    "actions": "N Actions a round (the Melee Grid row, spec §4.2)",
    "hp_base": "H.P.",
    "sdc_max": "S.D.C.",
    "stamina_max": "P.E. x 2",
    "morale_max": "M.E. x 2",
    "ee_max": "E.E. (casters)",
    "bonuses": "the combat bonuses (spec §2.3)",
    "crit_min": "natural roll that crits (20: only a 20)",
    "armor": "an armour of the catalogue (none, leather, chain_shirt, ...)",
    "weapons": "[weapon, ...]: the first two are weapon slots 0 and 1; unarmed is added",
    "primary_hand": "right | left",
    "spells": "[spell, ...] (FULL; the CAST slots 0..6)",
}
"""the comment of each field of an inline stat block (the rest: the catalogue's schema)"""


def _raw_blocks() -> dict[str, dict[str, Any]]:
    return dict(load_yaml(DATA / "catalogue.yaml")["combatants"])


class PalladiumStarter:
    """Palladium Revised's fields (an ``envs.core.starter.CombatantStarter``)."""

    side_note = "any name; two sides or more (the first side's home edge is x = 0)"
    in_progress_fields = frozenset({"second"})
    """top-level fields that place a fight in progress (they need an ``actor``): a fresh start
    (``eval.fights.own_form``) leaves them out"""

    def block_id(self, c: dict[str, Any]) -> str:
        """The catalogue stat block of the combatant: the one a catalogue encounter gives its
        id, or its id itself, or the first block."""
        cid = str(c["id"])
        for spec in encounters().values():
            for side in spec.sides:
                for m in side.members:
                    if m.id == cid:
                        return str(m.block.id)
        blocks = stat_blocks()
        return cid if cid in blocks else next(iter(blocks))

    def member(self, c: dict[str, Any]) -> list[Line]:
        return [Line("x", c["x"], "feet on the battle line, 0 .. arena_length")]

    def state(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        p = snap["profiles"][c["id"]]
        return [
            Line("sdc", c["sdc"], f"0 .. {p['sdc_max']}"),
            Line("hp", c["hp"], f"1 .. {p['hp_base']}"),
            Line("stamina", c["stamina"], f"0 .. {p['stamina_max']}"),
            Line("morale", c["morale"], f"at most {p['morale_max']}"),
            Line("wounds", c["wounds"], "0 or more (spec §8.6)"),
            Line("armor_sdc", c["armor_sdc"], f"0 .. {p['armor_sdc']}"),
            Line("ee", c["fx"]["ee"], f"E.E. 0 .. {p['ee_max']} (FULL)", live=p["ee_max"] > 0),
            Line("se", c["fx"]["se"], f"S.E. 0 .. {p['se_max']} (FULL)", live=p["se_max"] > 0),
            Line("step_budget", c["step_budget"], "feet of Steps left this round"),
            Line("defending", c["defending"], "Defend until its next turn (not the actor)"),
            Line("resting", c["resting"], "resting (spec §5.4); rest_seconds: 0..4"),
            Line("conditions", {"prone": True}, "spec §7; docs/situations.md lists them",
                 live=False),
        ]

    def inline(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        raw = _raw_blocks()[self.block_id(c)]
        name = snap["profiles"][c["id"]]["name"]
        return [Line("name", name, "free text (default: the id)"),
                *(Line(k, v, BLOCK_NOTES.get(k, "")) for k, v in raw.items() if k != "name")]

    def top(self, snap: dict[str, Any], own: bool) -> list[Line]:
        last_side = [c["side"] for c in snap["combatants"].values()][-1]
        return [Line("second", snap["second"], "1..15: the fight stands at the actor's slot in "
                     "this Second"),
                Line("ambush", snap["ambush"] or last_side,
                     "FULL: the ambushing side (a fresh start, spec §3.5)",
                     live=snap["ambush"] is not None)]


STARTER = PalladiumStarter()
"""the registry's ``starter`` part"""
