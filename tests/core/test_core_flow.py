"""envs.core.flow: a procedure that stops for an off-turn decision and, once it is made, runs
again from the start with the same dice faces and the decisions so far."""

from __future__ import annotations

import pytest

from envs.core.actions import Action
from envs.core.dice import ScriptedDice
from envs.core.flow import Ctx, NeedDecision, ReplayDice, Window


def procedure(ctx: Ctx, log: list[str]) -> None:
    """An attack roll, a parry window, a damage roll, a second window."""
    (hit,) = ctx.dice.roll(20)
    log.append(f"hit {hit}")
    c = ctx.ask("knight", "parry", [Action("knight", "parry"), Action("knight", "pass")],
                {"total": hit})
    log.append(f"knight {c.kind}")
    dmg = ctx.dice.roll(6, 2)
    log.append(f"damage {sum(dmg)}")
    c = ctx.ask("duelist", "exert_dmg", [Action("duelist", "spend"), Action("duelist", "pass")])
    log.append(f"duelist {c.kind}")


def test_each_decision_stops_the_procedure_and_the_replay_reuses_the_faces():
    faces: list[list[int]] = []
    live = ScriptedDice([17, 4, 5])
    choices: list[str] = []
    log: list[str] = []
    with pytest.raises(NeedDecision) as first:
        procedure(Ctx(ReplayDice(faces, live), choices), log)
    assert first.value.window == Window("knight", "parry", ("knight: parry", "knight: pass"),
                                        (("total", 17),))
    assert log == ["hit 17"] and faces == [[20, 17]]
    choices.append("knight: pass")
    log.clear()
    with pytest.raises(NeedDecision) as second:
        procedure(Ctx(ReplayDice(faces, live), choices), log)
    assert second.value.window.actor == "duelist"
    assert log == ["hit 17", "knight pass", "damage 9"] and faces == [[20, 17], [6, 4, 5]]
    choices.append("duelist: spend")
    log.clear()
    procedure(Ctx(ReplayDice(faces, None), choices), log)  # no new dice are needed
    assert log == ["hit 17", "knight pass", "damage 9", "duelist spend"]


def test_a_replay_that_asks_for_other_dice_or_a_choice_no_longer_offered_fails_loudly():
    with pytest.raises(AssertionError, match="replay drew d6 x1"):
        ReplayDice([[20, 17]], None).roll(6)
    with pytest.raises(AssertionError, match="asked for new dice"):
        ReplayDice([], None).roll(20)
    ctx = Ctx(ReplayDice([], None), ["knight: dodge"])
    with pytest.raises(AssertionError, match="'knight: dodge' is no longer offered"):
        ctx.ask("knight", "parry", [Action("knight", "parry"), Action("knight", "pass")])


def test_a_window_round_trips_through_its_dict():
    w = Window("mage", "dispel", ("mage: negate", "mage: pass"), (("skill", "arcane_bolt"),))
    assert Window.from_dict(w.to_dict()) == w
