"""Mano a Mano data (spec §2, §13): the derived statistics computed from each sheet match the
numbers printed in spec §13.9, and bad data fails with one line naming the file, entry and field."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from envs.core.data import DataError
from envs.mano_a_mano.rules import catalogue, load_catalogue
from envs.mano_a_mano.rules.catalogue import DATA
from envs.mano_a_mano.rules.rulings import range_m

# spec §13.9, the `derived:` block of every combatant (true/false/null as JSON spells them)
true, false, null = True, False, None
EXPECTED = {
    "steven": {
        "natural_weapon": {"power": 3, "attack": 2, "defense": 12, "sharpness": "blunt"},
        "weapons": {
            "machete": {
                "power": 5,
                "attack": 4,
                "defense": 14,
                "sharpness": "sharp",
                "unwieldy": false,
            }
        },
        "melee_defense": 14,
        "missile_defense": 10,
        "grapple_attack": 3,
        "grapple_defense": 13,
        "grapple_power": 3,
        "best_absorption": 0,
        "total_cover": 0,
        "carrying_capacity_kg": 5,
        "carried_kg": 0.5,
    },
    "clone": {
        "natural_weapon": {"power": 3, "attack": 2, "defense": 12, "sharpness": "blunt"},
        "weapons": {},
        "melee_defense": 12,
        "missile_defense": 10,
        "grapple_attack": 3,
        "grapple_defense": 13,
        "grapple_power": 3,
        "best_absorption": 0,
        "total_cover": 0,
        "carrying_capacity_kg": 5,
        "carried_kg": 0,
    },
    "guard": {
        "natural_weapon": {"power": 4, "attack": 3, "defense": 13, "sharpness": "blunt"},
        "weapons": {
            "spear": {
                "power": 4,
                "attack": 7,
                "defense": 17,
                "sharpness": "sharp",
                "unwieldy": false,
                "throw_modifier": 1,
                "quick_throw_range_m": 1,
            }
        },
        "melee_defense": 17,
        "missile_defense": 11,
        "grapple_attack": 7,
        "grapple_defense": 17,
        "grapple_power": 4,
        "best_absorption": 2,
        "total_cover": 6,
        "carrying_capacity_kg": 10,
        "carried_kg": 7,
    },
    "wrestler": {
        "natural_weapon": {"power": 5, "attack": 5, "defense": 15, "sharpness": "blunt"},
        "weapons": {},
        "melee_defense": 15,
        "missile_defense": 11,
        "grapple_attack": 10,
        "grapple_defense": 20,
        "grapple_power": 5,
        "best_absorption": 2,
        "total_cover": 5,
        "carrying_capacity_kg": 15,
        "carried_kg": 4.5,
    },
    "archer": {
        "natural_weapon": {"power": 3, "attack": 1, "defense": 11, "sharpness": "blunt"},
        "weapons": {
            "light_bow": {
                "power": 6,
                "attack": 4,
                "sharpness": "sharp",
                "range_m": 150,
                "shots": [1, 1],
                "can_draw": true,
            },
            "knife": {
                "power": 3,
                "attack": 3,
                "defense": 13,
                "sharpness": "sharp",
                "throw_modifier": 1,
                "quick_throw_range_m": 1,
            },
        },
        "melee_defense": 11,
        "melee_defense_with_knife": 13,
        "missile_defense": 11,
        "grapple_attack": 4,
        "grapple_defense": 14,
        "grapple_power": 3,
        "best_absorption": 2,
        "total_cover": 1,
        "carrying_capacity_kg": 5,
        "carried_kg": 2,
    },
    "elephant": {
        "natural_weapon": {"power": 25, "attack": 1, "defense": 11, "sharpness": "blunt"},
        "weapons": {},
        "melee_defense": 11,
        "missile_defense": 6,
        "grapple_attack": 21,
        "grapple_roll_modifier_effective": 17,
        "grapple_defense": 31,
        "grapple_power": 25,
        "balance_roll_modifier": -4,
        "best_absorption": 1,
        "total_cover": "complete",
        "carrying_capacity_kg": 2100,
        "carried_kg": 0,
    },
}


@pytest.mark.parametrize("cid", list(EXPECTED))
def test_derived_statistics_match_spec_13(cid):
    b = catalogue().stat_blocks[cid]
    want = EXPECTED[cid]
    nat = b.best_natural()
    assert {
        "power": nat.power,
        "attack": nat.attack,
        "defense": nat.defense,
        "sharpness": nat.sharpness,
    } == want["natural_weapon"]
    assert b.melee_defense() == want["melee_defense"]
    assert b.missile_defense == want["missile_defense"]
    assert b.grapple_attack == want["grapple_attack"]
    assert b.grapple_defense == want["grapple_defense"]
    assert b.grapple_power == want["grapple_power"]
    assert b.best_absorption == want["best_absorption"]
    assert b.total_cover == want["total_cover"]
    assert b.carrying_capacity_kg == want["carrying_capacity_kg"]
    assert b.carried_kg == pytest.approx(want["carried_kg"])
    assert b.stamina == 2 * b.toughness
    for item, stats in want["weapons"].items():
        got = b.item_stats(item)
        for key, value in stats.items():
            if key == "shots":
                assert list(b.items[item].shots) == value
            else:
                assert getattr(got, key) == value, (item, key)
    if "melee_defense_with_knife" in want:  # spec §13.5: 13 once the knife is in hand
        assert b.melee_defense({"right": "knife", **b.held}) == want["melee_defense_with_knife"]
    if "grapple_roll_modifier_effective" in want:  # spec §13.6: inept, no grappling ability
        assert b.grapple_roll_modifier == want["grapple_roll_modifier_effective"]
        assert b.balance_roll_modifier == want["balance_roll_modifier"]


def test_one_handed_use_of_a_two_handed_weapon_ruling_r34():
    guard = catalogue().stat_blocks["guard"]
    spear = guard.item_stats("spear", "right")  # loses its 2 control: attack 1 + 4 = 5, defense 15
    assert (spear.attack, spear.defense, spear.unwieldy) == (5, 15, False)
    pike = guard.item_stats(
        "pike", "right"
    )  # no control or offense: heft 4 x 1.5 = 6 > hand power 4
    assert pike.unwieldy and not guard.item_stats("pike", "both").unwieldy


def test_range_in_metres_ruling_r6():
    assert [range_m(h) for h in (1, 2, 3, 7)] == [0, 2, 4, 12]


def _write(tmp_path: Path, mutate) -> Path:
    data = yaml.safe_load((DATA / "catalogue.yaml").read_text())
    mutate(data)
    path = tmp_path / "cat.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["combatants"][0].update(stamina=15),
            "combatants.steven: field 'stamina': stamina is always 2 x toughness = 14",
        ),
        (
            lambda d: d["combatants"][0].update(speed=1.5),
            "combatants.steven: field 'speed': expected one of 1/4, 1/2, 1, 2, 3",
        ),
        (
            lambda d: d["combatants"][0].update(held={"tail": "machete"}),
            "combatants.steven.held: field 'tail': unknown hand",
        ),
        (
            lambda d: d["combatants"][0].update(held={"right": "laser"}),
            "field 'right': unknown weapon 'laser'",
        ),
        (
            lambda d: d["combatants"][0]["abilities"].update(kung_fu=3),
            "combatants.steven.abilities: field 'kung_fu': unknown ability",
        ),
        (
            lambda d: d["combatants"][0].update(template="orc"),
            "combatants.steven: field 'template': unknown template 'orc'",
        ),
        (
            lambda d: d["items"]["machete"].update(sharpness="pointy"),
            "items.machete: field 'sharpness': unknown value 'pointy'",
        ),
        (
            lambda d: d["items"]["leather_cap"].update(cover=12),
            "items.leather_cap: field 'cover': expected 1..9 or complete",
        ),
        (
            lambda d: d["items"]["machete"].update(offense=3),
            "items.machete: field 'offense': expected an integer in 0..2",
        ),
        (
            lambda d: d["encounters"][0]["sides"].update(B=["ghost"]),
            "encounters.duel_seed.sides: field 'B': unknown combatant 'ghost'",
        ),
        (
            lambda d: d["encounters"][0].update(surprise_mode="always"),
            "encounters.duel_seed: field 'surprise_mode': unknown value",
        ),
        (
            lambda d: d["combatants"][0].update(colour="red"),
            "combatants.steven: field 'colour': unknown field",
        ),
    ],
)
def test_bad_data_fails_with_one_line(tmp_path, mutate, message):
    path = _write(tmp_path, mutate)
    with pytest.raises(DataError) as info:
        load_catalogue(path)
    text = str(info.value)
    assert message in text and str(path) in text and "\n" not in text


def test_the_shipped_encounters_name_known_combatants():
    enc = catalogue().encounters
    assert set(enc) == {
        "duel_seed",
        "duel_spear",
        "skirmish_2v2",
        "giant",
        "cavalry",
        "duel_musket",
    }
    assert (
        enc["duel_seed"].sides == {"A": ("steven",), "B": ("clone",)}
        and enc["duel_seed"].surprise_mode == "side_A"
    )
    assert enc["giant"].sides["B"] == ("steven", "wrestler")
