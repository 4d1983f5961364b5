"""Sizebound FULL part D: Lift and Throw (spec §5.2.16, R-71), Momentum and Teleport/Blink
(spec §8.9, WE-30), Incorporeal movement (spec §7.2, §5.2.18), the Wall Cling stay roll
(spec §5.2.17) and the Large Hail at both ends of a turn (WE-37), with forced dice."""

from __future__ import annotations

from test_sizebound_rules import do, labels, texts

from envs.sizebound.rules import from_situation
from envs.sizebound.rules.describe import describe

FQ = {"version": "full", "exertion_control": "off", "interleave": False}
CQ = {"version": "core", "exertion_control": "off"}


def sit(rows, options=FQ, actor="bear", **top):
    return from_situation({"system": "sizebound", "options": options, "combatants": rows,
                           "side_order": ["A", "B"], "map": {"w": 14, "h": 14},
                           "actor": actor, **top}, "case.yaml")


def _den(options=FQ, extra=()):
    """A cave bear (Large, SN 10, two paws free) beside a goblin (Small, SN 7: d = -3), a war
    dog (Puny, SN 5: d = -5, 4 size indexes smaller) and its ally the duelist (Medium: d = -2);
    the knight stands 4 spaces east."""
    return sit([{"id": "bear", "side": "A", "stats": "cave_bear", "at": [5, 5]},
                {"id": "gob", "side": "B", "stats": "goblin", "at": [6, 5]},
                {"id": "dog", "side": "B", "stats": "war_dog", "at": [4, 4]},
                {"id": "duelist", "side": "A", "stats": "duelist", "at": [5, 6]},
                {"id": "knight", "side": "B", "stats": "knight", "at": [9, 5]}, *extra],
               options)


def _passes(enc, ev=None, faces=()):
    """Answer ``pass`` to every open window, the n-th with the dice ``faces[n]`` (the event
    texts go to ``ev``); returns the windows' kinds."""
    kinds = []
    while enc.window is not None:
        n = len(kinds)
        kinds.append(enc.window.kind)
        got = texts(do(enc, f"{enc.window.actor}: pass", faces[n] if n < len(faces) else ()))
        if ev is not None:
            ev += got
    return kinds


def _lifts(enc):
    return [x for x in labels(enc) if ": lift" in x or ": throw" in x]


def _to(enc, who):
    """End turns until ``who`` decides in a later team turn."""
    do(enc, f"{enc.current_actor()}: end_turn")
    while enc.current_actor() != who:
        do(enc, f"{enc.current_actor()}: end_turn")


# ---------------------------------------------------------------- Lift (spec §5.2.16)
def test_lift_is_full_only_and_hostiles_never_consent():
    assert _lifts(_den(CQ)) == []
    enc = _den()
    assert _lifts(enc) == ["bear: lift -> gob", "bear: lift -> dog", "bear: lift -> duelist"]
    # the hostile knight (Stocky, d = -1) would have to consent: never listed, even adjacent
    enc.by_id["knight"].x = 4
    enc.by_id["knight"].y = 4
    enc._legal = None
    assert "bear: lift -> knight" not in labels(enc)
    words = {a.label: describe(a, enc) for a in enc.legal_actions() if a.kind == "lift"}
    assert words["bear: lift -> gob"] == ("lift the Goblin Skirmisher to wield it (1 attack, "
                                          "2 hands; Hammer 1d6+Might)")
    assert words["bear: lift -> duelist"] == ("lift the Sellsword Duelist onto your shoulders "
                                              "(1 attack, one hand)")


def test_lift_takes_hands_and_an_attack_and_the_lifted_one_is_carried_without_mr():
    enc = _den()
    b, g = enc.by_id["bear"], enc.by_id["gob"]
    ev = texts(do(enc, "bear: lift -> gob"))
    assert "gob is wielded by bear" in ev
    assert b.grips == {"gob": 2} and g.grappled_by == ["bear"] and b.free_hands == 0
    assert b.pool_general == 0 and "bear: lift -> dog" not in labels(enc)  # no hand, no attack
    do(enc, "bear: step s")  # the goblin's MR 2 cancels nothing: it is off the ground
    assert b.pos == (5, 4) and g.pos == (6, 4)


def test_lifted_creature_cannot_step_and_struggles_free_by_contest():
    enc = _den()
    do(enc, "bear: lift -> gob")
    _to(enc, "gob")
    legal = labels(enc)
    assert not any(x.startswith("gob: step") for x in legal) and "gob: stand" not in legal
    assert "gob: break_free -> bear" in legal
    # Nimble 12 (higher than Athletics 9): 12 + 10 = 22 vs the bear's Athletics 14 with
    # advantage for its two-handed hold, [9, 3] keeps 9: 23, still held
    do(enc, "gob: break_free -> bear", [10, 9, 3])
    assert enc.by_id["bear"].grips == {"gob": 2}


def test_a_rider_gets_down_with_break_free_uncontested():
    enc = _den()
    ev = texts(do(enc, "bear: lift -> duelist"))
    assert "duelist rides on bear" in ev and enc.by_id["bear"].grips == {"duelist": 1}
    _to(enc, "duelist")
    do(enc, "duelist: break_free -> bear")  # no dice: nothing is rolled
    assert enc.by_id["bear"].grips == {} and enc.by_id["duelist"].grappled_by == []


def test_a_much_smaller_creature_may_dodge_the_lift_with_a_bonus_reaction():
    enc = _den()
    assert enc.by_id["dog"].reactions == 0
    do(enc, "bear: lift -> dog")
    assert enc.window is not None and enc.window.labels == ("dog: dodge", "dog: pass")
    # the bear's Hit 10 + 4 = 14 > Defense 10; the dog's Dodge 5 + 12 = 17 > 14: it slips out
    ev = texts(do(enc, "dog: dodge", [10, 5]))
    assert "dog slips out of bear's lift" in ev and enc.by_id["bear"].grips == {}
    assert enc.by_id["dog"].reactions == 0  # the bonus Reaction, not one of its own


def test_the_lift_holds_when_the_dodge_only_ties():
    enc = _den()
    do(enc, "bear: lift -> dog")
    ev = texts(do(enc, "dog: dodge", [10, 2]))  # 14 vs 2 + 12 = 14: the tie keeps the lift
    assert "dog is wielded by bear" in ev and enc.by_id["bear"].grips == {"dog": 1}


def test_the_lift_fails_when_the_hit_misses_defense():
    enc = _den()
    do(enc, "bear: lift -> dog")
    ev = texts(do(enc, "dog: dodge", [6]))  # 6 + 4 = 10, not above Defense 10: no Dodge roll
    assert "dog slips out of bear's lift" in ev


def test_a_creature_4_sn_smaller_is_lifted_as_a_free_item_use_not_an_attack():
    """spec §5.2.11 (FULL): lifting a creature whose SN is 4 or more below is a Manipulate
    Item use; its first use each turn is Free, so the attack pool stays closed."""
    enc = _den()
    do(enc, "bear: lift -> dog")  # SN 5 vs 10
    assert _passes(enc) == ["dodge"]
    bear = enc.by_id["bear"]
    assert bear.grips == {"dog": 1} and not bear.pool_open and bear.used == ""
    assert "item" in bear.extra_used
    do(enc, "bear: lift -> duelist")  # SN 8: d = -2, a rider: a general attack as ever
    bear = enc.by_id["bear"]  # apply works on a copy of the state
    assert bear.pool_open and bear.used == "P" and bear.grips == {"dog": 1, "duelist": 1}


def test_the_item_lift_is_still_offered_when_no_attack_is_left():
    enc = _den()
    bear = enc.by_id["bear"]
    bear.used = "P"  # P spent with the pool closed: no general attack can be paid
    assert _lifts(enc) == ["bear: lift -> dog"]  # the goblin (d = -3) needs an attack
    do(enc, "bear: lift -> dog")
    _passes(enc)
    bear = enc.by_id["bear"]
    assert bear.grips == {"dog": 1} and bear.used == "P" and not bear.pool_open


# ---------------------------------------------------------------- Throw (spec §5.2.16)
def _thrown(enc, lift, target, faces, passes=()):
    do(enc, f"bear: lift -> {lift}", [2] if lift == "dog" else ())
    _to(enc, "bear")
    assert f"bear: throw -> {target}" in labels(enc)
    do(enc, f"bear: throw -> {target}", faces)
    for p in passes:
        do(enc, f"{p}: pass")


def test_a_two_handed_throw_reaches_4_a_one_handed_one_6():
    enc = _den()
    enc.by_id["knight"].x = 10  # 5 spaces east
    do(enc, "bear: lift -> gob")
    _to(enc, "bear")
    assert "bear: throw -> knight" not in labels(enc) and "bear: throw -> dog" in labels(enc)
    enc = _den()
    enc.by_id["knight"].x = 11  # 6 spaces
    do(enc, "bear: lift -> dog")
    do(enc, "dog: pass")
    _to(enc, "bear")
    assert "bear: throw -> knight" in labels(enc)


def test_throw_hurts_both_and_the_thrown_one_lands_in_a_shared_cell_prone():
    enc = _den()
    do(enc, "bear: lift -> gob")
    _to(enc, "bear")
    # Hit 15 + 4 = 19 > 10; 1d6 4 + Might 3 = 7; the knight lets it through: 49 -> 42; the
    # goblin lands in the allied knight's cell (0.5 + 0.5 <= 1), takes the same 7 (47 -> 40)
    # and falls Prone (Small: no fall dice)
    do(enc, "bear: throw -> knight")  # the knight's Quick Draw window comes first
    # the knight's windows: Quick Draw, Dodge, Block; then Block again for the goblin beside it
    assert _passes(enc, faces=[[15], [4]]) == ["declare", "dodge", "block", "block"]
    k, g = enc.by_id["knight"], enc.by_id["gob"]
    assert k.hp == 42 and g.hp == 40 and g.pos == (9, 5) and g.prone
    assert enc.by_id["bear"].grips == {} and g.grappled_by == []


def test_a_missed_throw_still_lands_the_creature_next_to_a_large_target():
    enc = _den(extra=({"id": "brute", "side": "B", "stats": "cave_bear", "at": [8, 7]},))
    do(enc, "bear: lift -> gob")
    _to(enc, "bear")
    ev = texts(do(enc, "bear: throw -> brute"))
    assert _passes(enc, ev, [[3]]) == ["declare"]  # 3 + 4 = 7: a miss, nobody is hurt
    g = enc.by_id["gob"]
    # a Large creature's cell is never shared: the free cell next to it nearest the bear
    assert g.pos == (7, 6) and g.prone and g.hp == 47
    assert "gob is thrown and lands at 7,6" in ev


# ---------------------------------------------------------------- Momentum, Teleport (§8.9)
BARE = {"name": "Bare", "size": "Medium", "level": 1,
        "totals": {"might": 12, "skill": 15, "magic": 10},
        "scaling_improvements": {"hp": 0, "mana": 0}, "armour": "none",
        "wielded": {}, "skills": [], "exertion_pool": "player"}
GNAT = {**BARE, "name": "Gnat", "size": "Tiny"}


def _ctx(faces, choices=()):
    from envs.core.dice import ScriptedDice
    from envs.core.flow import Ctx, ReplayDice
    return Ctx(ReplayDice([], ScriptedDice(list(faces))), list(choices))


def _field(rows, options=FQ, actor="gnat", **top):
    return sit(rows, options, actor=actor, **top)


def test_we30_teleport_collision_expels_the_lighter_and_hurts_both():
    from envs.sizebound.rules.full_move2 import teleport
    enc = _field([{"id": "gnat", "side": "A", "stats": GNAT, "at": [3, 5]},
                  {"id": "human", "side": "B", "stats": "duelist", "at": [5, 5]}])
    g, h = enc.by_id["gnat"], enc.by_id["human"]
    ev: list = []
    # 2 spaces into the Medium human: the Tiny gnat (SN 4 < 8) is pushed to the nearest free
    # cell next to it (ties: lowest y, then x); both take the fall damage for 6: 3d6 True
    assert teleport(enc, _ctx([1, 2, 3, 4, 4, 4]), ev, g, (5, 5))
    assert "gnat is expelled to (4, 4)" in texts(ev) and g.pos == (4, 4) and h.pos == (5, 5)
    assert g.hp == g.profile.max_hp - 6 and h.hp == 48 - 12


def test_teleport_into_a_smaller_creature_moves_it_and_a_free_cell_costs_nothing():
    from envs.sizebound.rules.full_move2 import teleport
    enc = _field([{"id": "gnat", "side": "A", "stats": GNAT, "at": [6, 6]},
                  {"id": "human", "side": "B", "stats": "duelist", "at": [5, 9]}],
                 actor="human")
    g, h = enc.by_id["gnat"], enc.by_id["human"]
    ev: list = []
    assert teleport(enc, _ctx([]), ev, h, (5, 7))  # a free cell: no collision, no dice
    assert h.pos == (5, 7) and h.hp == 48
    # 1 space into the gnat: 3 x 1 = 3 spaces gives 1d6 (the minimum); the gnat moves to the
    # free cell next to the human nearest its own place
    assert teleport(enc, _ctx([5, 6]), ev, h, (6, 6))
    assert h.pos == (6, 6) and g.pos == (5, 5) and h.hp == 43 and g.hp == g.profile.max_hp - 6


def test_blink_only_to_a_cell_reachable_by_walking():
    from envs.sizebound.rules.full_move2 import teleport
    walls = {"w": 14, "h": 14, "walls": [[8, 0, 8, 13]]}
    enc = _field([{"id": "gnat", "side": "A", "stats": GNAT, "at": [3, 5]},
                  {"id": "human", "side": "B", "stats": "duelist", "at": [12, 12]}], map=walls)
    g = enc.by_id["gnat"]
    ev: list = []
    assert not teleport(enc, _ctx([]), ev, g, (10, 5), blink=True) and g.pos == (3, 5)
    assert teleport(enc, _ctx([]), ev, g, (6, 5), blink=True) and g.pos == (6, 5)
    assert teleport(enc, _ctx([]), ev, g, (10, 5)) and g.pos == (10, 5)  # a Teleport may


def test_momentum_crush_is_crushing_and_paralyzes_until_freed():
    from envs.sizebound.rules.full_move2 import crush, free_crushed
    enc = _den()
    k = enc.by_id["knight"]
    k.guard = 6
    ev: list = []
    # the fastest object moved 6 spaces: the fall damage for 6, 3d6; Crushing zeroes Guard
    assert crush(enc, _ctx([2, 3, 4]), ev, k, 6) == 9
    assert k.hp == 40 and k.guard == 0 and "paralyzed" in k.conds
    free_crushed(enc, ev, k)
    assert "paralyzed" not in k.conds


# ---------------------------------------------------------------- Incorporeal (§7.2, §5.2.18)
def _ghost(options=FQ):
    ghost = {"id": "gnat", "side": "A", "stats": BARE, "at": [5, 5],
             "state": {"conditions": ["incorporeal"]}}
    return _field([ghost, {"id": "human", "side": "B", "stats": "duelist", "at": [5, 6]}],
                  options, map={"w": 14, "h": 14, "walls": [[6, 0, 6, 13]],
                                "difficult": [[3, 3, 4, 5]]})


def test_incorporeal_steps_pass_through_walls_and_creatures():
    enc = _ghost()
    g = enc.by_id["gnat"]
    legal = labels(enc)
    assert "gnat: step e" in legal and "gnat: step n" in legal  # the wall, the human
    ev = texts(do(enc, "gnat: step e"))  # through the wall at x 6: 2 cells, cost 2
    assert "gnat steps e to (7, 5) (cost 2)" in ev and g.budget == 3
    do(enc, "gnat: step w")  # back through the wall: 2
    assert g.pos == (5, 5) and g.budget == 1
    do(enc, "gnat: step w")  # into difficult ground: levitating, it pays 1, not 2
    assert g.pos == (4, 5) and g.budget == 0
    enc = _ghost()
    ev = texts(do(enc, "gnat: step n"))  # through the hostile human at (5, 6)
    assert "gnat steps n to (5, 7) (cost 2)" in ev


def test_incorporeal_movement_is_full_only():
    enc = _ghost({**FQ, "version": "core", "elevation": False, "fear": False,
                  "prone_burst": False})
    assert "gnat: step e" not in labels(enc) and "gnat: step n" not in labels(enc)


# ---------------------------------------------------------------- Wall Cling (§5.2.17)
def _climber(z=12):
    """A Bare climber (Nimble 11) falling beside the wall x = 6, with no Reaction."""
    enc = sit([{"id": "climber", "side": "A", "stats": BARE, "at": [5, 5], "state": {"z": z}},
               {"id": "knight", "side": "B", "stats": "knight", "at": [1, 1]}],
              actor="climber", map={"w": 12, "h": 12, "walls": [[6, 0, 6, 11]]})
    c = enc.by_id["climber"]
    c.fall_turn = 1
    c.conds.add("falling", now=enc.clock, forever=True)
    enc._legal = None
    return enc, c


def test_wall_cling_as_a_bonus_action_then_stay_rolls_two_harder_each_time():
    enc, c = _climber()
    assert c.reactions == 0 and "climber: wall_cling" in labels(enc)
    assert describe(enc.parse_action("climber: wall_cling"), enc) == (
        "cling to the wall: Nimble d20+11 needs 20+ (60%); stops the fall")
    ev = texts(do(enc, "climber: wall_cling", [9]))  # 9 + 11 = 20: it clings, nothing fallen
    assert "climber clings to the wall" in ev and enc.window.kind == "cling_leap"
    do(enc, "climber: pass")  # it stays on the wall rather than Leap (spec §5.2.17)
    c = enc.by_id["climber"]
    assert "B" in c.used and c.fall_turn == 0 and c.z == 12 and c.cling == 2
    do(enc, "climber: end_turn")  # the turn it clung in: no stay roll
    do(enc, "knight: end_turn")
    ev = texts(do(enc, "climber: end_turn", [11]))  # 11 + 11 = 22 >= 22: it stays
    assert "climber clings to the wall" in ev
    do(enc, "climber: pass")
    c = enc.by_id["climber"]
    assert c.cling == 4 and c.fall_turn == 0
    do(enc, "knight: end_turn")
    ev = texts(do(enc, "climber: end_turn", [12]))  # 23 < 24: it lets go and starts to fall
    c = enc.by_id["climber"]
    assert "climber fails to cling" in ev
    assert c.cling == 0 and c.fall_turn == 1 and "falling" in c.conds and c.z == 12


def test_a_failed_bonus_cling_keeps_falling_and_a_second_cling_that_round_is_free():
    from envs.sizebound.rules.full_move2 import cling
    enc, c = _climber()
    ev = texts(do(enc, "climber: wall_cling", [8]))  # 19 < 20: still falling
    assert "climber fails to cling" in ev
    assert "climber falls 4 (height 8, 4 fallen so far)" in ev  # after its first action
    ev2: list = []
    assert not cling(enc, _ctx([9]), ev2, c)  # 20: the second attempt of the fall needs 22
    # 24 for the third: clings, 2d6 minimized, and stays (no Leap instead)
    assert cling(enc, _ctx([13], ["climber: pass"]), ev2, c)
    assert c.cling == 6  # its stay roll, the fourth attempt, needs 26
    assert c.hp == c.profile.max_hp - 2
    c.fall_turn, c.fallen = 1, 0
    assert cling(enc, _ctx([], ["climber: pass"]), ev2, c)  # the same round: no roll


def test_no_wall_cling_with_a_floor_at_its_height_next_to_it():
    # spec §5.2.17: Wall Cling "requires ... no adjacent floor": a falling climber level with a
    # ledge beside it (ground 12 at x 4, its own height) has no wall to cling to there
    enc = sit([{"id": "climber", "side": "A", "stats": BARE, "at": [5, 5], "state": {"z": 12}},
               {"id": "knight", "side": "B", "stats": "knight", "at": [1, 1]}],
              actor="climber", map={"w": 12, "h": 12, "walls": [[6, 0, 6, 11]],
                                    "heights": [[3, 4, 4, 6, 12]]})
    c = enc.by_id["climber"]
    c.fall_turn = 1
    c.conds.add("falling", now=enc.clock, forever=True)
    enc._legal = None
    assert "climber: wall_cling" not in labels(enc)
    enc, c = _climber()  # the same wall, no ledge: it may cling
    assert "climber: wall_cling" in labels(enc)


def test_the_leap_instead_of_a_cling_is_a_window_the_env_encodes():
    # spec §5.2.17: a successful cling offers the Leap instead (half the unspent Walk, 5 // 2 = 2
    # spaces here); the window's leaps are the layout's leap block, its pass index 0
    from envs.rl import legal_index_map
    from envs.sizebound.encoding import ENCODING, LAYOUT
    enc, c = _climber()
    do(enc, "climber: wall_cling", [15])  # 26: clings
    assert enc.window is not None and enc.window.kind == "cling_leap"
    got = legal_index_map(ENCODING, enc, "climber")
    start = LAYOUT.strides("leap")[0]
    assert got[0].kind == "pass"
    assert sorted(a.label for i, a in got.items() if i >= start) == sorted(
        f"climber: leap {d} {k}" for d in ("n", "s", "w", "nw", "sw") for k in ("1", "2"))
    do(enc, "climber: leap w 2")
    c = enc.by_id["climber"]  # the window's answer replays the action on a fresh copy
    assert (c.x, c.cling) == (3, 0) and "falling" in c.conds
