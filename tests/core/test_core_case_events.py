"""Scenario-event steps of case files (envs/core/cases.py): ``{event: ...}`` goes to the
encounter's ``scenario_event``; a system without one, an unreadable event text or a non-text
event is a one-line problem naming the file and the step (Palladium Revised's events:
envs/palladium_revised/rules/scenario.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envs.core.cases import load_case, run_case
from envs.core.data import DataError

PALLADIUM = """\
name: events
spec: "§11.1 W5"
description: a scenario event
system: palladium_revised
options: core
combatants:
  - {id: s, side: A, stats: sellsword, x: 80, state: {sdc: 40}}
  - {id: d, side: B, stats: duelist, x: 120}
dice: ["d20=1", "d20=15"]
steps:
  - event: "%s"
expect:
  combatants.s.sdc: %d
"""


def _case(tmp_path: Path, text: str):
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    return load_case(path)


def test_a_scenario_event_step_changes_the_fight(tmp_path):
    result = run_case(_case(tmp_path, PALLADIUM % ("pay s sdc 10 stamina 5", 30)))
    assert result.passed, result.problems


@pytest.mark.parametrize("event, problem", [
    ("heal s 5", "'steps[0].event': scenario event 'heal s 5': expected '<fall|restore|gain|"
                 "lose|pay> <combatant> ...'"),
    ("gain x sdc 5", "'steps[0].event': scenario event 'gain x sdc 5': unknown combatant 'x'; "
                     "combatants: s, d"),
    ("lose s morale 1d4*2", "'steps[0].event': scenario event 'lose s morale 1d4*2': expected "
                            "dice like '1d4-2' or '2d6', got '1d4*2'"),
    ("lose s morale 1d4-2", "'dice': at steps[0] 'lose s morale 1d4-2'"),
])
def test_a_bad_scenario_event_is_the_steps_one_line_error(tmp_path, event, problem):
    result = run_case(_case(tmp_path, PALLADIUM % (event, 40)))
    assert not result.passed and len(result.problems) == 1
    assert problem in result.problems[0] and "\n" not in result.problems[0]


def test_a_system_without_scenario_events_says_so(tmp_path, monkeypatch):
    from envs.palladium_revised.rules.state import PalladiumEncounter
    monkeypatch.delattr(PalladiumEncounter, "scenario_event")
    result = run_case(_case(tmp_path, PALLADIUM % ("gain s sdc 5", 40)))
    assert result.problems == [f"{tmp_path / 'case.yaml'}: case: field 'steps[0].event': "
                               "palladium_revised has no scenario events"]


def test_an_event_step_must_be_a_text(tmp_path):
    with pytest.raises(DataError, match=r"case.steps\[0\]: field 'event'"):
        _case(tmp_path, PALLADIUM.replace('"%s"', "5") % 40)


def test_a_stamina_loss_by_dice_keeps_the_threshold_and_stops_at_zero(tmp_path):
    text = PALLADIUM.replace("state: {sdc: 40}", "state: {sdc: 40, stamina: 3}").replace(
        'dice: ["d20=1", "d20=15"]', 'dice: ["d20=1", "d20=15", "d6=6", "d6=1"]').replace(
        '  - event: "%s"\n',
        '  - event: "lose s stamina 1d6-1"\n  - event: "lose s stamina 1d6-2"\n')
    text = text.replace("combatants.s.sdc: %d", "combatants.s.stamina: 0\n  events: "
                        '["s stamina -3 = 0 (lose 1d6-1)"]\n  absent_events: ["(lose 1d6-2)"]')
    result = run_case(_case(tmp_path, text))
    assert result.passed, result.problems
