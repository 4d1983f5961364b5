"""Sizebound engine: procedures with forced dice (spec §4-§8), using hand-built profiles with
the numbers of spec §13.2."""

from __future__ import annotations

import pytest

from envs.core.actions import ActionSyntaxError, IllegalActionError
from envs.core.dice import ScriptedDice
from envs.core.squaregrid import SquareGrid
from envs.sizebound.invariants import state_invariants
from envs.sizebound.rules.options import CORE, FULL
from envs.sizebound.rules.setup import build
from envs.sizebound.rules.profile import Profile, SkillProfile, WeaponProfile

W = {
    "sword": WeaponProfile("sword", "Sword", 1, 1, 8, "best_might_skill", ("Slashing",), 1,
                           guard=2),
    "dagger": WeaponProfile("dagger", "Sword", 1, 1, 4, "skill", ("Piercing",), 1, thrown=4,
                            weapon_attacks=1, guard=1, crit=frozenset({19, 20})),
    "shield": WeaponProfile("shield", "Shield", 1, 1, 4, "might", ("Bludgeoning",), 1, guard=3),
    "quarterstaff": WeaponProfile("quarterstaff", "Pole", 2, 1, 8, "best_might_skill",
                                  ("Bludgeoning",), 1, guard=2),
    "shortbow": WeaponProfile("shortbow", "Bow", 2, 1, 6, "skill", ("Piercing",), None,
                              range=12),
    "nat_bite_small": WeaponProfile("nat_bite_small", "Unarmed", 0, 1, 6, "best_might_skill",
                                    ("Piercing",), 1, natural=True),
    "nat_claw": WeaponProfile("nat_claw", "Unarmed", 0, 1, 8, "might", ("Slashing",), 1,
                              natural=True),
    "nat_bite": WeaponProfile("nat_bite", "Crescent", 0, 1, 6, "might", ("Piercing",), 1,
                              weapon_attacks=1, crit=frozenset({19, 20}), natural=True),
    "greatclub": WeaponProfile("greatclub", "Hammer", 2, 3, 6, "might", ("Bludgeoning",), 1,
                               guard=1),
    "greatsword": WeaponProfile("greatsword", "Sword", 2, 2, 6, "might", ("Slashing",), 1,
                                guard=2),
}
SK = {
    "arcane_bolt": SkillProfile("arcane_bolt", 2, 12, 1, 8, "magic", ("Arcane",)),
    "arcane_burst": SkillProfile("arcane_burst", 6, 8, 2, 6, "magic", ("Arcane",), size=3),
    "mend": SkillProfile("mend", 4, 1, 1, 8, "magic"),
    "stomp": SkillProfile("stomp", 0, 0, 1, 6, "might", ("Bludgeoning",), size=1,
                          min_size_index=7, magical=False),
    "roar": SkillProfile("roar", 0, 6, uses=1, magical=False),
}


def prof(name: str, size: str, si: int, sn: int, fp: float, level: int, totals: tuple,
         hp: int, mana: int, mr: int, *, walk: int = 5, hands: int = 2, armoured: bool = False,
         gb: int = 0, fall: int = 1, wielded: dict | None = None, natural: tuple = (),
         stowed: tuple = (), alternate: dict | None = None, skills: tuple = ()) -> Profile:
    ws = dict(wielded or {})
    ids = set(ws.values()) | set(natural) | set(stowed) | set((alternate or {}).values())
    return Profile(name, level, size, si, sn, fp, walk, 1, hands, totals, hp, -19 - level, mana,
                   6, mr, level // 5, 3, armoured, gb, fall, {i: W[i] for i in ids},
                   tuple(ws.items()), natural, stowed,
                   None if alternate is None else tuple(alternate.items()),
                   tuple(SK[s] for s in skills))


P = {
    "duelist": prof("Sellsword Duelist", "Medium", 4, 8, 0.5, 1, (12, 15, 10), 48, 16, 3,
                    wielded={"main": "sword", "off": "dagger"}),
    "knight": prof("Shieldbearer Knight", "Stocky", 5, 9, 0.5, 1, (15, 12, 10), 49, 16, 3,
                   armoured=True, gb=3, wielded={"main": "sword", "off": "shield"}),
    "mage": prof("Hedge Mage", "Medium", 4, 8, 0.5, 1, (10, 12, 15), 48, 16, 3,
                 wielded={"both": "quarterstaff"}, skills=("arcane_bolt", "arcane_burst", "mend")),
    "goblin": prof("Goblin Skirmisher", "Small", 3, 7, 0.5, 1, (12, 15, 10), 47, 16, 2, fall=0,
                   wielded={"both": "shortbow"}, stowed=("dagger",),
                   alternate={"main": "dagger"}),
    "war_dog": prof("War Dog", "Puny", 2, 5, 0.2, 1, (12, 15, 10), 45, 16, 1, walk=7, hands=1,
                    fall=0, natural=("nat_bite_small",)),
    "cave_bear": prof("Cave Bear", "Large", 6, 10, 1.0, 3, (16, 12, 10), 76, 28, 4, walk=6,
                      fall=2, natural=("nat_claw", "nat_bite")),
    "hill_giant": prof("Hill Giant", "Huge", 7, 11, 2.0, 5, (19, 12, 10), 105, 40, 4, walk=6,
                       fall=3, wielded={"both": "greatclub"}, skills=("stomp", "roar")),
    "captain": prof("Veteran Captain", "Medium", 4, 8, 0.5, 5, (18, 14, 10), 90, 40, 3,
                    armoured=True, gb=2, wielded={"both": "greatsword"}),
}

ENCOUNTERS = {
    "duel_blade_vs_shield": (12, 12, [], [], [("duelist", "A", (2, 6)), ("knight", "B", (9, 6))]),
    "skirmish_2v2": (14, 14, [], [(x, y) for x in (6, 7) for y in range(4, 10)],
                     [("knight", "A", (2, 6)), ("mage", "A", (1, 8)), ("goblin", "B", (12, 7)),
                      ("war_dog", "B", (11, 5))]),
    "party_vs_bear": (14, 14, [], [], [("cave_bear", "A", (10, 7)), ("duelist", "B", (3, 6)),
                                       ("knight", "B", (3, 8)), ("mage", "B", (1, 7))]),
    "giant_vs_four": (16, 16, [(x, 0) for x in range(4)], [],
                      [("duelist", "A", (3, 10)), ("knight", "A", (4, 8)), ("mage", "A", (1, 9)),
                       ("captain", "A", (4, 11)), ("hill_giant", "B", (11, 8))]),
}


QUIET = {"version": "core", "exertion_control": "off"}
"""CORE without the exertion windows, so a test of another procedure needs no ``pass``."""


def fight(name: str, options=QUIET, places: dict | None = None, hp: dict | None = None,
          start: bool = True):
    w, h, walls, rough, lineup = ENCOUNTERS[name]
    grid = SquareGrid(w, h, frozenset(walls), frozenset(rough))
    rows = [(cid, side, P[cid], (places or {}).get(cid, at)) for cid, side, at in lineup]
    return build(rows, grid, ["A", "B"], options, name, start=start, hp=hp)


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
    do(enc, "knight: parry", [14, 4])  # parry 16 > 11: riposte with the sword, hit 4 + 2 = 6
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
