"""Palladium Revised's text map and starter (envs/palladium_revised/textmap.py, starter.py): the
battle line as text with the Zone of Control layers and the round's Melee Grid row; the
starter's per-combatant fields with the engine's values."""

from __future__ import annotations

from envs.core.dice import SeededDice
from envs.palladium_revised import rules as R
from envs.palladium_revised.starter import STARTER
from envs.palladium_revised.textmap import letters, text_map


def test_the_duel_of_reach_as_text():
    enc = R.new_encounter("duel_reach", None, SeededDice(0))
    lines = text_map(enc, None)
    assert lines[3] == "  line  " + "." * 40 + "G" + "." * 19 + "d" + "." * 40
    # the spear reaches the Reach layer (12 ft): its Zone of Control covers all four layers
    assert lines[4] == "  G     " + " " * 34 + "~~~--=G=--~~~"
    # the duelist's short sword reaches Medium only: its Reach layer lies beyond its Zone
    assert lines[5] == "  d     " + " " * 54 + "...--=d=--..."
    assert lines[6:10] == [
        "  Melee Grid, round 1:  123456789012345",
        "                        ^ Second 1",
        "  G guard_1             o...o....o....o",
        "  d duelist_1           o..o...o..o...o",
    ]
    assert lines[-1] == ("  d duelist_1 (B) at 120 ft, S.D.C. 35/35, H.P. 26/26, "
                         "Zone of Control 6 ft")


def test_letters_are_unique_and_the_first_side_is_in_capitals():
    enc = R.new_encounter("goblin_pack", None, SeededDice(0))
    assert letters(enc) == {"sellsword_1": "S", "gob_1": "g", "gob_2": "o", "gob_3": "b",
                            "gob_4": "4"}
    line = text_map(enc, None)[3]
    assert line[8 + 40] == "S" and line[8 + 60] == "*" and line[8 + 62] == "*"


def test_the_starter_names_the_fields_the_reader_takes():
    enc = R.new_encounter("skirmish_2v2", None, SeededDice(0))
    snap = enc.snapshot()
    c = snap["combatants"]["mage_1"]
    assert STARTER.block_id(c) == "battle_mage"
    assert [(ln.key, ln.value) for ln in STARTER.member(c)] == [("x", 70)]
    assert [(ln.key, ln.value, ln.live) for ln in STARTER.state(c, snap)] == [
        ("sdc", 25, True), ("hp", 24, True), ("stamina", 24, True), ("morale", 32, True),
        ("wounds", 0, True), ("armor_sdc", 0, True), ("ee", 50, True), ("se", 0, False),
        ("step_budget", 10, True), ("defending", False, True), ("resting", False, True),
        ("conditions", {"prone": True}, False)]
    assert [(ln.key, ln.value, ln.live) for ln in STARTER.top(snap, False)] == [
        ("second", 1, True), ("ambush", "B", False)]
    inline = {ln.key: ln.value for ln in STARTER.inline(c, snap)}
    assert inline["spells"][0] == "fire_bolt" and inline["actions"] == 3
