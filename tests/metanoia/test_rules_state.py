"""Option derivation, clone() independence, snapshot round trips and random play-outs (spec §2.4,
RULING R6, §11.1 S0/S9, §13.4; envs/core/encounter.py protocol)."""

from __future__ import annotations

import random

import pytest
from metanoia_kit import ab, blk, c1_block, c2_block, item

from envs.core.dice import SeededDice
from envs.metanoia.rules import MetanoiaEncounter, encounter_names, new_encounter, stat_blocks
from envs.metanoia.rules.catalogue import parse_stat_block


def options_of(block):
    return [(o.name, o.keyword, o.rank, o.cost, o.origin) for o in block.options]


def test_s0_option_lists():
    """§11.1 S0: C1's options = [Deteriorating 3, item, cost 0]; C2's reactive options =
    [Counter 3 cost 3, Slip 4 cost 1]."""
    c1 = parse_stat_block(c1_block(), "test", "c1", "c1")
    c2 = parse_stat_block(c2_block(), "test", "c2", "c2")
    assert options_of(c1) == [("deteriorating@rot_blade", "deteriorating", 3, 0, "item")]
    assert [(o.name, o.rank, o.cost) for o in c2.reactive_options] == [
        ("counter", 3, 3),
        ("slip", 4, 1),
    ]


def test_s9_option_list_ability_item_pair():
    """§11.1 S9, RULING R6: ability alone, item alone, then the pair (ranks add, cost of the
    ability)."""
    b = parse_stat_block(blk(polarity="decay", abilities=[ab("deteriorating", 3)],
                             items=[item("sword", 2, "deteriorating")]), "test", "c1", "c1")
    assert options_of(b) == [("deteriorating", "deteriorating", 3, 1, "ability"),
                             ("deteriorating@sword", "deteriorating", 2, 0, "item"),
                             ("deteriorating+sword", "deteriorating", 5, 1, "pair")]


def test_pair_polarity_from_ability_reach_from_item():
    """RULING R6: a pair's polarity is the ability's, its reach the item's."""
    b = parse_stat_block(
        blk(
            abilities=[ab("strike", 1, polarity="will", reach="close")],
            items=[item("bow", 2, {"keyword": "strike", "reach": "far"}, polarity="storm")],
        ),
        "test",
        "x",
        "x",
    )
    pair = b.options[-1]
    assert (pair.name, pair.polarity, pair.reach, pair.rank) == ("strike+bow", "will", "far", 3)


def test_section_13_4_option_derivation():
    """§13.4 derivation check for the loader."""
    blocks = stat_blocks()
    assert [(o.keyword, o.rank, o.origin) for o in blocks["rotblade_duelist"].options] == [
        ("deteriorating", 2, "ability"), ("exploit", 2, "ability"), ("deteriorating", 3, "item"),
        ("deteriorating", 5, "pair")]
    assert [(o.keyword, o.rank) for o in blocks["hollow_sentinel"].options] == [
        ("counter", 2), ("ward", 2), ("strike", 2), ("pin", 2)]
    assert [(o.keyword, o.rank) for o in blocks["field_medic"].reactive_options] == [("ward", 1)]
    assert [(o.keyword, o.rank) for o in blocks["shadow_warden"].reactive_options] == [
        ("counter", 3),
        ("slip", 4),
    ]
    assert [(o.keyword, o.rank) for o in blocks["dusk_wyrm"].reactive_options] == [("counter", 2)]
    assert [o.cost for o in blocks["rotblade_duelist"].options] == [1, 0, 0, 1]


def _random_steps(enc, dice, rng, n):
    """Play up to ``n`` random legal actions; returns the event log text."""
    log = []
    for _ in range(n):
        if enc.is_over():
            break
        action = rng.choice(enc.legal_actions())
        log.extend(str(e) for e in enc.apply(action, dice))
    return log


def test_clone_is_independent():
    """Encounter protocol: clone() is an independent deep copy (playing one never changes the
    other)."""
    enc = new_encounter("pvp_2v2", "full", SeededDice(1))
    _random_steps(enc, SeededDice(2), random.Random(2), 5)
    before = enc.snapshot()
    legal_before = [a.label for a in enc.legal_actions()]
    twin = enc.clone()
    assert twin.snapshot() == before
    _random_steps(twin, SeededDice(3), random.Random(3), 40)
    assert twin.snapshot() != before
    assert enc.snapshot() == before
    assert [a.label for a in enc.legal_actions()] == legal_before
    _random_steps(enc, SeededDice(4), random.Random(4), 10)
    assert enc.snapshot() != before


@pytest.mark.parametrize("name", encounter_names())
def test_snapshot_round_trip_and_same_continuation(name):
    """Encounter protocol: from_snapshot(snapshot()) gives an equal state, at turn and at off-turn
    decisions, and continuing with the same dice and choices gives the same events."""
    enc = new_encounter(name, "full", SeededDice(5))
    rng = random.Random(5)
    dice = SeededDice(6)
    phases = set()
    for _ in range(60):
        if enc.is_over():
            break
        snap = enc.snapshot()
        copy = MetanoiaEncounter.from_snapshot(snap)
        assert copy.snapshot() == snap
        assert [a.label for a in copy.legal_actions()] == [a.label for a in enc.legal_actions()]
        phases.add(enc.phase)
        action = rng.choice(enc.legal_actions())
        seed = rng.randrange(10**6)
        got = [str(e) for e in enc.apply(action, SeededDice(seed))]
        again = [str(e) for e in copy.apply(copy.parse_action(action.label), SeededDice(seed))]
        assert got == again
        assert copy.snapshot() == enc.snapshot()
    assert "react" in phases
    del dice


def test_snapshot_of_finished_fight_round_trips():
    """A finished fight's snapshot (outcome set) round-trips too."""
    enc = new_encounter("duel_seed", "core", SeededDice(9))
    rng = random.Random(9)
    dice = SeededDice(10)
    while not enc.is_over():
        enc.apply(rng.choice(enc.legal_actions()), dice)
    snap = enc.snapshot()
    copy = MetanoiaEncounter.from_snapshot(snap)
    assert copy.snapshot() == snap and copy.is_over() and copy.outcome() == enc.outcome()


@pytest.mark.parametrize("rules", ["core", "full"])
def test_random_playouts_keep_invariants(rules):
    """§2.1/§9 invariants under random play of every encounter: Strain in 0..max, stacks 0..10,
    injuries <= slots, Convictions 0..max, legal actions never empty while the fight is on."""
    for name in encounter_names():
        for seed in range(4):
            rng = random.Random(seed)
            dice = SeededDice(seed)
            enc = new_encounter(name, rules, dice)
            steps = 0
            while not enc.is_over():
                acts = enc.legal_actions()
                assert acts, f"{name}: no legal action in phase {enc.phase}"
                enc.apply(rng.choice(acts), dice)
                steps += 1
                assert steps < 5000
                for f in enc.fighters:
                    b = f.block
                    assert 0 <= f.strain <= b.strain_max
                    assert 0 <= f.stacks <= 10
                    assert len(f.injuries) <= b.injury_slots
                    assert f.conv is None or 0 <= f.conv <= b.conv_max
            assert enc.outcome() is not None


@pytest.mark.parametrize("phase", ["intercept", "challenge", "react"])
def test_snapshot_round_trip_off_turn_phases(phase):
    """Snapshots taken while an intercept, challenge or react decision is pending restore the
    pending declaration exactly; the same next choice and dice give the same events."""
    from metanoia_kit import fight, unit

    a = blk(abilities=[ab("exploit", 2)], items=[item("club", 1, "strike")])
    enc = fight(
        unit("a", "A", a),
        unit("t", "B", blk(abilities=[ab("counter", 1)]), stacks=3),
        unit("g", "B", blk(abilities=[ab("ward", 1)]), guarding="t"),
        options={"version": "full", "round_limit": 3},
    )
    steps = {"intercept": ["a: attack exploit -> t"], "challenge": ["a: move 0 +motive"],
             "react": ["a: attack exploit -> t", "g: intercept yes"]}[phase]
    for label in steps:
        enc.apply(enc.parse_action(label), SeededDice(0))
    assert enc.phase == phase
    snap = enc.snapshot()
    copy = MetanoiaEncounter.from_snapshot(snap)
    assert copy.snapshot() == snap
    for e in (enc, copy):
        assert e.legal_actions()
    choice = enc.legal_actions()[-1].label
    got = [str(e) for e in enc.apply(enc.parse_action(choice), SeededDice(11))]
    again = [str(e) for e in copy.apply(copy.parse_action(choice), SeededDice(11))]
    assert got == again and copy.snapshot() == enc.snapshot()
