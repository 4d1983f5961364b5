"""Metaforce catalogue loading (spec §13.5): every bad field of a copy of the shipped file fails
with one line naming the file, the entry and the field, and inline stat blocks (a situation's own
creatures) are built and checked the same way."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest
import yaml

from envs.core.data import DataError
from envs.metaforce.rules.catalogue import (
    DATA,
    catalogue,
    load_catalogue,
    stat_block_from_mapping,
)

RAW = yaml.safe_load((DATA / "catalogue.yaml").read_text(encoding="utf-8"))


def _find(items: list[dict[str, Any]], iid: str) -> dict[str, Any]:
    return next(i for i in items if i["id"] == iid)


def block(doc: dict[str, Any], bid: str) -> dict[str, Any]:
    return _find(doc["combatants"], bid)


def weapon(doc: dict[str, Any], bid: str, wid: str) -> dict[str, Any]:
    return _find(block(doc, bid)["weapons"], wid)


def enc(doc: dict[str, Any], eid: str) -> dict[str, Any]:
    return _find(doc["encounters"], eid)


def _set(path: Callable[[dict[str, Any]], dict[str, Any]], key: str, value: Any):
    def edit(doc: dict[str, Any]) -> None:
        path(doc)[key] = value
    return edit


def _del(path: Callable[[dict[str, Any]], dict[str, Any]], key: str):
    def edit(doc: dict[str, Any]) -> None:
        del path(doc)[key]
    return edit


def fighter(d):
    return block(d, "fighter")


def duel(d):
    return enc(d, "duel_fighter_brawler")


BAD = [
    (_set(fighter, "hp_max", 55), "combatants.fighter: field 'hp_max': the file says 55, "
                                  "the formulas give 54"),
    (_set(fighter, "cores", {"body": 8, "reflex": 5, "mind": 2}),
     "combatants.fighter: field 'cores': the file says {'body': 8"),
    (_set(lambda d: block(d, "hill_giant"), "speed_ft", 25),
     "combatants.hill_giant: field 'speed_ft': the file says 25, the formulas give 30"),
    (_set(lambda d: fighter(d)["attributes"], "str", "four"),
     "combatants.fighter.attributes: field 'str': expected an integer, got 'four'"),
    (_set(lambda d: fighter(d)["attributes"], "luck", 1),
     "combatants.fighter.attributes: field 'luck': unknown field"),
    (_del(lambda d: fighter(d)["attributes"], "cha"),
     "combatants.fighter.attributes: field 'cha': missing"),
    (_set(fighter, "size", 0), "combatants.fighter: field 'size': unknown size 0"),
    (_set(fighter, "level", 0), "combatants.fighter: field 'level': expected an integer >= 1"),
    (_set(fighter, "protected", "yes"), "combatants.fighter: field 'protected': expected bool"),
    (_set(lambda d: weapon(d, "fighter", "warhammer"), "tohit", 9),
     r"combatants.fighter.weapons.warhammer: field 'tohit': 9, but STR 4 \+ Metaphor 4 \+ "
     r"equipment 0 = 8"),
    (_set(lambda d: weapon(d, "fighter", "warhammer"), "magnitude_bonus", 4),
     "combatants.fighter.weapons.warhammer: field 'magnitude_bonus': 4, but the covering "
     "Metaphor gives 6"),
    (_set(lambda d: weapon(d, "hill_giant", "great_club"), "size_multiplier", 3),
     "combatants.hill_giant.weapons.great_club: field 'size_multiplier': 3 is not the Size 4 "
     "multiplier 4"),
    (_set(lambda d: weapon(d, "fighter", "warhammer"), "damage_type", "laser"),
     "combatants.fighter.weapons.warhammer: field 'damage_type': unknown value 'laser'"),
    (_set(lambda d: weapon(d, "fighter", "warhammer"), "type", "laser"),
     "combatants.fighter.weapons.warhammer: field 'type': unknown value 'laser'"),
    (_set(lambda d: weapon(d, "fighter", "warhammer"), "special_status", "doom"),
     "combatants.fighter.weapons.warhammer: field 'special_status': unknown status 'doom'"),
    (_set(lambda d: weapon(d, "fighter", "warhammer"), "bonus_die", 7),
     "combatants.fighter.weapons.warhammer: field 'bonus_die': expected one of 0, 4, 6"),
    (_del(lambda d: weapon(d, "fighter", "warhammer"), "reach_ft"),
     "combatants.fighter.weapons.warhammer: field 'reach_ft': missing"),
    (_del(lambda d: weapon(d, "detective", "revolver"), "capacity"),
     "combatants.detective.weapons.revolver: field 'capacity': missing"),
    (_set(lambda d: weapon(d, "detective", "revolver"), "reload_mode", "fast"),
     "combatants.detective.weapons.revolver: field 'reload_mode': expected 'all' or"),
    (_set(lambda d: weapon(d, "detective", "revolver"), "trigger_limit", 0),
     "combatants.detective.weapons.revolver: field 'trigger_limit': expected an integer >= 1"),
    (_set(lambda d: weapon(d, "detective", "revolver"), "penetration", "x3"),
     "combatants.detective.weapons.revolver: field 'penetration': expected a number >= 0"),
    (_set(lambda d: weapon(d, "bandit", "mace"), "trigger_limit", 2),
     "combatants.bandit.weapons.mace: field 'trigger_limit': only a firearm"),
    (_set(lambda d: weapon(d, "bandit", "mace"), "range_increment_ft", 30),
     "combatants.bandit.weapons.mace: field 'range_increment_ft': firearms and bows"),
    (_set(lambda d: weapon(d, "bandit", "mace"), "sharp", True),
     "combatants.bandit.weapons.mace: field 'sharp': unknown field"),
    (_set(lambda d: block(d, "bandit"), "mpowers", ["crash_out"]),
     "combatants.bandit: field 'mpowers': a combatant that is not a Metaforce user"),
    (_set(fighter, "mpowers", ["action8_react4", "crash_out"]),
     r"combatants.fighter: field 'mpowers': 2 M-Powers but level 1 has 1 slot\(s\)"),
    (_set(fighter, "mpowers", ["flight"]),
     "combatants.fighter: field 'mpowers': unknown M-Power 'flight'"),
    (_set(fighter, "saves", ["body"]),
     r"combatants.fighter: field 'saves': lists \['body'\], but the eligible saves are "
     r"\['body', 'reflex'\]"),
    (_set(fighter, "saves", ["luck"]), "combatants.fighter: field 'saves': unknown save 'luck'"),
    (_set(fighter, "expertise", ["str"]),
     "combatants.fighter: field 'expertise': 'str' is listed as proficient and expert"),
    (_set(fighter, "proficient", ["str", "brawn"]),
     "combatants.fighter: field 'proficient': unknown attribute 'brawn'"),
    (_set(lambda d: _find(block(d, "wizard")["spells"], "fire_bolt"), "damage_base", 5),
     "combatants.wizard.spells.fire_bolt: field 'damage_base': 5 contradicts the fire_bolt "
     "template's 4"),
    (_set(lambda d: _find(block(d, "wizard")["spells"], "fire_bolt"), "tohit", 7),
     "combatants.wizard.spells.fire_bolt: field 'tohit': 7, but the casting Attribute"),
    (_set(lambda d: _find(block(d, "wizard")["spells"], "fireball"), "level", 6),
     "combatants.wizard.spells.fireball: field 'level': expected an integer in 0..5"),
    (lambda d: _find(block(d, "wizard")["spells"], "fireball").pop("tohit"),
     r"combatants.wizard.spells.fireball: field 'tohit': missing \(a stat block's levelled "
     r"attack spell needs its caster's ToHit"),
    (_set(fighter, "weapons", RAW["combatants"][0]["weapons"] + [RAW["combatants"][0][
        "weapons"][1]]), "combatants.fighter: field 'weapons': two weapons share the id "
                         "'unarmed'"),
    (lambda d: d["combatants"].append(copy.deepcopy(d["combatants"][0])),
     "combatants.fighter: field 'id': a second entry with this id"),
    (_set(fighter, "armour", "adamantium"),
     "combatants.fighter: field 'armour': unknown armour 'adamantium'"),
    (_set(lambda d: fighter(d)["armour"], "deflection_bonus", -1),
     "combatants.fighter.armour: field 'deflection_bonus': expected an integer >= 0"),
    (_set(fighter, "resistances", {"laser": 3}),
     "combatants.fighter.resistances: field 'laser': unknown type"),
    (_set(lambda d: block(d, "stone_golem"), "immunities", ["status:doom"]),
     "combatants.stone_golem: field 'immunities': unknown immunity 'status:doom'"),
    (_set(lambda d: block(d, "stone_golem"), "weaknesses", {"electric": "lots"}),
     "combatants.stone_golem.weaknesses: field 'electric': expected an integer >= 0"),
    (_set(lambda d: fighter(d)["metaphors"][0], "rank", 3),
     r"combatants.fighter.metaphors\[0\]: field 'components': components add up to 4, more "
     "than the rank 3"),
    (_set(lambda d: fighter(d)["metaphors"][0], "kind", "magic"),
     "field 'kind': unknown value 'magic'"),
    (_del(lambda d: fighter(d)["metaphors"][1], "core"),
     r"combatants.fighter.metaphors\[1\]: field 'core': missing"),
    (_set(lambda d: block(d, "odonghe_brawler")["grapple"], "bonus", 9),
     r"combatants.odonghe_brawler: field 'grapple': bonus 9, but STR \+ Metaphor give 8"),
    (_set(lambda d: _find(d["weapons"], "shotgun"), "capacity", 0),
     "weapons.shotgun: field 'capacity': expected an integer >= 1"),
    (_set(lambda d: _find(d["weapons"], "shotgun"), "size_ranks", -1),
     "weapons.shotgun: field 'size_ranks': expected an integer >= 0"),
    (_set(lambda d: _find(d["spells"], "fireball"), "frames", 0),
     "spells.fireball: field 'frames': expected an integer >= 1"),
    (_set(lambda d: _find(d["armour"], "shield"), "hands", 3),
     "armour.shield: field 'hands': expected an integer in 0..2"),
    (lambda d: duel(d)["teams"].update(b=["ogre"]),
     "encounters.duel_fighter_brawler.teams: field 'b': unknown combatant 'ogre'"),
    (_set(duel, "teams", {"a": ["fighter"]}),
     "encounters.duel_fighter_brawler: field 'teams': an encounter needs at least two teams"),
    (_set(duel, "teams", {"a": ["fighter"], "b": []}),
     "encounters.duel_fighter_brawler.teams: field 'b': a team needs at least one combatant"),
    (_set(duel, "grid", [4, 4]),
     "encounters.duel_fighter_brawler: field 'grid': on a 4 x 4 map the west and east teams "
     "start 15 ft apart, less than 30 ft"),
    (_set(duel, "grid", [12]), "encounters.duel_fighter_brawler: field 'grid': expected "
                               r"\[width, height\]"),
    (_set(duel, "initiative_mode", "random"),
     "encounters.duel_fighter_brawler: field 'initiative_mode': unknown value 'random'"),
    (_set(duel, "positions", {"fighter": [3, 3], "odonghe_brawler": [3, 3]}),
     "encounters.duel_fighter_brawler.positions: field 'odonghe_brawler': shares a square "
     "with fighter"),
    (_set(duel, "positions", {"fighter": [3, 3], "odonghe_brawler": [12, 3]}),
     "encounters.duel_fighter_brawler.positions: field 'odonghe_brawler': a 1 x 1 combatant "
     r"at \[12, 3\] does not fit on the 12 x 12 map"),
    (_set(duel, "positions", {"fighter": [3, 3]}),
     "encounters.duel_fighter_brawler.positions: field 'odonghe_brawler': missing"),
    (_set(duel, "positions", {"fighter": [3, 3], "odonghe_brawler": [1, 2], "ogre": [5, 5]}),
     "encounters.duel_fighter_brawler.positions: field 'ogre': no such member"),
    (_set(duel, "positions", {"fighter": "here", "odonghe_brawler": [1, 2]}),
     r"encounters.duel_fighter_brawler.positions: field 'fighter': expected an anchor \[x, y\]"),
    (lambda d: d.update(monsters=[]), "catalogue: field 'monsters': unknown field"),
    (lambda d: d.update(system="sizebound"), "catalogue: field 'system': unknown value"),
    (lambda d: d.update(schema_version=2),
     "catalogue: field 'schema_version': expected an integer in 1..1"),
    (lambda d: d.pop("combatants"), "catalogue: field 'combatants': missing"),
]


@pytest.mark.parametrize("edit, message", BAD, ids=[m[:60] for _, m in BAD])
def test_bad_data_is_one_line_naming_file_entry_and_field(tmp_path, edit, message):
    doc = copy.deepcopy(RAW)
    edit(doc)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_catalogue(path)
    text = str(err.value)
    assert text.startswith(f"{path}: ") and "\n" not in text
    assert re.search(message, text), text


def test_invalid_yaml_names_the_file_and_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("system: metaforce\ncombatants: [\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"broken.yaml: line \d+: invalid YAML"):
        load_catalogue(path)


def test_the_shipped_file_round_trips_through_a_copy(tmp_path):
    path = tmp_path / "copy.yaml"
    path.write_text(yaml.safe_dump(RAW, sort_keys=False), encoding="utf-8")
    cat = load_catalogue(path)
    assert cat.stat_blocks == catalogue().stat_blocks
    assert sorted(cat.encounters) == sorted(catalogue().encounters)


INLINE = {
    "name": "Ogre", "level": 2, "size": 3, "protected": False, "metaforce_user": False,
    "attributes": {"str": 5, "end": 3, "agi": 0, "per": 1, "int": -1, "cha": 0},
    "proficient": ["str", "end"], "saves": ["body"], "armour": "medium",
    "metaphors": [{"name": "Brute", "rank": 2, "kind": "combat", "covers": ["club"]}],
    "weapons": [{"id": "club", "type": "melee", "hands": 2, "attr": "str", "tohit": 7,
                 "damage_base": 4, "bonus_die": 6, "damage_type": "blunt", "reach_ft": 15,
                 "magnitude_bonus": 2}],
}


def test_inline_stat_block_gets_derived_values_and_defaults():
    ogre = stat_block_from_mapping(INLINE, "fight.yaml", "combatants.ogre")
    d = ogre.derived
    # Body 5 + 3 + 0 = 8, Reflex 0 + 1 + 0.5 * 4 = 3, Mind -1 + 0 + 2 = 1
    assert (ogre.id, ogre.name, dict(d.cores)) == ("ogre", "Ogre",
                                                   {"body": 8, "reflex": 3, "mind": 1})
    assert (d.hp_max, d.mp_max, d.evasion, d.deflection) == ((6 + 6 * 10) * 3, 0, 6, 11)
    assert (d.speed_ft, d.space_squares, d.reach_ft) == (25, 3, 15)
    assert ogre.weapons[0].special_status == "knockback"  # R-16 default for blunt
    assert ogre.aware and ogre.armour.name == "medium (mail)"


def test_inline_stat_block_errors_name_the_situation_entry():
    with pytest.raises(DataError, match=r"^fight.yaml: combatants\[2\]: field 'hp_max': the "
                                        r"file says 100, the formulas give 198 \(§2.5\)$"):
        stat_block_from_mapping({**INLINE, "hp_max": 100}, "fight.yaml", "combatants[2]")
    with pytest.raises(DataError, match=r"^fight.yaml: combatants.ogre: field 'level': "):
        stat_block_from_mapping({**INLINE, "level": "two"}, "fight.yaml", "combatants.ogre")
    with pytest.raises(DataError, match=r"^fight.yaml: combatants.ogre: expected a mapping"):
        stat_block_from_mapping(["ogre"], "fight.yaml", "combatants.ogre")


def test_inline_caster_takes_a_spell_from_its_template():
    caster = {**INLINE, "size": 1, "attributes": {**INLINE["attributes"], "per": 3},
              "metaphors": [{"name": "Divinity", "rank": 3, "kind": "combat",
                             "covers": ["spells"], "casting_attr": "per"}],
              "weapons": [], "spells": [{"id": "ray_of_frost", "tohit": 6,
                                         "magnitude_bonus": 3}]}
    b = stat_block_from_mapping(caster, "fight.yaml", "combatants.priest")
    ray = b.attacks()[0]
    assert (ray.id, ray.kind, ray.attr, ray.tohit, ray.damage_base, ray.bonus_die) == (
        "ray_of_frost", "spell", "per", 6, 4, 6)
    assert (ray.damage_type, ray.special_status, ray.range_increment_ft) == ("cold", "slow", 60)


def test_inline_defences_penetration_and_size_resistance():
    tank = {**INLINE, "size": 1, "armour": {"name": "riot plate", "deflection_bonus": 4,
                                            "resistance": {"physical": 2},
                                            "bullet_resistant": True},
            "resistances": {"fire": 1, "status:burn": 0}, "absorbs": {"cold": 5},
            "immunities": {"poison": 4}, "weaknesses": {"sonic": 6},
            "size_resistance": {"sources": 2, "reduction": 1},
            "weapons": [{**INLINE["weapons"][0], "reach_ft": 5, "penetration": "md8"},
                        {"id": "carbine", "type": "firearm", "hands": 2, "attr": "per",
                         "tohit": 1, "damage_base": 12, "bonus_die": 6,
                         "damage_type": "piercing", "range_increment_ft": 90,
                         "trigger_limit": 3, "auto": True, "capacity": 30,
                         "chamber_plus_one": True, "reload_mode": "all",
                         "reserve_magazines": 2, "armour_piercing": True, "penetration": 2}]}
    b = stat_block_from_mapping(tank, "fight.yaml", "combatants.tank")
    assert (b.resistance_x("slashing"), b.resistance_x("piercing", firearm=True)) == (2, 2)
    assert (b.resistance_x("fire"), b.resistance_x("status:burn"), b.resistance_x("cold")) == (
        1, 0, None)
    assert (b.absorb("cold"), b.immunity("poison"), b.weakness("sonic")) == (5, 4, 6)
    club, carbine = b.weapons
    assert str(club.penetration) == "md8" and club.penetration.meta
    assert carbine.penetration is not None and carbine.penetration.flat == 2
    assert (carbine.armour_piercing, carbine.reserve_magazines, carbine.max_range_ft) == (
        True, 2, 270)
    assert b.derived.deflection == 8 + 4
    sr = b.defences.size_resistance
    assert sr is not None and (sr.sources, sr.reduction) == (2, 1)


def test_size_resistance_of_8_4():
    from fractions import Fraction

    from envs.metaforce.rules.catalogue import SizeResistance
    one = SizeResistance()
    # §8.4 example: a Size 3 defender against a Size 4 attacker: floor(4/2) = 2, raised to 3
    assert one.attacker_size(Fraction(4), Fraction(3)) == 3
    assert one.attacker_size(Fraction(16), Fraction(1)) == 8
    assert SizeResistance(2).attacker_size(Fraction(16), Fraction(1)) == 4  # halved again
    assert SizeResistance(3).attacker_size(Fraction(10), Fraction(1)) == 2  # 5 -> 3 -> 2
    assert SizeResistance(1, 5).attacker_size(Fraction(8), Fraction(1)) == 1  # Reduction >= 1
    assert SizeResistance(0, 2).attacker_size(Fraction(8), Fraction(2)) == 6
    assert one.attacker_size(Fraction(2), Fraction(4)) == 2  # smaller attackers untouched


def test_status_table_and_weapon_default_statuses():
    from envs.metaforce.rules.catalogue import STATUSES
    from envs.metaforce.rules.records import default_status
    # R-16 / §2.7 table
    assert {t: default_status(t) for t in ("blunt", "slashing", "piercing", "fire", "cold",
                                           "electric", "acid", "poison", "sonic", "magic")} == {
        "blunt": "knockback", "slashing": "bleed", "piercing": "bleed", "fire": "burn",
        "cold": "slow", "electric": "stun", "acid": "acid_burn", "poison": "poison",
        "sonic": "deafened", "magic": None}
    # §7.4, §7.5: core and save Attribute; Knockback cannot be saved; Acid lingers
    assert {k: (v.core, v.save_attr) for k, v in STATUSES.items()} == {
        "poison": ("body", "end"), "burn": ("body", "end"), "bleed": ("body", "end"),
        "acid_burn": ("body", "end"), "stun": ("body", "end"), "knockback": ("reflex", None),
        "grappled": ("reflex", "agi"), "slow": ("reflex", "agi"), "fear": ("mind", "cha"),
        "charm": ("mind", "cha"), "sleep": ("mind", "cha"), "deafened": ("body", "end")}
    assert [k for k, v in STATUSES.items() if v.dot] == ["poison", "burn", "bleed", "acid_burn"]
    assert [k for k, v in STATUSES.items() if v.lingers] == ["acid_burn"]
