"""Metaforce FULL appendages (spec §4.4, R-25, WE-38): ``frame_combos`` (several attacks in one
frame), attacks that occupy the legs (no movement) and sweeps (every foe within reach)."""

from __future__ import annotations

import pytest
from test_metaforce_kit import act, fight, labels, texts

from envs.core.data import DataError
from envs.metaforce.encoding import ENCODING
from envs.metaforce.rules import CORE, FULL, profile_of, stat_blocks
from envs.metaforce.rules.catalogue import stat_block_from_mapping

SAURIAN = {
    "id": "s", "name": "Saurian", "level": 1, "size": 1, "protected": False,
    "metaforce_user": False, "proficient": ["str"],
    "attributes": {"str": 3, "end": 2, "agi": 2, "per": 1, "int": 0, "cha": 0},
    "weapons": [
        {"id": "tail_swipe", "type": "natural", "hands": 0, "attr": "str", "tohit": 3,
         "damage_base": 4, "bonus_die": 6, "damage_type": "blunt", "reach_ft": 5,
         "appendages": ["tail", "legs", "arms"], "sweep": True},
        {"id": "claw_left", "type": "natural", "hands": 0, "attr": "str", "tohit": 3,
         "damage_base": 2, "bonus_die": 4, "damage_type": "piercing", "reach_ft": 5},
        {"id": "claw_right", "type": "natural", "hands": 0, "attr": "str", "tohit": 3,
         "damage_base": 2, "bonus_die": 4, "damage_type": "piercing", "reach_ft": 5}],
    "frame_combos": [["claw_left", "claw_right"]]}


def saurian():
    return profile_of(stat_block_from_mapping(SAURIAN, "test", "s"))


def bandit(cid):
    return profile_of(stat_blocks()["bandit"], cid)


def arena(options=FULL):
    return fight((saurian(), "a", (5, 5)), (bandit("b1"), "b", (5, 6)),
                 (bandit("b2"), "b", (4, 4)), (bandit("far"), "b", (9, 9)), options=options,
                 aware=False)


def test_a_combo_makes_both_claw_attacks_in_one_frame():
    enc = arena()
    assert saurian().frame_combos == (("claw_left", "claw_right"),)
    # S +2: proficient, and the unaware Bandit has not acted yet (R-8, FULL)
    ev = act(enc, "s: combo 0 -> b1", ["d12=6", "d12=2", "d4=3", "d12=7", "d12=1", "d4=1"])
    assert [t for t in texts(ev) if t.startswith("s attacks")] == [
        "s attacks b1 with claw_left: d12 6/2 (S +2) ToHit 9 vs E 6 D 6: direct",
        "s attacks b1 with claw_right: d12 7/1 (S +2) ToHit 10 vs E 6 D 6: direct"]
    assert enc.by_id["b1"].hp == 36 - 5 - 3 and enc.by_id["s"].frames_left == 1


def test_the_tail_swipe_hits_every_foe_around_and_allows_no_movement():
    enc = arena()
    ls = labels(enc)
    assert "s: attack tail_swipe -> b1" in ls and "s: attack tail_swipe retreat -> b1" not in ls
    assert not any("tail_swipe approach" in x for x in ls)
    assert "s: attack claw_left retreat -> b1" in ls  # a claw leaves the legs free
    act(enc, "s: attack tail_swipe -> b2", ["d12=6", "d12=2", "d6=3", "d12=5", "d12=1", "d6=2"])
    assert (enc.by_id["b1"].hp, enc.by_id["b2"].hp, enc.by_id["far"].hp) == (29, 30, 36)


def test_core_reads_neither_combos_nor_appendages():
    enc = arena(CORE)
    ls = labels(enc)
    assert not any(" combo " in x for x in ls) and "s: attack tail_swipe retreat -> b1" in ls
    act(enc, "s: attack tail_swipe -> b1", ["d12=6", "d12=2", "d6=3"])
    assert (enc.by_id["b1"].hp, enc.by_id["b2"].hp) == (29, 36)


def test_a_combo_has_its_index_in_the_aimed_block_in_a_frame():
    enc = arena()
    a = enc.parse_action("s: combo 0 -> b2")
    i = ENCODING.encode_action(enc, "s", a)
    assert i == 493 + 1 and ENCODING.decode_action(enc, "s", i) == a


def test_frame_combos_name_the_blocks_own_attacks():
    with pytest.raises(DataError, match="frame_combos.*'bite' is none of the block's attacks"):
        stat_block_from_mapping({**SAURIAN, "frame_combos": [["claw_left", "bite"]]}, "t", "s")
    with pytest.raises(DataError, match="two or more different"):
        stat_block_from_mapping({**SAURIAN, "frame_combos": [["claw_left"]]}, "t", "s")


@pytest.mark.parametrize("seed", range(4))
def test_random_saurian_fights_keep_the_invariants(seed):
    from test_metaforce_kit import play_random
    assert play_random(arena(), seed) > 0
