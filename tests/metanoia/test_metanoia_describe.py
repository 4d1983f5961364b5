"""Metanoia actions in plain words (``envs/metanoia/rules/describe.py``): every action kind from
real encounters and situations, with the preview's chances, landings and costs
(random games of every system: tests/properties/test_describe.py)."""

from __future__ import annotations

from metanoia_kit import ab, blk, fight, resist, unit

from envs import describe_action, get_rules
from envs.core import Action, ScriptedDice
from envs.metanoia.rules import new_encounter
from envs.metanoia.rules.describe import describe

R = get_rules("metanoia")
FULL = {"version": "full", "round_limit": 2}


def words(enc, kinds: set[str] | None = None) -> dict[str, str]:
    """label -> description of the legal actions (of ``kinds``)."""
    return {a.label: describe_action(enc, a) for a in enc.legal_actions()
            if kinds is None or a.kind in kinds}


def do(enc, *labels: str) -> None:
    """Apply decisions that roll no dice."""
    dice = ScriptedDice([], sides=6)
    for label in labels:
        enc.apply(enc.parse_action(label), dice)


def test_the_seed_duel_opening_in_plain_words():
    """duel_seed, CORE, initiative all blanks: the Duelist first, the Warden Obscured 1
    (Stealthy): recover, moves (the Warden shares the zone and may challenge), hide, sense."""
    enc = new_encounter("duel_seed", "core", ScriptedDice([1, 1, 1, 1]))
    got = words(enc)
    assert {a.kind for a in enc.legal_actions()} == {"recover", "move", "hide", "sense"}
    assert {label: got[label] for label in (
        "rotblade_duelist: recover", "rotblade_duelist: move 0",
        "rotblade_duelist: move 2 +motive", "rotblade_duelist: hide",
        "rotblade_duelist: hide +motive+identity", "rotblade_duelist: sense -> shadow_warden",
    )} == {
        "rotblade_duelist: recover": "recover (Strain already full, 6/6)",
        "rotblade_duelist: move 0": "fall back to your rear zone 0 (Shadow Warden may challenge)",
        "rotblade_duelist: move 2 +motive":
            "advance to the enemy's rear zone 2 +Motive (Shadow Warden may challenge)",
        "rotblade_duelist: hide": "hide (75% to become Obscured)",
        "rotblade_duelist: hide +motive+identity":
            "hide +Motive+Identity (98% to become Obscured, 2 Strain)",
        "rotblade_duelist: sense -> shadow_warden":
            "search for the concealed Shadow Warden (75% to reveal them, concealment 1)",
    }


def test_attacks_afflictions_and_marks_name_option_chance_landing_and_cost():
    """The Duelist (Rampant, 2 dice) against the unconcealed Warden (Tranquil, 2 dice): an
    Attack's tie goes to the Reactor (38%), a Condition's and a Mark's to the Actor (58%); the
    ability and its rot blade pair up as Deteriorating 2+3, landing Injury 5 (no Resistance)."""
    enc = fight(unit("duelist", "A", "rotblade_duelist"),
                unit("warden", "B", "shadow_warden", statuses={}), options="core")
    got = words(enc, {"attack", "condition", "mark"})
    assert {label: got[label] for label in (
        "duelist: attack deteriorating -> warden",
        "duelist: attack deteriorating+rot_blade -> warden",
        "duelist: attack deteriorating@rot_blade -> warden +motive",
        "duelist: attack exploit -> warden +motive+identity",
        "duelist: condition deteriorating -> warden",
        "duelist: mark -> warden", "duelist: mark -> warden +motive",
    )} == {
        "duelist: attack deteriorating -> warden":
            "attack Shadow Warden with Deteriorating 2 (38% to win, Injury 2, 1 Strain)",
        "duelist: attack deteriorating+rot_blade -> warden":
            "attack Shadow Warden with Deteriorating 2+3 (rot blade) (38% to win, Injury 5, "
            "1 Strain)",
        "duelist: attack deteriorating@rot_blade -> warden +motive":
            "attack Shadow Warden with Deteriorating 3 (rot blade) +Motive (71% to win, Injury 3)",
        "duelist: attack exploit -> warden +motive+identity":
            "attack Shadow Warden with Exploit 2 +Motive+Identity (88% to win, Injury 2, 2 Strain)",
        "duelist: condition deteriorating -> warden":
            "afflict Shadow Warden with Deteriorating 2 (58% to win, Deteriorating 2, 1 Strain)",
        "duelist: mark -> warden": "mark Shadow Warden (58% to win, margin as stacks on the loser)",
        "duelist: mark -> warden +motive":
            "mark Shadow Warden +Motive (84% to win, margin as stacks on the loser, 1 Strain)",
    }


def test_landings_pinned_argued_doubled_and_resisted():
    skirmisher = fight(unit("skirm", "A", "hexbow_skirmisher", statuses={}),
                       unit("duelist", "B", "rotblade_duelist"), options="core")
    assert describe_action(skirmisher, Action("skirm", "condition", ("pin",), "duelist")) == (
        "afflict Rotblade Duelist with Pin 2 (61% to win, Pinned 2, 1 Strain)")
    wyrm = fight(unit("wyrm", "B", "dusk_wyrm"), unit("duelist", "A", "rotblade_duelist"),
                 options="core")  # Realm 2 against 1: Rule 1 dice, every landing doubled
    got = words(wyrm, {"attack", "argue"})
    assert (got["wyrm: attack strike@fangs -> duelist"],
            got["wyrm: argue demoralize -> duelist"]) == (
        "attack Rotblade Duelist with Strike 3 (fangs) (79% to win, Injury 4 x2)",
        "argue with Rotblade Duelist using Demoralize 2 (79% to win, -2 Convictions, -2 Strain)")
    brute = fight(unit("brute", "A", "gravel_brute"), unit("duelist", "B", "rotblade_duelist"),
                  options="core")
    assert describe_action(brute, Action("brute", "argue", ("demoralize",), "duelist")) == (
        "argue with Rotblade Duelist using Demoralize 2 (41% to win, -1 Conviction, -2 Strain)")
    tank = fight(unit("duelist", "A", "rotblade_duelist"),
                 unit("tank", "B", blk(passives=[resist("decay", 3)])), options="core")
    assert describe_action(tank, Action("duelist", "attack", ("deteriorating",), "tank")) == (
        "attack tank with Deteriorating 2 (39% to win, lands nothing, 1 Strain)")
    god = fight(unit("god", "A", blk(realm=3, abilities=[ab("strike", 2)])),
                unit("duelist", "B", "rotblade_duelist"), options="core")  # Rule 0: no dice
    assert describe_action(god, Action("god", "attack", ("strike",), "duelist")) == (
        "attack Rotblade Duelist with Strike 2 (100% to win, Injury 6 x3, 1 Strain)")


def test_reactions_counter_slip_ward_or_none():
    enc = fight(unit("duelist", "A", "rotblade_duelist"),
                unit("warden", "B", "shadow_warden", statuses={}), options="core")
    do(enc, "duelist: attack deteriorating+rot_blade -> warden +motive")
    got = words(enc)
    assert {label: got[label] for label in (
        "warden: react none", "warden: react none +motive+identity", "warden: react counter",
        "warden: react slip",
    )} == {
        "warden: react none": "defend against Rotblade Duelist's Deteriorating, no keyword "
                              "(29% to win)",
        "warden: react none +motive+identity":
            "defend against Rotblade Duelist's Deteriorating +Motive+Identity, no keyword "
            "(82% to win)",
        "warden: react counter":
            "counter Rotblade Duelist's Deteriorating with Counter 3 (29% to win, Injury 1 back)",
        "warden: react slip":
            "slip Rotblade Duelist's Deteriorating with Slip 4 (29% to win, Slip 2 on them, "
            "1 Strain)",
    }
    tank = fight(unit("duelist", "A", "rotblade_duelist"),
                 unit("tank", "B", blk(abilities=[ab("ward", 2)])), options="core")
    do(tank, "duelist: mark -> tank")
    assert describe_action(tank, Action("tank", "react", ("ward",))) == (
        "ward off Rotblade Duelist's mark with Ward 2 (74% to win, +2 dice, 1 Strain)")


def test_support_keywords_and_recover():
    medic = blk(polarity="verdant", abilities=[ab("mend", 2), ab("clear", 2),
                                               ab("rally", 2, reach="far"), ab("hidden", 2)])
    enc = fight(unit("medic", "A", medic, strain=3),
                unit("ally", "A", blk(injury_slots=5), injuries=[["strike", 3], ["strike", 1]],
                     stacks=3, conv=1),
                unit("foe", "B", blk(), zone=2))
    assert words(enc, {"support", "recover"}) == {
        "medic: recover": "recover: regain 1 Strain (4/6)",
        "medic: support mend -> ally": "mend ally's lightest Injury with Mend 2 (1 -> 0, 1 Strain)",
        "medic: support clear -> ally": "clear 2 stacks from ally with Clear 2 (1 Strain)",
        "medic: support rally -> ally":
            "rally ally with Rally 2 (2 Convictions back, 2 of their stacks)",
        "medic: support hidden -> medic": "hide yourself with Hidden 2 (concealment 2, 2 Strain)",
        "medic: support hidden -> ally": "hide ally with Hidden 2 (concealment 2, 2 Strain)",
    }
    hurt = fight(unit("medic", "A", medic, injuries=[["strike", 4]], stacks=1),
                 unit("foe", "B", blk(), zone=2))
    assert describe_action(hurt, Action("medic", "support", ("mend",), "medic")) == (
        "mend your lightest Injury with Mend 2 (4 -> 1, 1 Strain)")  # 4 - 2 - 1 stack


def test_guard_and_intercept():
    enc = fight(unit("brute", "A", "gravel_brute"), unit("sentinel", "A", "hollow_sentinel"),
                unit("duelist", "B", "rotblade_duelist"), options=FULL,
                order=["brute", "duelist", "sentinel"])
    assert words(enc, {"guard"}) == {
        "brute: guard -> sentinel":
            "guard Hollow Sentinel until your next turn (may take an attack meant for them)"}
    do(enc, "brute: guard -> sentinel", "duelist: attack deteriorating@rot_blade -> sentinel")
    assert words(enc) == {
        "brute: intercept no": "let Rotblade Duelist's Deteriorating on Hollow Sentinel through",
        "brute: intercept yes":
            "intercept Rotblade Duelist's Deteriorating on Hollow Sentinel: take it yourself",
    }
    do(enc, "brute: intercept yes")
    assert describe_action(enc, Action("brute", "react", ("none",))) == (
        "defend against Rotblade Duelist's Deteriorating, no keyword (59% to win)")


def test_a_challenged_move():
    enc = fight(unit("skirm", "A", "hexbow_skirmisher", statuses={}),
                unit("brute", "B", "gravel_brute"), options="core")
    do(enc, "skirm: move 0 +motive")
    assert words(enc) == {
        "brute: challenge no": "let Hexbow Skirmisher move to zone 0 unopposed",
        "brute: challenge yes": "challenge Hexbow Skirmisher's move to zone 0 (8% to stop it)",
    }
    do(enc, "brute: challenge yes")
    got = words(enc)
    assert (got["brute: react none"], got["brute: react none +motive"]) == (
        "oppose Hexbow Skirmisher's move, no keyword (8% to stop it)",
        "oppose Hexbow Skirmisher's move +Motive, no keyword (43% to stop it, 1 Strain)")


def test_withdraw_hazards_and_zones_of_a_longer_field():
    options = {"version": "full", "round_limit": 1, "zones": 5}
    medic = fight(unit("medic", "A", "field_medic", zone=0),
                  unit("brute", "B", "gravel_brute", zone=2), options=options, hazards={1: 2})
    assert words(medic, {"withdraw", "move"}) == {
        "medic: withdraw": "withdraw: leave the fight from your rear zone (Fled)",
        "medic: move 1": "advance to zone 1 (hazard 2: 67% to get in)",
        "medic: move 1 +motive": "advance to zone 1 +Motive (hazard 2: 85% to get in)",
        "medic: move 1 +identity": "advance to zone 1 +Identity (hazard 2: 98% to get in)",
        "medic: move 1 +motive+identity":
            "advance to zone 1 +Motive+Identity (hazard 2: 99% to get in)",
    }
    brute = fight(unit("brute", "B", "gravel_brute", zone=3),
                  unit("medic", "A", "field_medic", zone=0), options=options)
    assert (describe_action(brute, Action("brute", "move", ("4",))),
            describe_action(brute, Action("brute", "move", ("2",)))) == (
        "fall back to your rear zone 4", "advance to zone 2")
    three = fight(unit("brute", "B", "gravel_brute", zone=2),
                  unit("medic", "A", "field_medic", zone=0), options="core")
    assert describe_action(three, Action("brute", "move", ("1",))) == "advance to the front zone 1"


def test_names_shared_by_two_combatants_get_the_id():
    enc = fight(unit("duelist", "A", "rotblade_duelist"), unit("b1", "B", "gravel_brute"),
                unit("b2", "B", "gravel_brute"), options="core")
    assert describe_action(enc, Action("duelist", "mark", (), "b2")) == (
        "mark Gravel Brute [b2] (59% to win, margin as stacks on the loser)")


def test_an_unknown_kind_or_an_action_foreign_to_the_state_reads_as_its_label():
    enc = fight(unit("duelist", "A", "rotblade_duelist"), unit("brute", "B", "gravel_brute"),
                options="core")
    assert describe(Action("duelist", "dance", ("wildly",), "brute"), enc) == (
        "dance wildly -> brute")
    assert describe(Action("duelist", "attack", ("no_such_option",), "brute"), enc) == (
        "attack no_such_option -> brute")
    assert describe(Action("duelist", "react", ("none",)), enc) == "react none"  # no pending
