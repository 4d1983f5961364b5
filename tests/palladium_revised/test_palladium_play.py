"""Palladium Revised random legal play (spec §13.3 presets): state invariants after every apply,
every fight ends within the round cap, determinism (same seed and actions, same events), clone
and snapshot continue identically."""

from __future__ import annotations

import random

import pytest

from envs.core.dice import SeededDice
from envs.palladium_revised import rules as R
from envs.palladium_revised.invariants import state_invariants
from envs.palladium_revised.rules.state import PalladiumEncounter

GAMES = 30
PRESETS = R.encounter_names()


def _game(name: str, seed: int, check: bool = True) -> tuple[list[str], PalladiumEncounter]:
    enc = R.new_encounter(name, "core" if seed % 2 else "full", SeededDice(seed))
    rng, dice = random.Random(seed), SeededDice(seed + 10_000)
    log = [str(e) for e in enc.start_events]
    state_invariants(enc)
    steps = 0
    while not enc.is_over():
        legal = enc.legal_actions()
        assert legal and enc.current_actor() == legal[0].actor
        log += [str(e) for e in enc.apply(rng.choice(legal), dice)]
        if check:
            state_invariants(enc)
        steps += 1
        assert steps < 5_000, f"{name} seed {seed}: no end after {steps} decisions"
    return log, enc


def test_the_presets_are_the_five_of_the_spec():
    assert PRESETS == ["duel_sword_vs_rogue", "duel_reach", "skirmish_2v2", "ogre_ambush",
                       "goblin_pack"]


@pytest.mark.parametrize("name", PRESETS)
def test_random_play_keeps_the_invariants_and_ends(name: str):
    reasons = set()
    for seed in range(GAMES):
        _, enc = _game(name, seed)
        out = enc.outcome()
        assert out is not None and out.round <= enc.options.max_rounds
        reasons.add(out.reason)
        if out.reason == "defeat":
            losers = [s for s in enc.sides() if s.side != out.winner]
            assert not any(enc.is_active(m) for s in losers for m in s.members)
    assert reasons <= {"defeat", "mutual_defeat", "round_cap"}


def test_same_seed_same_actions_same_events():
    a, _ = _game("skirmish_2v2", 7, check=False)
    b, _ = _game("skirmish_2v2", 7, check=False)
    assert a == b and len(a) > 100


def test_a_clone_and_a_snapshot_continue_identically():
    enc = R.new_encounter("goblin_pack", "core", SeededDice(3))
    rng, dice = random.Random(3), SeededDice(4)
    steps = 0
    while steps < 20 or enc.decision not in ("defense", "opportunity"):  # inside a window
        enc.apply(rng.choice(enc.legal_actions()), dice)
        steps += 1
        assert not enc.is_over(), "the fight ended before a reaction window"
    twins = [enc.clone(), PalladiumEncounter.from_snapshot(enc.snapshot())]
    assert twins[1].snapshot() == enc.snapshot()
    runs = []
    for e in [enc, *twins]:
        r, d = random.Random(9), SeededDice(11)
        log = []
        while not e.is_over():
            log += [str(x) for x in e.apply(r.choice(e.legal_actions()), d)]
        runs.append((log, e.outcome()))
    assert runs[0] == runs[1] == runs[2]
