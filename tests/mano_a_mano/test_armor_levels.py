"""Armor avoidance at any level (spec §2.6): ``avoid_N`` avoids the outer N absorption levels,
with the cover of every avoided region added to the difficulty; forced d20s."""

from __future__ import annotations

import dataclasses

import pytest

from envs.core import ScriptedDice
from envs.core.hexgrid import HexMap
from envs.mano_a_mano.rules import parse_options, stat_blocks
from envs.mano_a_mano.rules.catalogue import Region, Worn
from envs.mano_a_mano.rules.modifiers import avoid_depth, avoid_name
from envs.mano_a_mano.rules.setup import start_turn
from envs.mano_a_mano.rules.state import Fighter, ManoEncounter

WORN = (Worn("leather_jacket", 3.75, Region(5, 2)), Worn("crash_helmet", 1.5, Region(2, 5)),
        Worn("gauntlets", 0.5, Region(1, 3)))
"""regions (5, 2), (2, 5), (1, 3): absorption levels 5, 3, 2, 0"""


def _fight(levels: str) -> ManoEncounter:
    blocks = stat_blocks()
    armored = dataclasses.replace(blocks["clone"], armor=WORN)
    steven = blocks["steven"]
    fighters = [Fighter("steven", steven, "A", 0, (0, 0), held=dict(steven.held)),
                Fighter("clone", armored, "B", 0, (1, 0))]
    enc = ManoEncounter(fighters, ["steven", "clone"], HexMap.hexagon(7),
                        parse_options({"armor_levels": levels}))
    start_turn(enc)
    return enc


def test_compact_offers_next_and_all_any_offers_every_level():
    assert _fight("compact").armor_options(_fight("compact").by_id["clone"]) == [
        (), ("avoid_next",), ("avoid_all",)]
    enc = _fight("any")
    assert enc.armor_options(enc.by_id["clone"]) == [
        (), ("avoid_next",), ("avoid_2",), ("avoid_all",)]
    assert "steven: strike quick machete avoid_2 -> clone" in {a.label for a in enc.legal_actions()}


@pytest.mark.parametrize(("avoid", "difficulty", "absorption"), [
    ((), 12, 5),                # nothing avoided: the helmet's 5
    (("avoid_next",), 14, 3),   # the helmet (cover 2): the gauntlets' 3 is left
    (("avoid_2",), 15, 2),      # helmet and gauntlets (2 + 1): the jacket's 2
    (("avoid_all",), 20, 0),    # all three (2 + 1 + 5): nothing left
])
def test_each_level_costs_the_cover_of_what_it_avoids(avoid, difficulty, absorption):
    enc = _fight("any")
    clone = enc.by_id["clone"]
    label = " ".join(("steven: strike quick machete", *avoid, "-> clone"))
    p = enc.preview(enc.parse_action(label))
    assert p is not None and (p.absorption, p.difficulty) == (absorption, difficulty)
    events = enc.apply(enc.parse_action(label), ScriptedDice([20], sides=20))  # natural 20 hits
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    harmed = next(e for e in events if type(e).__name__ == "Harmed")
    assert (roll.difficulty, harmed.absorption) == (difficulty, absorption)
    assert clone.damage == 5 - absorption


def test_names_and_depths_are_inverse_and_bad_levels_fail():
    for n in range(1, 5):
        assert [avoid_depth(avoid_name(k, n), n) for k in range(1, n + 1)] == list(range(1, n + 1))
    with pytest.raises(ValueError, match="1 level"):
        avoid_depth("avoid_2", 1)
    with pytest.raises(ValueError, match="unknown armor avoidance"):
        avoid_depth("avoid_some", 3)
    with pytest.raises(ValueError, match="armor_levels"):
        parse_options({"armor_levels": "every"})
