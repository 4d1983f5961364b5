"""The constructed combat cases of spec §11.2 (C-01 .. C-13) with their forced dice."""

from __future__ import annotations

from test_sizebound_rules import QUIET, do, labels

from envs.sizebound.rules import from_situation
from envs.sizebound.rules.damage import harm

AGENT = {"version": "core"}  # CORE with the exertion windows


def sit(*people, options=QUIET, order=("A", "B"), **top):
    """A situation of catalogue creatures: ``(id, side, block, x, y, state)``."""
    rows = []
    for p in people:
        cid, side, block, x, y = p[:5]
        row = {"id": cid, "side": side, "stats": block, "at": [x, y]}
        if len(p) > 5:
            row["state"] = p[5]
        rows.append(row)
    return from_situation({"system": "sizebound", "options": options, "combatants": rows,
                           "side_order": list(order), **top}, "case.yaml")


def hp(enc, cid):
    return enc.by_id[cid].hp


def test_c01_basic_attack():
    enc = sit(("duelist", "A", "duelist", 2, 6), ("goblin", "B", "goblin", 3, 6))
    do(enc, "duelist: attack main -> goblin", [9, 5])  # H = 9 + 1 + 1 = 11 > 10; 5 + 2
    assert hp(enc, "goblin") == 40
    enc = sit(("duelist", "A", "duelist", 2, 6), ("goblin", "B", "goblin", 3, 6))
    do(enc, "duelist: attack main -> goblin", [8])  # H = 10, not > 10
    assert hp(enc, "goblin") == 47


def test_c02_dodge_tie_still_hits():
    enc = sit(("duelist", "A", "duelist", 2, 6), ("goblin", "B", "goblin", 3, 6,
                                                  {"reactions": 1}))
    do(enc, "duelist: attack main -> goblin")
    do(enc, "goblin: pass", [13])  # R-DECLARE; H = 15
    do(enc, "goblin: pass")  # R-PARRY
    do(enc, "goblin: dodge", [3, 5])  # 3 + 1 + 11 = 15, not > 15: hit, 5 + 2
    assert hp(enc, "goblin") == 40 and enc.by_id["goblin"].reactions == 0
    do(enc, "duelist: attack off -> goblin", [10, 2])  # no reaction left to Dodge the dagger
    assert hp(enc, "goblin") == 36 and enc.window is None


def test_c03_parry_tie_and_win():
    people = (("duelist", "A", "duelist", 8, 6), ("knight", "B", "knight", 9, 6,
                                                  {"reactions": 1}))
    enc = sit(*people)
    do(enc, "duelist: attack main -> knight")
    do(enc, "knight: pass", [10])  # H = 12
    do(enc, "knight: parry", [10, 3, 6])  # tie: both hit; 3 + 2 on the knight, 6 + 2 back
    assert hp(enc, "knight") == 44 and hp(enc, "duelist") == 40
    enc = sit(*people)
    do(enc, "duelist: attack main -> knight")
    do(enc, "knight: pass", [10])
    do(enc, "knight: parry", [11, 7])  # 13 > 12: miss; riposte H = 9, misses
    assert hp(enc, "knight") == 49 and hp(enc, "duelist") == 48


def test_c04_block_and_the_guard_pool():
    enc = sit(("knight", "A", "knight", 5, 6, {"reactions": 1}),
              ("goblin1", "B", "goblin", 10, 6), ("goblin2", "B", "goblin", 10, 7),
              order=("B", "A"))
    do(enc, "goblin1: attack main -> knight")
    do(enc, "knight: pass", [12])  # R-DECLARE; H = 14
    do(enc, "knight: pass", [2])  # R-DODGE; damage 2 + 2 = 4
    do(enc, "knight: block")  # Guard 6 absorbs 4
    k = enc.by_id["knight"]
    assert k.hp == 49 and k.guard == 2
    do(enc, "goblin2: attack main -> knight", [15, 5])  # 7: Guard takes 2
    assert k.hp == 44 and k.guard == 0


def test_c05_trip_with_move_then_advantage():
    enc = sit(("knight", "A", "knight", 8, 6), ("duelist", "B", "duelist", 9, 6))
    do(enc, "knight: trip move -> duelist", [8, 9, 4])  # 20 > 19; Medium falls: 1d6 4
    assert enc.by_id["duelist"].prone and hp(enc, "duelist") == 44
    do(enc, "knight: attack main -> duelist", [6, 14, 7])  # advantage keeps 14: H 16; 7 + 2
    assert hp(enc, "duelist") == 35
    enc = sit(("knight", "A", "knight", 8, 6), ("duelist", "B", "duelist", 9, 6))
    do(enc, "knight: trip move -> duelist", [8, 10])  # tie: the defender wins
    assert not enc.by_id["duelist"].prone


def test_c06_zero_hp_and_pnr():
    enc = sit(("knight", "A", "knight", 8, 6), ("duelist", "B", "duelist", 9, 6, {"hp": 3}))
    do(enc, "knight: attack main -> duelist", [12, 7])  # 9 damage
    d = enc.by_id["duelist"]
    assert d.hp == -6 and d.action_rung == 3
    harm(enc, [], d, 14, ("Slashing",))
    assert d.hp == -20 and d.alive
    harm(enc, [], d, 1, ("Slashing",))
    assert not d.alive and enc.outcome().winner == "A"


def test_c07_mana_overdraw():
    for opts, left in ((QUIET, 33), ({"version": "core", "exertion_control": "off",
                                       "mana_overdraw": "full"}, 30)):
        enc = sit(("mage", "A", "mage", 2, 6, {"mana": 1}), ("goblin", "B", "goblin", 8, 6),
                  options=opts)
        do(enc, "mage: cast arcane_burst -> goblin", [3, 4])
        assert enc.by_id["mage"].mana == -5 and hp(enc, "mage") == left


def test_c08_flanking_prone_advantage_and_crit_negation():
    enc = sit(("duelist", "A", "duelist", 2, 6), ("knight", "A", "knight", 3, 7),
              ("goblin", "B", "goblin", 3, 6, {"conditions": ["prone"]}), options=AGENT)
    do(enc, "duelist: attack main -> goblin", [4, 12])  # keeps 12: 12 + 2 + 2 flank = 16
    do(enc, "duelist: pass", [5])  # no E-D20; 5 + 2
    do(enc, "duelist: pass")  # no E-DMG
    assert hp(enc, "goblin") == 40
    do(enc, "knight: end_turn")  # the knight's turn in the queue
    do(enc, "duelist: attack off -> goblin", [19, 3])  # keeps 19: dagger crit
    do(enc, "duelist: pass")
    assert enc.window.kind == "crit"
    do(enc, "goblin: negate", [3])  # a normal hit: 3 + 2
    do(enc, "duelist: pass")
    assert hp(enc, "goblin") == 35 and enc.by_id["goblin"].dice == 2


def test_c09_sword_charge():
    enc = sit(("duelist", "A", "duelist", 2, 6), ("goblin", "B", "goblin", 8, 6))
    for _ in range(5):
        do(enc, "duelist: step e")
    do(enc, "duelist: attack main -> goblin", [11])  # maximized: 8 + 2
    assert hp(enc, "goblin") == 37


def test_c10_exertion_on_a_d20_and_on_damage():
    enc = sit(("duelist", "A", "duelist", 2, 6), ("goblin", "B", "goblin", 3, 6), options=AGENT)
    do(enc, "duelist: attack main -> goblin", [7])  # H = 9
    do(enc, "duelist: spend", [3])  # H = 12
    do(enc, "duelist: pass", [2])  # 2 + 2 = 4
    do(enc, "duelist: spend", [5])  # + 2 x 5
    do(enc, "duelist: pass")
    assert hp(enc, "goblin") == 47 - 14 and enc.by_id["duelist"].dice == 1


def test_c11_area_doubling_and_dodge():
    enc = sit(("mage", "A", "mage", 1, 6), ("hill_giant", "B", "hill_giant", 5, 5,
                                            {"reactions": 1}))
    do(enc, "mage: cast arcane_burst -> hill_giant")
    do(enc, "hill_giant: dodge", [6, 3, 4])  # 6 + 5 + 11 = 22; 9 x 2 - 11 = 7
    assert hp(enc, "hill_giant") == 98 and enc.by_id["mage"].mana == 10


def test_c12_reactions_across_a_round():
    enc = sit(("duelist", "A", "duelist", 2, 6), ("goblin", "B", "goblin", 9, 6))
    do(enc, "duelist: end_turn")
    assert enc.by_id["duelist"].reactions == 1  # kept its Defensive action
    do(enc, "goblin: attack main -> duelist")  # P
    do(enc, "duelist: pass", [2])  # no drop prone; H = 4 misses
    do(enc, "goblin: step e")  # M
    do(enc, "goblin: end_turn")  # D unspent: +1 Reaction
    g = enc.by_id["goblin"]
    assert enc.round == 2 and g.reactions == 1
    do(enc, "duelist: end_turn")
    assert g.reactions == 0  # reset at the start of its own turn


def test_c13_grapple_drag_and_mr():
    enc = sit(("knight", "A", "knight", 2, 6), ("goblin", "B", "goblin", 1, 6))
    do(enc, "knight: free_hand")
    do(enc, "knight: grapple -> goblin", [10, 12])  # 22 vs 21
    for _ in range(5):
        do(enc, "knight: step e")
    k, g = enc.by_id["knight"], enc.by_id["goblin"]
    assert k.pos == (5, 6) and g.pos == (4, 6)  # MR 2 cancelled two steps
    do(enc, "knight: end_turn")
    do(enc, "goblin: break_free -> knight", [9, 9])  # Nimble 12 + 9 vs Athletics 12 + 9: tie
    assert g.grappled_by == ["knight"]
    assert not any(x.startswith(("goblin: step", "goblin: stand")) for x in labels(enc))
