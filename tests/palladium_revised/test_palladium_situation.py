"""Palladium Revised situations (envs/palladium_revised/rules/situation.py, situation_state.py):
a fight in progress (``order``, ``round``, ``actor``, ``second``) stands exactly where the file
says with no die rolled, a fresh start rolls round 1 as before, every ``state`` field lands on
the engine's record, the ambush is passed on, and each bad field is one line naming the file, the
entry and the field."""

from __future__ import annotations

import copy

import pytest
import yaml

from envs.core.actions import Action
from envs.core.cases import encounter_from_situation
from envs.core.data import DataError
from envs.core.dice import ScriptedDice
from envs.palladium_revised import rules as R
from envs.palladium_revised.rules.events import (
    AmbushDetection,
    ConditionChanged,
    InitiativeRolled,
    SecondStarted,
)
from eval.situation_tools import new_situation

PACK = {"system": "palladium_revised", "encounter": "goblin_pack",
        "order": ["gob_2", "sellsword_1", "gob_1", "gob_3", "gob_4"],
        "round": 3, "actor": "gob_3", "second": 7}


def load(data, faces=()):
    dice = ScriptedDice(list(faces))
    enc = R.from_situation(copy.deepcopy(data), "fight.yaml", dice)
    dice.check_exhausted()  # every forced die was used, no other die was rolled
    return enc


def slots(enc, cid):
    return [st for st in enc.by_id[cid].slot_state]


def with_state(cid, state, base=PACK):
    data = copy.deepcopy(base)
    data["combatants"] = [{"id": cid, "state": state}]
    return data


def test_a_fight_in_progress_stands_at_the_actors_slot_with_no_die_rolled():
    enc = load(PACK)
    assert (enc.round, enc.second, enc.t_abs, enc.cursor) == (3, 7, 37, (7, 1, 3))
    assert enc.current_actor() == "gob_3" and enc.decision == "turn"
    assert enc.order == PACK["order"]
    # goblins (3 Actions: Seconds 1, 7, 15); the sellsword (4: Seconds 1, 5, 10, 15)
    assert slots(enc, "sellsword_1") == ["used", "used", "available", "available"]
    assert slots(enc, "gob_2") == slots(enc, "gob_1") == ["used", "used", "available"]
    assert slots(enc, "gob_3") == slots(enc, "gob_4") == ["used", "available", "available"]
    assert all(c.initiative is None for c in enc.combatants)  # nobody rolled this round
    assert str(enc.start_events[-1]) == "gob_3's turn, second 7 pass 1"
    assert enc.legal_actions()[0].label == "gob_3: wait"


def test_an_actor_alone_decides_in_second_1_of_round_1_in_roster_order():
    enc = load({"system": "palladium_revised", "encounter": "goblin_pack", "actor": "gob_2"})
    assert (enc.round, enc.second, enc.t_abs, enc.cursor) == (1, 1, 1, (1, 1, 2))
    assert enc.order == ["sellsword_1", "gob_1", "gob_2", "gob_3", "gob_4"]
    assert slots(enc, "sellsword_1") == ["used", "available", "available", "available"]
    assert slots(enc, "gob_1") == ["used", "available", "available"]
    assert slots(enc, "gob_2") == ["available"] * 3
    assert enc.current_actor() == "gob_2"


def test_an_order_without_an_actor_starts_the_round_with_its_first():
    enc = load({"system": "palladium_revised", "encounter": "duel_sword_vs_rogue",
                "order": ["duelist_1", "sellsword_1"], "round": 2})
    assert (enc.round, enc.second, enc.t_abs, enc.current_actor()) == (2, 1, 16, "duelist_1")
    assert slots(enc, "sellsword_1") == ["available"] * 4


def test_a_round_without_an_order_rolls_its_initiative():
    # spec §3.4: 1D20 + init in roster order: sellsword 1 + 2 = 3, duelist 15 + 3 = 18
    enc = load({"system": "palladium_revised", "encounter": "duel_sword_vs_rogue", "round": 4},
               ["d20=1", "d20=15"])
    rolls = [e for e in enc.start_events if isinstance(e, InitiativeRolled)]
    assert [(e.combatant, e.total) for e in rolls] == [("sellsword_1", 3), ("duelist_1", 18)]
    assert (enc.round, enc.t_abs, enc.order) == (4, 46, ["duelist_1", "sellsword_1"])
    assert enc.current_actor() == "duelist_1"


def test_a_fresh_start_applies_the_state_before_round_1_is_rolled():
    data = {"system": "palladium_revised", "encounter": "duel_sword_vs_rogue",
            "combatants": [{"id": "sellsword_1", "state": {"stamina": 8, "sdc": 30}}]}
    enc = load(data, ["d20=1", "d20=15"])
    s = enc.by_id["sellsword_1"]
    assert (s.stamina, s.sdc, s.exhausted, s.fatigued) == (8, 30, True, True)
    assert (enc.round, enc.order, enc.current_actor()) == (1, ["duelist_1", "sellsword_1"],
                                                           "duelist_1")


def test_the_pools_and_statuses_are_what_the_table_shows():
    enc = load(with_state("sellsword_1", {
        "sdc": 20, "hp": 11, "stamina": 15, "morale": 1, "wounds": 3, "armor_sdc": 7,
        "step_budget": 4, "defending": True, "resting": True, "rest_seconds": 3,
        "multidodge": 14}))
    s = enc.by_id["sellsword_1"]
    assert (s.sdc, s.hp, s.stamina, s.morale, s.wounds, s.armor_sdc, s.step_budget) == \
        (20, 11, 15, 1, 3, 7, 4)
    assert (s.defending, s.resting, s.rest_seconds, s.multidodge) == (True, True, 3, 14)
    # the state check after the table's state: Stamina 15 <= 16 (half of 32); Morale 1 < 2.4
    # (10% of 24): Depression ceil(2.4 - 1) = 2; below 12: the Insanity penalty ceil(12 - 1) = 11
    assert (s.exhausted, s.fatigued, s.depression, s.insanity) == (True, False, 2, 11)


def test_each_condition_lands_on_the_engines_record_as_applied_now():
    enc = load(with_state("sellsword_1", {"conditions": {
        "closing_wounds": {"x": 2, "seconds": 2}, "concussion": 1, "dazed": 2,
        "internal_bleeding": 1, "crippled_leg_left": 1, "prone": True,
        "ignite": {"by": "gob_1", "seconds": 3, "damage": 2},
        "numbing": {"by": "gob_2", "stacks": 2}, "soaked": {"by": "gob_1", "stacks": 1},
        "stunned": {"by": "gob_4", "stacks": 2, "seconds": 5},
        "taunt": {"by": "gob_1", "stacks": 2, "seconds": 10},
        "distract": {"by": "gob_2", "stacks": 1}, "lung_crush": 1, "blood_vision": 2,
        "racing_heart": 1, "heartbeat": 4, "exposure": 2, "broken_resistance": 3,
        "vital_blow": {"stacks": 2, "seconds": 9}, "empowered_body": {"shield": 6, "seconds": 4},
        "focused_healing": {"stacks": 1, "seconds": 5}, "recovery": 1,
        "enduring_heal": {"heal": 3, "seconds": 15}}}))
    s, now = enc.by_id["sellsword_1"], 37
    assert s.closing == (2, now, now + 2)
    assert (s.concussion, s.dazed, s.internal_bleeding, s.crippled["leg_left"]) == (1, 2, 1, 1)
    fx = s.fx
    assert fx.prone and fx.ignite == ("gob_1", 2, now + 3)
    assert fx.numbing == (("gob_2", now),) * 2 and fx.soaked == (("gob_1", now),)
    assert fx.stunned == (("gob_4", now + 5),) * 2
    assert fx.taunt == ("gob_1", (now + 10, now + 10)) and fx.distract == ("gob_2", 1, now + 15)
    assert (fx.lung_crush, fx.blood_vision, fx.racing_heart, fx.recovery) == (1, 2, 1, 1)
    assert (fx.heartbeat, fx.exposure, fx.broken_resistance) == (now + 4, now + 2, now + 3)
    assert fx.vital_blow == (now + 9, now + 9) and fx.empowered == (6, now + 4)
    assert fx.focused == (1, now + 5) and fx.enduring == (3, now, now + 15)
    shown = enc.describe()[0]["state"]
    assert shown.startswith("active: closing_wounds, concussion, dazed, internal_bleeding")
    assert "stunned" in shown and "taunt" in shown and "prone" in shown


def test_a_casters_pools_and_spell_effects():
    data = {"system": "palladium_revised", "encounter": "skirmish_2v2", "actor": "mage_1",
            "combatants": [{"id": "mage_1", "state": {
                "ee": 12, "conditions": {"power_draw": {"ee": 4, "seconds": 3},
                                         "ward": {"shield": 10, "seconds": 6}}}}]}
    m = load(data).by_id["mage_1"]
    assert (m.fx.ee, m.fx.power_draw, m.fx.ward) == (12, (4, 1, 4), (10, 7))


def test_throwing_knives_left():
    enc = load(with_state("gob_1", {"ammo": {"throwing_knife": 1}}))
    assert enc.by_id["gob_1"].ammo == {"throwing_knife": 1}
    assert enc.by_id["gob_2"].ammo == {"throwing_knife": 3}


def test_a_surprised_combatant_loses_its_second_1_slots():
    data = {"system": "palladium_revised", "encounter": "goblin_pack", "actor": "gob_1",
            "combatants": [{"id": "gob_3", "state": {"conditions": {"surprised": True}}}]}
    enc = load(data)
    assert enc.by_id["gob_3"].fx.surprised and slots(enc, "gob_3") == ["lost", "available",
                                                                          "available"]


def test_the_ambush_is_passed_on_to_a_fresh_start():
    data = {"system": "palladium_revised", "encounter": "duel_sword_vs_rogue", "ambush": "B"}
    # spec §3.5: the sellsword rolls d100 90 vs perception 30 - 25 = 5 and is surprised;
    # then initiative: 1 + 2 = 3, 15 + 3 = 18
    enc = load(data, ["d100=90", "d20=1", "d20=15"])
    assert enc.ambush == "B"
    det = [e for e in enc.start_events if isinstance(e, AmbushDetection)]
    assert [(e.combatant, e.d100, e.needed, e.detected) for e in det] == \
        [("sellsword_1", 90, 5, False)]
    assert slots(enc, "sellsword_1")[0] == "lost"


def test_the_starter_loads_as_written_and_stands_at_the_first_decision():
    text = new_situation("palladium_revised", "goblin_pack")
    data = yaml.safe_load(text)
    enc = encounter_from_situation(data, "starter")
    assert (data["round"], data["second"], data["actor"]) == (1, 1, "sellsword_1")
    assert [c["state"]["step_budget"] for c in data["combatants"]] == \
        [c.step_budget for c in enc.combatants]
    assert enc.current_actor() == "sellsword_1" and enc.snapshot() == \
        R.from_situation({"system": "palladium_revised", "encounter": "goblin_pack",
                          "actor": "sellsword_1"}).snapshot()


BAD = [
    ({"second": 5}, "situation: field 'second': 'gob_3' has no turn in Second 5 (its 3 Actions "
                    "take Seconds 1, 7, 15, spec §4.2)"),
    ({"actor": None}, "situation: field 'second': needs an 'actor' (the fight stands at the "
                      "actor's slot in it)"),
    ({"ambush": "C"}, "situation: field 'ambush': unknown side 'C'; sides: A, B"),
    ({"round": 21}, "situation: field 'round': expected an integer in 1..20, got 21"),
    ({"combatants": [{"id": "gob_1", "state": {"hp": 0}}]},
     "combatants[0].state: field 'hp': must be above 0 for a combatant in the fight"),
    ({"combatants": [{"id": "gob_1", "state": {"sdc": 13}}]},
     "combatants[0].state: field 'sdc': expected an integer in 0..12, got 13"),
    ({"combatants": [{"id": "gob_1", "state": {"ee": 1}}]},
     "combatants[0].state: field 'ee': expected an integer in 0..0, got 1"),
    ({"combatants": [{"id": "gob_1", "state": {"ammo": {"short_sword": 1}}}]},
     "combatants[0].state.ammo: field 'short_sword': not a weapon with ammunition of 'gob_1'; "
     "those: throwing_knife"),
    ({"combatants": [{"id": "gob_1", "state": {"ammo": {"throwing_knife": 4}}}]},
     "combatants[0].state.ammo: field 'throwing_knife': expected an integer in 0..3, got 4"),
    ({"combatants": [{"id": "gob_3", "state": {"defending": True}}]},
     "combatants[0].state: field 'defending': 'gob_3' decides now: a Defend lasts until the "
     "start of its next turn (spec §5.4)"),
    ({"combatants": [{"id": "gob_1", "state": {"rest_seconds": 2}}]},
     "combatants[0].state: field 'rest_seconds': needs 'resting: true'"),
    ({"combatants": [{"id": "gob_1", "state": {"mood": 2}}]},
     "combatants[0].state: field 'mood': unknown field"),
    ({"combatants": [{"id": "gob_1", "state": {"conditions": {"exhausted": True}}}]},
     "combatants[0].state.conditions: field 'exhausted': follows from Stamina and Morale"),
    ({"combatants": [{"id": "gob_1", "state": {"conditions": {"on_fire": 1}}}]},
     "combatants[0].state.conditions: field 'on_fire': unknown condition; known: "
     "closing_wounds, concussion"),
    ({"combatants": [{"id": "gob_1", "state": {"conditions": {
        "taunt": {"by": "gob_2", "stacks": 1}}}}]},
     "combatants[0].state.conditions.taunt: field 'by': 'gob_2' is not an enemy of 'gob_1'"),
    ({"combatants": [{"id": "gob_1", "state": {"conditions": {
        "stunned": {"by": "gob_9", "stacks": 1}}}}]},
     "combatants[0].state.conditions.stunned: field 'by': unknown combatant 'gob_9'"),
    ({"combatants": [{"id": "gob_1", "state": {"conditions": {
        "closing_wounds": {"x": 6}}}}]},
     "combatants[0].state.conditions.closing_wounds: field 'x': expected an integer in 1..5"),
    ({"combatants": [{"id": "gob_1", "state": {"conditions": {
        "ignite": {"by": "sellsword_1", "damage": 2, "heat": 1}}}}]},
     "combatants[0].state.conditions.ignite: field 'heat': unknown field"),
    ({"round": 2, "combatants": [{"id": "gob_1", "state": {"conditions": {"surprised": True}}}]},
     "combatants[0].state.conditions: field 'surprised': only in Second 1 of round 1 of a "
     "fight in progress (spec §3.5)"),
    ({"options": "core", "combatants": [{"id": "gob_1", "state": {"conditions": {
        "prone": True}}}]},
     "combatants[0].state.conditions: field 'prone': needs the rule option 'common_effects' "
     "(on in FULL, off in CORE)"),
]


@pytest.mark.parametrize(("change", "message"), BAD, ids=[m.split(":")[1] for _, m in BAD])
def test_a_bad_field_is_one_line_naming_the_file_the_entry_and_the_field(change, message):
    data = {**copy.deepcopy(PACK), **change}
    data = {k: v for k, v in data.items() if v is not None}
    with pytest.raises(DataError) as err:
        R.from_situation(data, "fight.yaml", ScriptedDice([]))
    text = str(err.value)
    assert text.startswith(f"fight.yaml: {message}") and "\n" not in text


def _own_weapon_file(weapon: dict) -> dict:
    from eval.fights import own_form

    data = own_form("palladium_revised", "duel_sword_vs_rogue", inline=["sellsword_1"])
    data["weapons"] = {"war_pick": weapon}
    data["combatants"][0]["stats"]["weapons"] = ["war_pick", "dagger"]
    return data


PICK = {"damage": "5d6", "reach": "M", "short": False, "hands": 1, "kind": "edged", "wounds": 2,
        "cost": 1, "ps": True}


def test_a_file_s_own_weapon_is_carried_by_its_inline_stat_block():
    enc = R.from_situation(_own_weapon_file(PICK), "fight.yaml", ScriptedDice(["d20=1", "d20=15"]))
    pick = enc.snapshot()["profiles"]["sellsword_1"]["weapons"][0]
    assert (pick["id"], pick["dice"], pick["sides"], pick["wounds"]) == ("war_pick", 5, 6, 2)
    assert [w["id"] for w in enc.snapshot()["profiles"]["duelist_1"]["weapons"]] == \
        ["short_sword", "dagger", "unarmed"]


@pytest.mark.parametrize(("data", "message"), [
    (_own_weapon_file({**PICK, "reach": "Z"}),
     "fight.yaml: weapons.war_pick: field 'reach': unknown value 'Z'; expected one of G, C, M, R"),
    ({**_own_weapon_file(PICK), "weapons": ["war_pick"]},
     "fight.yaml: situation: field 'weapons': expected a mapping {id: weapon}"),
])
def test_a_bad_own_weapon_is_one_line_naming_the_file_and_the_field(data, message):
    with pytest.raises(DataError) as err:
        R.from_situation(data, "fight.yaml", ScriptedDice([]))
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_a_ward_of_a_fresh_situation_lasts_its_seconds_from_second_1():
    """spec §1.4.4: an effect applied during Second t_abs for D Seconds lasts to the end of
    Second t_abs + D. A fresh situation stands in Second 1 of round 1 (t_abs 1): a Ward of
    15 Seconds is still up through Second 15 and ends at the end of Second 16 (round 2,
    Second 1), as one cast in Second 1 does (``full_spells``: ``t_abs + duration``)."""
    data = {"system": "palladium_revised", "options": "full",
            "combatants": [{"id": "s", "side": "A", "stats": "sellsword", "x": 20,
                            "state": {"conditions": {"ward": {"shield": 10, "seconds": 15}}}},
                           {"id": "d", "side": "B", "stats": "duelist", "x": 180}]}
    # initiative round 1: s 1 + 2 = 3, d 15 + 3 = 18; round 2: s 2 + 2 = 4, d 16 + 3 = 19
    dice = ScriptedDice(["d20=1", "d20=15", "d20=2", "d20=16"])
    enc = R.from_situation(copy.deepcopy(data), "fight.yaml", dice)
    s = enc.by_id["s"]
    assert (enc.round, enc.second, enc.t_abs, s.fx.ward) == (1, 1, 1, (10, 16))
    second, ended = 1, None  # the absolute Second each event happens in
    while ended is None:  # both Defend at every turn (no die) until the Ward ends
        assert second <= 16 and not enc.is_over()
        for e in enc.apply(Action(enc.current_actor(), "defend"), dice):
            if isinstance(e, SecondStarted):
                second = (e.round - 1) * 15 + e.second
            elif isinstance(e, ConditionChanged) and (e.combatant, e.condition) == ("s", "ward"):
                ended = (second, e.value)
    dice.check_exhausted()
    assert ended == (16, 0) and s.fx.ward is None
