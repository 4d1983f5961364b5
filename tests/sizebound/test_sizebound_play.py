"""Sizebound: random legal play of the four §13.3 encounters to the end, with the state
invariants after every apply; determinism of events, clones and snapshots."""

from __future__ import annotations

import json
import random

import pytest

from envs.core.dice import SeededDice
from envs.sizebound.invariants import state_invariants
from envs.sizebound.rules import SizeboundEncounter, encounter_names, new_encounter

GAMES = 12
"""random games per encounter and rules here (`arena soak sizebound` plays the many)"""
STEP_LIMIT = 20000


def play(name: str, options: str, seed: int, check: bool = True) -> tuple[list[str], object]:
    enc = new_encounter(name, options)
    dice, rng = SeededDice(seed), random.Random(seed)
    log: list[str] = []
    steps = 0
    while not enc.is_over():
        legal = enc.legal_actions()
        assert legal, f"{name} seed {seed}: no legal action for {enc.current_actor()}"
        action = rng.choice(legal)
        log += [str(e) for e in enc.apply(action, dice)]
        if check:
            state_invariants(enc)
        steps += 1
        assert steps < STEP_LIMIT, f"{name} seed {seed}: no end after {steps} decisions"
    return log, enc.outcome()


@pytest.mark.parametrize("options", ["core", "full"])
@pytest.mark.parametrize("name", ["duel_blade_vs_shield", "skirmish_2v2", "party_vs_bear",
                                  "giant_vs_four"])
def test_random_play_ends_with_invariants(name: str, options: str) -> None:
    ends = set()
    for seed in range(GAMES):
        _, outcome = play(name, options, seed)
        ends.add(outcome.reason)  # type: ignore[attr-defined]
    assert ends <= {"defeat", "mutual_defeat", "round_cap"}


def test_encounter_names() -> None:
    assert encounter_names() == ["duel_blade_vs_shield", "skirmish_2v2", "party_vs_bear",
                                 "giant_vs_four"]


def test_same_seed_same_events() -> None:
    a, oa = play("skirmish_2v2", "full", 7, check=False)
    b, ob = play("skirmish_2v2", "full", 7, check=False)
    assert a == b and oa == ob and len(a) > 50


@pytest.mark.parametrize("cut", [3, 40, 150])
def test_clone_and_snapshot_continue_identically(cut: int) -> None:
    enc = new_encounter("party_vs_bear", "full")
    dice, rng = SeededDice(3), random.Random(3)
    for _ in range(cut):
        if enc.is_over():
            break
        enc.apply(rng.choice(enc.legal_actions()), dice)
    snap = enc.snapshot()
    json.dumps(snap)  # plain data
    twins = [enc, enc.clone(), SizeboundEncounter.from_snapshot(json.loads(json.dumps(snap)))]
    logs = []
    for t in twins:
        d, r = SeededDice(11), random.Random(11)
        log = []
        while not t.is_over():
            log += [str(e) for e in t.apply(r.choice(t.legal_actions()), d)]
        logs.append(log)
    assert logs[0] == logs[1] == logs[2]
    assert twins[1].snapshot() == twins[0].snapshot() == twins[2].snapshot()


def test_every_legal_label_parses_back() -> None:
    for name in encounter_names():
        enc = new_encounter(name, "full")
        dice, rng = SeededDice(5), random.Random(5)
        for _ in range(300):
            if enc.is_over():
                break
            legal = enc.legal_actions()
            assert len({a.label for a in legal}) == len(legal), "labels must be unique"
            for a in legal:
                assert enc.parse_action(a.label) == a
            enc.apply(rng.choice(legal), dice)
        json.dumps(enc.view(enc.current_actor() or enc.fighters[0].id))
