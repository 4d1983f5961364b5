"""Full-version features: Guard/intercept, Withdraw, Instrument, surprise, hazards, and that CORE
hides them (spec §3.4, §5.13-§5.15, §6.2, §12.2, RULING R25, R28, R35, R36, R37, R41)."""

from __future__ import annotations

from metanoia_kit import ab, blk, c, fight, has_in_order, injuries, item, legal, play, resist, unit

FULL = {"version": "full", "round_limit": 1}
FULL_LONG = {"version": "full", "round_limit": 5}
CLUB = [item("club", 1, "strike")]


# ---------------------------------------------------------------- Guard / intercept (R25, R41)
def guarded(
    attacker=None,
    guard=None,
    target=None,
    guard_zone=1,
    attacker_state=None,
    guard_state=None,
    **target_state,
):
    """``a`` (side A) faces ``t`` guarded by ``g`` (side B)."""
    return fight(
        unit("a", "A", attacker or blk(items=CLUB), **(attacker_state or {})),
        unit("t", "B", target or blk(), **target_state),
        unit("g", "B", guard or blk(), zone=guard_zone, guarding="t", **(guard_state or {})),
        options=FULL,
    )


def test_guard_legal_for_ally_in_own_zone_only():
    """§5.1 #10, RULING R25: Guard targets an active ally in one's own zone (full version)."""
    enc = fight(unit("g", "A", blk()), unit("pal", "A", blk()), unit("far", "A", blk(), zone=0),
                unit("foe", "B", blk(), zone=2), options=FULL)
    guards = {label for label in legal(enc) if "guard" in label}
    assert guards == {"g: guard -> pal"}


def test_guard_action_sets_guarding():
    """§5.13: after Guard the combatant is Guarding the ally."""
    enc = fight(
        unit("g", "A", blk()),
        unit("pal", "A", blk()),
        unit("foe", "B", blk(), zone=2),
        options=FULL,
    )
    play(enc, [], "g: guard -> pal")
    assert c(enc, "g")["guarding"] == "pal"


def test_core_hides_guard_and_withdraw():
    """§12.1/§12.2: CORE has no Guard or Withdraw actions (even where FULL allows them)."""
    units = (
        unit("g", "A", blk(), zone=0),
        unit("pal", "A", blk(), zone=0),
        unit("foe", "B", blk(), zone=2),
    )
    assert {"g: guard -> pal", "g: withdraw"} <= legal(fight(*units, options=FULL))
    core = legal(fight(*units, options={"version": "core", "round_limit": 1}))
    assert not any("guard" in label or "withdraw" in label for label in core)


def test_core_never_asks_for_interception():
    """§12.1: CORE has no intercept reaction, even if a state says Guarding."""
    enc = fight(
        unit("a", "A", blk(items=CLUB)), unit("t", "B", blk()), unit("g", "B", blk(), guarding="t")
    )
    play(enc, [], "a: attack strike@club -> t", exhaust=False)
    assert enc.phase == "react" and enc.current_actor() == "t"


def test_intercept_yes_makes_guard_the_reactor():
    """§6.2, RULING R25/R41: the guard becomes target and Reactor; what lands, lands on it; its
    Guard ends."""
    enc = guarded()
    play(enc, [], "a: attack strike@club -> t", exhaust=False)
    assert enc.phase == "intercept" and enc.current_actor() == "g"
    play(enc, [6, 6, 1, 1], "g: intercept yes", "g: react none")
    assert injuries(enc, "g") == [("strike", 1)] and c(enc, "g")["stacks"] == 4
    assert injuries(enc, "t") == [] and c(enc, "t")["stacks"] == 0
    assert c(enc, "g")["guarding"] is None


def test_intercept_no_leaves_the_target_as_reactor():
    """§6.2: declining leaves the original target as Reactor."""
    enc = guarded()
    play(enc, [6, 6, 1, 1], "a: attack strike@club -> t", "g: intercept no", "t: react none")
    assert injuries(enc, "t") == [("strike", 1)] and injuries(enc, "g") == []
    assert c(enc, "g")["guarding"] == "t"


def test_no_interception_from_another_zone():
    """§6.2: the guard must be in the target's zone."""
    enc = guarded(guard_zone=2)
    play(enc, [], "a: attack strike@club -> t", exhaust=False)
    assert enc.phase == "react" and enc.current_actor() == "t"


def test_interception_keeps_payments_and_exploit_dice():
    """RULING R41: Exploit stacks taken from the original target are not returned and the extra
    dice still count."""
    enc = guarded(attacker=blk(abilities=[ab("exploit", 2)]), stacks=3)
    log = play(
        enc, [1, 1, 1, 1, 1, 1], "a: attack exploit -> t", "g: intercept yes", "g: react none"
    )
    assert c(enc, "t")["stacks"] == 1
    assert any("a rolls 4d6 (2 base, +2 Exploit)" in line for line in log)


def test_interception_keeps_fuel_payment():
    """RULING R41: Fuel stacks already taken from the original target stay spent."""
    enc = guarded(attacker=blk(abilities=[ab("strike", 1)]), stacks=2)
    play(enc, [1, 1, 1, 1], "a: attack strike -> t", "g: intercept yes", "g: react none")
    assert c(enc, "t")["stacks"] == 1 and c(enc, "a")["strain"] == 6


def test_interceptor_realm_is_used():
    """RULING R41: the interceptor is the Reactor for the Realm comparison (+3 dice when one
    higher)."""
    enc = guarded(guard=blk(realm=2))
    log = play(enc, [1] * 7, "a: attack strike@club -> t", "g: intercept yes", "g: react none")
    assert any("g rolls 5d6 (2 base, +3 Realm) for defence" in line for line in log)


def test_intercepted_ambush_bars_keywords_and_reveals_guard():
    """RULING R41/R19: a guard may intercept an ambush, is barred from reactive keywords, and a
    concealed guard is revealed."""
    enc = guarded(
        guard=blk(abilities=[ab("counter", 1)]),
        attacker_state={"statuses": {"obscured": 1}},
        guard_state={"statuses": {"hidden": 2}},
    )
    log = play(enc, [], "a: attack strike@club -> t", "g: intercept yes", exhaust=False)
    assert c(enc, "g")["statuses"] == {}
    assert any("g is revealed (intercepts)" in line for line in log)
    assert not any("counter" in label for label in legal(enc))


def test_mindless_guard_cannot_intercept_argue():
    """§6.2: an Argue cannot be intercepted by a guard with Convictions none."""
    enc = guarded(attacker=blk(abilities=[ab("demoralize", 1)]), guard=blk(convictions="none"))
    play(enc, [], "a: argue demoralize -> t", exhaust=False)
    assert enc.phase == "react" and enc.current_actor() == "t"


def test_guard_ends_at_start_of_own_next_turn():
    """§4.2 step 2, RULING R39: Guard ends at the start of the guard's next turn."""
    enc = fight(
        unit("x", "A", blk(), zone=0),
        unit("g", "B", blk(), guarding="t"),
        unit("t", "B", blk()),
        actor="x",
        order=["x", "g", "t"],
        options=FULL_LONG,
    )
    play(enc, [], "x: recover")
    assert enc.current_actor() == "g" and c(enc, "g")["guarding"] is None


# ---------------------------------------------------------------- Withdraw (R37)
def test_withdraw_legal_from_own_rear_only():
    """§5.14, RULING R37: Withdraw from one's own rear zone (A: 0, B: 2)."""
    assert "a: withdraw" in legal(
        fight(unit("a", "A", blk(), zone=0), unit("b", "B", blk(), zone=2), options=FULL)
    )
    assert "a: withdraw" not in legal(
        fight(unit("a", "A", blk(), zone=1), unit("b", "B", blk(), zone=2), options=FULL)
    )
    assert "b: withdraw" in legal(
        fight(unit("b", "B", blk(), zone=2), unit("a", "A", blk(), zone=0), options=FULL)
    )
    assert "b: withdraw" not in legal(
        fight(unit("b", "B", blk(), zone=0), unit("a", "A", blk(), zone=1), options=FULL)
    )


def test_withdraw_barred_by_unconcealed_enemy_or_pin():
    """RULING R37: no unconcealed active enemy in the rear zone, and not Pinned."""
    assert "a: withdraw" not in legal(
        fight(unit("a", "A", blk(), zone=0), unit("b", "B", blk(), zone=0), options=FULL)
    )
    assert "a: withdraw" in legal(
        fight(
            unit("a", "A", blk(), zone=0),
            unit("b", "B", blk(), zone=0, statuses={"obscured": 1}),
            options=FULL,
        )
    )
    assert "a: withdraw" not in legal(fight(unit("a", "A", blk(), zone=0, statuses={"pinned": 1}),
                                            unit("b", "B", blk(), zone=2), options=FULL))


def test_withdraw_flees_and_side_loses():
    """RULING R37/R26: the withdrawn combatant is Fled (out, not Defeated); a side with none active
    loses."""
    enc = fight(unit("a", "A", blk(), zone=0), unit("b", "B", blk(), zone=2), options=FULL)
    log = play(enc, [], "a: withdraw")
    assert c(enc, "a")["fled"] and not c(enc, "a")["defeated"]
    assert enc.outcome().winner == "B"
    assert any("a is fled" in line for line in log)


# ---------------------------------------------------------------- Instrument (R28)
BOW = item("bow", 2, {"keyword": "strike", "reach": "far"}, instrument=True)


def test_instrument_adds_item_rank_against_one_realm_higher():
    """RULING R28: invoking through the Instrument against a creature one Realm higher adds the
    item's rank in dice (after the cap)."""
    enc = fight(unit("a", "A", blk(items=[BOW])), unit("big", "B", blk(realm=2)), options=FULL)
    log = play(enc, [1] * 9, "a: attack strike@bow -> big", "big: react none")
    assert any("a rolls 4d6 (2 base, +2 Instrument)" in line for line in log)


def test_instrument_applies_to_a_pair():
    """RULING R28: the Instrument also counts when paired with an ability."""
    enc = fight(
        unit("a", "A", blk(abilities=[ab("strike", 1)], items=[BOW])),
        unit("big", "B", blk(realm=2)),
        options=FULL,
    )
    log = play(enc, [1] * 9, "a: attack strike+bow -> big", "big: react none")
    assert any("a rolls 4d6 (2 base, +2 Instrument)" in line for line in log)


def test_no_instrument_dice_at_equal_realm_or_other_option():
    """RULING R28: no bonus at equal Realm, nor for an option not through the Instrument."""
    enc = fight(unit("a", "A", blk(items=[BOW])), unit("t", "B", blk()), options=FULL)
    log = play(enc, [1] * 4, "a: attack strike@bow -> t", "t: react none")
    assert any("a rolls 2d6 for attack" in line for line in log)
    enc = fight(
        unit("a", "A", blk(abilities=[ab("strike", 1)], items=[BOW])),
        unit("big", "B", blk(realm=2)),
        options=FULL,
    )
    log = play(enc, [1] * 7, "a: attack strike -> big", "big: react none")
    assert any("a rolls 2d6 for attack" in line for line in log)


def test_core_has_no_instrument_dice():
    """§12.1: Instrument dice are full version only."""
    enc = fight(unit("a", "A", blk(items=[BOW])), unit("big", "B", blk(realm=2)))
    log = play(enc, [1] * 7, "a: attack strike@bow -> big", "big: react none")
    assert any("a rolls 2d6 for attack" in line for line in log)


# ---------------------------------------------------------------- Surprise (R36)
def surprise(options, order=("b", "a")):
    return fight(unit("a", "A", blk(items=CLUB)), unit("b", "B", blk(abilities=[ab("counter", 1)])),
                 order=list(order), dice=[], surprised="B", options=options)


def test_surprised_side_skips_round_one():
    """§3.4, RULING R36: surprised combatants take no turn in round 1."""
    enc = surprise(FULL_LONG)
    assert enc.current_actor() == "a" and enc.round == 1


def test_surprised_reactor_cannot_use_reactive_keywords_before_its_first_turn():
    """RULING R36: a surprised Reactor may not invoke a reactive keyword until its first turn has
    passed (still barred in round 2 before that turn)."""
    enc = surprise(FULL_LONG, order=("a", "b"))
    play(enc, [], "a: attack strike@club -> b", exhaust=False)
    assert not any("counter" in label for label in legal(enc))
    # round 2, before b's turn
    play(enc, [1, 1, 1, 1], "b: react none", "a: attack strike@club -> b", exhaust=False)
    assert enc.round == 2 and not any("counter" in label for label in legal(enc))
    play(
        enc,
        [1, 1, 1, 1],
        "b: react none",
        "b: recover",
        "a: attack strike@club -> b",
        exhaust=False,
    )
    assert "b: react counter" in legal(enc)


def test_core_ignores_surprise():
    """§3.4: CORE has no surprise."""
    enc = surprise({"version": "core", "round_limit": 5})
    assert enc.current_actor() == "b"


# ---------------------------------------------------------------- Hazards (R35)
def hazard(options=FULL, enemy_zone=2, **mover_state):
    return fight(unit("m", "A", blk(), **mover_state), unit("foe", "B", blk(), zone=enemy_zone),
                 hazards={0: 2}, options=options)


def test_hazard_passed_moves():
    """§5.15, RULING R35: entering a hazard zone needs an unopposed roll >= h; traits are paid."""
    enc = hazard()
    log = play(enc, [6, 1, 1], "m: move 0 +motive")
    assert c(enc, "m")["zone"] == 0 and c(enc, "m")["strain"] == 5
    assert any("m succeeds at the hazard of zone 0 (2 vs rank 2)" in line for line in log)


def test_hazard_failed_stays_and_spends_the_action():
    """RULING R35: failure = the mover stays and the action is spent (traits stay paid)."""
    enc = hazard()
    log = play(enc, [4, 1, 1], "m: move 0 +motive")
    assert c(enc, "m")["zone"] == 1 and c(enc, "m")["strain"] == 5
    assert enc.is_over()  # the turn ended (round cap reached)
    assert any("m stays put (hazard roll failed)" in line for line in log)


def test_hazard_then_challenge_traits_paid_once_slip_used_once():
    """§5.15, RULING R35: a challenge comes after a passed hazard roll; the stated traits are paid
    once and apply to both rolls; Slip is used up by the first (hazard) roll."""
    enc = hazard(enemy_zone=1, statuses={"slip": 1})
    log = play(
        enc, [6, 6, 1, 1, 1, 1, 1], "m: move 0 +motive", "foe: challenge yes", "foe: react none"
    )
    assert has_in_order(
        log,
        "m pays 1 Strain (move)",
        "m rolls 2d6 (3 base, -1 Slip) for hazard of zone 0",
        "m rolls 3d6 for move",
        "foe rolls 2d6 for defence",
    )
    assert c(enc, "m")["strain"] == 5 and c(enc, "m")["zone"] == 0


def test_hazard_only_on_entering():
    """RULING R35: only a Move into the hazard zone rolls."""
    enc = fight(
        unit("m", "A", blk(), zone=0), unit("foe", "B", blk(), zone=2), hazards={0: 2}, options=FULL
    )
    play(enc, [], "m: move 1")
    assert c(enc, "m")["zone"] == 1


def test_core_ignores_hazards():
    """§12.1: hazards are full version only."""
    enc = hazard(options={"version": "core", "round_limit": 1})
    play(enc, [], "m: move 0 +motive")
    assert c(enc, "m")["zone"] == 0 and c(enc, "m")["strain"] == 6


def test_resistance_unaffected_by_full_flags():
    """Sanity: FULL and CORE resolve an ordinary exchange identically (§12.2 adds, never
    changes)."""
    for options in (FULL, {"version": "core", "round_limit": 1}):
        enc = fight(
            unit("a", "A", blk(items=CLUB)),
            unit("t", "B", blk(passives=[resist("stone", 1)])),
            options=options,
        )
        play(enc, [6, 6, 1, 1], "a: attack strike@club -> t", "t: react none")
        assert injuries(enc, "t") == [] and c(enc, "t")["stacks"] == 4
