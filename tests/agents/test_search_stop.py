"""``search`` stops early at a precision, spends a rollout budget alike on one process or two,
and with a value estimate cuts rollouts at the actor's next turn."""

from __future__ import annotations

from pathlib import Path

from agents.search import NORMAL_FROM, SearchAgent, collapse
from envs.core.cases import encounter_from_situation, load_situation

ROOT = Path(__file__).resolve().parents[2]
FINISH = str(ROOT / "configs" / "situations" / "metanoia_finishing_blow.yaml")


def fight():
    return encounter_from_situation(load_situation(FINISH), FINISH)


def test_a_precision_stops_the_search_once_the_top_three_are_that_precise():
    cands = SearchAgent(seed=0, rollouts=5000, keep=3, precision=0.05).evaluate(fight())
    spent = sum(c.n for c in cands)
    assert spent < 5000  # stopped early: the finishing blow is clear
    rows = sorted((g[0] for g in collapse(cands)), key=lambda c: (-c.win_prob, -c.n))
    for c in rows[:3]:  # the rows arena suggest shows first
        assert (c.interval[1] - c.interval[0]) / 2 <= 0.05
    assert all(c.n <= rows[0].n for c in cands)
    # the precision phase spent its rollouts on the rows read, not on every move alike
    assert min(c.n for c in rows[:3]) > 2 * sorted(c.n for c in rows)[len(rows) // 2]


def test_the_precision_phase_gives_a_move_screened_on_few_rollouts_a_chance_to_climb():
    cands = SearchAgent(seed=0, rollouts=5000, keep=3, precision=0.05).evaluate(fight())
    first = min(c.n for c in cands)  # the first round's batch: every move screened on it
    rows = sorted((g[0] for g in collapse(cands)), key=lambda c: (-c.win_prob, -c.n))
    challengers = [c for c in rows[3:] if first < c.n < rows[2].n]
    assert first == 2 and challengers  # 41 moves: 2 each first, then 4 more for challengers
    assert all((c.n - first) % 4 == 0 for c in challengers)


def test_two_processes_give_the_answer_of_one_for_a_rollout_budget():
    one = SearchAgent(seed=3, rollouts=300, keep=3, workers=1).evaluate(fight())
    two = SearchAgent(seed=3, rollouts=300, keep=3, workers=2).evaluate(fight())
    assert [(c.action.label, c.results, c.signatures) for c in one] == [
        (c.action.label, c.results, c.signatures) for c in two
    ]


def test_without_a_value_estimate_every_rollout_ends_the_fight():
    cands = SearchAgent(seed=1, rollouts=200, keep=3, value=None).evaluate(fight())
    assert all(r in (0.0, 0.5, 1.0) for c in cands for r in c.results)
    cut = SearchAgent(seed=1, rollouts=200, keep=3, value=lambda enc, side: 0.4).evaluate(fight())
    scored = [r for c in cut for r in c.results if r == 0.4]
    assert scored  # some rollouts were still going at the actor's next turn
    many = [c for c in cut if c.n >= NORMAL_FROM and 0.4 in c.results]
    for c in many:  # value-scored results get the normal interval of their mean
        lo, hi = c.interval
        assert lo <= c.win_prob <= hi
