"""Sizebound own-turn actions (spec §5.2, §5.3) with forced dice and exact outcomes."""

from __future__ import annotations

import pytest
from test_sizebound_rules import QUIET, do, fight, labels, texts

from envs.core.data import DataError
from envs.core.dice import ScriptedDice
from envs.sizebound.invariants import state_invariants
from envs.sizebound.rules import from_situation
from envs.sizebound.rules.procedures import add_condition

FULL_QUIET = {**QUIET, "version": "full"}


def adjacent_duel(**kw):
    return fight("duel_blade_vs_shield", places={"duelist": (8, 6), "knight": (9, 6)}, **kw)


def end(enc, *ids):
    for cid in ids:
        do(enc, f"{cid}: end_turn")


def answer_all(enc, choice="pass", faces=()):
    """Answer every pending window with ``choice``, drawing from one script of ``faces``."""
    dice = ScriptedDice(list(faces))
    while enc.window is not None:
        enc.apply(enc.parse_action(f"{enc.current_actor()}: {choice}"), dice)
        state_invariants(enc)


def test_run_doubles_the_budget_and_spends_p_and_m():
    enc = fight("duel_blade_vs_shield")
    do(enc, "duelist: run")
    d = enc.by_id["duelist"]
    assert d.budget == 10 and d.used == "PM" and d.mode == "run"
    assert not any(x.startswith("duelist: attack") for x in labels(enc))


def test_stand_up_costs_half_walk_and_prone_steps_cost_double():
    enc = fight("duel_blade_vs_shield")
    d = enc.by_id["duelist"]
    d.conds.add("prone", forever=True)
    enc._legal = None
    do(enc, "duelist: step e")
    assert d.pos == (3, 6) and d.budget == 3  # crawling: 2
    do(enc, "duelist: stand")
    assert not d.prone and d.budget == 1  # floor(5 / 2) = 2


def test_charge_with_a_sword_maximizes_damage():
    enc = fight("duel_blade_vs_shield", places={"duelist": (3, 6)})
    for _ in range(5):
        do(enc, "duelist: step e")
    assert enc.by_id["duelist"].pos == (8, 6)
    ev = do(enc, "duelist: attack main -> knight", [12])  # hit 14; 1d8 maximized: 8 + 2
    assert enc.by_id["knight"].hp == 49 - 10
    assert "knight takes 10 Slashing -> 39 HP" in texts(ev)


def test_thrown_dagger_lands_in_the_target_space():
    enc = fight("duel_blade_vs_shield", places={"duelist": (2, 6), "knight": (5, 6)})
    do(enc, "duelist: attack off -> knight", [12, 3])  # thrown 4: hit 14, 1d4 3 + 2
    assert enc.by_id["knight"].hp == 44
    assert enc.items == [["dagger", 5, 6]] and "off" not in enc.by_id["duelist"].wielded


def test_disarm_win_drops_the_item_when_no_hand_is_free():
    enc = adjacent_duel()
    # Athletics 10 + 18 = 28 vs 12 + 5 = 17 (one-handed: no grip bonus); the duelist's hands
    # are full, so the sword falls in the knight's space
    do(enc, "duelist: disarm -> knight", [18, 5])
    assert enc.items == [["sword", 9, 6]] and enc.by_id["knight"].wielded == {"off": "shield"}


def test_free_hand_grapple_and_mr_cancels_the_drag():
    enc = adjacent_duel()
    do(enc, "duelist: free_hand")  # the first Manipulate Item use is Free
    d, k = enc.by_id["duelist"], enc.by_id["knight"]
    assert d.stowed == ["dagger"] and d.used == ""
    do(enc, "duelist: grapple -> knight", [15, 2])  # 10 + 15 = 25 vs 12 + 2 = 14
    assert k.grappled_by == ["duelist"]
    for left in (2, 1, 0):
        do(enc, "duelist: step w")  # the knight's MR cancels the step
        assert k.mr == left and d.pos == (8, 6)
    do(enc, "duelist: step w")
    assert d.pos == (7, 6) and k.pos == (8, 6) and d.budget == 1


def test_swap_loadout_costs_one_any_after_the_free_use():
    enc = fight("skirmish_2v2")
    end(enc, "knight", "mage")
    assert enc.current_actor() == "goblin"
    do(enc, "goblin: swap")
    g = enc.by_id["goblin"]
    assert g.wielded == {"main": "dagger"} and g.stowed == ["shortbow"] and g.used == "B"


def test_stunned_allows_one_action():
    enc = adjacent_duel(hp={"knight": 0})
    end(enc, "duelist")
    do(enc, "knight: step e")
    left = labels(enc)
    assert "knight: step e" in left  # the same Move action's budget
    assert not any(x.startswith(("knight: attack", "knight: jab")) for x in left)


def test_arcane_bolt_spends_mana_and_hits():
    enc = fight("skirmish_2v2")
    end(enc, "knight")
    do(enc, "mage: cast arcane_bolt -> goblin", [15, 4])  # 17 > 10; 1d8 4 + Magic 2
    assert enc.by_id["goblin"].hp == 41 and enc.by_id["mage"].mana == 14


def test_mana_overdraw_costs_true_damage():
    enc = fight("skirmish_2v2")
    enc.by_id["mage"].mana = 1
    end(enc, "knight")
    ev = do(enc, "mage: cast arcane_bolt -> goblin", [2])  # misses
    m = enc.by_id["mage"]
    assert m.mana == -1 and m.hp == 48 - 3  # 3 x the 1 Mana paid below zero
    assert "mage uses arcane_bolt (2 Mana, overdraw 3 True damage)" in texts(ev)


def test_arcane_burst_hits_everyone_in_the_block():
    enc = fight("skirmish_2v2", places={"goblin": (5, 8), "war_dog": (5, 7)})
    end(enc, "knight")
    do(enc, "mage: cast arcane_burst -> goblin", [3, 4])  # 2d6 7 + Magic 2 = 9 each
    assert enc.by_id["goblin"].hp == 38 and enc.by_id["war_dog"].hp == 36
    assert enc.by_id["mage"].mana == 10 and enc.by_id["mage"].used == "P"


def test_a_caster_killed_by_its_overdraw_sets_nothing_off():
    # spec §3.1 "then", WE-32: 6 Mana from 0 costs 18 True; -3 - 18 = -21 < PNR -20: dead
    enc = fight("skirmish_2v2", places={"goblin": (5, 8), "war_dog": (5, 7)},
                hp={"mage": -3})
    enc.by_id["mage"].mana = 0
    end(enc, "knight")
    ev = do(enc, "mage: cast arcane_burst -> goblin")  # no dice drawn: the burst never goes off
    assert not enc.by_id["mage"].alive
    assert enc.by_id["goblin"].hp == 47 and enc.by_id["war_dog"].hp == 45
    assert "mage uses arcane_burst (6 Mana, overdraw 18 True damage)" in texts(ev)


def test_mend_heals_an_adjacent_ally():
    enc = fight("skirmish_2v2", places={"mage": (1, 7)}, hp={"knight": 40})
    assert "mage: cast mend -> knight" not in labels(enc)  # FULL content (spec §12.2)
    enc = fight("skirmish_2v2", FULL_QUIET, places={"mage": (1, 7)}, hp={"knight": 40})
    end(enc, "knight")
    do(enc, "mage: cast mend -> knight", [5])  # 1d8 5 + Magic 2
    assert enc.by_id["knight"].hp == 47 and enc.by_id["mage"].mana == 12


def test_stomp_jarrs_until_the_end_of_the_next_turn():
    enc = fight("giant_vs_four", FULL_QUIET, places={"duelist": (10, 8), "knight": (13, 9)})
    end(enc, "captain", "duelist", "knight", "mage")
    assert enc.current_actor() == "hill_giant"
    do(enc, "hill_giant: cast stomp")
    answer_all(enc, "pass", [3])  # Dodge windows, then one 1d6 3 + Might 4 = 7, Block windows
    d, k = enc.by_id["duelist"], enc.by_id["knight"]
    assert d.hp == 41 and k.hp == 42
    assert d.action_rung == 1 and k.action_rung == 1
    do(enc, "hill_giant: end_turn")  # round 2, side A: still Jarred during its turn
    assert enc.round == 2 and d.action_rung == 1
    end(enc, "captain", "duelist", "knight", "mage")
    assert d.action_rung == 0  # ended with side A's turn (spec §4.8)


def test_roar_unnerves_and_frightens():
    enc = fight("giant_vs_four", {"version": "full", "exertion_control": "off"},
                places={"knight": (8, 8)})
    end(enc, "captain", "duelist", "knight", "mage")
    ev = do(enc, "hill_giant: cast roar")
    k = enc.by_id["knight"]
    assert k.unnerved == -3 and "afraid" in k.conds  # 3 spaces away
    assert enc.by_id["mage"].unnerved == 0  # 9 spaces away: out of the 6
    assert "knight is now afraid" in texts(ev)
    assert enc.by_id["hill_giant"].skill_uses == {"roar": 1}
    assert "hill_giant: cast roar" not in labels(enc)  # once per encounter


def test_crit_negation_in_full():
    enc = adjacent_duel(options="full")
    do(enc, "duelist: attack main -> knight", [20])
    assert enc.window.kind == "exert_d20"
    do(enc, "duelist: pass")
    assert enc.window.kind == "crit" and enc.current_actor() == "knight"
    do(enc, "knight: negate", [5])
    assert enc.window.kind == "exert_dmg"
    do(enc, "duelist: pass")
    assert enc.by_id["knight"].hp == 49 - 7 and enc.by_id["knight"].dice == 2


def test_disabled_falls_prone_and_gets_one_minor_action():
    enc = adjacent_duel()
    d = enc.by_id["duelist"]
    for name in ("winded", "tired", "lethargic", "disabled"):
        add_condition(enc, [], d, name, rounds=3)
    enc._legal = None
    assert d.fatigue == 4 and d.prone
    assert sorted(labels(enc)) == [  # Act (drop) is Free: it may be the one minor action
        "duelist: drop dagger", "duelist: drop sword", "duelist: end_turn", "duelist: free_hand"]


def test_situation_sets_the_fight_in_progress():
    enc = from_situation({
        "system": "sizebound", "encounter": "duel_blade_vs_shield", "options": QUIET,
        "round": 3, "actor": "knight",
        "combatants": [{"id": "knight", "at": [3, 6], "state": {"hp": 20, "reactions": 1,
                                                                "conditions": ["deafened"]}}],
    }, "fight.yaml")
    k = enc.by_id["knight"]
    assert enc.round == 3 and enc.current_actor() == "knight" and k.pos == (3, 6)
    assert k.hp == 20 and "deafened" in k.conds and k.reactions == 1
    state_invariants(enc)
    do(enc, "knight: attack main -> duelist", [15, 2])
    assert enc.by_id["duelist"].hp == 48 - 4


def test_situation_errors_name_the_field():
    with pytest.raises(DataError, match=r"fight.yaml: combatants\[0\]: field 'at'"):
        from_situation({"system": "sizebound", "encounter": "duel_blade_vs_shield",
                        "combatants": [{"id": "knight", "at": [2, 6]}]}, "fight.yaml")
    with pytest.raises(DataError, match=r"fight.yaml: combatants\[0\].state: field 'hp'"):
        from_situation({"system": "sizebound", "encounter": "duel_blade_vs_shield",
                        "combatants": [{"id": "knight", "state": {"hp": 99}}]}, "fight.yaml")


def test_dice_order_is_checked():
    enc = adjacent_duel()
    with pytest.raises(Exception, match="d8"):
        enc.apply(enc.parse_action("duelist: attack main -> knight"),
                  ScriptedDice([12, "d8=3"][:1] + ["d6=3"]))


def test_preview_attack_and_reach():
    from envs.sizebound.rules import in_reach, preview_attack
    enc = fight("duel_blade_vs_shield", places={"duelist": (8, 6), "knight": (9, 6)})
    p = preview_attack(enc, "duelist", "main", "knight")
    # needs a natural 9+ (12 faces of 20), crit on 20; sword 1d8 + 2 = 6.5 on average
    assert p is not None and p.mode == "melee"
    assert p.hit == pytest.approx(0.6) and p.crit == pytest.approx(0.05)
    assert p.expected_damage == pytest.approx(0.55 * 6.5 + 0.05 * 13)
    assert in_reach(enc, "duelist") == {"main": ["knight"], "off": ["knight"], "jab": ["knight"]}
    far = fight("duel_blade_vs_shield")
    assert preview_attack(far, "duelist", "main", "knight") is None
    view = enc.view("duelist")
    assert view["combatants"]["knight"]["defense"] == 10 and view["my_turn"]


def test_an_hp_stun_escalated_to_paralyzed_lasts_at_most_one_round():
    # spec §7.3, R-17: at HP <= 0 a Stunned applied "until the end of its next turn" makes the
    # creature Paralyzed for at most 1 round (enc.slots clock ticks), not the source's duration
    enc = adjacent_duel()
    d = enc.by_id["duelist"]
    d.hp = -2
    add_condition(enc, [], d, "stunned", until_end_of_next_turn=True)
    (inst,) = d.conds.instances("paralyzed")
    assert "stunned" not in d.conds
    assert inst.expires_at - enc.clock == enc.slots
