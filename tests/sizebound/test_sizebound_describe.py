"""Sizebound's plain words (envs/sizebound/rules/describe.py): the exact words of each action kind,
with the previews' odds, from situations and forced dice."""

from __future__ import annotations

import json

import pytest

from envs.core import ScriptedDice
from envs.core.describe import plain
from envs.sizebound import rules as R
from envs.sizebound.rules.describe import describe

ADJACENT = {"system": "sizebound", "encounter": "duel_blade_vs_shield", "combatants": [
    {"id": "duelist", "at": [5, 6]}, {"id": "knight", "at": [6, 6], "state": {"reactions": 3}}]}


def _words(enc) -> dict[str, str]:
    return {a.label: describe(a, enc) for a in enc.legal_actions()}


def test_own_turn_words_next_to_the_knight():
    enc = R.from_situation(ADJACENT)
    w = _words(enc)
    assert w["duelist: end_turn"] == "end the turn (unused: PDMB)"
    assert w["duelist: step w"] == ("step west away from the Shieldbearer Knight "
                                    "(1 of 5 movement, opens the Move)")
    assert w["duelist: step n"] == "step north (1 of 5 movement, opens the Move)"
    assert w["duelist: run"] == "run (Primary and Move: 10 spaces of movement)"
    assert w["duelist: aim"] == "aim: +4 to hit for the rest of the turn"
    assert w["duelist: drop_prone"] == "drop prone (React as an Extra action)"
    assert w["duelist: free_hand"] == "free a hand: stow the dagger"
    assert w["duelist: attack main -> knight"] == (
        "attack the Shieldbearer Knight with the sword (60% to hit, ~4.2 harm)")
    assert w["duelist: attack off -> knight"] == (
        "attack the Shieldbearer Knight with the dagger (60% to hit, ~3.1 harm)")
    assert w["duelist: jab bonus -> knight"] == (
        "jab the Shieldbearer Knight as the Bonus action (60% to hit, ~2.9 harm)")
    assert w["duelist: trip move -> knight"] == (
        "trip the Shieldbearer Knight with the Move (Athletics contest)")
    assert w["duelist: disarm -> knight"] == (
        "disarm the Shieldbearer Knight of the sword (contest)")


def test_a_step_toward_names_the_nearest_enemy_and_a_far_dagger_is_thrown():
    enc = R.new_encounter("duel_blade_vs_shield")
    w = _words(enc)
    assert w["duelist: step e"] == ("step east toward the Shieldbearer Knight "
                                    "(1 of 5 movement, opens the Move)")
    sit = {**ADJACENT, "combatants": [{"id": "duelist", "at": [3, 6]}, {"id": "knight",
                                                                         "at": [6, 6]}]}
    enc = R.from_situation(sit)
    thrown = R.preview_attack(enc, "duelist", "off", "knight")
    assert thrown is not None and thrown.mode == "thrown"
    assert describe(enc.parse_action("duelist: attack off -> knight"), enc) == (
        f"throw the dagger at the Shieldbearer Knight ({round(100 * thrown.hit)}% to hit, "
        f"~{thrown.expected_damage:.1f} harm)")


def test_window_words_through_one_attack():
    dice = ScriptedDice([15, 6])
    enc = R.from_situation(ADJACENT, dice=dice)
    enc.apply(enc.parse_action("duelist: attack main -> knight"), dice)
    seen = []
    while enc.window is not None:
        seen.append((enc.window.kind, _words(enc)))
        enc.apply(enc.parse_action(f"{enc.current_actor()}: pass"), dice)
    kinds = [k for k, _ in seen]
    assert kinds == ["declare", "exert_d20", "parry", "dodge", "exert_dmg", "block"]
    w = {k: v for k, v in seen}
    assert w["declare"] == {
        "knight: drop_prone": "drop prone against the Sellsword Duelist's sword (a reaction)",
        "knight: quick_draw": "quick draw vs the Sellsword Duelist: Nimble contest, by 4+ "
                              "strike first, by 8+ the Primary",
        "knight: pass": "no reaction to the Sellsword Duelist's sword"}
    assert w["exert_d20"]["duelist: spend"] == (
        "spend an Exertion Die on this roll (+d6 on 17, 3 dice left)")
    assert w["exert_d20"]["duelist: pass"] == "keep the Exertion Dice (3 dice left)"
    assert w["parry"]["knight: parry"] == "parry the Sellsword Duelist's attack (25% to beat 17)"
    assert w["dodge"]["knight: dodge"] == "dodge the Sellsword Duelist's attack (20% to beat 17)"
    assert w["exert_dmg"]["duelist: spend"] == (
        "spend an Exertion Die on the damage (+2 x d6 on 8, 3 dice left)")
    assert w["block"] == {
        "knight: block": "block: +6 Guard for the Shieldbearer Knight against 8 damage",
        "knight: pass": "let the damage through without blocking"}


def test_a_critical_hit_can_be_negated():
    dice = ScriptedDice([20])
    enc = R.from_situation(ADJACENT, dice=dice)
    enc.apply(enc.parse_action("duelist: attack main -> knight"), dice)
    while enc.window is not None and enc.window.kind != "crit":
        enc.apply(enc.parse_action(f"{enc.current_actor()}: pass"), dice)
    assert enc.window is not None
    assert _words(enc) == {
        "knight: negate": "spend an Exertion Die to turn the critical hit into a hit "
                          "(3 dice left)",
        "knight: pass": "keep the Exertion Dice (3 dice left)"}


def test_skills_in_words():
    sit = {"system": "sizebound", "encounter": "giant_vs_four", "actor": "hill_giant",
           "combatants": [{"id": "duelist", "at": [3, 10]}, {"id": "knight", "at": [10, 8]},
                          {"id": "mage", "at": [1, 9]}, {"id": "captain", "at": [4, 11]},
                          {"id": "hill_giant", "at": [11, 8]}]}
    w = _words(R.from_situation(sit))
    assert w["hill_giant: cast stomp"] == "use Stomp around you"
    assert w["hill_giant: cast roar"] == "use Roar around you"
    assert w["hill_giant: attack main -> knight"] == (
        "attack the Shieldbearer Knight with the greatclub (80% to hit, ~12.3 harm)")
    sit["actor"] = "mage"
    sit["combatants"][2]["at"] = [9, 9]
    sit["combatants"][1]["state"] = {"hp": 30}
    w = _words(R.from_situation(sit))
    assert w["mage: cast arcane_bolt -> hill_giant"] == (
        "cast Arcane Bolt at the Hill Giant, 2 Mana of 16")
    assert w["mage: cast arcane_burst -> knight"] == (
        "cast Arcane Burst centred on the Shieldbearer Knight, 6 Mana of 16")
    assert w["mage: cast mend -> knight"] == "cast Mend on the Shieldbearer Knight, 4 Mana of 16"


@pytest.mark.parametrize("name", R.encounter_names())
def test_every_first_action_gets_one_short_line_and_changes_nothing(name):
    enc = R.new_encounter(name)
    before = json.dumps(enc.snapshot(), sort_keys=True, default=str)
    for a in enc.legal_actions():
        w = describe(a, enc)
        assert w and "\n" not in w and len(w) <= 90 and w != plain(a)
    assert json.dumps(enc.snapshot(), sort_keys=True, default=str) == before
