"""Tournament report from game records: statistics, ratings, Markdown and plots (eval/report.py).

The expected numbers below are worked out by hand from ``RECORDS``:

- duel (sides A/B), paired seeds with swapped sides:
  seed 1 alpha-beta (alpha wins twice), seed 2 alpha-gamma (alpha wins twice),
  seed 3 beta-gamma (each side A wins once: beta then gamma), seed 4 beta-gamma (two draws).
- ambush (sides red/blue), seed 5 beta-gamma: red wins both, so beta and gamma win one each.

So alpha wins all 4 of its games; beta vs gamma is 2 wins each and 2 draws (score 3 of 6, 50%),
and beta and gamma are in exactly symmetric positions.
"""

from __future__ import annotations

import doctest
import json
import math
from pathlib import Path

import pytest

from eval import report
from eval.report import (
    RecordError,
    fit_elo,
    load_records,
    plot_learning_curve,
    plot_winrate_heatmap,
    render_markdown,
    summarize,
    wilson,
    write_report,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def game(encounter, seed, sides, winner, rounds, usage=None, system="toy"):
    rec = {
        "system": system,
        "encounter": encounter,
        "options": None,
        "seed": seed,
        "agents": sides,
        "winner": winner,
        "reason": "round_cap" if winner is None else "defeated",
        "rounds": rounds,
        "actions": [],
    }
    if usage is not None:
        rec["usage"] = usage
    return rec


RECORDS = [
    game("duel", 1, {"A": "alpha", "B": "beta"}, "A", 4,
         usage={"A": {"attack": 3, "hide": 1}, "B": {"attack": 2}}),
    game("duel", 1, {"A": "beta", "B": "alpha"}, "B", 6,
         usage={"A": {"attack": 4}, "B": {"attack": 1, "hide": 2}}),
    game("duel", 2, {"A": "alpha", "B": "gamma"}, "A", 3),
    game("duel", 2, {"A": "gamma", "B": "alpha"}, "B", 5),
    game("duel", 3, {"A": "beta", "B": "gamma"}, "A", 7),
    game("duel", 3, {"A": "gamma", "B": "beta"}, "A", 9),
    game("duel", 4, {"A": "beta", "B": "gamma"}, None, 10),
    game("duel", 4, {"A": "gamma", "B": "beta"}, None, 10),
    game("ambush", 5, {"red": "beta", "blue": "gamma"}, "red", 3),
    game("ambush", 5, {"red": "gamma", "blue": "beta"}, "red", 5),
]


@pytest.fixture(scope="module")
def summary():
    return summarize(RECORDS)


# ---------------------------------------------------------------- Wilson


def test_wilson_known_values():
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)
    lo, hi = wilson(3, 6)  # p = 0.5: symmetric around one half
    assert lo == pytest.approx(0.18761, abs=1e-5)
    assert hi == pytest.approx(1 - lo)
    lo, hi = wilson(2, 2)
    assert (round(lo, 4), hi) == (0.3424, 1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 4)[0] == 0.0


def test_wilson_accepts_half_points():
    lo, hi = wilson(2.5, 5)  # 2 wins + 1 draw of 5
    assert lo == pytest.approx(1 - hi)
    assert lo < 0.5 < hi


def test_doctests_pass():
    from envs.core import stats

    result = doctest.testmod(stats)
    assert result.attempted >= 2 and result.failed == 0
    assert report.wilson is stats.wilson  # the report uses the shared interval


# ---------------------------------------------------------------- pairs, agents, encounters


def test_pair_scores(summary):
    ab = summary.pair("alpha", "beta")
    assert (ab.games, ab.wins, ab.draws, ab.losses, ab.score, ab.win_rate) == (2, 2, 0, 0, 2.0, 1.0)
    assert ab.mean_rounds == 5.0  # (4 + 6) / 2
    ba = summary.pair("beta", "alpha")
    assert (ba.games, ba.wins, ba.losses, ba.score, ba.win_rate) == (2, 0, 2, 0.0, 0.0)

    bg = summary.pair("beta", "gamma")
    assert (bg.games, bg.wins, bg.draws, bg.losses) == (6, 2, 2, 2)
    assert bg.score == 3.0 and bg.win_rate == 0.5
    assert bg.interval == pytest.approx((0.18761, 0.81239), abs=1e-5)
    assert bg.mean_rounds == pytest.approx(44 / 6)  # 7 + 9 + 10 + 10 + 3 + 5
    gb = summary.pair("gamma", "beta")
    assert (gb.wins, gb.draws, gb.losses, gb.score) == (2, 2, 2, 3.0)


def test_agent_totals(summary):
    alpha, beta, gamma = (summary.agent_stats[a] for a in ("alpha", "beta", "gamma"))
    assert (alpha.games, alpha.wins, alpha.draws, alpha.losses, alpha.score) == (4, 4, 0, 0, 4.0)
    assert (beta.games, beta.wins, beta.draws, beta.losses, beta.score) == (8, 2, 2, 4, 3.0)
    assert (gamma.games, gamma.score) == (8, 3.0)
    assert beta.score_rate == pytest.approx(3 / 8)
    assert (summary.games, summary.seeds, summary.systems) == (10, 5, ["toy"])


def test_encounter_stats(summary):
    by_name = {e.encounter: e for e in summary.encounters}
    assert sorted(by_name) == ["ambush", "duel"]
    duel = by_name["duel"]
    assert duel.games == 8
    assert duel.mean_rounds == pytest.approx(54 / 8)
    assert duel.sides == ["A", "B"]
    assert duel.side_wins == {"A": 4, "B": 2} and duel.draws == 2
    assert (duel.side_win_rate("A"), duel.side_win_rate("B"), duel.draw_rate) == (0.5, 0.25, 0.25)
    pairing = {p.agents: p for p in duel.pairings}
    assert list(pairing) == [("alpha", "beta"), ("alpha", "gamma"), ("beta", "gamma")]
    assert pairing["alpha", "beta"].mean_rounds == 5.0
    assert pairing["alpha", "gamma"].mean_rounds == 4.0
    bg = pairing["beta", "gamma"]
    assert (bg.games, bg.mean_rounds, bg.first_score, bg.draws) == (4, 9.0, 2.0, 2)
    assert (bg.side_win_rate("A"), bg.side_win_rate("B")) == (0.5, 0.0)

    ambush = by_name["ambush"]
    assert ambush.sides == ["blue", "red"]
    assert (ambush.side_win_rate("red"), ambush.side_win_rate("blue"), ambush.draws) == (
        1.0,
        0.0,
        0,
    )
    assert ambush.mean_rounds == 4.0
    assert ambush.usage == {}


def test_action_usage_sums_the_sides_an_agent_played(summary):
    duel = next(e for e in summary.encounters if e.encounter == "duel")
    # alpha: side A of game 1 (attack 3, hide 1) + side B of game 2 (attack 1, hide 2)
    assert duel.usage == {"alpha": {"attack": 4, "hide": 3}, "beta": {"attack": 6}}
    assert list(duel.usage["alpha"]) == ["attack", "hide"]  # most used first
    assert duel.usage_share("alpha") == pytest.approx({"attack": 4 / 7, "hide": 3 / 7})
    assert duel.usage_share("gamma") == {}


# ---------------------------------------------------------------- ratings


def test_elo_order_symmetry_and_mean(summary):
    ratings = fit_elo(RECORDS)
    assert set(ratings) == {"alpha", "beta", "gamma"}
    assert sum(ratings.values()) / 3 == pytest.approx(1500.0)
    assert math.isfinite(ratings["alpha"])
    assert ratings["alpha"] > ratings["beta"] + 100
    assert ratings["beta"] == pytest.approx(ratings["gamma"], abs=1e-6)
    assert summary.agents[0] == "alpha"
    assert summary.agents[1:] == ["beta", "gamma"]  # tie broken by name
    assert fit_elo(RECORDS) == ratings  # deterministic
    assert fit_elo(list(reversed(RECORDS))) == pytest.approx(ratings)


def test_elo_even_pair_is_equal():
    recs = [game("duel", 1, {"A": "x", "B": "y"}, "A", 3),
            game("duel", 1, {"A": "y", "B": "x"}, "A", 3),
            game("duel", 2, {"A": "x", "B": "y"}, None, 3)]
    assert fit_elo(recs) == pytest.approx({"x": 1500.0, "y": 1500.0})


def test_elo_matches_the_documented_prior():
    # x beats y in all 4 games. By symmetry the strengths are +t and -t; the stationarity condition
    # of the log-posterior (4 games + one virtual draw each against a 0-strength anchor) for x is
    # 4 * (1 - sigmoid(2t)) + (0.5 - sigmoid(t)) = 0.
    recs = [game("duel", s, {"A": "x", "B": "y"} if s % 2 else {"A": "y", "B": "x"},
                 "A" if s % 2 else "B", 3) for s in range(4)]

    def sigmoid(v):
        return 1 / (1 + math.exp(-v))

    lo, hi = 0.0, 20.0
    for _ in range(200):
        t = (lo + hi) / 2
        if 4 * (1 - sigmoid(2 * t)) + 0.5 - sigmoid(t) > 0:
            lo = t
        else:
            hi = t
    expected = 400 / math.log(10) * t
    ratings = fit_elo(recs)
    assert ratings["x"] == pytest.approx(1500 + expected, abs=1e-6)
    assert ratings["y"] == pytest.approx(1500 - expected, abs=1e-6)
    assert 200 < expected < 600  # finite despite a perfect record


def test_self_play_is_left_out_of_matrix_and_ratings():
    recs = RECORDS + [game("duel", 9, {"A": "beta", "B": "beta"}, "A", 2)]
    s = summarize(recs)
    assert ("beta", "beta") not in s.pairs
    assert s.agent_stats["beta"].games == 8
    assert fit_elo(recs) == pytest.approx(fit_elo(RECORDS))
    duel = next(e for e in s.encounters if e.encounter == "duel")
    assert duel.games == 9
    assert [p for p in duel.pairings if p.agents == ("beta", "beta")][0].games == 1


def test_summarize_rejects_bad_input():
    with pytest.raises(RecordError, match="no game records"):
        summarize([])
    bad = dict(RECORDS[0], winner="C")
    with pytest.raises(RecordError, match="record 2: field 'winner'"):
        summarize([RECORDS[0], bad])


# ---------------------------------------------------------------- Markdown


def test_markdown(summary):
    md = render_markdown(summary, {"Win-rate matrix": "winrate.png"})
    assert md.startswith("# Tournament report: toy\n")
    assert "- Encounters: ambush, duel" in md
    assert "- Games: 10 over 5 seeds" in md
    assert "Row's score against column; draws count half; 95% Wilson interval" in md
    lines = md.splitlines()
    header = next(line for line in lines if line.startswith("| agent \\ opponent"))
    assert header == "| agent \\ opponent | alpha | beta | gamma |"
    row = {line.split(" | ")[0]: line for line in lines if line.startswith("| **")}
    assert (
        row["| **alpha**"]
        == "| **alpha** | \u2014 | 100.0% (34.2\u2013100.0) | 100.0% (34.2\u2013100.0) |"
    )
    assert (
        row["| **beta**"] == "| **beta** | 0.0% (0.0\u201365.8) | \u2014 | 50.0% (18.8\u201381.2) |"
    )
    assert "| 1 | alpha |" in md and "| 3 | gamma |" in md
    alpha_elo = round(summary.ratings["alpha"])
    assert f"| 1 | alpha | {alpha_elo} | 4 | 4-0-0 | 100.0% |" in md
    assert "| 2 | beta | " in md and " | 8 | 2-2-4 | 37.5% |" in md
    assert "| beta vs gamma | 4 | 9.0 | 50.0% | A 50.0%, B 0.0% | 50.0% |" in md
    assert "| beta vs gamma | 2 | 4.0 | 50.0% | blue 0.0%, red 100.0% | 0.0% |" in md
    assert "| alpha | 7 | attack 57%, hide 43% |" in md
    assert "| beta | 6 | attack 100% |" in md
    assert "![Win-rate matrix](winrate.png)" in md
    assert md.endswith("\n") and not md.endswith("\n\n")


def test_markdown_without_usage_or_plots():
    recs = [{k: v for k, v in r.items() if k != "usage"} for r in RECORDS]
    md = render_markdown(summarize(recs))
    assert "No action usage recorded." in md
    assert "![" not in md


# ---------------------------------------------------------------- loading


def test_load_records_roundtrip(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in RECORDS[:3]) + "\n\n", encoding="utf-8")
    recs = load_records(path)
    assert len(recs) == 3
    assert recs[0]["usage"] == RECORDS[0]["usage"]
    assert recs[2]["usage"] == {}


@pytest.mark.parametrize(("change", "field", "text"), [
    ({"winner": "C"}, "winner", "must be one of the sides A, B or null"),
    ({"seed": "3"}, "seed", "must be an integer"),
    ({"rounds": -1}, "rounds", "must be an integer >= 0"),
    ({"agents": {"A": "x"}}, "agents", "exactly 2"),
    ({"usage": {"Z": {"attack": 1}}}, "usage", "not one of A, B"),
    ({"system": None}, "system", "non-empty string"),
])
def test_load_records_names_file_line_and_field(tmp_path, change, field, text):
    path = tmp_path / "games.jsonl"
    bad = dict(RECORDS[2], **change)
    path.write_text(f"{json.dumps(RECORDS[0])}\n\n{json.dumps(bad)}\n", encoding="utf-8")
    with pytest.raises(RecordError) as err:
        load_records(path)
    message = str(err.value)
    assert message.startswith(f"{path} line 3: field '{field}' ")
    assert text in message
    assert "\n" not in message


def test_load_records_missing_field_bad_json_and_missing_file(tmp_path):
    path = tmp_path / "games.jsonl"
    rec = {k: v for k, v in RECORDS[0].items() if k != "winner"}
    path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"line 1: field 'winner' is missing$"):
        load_records(path)
    path.write_text('{"system": \n', encoding="utf-8")
    with pytest.raises(RecordError, match=r"games\.jsonl line 1: invalid JSON"):
        load_records(path)
    with pytest.raises(RecordError, match="nope.jsonl: cannot read"):
        load_records(tmp_path / "nope.jsonl")


# ---------------------------------------------------------------- plots and files


def write_csv(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


METRICS = (
    "timesteps,episodes,wall_s,fps,ep_rew_mean,ep_len_mean,train_win_rate,eval_random,eval_heuristic\n"
    "1000,10,5,200,0.1,12,0.3,0.55,\n"
    "2000,20,10,200,0.2,11,0.4,,\n"
    "3000,30,15,200,0.3,10,0.5,0.8,0.35\n"
)


def test_heatmap_is_a_png(summary, tmp_path):
    out = tmp_path / "winrate.png"
    plot_winrate_heatmap(summary, out)
    assert out.read_bytes()[:8] == PNG_MAGIC
    assert [p.name for p in tmp_path.iterdir()] == ["winrate.png"]  # no temp file left


def test_learning_curve(tmp_path):
    a = write_csv(tmp_path / "run_a" / "metrics.csv", METRICS)
    b = write_csv(tmp_path / "run_b" / "metrics.csv", "timesteps,train_win_rate\n500,0.2\n")
    out = tmp_path / "curve.png"
    assert plot_learning_curve([a, b], out) is True
    assert out.read_bytes()[:8] == PNG_MAGIC


def test_learning_curve_without_data_writes_nothing(tmp_path):
    empty = write_csv(tmp_path / "r" / "metrics.csv",
                      "timesteps,episodes,fps,train_win_rate,eval_random\n1000,3,100,,\n2000,6,100,,\n")
    header_only = write_csv(tmp_path / "h" / "metrics.csv", "timesteps,eval_random\n")
    out = tmp_path / "curve.png"
    assert plot_learning_curve([empty, header_only], out) is False
    assert plot_learning_curve([], out) is False
    assert not out.exists()


def test_learning_curve_errors_name_the_file(tmp_path):
    with pytest.raises(RecordError, match="missing.csv: cannot read"):
        plot_learning_curve([tmp_path / "missing.csv"], tmp_path / "c.png")
    no_steps = write_csv(tmp_path / "x.csv", "episodes,eval_random\n1,0.5\n")
    with pytest.raises(RecordError, match=r"x\.csv: missing column 'timesteps'"):
        plot_learning_curve([no_steps], tmp_path / "c.png")
    bad = write_csv(tmp_path / "y.csv", "timesteps,eval_random\n100,lots\n")
    with pytest.raises(RecordError, match=r"y\.csv line 2: column 'eval_random'"):
        plot_learning_curve([bad], tmp_path / "c.png")


def test_write_report(tmp_path):
    csv_path = write_csv(tmp_path / "train" / "metrics.csv", METRICS)
    out_dir = tmp_path / "out" / "report"
    path = write_report(RECORDS, out_dir, training_csvs=[csv_path])
    assert path == out_dir / "report.md"
    assert sorted(p.name for p in out_dir.iterdir()) == [
        "learning_curve.png",
        "report.md",
        "winrate.png",
    ]
    for name in ("winrate.png", "learning_curve.png"):
        assert (out_dir / name).read_bytes()[:8] == PNG_MAGIC
    md = path.read_text(encoding="utf-8")
    assert "![Win-rate matrix](winrate.png)" in md
    assert "![Learning curve](learning_curve.png)" in md


def test_write_report_without_training_data(tmp_path):
    path = write_report(RECORDS, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md", "winrate.png"]
    assert "learning_curve" not in path.read_text(encoding="utf-8")
