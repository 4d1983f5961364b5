"""Turn structure, timing, initiative and the end of combat (spec §3.3, §4.2, §7.1, §8.5,
RULING R5, R24, R26, R31, R39)."""

from __future__ import annotations

from metanoia_kit import ab, blk, c, fight, has_in_order, item, legal, play, unit

from envs.core.dice import ScriptedDice
from envs.metanoia.rules import from_situation

LONG = {"version": "core", "round_limit": 5}


def two_turns(bearer_state: dict, bearer_block=None):
    """``x`` acts first (Recover), then ``b``'s turn starts: returns the fight at b's decision."""
    enc = fight(
        unit("x", "A", blk(), zone=0),
        unit("b", "B", bearer_block or blk(), zone=2, **bearer_state),
        actor="x",
        order=["x", "b"],
        options=LONG,
    )
    log = play(enc, [], "x: recover")
    return enc, log


def test_turn_start_regains_one_strain():
    """RULING R5: +1 Strain at the start of each own turn."""
    enc, _ = two_turns({"strain": 3})
    assert c(enc, "b")["strain"] == 4


def test_turn_start_strain_capped():
    """RULING R5: the regain never goes above strain_max."""
    enc, _ = two_turns({})
    assert c(enc, "b")["strain"] == 6


def test_deteriorating_ticks_after_the_regain():
    """§4.2 step 4, RULING R31/R39: after the +1 regain, Deteriorating R costs 1 Strain, adds 1
    stack, then R - 1 (3 + 1 - 1 = 3 Strain, 1 stack, Deteriorating 1)."""
    enc, log = two_turns({"strain": 3, "statuses": {"deteriorating": 2}})
    b = c(enc, "b")
    assert (b["strain"], b["stacks"], b["statuses"]) == (3, 1, {"deteriorating": 1})
    assert has_in_order(
        log, "b's turn", "b loses 1 Strain (now 3) [deteriorating]", "b gains 1 stack"
    )


def test_deteriorating_removed_at_zero():
    """§7.1, RULING R31: the status is removed when its rank reaches 0."""
    enc, log = two_turns({"statuses": {"deteriorating": 1}})
    assert c(enc, "b")["statuses"] == {} and c(enc, "b")["stacks"] == 1
    assert any("b loses [Deteriorating]" in line for line in log)


def test_deteriorating_never_drops_strain_below_zero():
    """§5.3 #2: the Strain loss stops at 0; the stack is still gained."""
    enc, _ = two_turns({"strain": 0, "statuses": {"deteriorating": 2}}, blk(strain_max=0))
    assert c(enc, "b")["strain"] == 0 and c(enc, "b")["stacks"] == 1


def test_deteriorating_tick_respects_stack_cap():
    """RULING R9: the tick's stack is lost at the cap of 10."""
    enc, _ = two_turns({"stacks": 10, "statuses": {"deteriorating": 2}})
    assert c(enc, "b")["stacks"] == 10


def test_pinned_blocks_move_and_hide():
    """§5.3 #6: a Pinned combatant cannot Move or Hide (the labels are not legal)."""
    enc = fight(
        unit("p", "A", blk(), zone=0, statuses={"pinned": 1}), unit("foe", "B", blk(), zone=2)
    )
    labels = legal(enc)
    assert not any(" move " in label or " hide" in label for label in labels)
    assert "p: recover" in labels


def test_pinned_decays_at_end_of_own_turn():
    """§4.2 step 6, RULING R39: Pinned R - 1 at the end of the bearer's turn."""
    enc = fight(unit("p", "A", blk(), statuses={"pinned": 2}), unit("foe", "B", blk(), zone=2))
    log = play(enc, [], "p: recover")
    assert c(enc, "p")["statuses"] == {"pinned": 1}
    assert any("p has [Pinned 1] [end of turn]" in line for line in log)


def test_pinned_removed_at_zero():
    """§7.1: Pinned is removed at 0."""
    enc = fight(unit("p", "A", blk(), statuses={"pinned": 1}), unit("foe", "B", blk(), zone=2))
    play(enc, [], "p: recover")
    assert c(enc, "p")["statuses"] == {}


def test_pinned_does_not_decay_on_other_turns():
    """RULING R39: only the bearer's own turn end reduces Pinned."""
    enc = fight(
        unit("x", "A", blk(), zone=0),
        unit("b", "B", blk(), zone=2, statuses={"pinned": 2}),
        actor="x",
        order=["x", "b"],
        options=LONG,
    )
    play(enc, [], "x: recover")
    assert c(enc, "b")["statuses"] == {"pinned": 2}


def test_recover_regains_one_more_strain():
    """§5.12, RULING R5: Recover regains 1 Strain (capped) and is always legal."""
    enc = fight(unit("r", "A", blk(), strain=2), unit("foe", "B", blk(), zone=2))
    play(enc, [], "r: recover")
    assert c(enc, "r")["strain"] == 3
    enc = fight(unit("r", "A", blk()), unit("foe", "B", blk(), zone=2))
    play(enc, [], "r: recover")
    assert c(enc, "r")["strain"] == 6


def test_initiative_order_and_tie_breaks():
    """§3.3, RULING R24: 2 dice each, drawn side A slot 0, 1, then side B; successes descending,
    ties by higher Realm, then side A, then lower slot."""
    data = {"system": "metanoia", "options": "core", "combatants": [
        unit("a0", "A", blk("volatile")), unit("a1", "A", blk("tranquil")),
        unit("b0", "B", blk("rampant", realm=2)), unit("b1", "B", blk("volatile"))]}
    dice = ScriptedDice([1, 1, 2, 2, 4, 4, 3, 3])  # a0: 0, a1: 2, b0: 2 (Realm 2), b1: 2
    enc = from_situation(data, "test", dice)
    assert dice.remaining == 0
    assert enc.order == ["b0", "a1", "b1", "a0"]
    assert enc.current_actor() == "b0"
    assert has_in_order(
        [str(e) for e in enc.start_events],
        "initiative: a0 [1, 1]=0, a1 [2, 2]=2, b0 [4, 4]=2, b1 [3, 3]=2 -> order b0 > a1 > b1 > a0",
    )


def test_initiative_ties_side_then_slot():
    """RULING R24: equal successes and Realm: side A before side B, then lower roster slot."""
    data = {
        "system": "metanoia",
        "options": "core",
        "combatants": [
            unit("a0", "A", blk()),
            unit("a1", "A", blk()),
            unit("b0", "B", blk()),
            unit("b1", "B", blk()),
        ],
    }
    enc = from_situation(data, "test", ScriptedDice([1] * 6 + [6, 6]))
    assert enc.order == ["b1", "a0", "a1", "b0"]


def test_initiative_ignores_slip():
    """§3.3: initiative is exactly 2 dice (no traits, no Realm dice, no Slip)."""
    data = {"system": "metanoia", "options": "core", "combatants": [
        unit("a0", "A", blk(), statuses={"slip": 3}), unit("b0", "B", blk(realm=2))]}
    dice = ScriptedDice([1, 1, 1, 1])
    enc = from_situation(data, "test", dice)
    assert dice.remaining == 0 and c(enc, "a0")["statuses"] == {"slip": 3}


def test_defeated_when_all_slots_filled_and_fight_ends():
    """§7.3, §8.5, RULING R26: all slots filled -> Defeated; a side with no active combatant
    loses."""
    enc = fight(
        unit("a", "A", blk(items=[item("club", 2, "strike")])),
        unit("t", "B", blk(), injuries=[["strike", 1]] * 2),
    )
    log = play(enc, [6, 1, 1, 1], "a: attack strike@club -> t", "t: react none")
    assert c(enc, "t")["defeated"] and not c(enc, "t")["active"]
    assert enc.is_over() and enc.outcome().winner == "A" and enc.outcome().reason == "defeat"
    assert enc.current_actor() is None and enc.legal_actions() == []
    assert has_in_order(log, "t is defeated and out of the fight", "side A wins")


def test_broken_when_convictions_reach_zero():
    """§7.3, RULING R26: Convictions 0 -> Broken, out of the fight."""
    enc = fight(unit("a", "A", blk(abilities=[ab("demoralize", 1)])), unit("t", "B", blk(), conv=1),
                unit("t2", "B", blk(), zone=2), options=LONG)
    log = play(enc, [6, 1, 1, 1], "a: argue demoralize -> t", "t: react none")
    assert c(enc, "t")["broken"] and not c(enc, "t")["active"] and not enc.is_over()
    assert any("t is broken" in line for line in log)


def test_out_of_fight_combatants_skipped_and_untargetable():
    """§4.2 step 1, §7.3: Defeated combatants take no turns and cannot be targeted."""
    enc = fight(
        unit("a", "A", blk(items=[item("club", 1, "strike")])),
        unit("down", "B", blk(), defeated=True),
        unit("b", "B", blk()),
        actor="a",
        order=["a", "down", "b"],
        options=LONG,
    )
    assert not any(label.endswith("-> down") for label in legal(enc))
    play(enc, [], "a: recover")
    assert enc.current_actor() == "b"


def test_round_cap_is_a_draw():
    """§8.5, RULING R26: no winner at the end of the round limit -> draw."""
    enc = fight(
        unit("a", "A", blk()),
        unit("b", "B", blk(), zone=2),
        options={"version": "core", "round_limit": 1},
    )
    log = play(enc, [], "a: recover")
    out = enc.outcome()
    assert out.winner is None and out.reason == "round_cap" and out.round == 1 and out.truncated
    assert any("draw (round_cap)" in line for line in log)


def test_round_limit_counts_full_rounds():
    """RULING R26: with round_limit 2 a second round is played before the draw."""
    enc = fight(unit("a", "A", blk()), unit("b", "B", blk(), zone=2), actor="a", order=["a", "b"],
                options={"version": "core", "round_limit": 2})
    play(enc, [], "a: recover", "b: recover", "a: recover")
    assert not enc.is_over() and enc.round == 2
    play(enc, [], "b: recover")
    assert enc.outcome().reason == "round_cap" and enc.outcome().round == 2
