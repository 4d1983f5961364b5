"""``arena suggest``'s budget is the whole command's wall time: ``WallClock`` counts what start-up
took, ``process_age`` measures it."""

from __future__ import annotations

import time

import pytest

from eval.suggest import RENDER_RESERVE, WallClock, process_age, suggest


def test_a_wall_clock_budget_leaves_what_start_up_did_not_spend():
    clock = WallClock(2.0, age=0.5)
    assert clock == 2.0  # still reads as the budget asked for
    assert clock.left() == pytest.approx(2.0 - 0.5 - RENDER_RESERVE, abs=0.05)
    assert WallClock(1.0, age=5.0).left() == 0.2  # spent already: the least search there is


def test_process_age_is_the_time_since_this_process_started():
    age = process_age()
    assert 0.0 < age < time.monotonic() + 1


def test_suggest_with_a_wall_clock_stays_inside_it():
    t0 = time.perf_counter()
    r = suggest("configs/situations/metanoia_duel_midfight.yaml", seconds=WallClock(1.0),
                precision=None)
    took = time.perf_counter() - t0
    assert r["seconds"] <= 1.0 and took < 1.0 + 0.5  # the table itself is quick
