"""Counter (spec §5.3 #3 [S], §5.6, RULING R10, R14, R17; §11.1 S4-S6, §11.2 X6)."""

from __future__ import annotations

from metanoia_kit import (
    ab,
    blk,
    c,
    c1_block,
    c2_block,
    fight,
    has_in_order,
    injuries,
    item,
    play,
    resist,
    unit,
)


def duel(c1=None, c2=None, **c2_state):
    return fight(
        unit("c1", "A", c1 or c1_block("tranquil")),
        unit("c2", "B", c2 or c2_block("tranquil"), **c2_state),
    )


def test_counter_win_lands_bare_injury():
    """§5.3 #3 [S], §11.1 S5: the winning Reactor's Counter 3 fills one slot of the Actor, severity
    3."""
    enc = duel()
    play(enc, [1, 1, 6, 6], "c1: attack deteriorating@rot_blade -> c2", "c2: react counter")
    assert injuries(enc, "c1") == [("counter", 3)]
    assert c(enc, "c1")["stacks"] == 4


def test_counter_costs_its_rank():
    """§5.3 #3 [S]: Counter costs R Strain (no stacks on the Actor to Fuel)."""
    enc = duel()
    log = play(enc, [1, 1, 6, 6], "c1: attack deteriorating@rot_blade -> c2", "c2: react counter")
    assert c(enc, "c2")["strain"] == 3
    assert any("c2 pays 3 Strain (reaction)" in line for line in log)


def test_counter_fuels_from_the_actors_stacks_first():
    """RULING R10: Counter's cost is paid from stacks on the Actor first, then Strain."""
    enc = fight(
        unit("c1", "A", c1_block("tranquil"), stacks=2), unit("c2", "B", c2_block("tranquil"))
    )
    log = play(enc, [1, 1, 1, 1], "c1: attack deteriorating@rot_blade -> c2", "c2: react counter")
    assert c(enc, "c2")["strain"] == 5
    assert any("c2 pays 1 Strain and 2 stacks from c1" in line for line in log)


def test_failed_counter_doubles_slots_not_severity():
    """RULING R17, §11.1 S6: a failed Counter doubles the Injury slots; the severity is
    unchanged."""
    enc = duel()
    play(enc, [6, 6, 6, 2], "c1: attack deteriorating@rot_blade -> c2", "c2: react counter")
    assert injuries(enc, "c2") == [("deteriorating", 3), ("deteriorating", 3)]
    assert c(enc, "c2")["stacks"] == 1  # margin stacks are not doubled
    assert c(enc, "c2")["strain"] == 3  # cost not refunded (R8)


def test_failed_counter_slots_capped_by_empty_slots():
    """§5.6: fill min(k_realm x dbl, empty slots): one empty slot left -> 1 filled, Defeated."""
    enc = duel(injuries=[["strike", 1], ["strike", 1]])
    log = play(enc, [6, 6, 1, 1], "c1: attack deteriorating@rot_blade -> c2", "c2: react counter")
    assert len(injuries(enc, "c2")) == 3 and c(enc, "c2")["defeated"]
    assert any("in 1 slot (3/3 filled)" in line for line in log)


def test_failed_counter_doubles_with_rule2():
    """§5.6, RULING R14/R17: one Realm higher (2 slots) x failed Counter (x2) = 4 slots."""
    big = blk(realm=2, items=[item("claws", 1, "strike")])
    enc = duel(c1=big, c2=c2_block(injury_slots=5))
    play(enc, [6] + [1] * 4 + [1, 1], "c1: attack strike@claws -> c2", "c2: react counter")
    assert injuries(enc, "c2") == [("strike", 2)] * 4


def test_failed_counter_doubles_conviction_loss():
    """RULING R17/R29, §11.2 X6: a failed Counter doubles the Conviction loss (1 -> 2); the rider
    uses the undoubled final rank (Demoralize 2 -> lose 2 Strain)."""
    enc = duel(c1=blk("rampant", abilities=[ab("demoralize", 2)]))
    play(enc, [6, 4, 2, 3], "c1: argue demoralize -> c2", "c2: react counter")
    assert c(enc, "c2")["conv"] == 1
    assert c(enc, "c2")["strain"] == 1
    assert c(enc, "c2")["stacks"] == 2


def test_failed_counter_doubles_condition_rank():
    """RULING R17, §2.4: a Condition landing on a failed Counter user has its rank doubled
    (Deteriorating 3 -> 6)."""
    enc = duel()
    play(enc, [6, 6, 1, 1], "c1: condition deteriorating@rot_blade -> c2", "c2: react counter")
    assert c(enc, "c2")["statuses"] == {"deteriorating": 6}


def test_failed_counter_condition_doubled_before_resistance():
    """§2.4, RULING R13/R17: the x2 comes before Resistance (3 x 2 - 1 = 5)."""
    enc = duel(c2=c2_block("tranquil", passives=[resist("decay", 1)]))
    play(enc, [6, 6, 1, 1], "c1: condition deteriorating@rot_blade -> c2", "c2: react counter")
    assert c(enc, "c2")["statuses"] == {"deteriorating": 5}


def test_counter_landing_reduced_by_actor_resistance():
    """§2.4 [S], §13.3 duel_seed: the Actor's Resistance 2 (Shadow) turns Counter 3 into severity
    1."""
    enc = duel(c1=c1_block("tranquil", passives=[resist("shadow", 2)]))
    play(enc, [1, 1, 6, 6], "c1: attack deteriorating@rot_blade -> c2", "c2: react counter")
    assert injuries(enc, "c1") == [("counter", 1)]


def test_counter_is_never_an_actor_option():
    """RULING R7: only the Reactor invokes reactive keywords; Counter is never an Actor option."""
    enc = fight(unit("c2", "A", c2_block()), unit("t", "B", blk()))
    assert not any(a.kind in ("attack", "condition", "argue") for a in enc.legal_actions())


def test_winning_counter_user_takes_nothing():
    """§5.2 step 9-10, §11.1 S5: the winning Counter user puts the margin on the Actor and takes
    nothing."""
    enc = duel()
    log = play(enc, [1, 1, 6, 2], "c1: attack deteriorating@rot_blade -> c2", "c2: react counter")
    assert has_in_order(log, "c2 wins 3-0, margin 3", "c1 gains 3 stacks", "c1 takes [Counter 3]")
    assert injuries(enc, "c2") == [] and c(enc, "c2")["stacks"] == 0
