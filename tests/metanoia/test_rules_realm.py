"""Realm rules 0, 1 and 2 in both directions (spec §5.5 [S], RULING R14, R15, R18; §11.2 X1, X2)."""

from __future__ import annotations

from metanoia_kit import ab, blk, c, fight, has_in_order, injuries, item, play, resist, unit

STRIKE2 = [item("claws", 2, "strike")]


def test_rule1_higher_actor_adds_3_dice():
    """§5.5 Rule 1 [S]: a creature exactly one Realm above adds 3 dice (as Actor)."""
    enc = fight(unit("big", "A", blk(realm=2, items=STRIKE2)), unit("t", "B", blk()))
    log = play(enc, [1] * 7, "big: attack strike@claws -> t", "t: react none")
    assert has_in_order(log, "big rolls 5d6 (2 base, +3 Realm)", "t rolls 2d6 for defence")


def test_rule1_higher_reactor_adds_3_dice():
    """§5.5 Rule 1 [S], RULING R14: the +3 dice apply to the higher creature as Reactor too."""
    enc = fight(unit("a", "A", blk(items=STRIKE2)), unit("big", "B", blk(realm=2)))
    log = play(enc, [1] * 7, "a: attack strike@claws -> big", "big: react none")
    assert has_in_order(
        log, "a rolls 2d6 for attack", "big rolls 5d6 (2 base, +3 Realm) for defence"
    )


def test_no_realm_dice_in_unopposed_rolls():
    """RULING R15: Hide and Sense get no Realm dice."""
    enc = fight(unit("big", "A", blk(realm=2), zone=0), unit("t", "B", blk(), zone=2))
    log = play(enc, [1, 1], "big: hide")
    assert any("big rolls 2d6 for hide" in line for line in log)


def test_rule2_doubles_rank_and_fills_two_slots():
    """§5.5 Rule 2 [S], §11.2 X1: the higher winner's Strike 2 lands at 4 in 2 slots; margin stacks
    are not multiplied."""
    enc = fight(unit("big", "A", blk(realm=2, items=STRIKE2)), unit("t", "B", blk()))
    play(enc, [6, 6, 1, 1, 1, 1, 1], "big: attack strike@claws -> t", "t: react none")
    assert injuries(enc, "t") == [("strike", 4), ("strike", 4)]
    assert c(enc, "t")["stacks"] == 4


def test_rule2_applies_to_a_higher_reactors_counter():
    """RULING R14: Rule 2 covers an Injury from the higher creature's reactive Counter (rank x2,
    2 slots)."""
    enc = fight(
        unit("a", "A", blk(items=STRIKE2)),
        unit("big", "B", blk(realm=2, abilities=[ab("counter", 2)])),
    )
    play(enc, [1, 1, 6, 1, 1, 1, 1], "a: attack strike@claws -> big", "big: react counter")
    assert injuries(enc, "a") == [("counter", 4), ("counter", 4)]
    assert c(enc, "a")["stacks"] == 2
    assert c(enc, "big")["strain"] == 8 - 2


def test_rule2_argue_removes_two_convictions():
    """RULING R14/R29: a landed Argue from one Realm higher removes 2 Convictions; the rider uses
    the doubled rank (Demoralize 1 -> lose 2 Strain)."""
    enc = fight(
        unit("big", "A", blk(realm=2, abilities=[ab("demoralize", 1)])), unit("t", "B", blk())
    )
    play(enc, [6, 1, 1, 1, 1, 1, 1], "big: argue demoralize -> t", "t: react none")
    assert c(enc, "t")["conv"] == 1
    assert c(enc, "t")["strain"] == 4


def test_rule2_condition_rank_doubled():
    """§5.5 Rule 2 [S]: the rank of the higher winner's landed Condition is doubled (Pin 1 -> 2)."""
    enc = fight(unit("big", "A", blk(realm=2, abilities=[ab("pin", 1)])), unit("t", "B", blk()))
    play(enc, [1] * 7, "big: condition pin -> t", "t: react none")  # tie: Condition -> Actor
    assert c(enc, "t")["statuses"] == {"pinned": 2}


def test_lower_realm_winner_lands_plain_rank_one_slot():
    """§8.1: a lower-Realm winner fills 1 slot at its plain rank."""
    enc = fight(unit("a", "A", blk(items=STRIKE2)), unit("big", "B", blk(realm=2)))
    play(enc, [6, 6, 1, 1, 1, 1, 1], "a: attack strike@claws -> big", "big: react none")
    assert injuries(enc, "big") == [("strike", 2)]


def test_rule2_multiplier_before_resistance():
    """§2.4, RULING R13: final = invoked x Realm multiplier - resistance (2 x 2 - 1 = 3)."""
    enc = fight(unit("big", "A", blk(realm=2, items=STRIKE2)),
                unit("t", "B", blk(passives=[resist("stone", 1)])))
    play(enc, [6, 1, 1, 1, 1, 1, 1], "big: attack strike@claws -> t", "t: react none")
    assert injuries(enc, "t") == [("strike", 3), ("strike", 3)]


def test_rule0_no_dice_triple_rank_three_slots():
    """§5.5 Rule 0 [S], §11.2 X2: two Realms apart no dice are drawn; Strike 2 lands at 6 in 3
    slots and the Realm 1 Reactor is Defeated; no stacks."""
    enc = fight(unit("big", "A", blk(realm=3, items=STRIKE2)), unit("t", "B", blk()))
    log = play(enc, [], "big: attack strike@claws -> t", "t: react none")
    assert injuries(enc, "t") == [("strike", 6)] * 3
    assert c(enc, "t")["defeated"] and c(enc, "t")["stacks"] == 0 and c(enc, "big")["stacks"] == 0
    assert not any("rolls" in line for line in log)
    assert enc.outcome().winner == "A"


def test_rule0_higher_reactor_without_keyword_lower_action_fails():
    """§5.5 Rule 0 [S]: if the higher creature is the Reactor without a keyword, nothing happens;
    the lower Actor's action simply fails (no dice, no stacks, no Injury)."""
    enc = fight(unit("a", "A", blk(items=STRIKE2)), unit("big", "B", blk(realm=3)))
    log = play(enc, [], "a: attack strike@claws -> big", "big: react none")
    assert injuries(enc, "big") == [] and injuries(enc, "a") == []
    assert c(enc, "a")["stacks"] == 0 and c(enc, "big")["stacks"] == 0
    assert any("big wins automatically (Realm Rule 0" in line for line in log)


def test_rule0_reverse_counter_three_slots():
    """§11.2 X2 reverse, RULING R14: the Realm 3 Reactor's Counter 1 lands at 3 in 3 slots."""
    enc = fight(
        unit("a", "A", blk(items=STRIKE2)),
        unit("big", "B", blk(realm=3, abilities=[ab("counter", 1)])),
    )
    play(enc, [], "a: attack strike@claws -> big", "big: react counter")
    assert injuries(enc, "a") == [("counter", 3)] * 3
    assert c(enc, "a")["defeated"]
    assert c(enc, "big")["strain"] == 10 - 1


def test_rule0_does_not_consume_slip():
    """RULING R18: Slip is not consumed by a Rule 0 exchange (no roll was made), on either side."""
    enc = fight(unit("big", "A", blk(realm=3, items=STRIKE2), statuses={"slip": 2}),
                unit("t", "B", blk(injury_slots=5), statuses={"slip": 1}))
    play(enc, [], "big: attack strike@claws -> t", "t: react none")
    assert c(enc, "big")["statuses"] == {"slip": 2}
    assert c(enc, "t")["statuses"] == {"slip": 1}


def test_rule0_mark_by_higher_actor_does_nothing():
    """§5.5 Rule 0 [S]: a higher Actor using Mark wins, and nothing happens."""
    enc = fight(unit("big", "A", blk(realm=3)), unit("t", "B", blk()))
    play(enc, [], "big: mark -> t", "t: react none")
    assert c(enc, "t")["stacks"] == 0 and c(enc, "t")["statuses"] == {} and injuries(enc, "t") == []


def test_rule0_argue_removes_three_convictions():
    """RULING R14: a Rule 0 Argue removes 3 Convictions (Realm 1 target: Broken)."""
    enc = fight(
        unit("big", "A", blk(realm=3, abilities=[ab("demoralize", 1)])), unit("t", "B", blk())
    )
    log = play(enc, [], "big: argue demoralize -> t", "t: react none")
    assert c(enc, "t")["conv"] == 0 and c(enc, "t")["broken"]
    assert c(enc, "t")["strain"] == 3  # rider at rank 1 x 3
    assert any("t is broken" in line for line in log)


def test_rule0_condition_triple_rank():
    """§5.5 Rule 0 [S]: a landed keyword lands at 3x rank (Pin 1 -> Pinned 3)."""
    enc = fight(unit("big", "A", blk(realm=3, abilities=[ab("pin", 1)])), unit("t", "B", blk()))
    play(enc, [], "big: condition pin -> t", "t: react none")
    assert c(enc, "t")["statuses"] == {"pinned": 3}


def test_rule0_resistance_after_triple():
    """§2.4, RULING R13: 2 x 3 - 2 = 4 under Rule 0 with Resistance 2."""
    enc = fight(unit("big", "A", blk(realm=3, items=STRIKE2)),
                unit("t", "B", blk(passives=[resist("stone", 2)])))
    play(enc, [], "big: attack strike@claws -> t", "t: react none")
    assert injuries(enc, "t") == [("strike", 4)] * 3


def test_rule0_move_challenge_by_higher_challenger():
    """RULING R14/R23: Realm rules apply to Move challenges; a Realm 3 challenger stops a Realm 1
    mover without dice."""
    enc = fight(unit("m", "A", blk()), unit("big", "B", blk(realm=3)))
    play(enc, [], "m: move 0 +motive", "big: challenge yes", "big: react none")
    assert c(enc, "m")["zone"] == 1
    assert c(enc, "m")["strain"] == 5  # challenged: the stated Motive is paid
