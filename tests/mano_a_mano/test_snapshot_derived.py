"""Mano a Mano snapshots: the derived values a rule depends on (issue item 12) and fights with a
situation's inline stat blocks rebuilt by ``from_snapshot``."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from test_core_turns import do, fight

from envs.core import ScriptedDice, SeededDice
from envs.mano_a_mano.rules import from_situation
from envs.mano_a_mano.rules.state import ManoEncounter

ROOT = Path(__file__).resolve().parents[2]


def test_snapshot_shows_defences_and_movement_left():
    enc = fight(("steven", "steven", "A", (0, 0)), ("clone", "clone", "B", (3, 0)))
    steven = enc.by_id["steven"]
    d = enc.snapshot()["combatants"]["steven"]["derived"]
    assert d["melee_defense"] == steven.melee_defense() == 14  # with the items he holds (spec §2.3)
    assert d["missile_defense"] == steven.block.missile_defense
    assert d["move_points_per_turn"] == steven.block.running
    assert d["movement_left"] == steven.block.running
    assert enc.snapshot()["combatants"]["clone"]["derived"]["movement_left"] is None  # not deciding
    do(enc, ScriptedDice([], sides=20), "steven: move 0")
    d = enc.snapshot()["combatants"]["steven"]["derived"]
    assert d["movement_left"] == steven.block.running - 1
    do(enc, ScriptedDice([], sides=20), "steven: rest")
    d = enc.snapshot()["combatants"]["steven"]["derived"]
    assert d["defense_bonus"] == 5  # RULING R3: until its next turn


def test_from_snapshot_rebuilds_inline_stat_blocks():
    path = ROOT / "configs" / "situations" / "mano_alley_ambush_inline.yaml"
    enc = from_situation(yaml.safe_load(path.read_text()), str(path))
    data = json.loads(json.dumps(enc.snapshot()))
    assert "stat_block" in data["combatants"]["thug_bar"]
    assert "stat_block" not in data["combatants"]["steven"]  # the catalogue's block
    back = ManoEncounter.from_snapshot(data)
    assert back.snapshot() == enc.snapshot()
    assert back.by_id["thug_bar"].block.items["iron_bar"] == enc.by_id["thug_bar"].block.items[
        "iron_bar"]
    dice_a, dice_b = SeededDice(4), SeededDice(4)
    for _ in range(12):  # the rebuilt fight plays exactly as the original
        if enc.is_over():
            break
        a = enc.legal_actions()[-1]
        assert back.legal_actions()[-1] == a
        assert [str(e) for e in enc.apply(a, dice_a)] == [str(e) for e in back.apply(
            back.parse_action(a.label), dice_b)]
