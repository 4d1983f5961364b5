"""Planted imbalances (docs/balance.md): on every registered system, a copy of its duel in which one
combatant's key option is made overwhelming is flagged (not balanced: its side well ahead), that
option is reported dominant, and an option made useless is reported dead weight.

Each copy is the duel's own form (``eval.fights.own_form``) with the strong combatant's stat block
written inline and one field changed; the heuristic plays both sides, a fixed number of games on
seeds 0.., only the two options in question banned (so each test stays small).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from envs import SYSTEMS
from eval.balance import BalanceConfig, run_balance
from eval.fights import Fight, own_form


def _metanoia() -> dict[str, Any]:
    """The Rotblade Duelist's Exploit ability +5 ranks; its Deteriorating ability down to 1."""
    d = own_form("metanoia", "duel_seed", inline=["rotblade_duelist"])
    abilities = d["combatants"][0]["stats"]["abilities"]
    assert [a["keyword"] for a in abilities] == ["deteriorating", "exploit"]
    abilities[1]["rank"] += 5
    abilities[0]["rank"] = 1
    return d


def _mano_a_mano() -> dict[str, Any]:
    """Steven with a blade of power 40 (an item of the file) and One-Handed +5."""
    d = own_form("mano_a_mano", "duel_seed", inline=["steven"])
    d["items"] = {"planted_blade": {"kind": "hand", "ability": "one_handed", "cp": 61,
                                    "mass_kg": 0.5, "heft": 3, "power": 40, "sharpness": "sharp",
                                    "throwable": False}}
    steven = d["combatants"][0]
    steven["stats"]["abilities"]["one_handed"] += 5
    steven["stats"]["held"] = steven["state"]["held"] = {"right": "planted_blade"}
    return d


def _sizebound() -> dict[str, Any]:
    """The Knight vulnerable to the Duelist's sword (Slashing), immune to its dagger (Piercing)."""
    d = own_form("sizebound", "duel_blade_vs_shield", inline=["knight"])
    d["combatants"][1]["stats"]["damage_mods"] = {"vulnerable": ["Slashing"],
                                                  "immune": ["Piercing"]}
    return d


def _metaforce() -> dict[str, Any]:
    """The Fighter's warhammer +5 to hit (its Metaphor +5 ranks) and +20 damage, the two placed
    side by side (the shipped duel's heuristic players keep their distance)."""
    d = own_form("metaforce", "duel_fighter_brawler", inline=["fighter"])
    fighter = d["combatants"][0]
    fighter["at"], d["combatants"][1]["at"] = [5, 5], [6, 5]
    hammer = fighter["stats"]["weapons"][0]
    assert hammer["id"] == "warhammer"
    hammer["tohit"] += 5
    hammer["damage_base"] += 20
    hammer["magnitude_bonus"] += 5
    fighter["stats"]["metaphors"][0]["rank"] += 5
    return d


def _palladium_revised() -> dict[str, Any]:
    """The Sellsword's long sword swapped for a file's own sword of 5D6 (a weapon of the file,
    spec §2.6) and its Strike bonus +5 (spec §2.3)."""
    d = own_form("palladium_revised", "duel_sword_vs_rogue", inline=["sellsword_1"])
    d["weapons"] = {"planted_sword": {"damage": "5d6", "reach": "M", "short": False, "hands": 1,
                                      "kind": "edged", "wounds": 1, "cost": 1, "ps": True}}
    stats = d["combatants"][0]["stats"]
    assert stats["weapons"] == ["long_sword", "dagger"]
    stats["weapons"] = ["planted_sword", "dagger"]
    stats["bonuses"]["strike"] += 5
    return d


PLANTS: dict[str, tuple[Callable[[], dict[str, Any]], int, tuple[str, str], tuple[str, str]]] = {
    # system: (the planted copy, games, the overwhelming option, the useless option)
    "metanoia": (_metanoia, 40, ("rotblade_duelist", "attack exploit"),
                 ("rotblade_duelist", "attack deteriorating")),
    "mano_a_mano": (_mano_a_mano, 30, ("steven", "weapon:planted_blade"),
                    ("steven", "weapon:left_foot")),
    "sizebound": (_sizebound, 30, ("duelist", "weapon:sword"), ("duelist", "weapon:dagger")),
    "metaforce": (_metaforce, 20, ("fighter", "weapon:warhammer"), ("fighter", "weapon:unarmed")),
    "palladium_revised": (_palladium_revised, 10, ("sellsword_1", "weapon:planted_sword"),
                          ("sellsword_1", "weapon:dagger")),
}


def test_every_registered_system_has_a_planted_imbalance():
    assert {s for s, e in SYSTEMS.items() if not e.test_only} == set(PLANTS)


@pytest.mark.parametrize("system", sorted(PLANTS))
def test_a_planted_imbalance_is_flagged_and_its_options_named(system: str, tmp_path: Path):
    build, games, strong, useless = PLANTS[system]
    fight = Fight.from_data(build(), f"{system}_planted.yaml")
    cfg = BalanceConfig(fight, games=games, out=str(tmp_path), workers=1, progress=False,
                        loo=False, only=(strong[1], useless[1]))
    summary, report = run_balance(cfg)
    b = summary["balance"]
    assert b["score"]["side"] == fight.sides()[0] == summary["members"][strong[0]]
    assert not b["balanced"] and b["score"]["rate"] >= 0.65, b["score"]
    rows = {(r["combatant"], r["option"]): r for r in summary["options"]}
    assert rows[strong]["verdict"] == "dominant", rows[strong]
    assert rows[strong]["n"] == games and rows[strong]["delta"] <= -0.25
    assert rows[useless]["verdict"].startswith("dead weight"), rows[useless]
    text = report.read_text(encoding="utf-8")
    assert f"| {strong[0]} | `{strong[1]}` |" in text and "| dominant |" in text
