"""Mano a Mano actions in plain words (``envs/mano_a_mano/rules/describe.py``): every action kind
from real encounters and situations, the odds from the rules' preview
(random games of every system: tests/properties/test_describe.py)."""

from __future__ import annotations

from typing import Any

from envs import describe_action, get_rules
from envs.core import Action, ScriptedDice
from envs.mano_a_mano.rules.describe import describe

R = get_rules("mano_a_mano")


def sit(*combatants: dict[str, Any], dice: tuple[int, ...] = (), **top: Any):
    """A FULL-rules situation at the first combatant's turn (no setup rolls)."""
    data = {"system": "mano_a_mano", "options": top.pop("options", "full"),
            "combatants": list(combatants), **top}
    data.setdefault("actor", combatants[0]["id"])
    return R.from_situation(data, "test", ScriptedDice(list(dice), sides=20))


def c(cid: str, side: str, stats: Any, hex_: tuple[int, int], **state: Any) -> dict[str, Any]:
    return {"id": cid, "side": side, "stats": stats, "state": {"hex": list(hex_), **state}}


def words(enc, kinds: set[str] | None = None) -> dict[str, str]:
    """label -> description of the legal actions (of ``kinds``)."""
    return {a.label: describe_action(enc, a) for a in enc.legal_actions()
            if kinds is None or a.kind in kinds}


def do(enc, dice, *labels: str) -> None:
    for label in labels:
        enc.apply(enc.parse_action(label), dice)


def human(name: str, *armor: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """An inline human stat block wearing ``armor``."""
    return {"name": name, "template": "human", "cp": 200, "mass_kg": 80, "speed": 1,
            "agility": 0, "strength": 4, "toughness": 7, "running": 5,
            "abilities": {"natural_weapons": 2}, "armor": list(armor), **extra}


def test_a_core_duel_turn_in_plain_words():
    """Steven beside the Clone (duel_seed, CORE, Steven first): one description per CORE kind.
    Machete attack 4 against the Clone's defense 12: d20 9+ hits, 60%; power 5 sharp (10 for a
    powerful strike) against no armor; strategic +5: 85%; a hand: attack 2, 50%, power 3 blunt."""
    enc = R.new_encounter("duel_seed", "core", ScriptedDice([13, 2], sides=20))
    got = words(enc)
    assert {a.kind for a in enc.legal_actions()} == {
        "counter", "move", "drop", "rest", "strike", "end"}
    assert {label: got[label] for label in (
        "steven: counter", "steven: move 1", "steven: move 3", "steven: drop", "steven: rest",
        "steven: strike quick machete -> clone", "steven: strike strategic machete -> clone",
        "steven: strike cautious machete -> clone", "steven: strike powerful machete -> clone",
        "steven: strike quick left_hand -> clone", "steven: end",
    )} == {
        "steven: counter": "prepare a counterattack: strike first when next attacked",
        "steven: move 1": "step around the Clone (south-east)",
        "steven: move 3": "step away from the Clone (west)",
        "steven: drop": "drop to the ground",
        "steven: rest": "rest: +5 defense until your next turn",
        "steven: strike quick machete -> clone":
            "strike the Clone with the machete, quick (60% to hit, ~3.0 harm)",
        "steven: strike strategic machete -> clone":
            "strike the Clone with the machete, strategic (85% to hit, ~4.2 harm)",
        "steven: strike cautious machete -> clone":
            "strike the Clone with the machete, cautious (60% to hit, ~3.0 harm, then +5 defense)",
        "steven: strike powerful machete -> clone":
            "strike the Clone with the machete, powerful (60% to hit, ~6.0 harm)",
        "steven: strike quick left_hand -> clone":
            "strike the Clone with the left hand, quick (50% to hit, ~1.5 harm)",
        "steven: end": "end the turn",
    }


def test_initial_stances():
    enc = R.new_encounter("duel_spear", "full", ScriptedDice([], sides=20))
    assert words(enc) == {
        "steven: choose stance_none": "start the fight in no special stance",
        "steven: choose stance_evade": "start the fight evading (+4 defense)",
        "steven: choose stance_counter": "start the fight ready to counterattack",
    }


def test_moves_name_the_nearest_enemy_and_the_compass_direction():
    enc = sit(c("archer", "A", "archer", (0, 0)), c("steven", "B", "steven", (4, 0)),
              c("clone", "B", "clone", (-6, 0)))
    assert words(enc, {"move"}) == {
        "archer: move 0": "step toward Steven (east)",
        "archer: move 1": "step around Steven (south-east)",
        "archer: move 2": "step away from Steven (south-west)",
        "archer: move 3": "step away from Steven (west)",
        "archer: move 4": "step away from Steven (north-west)",
        "archer: move 5": "step around Steven (north-east)",
    }
    down = sit(c("steven", "A", "steven", (0, 0), standing=False, stun=3),
               c("clone", "B", "clone", (3, 0)))
    assert words(down, {"move", "stand", "instant_stand", "rest"}) == {
        "steven: move 0": "crawl toward the Clone (east)",
        "steven: move 1": "crawl around the Clone (south-east)",
        "steven: move 2": "crawl away from the Clone (south-west)",
        "steven: move 3": "crawl away from the Clone (west)",
        "steven: move 4": "crawl away from the Clone (north-west)",
        "steven: move 5": "crawl around the Clone (north-east)",
        "steven: stand": "stand up",
        "steven: instant_stand": "spring to your feet (+5 defense until your next turn)",
        "steven: rest": "rest: shake off 3 stun, +5 defense until your next turn",
    }


def test_delay_cover_and_grappling_attacks():
    """Wrestler (grapple attack 10) beside the Town Guard (grapple defense 17): d20 8+, 65%;
    G = 5, so wrench 2G = 10 blunt against absorption 2: 8 harm on a hit, ~5.2; avoiding the
    armor (+6): 35%, 10 harm; disarm +5: 40%."""
    enc = sit(c("wrestler", "A", "wrestler", (0, 0)), c("guard", "B", "guard", (1, 0)),
              c("steven", "A", "steven", (-1, 1)))
    assert words(enc, {"delay", "cover", "grapple"}) == {
        "wrestler: delay -> guard": "delay: act right after Town Guard from now on",
        "wrestler: delay -> steven": "delay: act right after Steven from now on",
        "wrestler: cover -> steven":
            "cover Steven until your next turn (attacks on them must pass you)",
        "wrestler: grapple hold -> guard": "grab and hold Town Guard (65% to succeed)",
        "wrestler: grapple push 0 -> guard":
            "push Town Guard 1 hex east (65%, balance roll or fall)",
        "wrestler: grapple push 1 -> guard":
            "push Town Guard 1 hex south-east (65%, balance roll or fall)",
        "wrestler: grapple push 2 -> guard":
            "push Town Guard 1 hex south-west (65%, balance roll or fall)",
        "wrestler: grapple push 4 -> guard":
            "push Town Guard 1 hex north-west (65%, balance roll or fall)",
        "wrestler: grapple push 5 -> guard":
            "push Town Guard 1 hex north-east (65%, balance roll or fall)",
        "wrestler: grapple trip -> guard":
            "trip Town Guard (65%, balance roll or a fall of power 10)",
        "wrestler: grapple slam -> guard": "slam Town Guard to the ground (65%, a fall of power 5)",
        "wrestler: grapple slam_onto -> guard":
            "slam Town Guard down and fall on them (65%, a fall of power 10)",
        "wrestler: grapple wrench -> guard": "wrench Town Guard's limbs (65% to hit, ~5.2 harm)",
        "wrestler: grapple choke -> guard": "choke Town Guard (65% to hit, ~5.2 stun)",
        "wrestler: grapple wrench avoid_next -> guard":
            "wrench Town Guard's limbs, avoiding all armor (35% to hit, ~3.5 harm)",
        "wrestler: grapple choke avoid_next -> guard":
            "choke Town Guard, avoiding all armor (35% to hit, ~3.5 stun)",
        "wrestler: grapple disarm both -> guard":
            "wrest the spear from Town Guard's hands (40% to succeed)",
    }
    walled = sit(c("wrestler", "A", "wrestler", (0, 0)), c("guard", "B", "guard", (1, 0)),
                 map={"radius": 4, "walls": [[2, 0]]})
    assert describe_action(walled, Action("wrestler", "grapple", ("push", "0"), "guard")) == (
        "push Town Guard into the wall to the east (65%, a fall of power 5)")


def test_grapple_outcome_choices_and_release():
    enc = sit(c("wrestler", "A", "wrestler", (0, 0)), c("guard", "B", "guard", (1, 0)))
    do(enc, ScriptedDice([15], sides=20), "wrestler: grapple hold -> guard")
    assert words(enc) == {
        "wrestler: choose hold_dominant -> guard": "keep hold of Town Guard, dominant",
        "wrestler: choose release -> guard": "release Town Guard",
    }
    do(enc, ScriptedDice([], sides=20), "wrestler: choose hold_dominant -> guard")
    assert words(enc, {"release"}) == {"wrestler: release -> guard": "let go of Town Guard (free)"}

    enc = sit(c("wrestler", "A", "wrestler", (0, 0)), c("guard", "B", "guard", (1, 0)))
    do(enc, ScriptedDice([1], sides=20), "wrestler: grapple hold -> guard")  # fails: guard decides
    assert words(enc) == {
        "guard: choose keep -> wrestler": "keep the grapple with Wrestler (neutral)",
        "guard: choose release -> wrestler": "break free of Wrestler",
    }
    held = sit(c("guard", "A", "guard", (1, 0)), c("wrestler", "B", "wrestler", (0, 0)),
               grapples=[{"pair": ["wrestler", "guard"], "base": "standing",
                          "dominant": "wrestler"}])
    do(held, ScriptedDice([1], sides=20), "guard: grapple hold -> wrestler")
    assert describe_action(held, held.legal_actions()[0]) == (
        "keep the grapple with Town Guard (dominant)")

    enc = sit(c("wrestler", "A", "wrestler", (0, 0)), c("guard", "B", "guard", (1, 0)))
    do(enc, ScriptedDice([15, 1], sides=20), "wrestler: grapple trip -> guard")  # balance fails
    assert words(enc) == {
        "wrestler: choose follow_to_ground -> guard": "follow Town Guard to the ground, dominant",
        "wrestler: choose let_go -> guard": "let go of Town Guard (they stay down)",
    }


def test_bow_shots_and_items():
    """The Archer (marksmanship 4) 4 hexes from Steven: light bow, power 6 sharp."""
    enc = sit(c("archer", "A", "archer", (0, 0)), c("steven", "B", "steven", (4, 0)))
    assert words(enc, {"draw", "shoot", "ready", "drop_item"}) == {
        "archer: draw": "draw the light bow",
        "archer: shoot draw_and_fire -> steven":
            "draw the light bow and shoot Steven (70% to hit, ~4.2 harm)",
        "archer: ready knife": "ready the stowed knife",
        "archer: drop_item left": "drop the light bow (left hand, free)",
    }
    do(enc, ScriptedDice([], sides=20), "archer: draw", "archer: end", "steven: end")
    assert words(enc, {"aim", "relax", "shoot"}) == {
        "archer: aim": "aim the light bow (+5 to its next attack)",
        "archer: relax": "relax the drawn light bow (any aim is lost)",
        "archer: shoot quick -> steven":
            "shoot Steven with the light bow, quick (70% to hit, ~4.2 harm)",
        "archer: shoot strategic -> steven":
            "shoot Steven with the light bow, strategic (95% to hit, ~5.7 harm)",
        "archer: shoot cautious -> steven":
            "shoot Steven with the light bow, cautious (70% to hit, ~4.2 harm, then +5 defense)",
    }


def test_throws_heaves_drops_and_pick_ups():
    enc = sit(c("guard", "A", "guard", (0, 0)), c("steven", "B", "steven", (1, 0)))
    assert words(enc, {"throw"}) == {
        "guard: throw quick both -> steven":
            "throw the spear at Steven, quick (55% to hit, ~2.2 harm)",
        "guard: throw powerful both -> steven":
            "throw the spear at Steven, powerful (55% to hit, ~4.4 harm)",
        "guard: throw heave both -> steven": "heave the spear at Steven (30% to hit, ~2.4 harm)",
    }
    enc = sit(c("steven", "A", "steven", (0, 0)), c("clone", "B", "clone", (1, 0)))
    assert words(enc, {"throw", "drop_item"}) == {
        "steven: throw heave right -> clone":
            "heave the machete at the Clone (25% to hit, ~2.5 harm)",
        "steven: drop_item right": "drop the machete (right hand, free)",
    }
    do(enc, ScriptedDice([], sides=20), "steven: drop_item right")
    assert words(enc, {"pick_up"}) == {"steven: pick_up machete 0,0": "pick up the machete (here)"}
    do(enc, ScriptedDice([], sides=20), "steven: move 3")
    assert words(enc, {"pick_up"}) == {
        "steven: pick_up machete 0,0": "pick up the machete (1 hex east)"}


def test_guns_load_unload_and_aim():
    steven = c("steven", "B", "steven", (5, 0))
    musket = sit(c("mu", "A", "musketeer", (0, 0), shots={"musket": 0}), steven)
    assert words(musket, {"load"}) == {
        "mu: load": "reload the musket: step 1 of 9 (takes the whole turn)"}
    clip_out = sit(c("mu", "A", "musketeer", (0, 0), held={"right": "pistol"}, stowed=[],
                     clip_out=["pistol"]), steven)
    assert words(clip_out, {"load", "unload"}) == {
        "mu: load": "load a full clip into the pistol (8 shots)"}
    pistol = sit(c("mu", "A", "musketeer", (0, 0), held={"right": "pistol"}, stowed=[]), steven)
    assert words(pistol, {"aim", "unload"}) == {
        "mu: aim": "aim the pistol (+5 to its next attack)",
        "mu: unload": "take the clip out of the pistol",
    }
    revolver = sit(c("mu", "A", "musketeer", (0, 0), held={"right": "revolver"}, stowed=[],
                     shots={"revolver": 3}), steven)
    assert words(revolver, {"load"}) == {"mu: load": "load a round into the revolver (4/6)"}


def test_riders_and_mounts():
    horse, guard = c("war_horse", "A", "war_horse", (0, 0)), c("guard", "B", "guard", (4, 0))
    riding = sit(c("cavalry_guard", "A", "cavalry_guard", (0, 0)), horse, guard,
                 mounted={"cavalry_guard": "war_horse"})
    got = words(riding, {"move", "dismount"})
    assert (got["cavalry_guard: move 0"], got["cavalry_guard: move 3"],
            got["cavalry_guard: dismount"]) == (
        "ride War Horse toward Town Guard (east)", "ride War Horse away from Town Guard (west)",
        "dismount from War Horse")
    carrying = sit(horse, c("cavalry_guard", "A", "cavalry_guard", (0, 0)), guard,
                   mounted={"cavalry_guard": "war_horse"})
    assert describe_action(carrying, Action("war_horse", "move", ("0",))) == (
        "step toward Town Guard (east), carrying Cavalry Guard")
    beside = sit(c("cavalry_guard", "A", "cavalry_guard", (0, 1)), horse, guard, mounted={})
    assert words(beside, {"mount"}) == {"cavalry_guard: mount -> war_horse": "mount War Horse"}


def test_armor_avoidance_names_the_pieces_avoided():
    """A crash helmet (cover 2, absorption 5) over a leather jacket (5, 2): the next level avoids
    the helmet (+2, 50%: 5 - 2 = 3 sharp harm), all armor costs +7 (25%, 5 harm)."""
    biker = human("Biker", {"item": "leather_jacket", "cover": 5, "absorption": 2},
                  {"item": "crash_helmet", "cover": 2, "absorption": 5})
    enc = sit(c("steven", "A", "steven", (0, 0)), c("biker", "B", biker, (1, 0)))
    machete = {k: v for k, v in words(enc, {"strike"}).items() if " quick machete" in k}
    assert machete == {
        "steven: strike quick machete -> biker":
            "strike Biker with the machete, quick (60% to hit, no harm)",
        "steven: strike quick machete avoid_next -> biker":
            "strike Biker with the machete, quick, avoiding the crash helmet (50% to hit, "
            "~1.5 harm)",
        "steven: strike quick machete avoid_all -> biker":
            "strike Biker with the machete, quick, avoiding all armor (25% to hit, ~1.2 harm)",
    }
    items = {"gambeson": {"kind": "armor", "cp": 20, "mass_kg": 2, "cover": 3, "absorption": 3},
             "steel_plate": {"kind": "armor", "cp": 20, "mass_kg": 2, "cover": 1,
                             "absorption": 8}}
    knight = human("Knight", {"item": "leather_jacket", "cover": 5, "absorption": 2},
                   {"item": "gambeson", "cover": 3, "absorption": 3},
                   {"item": "crash_helmet", "cover": 2, "absorption": 5},
                   {"item": "steel_plate", "cover": 1, "absorption": 8})
    enc = sit(c("steven", "A", "steven", (0, 0)), c("knight", "B", knight, (1, 0)), items=items,
              options={"version": "full", "armor_levels": "any"})
    # total cover 11 is complete: one region must stay (RULING R55), so the lowest level keeps
    # the jacket
    assert {a: describe(Action("steven", "strike", ("powerful", "machete", *a), "knight"), enc)
            for a in ((), ("avoid_next",), ("avoid_2",), ("avoid_all",))} == {
        (): "strike Knight with the machete, powerful (60% to hit, ~1.2 harm)",
        ("avoid_next",):
            "strike Knight with the machete, powerful, avoiding the steel plate (55% to hit, "
            "~2.8 harm)",
        ("avoid_2",):
            "strike Knight with the machete, powerful, avoiding 2 armor pieces (45% to hit, "
            "~3.2 harm)",
        ("avoid_all",):
            "strike Knight with the machete, powerful, avoiding all but the leather jacket "
            "(30% to hit)",
    }
    plated = human("Plated", {"item": "leather_jacket", "cover": 5, "absorption": 2},
                   {"item": "steel_plate", "cover": 1, "absorption": 8,
                    "inside": "leather_jacket"})
    enc = sit(c("steven", "A", "steven", (0, 0)), c("p", "B", plated, (1, 0)), items=items)
    assert describe_action(enc, Action("steven", "strike", ("quick", "machete", "avoid_next"),
                                       "p")) == (
        "strike Plated with the machete, quick, avoiding the steel plate (55% to hit, ~1.6 harm)")


def test_an_attack_names_a_waiting_counter_a_coverer_and_a_charge():
    enc = sit(c("steven", "A", "steven", (0, 0)), c("clone", "B", "clone", (1, 0),
                                                        counter_ready=True))
    assert describe_action(enc, Action("steven", "throw", ("heave", "right"), "clone")) == (
        "heave the machete at the Clone (25% to hit, ~2.5 harm, the Clone counters first)")
    enc = sit(c("steven", "A", "steven", (0, 0)), c("guard", "B", "guard", (1, 0)),
              c("clone", "B", "clone", (2, 0), covering="guard"))
    assert describe_action(enc, Action("steven", "strike", ("quick", "machete"), "guard")) == (
        "strike Town Guard with the machete, quick (35% to hit, ~1.1 harm, the Clone covers)")
    enc = sit(c("steven", "A", "steven", (0, 0)), c("clone", "B", "clone", (5, 0)))
    do(enc, ScriptedDice([], sides=20), *["steven: move 0"] * 4)  # 8 m straight: +3 power
    assert describe_action(enc, Action("steven", "strike", ("quick", "machete"), "clone")) == (
        "strike the Clone with the machete, quick (60% to hit, ~4.8 harm, charging 4 hexes)")


def test_names_shared_by_two_fighters_get_the_id_and_regeneration_shows_in_rest():
    troll = human("Troll", qualities=["sudden_regeneration"])
    enc = sit(c("troll", "A", troll, (0, 0), damage=5), c("clone", "B", "clone", (3, 0)),
              c("clone_2", "B", "clone", (-3, 0)))
    got = words(enc, {"rest", "move"})
    assert got["troll: move 0"] == "step toward the Clone [clone] (east)"
    assert got["troll: rest"] == "rest: heal 3 damage, +5 defense until your next turn"


def test_an_unknown_kind_or_an_action_foreign_to_the_state_reads_as_its_label():
    enc = sit(c("steven", "A", "steven", (0, 0)), c("clone", "B", "clone", (1, 0)))
    assert describe(Action("steven", "dance", ("wildly",), "clone"), enc) == "dance wildly -> clone"
    assert describe(Action("steven", "strike", ("quick", "machete"), "nobody"), enc) == (
        "strike quick machete -> nobody")
    assert describe(Action("ghost", "move", ("0",)), enc) == "move 0"
    assert describe(Action("steven", "draw"), enc) == "draw"  # Steven holds no bow
