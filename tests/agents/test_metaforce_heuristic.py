"""The Metaforce heuristic (agents/heuristic/metaforce.py): its choices in constructed positions,
that it leaves the encounter as it found it, and that it beats a random player."""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.heuristic.metaforce import MetaforceHeuristic
from envs.core import ScriptedDice
from envs.core.dice import SeededDice
from envs.metaforce.rules import from_situation, new_encounter

HUNTER = {  # a lone rifle: one round in the gun, so one shot empties it
    "name": "Hunter", "level": 1, "size": 1, "protected": True, "metaforce_user": False,
    "attributes": {"str": 1, "end": 1, "agi": 2, "per": 3, "int": 0, "cha": 0},
    "proficient": ["per"], "saves": [], "armour": "none",
    "weapons": [{"id": "rifle", "type": "firearm", "hands": 2, "attr": "per", "tohit": 3,
                 "damage_base": 16, "bonus_die": 8, "damage_type": "piercing",
                 "range_increment_ft": 120, "trigger_limit": 1, "capacity": 1,
                 "reload_mode": {"per_frame": 1}, "reserve_rounds": 5}]}


def giant_boss(actor: str, first: str, **at: dict) -> object:
    order = [first] + [c for c in ("hill_giant", "fighter", "wizard", "detective",
                                   "odonghe_brawler") if c != first]
    spots = {"fighter": [0, 0], "wizard": [1, 0], "detective": [2, 0],
             "odonghe_brawler": [3, 0], "hill_giant": [8, 5]}
    rows = [{"id": cid, "at": spots[cid], **at.get(cid, {})} for cid in spots]
    return from_situation({"system": "metaforce", "encounter": "giant_boss", "options": "core",
                           "order": order, "actor": actor, "combatants": rows})


def best(enc: object) -> list[str]:
    """The labels the heuristic scores highest (its choice up to the tie-break)."""
    h = MetaforceHeuristic(seed=0)
    legal = enc.legal_actions()  # type: ignore[attr-defined]
    scores = h.rank(enc, enc.current_actor(), legal)  # type: ignore[attr-defined]
    top = max(scores)
    return [a.label for a, s in zip(legal, scores, strict=True) if s == top]


def test_it_finishes_the_adjacent_enemy_at_low_hp_and_steps_away():
    enc = from_situation({
        "system": "metaforce", "encounter": "party_3v3", "options": "core",
        "order": ["fighter", "bandit", "bandit_2", "wolf", "wizard", "detective"],
        "actor": "fighter",
        "combatants": [{"id": "fighter", "at": [5, 5]}, {"id": "bandit", "at": [6, 5],
                                                         "state": {"hp": 5}},
                       {"id": "bandit_2", "at": [4, 5]}, {"id": "wolf", "at": [5, 6]},
                       {"id": "wizard", "at": [0, 0]}, {"id": "detective", "at": [0, 1]}]})
    assert best(enc) == ["fighter: attack warhammer retreat -> bandit"]


def test_a_weak_caster_next_to_the_giant_gets_out_of_its_reach():
    enc = giant_boss("wizard", "wizard", wizard={"at": [8, 4], "state": {"hp": 6}})
    assert best(enc) == ["wizard: dash retreat -> hill_giant"]


def test_next_to_a_giant_that_spent_its_reaction_the_fighter_strikes():
    enc = giant_boss("fighter", "fighter", fighter={"at": [8, 4]},
                     hill_giant={"state": {"reactions": 0}})
    assert best(enc) == ["fighter: attack warhammer -> hill_giant"]


@pytest.mark.parametrize("hp, shots", [(36, 2), (5, 1)])
def test_the_second_shot_of_the_ladder_only_when_the_first_may_not_finish(hp, shots):
    enc = from_situation({
        "system": "metaforce", "encounter": "detective_vs_bandits", "options": "core",
        "order": ["detective", "bandit", "bandit_2"], "actor": "detective",
        "combatants": [{"id": "detective", "at": [0, 0]},
                       {"id": "bandit", "at": [6, 6], "state": {"hp": hp}},
                       {"id": "bandit_2", "at": [15, 15]}]})
    assert best(enc) == [f"detective: fire revolver {shots} -> bandit",
                         f"detective: fire revolver {shots} retreat -> bandit"]


def test_an_empty_firearm_is_reloaded():
    enc = from_situation({
        "system": "metaforce", "options": "core", "map": {"w": 20, "h": 20},
        "order": ["hunter", "hill_giant"], "actor": "hunter",
        "combatants": [{"id": "hunter", "side": "a", "at": [0, 0], "stats": HUNTER},
                       {"id": "hill_giant", "side": "b", "stats": "hill_giant",
                        "at": [16, 16]}]}, "hunter.yaml")
    assert best(enc) == ["hunter: fire rifle 1 -> hill_giant",
                         "hunter: fire rifle 1 retreat -> hill_giant"]
    enc.apply(enc.parse_action("hunter: fire rifle 1 -> hill_giant"), ScriptedDice([6, 6, 4]))
    enc.apply(enc.parse_action("hill_giant: pass"), ScriptedDice([]))  # its W-R1 window
    assert enc.current_actor() == "hunter" and enc.view("hunter")["combatants"][0][
        "loaded"] == {"rifle": 0}
    assert best(enc) == ["hunter: reload rifle", "hunter: reload rifle approach -> hill_giant",
                         "hunter: reload rifle retreat -> hill_giant"]


def test_deus_ex_is_taken_against_a_killing_blow_and_nothing_changes():
    enc = giant_boss("hill_giant", "hill_giant", fighter={"at": [8, 4], "state": {"hp": 1}})
    enc.apply(enc.parse_action("hill_giant: attack great_club -> fighter"),
              ScriptedDice([10, 10, 6]))  # 4 + 6 = 10, times Size 4: 40 against HP 1
    assert (enc.current_actor(), enc.decision) == ("fighter", "deus_ex")
    before = enc.snapshot()
    h = MetaforceHeuristic(seed=0)
    assert h.choose(enc).label == "fighter: deus_ex"
    assert enc.snapshot() == before


def test_it_never_changes_the_encounter():
    h = MetaforceHeuristic(seed=1)
    for name in ("party_3v3", "giant_boss"):
        dice = SeededDice(3)
        enc = new_encounter(name, "core", dice)
        for _ in range(40):
            if enc.is_over():
                break
            before = enc.snapshot()
            a = h.choose(enc)
            assert enc.snapshot() == before
            enc.apply(a, dice)


def play(name: str, seed: int, side: str) -> str | None:
    dice = SeededDice(seed)
    enc = new_encounter(name, "core", dice)
    rng = random.Random(seed)
    h = MetaforceHeuristic(seed=seed)
    while not enc.is_over():
        who = enc.current_actor()
        legal = enc.legal_actions()
        a = h.choose(enc) if enc.by_id[who].side == side else rng.choice(legal)
        enc.apply(a, dice)
    return enc.outcome().winner


def test_it_beats_a_random_player_on_either_side_of_the_duel():
    wins = [play("duel_fighter_brawler", seed, side) == side
            for seed in range(6) for side in ("a", "b")]
    assert sum(wins) >= 11


def test_two_heuristics_fight_to_a_finish_instead_of_standing_off():
    """Against itself the heuristic used to dash out of reach and pass until the round limit (15
    draws in 20 games of the duel): it now weighs its own attacks after its last frame as much as
    the foe's to come (OPP_LAST = DANGER_W), so mirror games end with a winner."""
    draws = 0
    for seed in range(8):
        enc = new_encounter("duel_fighter_brawler")
        dice = SeededDice(seed)
        players = {s: MetaforceHeuristic(seed=seed + k) for k, s in enumerate(("a", "b"))}
        while not enc.is_over():
            enc.apply(players[enc.by_id[enc.current_actor()].side].choose(enc), dice)
        draws += enc.outcome().winner is None
    assert draws <= 1


def test_the_state_key_tells_states_apart_and_clones_share_it():
    enc = new_encounter("party_3v3", "full", SeededDice(5))
    key = enc.state_key()
    assert hash(key) == hash(enc.clone().state_key()) and enc.clone().state_key() == key
    twin = enc.clone()
    twin.by_id["fighter"].hp -= 1  # one hit point, nothing else
    assert twin.state_key() != key
    moved = enc.clone()
    moved.apply(moved.legal_actions()[-1], ScriptedDice([]))  # end_turn: the turn passes
    assert moved.state_key() != key


def test_a_state_met_again_gets_the_choice_a_fresh_heuristic_makes():
    """``choose`` keeps the best actions by ``state_key``: replaying the same seeded games with
    one heuristic (its cache warm from the first pass) gives every choice a new one gives."""
    warm = MetaforceHeuristic(seed=0)
    for name in ("giant_boss", "party_3v3"):
        for seed in range(3):
            runs = []
            for h in (warm, warm, MetaforceHeuristic(seed=0)):
                h.rng = np.random.default_rng(seed)
                dice = SeededDice(seed)
                enc = new_encounter(name, "full", dice)
                labels = []
                while not enc.is_over():
                    a = h.choose(enc)
                    labels.append(a.label)
                    enc.apply(a, dice)
                runs.append(labels)
            assert runs[0] == runs[1] == runs[2]
    assert warm.decided  # the second pass met the states of the first
