"""Metaforce random play, determinism, clone and snapshot (spec §12.1: a pure engine with
injected dice; DESIGN.md: same seed and actions, same events)."""

from __future__ import annotations

import json
import random

import pytest
from test_metaforce_kit import block, detective, fight, fighter, play_random

from envs.core.dice import SeededDice
from envs.metaforce.rules import CORE, FULL, MetaforceEncounter


def party(seed: int, options=CORE):
    return fight((fighter(), "a", (2, 0)), (detective(), "a", (6, 0)),
                 (block("bandit"), "b", (3, 11)), (block("bandit2"), "b", (8, 11)),
                 (fighter("brute", protected=False, metaforce_user=False), "b", (5, 11)),
                 dice=SeededDice(seed), order=None, options=options)


@pytest.mark.parametrize("options", [CORE, FULL], ids=["core", "full"])
def test_random_play_ends_with_every_invariant_holding(options):
    for seed in range(15):
        enc = party(seed, options)
        play_random(enc, seed)
        assert enc.is_over()


def _log(enc: MetaforceEncounter, seed: int, steps: int | None = None) -> list[str]:
    rng = random.Random(seed)
    dice = SeededDice(seed + 1)
    out = []
    n = 0
    while not enc.is_over() and (steps is None or n < steps):
        acts = enc.legal_actions()
        a = acts[rng.randrange(len(acts))]
        out.append(a.label)
        out += [str(e) for e in enc.apply(a, dice)]
        n += 1
    return out


def test_the_same_seed_and_actions_give_the_same_events():
    assert _log(party(3), 7) == _log(party(3), 7)


def test_clone_and_snapshot_inside_a_deus_ex_window_continue_identically():
    found = 0
    for seed in range(40):
        enc = party(seed)
        enc.by_id["detective"].hp = 1  # a Metaforce user one hit from death
        rng, dice = random.Random(seed), SeededDice(seed)
        while not enc.is_over() and enc.decision != "deus_ex":
            acts = enc.legal_actions()
            enc.apply(acts[rng.randrange(len(acts))], dice)
        if enc.decision != "deus_ex":
            continue
        found += 1
        twin = enc.clone()
        again = MetaforceEncounter.from_snapshot(json.loads(json.dumps(enc.snapshot())))
        assert [a.label for a in again.legal_actions()] == [a.label for a in enc.legal_actions()]
        assert _log(enc, seed) == _log(twin, seed) == _log(again, seed)
    assert found >= 3


def test_a_clone_and_a_loaded_snapshot_replay_the_same_events():
    for seed in range(6):
        enc = party(seed)
        _log(enc, seed, steps=25)
        if enc.is_over():
            continue
        twin = enc.clone()
        again = MetaforceEncounter.from_snapshot(json.loads(json.dumps(enc.snapshot())))
        assert again.snapshot() == enc.snapshot()
        a, b, c = _log(enc, seed + 50), _log(twin, seed + 50), _log(again, seed + 50)
        assert a == b == c
