"""Palladium Revised strikes, reactions, movement and damage with forced dice (spec §5.2, §5.3,
§6.1, §6.2, §8.2-§8.5): parry, dodge and multi-dodge with the slots they cost, zone entry
contests, opportunity strikes, the damage pipeline, armour and a critical row."""

from __future__ import annotations

import pytest

from envs.core.actions import IllegalActionError
from envs.core.dice import ScriptedDice, SeededDice
from envs.palladium_revised.rules.catalogue import stat_blocks
from envs.palladium_revised.rules.damage import evocation_row, pipeline
from envs.palladium_revised.rules.events import (
    DefenseRolled,
    Moved,
    StrikeResolved,
    ZoneContest,
)
from envs.palladium_revised.rules.options import CORE
from envs.palladium_revised.rules.preview import dodge_slot, preview_defense, preview_strike
from envs.palladium_revised.rules.profile import profile_of
from envs.palladium_revised.rules.setup import build

BLOCKS = stat_blocks()
SELL = profile_of(BLOCKS["sellsword"])
DUEL = profile_of(BLOCKS["duelist"])
GUARD = profile_of(BLOCKS["spear_guard"])


def duel(faces, b=DUEL, xa=80, xb=120):
    dice = ScriptedDice(faces)
    enc = build([("s", "A", SELL, xa), ("d", "B", b, xb)], CORE, dice=dice)
    dice.check_exhausted()
    return enc


def play(enc, label, faces=()):
    dice = ScriptedDice(list(faces))
    ev = enc.apply(enc.parse_action(label), dice)
    dice.check_exhausted()
    return ev


def labels(enc):
    return [a.label for a in enc.legal_actions()]


def close_duel():
    """Sellsword at 80, duelist at 85 (Medium band both ways); sellsword first (17 vs 4)."""
    return duel(["d20=15", "d20=1"], xb=85)


def test_a_parry_above_the_strike_mitigates_and_lands_on_the_armour():
    enc = close_duel()
    play(enc, "s: strike long_sword -> d", ["d20=12"])  # S0 = 12 + 3 = 15
    assert enc.decision == "defense" and enc.current_actor() == "d"
    assert {"d: parry", "d: parry +morale", "d: dodge", "d: multidodge stay",
            "d: multidodge back +morale", "d: pass"} <= set(labels(enc))
    ev = play(enc, "d: parry", ["d20=14", "d6=4", "d6=5"])  # P = 14 + 5 = 19 > 15
    res = next(e for e in ev if isinstance(e, StrikeResolved))
    assert (res.hit, res.mitigated, res.layer, res.s2) == (True, True, "armour", 0)
    d = enc.by_id["d"]
    # (4 + 5 + 3 P.S.) x (100 - 75)% = 3 to the leather's 20 S.D.C.
    assert (d.armor_sdc, d.sdc, d.stamina) == (17, 35, 27)
    assert enc.current_actor() == "d" and enc.second == 1  # the duelist's own Second-1 turn


def test_a_dodge_subtracts_before_hit_or_miss_and_consumes_the_next_slot():
    enc = close_duel()
    play(enc, "s: strike long_sword -> d", ["d20=12"])
    assert preview_defense(enc, "d", 15, False).dodge_slot == (1, 1)
    assert dodge_slot(enc, "d") == (1, 1)
    ev = play(enc, "d: dodge", ["d20=6", "d6=2", "d6=3"])  # D = 12: S1 = 3, a hit on armour
    res = next(e for e in ev if isinstance(e, StrikeResolved))
    assert (res.hit, res.s1, res.layer) == (True, 3, "armour")
    d = enc.by_id["d"]
    assert d.slot_state[0] == "consumed" and d.armor_sdc == 12 and d.stamina == 27
    assert (enc.second, enc.current_actor()) == (4, "d")  # its Second-1 turn is gone


def test_a_multidodge_total_answers_later_strikes_without_a_decision():
    dice = ScriptedDice(["d20=15", "d20=14", "d20=1"])
    enc = build([("s", "A", SELL, 80), ("t", "A", SELL, 80), ("d", "B", DUEL, 85)], CORE,
                dice=dice)
    play(enc, "s: strike long_sword -> d", ["d20=12"])
    ev = play(enc, "d: multidodge stay", ["d20=10"])  # D = 16: S1 = 0, a miss
    assert not next(e for e in ev if isinstance(e, StrikeResolved)).hit
    assert enc.by_id["d"].multidodge == 16 and enc.by_id["d"].stamina == 25
    ev = play(enc, "t: strike long_sword -> d", ["d20=18", "d6=1", "d6=1"])  # S0 21 - 16 = 5
    assert [e.how for e in ev if isinstance(e, DefenseRolled)] == ["stored"]
    res = next(e for e in ev if isinstance(e, StrikeResolved))
    assert (res.hit, res.s1, res.layer) == (True, 5, "armour")
    assert enc.by_id["d"].armor_sdc == 15 and (enc.second, enc.current_actor()) == (4, "d")
    assert enc.by_id["d"].multidodge is None  # closed at the start of its next turn


def test_a_hit_above_ar_reaches_sdc_and_adds_a_wound():
    enc = close_duel()
    play(enc, "s: strike long_sword -> d", ["d20=12"])
    play(enc, "d: pass", ["d6=6", "d6=6"])  # 15 > AR 10: body, 6 + 6 + 3 = 15
    d = enc.by_id["d"]
    assert (d.armor_sdc, d.sdc, d.hp, d.wounds) == (20, 20, 26, 1)


def test_a_natural_20_rolls_the_table_before_the_damage_dice():
    enc = close_duel()
    play(enc, "s: strike long_sword -> d", ["d20=20"])  # S0 23
    # table d100 95 Internal Bleeding, damage (3 + 4 + 3) x 2 = 20, then its 1D4 = 2 Wounds
    play(enc, "d: pass", ["d100=95", "d6=3", "d6=4", "d4=2"])
    d = enc.by_id["d"]
    assert (d.sdc, d.wounds, d.internal_bleeding) == (15, 3, 1)
    # every Action the duelist now spends adds 1D4 Wounds per stack (R60)
    play(enc, "d: wait", ["d4=1"])
    assert enc.by_id["d"].wounds == 4


def test_the_evocation_table_rows_and_the_pipeline():
    assert [evocation_row(r) for r in (1, 25, 26, 36, 44, 52, 60, 68, 81, 91, 100)] == [
        "vital_wound", "vital_wound", "blood_gush", "leg_right", "arm_left", "arm_right",
        "leg_left", "concussion", "dazed", "internal_bleeding", "internal_bleeding"]
    assert pipeline(12, -75) == 3
    assert pipeline(7, 0, crit=True) == 14
    assert pipeline(10, -25, em_pct=-5) == 7  # 10 x 0.75 x 0.95 = 7.125, one floor
    assert pipeline(-3) == 0  # Threshold Rule
    assert pipeline(9, -150) == 0


def test_zone_entry_contest_allows_one_layer_per_five_points():
    faces = ["d20=15", "d20=1"]
    enc = duel(faces, b=GUARD, xa=60, xb=80)
    # mover 10 + 2 = 12 vs guard 5 + 1 = 6: margin 6, 2 layers (Reach and Medium)
    ev = play(enc, "s: move engage -> d", ["d20=10", "d20=5"])
    assert [(e.mover_total, e.enemy_total, e.layers) for e in ev
            if isinstance(e, ZoneContest)] == [(12, 6, 2)]
    assert enc.by_id["s"].x == 74
    enc = duel(faces, b=GUARD, xa=60, xb=80)
    ev = play(enc, "s: move engage -> d", ["d20=7", "d20=5"])  # margin 3: Reach only
    moved = next(e for e in ev if isinstance(e, Moved))
    assert (moved.end, moved.why) == (73, "zone")


def test_leaving_a_zone_layer_gives_an_unaware_opportunity_strike():
    enc = close_duel()
    ev = play(enc, "s: step away -> d")
    assert enc.decision == "opportunity" and labels(enc) == ["d: strike short_sword -> s",
                                                             "d: pass"]
    ev = play(enc, "d: strike short_sword -> s", ["d20=10", "d8=5"])  # 14 > AR 12, no defence
    assert not [e for e in ev if isinstance(e, DefenseRolled)]
    s = enc.by_id["s"]
    assert (s.sdc, s.wounds, s.x, s.step_budget) == (45, 1, 68, 0)
    assert enc.current_actor() == "s" and not any(x.startswith("s: step") for x in labels(enc))


def test_ranged_strikes_cannot_be_parried_and_previews_agree():
    enc = close_duel()
    p = preview_strike(enc, "s", "long_sword", "d")
    assert p.in_range and p.closer_bands == 0 and not p.into_melee
    assert p.hit == pytest.approx(1.0)  # d20 + 3 always beats 1
    assert preview_strike(enc, "s", "dagger", "d").in_range is False


def test_labels_are_parsed_and_bad_ones_named():
    enc = close_duel()
    for a in enc.legal_actions():
        assert enc.parse_action(a.label) == a
    with pytest.raises(IllegalActionError, match="'s: strike laser -> d'"):
        enc.parse_action("s: strike laser -> d")
    with pytest.raises(IllegalActionError, match="unknown kind 'fly'"):
        enc.parse_action("s: fly")
    with pytest.raises(IllegalActionError, match="not legal now"):
        enc.apply(enc.parse_action("s: strike dagger -> d"), ScriptedDice([]))


def test_a_missed_shot_into_a_melee_can_fly_on_to_an_ally():
    dice = ScriptedDice(["d20=15", "d20=10", "d20=1"])
    enc = build([("a", "A", profile_of(BLOCKS["archer"]), 40), ("s", "A", SELL, 80),
                 ("d", "B", DUEL, 85)], CORE, dice=dice)
    p = preview_strike(enc, "a", "long_bow", "d")
    assert p.into_melee  # duelist and sellsword engaged in Medium: -10% x 2
    # (1 + 4) x 80% = 4 misses (ranged); d100 7 <= 10% retargets; choose(2) = 2 -> sellsword
    ev = play(enc, "a: strike long_bow -> d", ["d20=1", "d100=7", "d2=2", "d20=12"])
    assert [str(e) for e in ev if "flies on" in str(e)] == [
        "a's missed shot at d flies on to s (7)"]
    assert enc.decision == "defense" and "s: parry" not in labels(enc)
    play(enc, "s: pass", ["d6=3", "d6=3"])  # natural 12 <= AR 12: the chain shirt takes 6
    assert enc.by_id["s"].armor_sdc == 34


def test_a_shot_flying_on_to_a_surprised_combatant_finds_it_unaware():
    # spec §3.5.3: surprised combatants are Unaware against every attack of the ambush Second
    dice = ScriptedDice(["d20=15", "d20=10", "d20=1"])
    enc = build([("a", "A", profile_of(BLOCKS["archer"]), 40), ("s", "A", SELL, 80),
                 ("d", "B", DUEL, 85)], CORE, dice=dice)
    enc.by_id["s"].fx.surprised = True
    ev = play(enc, "a: strike long_bow -> d", ["d20=1", "d100=7", "d2=2", "d20=12", "d6=3",
                                                "d6=3"])  # no Parry or Dodge window for s
    assert "a's missed shot at d flies on to s (7)" in [str(e) for e in ev]
    assert enc.decision != "defense" and enc.by_id["s"].armor_sdc == 34


def test_the_last_knife_once_declared_still_counts_its_range_not_its_ammunition():
    # spec §5.2: ammunition is spent when declared; a redirect (steps 1-2) or a commitment's
    # re-check (§4.7) then asks only whether the target is in range
    from envs.palladium_revised.rules.legal import can_strike
    enc = build([("g", "B", profile_of(BLOCKS["goblin_skirmisher"]), 60), ("d", "A", DUEL, 85)],
                CORE, dice=ScriptedDice(["d20=15", "d20=1"]))
    g, d = enc.by_id["g"], enc.by_id["d"]
    knife = g.profile.weapon("throwing_knife")
    assert can_strike(g, knife, d)
    g.ammo["throwing_knife"] = 0
    assert not can_strike(g, knife, d) and can_strike(g, knife, d, spent=True)


def test_multidodge_back_moves_away_after_the_first_attack():
    enc = close_duel()
    play(enc, "s: strike long_sword -> d", ["d20=12"])
    ev = play(enc, "d: multidodge back", ["d20=10"])  # 16 >= 15: a miss, then 16 // 2 ft away
    moved = next(e for e in ev if isinstance(e, Moved))
    assert (moved.how, moved.start, moved.end) == ("multidodge_back", 85, 93)


def test_a_situation_places_and_overrides_and_rejects_bad_fields():
    from envs.core.data import DataError
    from envs.palladium_revised.rules import from_situation
    data = {"system": "palladium_revised", "encounter": "duel_sword_vs_rogue",
            "combatants": [{"id": "duelist_1", "x": 100, "state": {"stamina": 10}}]}
    enc = from_situation(data, "fight.yaml", SeededDice(1))
    d = enc.by_id["duelist_1"]
    assert (d.x, d.stamina, d.exhausted, d.fatigued) == (100, 10, True, False)
    bad = {**data, "combatants": [{"id": "duelist_1", "state": {"stamina": "lots"}}]}
    with pytest.raises(DataError, match="fight.yaml.*stamina"):
        from_situation(bad, "fight.yaml")


def test_every_legal_action_has_plain_words():
    from envs.palladium_revised.rules.describe import describe
    enc = close_duel()
    words = {describe(a, enc) for a in enc.legal_actions()}
    assert "strike the duelist with the long sword" in words
    assert "step (free) away from the duelist" in words
    assert all(w and ":" not in w for w in words)
