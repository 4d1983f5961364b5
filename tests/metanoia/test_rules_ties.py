"""The tie table (spec §5.4 [S] + RULING R11, R23, R32): every row, all dice showing 1 (0
successes for every Texture) so both sides tie at 0."""

from __future__ import annotations

from metanoia_kit import ab, blk, c, c1_block, c2_block, fight, injuries, item, play, unit

TIE = [1, 1, 1, 1]


def test_tie_condition_keyword_goes_to_actor():
    """§5.4 [S]: a Condition keyword (field N: Pin) ties to the Actor; margin 0, no stacks."""
    enc = fight(unit("a", "A", blk(abilities=[ab("pin", 2)])), unit("t", "B", blk()))
    log = play(enc, TIE, "a: condition pin -> t", "t: react none")
    assert any("tie 0-0: a wins the tie" in line for line in log)
    assert c(enc, "t")["statuses"] == {"pinned": 2}
    assert c(enc, "t")["stacks"] == 0 and c(enc, "a")["stacks"] == 0


def test_tie_choice_keyword_as_condition_goes_to_actor():
    """§5.4 [S]: a C keyword declared as a Condition ties to the Actor (Deteriorating 3 status)."""
    enc = fight(unit("c1", "A", c1_block()), unit("c2", "B", c2_block()))
    play(enc, TIE, "c1: condition deteriorating@rot_blade -> c2", "c2: react none")
    assert c(enc, "c2")["statuses"] == {"deteriorating": 3}
    assert injuries(enc, "c2") == []


def test_tie_injury_keyword_goes_to_reactor():
    """§5.4 [S]: an Injury keyword (field I: Strike) ties to the Reactor: nothing lands."""
    enc = fight(unit("a", "A", blk(items=[item("club", 2, "strike")])), unit("t", "B", blk()))
    log = play(enc, TIE, "a: attack strike@club -> t", "t: react none")
    assert any("tie 0-0: t wins the tie" in line for line in log)
    assert injuries(enc, "t") == [] and c(enc, "t")["stacks"] == 0


def test_tie_choice_keyword_as_injury_goes_to_reactor():
    """§5.4 [S], §11.1 S1: a C keyword declared as an Injury ties to the Reactor."""
    enc = fight(unit("c1", "A", c1_block()), unit("c2", "B", c2_block()))
    play(enc, TIE, "c1: attack deteriorating@rot_blade -> c2", "c2: react none")
    assert injuries(enc, "c2") == [] and c(enc, "c2")["statuses"] == {}


def test_tie_argue_goes_to_reactor():
    """§5.4 [S]: an Argue ties to the Reactor: no Conviction loss, no rider."""
    enc = fight(unit("a", "A", blk(abilities=[ab("demoralize", 2)])), unit("t", "B", blk()))
    play(enc, TIE, "a: argue demoralize -> t", "t: react none")
    assert c(enc, "t")["conv"] == 3 and c(enc, "t")["strain"] == 6


def test_tie_mark_goes_to_actor_and_nothing_happens():
    """RULING R11: a Mark tie goes to the Actor with margin 0; the Reactor's keyword does not
    fire."""
    enc = fight(unit("c1", "A", c1_block()), unit("c2", "B", c2_block()))
    play(enc, TIE, "c1: mark -> c2", "c2: react slip")
    assert (
        c(enc, "c1")["statuses"] == {}
        and c(enc, "c2")["stacks"] == 0
        and c(enc, "c1")["stacks"] == 0
    )
    assert c(enc, "c2")["strain"] == 5  # Slip's cost is not refunded (R8)


def test_tie_challenged_move_goes_to_mover():
    """RULING R23: a challenged Move ties to the mover, which moves."""
    enc = fight(unit("m", "A", blk()), unit("ch", "B", blk()))
    play(enc, TIE, "m: move 0", "ch: challenge yes", "ch: react none")
    assert c(enc, "m")["zone"] == 0


def test_tie_winner_keyword_still_lands():
    """§5.4 [S], §11.1 S4/S8: the Reactor winning a tie lands its keyword (Slip 4)."""
    enc = fight(unit("c1", "A", c1_block()), unit("c2", "B", c2_block()))
    play(enc, TIE, "c1: attack deteriorating@rot_blade -> c2", "c2: react slip")
    assert c(enc, "c1")["statuses"] == {"slip": 4}


def test_tie_ignores_the_reactors_keyword():
    """RULING R32: the tie looks only at the Actor's action; a Condition tied against Counter goes
    to the Actor, and the failed Counter doubles the Condition's rank (R17)."""
    enc = fight(unit("a", "A", blk(abilities=[ab("pin", 2)])), unit("c2", "B", c2_block()))
    play(enc, TIE, "a: condition pin -> c2", "c2: react counter")
    assert c(enc, "c2")["statuses"] == {"pinned": 4}
    assert injuries(enc, "a") == []
