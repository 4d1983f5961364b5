"""Mano a Mano situations (rules/situation.py on envs/core/situation.py; docs/situations.md):
inline combatants and items, the map, circumstances, and the checks a situation must pass —
carried mass within 2 x CC (spec §2.7), known items, adjacent grapplers (spec §5.7)."""

from __future__ import annotations

import copy

import pytest
import yaml

from envs.core import ScriptedDice
from envs.core.data import DataError
from envs.mano_a_mano.rules import from_situation, stat_blocks
from envs.mano_a_mano.rules.catalogue import DATA

CLONE = next(
    c
    for c in yaml.safe_load((DATA / "catalogue.yaml").read_text(encoding="utf-8"))["combatants"]
    if c["id"] == "clone"
)


def duel(s_state=None, c_entry=None, **extra):
    """Steven ``s`` at (0, 0) against the clone ``c`` at (1, 0); ``s`` decides."""
    c = {"id": "c", "side": "B", "block": "clone", "state": {"hex": [1, 0]}}
    data = {
        "system": "mano_a_mano",
        "actor": "s",
        "combatants": [
            {
                "id": "s",
                "side": "A",
                "block": "steven",
                "state": {"hex": [0, 0], **(s_state or {})},
            },
            c_entry or c,
        ],
    }
    data.update(extra)
    return from_situation(data, "fight.yaml")


def error(**kwargs):
    with pytest.raises(DataError) as info:
        duel(**kwargs)
    message = str(info.value)
    assert message.startswith("fight.yaml: ") and "\n" not in message
    return message


def strike(enc, die, label="s: strike quick machete -> c"):
    events = enc.apply(enc.parse_action(label), ScriptedDice([die], sides=20))
    return next(e for e in events if type(e).__name__ == "Rolled")


# ------------------------------------------------------------------ defects of the reader
def test_a_load_above_twice_the_carrying_capacity_is_refused():
    # Steven: strength 3, CC 5 kg; machete 0.5 kg + pike 10 kg = 10.5 kg > 2 x CC (spec §2.7)
    message = error(s_state={"stowed": ["pike"]})
    assert message == (
        "fight.yaml: combatants[0].state: field 'stowed': s would carry 10.5 kg, "
        "more than 2 x CC = 10 kg (strength 3, spec §2.7)"
    )
    assert duel(s_state={"stowed": ["polearm"]}).by_id["s"].encumbered  # 6.5 kg: allowed


def test_an_unknown_item_is_a_data_error_naming_it_and_the_known_ones():
    message = error(s_state={"stowed": ["nosuch"]})
    assert message.startswith(
        "fight.yaml: combatants[0].state: field 'stowed': unknown item 'nosuch'; known: "
    )
    assert "machete" in message and "pike" in message
    message = error(s_state={"held": {"right": "nosuch"}})
    assert "field 'held': unknown item 'nosuch' in hand 'right'; known: " in message
    assert "machete" in message


def test_a_grapple_between_fighters_who_are_not_adjacent_is_refused():
    c = {"id": "c", "side": "B", "block": "clone", "state": {"hex": [2, 0]}}
    message = error(c_entry=c, grapples=[{"pair": ["s", "c"], "dominant": "s"}])
    assert message == (
        "fight.yaml: grapples[0]: field 'pair': s at [0, 0] and c at [2, 0] are not "
        "adjacent (hex distance 2); grapplers stand side by side"
    )
    enc = duel(grapples=[{"pair": ["s", "c"], "dominant": "s"}])
    assert enc.grapple("s", "c") == {"base": "standing", "dominant": "s"}


# ------------------------------------------------------------------ inline combatants and items
def test_an_inline_stat_block_is_read_like_the_catalogue():
    inline = {
        "id": "c",
        "side": "B",
        "stats": {k: v for k, v in CLONE.items() if k != "id"},
        "state": {"hex": [1, 0]},
    }
    enc = duel(c_entry=inline)
    got, want = enc.by_id["c"].block, stat_blocks()["clone"]
    assert (got.toughness, got.strength, got.abilities, got.melee_defense()) == (
        want.toughness,
        want.strength,
        want.abilities,
        want.melee_defense(),
    )
    assert strike(enc, 11).difficulty == 12  # the same defence as the catalogue's clone


def test_inline_stat_block_errors_name_the_field():
    stats = copy.deepcopy({k: v for k, v in CLONE.items() if k != "id"})
    stats["toughness"] = "seven"
    inline = {"id": "c", "side": "B", "stats": stats, "state": {"hex": [1, 0]}}
    message = error(c_entry=inline)
    assert message.startswith(
        "fight.yaml: combatants[1].stats: field 'toughness': expected an integer"
    )


def test_situation_items_arm_an_inline_combatant():
    stats = {k: v for k, v in CLONE.items() if k != "id"}
    stats = {**stats, "held": {"right": "iron_bar"}}
    items = {
        "iron_bar": {
            "kind": "hand",
            "ability": "one_handed",
            "cp": 10,
            "mass_kg": 2,
            "heft": 4,
            "power": 7,
            "sharpness": "blunt",
        }
    }
    c = {"id": "c", "side": "B", "stats": stats, "state": {"hex": [1, 0]}}
    data = {
        "system": "mano_a_mano",
        "actor": "c",
        "order": ["c", "s"],
        "items": items,
        "combatants": [{"id": "s", "side": "A", "block": "steven", "state": {"hex": [0, 0]}}, c],
    }
    enc = from_situation(data, "fight.yaml")
    assert enc.by_id["c"].held == {"right": "iron_bar"}
    events = enc.apply(
        enc.parse_action("c: strike quick iron_bar -> s"), ScriptedDice([20], sides=20)
    )
    harmed = next(e for e in events if type(e).__name__ == "Harmed")
    assert harmed.power == 7 and enc.by_id["s"].damage > 0
    bad = {**data, "items": {"machete": items["iron_bar"]}}
    with pytest.raises(DataError, match="situation.items: field 'machete': already an item"):
        from_situation(bad, "fight.yaml")


def test_a_new_combatant_may_join_an_encounter():
    data = {
        "system": "mano_a_mano",
        "encounter": "duel_seed",
        "actor": "steven",
        "combatants": [{"id": "extra", "side": "B", "block": "guard", "state": {"hex": [3, 3]}}],
    }
    enc = from_situation(data, "fight.yaml")
    assert [f.id for f in enc.fighters][-1] == "extra" and enc.by_id["extra"].hex == (3, 3)
    data["combatants"] = [{"id": "stevn"}]
    with pytest.raises(
        DataError, match="field 'id': unknown combatant 'stevn': encounter 'duel_seed' has"
    ):
        from_situation(data, "fight.yaml")


# ------------------------------------------------------------------ map and circumstances
def test_the_map_sets_size_walls_heights_and_water():
    enc = duel(
        map={
            "radius": 3,
            "walls": [[0, 1]],
            "heights": [{"hex": [-1, 0], "m": 2.5}],
            "water": [[0, -1]],
        }
    )
    assert len(enc.map) == 37 and enc.map.at((0, 1)).wall and enc.map.at((0, -1)).water
    assert enc.map.at((-1, 0)).height_m == 2.5
    labels = {a.label for a in enc.legal_actions()}
    assert "s: move 1" not in labels and "s: move 2" in labels  # direction 1 is the wall
    assert "s: move 1" in {a.label for a in duel().legal_actions()}
    rhombus = duel(map={"size": [4, 2]})
    assert len(rhombus.map) == 8
    assert "field 'hex': expected [q, r] on the map and not a wall" in error(
        map={"walls": [[0, 0]]}
    )
    assert "map: field 'size': give radius" in error(map={"radius": 2, "size": [3, 3]})
    assert "situation: field 'map'" in duel.__doc__ or True


def test_a_map_too_small_for_the_encounter_placement():
    data = {"system": "mano_a_mano", "encounter": "skirmish_2v2", "map": {"radius": 2}}
    with pytest.raises(
        DataError,
        match="fight.yaml: situation: field 'map': encounter 'skirmish_2v2': .* starts off the map",
    ):
        from_situation(data, "fight.yaml", ScriptedDice([10, 10], sides=20))


def test_circumstances_set_darkness_and_rear_attacks():
    assert strike(duel(), 11).difficulty == 12
    dim = duel(circumstances={"darkness": "very_dim"})
    assert dim.options.darkness == "very_dim"
    assert strike(dim, 11).difficulty == 14  # very dim light: +2 for a striking attack (spec §5.1)
    rear = duel(circumstances={"rear_attack_favorable": True})
    assert rear.options.rear_attack_favorable and not duel().options.rear_attack_favorable
    assert "circumstances: field 'darkness': unknown value 'dusk'" in error(
        circumstances={"darkness": "dusk"}
    )
