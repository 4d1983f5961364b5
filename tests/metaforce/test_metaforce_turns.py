"""Metaforce turns, frames, reactions, movement and labels (spec §3.3-§3.5, §4, §5.1, §5.2,
§5.6, §5.7, §6.1 W-R1, §8.7, R-7, R-56, R-58)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_metaforce_kit import (
    act,
    block,
    cat,
    detective,
    fight,
    fighter,
    labels,
    revolver,
    texts,
)

from envs.core.actions import IllegalActionError
from envs.core.dice import ScriptedDice
from envs.metaforce.rules import CORE, FULL, Weapon
from envs.metaforce.rules.combatant import Combatant
from envs.metaforce.rules.turns import roll_initiative


def test_initiative_is_d12_plus_bonus_ties_by_reflex_then_agi_then_a_draw():
    cs = [Combatant(p.id, "a", p, (i, 0)) for i, p in enumerate([
        block("p", initiative_bonus=3, cores={"body": 1, "reflex": 3, "mind": 1}),
        block("q", initiative_bonus=3, cores={"body": 1, "reflex": 5, "mind": 1}),
        block("r", initiative_bonus=5, cores={"body": 1, "reflex": 3, "mind": 1}),
        block("s", initiative_bonus=3, cores={"body": 1, "reflex": 3, "mind": 1})])]
    ev: list = []
    # p 9+3, q 9+3 (Reflex 5 first), r 7+5, s 9+3: p, s and r tie on everything -> a draw
    order = roll_initiative(cs, ScriptedDice([9, 9, 7, 9, "d3=1", "d2=2"]), "direct", ev)
    assert order[0] == "q" and sorted(order[1:]) == ["p", "r", "s"]
    assert "q rolls initiative d12 9 = 12 (1)" in [str(e) for e in ev]
    alt = roll_initiative([Combatant(c.id, s, c.profile, (0, 0)) for c, s in
                           zip(cs, "aabb", strict=True)], ScriptedDice([12, 1, 5, 6]),
                          "alternating", [])
    assert alt == ["p", "r", "q", "s"]  # p 15, r 10, q 4, s 9: teams alternate


def test_alternating_order_falls_back_to_initiative_once_a_team_runs_out():
    # spec §3.3: A1 20; B1 19, B2 5; C1 18, C2 10 -> A1, B1, C1, then team a is out: C2, B2
    cs = [Combatant(cid, side, block(cid, initiative_bonus=0), (0, 0))
          for cid, side in (("a1", "a"), ("b1", "b"), ("b2", "b"), ("c1", "c"), ("c2", "c"))]
    order = roll_initiative(cs, ScriptedDice([12, 11, 1, 10, 6]), "alternating", [])
    assert order == ["a1", "b1", "c1", "c2", "b2"]


def test_two_frames_then_the_next_combatant_and_a_reaction_after_each_acting_frame():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (0, 1)))
    assert (enc.current_actor(), enc.by_id["fighter"].frame) == ("fighter", 1)
    ev = act(enc, "fighter: attack warhammer -> bandit", ["d12=1", "d12=2", "d6=1"])  # 10
    assert enc.decision == "reaction" and enc.current_actor() == "bandit"
    assert labels(enc) == ["bandit: react attack mace -> fighter",
                           "bandit: react retreat -> fighter", "bandit: pass"]
    ev = act(enc, "bandit: react attack mace -> fighter", ["d12=6", "d12=2", "d6=3"])
    assert "bandit holds 0 Reaction(s)" in texts(ev) and enc.by_id["fighter"].hp == 54 - 7
    assert enc.current_actor() == "fighter" and enc.by_id["fighter"].frame == 2
    act(enc, "fighter: pass", [])  # a held pass neither moves nor acts: no window
    assert enc.current_actor() == "bandit" and enc.decision == "frame"
    assert enc.by_id["fighter"].reactions == 1


def test_surprised_combatants_hold_no_reaction_until_their_turn_ends():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (0, 1)), aware=False)
    act(enc, "fighter: attack warhammer -> bandit", ["d12=1", "d12=2", "d6=1"])
    assert enc.current_actor() == "fighter"  # no window: the bandit has no Reaction


def test_vigilance_only_as_the_last_frame_and_it_gives_two_reactions():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (0, 5)), aware=False)
    assert "fighter: vigilance" not in labels(enc)
    act(enc, "fighter: pass", [])
    ev = act(enc, "fighter: vigilance", [])
    assert "fighter ends its turn with 2 Reaction(s)" in texts(ev)


def test_approach_stops_in_reach_then_acts_and_retreat_acts_then_moves():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (0, 5)), aware=False)
    assert not any(x.startswith("fighter: attack") for x in labels(enc))  # 3 sq short of 5
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (0, 4)), aware=False)
    assert "fighter: attack warhammer -> bandit" not in labels(enc)  # not in reach now
    ev = act(enc, "fighter: attack warhammer approach -> bandit", ["d12=1", "d12=2", "d6=1"])
    assert texts(ev)[1] == "fighter moves (approach) 3 sq to 0,3"
    assert "fighter: attack warhammer approach -> bandit" not in labels(enc)  # already there
    ev = act(enc, "fighter: attack warhammer retreat -> bandit", ["d12=1", "d12=2", "d6=1"])
    assert "attacks" in texts(ev)[1] and "fighter moves (retreat) 3 sq to 0,0" in texts(ev)


def test_dash_doubles_speed_and_allies_can_be_crossed_but_not_enemies():
    enc = fight((fighter(), "a", (0, 0)), (block("ally"), "a", (0, 1)),
                (block("bandit"), "b", (0, 11)), aware=False)
    ev = act(enc, "fighter: dash approach -> bandit", [])
    assert enc.by_id["fighter"].pos[1] == 6 and "dash approach" in texts(ev)[1]
    wall = fight((fighter(), "a", (0, 0)), (block("b1"), "b", (0, 1)), (block("b2"), "b", (1, 1)),
                 (block("b3"), "b", (1, 0)), size=(2, 6), aware=False)
    assert not any(x.startswith("fighter: dash") and "approach" in x for x in labels(wall))


def test_withdraw_from_an_edge_leaves_the_fight():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (5, 5)), aware=False)
    ev = act(enc, "fighter: withdraw", [])
    assert "fighter is retreated (HP 54)" in texts(ev) and enc.outcome().winner == "b"
    mid = fight((fighter(), "a", (3, 3)), (block("bandit"), "b", (5, 8)), aware=False)
    assert "fighter: withdraw" not in labels(mid)


def test_the_round_limit_is_a_draw():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (5, 5)), aware=False,
                options=replace(CORE, max_rounds=1))
    act(enc, "fighter: end_turn", [])
    ev = act(enc, "bandit: end_turn", [])
    assert enc.outcome().winner is None and enc.outcome().reason == "round_cap"
    assert "== fight over in round 1: draw (round_cap) ==" in texts(ev)


def test_reload_a_speedloader_revolver_proficiently_in_one_frame():
    enc = fight((detective(), "a", (0, 0)), (block("bandit"), "b", (0, 8)), aware=False)
    assert "detective: reload revolver" not in labels(enc)  # full
    act(enc, "detective: fire revolver 2 -> bandit", ["d12=1", "d12=1", "d6=1", "d12=1",
                                                       "d6=1"])
    ev = act(enc, "detective: reload revolver", [])
    assert "detective unloaded revolver: 0 loaded, 12 in reserve" in texts(ev)
    assert "detective reloaded revolver: 6 loaded, 6 in reserve" in texts(ev)
    assert enc.by_id["detective"].speedloaders["revolver"] == 1


def test_a_non_proficient_shooter_unloads_then_reloads_and_keeps_one_in_the_chamber():
    pistol = revolver(id="pistol", capacity=12, chamber_plus_one=True, per_frame=0,
                      speedloaders=0, reserve=24, proficient=False, metaphor=False)
    gunner = block("gunner", proficient=frozenset(), weapons=(pistol,))
    enc = fight((gunner, "a", (0, 0)), (block("bandit", hp_max=200), "b", (0, 8)), aware=False)
    act(enc, "gunner: fire pistol 1 -> bandit", ["d12=1", "d6=1"])
    ev = act(enc, "gunner: reload pistol", [])
    assert "gunner unloaded pistol: 1 loaded, 24 in reserve" in texts(ev)  # the chambered one
    act(enc, "bandit: end_turn", [])
    ev = act(enc, "gunner: reload pistol", [])
    assert "gunner reloaded pistol: 13 loaded, 12 in reserve" in texts(ev)


def test_a_few_at_a_time_weapon_loads_half_when_not_proficient():
    six = revolver(speedloaders=0, proficient=False, metaphor=False)
    gunner = block("gunner", proficient=frozenset(), weapons=(six,))
    enc = fight((gunner, "a", (0, 0)), (block("bandit", hp_max=200), "b", (0, 8)), aware=False)
    act(enc, "gunner: fire revolver 2 -> bandit", ["d12=1", "d6=1", "d12=1", "d12=1", "d6=1"])
    ev = act(enc, "gunner: reload revolver", [])  # not proficient: an Unload frame first
    assert "gunner unloaded revolver: 0 loaded, 16 in reserve" in texts(ev)  # spec §5.6
    from envs.metaforce.rules.arms import reload
    g = enc.by_id["gunner"]
    reload(enc, (ev := []), g, six)
    assert "gunner reloaded revolver: 2 loaded, 14 in reserve" in texts(ev)  # ceil(3 / 2)


def test_a_bow_is_primed_then_fires_and_reprimes_in_one_frame():
    bow = Weapon("longbow", "bow", "per", 5, 6, 6, "piercing", hands=2, range_increment_ft=100,
                 arrows=2)
    archer = block("archer", proficient=frozenset(), weapons=(bow,))
    enc = fight((archer, "a", (0, 0)), (block("bandit", hp_max=200), "b", (0, 8)), aware=False)
    assert not any("attack longbow" in x for x in labels(enc))
    ev = act(enc, "archer: prime longbow", [])
    assert "archer primes longbow (1 arrows left)" in texts(ev)
    ev = act(enc, "archer: attack longbow -> bandit", ["d12=6", "d6=2"])
    assert "archer primes longbow (0 arrows left)" in texts(ev)
    assert enc.by_id["bandit"].hp == 200 - 8


def test_optimise_prime_makes_prime_quickened_so_the_bow_shoots_in_its_first_frame():
    """spec §4.3, §5.7: Prime Quickened by an Optimise component; one arrow a frame (R-34)."""
    bow = Weapon("longbow", "bow", "per", 5, 6, 6, "piercing", hands=2, range_increment_ft=100,
                 arrows=2)
    archer = block("archer", proficient=frozenset(), weapons=(bow,),
                   optimised=frozenset({"prime"}))
    enc = fight((archer, "a", (0, 0)), (block("bandit", hp_max=200), "b", (0, 8)), aware=False)
    assert "archer: attack longbow -> bandit" in labels(enc)  # unprimed, yet it can shoot
    ev = act(enc, "archer: attack longbow -> bandit", ["d12=6", "d6=2"])
    assert [t for t in texts(ev) if "primes" in t] == ["archer primes longbow (1 arrows left)",
                                                       "archer primes longbow (0 arrows left)"]
    assert enc.by_id["bandit"].hp == 200 - 8 and enc.by_id["archer"].primed["longbow"]
    act(enc, "archer: attack longbow -> bandit", ["d12=6", "d6=2"])  # the second frame
    assert enc.by_id["bandit"].hp == 200 - 16 and not enc.by_id["archer"].primed["longbow"]
    plain = fight((block("archer", proficient=frozenset(), weapons=(bow,)), "a", (0, 0)),
                  (block("bandit"), "b", (0, 8)), aware=False)
    assert not any("attack longbow" in x for x in labels(plain))


def test_a_thrown_weapon_is_gone_after_the_throw():
    dagger = Weapon("dagger", "melee", "agi", 3, 4, 4, "piercing", thrown_ft=20)
    thrower = block("thrower", weapons=(dagger,))
    enc = fight((thrower, "a", (0, 0)), (block("bandit"), "b", (0, 4)), aware=False)
    ev = act(enc, "thrower: throw dagger -> bandit", ["d12=9", "d4=2"])
    assert "thrower throws dagger (gone for the encounter)" in texts(ev)
    assert not any("dagger" in x for x in labels(enc))


def test_the_views_weapon_rows_are_each_views_own_and_drop_a_thrown_weapon():
    dagger = Weapon("dagger", "melee", "agi", 3, 4, 4, "piercing", thrown_ft=20)
    club = Weapon("club", "melee", "str", 2, 5, 6, "blunt")
    thrower = block("thrower", weapons=(dagger, club))
    enc = fight((thrower, "a", (0, 0)), (block("bandit"), "b", (0, 4)), aware=False)
    rows = enc.view("bandit")["combatants"][0]["weapons"]
    assert [(r["id"], r["damage"], r["range_squares"]) for r in rows] == [
        ("dagger", "4+d4", 1), ("club", "5+d6", 1)]
    rows[0]["tohit"] = 99  # a reader that changes its copy changes no later view
    assert enc.view("bandit")["combatants"][0]["weapons"][0]["tohit"] == 3
    act(enc, "thrower: throw dagger -> bandit", ["d12=9", "d4=2"])
    assert [r["id"] for r in enc.view("bandit")["combatants"][0]["weapons"]] == ["club"]


def test_an_attack_cantrip_is_a_weapon_slot_in_core():
    wizard = cat("wizard")
    assert [w.id for w in wizard.weapons] == ["fire_bolt", "shocking_grasp", "unarmed"]
    assert wizard.weapons[0].proficient and wizard.weapons[0].family == "cantrip"
    enc = fight((wizard, "a", (0, 0)), (block("bandit"), "b", (0, 8)), aware=False)
    act(enc, "wizard: attack fire_bolt -> bandit", ["d12=2", "d12=3", "d8=5"])
    assert enc.by_id["bandit"].hp == 36 - 9


def test_labels_round_trip_and_bad_labels_name_the_label():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (0, 1)))
    for a in enc.legal_actions():
        assert enc.parse_action(a.label) == a
    for bad, why in [("fighter: attack sword -> bandit", "fighter has no weapon 'sword'"),
                     ("fighter: dance", "unknown kind 'dance'"),
                     ("fighter: attack warhammer", "attack needs '-> <target>'"),
                     ("fighter: dash -> bandit", "dash needs approach or retreat"),
                     ("zed: pass", "unknown combatant 'zed'"),
                     ("fighter: attack warhammer -> bandit +boost", "'+meta'")]:
        with pytest.raises(IllegalActionError) as e:
            enc.parse_action(bad)
        assert repr(bad) in str(e.value) and why in str(e.value)
    with pytest.raises(IllegalActionError, match="not legal now"):
        enc.apply(enc.parse_action("fighter: fire warhammer 1 -> bandit"), ScriptedDice([]))


def test_options_presets_and_bad_values():
    assert CORE.max_rounds == 20 and CORE.round_limit == 20 and not CORE.unaware_bonus
    assert FULL.unaware_bonus and FULL.version == "full"
    from envs.core.data import DataError
    from envs.metaforce.rules import parse_options
    assert parse_options({"version": "core", "max_rounds": 5}).max_rounds == 5
    with pytest.raises(DataError, match="field 'dot_x_mode'"):
        parse_options({"dot_x_mode": "daily"})
    with pytest.raises(DataError, match="unknown field 'speed'"):
        parse_options({"speed": 3})
