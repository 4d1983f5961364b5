"""Palladium Revised's plain words (envs/palladium_revised/describe.py): the exact line of each
action kind, with the odds of the engine's previews, in forced-dice positions."""

from __future__ import annotations

from envs.core.dice import ScriptedDice
from envs.palladium_revised.describe import LIMIT, describe, display_name
from envs.palladium_revised.rules.catalogue import stat_blocks
from envs.palladium_revised.rules.options import CORE
from envs.palladium_revised.rules.profile import profile_of
from envs.palladium_revised.rules.setup import build

BLOCKS = stat_blocks()
SELL = profile_of(BLOCKS["sellsword"])
DUEL = profile_of(BLOCKS["duelist"])
GOB = profile_of(BLOCKS["goblin_skirmisher"])


def words(enc):
    return {a.label: describe(a, enc) for a in enc.legal_actions()}


def close_duel(**over):
    """Sellsword at 80, duelist at 85; the sellsword first (initiative 17 against 4)."""
    return build([("s", "A", SELL, 80), ("d", "B", DUEL, 85)], CORE,
                 dice=ScriptedDice(["d20=15", "d20=1"]), overrides=over or None)


def test_turn_actions_read_with_their_odds_and_destinations():
    w = words(close_duel())
    assert w["s: wait"] == "wait: let your slot in Second 1 go by"
    assert w["s: defend"] == "defend: dodges cost no slot until your next turn (Stamina still paid)"
    assert w["s: rest"] == "rest: 1D4 Stamina every 5 Seconds of rest (32/32 now)"
    assert w["s: morale_boost"] == \
        "morale boost: +2 to your next roll this turn, 1 Morale (24 left)"
    assert w["s: strike long_sword -> d"] == \
        "strike the Duelist with the long sword (100% to hit, ~10.5 dmg)"
    assert w["s: move away -> d"] == "Full Move to 35 ft (45 ft): fall back from the Duelist"
    assert w["s: move close -> d"] == "Full Move to 83 ft (3 ft): close in tight on the Duelist"
    assert w["s: move edge -> d"] == \
        "Full Move to 78 ft (2 ft): stop just outside the Duelist's reach"
    assert w["s: step engage -> d"] == \
        "step to 79 ft (1 of 12 ft, free): face the Duelist at your reach"
    assert w["s: step away -> d"] == "step to 68 ft (12 of 12 ft, free): fall back from the Duelist"


def test_closing_wounds_reads_its_cost_and_penalty():
    w = words(close_duel(s={"wounds": 3}))
    assert w["s: closing_wounds 2"] == \
        "close wounds: -2 Wounds a Second for 3 s, 2 Stamina; -100% to rolls (3 Wounds now)"


def test_defence_options_read_the_odds_against_the_pending_total():
    enc = close_duel()
    enc.apply(enc.parse_action("s: strike long_sword -> d"), ScriptedDice(["d20=12"]))  # S0 15
    assert enc.decision == "defense"
    w = words(enc)
    assert w["d: parry"] == "parry: 50% to beat 15 and take 75% off; costs 1 Stamina"
    assert w["d: parry +morale"] == \
        "parry +2 (1 Morale): 60% to beat 15 and take 75% off; costs 1 Stamina"
    assert w["d: dodge"] == "dodge: 65% to make it miss; costs your slot in Second 1, 1 Stamina"
    assert w["d: dodge +morale"] == \
        "dodge +2 (1 Morale): 75% to make it miss; costs your slot in Second 1, 1 Stamina"
    assert w["d: multidodge stay"] == \
        "multi-dodge, hold ground (65%; holds to your turn; Second 1, 3 Sta)"
    assert w["d: multidodge back +morale"] == \
        "multi-dodge, step back, +2 (1 Morale) (75%; holds to your turn; Second 1, 3 Sta)"
    assert w["d: pass"] == "take the blow from the Sellsword (15 to hit): no defence"


def test_an_opportunity_strike_and_its_decline():
    enc = close_duel()
    enc.apply(enc.parse_action("s: move away -> d"), ScriptedDice([]))
    assert enc.decision == "opportunity"
    assert words(enc) == {
        "d: strike short_sword -> s":
            "opportunity: strike the Sellsword with the short sword (100% to hit, ~5.0 dmg)",
        "d: pass": "let the Sellsword go (no opportunity strike)",
    }


def test_two_of_one_stat_block_are_told_apart_and_lines_stay_short():
    enc = build([("s", "A", SELL, 80), ("g1", "B", GOB, 120), ("g2", "B", GOB, 125)], CORE,
                dice=ScriptedDice(["d20=15", "d20=1", "d20=2"]))
    assert display_name(enc, "g1") == "the Goblin Skirmisher [g1]"
    assert display_name(enc, "s") == "the Sellsword"
    w = words(enc)
    assert w["s: move engage -> g2"] == \
        "Full Move to 119 ft (39 ft): face the Goblin Skirmisher [g2] at your reach"
    assert all(0 < len(line) <= LIMIT for line in w.values())


def test_an_unknown_kind_reads_as_its_label_and_describing_changes_nothing():
    from envs.core import Action
    enc = close_duel()
    before = enc.snapshot()
    assert describe(Action("s", "juggle"), enc) == "juggle"
    for a in enc.legal_actions():
        describe(a, enc)
    assert enc.snapshot() == before


def test_full_kinds_read_their_costs():
    from envs.palladium_revised.rules.options import FULL
    mage, guard = profile_of(BLOCKS["battle_mage"]), profile_of(BLOCKS["spear_guard"])
    enc = build([("m", "A", mage, 80), ("g", "B", guard, 90)], FULL,
                dice=ScriptedDice(["d20=15", "d20=1"]))
    w = words(enc)
    assert w["m: cast fire_bolt -> g"] == \
        "cast fire bolt on the Spear Guard (2d6 fire): 5 E.E., 1 Action (50 E.E. left)"
    assert w["m: cast withering_curse -> g"] == \
        "cast withering curse on the Spear Guard (2d6 magic): 6 E.E., 2 Actions (50 E.E. left)"
    assert w["m: cast ward -> m"] == "cast ward on yourself: 5 E.E., 1 Action (50 E.E. left)"
    assert w["m: taunt -> g"] == \
        "taunt the Spear Guard: a check against its Save vs Insanity, it must come at you"
    assert w["m: distract -> g"] == \
        "distract the Spear Guard: a check against its Save vs Insanity; a win distracts it"
