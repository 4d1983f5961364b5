"""Sizebound FULL, part B (spec §12.2): the options, Quick Draw, Dispel, the FULL damage rules,
the FULL skills and the hazard/Host sides, with forced dice and exact outcomes."""

from __future__ import annotations

from dataclasses import replace

from test_sizebound_rules import QUIET, do, fight, texts

from envs.core.data import DataError
from envs.core.dice import ScriptedDice
from envs.sizebound.rules import CORE, FULL, new_encounter, parse_options

FULLQ = {"version": "full", "exertion_control": "off"}
"""FULL without the exertion windows."""


def adjacent(options=QUIET, **kw):
    return fight("duel_blade_vs_shield", options,
                 places={"duelist": (8, 6), "knight": (9, 6)}, **kw)


# ---------------------------------------------------------------- options (spec §12.2)
def test_average_damage_option_gives_half_the_maximum():
    enc = adjacent({**QUIET, "damage_roll_mode": "average"})
    ev = do(enc, "duelist: attack main -> knight", [12])  # hit 14; 1d8 average 4 + 2
    assert "knight takes 6 Slashing -> 43 HP" in texts(ev)


def test_average_damage_chosen_by_one_stat_block_only():
    enc = adjacent()
    d = enc.by_id["duelist"]
    d.profile = replace(d.profile, damage_roll_mode="average")
    ev = do(enc, "duelist: attack main -> knight", [12])  # no damage die drawn
    assert enc.by_id["knight"].hp == 43 and "knight takes 6 Slashing -> 43 HP" in texts(ev)


def test_first_side_random_draws_the_instigator():
    enc = new_encounter("duel_blade_vs_shield", {"first_side": "random"}, ScriptedDice([2]))
    assert enc.order == ["B", "A"] and enc.current_actor() == "knight"
    enc = new_encounter("duel_blade_vs_shield", {"first_side": "random"}, ScriptedDice([1]))
    assert enc.order == ["A", "B"] and enc.current_actor() == "duelist"


def test_presets_keep_the_scenario_order_and_rolled_damage():
    assert CORE.first_side == FULL.first_side == "scenario"
    assert CORE.damage_roll_mode == FULL.damage_roll_mode == "roll"
    enc = new_encounter("duel_blade_vs_shield", "full", ScriptedDice([]))
    assert enc.order == ["A", "B"]


def test_bad_option_value_names_the_field():
    try:
        parse_options({"first_side": "left"}, "x.yaml", "situation.options")
    except DataError as e:
        msg = str(e)
    else:
        raise AssertionError("no error")
    assert "x.yaml" in msg and "first_side" in msg and "random" in msg


def test_armoured_dodge_bonus_adds_to_the_armoured_dodge():
    for bonus, result in ((0, "hit (14)"), (3, "dodged (14)")):
        enc = adjacent({**QUIET, "armoured_dodge_bonus": bonus})
        k = enc.by_id["knight"]
        assert k.profile.armoured
        k.reactions = 1
        do(enc, "duelist: attack main -> knight")
        do(enc, "knight: pass", [12])  # R-DECLARE
        do(enc, "knight: pass")  # R-PARRY
        ev = do(enc, "knight: dodge", [11, 5])  # Dodge 11 + L 1 (+ bonus)
        assert f"duelist's sword vs knight: {result}" in texts(ev)


def test_friendly_fire_lets_an_attack_aim_at_an_ally():
    for allowed in (False, True):
        enc = fight("party_vs_bear", {**QUIET, "allow_friendly_fire": allowed},
                    places={"duelist": (2, 2), "knight": (3, 2)})
        do(enc, "cave_bear: end_turn")
        assert ("duelist: attack main -> knight" in [a.label for a in enc.legal_actions()]) \
            is allowed
