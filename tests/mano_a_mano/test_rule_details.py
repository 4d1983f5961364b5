"""Mano a Mano rule details with forced dice, from an audit of the engine against the spec: charging
grapples and the optional power rules on them, aim, encumbrance, disarm, cover, "turn 0" counters,
surprise rolls of inept characters, the optional flags, the turn after a counter, bows, the setup
order of RULING R53, and the CORE action set."""

from __future__ import annotations

from test_core_turns import do, labels

from envs.core import ScriptedDice
from envs.mano_a_mano.rules import from_situation, turns
from envs.mano_a_mano.rules.state import Harmed, Rolled


def fighter(cid, side, hex_, block=None, **state):
    entry = {"id": cid, "side": side, "state": {"hex": list(hex_), **state}}
    if block:
        entry["block"] = block
    return entry


def situation(*combatants, actor=None, options="full", dice=None):
    data = {
        "system": "mano_a_mano",
        "options": options,
        "combatants": list(combatants),
        "order": [c["id"] for c in combatants],
    }
    if actor:
        data["actor"] = actor
    return from_situation(data, dice=dice) if dice is not None else from_situation(data)


def harms(events):
    return [(e.power, e.damage, e.stun) for e in events if isinstance(e, Harmed)]


# ---------------------------------------------------------------- charging (spec §4.5, RULING R28)
def test_a_wrench_after_a_straight_run_gets_the_charge_bonus():
    # wrestler G = 5: wrench 2G = 10; 3 straight hexes = 6 m: +1 after doubling
    enc = situation(
        fighter("w", "A", (0, 0), "wrestler"), fighter("c", "B", (4, 0), "clone"), actor="w"
    )
    dice = ScriptedDice([15], sides=20)
    events = do(enc, dice, "w: move 0", "w: move 0", "w: move 0", "w: grapple wrench -> c")
    assert harms(events) == [(11, 5, 6)]


def test_a_plain_slam_after_a_run_keeps_only_the_charge_after_a_breakfall():
    # slam G = 5, +3 for 4 straight hexes (8 m); a breakfall takes G off (RULING R15): 3 left
    enc = situation(
        fighter("w", "A", (0, 0), "wrestler"), fighter("c", "B", (5, 0), "clone"), actor="w"
    )
    dice = ScriptedDice([15, 19], sides=20)
    events = do(enc, dice, *["w: move 0"] * 4, "w: grapple slam -> c")
    assert [e.purpose for e in events if isinstance(e, Rolled)] == ["slam on c", "breakfall"]
    assert harms(events) == [(3, 1, 2)]  # a fall: blunt, at least 2 stun (spec §5.7.4)


def test_a_short_run_before_an_earlier_strike_does_not_use_up_the_charge():
    enc = situation(
        fighter("s", "A", (0, 0), "steven"),
        fighter("c1", "B", (2, 0), "clone"),
        fighter("c2", "B", (1, 4), "clone"),
        actor="s",
    )
    dice = ScriptedDice([1, 15], sides=20)
    events = do(
        enc,
        dice,
        "s: move 0",
        "s: strike quick right_foot -> c1",  # 1 hex: no charge, a miss
        "s: move 1",
        "s: move 1",
        "s: move 1",
        "s: strike quick machete -> c2",
    )
    assert harms(events) == [(5 + 1, 6, 0)]  # machete 5 sharp, +1 for 3 straight hexes


# --------------------------------------------------------------- optional power rules (RULING R37)
def test_random_damage_and_critical_hits_apply_to_a_wrench():
    for options, die, power in (
        ({"random_damage": True}, 12, 5),
        ({"critical_hits": True}, 20, 15),
        ({"random_damage": True}, 13, 10),
    ):
        enc = situation(
            fighter("w", "A", (0, 0), "wrestler"),
            fighter("c", "B", (1, 0), "clone"),
            actor="w",
            options=options,
        )
        events = do(enc, ScriptedDice([die], sides=20), "w: grapple wrench -> c")
        assert [h[0] for h in harms(events)] == [power], options


# --------------------------------------------------------------------- aim (spec §8.2, RULING R31)
def test_stun_from_a_choke_ends_the_aim():
    enc = situation(
        fighter("w", "A", (0, 0), "wrestler"),
        fighter("a", "B", (1, 0), "archer", bow_drawn=True, aiming="light_bow"),
        actor="w",
    )
    dice = ScriptedDice([15, 10], sides=20)
    do(enc, dice, "w: grapple choke -> a", "w: choose release -> a", "w: end")
    assert enc.by_id["a"].aiming is None
    shot = next(e for e in do(enc, dice, "a: shoot quick -> w") if isinstance(e, Rolled))
    assert shot.modifier == 4  # marksmanship only: the +5 of the aim is gone


def test_a_fall_ends_the_aim():
    enc = situation(
        fighter("w", "A", (0, 0), "wrestler"),
        fighter("a", "B", (1, 0), "archer", bow_drawn=True, aiming="light_bow"),
        actor="w",
    )
    do(enc, ScriptedDice([15, 1], sides=20), "w: grapple trip -> a")  # balance 1 fails: a fall
    assert not enc.by_id["a"].standing and enc.by_id["a"].aiming is None


def test_throwing_another_weapon_keeps_the_aim_of_the_gun():
    enc = situation(
        fighter(
            "m",
            "A",
            (0, 0),
            "musketeer",
            held={"right": "pistol", "left": "knife"},
            aiming="pistol",
        ),
        fighter("s", "B", (2, 0), "steven"),
        actor="m",
    )
    do(enc, ScriptedDice([1], sides=20), "m: throw quick left -> s")
    assert enc.by_id["m"].aiming == "pistol"  # the aim lasts until the next attack with that weapon


# ------------------------------------------------------------- encumbrance (spec §2.7, RULING R26)
def test_encumbrance_follows_the_items_carried():
    enc = situation(
        fighter("s", "A", (0, 0), "steven", stowed=["polearm"]),
        fighter("c", "B", (1, 0), "clone"),
        actor="s",
    )
    s = enc.by_id["s"]  # 6.5 kg against a carrying capacity of 5 kg (at most 2 x CC, spec §2.7)
    assert s.encumbered and enc.stack[-1].move_points == 3  # running 5 halved, rounded up
    assert not any(
        a.kind == "strike" and a.args[0] != "quick" for a in enc.legal_actions()
    )  # no strenuous
    light = situation(
        fighter("s", "A", (0, 0), "steven"), fighter("c", "B", (1, 0), "clone"), actor="s"
    )
    assert not light.by_id["s"].encumbered and light.stack[-1].move_points == 5
    assert "s: strike powerful machete -> c" in labels(light)


def test_no_pick_up_above_twice_the_carrying_capacity():
    enc = situation(
        fighter("s", "A", (0, 0), "steven", held={}, stowed=["spear"]),
        fighter("c", "B", (3, 0), "clone"),
        actor="s",
    )
    enc.floor[(0, 0)] = ["pike", "knife"]
    enc.refresh()
    found = {a.args[0] for a in enc.legal_actions() if a.kind == "pick_up"}
    assert found == {"knife"}  # 3 + 1 = 4 kg is fine; 3 + 10 = 13 kg is above 2 x 5 kg


# ---------------------------------------------------------------- disarm (spec §5.7.3, RULING R17)
def test_a_disarmed_two_handed_weapon_goes_into_two_free_hands():
    enc = situation(
        fighter("w", "A", (0, 0), "wrestler"), fighter("g", "B", (1, 0), "guard"), actor="w"
    )
    do(enc, ScriptedDice([19], sides=20), "w: grapple disarm both -> g")
    assert enc.by_id["w"].held == {"both": "spear"} and not enc.by_id["g"].held and not enc.floor


def test_a_disarmed_drawn_bow_is_no_longer_drawn():
    enc = situation(
        fighter("w", "A", (0, 0), "wrestler"),
        fighter("a", "B", (1, 0), "archer", bow_drawn=True, aiming="light_bow"),
        actor="w",
    )
    dice = ScriptedDice([19], sides=20)
    do(enc, dice, "w: grapple disarm left -> a", "w: choose release -> a", "w: end")
    a = enc.by_id["a"]
    assert not a.bow_drawn and a.aiming is None
    assert any(
        x.kind == "strike" for x in enc.legal_actions()
    )  # free to act again (RULING R32 lifted)


# ------------------------------------------------------------------- cover (spec §6.4, RULING R29)
def test_an_incapacitated_ally_can_be_covered():
    enc = situation(
        fighter("g", "A", (0, 0), "guard"),
        fighter("a", "A", (1, 0), "archer", stun=12, standing=False),
        fighter("s", "B", (2, 0), "steven"),
        actor="g",
    )
    assert "g: cover -> a" in labels(enc)


# ----------------------------------------------------------------- a "turn 0" counter (RULING R47)
def test_a_slow_character_whose_setup_counter_fires_still_gets_its_first_turn():
    dice = ScriptedDice([15, 3, 1, 1], sides=20)
    enc = from_situation(
        {
            "system": "mano_a_mano",
            "options": "full",
            "combatants": [
                fighter("s", "A", (0, 0), "steven"),
                fighter("e", "B", (1, 0), "elephant"),
            ],
        },
        dice=dice,
    )
    do(
        enc,
        dice,
        "s: choose stance_none",
        "e: choose stance_counter",
        "s: strike quick machete -> e",
    )
    assert enc.current_actor() == "e"  # the counter fires
    do(
        enc,
        dice,
        "e: strike quick tusks_and_trunk -> s",
        "e: end",
        "s: strike quick machete -> e",
        "s: end",
    )
    assert (
        enc.current_actor() == "e" and enc.by_id["e"].forced_skips == 0
    )  # speed 1/2, yet its turn comes


# ---------------------------------------------------------------------- surprise (spec §2.8, §3.3)
def test_an_inept_ambusher_without_stealth_rolls_at_minus_four():
    from envs.core.hexgrid import HexMap
    from envs.mano_a_mano.rules import stat_blocks
    from envs.mano_a_mano.rules.state import Fighter, ManoEncounter

    blocks = stat_blocks()
    fighters = [
        Fighter("e", blocks["elephant"], "A", 0, (0, 0)),
        Fighter("s", blocks["steven"], "B", 0, (3, 0)),
    ]
    enc = ManoEncounter(fighters, ["e", "s"], HexMap.hexagon(7))
    events = []
    # elephant: inept, no stealth: 11 - 4 = 7 is not above 10 + Steven's detection 0
    assert not turns.ambush(enc, "A", ScriptedDice([11], sides=20), events)
    assert (events[0].modifier, events[0].difficulty) == (-4, 10)


# -------------------------------------------------- optional flags (spec §3.2, §3.5, §12.2 item 7)
def test_rear_attack_favorable_gives_plus_two_from_behind_only():
    def strike_modifier(options, attacker_hex):
        enc = situation(
            fighter("s", "A", (1, 0), "steven"),
            fighter("g", "A", attacker_hex, "guard"),
            fighter("c", "B", (0, 0), "clone"),
            actor="g",
            options=options,
        )
        roll = next(
            e
            for e in do(enc, ScriptedDice([1], sides=20), "g: strike quick spear -> c")
            if isinstance(e, Rolled)
        )
        return roll.modifier

    # the clone faces Steven, its nearest enemy (first in roster order among equals), to the east
    behind = strike_modifier({"rear_attack_favorable": True}, (-1, 0))  # west: a rear side
    beside = strike_modifier({"rear_attack_favorable": True}, (1, -1))  # direction 5: a front side
    plain = strike_modifier("full", (-1, 0))
    assert behind == plain + 2 and beside == plain


def _choose_stances(enc, dice):
    """Every character of the stance phase takes no stance (in the order the rules ask); returns the
    events as text."""
    events = []
    while enc.stack and enc.stack[-1].choice and enc.stack[-1].choice[0].startswith("stance"):
        events += do(enc, dice, f"{enc.current_actor()}: choose stance_none")
    return [str(e) for e in events]


def test_reach_initiative_puts_the_longest_reach_first_without_a_roll():
    from envs.mano_a_mano.rules import new_encounter

    # skirmish_2v2: side B's archer has the light bow (150 m); side A has no missile or reach weapon
    dice = ScriptedDice([], sides=20)  # no roll-off
    enc = new_encounter("skirmish_2v2", {"reach_initiative": True}, dice)
    text = _choose_stances(enc, dice)
    assert enc.order == ["guard", "steven", "archer", "wrestler"] and enc.current_actor() == "guard"
    assert "side B has the longest reach (150 m) and goes first" in text
    # a tie (duel_spear: neither reaches beyond its hex, R7) falls back to the roll-off
    dice = ScriptedDice([3, 12], sides=20)
    enc = new_encounter("duel_spear", {"reach_initiative": True}, dice)
    _choose_stances(enc, dice)
    assert enc.order == ["guard", "steven"]
    dice.check_exhausted()


def test_initial_stances_come_before_the_roll_off_in_roster_order():
    from envs.mano_a_mano.rules import new_encounter

    dice = ScriptedDice([5, 15], sides=20)  # side A rolls 5, side B 15: the guard acts first
    enc = new_encounter("duel_spear", "full", dice)
    assert enc.current_actor() == "steven"  # roster order, before any die is rolled (RULING R53)
    do(enc, dice, "steven: choose stance_evade")
    assert enc.current_actor() == "guard"
    events = do(enc, dice, "guard: choose stance_counter")
    text = [str(e) for e in events]
    rolls = [
        "side A rolls d20=5 for the first turn",
        "side B rolls d20=15 for the first turn",
        "guard acts first; turn order guard > steven",
    ]
    assert [line for line in text if line in rolls] == rolls
    assert enc.order == ["guard", "steven"] and enc.current_actor() == "guard"
    assert enc.by_id["steven"].defense_bonus == 4  # evading until Steven's first turn
    assert not enc.by_id[
        "guard"
    ].counter_ready  # the guard's turn came first: its readiness lapsed (R47)
    dice.check_exhausted()


# --------------------------------------------------------------- after a counter (spec §4.8, §6.1)
def test_an_attacker_whose_strike_was_countered_cannot_prepare_a_counter_or_delay():
    enc = situation(
        fighter("c", "B", (1, 0), "clone"),
        fighter("s", "A", (0, 0), "steven", counter_ready=True),
        fighter("w", "A", (-3, 0), "wrestler"),
        actor="c",
    )
    dice = ScriptedDice([], sides=20)
    do(enc, dice, "c: strike quick right_hand -> s")  # declared: Steven's counter fires first
    assert enc.current_actor() == "s" and enc.stack[-1].counter
    do(enc, dice, "s: end")
    assert enc.current_actor() == "c"
    kinds = {a.kind for a in enc.legal_actions()}
    assert "counter" not in kinds and "delay" not in kinds
    assert "c: strike quick right_hand -> s" in labels(enc)  # it may keep the declared attack
    assert enc.clone().stack[-1].declared and enc.snapshot()["stack"][-1]["declared"]


# --------------------------------------------------------------------- bows (RULING R31, R32, R56)
def test_dropping_a_drawn_aimed_bow_ends_the_aim():
    enc = situation(
        fighter("a", "B", (0, 0), "archer", bow_drawn=True, aiming="light_bow"),
        fighter("c", "A", (6, 0), "clone"),
        actor="a",
    )
    do(enc, ScriptedDice([], sides=20), "a: drop_item left")
    a = enc.by_id["a"]
    assert not a.bow_drawn and a.aiming is None and enc.floor[(0, 0)] == ["light_bow"]


def test_a_surprised_archer_stows_its_bow_undrawn():
    from envs.core.hexgrid import HexMap
    from envs.mano_a_mano.rules import stat_blocks
    from envs.mano_a_mano.rules.state import Fighter, ManoEncounter

    blocks = stat_blocks()
    fighters = [
        Fighter("s", blocks["steven"], "A", 0, (0, 0), held=dict(blocks["steven"].held)),
        Fighter(
            "a",
            blocks["archer"],
            "B",
            0,
            (5, 0),
            held=dict(blocks["archer"].held),
            bow_drawn=True,
            aiming="light_bow",
        ),
    ]
    enc = ManoEncounter(fighters, ["s", "a"], HexMap.hexagon(7))
    enc.begin(ScriptedDice([20], sides=20), "side_A")  # the ambush succeeds
    a = enc.by_id["a"]
    assert a.held == {} and "light_bow" in a.stowed and not a.bow_drawn and a.aiming is None


def test_an_unwieldy_bow_allows_one_quick_use_and_no_strenuous_shot():
    import dataclasses

    enc = situation(
        fighter("a", "B", (0, 0), "archer"), fighter("c", "A", (6, 0), "clone"), actor="a"
    )
    a = enc.by_id["a"]
    a.block = dataclasses.replace(
        a.block, strength=2
    )  # the light bow's heft is now above its hand power
    enc.refresh()
    assert a.block.item_stats("light_bow", "left").unwieldy
    assert "a: shoot draw_and_fire -> c" not in labels(enc)
    do(enc, ScriptedDice([], sides=20), "a: draw")
    assert not {
        x for x in labels(enc) if " aim" in x or "shoot" in x
    }  # the one use of the turn is spent


# ------------------------------------------------------------------------ CORE (spec §12.1, §12.3)
def test_core_rules_offer_only_the_core_actions():
    enc = situation(
        fighter("w", "A", (0, 0), "wrestler"),
        fighter("g", "B", (1, 0), "guard"),
        fighter("a", "B", (0, 3), "archer"),
        actor="w",
        options="core",
    )
    kinds = {a.kind for a in enc.legal_actions()}
    assert kinds == {"end", "counter", "move", "rest", "drop", "strike"}
    assert all(
        len(a.args) == 2 for a in enc.legal_actions() if a.kind == "strike"
    )  # no armor avoidance
    full = situation(
        fighter("w", "A", (0, 0), "wrestler"),
        fighter("g", "B", (1, 0), "guard"),
        fighter("a", "B", (0, 3), "archer"),
        actor="w",
        options="full",
    )
    assert {"grapple", "delay"} <= {a.kind for a in full.legal_actions()}
    assert any(
        len(a.args) == 3 for a in full.legal_actions() if a.kind == "strike"
    )  # avoid_next on the guard
    archer = situation(
        fighter("a", "B", (0, 3), "archer"),
        fighter("w", "A", (0, 0), "wrestler"),
        actor="a",
        options="core",
    )
    assert {a.kind for a in archer.legal_actions()} <= {
        "end",
        "counter",
        "move",
        "rest",
        "drop",
        "strike",
    }


def test_choking_a_helpless_target_does_not_put_it_out_of_the_fight_twice():
    from envs.core.events import OutOfFight

    enc = situation(
        fighter("w", "A", (0, 0), "wrestler"),
        fighter("c", "B", (1, 0), "clone", stun=14, standing=False),
        fighter("g", "B", (0, 3), "guard"),
        actor="w",
    )
    enc.by_id["w"].standing = False  # both on the ground: same base state (RULING R19)
    enc.refresh()
    events = do(enc, ScriptedDice([10], sides=20), "w: grapple choke -> c")
    assert enc.by_id["c"].stun > 14 and not [e for e in events if isinstance(e, OutOfFight)]


# --------------------------------------------------------- weapon identity (spec §4.4, RULING R11)
def test_a_knife_in_each_hand_is_two_weapons():
    enc = situation(
        fighter("s", "A", (0, 0), "steven", held={"right": "knife", "left": "knife"}),
        fighter("c", "B", (1, 0), "clone"),
        actor="s",
    )
    assert {"s: strike quick knife@right -> c", "s: strike quick knife@left -> c"} <= labels(enc)
    do(
        enc, ScriptedDice([1], sides=20), "s: strike quick knife@right -> c"
    )  # speed 1: one use each
    after = labels(enc)
    assert (
        "s: strike quick knife@left -> c" in after
        and "s: strike quick knife@right -> c" not in after
    )


def test_two_thrown_knives_are_two_weapons():
    enc = situation(
        fighter("s", "A", (0, 0), "steven", held={"right": "knife", "left": "knife"}),
        fighter("c", "B", (1, 0), "clone"),
        actor="s",
    )
    do(
        enc, ScriptedDice([1], sides=20), "s: throw quick right -> c"
    )  # a miss; the knife lands by the clone
    assert "s: throw quick left -> c" in labels(enc)
