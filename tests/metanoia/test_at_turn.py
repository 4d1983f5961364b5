"""``MetanoiaEncounter.at_turn``: the public way to stand a fight at X's turn (no private state)."""

from __future__ import annotations

import pytest
from metanoia_kit import c, c1_block, c2_block, fight, legal, play, unit


def two():
    return fight(unit("c1", "A", c1_block(), strain=3), unit("c2", "B", c2_block()),
                 options={"version": "core", "round_limit": 5})


def test_at_turn_stands_at_the_actor_without_turn_start_effects():
    enc = two()
    events = enc.at_turn("c2", round=3)
    assert events == [] and enc.round == 3 and enc.current_actor() == "c2"
    assert enc.phase == "turn" and "c2: recover" in legal(enc)
    assert c(enc, "c1")["strain"] == 3


def test_at_turn_with_start_applies_the_turn_start():
    enc = two()
    events = enc.at_turn("c1", round=2, start=True)
    assert [str(e) for e in events] == ["c1's turn"]
    assert c(enc, "c1")["strain"] == 4  # RULING R5: +1 Strain at the start of its own turn


def test_at_turn_then_play_continues_in_initiative_order():
    enc = two()
    enc.at_turn("c2", round=5)
    assert enc.order == ["c2", "c1"]  # the kit puts the default actor (c1) last
    assert play(enc, [], "c2: recover")[-1] == "c1's turn"
    assert play(enc, [], "c1: recover")[-1] == "== fight over in round 5: draw (round_cap) =="


def test_at_turn_refuses_a_combatant_out_of_the_fight():
    enc = fight(unit("c1", "A", c1_block()), unit("c2", "B", c2_block()),
                unit("c3", "B", c2_block(), defeated=True))
    with pytest.raises(ValueError, match="'c3' is out of the fight"):
        enc.at_turn("c3")
