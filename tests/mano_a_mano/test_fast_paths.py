"""The shortcuts taken for speed give the same answers as the plain rules code they stand for."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from envs.core import SeededDice
from envs.mano_a_mano import rules
from envs.mano_a_mano.encoding import ENCODING
from envs.mano_a_mano.rules import legal, missiles, turns


def _random_states(encounter: str, seeds: range):
    """Every decision point of random fights (the encounter is yielded before each apply)."""
    rng = np.random.default_rng(7)
    for seed in seeds:
        dice = SeededDice(seed)
        enc = rules.new_encounter(encounter, None, dice)
        while not enc.is_over():
            yield enc
            legal = enc.legal_actions()
            enc.apply(legal[int(rng.integers(len(legal)))], dice)


ENCOUNTERS = rules.encounter_names()


@pytest.mark.parametrize("encounter", ENCOUNTERS)
def test_turn_exhausted_shortcut_matches_the_legal_list(encounter):
    checked = 0
    for enc in _random_states(encounter, range(12)):
        t = enc.stack[-1]
        f = enc.by_id[t.actor]
        slow = all(a.kind == "end" for a in legal.compute_legal(enc))
        assert turns.turn_exhausted(enc, f, t) == slow
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("encounter", ENCOUNTERS)
def test_batch_encoding_matches_one_by_one(encounter):
    for enc in _random_states(encounter, range(8)):
        cid = enc.current_actor()
        legal = enc.legal_actions()
        assert ENCODING.encode_actions(enc, cid, legal) == [
            ENCODING.encode_action(enc, cid, a) for a in legal
        ]


def test_weapon_features_follow_the_held_items():
    """Derived values are memoised per held items: dropping the machete changes the observation."""
    dice = SeededDice(0)
    enc = rules.new_encounter("duel_seed", None, dice)
    steven = enc.by_id["steven"]
    before = ENCODING.observe(enc, "steven").copy()
    machete = steven.held.pop("right")
    after = ENCODING.observe(enc, "steven")
    row = slice(0, 52)
    assert not np.array_equal(before[row], after[row])
    assert (
        steven.melee_defense() == 12
    )  # hands only (spec §11.10): 10 + agility 0 + natural weapons 2
    steven.held["right"] = machete
    assert steven.melee_defense() == 14
    assert np.array_equal(ENCODING.observe(enc, "steven"), before)


@pytest.mark.parametrize("encounter", ENCOUNTERS)
def test_decision_flags_match_the_category_rules(encounter):
    """``_can`` and ``_held_profile`` (computed once per decision) answer as ``_may_act``,
    ``_capacity_ok``, ``_bow`` and ``_free_hands`` do."""
    for enc in _random_states(encounter, range(6)):
        t = enc.stack[-1]
        f = enc.by_id[t.actor]
        can = legal.categories(enc, f, t)
        assert can.quick == legal.may_act(enc, f, t, quick=True)
        assert can.strenuous == legal.may_act(enc, f, t, quick=False)
        assert can.other == legal.may_act(enc, f, t, quick=False, other=True)
        assert can.quick_free == (
            legal.may_act(enc, f, t, quick=True) and legal.capacity_ok(enc, f, t, None, None)
        )
        held = legal.held_profile(f)
        assert held.bow == f.bow()
        assert list(held.free) == missiles.free_hands(enc, f)
        assert [w for w, *_ in held.strikes] == list(f.weapons())


@pytest.mark.parametrize("toughness", [0, 1, 7, 12])
def test_healthy_is_the_healthy_state(toughness):
    dice = SeededDice(0)
    f = rules.new_encounter("duel_seed", None, dice).by_id["steven"]
    f.block = dataclasses.replace(f.block, toughness=toughness)
    for stun in range(0, 3 * toughness + 2):
        for damage in range(0, 3 * toughness + 2):
            f.stun, f.damage = stun, damage
            assert f.healthy == (f.health == "healthy"), (stun, damage, toughness)


@pytest.mark.parametrize("encounter", ENCOUNTERS)
def test_legal_list_kept_by_apply_is_the_fresh_one(encounter):
    """``apply`` keeps the list its end-of-turn check computed; it must be what a fresh listing
    gives."""
    kept = 0
    for enc in _random_states(encounter, range(8)):
        if enc.listed is not None:
            kept += 1
            assert enc.listed == legal.compute_legal(enc)
    assert kept > 10


def test_no_cache_is_stored_inside_a_rules_object():
    """Derived values are kept in module-level caches, not in the stat block, the map or the
    encounter (issue item 7): the encounter keeps its declared fields after play and clone."""
    fresh = rules.new_encounter("skirmish_2v2", None, SeededDice(0))
    declared = set(vars(fresh))
    assert "_memo" not in {f.name for f in dataclasses.fields(rules.StatBlock)}
    last = None
    for enc in _random_states("skirmish_2v2", range(2)):
        ENCODING.observe(enc, enc.current_actor())
        last = enc
    assert last is not None
    assert set(vars(last)) == declared == set(vars(last.clone()))
    assert not hasattr(last.map, "_obs_around")
