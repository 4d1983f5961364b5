"""``arena eval`` tournaments (STYLE C17): a fair schedule, records that resume, a report from
records."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import write_random_policy

from eval.cli import main as arena
from eval.report import load_records
from eval.tournament import EvalConfig, load_eval_config, play_game, run_tournament, schedule


def config(tmp_path: Path, **kw) -> EvalConfig:
    base = {
        "agents": {"random": "random", "heuristic": "heuristic"},
        "games": 3,
        "out_dir": str(tmp_path / "t"),
        "workers": 1,
        "progress": False,
    }
    base.update(kw)
    return EvalConfig(**base)


def test_schedule_pairs_seeds_and_swaps_sides(tmp_path):
    cfg = config(
        tmp_path,
        agents={"x": "random", "y": "random", "z": "heuristic"},
        games=4,
        seed=10,
        encounters=("duel_seed", "pvp_2v2"),
    )
    games = schedule(cfg)
    assert len(games) == 2 * 3 * 4 * 2  # encounters x pairs x seeds x both sides
    assert len({g.key for g in games}) == len(games)
    by_match = Counter()
    for g in games:
        (sa, a), (sb, b) = g.sides
        assert (sa, sb) == ("A", "B") and a != b
        by_match[(g.encounter, g.seed, frozenset((a, b)))] += 1
        # the same seed is played with the sides swapped
        assert any(
            h.sides == ((sa, b), (sb, a)) and h.seed == g.seed and h.encounter == g.encounter
            for h in games
        )
    assert set(by_match.values()) == {2}
    assert {g.seed for g in games} == {10, 11, 12, 13}
    sides = Counter((name, side) for g in games for side, name in g.sides)
    assert len(set(sides.values())) == 1  # every agent plays every side equally often


def test_paired_games_share_the_seed_and_record_usage(tmp_path):
    """Both games of a pair are played on the same seed (the dice stream), sides swapped; the
    per-side usage counts add up to the recorded actions."""
    cfg = config(tmp_path, agents={"r1": "random", "r2": "random"})
    g1, g2 = [g for g in schedule(cfg) if g.seed == 0]
    data = {"system": "metanoia", "rules": "full", "agents": {"r1": "random", "r2": "random"}}
    rec1, rec2 = play_game(data, g1), play_game(data, g2)
    assert rec1["agents"] == {"A": "r1", "B": "r2"} and rec2["agents"] == {"A": "r2", "B": "r1"}
    assert rec1["seed"] == rec2["seed"] == 0
    for rec in (rec1, rec2):
        assert sum(sum(u.values()) for u in rec["usage"].values()) == len(rec["actions"])


def test_tournament_records_report_and_resume(tmp_path, policy_files):
    cfg = config(
        tmp_path,
        agents={
            "random": "random",
            "heuristic": "heuristic",
            "net": f"trained:{policy_files['metanoia']}",
        },
    )
    records, report = run_tournament(cfg)
    assert len(records) == 3 * 3 * 2
    path = Path(cfg.out_dir) / "games.jsonl"
    on_disk = load_records(path)
    assert on_disk == records or sorted(map(json.dumps, on_disk)) == sorted(
        map(json.dumps, records)
    )
    for rec in records:
        assert rec["system"] == "metanoia" and rec["options"] == "full"
        assert set(rec["agents"]) == {"A", "B"} and rec["winner"] in ("A", "B", None)
    text = report.read_text()
    assert "## Win rates" in text and "winrate.png" in text
    assert (report.parent / "winrate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # drop half the records (an interrupted run): the next run plays only the missing games
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:7]) + "\n")
    seen = []
    import eval.tournament as T

    real = T.play_game

    def counting(cfg_data, game):
        seen.append(game.key)
        return real(cfg_data, game)

    T.play_game = counting
    try:
        again, _ = run_tournament(cfg)
    finally:
        T.play_game = real
    assert len(seen) == len(records) - 7
    assert again == records  # same games, same results: seeded play


def test_arena_eval_prints_the_table_and_bad_configs_are_one_line(tmp_path, capsys):
    cfg = tmp_path / "e.yaml"
    cfg.write_text(
        "agents: {random: random, heuristic: heuristic}\ngames: 2\n"
        f"out_dir: {tmp_path / 'o'}\nworkers: 1\n"
    )
    assert arena(["eval", str(cfg), "progress=false"]) == 0
    out = capsys.readouterr().out
    assert "| **heuristic** |" in out and "Report:" in out
    for text, message in [
        ("agents: {a: random}\n", "key 'agents': a tournament needs at least two agents"),
        ("agents: {a: random, b: alphago}\n", "key 'agents': b: unknown agent 'alphago'"),
        ("encounters: [moon]\n", "key 'encounters': unknown metanoia encounter 'moon'"),
        ("games: 0\n", "key 'games': must be >= 1"),
        ("agent: {}\n", "unknown key 'agent'"),
        ("agents: {a: random, b: 'trained:nowhere.pt'}\n", "nowhere.pt: no such policy file"),
    ]:
        cfg.write_text(text)
        assert arena(["eval", str(cfg)]) == 2
        err = capsys.readouterr().err
        assert message in err and str(cfg) in err and err.count("\n") == 1, err


def test_wrong_size_policy_in_a_tournament_fails_clearly(tmp_path):
    path = write_random_policy(tmp_path / "p.pt", "metanoia")
    side = path.with_suffix(".json")
    meta = json.loads(side.read_text())
    meta["obs_size"] += 3
    side.write_text(json.dumps(meta))
    cfg = tmp_path / "e.yaml"
    cfg.write_text(f"agents: {{a: random, b: 'trained:{path}'}}\n")
    with pytest.raises(ValueError, match="field 'obs_size'"):
        load_eval_config(str(cfg))
