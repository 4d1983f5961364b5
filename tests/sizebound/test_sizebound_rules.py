"""Sizebound engine: turns and procedures with forced dice (spec §4-§8), on the §13.3
encounters."""

from __future__ import annotations

import pytest

from envs.core.actions import ActionSyntaxError, IllegalActionError
from envs.core.dice import ScriptedDice
from envs.sizebound.invariants import state_invariants
from envs.sizebound.rules import FULL, new_encounter

QUIET = {"version": "core", "exertion_control": "off"}
"""CORE without the exertion windows, so a test of another procedure needs no ``pass``."""


def fight(name: str, options=QUIET, places: dict | None = None, hp: dict | None = None):
    """A §13.3 encounter from the catalogue, with anchors and HP moved for the test."""
    enc = new_encounter(name, options)
    for cid, at in (places or {}).items():
        enc.by_id[cid].x, enc.by_id[cid].y = at
    for cid, v in (hp or {}).items():
        enc.by_id[cid].hp = v
    enc._legal = None
    state_invariants(enc)
    return enc


def labels(enc) -> list[str]:
    return [a.label for a in enc.legal_actions()]


def do(enc, label: str, faces=()):
    dice = ScriptedDice(list(faces))
    events = enc.apply(enc.parse_action(label), dice)
    state_invariants(enc)
    return events


def texts(events) -> list[str]:
    return [str(e) for e in events]


# ---------------------------------------------------------------- state and turns (spec §3-§4)
def test_first_turn_and_queue_interleave():
    enc = fight("party_vs_bear")
    assert enc.current_actor() == "cave_bear"
    assert enc.round == 1 and enc.active_side == "A"
    do(enc, "cave_bear: end_turn")
    assert enc.active_side == "B"
    assert enc.current_actor() == "duelist"  # id order: duelist, knight, mage
    do(enc, "duelist: step e")
    assert enc.current_actor() == "knight"  # the duelist went to the back
    assert enc.queue == ["knight", "mage", "duelist"]
    # the bear kept its Defensive action: +1 Reaction at the end of its turn (spec §4.7)
    assert enc.by_id["cave_bear"].reactions == 1


def test_no_interleave_keeps_the_member_acting():
    enc = fight("party_vs_bear", {"version": "core", "interleave": False})
    do(enc, "cave_bear: end_turn")
    do(enc, "duelist: step e")
    assert enc.current_actor() == "duelist"


def test_step_budget_and_move_action():
    enc = fight("duel_blade_vs_shield")
    for _ in range(5):
        do(enc, "duelist: step e")
    d = enc.by_id["duelist"]
    assert d.pos == (7, 6) and d.budget == 0 and "M" in d.used
    assert not any(x.startswith("duelist: step") for x in labels(enc))


def test_round_cap_is_a_draw():
    enc = fight("duel_blade_vs_shield", {"version": "core", "round_limit": 2})
    for _ in range(4):
        do(enc, f"{enc.current_actor()}: end_turn")
    assert enc.is_over() and enc.outcome().reason == "round_cap" and enc.outcome().winner is None


# ---------------------------------------------------------------- attacks (spec §5.0.4)
def adjacent_duel(**kw):
    return fight("duel_blade_vs_shield", places={"duelist": (8, 6), "knight": (9, 6)}, **kw)


def test_attack_hits_and_deals_damage():
    enc = adjacent_duel()
    # d20=12 +2 = 14 > Defense 10 (knight has no reactions in round 1); sword 1d8=5 +2 = 7
    ev = do(enc, "duelist: attack main -> knight", [12, 5])
    assert enc.by_id["knight"].hp == 49 - 7
    assert "duelist's sword vs knight: hit (14)" in texts(ev)
    d = enc.by_id["duelist"]
    assert d.pool_open and d.pool_general == 0 and d.pool_weapon == {"dagger": 1}


def test_exertion_window_on_attack_roll():
    enc = adjacent_duel(options=FULL)
    ev = do(enc, "duelist: attack main -> knight", [7])
    assert enc.current_actor() == "duelist" and labels(enc) == ["duelist: spend",
                                                                  "duelist: pass"]
    ev = do(enc, "duelist: spend", ["d6=4"])
    assert "duelist spends an Exertion Die on hit: +4 -> 13" in texts(ev)
    ev = do(enc, "duelist: pass", [3])  # the sword's 1d8 -> 3 + 2, then E-DMG
    assert enc.window.kind == "exert_dmg"
    do(enc, "duelist: pass")
    assert enc.by_id["knight"].hp == 49 - 5 and enc.by_id["duelist"].dice == 2


def test_natural_one_misses_and_regains_a_die():
    enc = adjacent_duel()
    enc.by_id["duelist"].dice = 1
    ev = do(enc, "duelist: attack main -> knight", [1])
    assert enc.by_id["duelist"].dice == 2 and enc.by_id["knight"].hp == 49
    assert "duelist's sword vs knight: fumble (3)" in texts(ev)


def test_crit_doubles_damage():
    enc = adjacent_duel()
    do(enc, "duelist: attack off -> knight", [19, 3])  # dagger crit 19-20: (3 + 2) x 2
    assert enc.by_id["knight"].hp == 49 - 10


def test_dodge_parry_block_windows():
    enc = adjacent_duel()
    enc.by_id["knight"].reactions = 3
    do(enc, "duelist: attack main -> knight")  # R-DECLARE first, before any die
    assert enc.window.kind == "declare"
    do(enc, "knight: pass", [15])
    assert enc.window.kind == "parry"
    do(enc, "knight: pass")
    assert enc.window.kind == "dodge"
    do(enc, "knight: pass", [6])  # the sword rolls 6 (+2 = 8)
    assert enc.window.kind == "block"
    do(enc, "knight: block")  # Guard 3 (shield) + 3 (heavy armour) = 6 takes 6 of 8
    k = enc.by_id["knight"]
    assert k.hp == 47 and k.guard == 0 and k.reactions == 2


def test_one_reaction_per_attack():
    enc = adjacent_duel()
    enc.by_id["knight"].reactions = 3
    do(enc, "duelist: attack main -> knight")
    do(enc, "knight: pass", [15])
    # parry 10 + 2 = 12 < 17: the attack goes on; the sword rolls 6; no Dodge or Block after
    # a Parry
    do(enc, "knight: parry", [10, 6])
    assert enc.window is None and enc.by_id["knight"].hp == 41


def test_parry_win_ripostes():
    enc = adjacent_duel()
    enc.by_id["knight"].reactions = 1
    do(enc, "duelist: attack main -> knight")
    do(enc, "knight: pass", [9])  # hit 11
    do(enc, "knight: parry", [14])  # parry 16 > 11: riposte with the sword
    # its R-DECLARE: on its own turn the duelist's React (drop prone) is an Extra (§5.1 row 15)
    assert enc.window.labels == ("duelist: drop_prone", "duelist: pass")
    do(enc, "duelist: pass", [4])  # the riposte's hit 4 + 2 = 6
    assert enc.window is None
    assert enc.by_id["duelist"].hp == 48  # 6 does not beat Defense 10: the riposte misses
    assert enc.by_id["knight"].hp == 49


def test_dodge_beats_the_hit():
    enc = fight("duel_blade_vs_shield", places={"duelist": (8, 6), "knight": (9, 6)})
    enc.by_id["duelist"].reactions = 1
    do(enc, "duelist: end_turn")
    do(enc, "knight: attack main -> duelist")
    do(enc, "duelist: pass", [12])  # declare: no; hit 14
    do(enc, "duelist: pass")  # no parry
    do(enc, "duelist: dodge", [3])  # dodge 3 + 12 = 15 > 14
    assert enc.by_id["duelist"].hp == 48 and enc.window is None


# ---------------------------------------------------------------- contests and conditions
def test_trip_contest_prone_and_fall_damage():
    enc = adjacent_duel()
    # Athletics 10 vs 12: 15 + 10 = 25 > 8 + 12 = 20; knight (Stocky) falls: 1d6 = 4 Fall
    ev = do(enc, "duelist: trip move -> knight", [15, 8, 4])
    k = enc.by_id["knight"]
    assert k.prone and k.hp == 45
    assert "knight falls prone" in texts(ev)
    assert enc.by_id["duelist"].mode == "trip"  # no budget


def test_tie_goes_to_defender():
    enc = adjacent_duel()
    do(enc, "duelist: trip atk -> knight", [10, 8])  # 20 vs 20
    assert not enc.by_id["knight"].prone


def test_grapple_stops_steps_and_break_free():
    enc = adjacent_duel()
    enc.by_id["duelist"].wielded.pop("off")
    do(enc, "duelist: grapple -> knight", [15, 2])
    k = enc.by_id["knight"]
    assert k.grappled_by == ["duelist"] and enc.by_id["duelist"].grips == {"knight": 1}
    do(enc, "duelist: end_turn")
    assert not any(x.startswith("knight: step") for x in labels(enc))
    do(enc, "knight: break_free -> duelist", [18, 3])  # 12 + 18 = 30 vs 3 + 10
    assert k.grappled_by == []


def test_jarred_masks_the_third_action():
    enc = adjacent_duel()
    from envs.sizebound.rules.procedures import add_condition
    add_condition(enc, [], enc.by_id["duelist"], "jarred", rounds=1)
    do(enc, "duelist: attack main -> knight", [2])  # P spent (miss)
    do(enc, "duelist: step w")  # M spent
    assert not any(x.startswith("duelist: trip move") for x in labels(enc))
    d = enc.by_id["duelist"]
    from envs.sizebound.rules.economy import can_spend, defensive_bonus
    assert not can_spend(d, "D") and can_spend(d, "B") and not defensive_bonus(d)


def test_ladder_escalates():
    enc = adjacent_duel()
    from envs.sizebound.rules.procedures import add_condition
    d = enc.by_id["duelist"]
    add_condition(enc, [], d, "jarred", rounds=2)
    add_condition(enc, [], d, "jarred", rounds=2)
    assert d.action_rung == 2  # Jarred + Jarred = Staggered


def test_hp_stun_and_death():
    enc = adjacent_duel(hp={"knight": 3})
    do(enc, "duelist: attack main -> knight", [12, 8])  # 10 damage -> -7: HP Stun
    k = enc.by_id["knight"]
    assert k.hp == -7 and k.action_rung == 3 and k.alive
    do(enc, "duelist: attack off -> knight", [19, 4])  # (4 + 2) x 2 = 12 -> -19, not < -20
    assert k.alive
    enc2 = adjacent_duel(hp={"knight": -15})
    ev = do(enc2, "duelist: attack main -> knight", [12, 8])  # -25 < -20
    assert not enc2.by_id["knight"].alive and enc2.is_over()
    assert enc2.outcome().winner == "A" and "knight dies (-25 HP)" in texts(ev)


def test_parse_action_rejects_bad_labels():
    enc = adjacent_duel()
    with pytest.raises(ActionSyntaxError, match="unknown kind 'fly'"):
        enc.parse_action("duelist: fly")
    with pytest.raises(ActionSyntaxError, match="step takes e or ne"):
        enc.parse_action("duelist: step up")
    with pytest.raises(ActionSyntaxError, match="unknown combatant 'bob'"):
        enc.parse_action("bob: end_turn")
    with pytest.raises(IllegalActionError, match="it is duelist's decision"):
        enc.apply(enc.parse_action("knight: end_turn"), ScriptedDice([]))
