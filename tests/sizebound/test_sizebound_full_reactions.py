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


# ---------------------------------------------------------------- Quick Draw (spec §6.4.5)
def quick_draw(faces, options=FULLQ):
    enc = adjacent(options)
    enc.by_id["knight"].reactions = 2
    do(enc, "duelist: attack main -> knight")
    ev = do(enc, "knight: quick_draw", faces)
    if enc.window is not None and enc.window.kind == "quick_item":  # spec §6.4.5: a win offers
        assert enc.window.labels == ("knight: free_hand", "knight: pass")  # a Free item use
        ev = ev + do(enc, "knight: pass", faces[2:])
    return enc, ev


def test_quick_draw_is_full_only():
    enc = adjacent()
    enc.by_id["knight"].reactions = 1
    do(enc, "duelist: attack main -> knight")
    assert enc.window.labels == ("knight: drop_prone", "knight: pass")
    enc = adjacent(FULLQ)
    enc.by_id["knight"].reactions = 1
    do(enc, "duelist: attack main -> knight")
    assert enc.window.labels == ("knight: drop_prone", "knight: quick_draw", "knight: pass")


def test_quick_draw_by_4_strikes_first_on_an_attack_borrowed_from_the_next_turn():
    # Nimble 14 + 9 = 23 vs 8 + 11 = 19: by 4
    enc, ev = quick_draw([14, 8])
    assert "knight quick-draws against duelist (by 4): may borrow 1 attack" in texts(ev)
    assert enc.window.labels == ("knight: quick_strike -> duelist", "knight: pass")
    ev = do(enc, "knight: quick_strike -> duelist")
    # the strike's R-DECLARE: on its own turn the duelist's React is an Extra (spec §5.1 row 15)
    assert enc.window.labels == ("duelist: drop_prone", "duelist: pass")
    ev += do(enc, "duelist: pass", [14, 5])  # 16 hits: 1d8 5 + 2
    # "one more reaction against the same attack" (spec §6.4.5): R-DECLARE's React again
    assert enc.window.labels == ("knight: drop_prone", "knight: pass")
    ev += do(enc, "knight: pass", [10])
    got = [x for x in texts(ev) if " rolls hit" in x or " vs " in x or " takes " in x]
    assert got == ["knight rolls hit: d20 14 -> 14 +2 = 16", "knight's sword vs duelist: hit (16)",
                   "duelist takes 7 Slashing -> 41 HP", "duelist rolls hit: d20 10 -> 10 +2 = 12"]
    k = enc.by_id["knight"]
    assert k.attack_debt == 1 and k.reactions == 1
    # one more reaction against the same attack (spec §6.2): the knight may still parry
    assert enc.window.kind == "parry" and enc.current_actor() == "knight"
    do(enc, "knight: pass")
    do(enc, "knight: pass", [4])  # dodge; the sword's 1d8 4 + 2 hits the knight
    do(enc, "knight: pass")  # block
    assert enc.by_id["knight"].hp == 43 and enc.by_id["duelist"].hp == 41
    do(enc, "duelist: end_turn")
    # the knight's next pool has 1 - 1 = 0 general attacks: no weapon attack, only a bonus Jab
    got = [a.label for a in enc.legal_actions()]
    assert "knight: attack main -> duelist" not in got and "knight: jab bonus -> duelist" in got
    do(enc, "knight: end_turn")
    assert enc.by_id["knight"].attack_debt == 0  # paid


def test_quick_draw_by_8_with_one_attack_to_strike_owes_only_that_attack():
    # spec §6.4.5: by 8+ the Primary "may instead" be borrowed; the knight's pool would hold one
    # general attack and its sword no attack of its own, so its one strike is the 1 general
    # attack borrowed, not the whole Primary (case s645a: a second strike borrows it)
    enc, ev = quick_draw([19, 8])  # 28 vs 19: by 9
    assert "knight quick-draws against duelist (by 9): may borrow the Primary action" in texts(ev)
    do(enc, "knight: quick_strike -> duelist")
    do(enc, "duelist: pass", [2])  # no React against it (an Extra on its turn); 4 misses
    do(enc, "knight: pass", [10])  # no React (drop prone); then the duelist's 12
    k = enc.by_id["knight"]
    assert not k.primary_debt and k.attack_debt == 1
    assert enc.window.kind == "parry"  # no second strike: nothing left in that pool
    do(enc, "knight: pass")  # parry
    do(enc, "knight: pass", [4])  # dodge
    do(enc, "knight: pass")  # block
    do(enc, "duelist: end_turn")
    k = enc.by_id["knight"]
    assert k.used == "" and not k.primary_debt
    got = [a.label for a in enc.legal_actions()]
    assert "knight: attack main -> duelist" not in got and "knight: jab bonus -> duelist" in got


def test_quick_draw_lost_or_small_win_borrows_nothing():
    enc, ev = quick_draw([13, 8])  # 22 vs 19: by 3, nothing to borrow; the attack goes on
    assert "knight quick-draws against duelist (by 3): nothing to borrow" in texts(ev)
    assert enc.window.labels == ("knight: drop_prone", "knight: pass")  # one more reaction
    do(enc, "knight: pass", [10])
    assert enc.window.kind == "parry" and enc.by_id["knight"].reactions == 1
    enc, ev = quick_draw([5, 8])  # 14 vs 19: lost
    assert "knight loses the quick_draw contest against duelist (14 vs 19)" in texts(ev)
    do(enc, "knight: pass", [10])
    assert enc.window.kind == "parry" and enc.by_id["knight"].attack_debt == 0


def test_after_a_quick_draw_the_one_more_reaction_may_be_a_drop_prone():
    # spec §6.4.5: "After Quick Draw you may use one more reaction against the same attack";
    # R-DECLARE's React is one: the knight drops prone and takes no other against it
    enc, ev = quick_draw([5, 8])  # 14 vs 19: lost
    do(enc, "knight: drop_prone", [10, 3, 4])  # melee at the prone knight: advantage, 12 hits
    k = enc.by_id["knight"]
    assert k.prone and k.reactions == 0
    assert enc.window is None or enc.window.kind not in ("parry", "dodge")


# ---------------------------------------------------------------- Dispel (spec §6.4.6)
def bolt(options=FULLQ):
    enc = fight("party_vs_bear", options)
    for cid in ("cave_bear", "duelist", "knight"):  # the bear keeps D: +1 Reaction
        do(enc, f"{cid}: end_turn")
    return enc, do(enc, "mage: cast arcane_bolt -> cave_bear")


def test_dispel_window_is_full_only():
    enc, _ = bolt(QUIET)
    assert enc.window.kind == "declare"  # straight to the bolt's attack
    enc, _ = bolt()
    assert enc.window.kind == "dispel" and enc.window.labels == (
        "cave_bear: dispel", "cave_bear: pass")


def test_dispel_won_by_less_than_5_the_caster_pays_8_more_mana():
    enc, _ = bolt()
    ev = do(enc, "cave_bear: dispel", [15, 10])  # Arcana 15 + 6 = 21 vs 10 + 8 = 18
    assert "cave_bear wins the dispel contest against mage (21 vs 18)" in texts(ev)
    assert enc.window.kind == "pay" and enc.current_actor() == "mage"
    ev = do(enc, "mage: pay", [1])  # the bolt goes on: a natural 1 misses
    m = enc.by_id["mage"]
    cost = m.profile.skill("arcane_bolt").mana
    assert m.mana == 16 - 8 - cost and enc.by_id["cave_bear"].reactions == 0
    assert texts(ev)[1:3] == ["mage uses dispel (8 Mana)", "mage's arcane_bolt is paid through "
                                                           "the dispel of cave_bear"]
    assert texts(ev)[3] == f"mage uses arcane_bolt ({cost} Mana)"


def test_dispel_the_caster_lets_it_fizzle_and_keeps_its_mana():
    enc, _ = bolt()
    do(enc, "cave_bear: dispel", [15, 10])
    ev = do(enc, "mage: pass")
    m = enc.by_id["mage"]
    assert "mage's arcane_bolt fizzles under the dispel of cave_bear" in texts(ev)
    assert m.mana == 16 and m.pool_open and m.pool_general == 0  # the attack is wasted
    assert not any("rolls hit" in t for t in texts(ev))


def test_dispel_won_by_5_fizzles_without_a_choice_and_a_loss_lets_it_resolve():
    enc, _ = bolt()
    ev = do(enc, "cave_bear: dispel", [17, 10])  # 23 vs 18: by 5
    assert "mage's arcane_bolt fizzles under the dispel of cave_bear" in texts(ev)
    assert enc.by_id["mage"].mana == 16 and enc.window is None
    enc, _ = bolt()
    ev = do(enc, "cave_bear: dispel", [12, 10, 1])  # 18 vs 18: the tie loses
    assert "cave_bear fails to dispel mage's arcane_bolt" in texts(ev)
    cost = enc.by_id["mage"].profile.skill("arcane_bolt").mana
    assert enc.by_id["mage"].mana == 16 - cost


# ---------------------------------------------------------------- damage (spec §8.2-§8.4, §2.7)
def hit_with(options, dtypes, faces=(5,), tags=(), absorb=()):
    """The knight takes 1d8 + 2 of ``dtypes`` from the duelist through D1-D14."""
    from envs.core.flow import Ctx, ReplayDice
    from envs.sizebound.rules.damage import deal
    enc = adjacent(options)
    k, d = enc.by_id["knight"], enc.by_id["duelist"]
    k.profile = replace(k.profile, tags=frozenset(tags), absorb=tuple(absorb))
    k.hp = 40
    ev: list = []
    ctx = Ctx(ReplayDice([], ScriptedDice(list(faces))), [])
    lost = deal(enc, ctx, ev, dealer=d, target=k, dice_n=1, dice_sides=8, flat=2,
                dtypes=tuple(dtypes))
    return lost, k.hp, texts(ev)


def test_creature_type_immunities_are_full_only():
    assert hit_with(FULLQ, ["Necrotic"], faces=(), tags=["undead"])[:2] == (0, 40)
    assert hit_with(QUIET, ["Necrotic"], tags=["undead"])[:2] == (7, 33)
    assert hit_with(FULLQ, ["Arcane"], faces=(), tags=["inanimate"])[:2] == (0, 40)
    assert hit_with(FULLQ, ["Poison"], faces=(), tags=["no_blood"])[:2] == (0, 40)
    # Necrotic + Slashing on the undead: immune to one of two -> Resistant, 1d8 minimized
    assert hit_with(FULLQ, ["Necrotic", "Slashing"], faces=(), tags=["undead"])[:2] == (3, 37)


def test_creature_type_vulnerabilities_include_tertiary_types():
    assert hit_with(FULLQ, ["Solar"], faces=(), tags=["vile"])[:2] == (10, 30)  # 8 + 2
    assert hit_with(FULLQ, ["Slashing", "Iron"], faces=(), tags=["fae"])[:2] == (10, 30)
    assert hit_with(FULLQ, ["Slashing", "Silver"], tags=["fae"])[:2] == (7, 33)
    assert hit_with(QUIET, ["Solar"], tags=["vile"])[:2] == (7, 33)


def test_absorption_heals_its_share():
    lost, hp, ev = hit_with(FULLQ, ["Fire"], faces=(4,), absorb=[("Fire", 50)])  # 6: 3 heal
    assert (lost, hp) == (3, 40) and "knight takes 3 Fire -> 40 HP" in ev
    lost, hp, _ = hit_with(FULLQ, ["Fire"], faces=(4,), absorb=[("Fire", 100)])
    assert (lost, hp) == (0, 46)
    assert hit_with(QUIET, ["Fire"], faces=(4,), absorb=[("Fire", 100)])[:2] == (6, 34)
