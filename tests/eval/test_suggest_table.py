"""``eval.suggest_table``: same-effect variants collapse into one row, rows sort by win %, tie
groups join rows whose 95% intervals overlap the group leader's, and the footer says what the
numbers mean."""

from __future__ import annotations

from agents.search import Candidate
from envs.core import Action
from eval.suggest_table import collapse, footer, sort_rows, tie_groups, tie_lines


def cand(label: str, results: list[float], sigs: list[int]) -> Candidate:
    c = Candidate(Action("npc", label))
    c.n, c.score, c.results, c.signatures = len(results), sum(results), results, sigs
    return c


def test_variants_with_the_same_signatures_collapse_and_keep_the_most_simulated_head():
    a = cand("move 0 +identity", [1, 0, 1, 1, 0, 1], [1, 2, 3, 4, 5, 6])
    b = cand("move 0 +motive", [1, 0, 1, 1], [1, 2, 3, 4])
    c = cand("move 1", [1, 0, 1, 1], [1, 2, 3, 9])  # one rollout differs: another effect
    d = cand("recover", [1, 0], [1, 2])  # too few rollouts to call it the same
    groups = collapse([b, c, a, d])
    assert [[x.action.kind for x in g] for g in groups] == [
        ["move 0 +identity", "move 0 +motive"],
        ["move 1"],
        ["recover"],
    ]


def row(win: float, lo: float, hi: float, n: int = 100) -> dict:
    return {"win_prob": win, "interval": [lo, hi], "rollouts": n}


def test_rows_sort_by_win_then_rollouts_and_unsimulated_last():
    rows = [row(0.4, 0.3, 0.5), row(0.0, 0.0, 1.0, n=0), row(0.6, 0.5, 0.7, n=50),
            row(0.6, 0.55, 0.65, n=300)]
    assert [(r["win_prob"], r["rollouts"]) for r in sort_rows(rows)] == [
        (0.6, 300), (0.6, 50), (0.4, 100), (0.0, 0)
    ]


def test_tie_groups_join_rows_whose_intervals_overlap_the_leaders():
    rows = [row(0.70, 0.66, 0.74), row(0.67, 0.63, 0.71), row(0.64, 0.60, 0.68),
            row(0.50, 0.45, 0.55), row(0.48, 0.40, 0.56), row(0.0, 0.0, 1.0, n=0)]
    # 0.68 >= 0.66: the third row overlaps the leader too; 0.55 < 0.66 starts a new group
    assert tie_groups(rows) == [[0, 1, 2], [3, 4], [5]]
    for g, members in enumerate(tie_groups(rows), start=1):
        for i in members:
            rows[i]["group"], rows[i]["rank"] = g, i + 1
    assert tie_lines(rows) == [
        "moves 1-3 cannot be told apart at this budget (their 95% intervals overlap); a longer "
        "budget (--seconds 10) may separate them",
        "moves 4-5 cannot be told apart at this budget (their 95% intervals overlap); a longer "
        "budget (--seconds 10) may separate them",
    ]


def test_the_footer_names_the_side_the_policy_and_the_rollouts_per_row():
    result = {"side": "B", "rollout_policy": "heuristic", "rollouts": 900, "seconds": 1.5,
              "seed": 4, "moves": [row(0.5, 0.4, 0.6, n=600), row(0.3, 0.2, 0.4, n=300),
                                   row(0.0, 0.0, 1.0, n=0)]}
    text = footer(result)
    assert text.startswith("win % = side B's estimated chance to win over a row's n rollouts")
    assert "heuristic play for both sides to the end with sampled dice; 95% Wilson" in text
    assert "n = 300-600 rollouts a row (900 in all, 1.50 s, seed 4)" in text
    assert "1 moves not simulated in the budget" in text


def test_the_footer_says_when_a_value_estimate_scored_the_rollouts():
    result = {"side": "A", "rollout_policy": "heuristic", "rollouts": 10, "seconds": 0.5,
              "seed": 0, "moves": [row(0.5, 0.4, 0.6, n=10)],
              "value": {"horizon": 0, "games": 800, "brier": 0.14, "brier_base_rate": 0.25}}
    text = footer(result)
    assert "until the actor's next turn, where a value estimate fitted on 800 simulated" in text
    assert "(held-out Brier 0.14, base rate 0.25)" in text and "Wilson's below 30" in text
