"""Mano a Mano worked examples of spec §11 that no case file can hold (equipment no combatant
of the catalogue wears), and situations with a lineup of their own (§11 case files use them)."""

from __future__ import annotations

import dataclasses
import json

import pytest
import yaml

from envs.core import ScriptedDice
from envs.core.data import DataError
from envs.core.hexgrid import HexMap
from envs.mano_a_mano.rules import from_situation, load_catalogue, stat_blocks
from envs.mano_a_mano.rules.catalogue import DATA, Region, Worn
from envs.mano_a_mano.rules.setup import start_turn
from envs.mano_a_mano.rules.state import Fighter, ManoEncounter


def _jacket_and_helmet_fight() -> ManoEncounter:
    """Steven against the clone wearing the seed's leather jacket (5, 2) and crash helmet (2, 5)."""
    blocks = stat_blocks()
    worn = (Worn("leather_jacket", 3.75, Region(5, 2)), Worn("crash_helmet", 1.5, Region(2, 5)))
    armored = dataclasses.replace(blocks["clone"], armor=worn)
    steven = blocks["steven"]
    fighters = [
        Fighter("steven", steven, "A", 0, (0, 0), held=dict(steven.held)),
        Fighter("clone", armored, "B", 0, (1, 0)),
    ]
    enc = ManoEncounter(fighters, ["steven", "clone"], HexMap.hexagon(7))
    start_turn(enc)
    return enc


@pytest.mark.parametrize(
    ("avoid", "difficulty", "absorption"),
    [
        ((), 12, 5),  # no avoidance: +0, best absorption 5 (the helmet)
        (("avoid_next",), 14, 2),  # avoid the helmet only: +2, absorption 2 (the jacket)
        (("avoid_all",), 19, 0),  # avoid both: +7, absorption 0
    ],
)
def test_11_6_avoiding_armor_through_the_engine(avoid, difficulty, absorption):
    enc = _jacket_and_helmet_fight()
    clone = enc.by_id["clone"]
    assert enc.armor_options(clone) == [(), ("avoid_next",), ("avoid_all",)]
    label = " ".join(("steven: strike quick machete", *avoid, "-> clone"))
    events = enc.apply(enc.parse_action(label), ScriptedDice([20], sides=20))  # natural 20: a hit
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    harmed = next(e for e in events if type(e).__name__ == "Harmed")
    assert roll.difficulty == difficulty and harmed.absorption == absorption  # clone's 12 + cost
    assert clone.damage == 5 - absorption


def test_11_7_layered_armor_in_a_catalogue(tmp_path):
    data = yaml.safe_load((DATA / "catalogue.yaml").read_text())
    items = data["items"]
    items["ballistic_vest"] = {"kind": "armor", "cp": 0, "mass_kg": 3, "cover": 3, "absorption": 3}
    items["rifle_plate"] = {"kind": "armor", "cp": 0, "mass_kg": 2, "cover": 1, "absorption": 5}
    clone = next(c for c in data["combatants"] if c["id"] == "clone")
    clone["armor"] = [
        {"item": "ballistic_vest"},
        {"item": "rifle_plate", "inside": "ballistic_vest"},
    ]
    path = tmp_path / "catalogue.yaml"
    path.write_text(yaml.safe_dump(data))
    block = load_catalogue(path).stat_blocks["clone"]
    assert sorted(block.regions, key=lambda r: r.absorption) == [Region(2, 3), Region(1, 8)]
    assert block.best_absorption == 5 + 3 and block.total_cover == 3 + 1 - 1


LINEUP = {
    "system": "mano_a_mano",
    "options": "core",
    "order": ["wrestler", "foe"],
    "actor": "wrestler",
    "combatants": [
        {"id": "wrestler", "side": "A", "state": {"hex": [0, 0]}},
        {"id": "foe", "side": "B", "block": "clone", "state": {"hex": [1, 0], "stun": 2}},
    ],
}


def test_a_situation_without_encounter_builds_its_own_lineup():
    enc = from_situation(json.loads(json.dumps(LINEUP)))
    foe = enc.by_id["foe"]
    assert foe.block.id == "clone" and foe.side == "B" and foe.hex == (1, 0) and foe.stun == 2
    assert [(s.side, s.members) for s in enc.sides()] == [("A", ("wrestler",)), ("B", ("foe",))]
    assert enc.current_actor() == "wrestler"
    restored = ManoEncounter.from_snapshot(json.loads(json.dumps(enc.snapshot())))
    assert restored.snapshot() == enc.snapshot()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["combatants"][1].pop("side"), "side"),
        (lambda d: d["combatants"][1]["state"].pop("hex"), "state"),
        (lambda d: d["combatants"][1].update(block="dragon"), "block"),
        (lambda d: d["combatants"][1].update(side="A"), "combatants"),
        (lambda d: d["combatants"][1].update(id="wrestler"), "id"),
    ],
)
def test_a_lineup_without_encounter_is_checked(change, field):
    data = json.loads(json.dumps(LINEUP))
    change(data)
    with pytest.raises(DataError, match=f"field '{field}'"):
        from_situation(data)


def test_an_encounter_lineup_refuses_side_and_block():
    data = {
        "system": "mano_a_mano",
        "encounter": "duel_seed",
        "actor": "steven",
        "combatants": [{"id": "clone", "side": "A"}],
    }
    with pytest.raises(DataError, match="side"):
        from_situation(data)


SKIRMISH = {
    "system": "mano_a_mano",
    "encounter": "skirmish_2v2",
    "actor": "archer",
    "order": ["archer", "steven", "wrestler", "guard"],
}


def test_a_situation_sets_a_drawn_bow_aim_cover_and_forced_skips():
    data = {
        **SKIRMISH,
        "combatants": [
            {"id": "archer", "state": {"hex": [3, 0], "bow_drawn": True, "aiming": "light_bow"}},
            {"id": "guard", "state": {"hex": [2, 0], "covering": "archer", "forced_skips": 1}},
        ],
    }
    enc = from_situation(data)
    archer, guard = enc.by_id["archer"], enc.by_id["guard"]
    assert archer.bow_drawn and archer.aiming == "light_bow"
    assert (guard.covering, guard.forced_skips) == ("archer", 1)
    assert {a.kind for a in enc.legal_actions()} <= {
        "move",
        "aim",
        "shoot",
        "relax",
        "drop_item",
        "end",
    }  # R32


@pytest.mark.parametrize(
    ("cid", "state", "field"),
    [
        ("steven", {"bow_drawn": True}, "bow_drawn"),
        ("archer", {"aiming": "spear"}, "aiming"),
        ("guard", {"covering": "nobody"}, "covering"),
        ("guard", {"forced_skips": 4}, "forced_skips"),
    ],
)
def test_bad_situation_state_names_the_field(cid, state, field):
    data = {**SKIRMISH, "combatants": [{"id": cid, "state": state}]}
    with pytest.raises(DataError, match=f"field '{field}'"):
        from_situation(data)
