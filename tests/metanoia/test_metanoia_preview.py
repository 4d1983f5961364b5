"""The engine's preview of an action (envs/metanoia/rules/preview.py, issue item 6).

Odds are checked against the engine itself: every combination of die faces is played with forced
dice and the Actor's wins are counted; the preview's chance must be exactly that share. Landings
and costs are checked against the events of the same plays. The heuristic reads the preview and
calls no private engine method.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from metanoia_kit import ab, blk, c1_block, c2_block, fight, play, unit

from envs.core.dice import ScriptedDice
from envs.metanoia.rules.events import InjuryLanded, OpposedResolved, Paid, StatusChanged

ROOT = Path(__file__).resolve().parents[2]
ATTACK = "c1: attack deteriorating@rot_blade -> c2"


def duel(c1=None, c2=None, **c2_state):
    return fight(unit("c1", "A", c1 or c1_block()), unit("c2", "B", c2 or c2_block(), **c2_state))


def enumerate_plays(enc, labels, n_dice):
    """Every face combination of ``n_dice`` d6, played from a clone: (events of the last label,
    winner of the opposed roll) per combination."""
    for faces in itertools.product(range(1, 7), repeat=n_dice):
        e = enc.clone()
        dice = ScriptedDice(list(faces), sides=6)
        events = []
        for label in labels:
            events = e.apply(e.parse_action(label), dice)
        dice.check_exhausted()
        won = [x.winner for x in events if isinstance(x, OpposedResolved)]
        yield events, won[0] if won else None


def test_heuristic_reads_the_preview_and_no_private_engine_method():
    text = (ROOT / "agents" / "heuristic" / "metanoia.py").read_text(encoding="utf-8")
    assert "enc._" not in text
    assert re.search(r"\._[A-Za-z]", text) is None
    assert "enc.preview(" in text
    for rederived in ("opposed_odds", "pool_size", "realm_multiplier", "RULE0_GAP"):
        assert rederived not in text


@pytest.mark.parametrize(("kind", "reaction"), [
    ("attack", "none"), ("attack", "counter"), ("attack", "slip"), ("condition", "none"),
])
def test_declaration_odds_equal_the_engine_over_every_face(kind, reaction):
    enc = duel()
    label = f"c1: {kind} deteriorating@rot_blade -> c2"
    answer = f"c2: react {reaction}"
    pv = enc.preview(enc.parse_action(label), enc.parse_action(answer))
    assert (pv.actor, pv.reactor, pv.actor_dice, pv.reactor_dice) == ("c1", "c2", 2, 2)
    wins = 0
    for events, winner in enumerate_plays(enc, [label, answer], 4):
        if winner == "c1":
            wins += 1
            if kind == "attack":
                hit = next(e for e in events if isinstance(e, InjuryLanded))
                assert (hit.target, hit.severity, hit.slots) == ("c2", pv.lands.final,
                                                                 min(pv.lands.count, 3))
        elif reaction != "none":
            back = [e for e in events if isinstance(e, (InjuryLanded, StatusChanged))
                    and getattr(e, "target", getattr(e, "combatant", None)) == "c1"]
            assert back, "the reaction lands on a loss"
    assert pv.p_actor == pytest.approx(wins / 6**4, abs=1e-12)
    assert pv.p_actor + pv.p_reactor == pytest.approx(1.0)
    assert (pv.backlash is None) == (reaction == "none")
    if reaction == "counter":  # RULING R17: the Counter doubles the slots on a loss
        assert pv.lands.count == 2 and pv.backlash.mode == "injury"


def test_mark_ties_go_to_the_actor():
    enc = duel()
    pv = enc.preview(enc.parse_action("c1: mark -> c2"))
    wins = sum(w == "c1" for _, w in enumerate_plays(enc, ["c1: mark -> c2", "c2: react none"], 4))
    assert pv.p_actor == pytest.approx(wins / 6**4, abs=1e-12) and pv.lands is None


def test_reaction_preview_equals_the_engine_and_its_cost():
    enc = duel(c1_block(), c2_block(), strain=6)
    e = enc.clone()
    play(e, [], ATTACK)
    react = e.parse_action("c2: react counter +motive")
    pv = e.preview(react)
    assert (pv.actor_dice, pv.reactor_dice, pv.strain, pv.fuel) == (2, 3, 4, 0)
    wins = 0
    for events, winner in enumerate_plays(e, ["c2: react counter +motive"], 5):
        wins += winner == "c1"
        paid = next(x for x in events if isinstance(x, Paid))
        assert (paid.strain, paid.stacks) == (pv.strain, pv.fuel)
    assert pv.p_actor == pytest.approx(wins / 6**5, abs=1e-12)


def test_fuel_cost_comes_from_the_targets_stacks():
    enc = fight(unit("c1", "A", c1_block(), stacks=2), unit("c2", "B", c2_block()))
    play(enc, [], ATTACK)
    pv = enc.preview(enc.parse_action("c2: react counter"))
    log = play(enc, [1, 1, 1, 1], "c2: react counter")
    assert (pv.strain, pv.fuel) == (1, 2)
    assert "c2 pays 1 Strain and 2 stacks from c1 (reaction)" in log


def test_ambush_bars_the_assumed_reactive_keyword():
    enc = fight(unit("c1", "A", c1_block(), statuses={"obscured": 2}), unit("c2", "B", c2_block()))
    counter = enc.preview(enc.parse_action(ATTACK), enc.parse_action("c2: react counter"))
    plain = enc.preview(enc.parse_action(ATTACK), enc.parse_action("c2: react none"))
    assert counter == plain and counter.backlash is None and counter.lands.count == 1


def test_rule0_needs_no_dice():
    enc = duel(c1_block(realm=3))
    pv = enc.preview(enc.parse_action(ATTACK))
    assert (pv.p_actor, pv.p_reactor, pv.rule0, pv.actor_dice, pv.reactor_dice) == (1.0, 0.0, True,
                                                                                  0, 0)
    log = play(enc, [], ATTACK, "c2: react none")
    assert any("Realm Rule 0" in line for line in log)


def test_hide_chance_equals_the_engine():
    enc = fight(unit("h", "A", blk("tranquil")),
                unit("x", "B", blk(abilities=[ab("counter", 1)]), zone=0))
    pv = enc.preview(enc.parse_action("h: hide"))
    hidden = 0
    for faces in itertools.product(range(1, 7), repeat=2):
        e = enc.clone()
        events = e.apply(e.parse_action("h: hide"), ScriptedDice(list(faces), sides=6))
        hidden += any(isinstance(x, StatusChanged) and x.status == "obscured" for x in events)
    assert pv.reactor is None and pv.actor_dice == 2
    assert pv.p_actor == pytest.approx(hidden / 36, abs=1e-12)
