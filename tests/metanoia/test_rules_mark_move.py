"""Mark and Move with challenges (spec §5.7, §5.11, §6.3, RULING R11, R23; §11.1 S7, §11.2 X5)."""

from __future__ import annotations

from metanoia_kit import ab, blk, c, fight, injuries, item, legal, play, unit


def test_mark_win_puts_margin_stacks_on_loser_only():
    """§5.7 [S], §11.1 S7: a won Mark places margin stacks on the Reactor and nothing else."""
    enc = fight(unit("a", "A", blk()), unit("t", "B", blk()))
    play(enc, [6, 5, 4, 2], "a: mark -> t", "t: react none")
    t = c(enc, "t")
    assert t["stacks"] == 3 and t["injuries"] == [] and t["statuses"] == {} and t["conv"] == 3
    assert c(enc, "a")["stacks"] == 0 and c(enc, "a")["strain"] == 6


def test_mark_loss_puts_margin_on_actor():
    """§5.2 step 9 [S]: the Reactor winning a Mark puts the margin on the Actor."""
    enc = fight(unit("a", "A", blk()), unit("t", "B", blk()))
    play(enc, [1, 1, 6, 6], "a: mark -> t", "t: react none")
    assert c(enc, "a")["stacks"] == 4 and c(enc, "t")["stacks"] == 0


def test_mark_reactor_keyword_lands_when_reactor_wins():
    """RULING R11: the Reactor of a Mark may invoke a reactive keyword; it lands if it wins (Slip
    2)."""
    enc = fight(unit("a", "A", blk()), unit("t", "B", blk(abilities=[ab("slip", 2)])))
    play(enc, [1, 1, 6, 1], "a: mark -> t", "t: react slip")
    assert c(enc, "a")["statuses"] == {"slip": 2} and c(enc, "a")["stacks"] == 2


def test_mark_costs_only_traits():
    """§5.1 #5: Mark costs only the pool Strain."""
    enc = fight(unit("a", "A", blk()), unit("t", "B", blk()))
    play(enc, [1, 1, 1, 1, 1, 1], "a: mark -> t +motive+identity", "t: react none")
    assert c(enc, "a")["strain"] == 4


def test_mark_reach_close_without_far_attack():
    """RULING R11: Mark is close unless the actor has a far Attack option."""
    enc = fight(
        unit("a", "A", blk(items=[item("club", 1, "strike")]), zone=0),
        unit("t", "B", blk(), zone=2),
    )
    assert not any("mark" in label for label in legal(enc))


def test_mark_reach_far_with_far_attack():
    """RULING R11: a far Attack option (a bow) gives Mark far reach."""
    enc = fight(
        unit("a", "A", blk(items=[item("bow", 1, {"keyword": "strike", "reach": "far"})]), zone=0),
        unit("t", "B", blk(), zone=2),
    )
    assert "a: mark -> t" in legal(enc)


def test_mark_reach_ignores_far_non_attack_options():
    """RULING R11: only Attack-capable far options count (far Pin does not)."""
    enc = fight(
        unit("a", "A", blk(abilities=[ab("pin", 1)]), zone=0), unit("t", "B", blk(), zone=2)
    )
    assert "a: condition pin -> t" in legal(enc)
    assert "a: mark -> t" not in legal(enc)


def test_unchallenged_move_costs_nothing():
    """§5.11, RULING R23: with no enemy in the starting zone the Move happens; traits are not
    paid."""
    enc = fight(unit("m", "A", blk()), unit("foe", "B", blk(), zone=2))
    play(enc, [], "m: move 0 +motive+identity")
    assert c(enc, "m")["zone"] == 0 and c(enc, "m")["strain"] == 6


def test_move_one_zone_and_not_off_the_field():
    """§5.11: Move goes to an adjacent zone only and may not leave the field."""
    enc = fight(unit("m", "A", blk(), zone=0), unit("foe", "B", blk(), zone=2))
    moves = {label for label in legal(enc) if " move " in label}
    assert moves == {
        "m: move 1",
        "m: move 1 +motive",
        "m: move 1 +identity",
        "m: move 1 +motive+identity",
    }


def test_declined_challenge_move_happens_free():
    """RULING R23: if every enemy declines, the Move happens and the traits are not paid."""
    enc = fight(unit("m", "A", blk()), unit("foe", "B", blk()))
    play(enc, [], "m: move 2 +motive", "foe: challenge no")
    assert c(enc, "m")["zone"] == 2 and c(enc, "m")["strain"] == 6


def test_challenged_move_pays_traits_and_mover_wins_ties():
    """RULING R23, §11.2 X5: traits paid only when challenged; the mover wins a tie and moves."""
    enc = fight(unit("sk", "A", blk(motive=3)), unit("brute", "B", blk("rampant")))
    log = play(
        enc,
        [2, 2, 3, 4, 1, 5, 1],
        "sk: move 0 +motive",
        "brute: challenge yes",
        "brute: react none",
    )
    assert c(enc, "sk")["zone"] == 0 and c(enc, "sk")["strain"] == 5
    assert c(enc, "sk")["stacks"] == 0 and c(enc, "brute")["stacks"] == 0
    assert any("tie 2-2: sk wins the tie" in line for line in log)


def test_mover_win_puts_margin_on_challenger():
    """§5.11: the mover wins -> moves, margin stacks on the challenger."""
    enc = fight(unit("m", "A", blk()), unit("ch", "B", blk()))
    play(enc, [6, 6, 1, 1], "m: move 0", "ch: challenge yes", "ch: react none")
    assert c(enc, "m")["zone"] == 0 and c(enc, "ch")["stacks"] == 4


def test_challenger_win_stops_mover_and_lands_keyword():
    """§5.11, RULING R23: the challenger wins -> the mover stays, takes the margin and the
    challenger's keyword (Counter 2 lands as an Injury)."""
    enc = fight(unit("m", "A", blk()), unit("ch", "B", blk(abilities=[ab("counter", 2)])))
    log = play(enc, [1, 1, 6, 4], "m: move 0", "ch: challenge yes", "ch: react counter")
    assert c(enc, "m")["zone"] == 1 and c(enc, "m")["stacks"] == 3
    assert injuries(enc, "m") == [("counter", 2)]
    assert c(enc, "ch")["strain"] == 4
    assert any("m stays put" in line for line in log)


def test_losing_challengers_counter_doubles_nothing():
    """§5.11: a Move lands nothing, so a losing challenger's Counter doubles nothing."""
    enc = fight(unit("m", "A", blk()), unit("ch", "B", blk(abilities=[ab("counter", 2)])))
    play(enc, [6, 6, 1, 1], "m: move 0", "ch: challenge yes", "ch: react counter")
    assert c(enc, "m")["zone"] == 0
    assert (
        injuries(enc, "ch") == [] and c(enc, "ch")["statuses"] == {} and c(enc, "ch")["stacks"] == 4
    )


def test_concealed_challenger_is_revealed():
    """RULING R19/R23: a concealed enemy may challenge and is revealed by it."""
    enc = fight(unit("m", "A", blk()), unit("ch", "B", blk(), statuses={"hidden": 2}))
    play(enc, [1, 1, 1, 1], "m: move 0", "ch: challenge yes", "ch: react none")
    assert c(enc, "ch")["statuses"] == {}


def test_challengers_asked_in_initiative_order_first_yes_wins():
    """RULING R23: enemies in the mover's zone are asked in initiative order; the first yes
    challenges and the rest are not asked; enemies in other zones are not asked."""
    enc = fight(
        unit("m", "A", blk()),
        unit("e1", "B", blk()),
        unit("e2", "B", blk()),
        unit("far", "B", blk(), zone=2),
        order=["e2", "far", "e1", "m"],
    )
    play(enc, [], "m: move 0", exhaust=False)
    assert enc.current_actor() == "e2" and enc.phase == "challenge"
    play(enc, [], "e2: challenge no", exhaust=False)
    assert enc.current_actor() == "e1"
    play(enc, [], "e1: challenge yes", exhaust=False)
    assert enc.current_actor() == "e1" and enc.phase == "react"
    assert enc.snapshot()["pending"]["reactor"] == "e1"


def test_slip_is_used_by_a_challenged_move_roll():
    """RULING R18: the mover's Slip is used by the challenge roll."""
    enc = fight(unit("m", "A", blk(), statuses={"slip": 1}), unit("ch", "B", blk()))
    log = play(enc, [6, 1, 1], "m: move 0", "ch: challenge yes", "ch: react none")
    assert any("m rolls 1d6 (2 base, -1 Slip) for move" in line for line in log)
    assert c(enc, "m")["statuses"] == {} and c(enc, "m")["zone"] == 0
