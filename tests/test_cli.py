"""The ``arena`` command line, run in-process through ``eval.cli.main`` (stdout/stderr captured).

Input errors (unknown system, encounter or agent, bad numbers, missing arguments) end with exit
status 2 and exactly one line on stderr, never a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from envs import get_env_module, get_rules
from eval.cli import main

ROOT = Path(__file__).resolve().parents[1]
CASES_DIR = Path("tests/cases/metanoia")


def arena(capsys, *argv: str) -> tuple[int, str, str]:
    """Run ``arena ARGV...``; return (exit status, stdout, stderr)."""
    try:
        code = main(list(argv))
    except SystemExit as e:  # argparse and parser.exit
        code = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_cases_all_pass(capsys):
    code, out, err = arena(capsys, "cases", str(CASES_DIR))
    n = len(list((ROOT / CASES_DIR).rglob("*.yaml")))
    last = out.strip().splitlines()[-1]
    assert last == f"{n} passed, 0 failed", out
    assert code == 0
    assert n > 0


def test_cases_verbose_lists_each_case(capsys):
    first = sorted((ROOT / CASES_DIR).rglob("*.yaml"))[0].relative_to(ROOT)
    code, out, _ = arena(capsys, "cases", "-v", str(first))
    assert code == 0
    assert out.splitlines()[0].startswith("PASS ")
    assert out.strip().endswith("1 passed, 0 failed")


def test_cases_reports_a_failing_case(capsys, tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "system: metanoia\nencounter: duel_seed\nactor: rotblade_duelist\noptions: core\n"
        "steps: ['rotblade_duelist: recover']\nexpect: {combatants.rotblade_duelist.stacks: 9}\n"
    )
    code, out, _ = arena(capsys, "cases", str(bad))
    assert code == 1
    assert "FAIL" in out and "combatants.rotblade_duelist.stacks" in out
    assert out.strip().endswith("0 passed, 1 failed")


def test_watch_prints_a_fight_and_its_result(capsys):
    code, out, err = arena(capsys, "watch")
    assert code == 0, err
    assert "Result:" in out
    assert re.search(r"^Result: (side [AB] \((heuristic|random)\) wins|a draw) after \d+ rounds", out, re.M), out
    assert "fight over" in out


def test_watch_plays_any_system(capsys):
    code, out, err = arena(capsys, "watch", "mano_a_mano", "--seed", "3")
    assert code == 0, err
    assert out.startswith("mano_a_mano, encounter 'duel_seed', seed 3")
    assert re.search(r"^(steven|clone) rolls d20=\d+", out, re.M), out
    assert "arena cases tests/cases/mano_a_mano" in out


def test_watch_is_seeded(capsys):
    first = arena(capsys, "watch", "--seed", "3", "--encounter", "pvp_2v2")
    second = arena(capsys, "watch", "--seed", "3", "--encounter", "pvp_2v2")
    assert first[0] == 0 and first[1] == second[1]


def test_match_prints_win_rates(capsys):
    code, out, err = arena(capsys, "match", "metanoia", "duel_seed", "heuristic", "random", "--games", "5")
    assert code == 0, err
    assert "10 games" in out
    rates = {}
    for name in ("heuristic", "random", "draws"):
        m = re.search(rf"^\s*{name}\s+(?:wins\s+)?(\d+)\s+\((\d+\.\d)%\)", out, re.M)
        assert m, f"no win-rate line for {name}:\n{out}"
        rates[name] = int(m.group(1))
    assert sum(rates.values()) == 10
    assert "Traceback" not in err


def test_match_with_core_rules_and_same_agent(capsys):
    code, out, _ = arena(capsys, "match", "metanoia", "pvp_2v2", "random", "random", "--games", "1", "--rules", "core")
    assert code == 0
    assert "rules core" in out and "random (first)" in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["match", "chess", "duel_seed", "heuristic", "random"], "unknown system 'chess'"),
        (["layout", "chess"], "unknown system 'chess'"),
        (["match", "metanoia", "no_such_fight", "heuristic", "random"], "unknown encounter 'no_such_fight'"),
        (["match", "metanoia", "duel_seed", "heuristic", "random", "--games", "0"], "--games"),
        (["match", "metanoia", "duel_seed", "heuristic", "random", "--games", "many"], "--games"),
        (["match", "metanoia", "duel_seed", "genius", "random", "--games", "1"], "unknown agent 'genius'"),
        (["match", "metanoia", "duel_seed", "heuristic", "random", "--rules", "medium"], "--rules"),
        (["match", "metanoia"], "required"),
        (["watch", "--encounter", "no_such_fight"], "unknown encounter 'no_such_fight'"),
        (["watch", "chess"], "unknown system 'chess'"),
        (["demo", "--steps", "0"], "--steps"),
        (["eval", "configs/eval/metanoia_demo.yaml", "games=none"], "key 'games': expected a whole number"),
        (["train", "configs/train/metanoia_demo.yaml", "lr=1"], "unknown key 'lr'"),
        (["bench", "--seconds", "0"], "--seconds"),
        (["bench", "--system", "chess"], "unknown system 'chess'"),
        (["bench", "--system", "mano_a_mano", "--encounter", "duel_seeed"], "unknown encounter 'duel_seeed'"),
        (["no_such_command"], "invalid choice"),
        ([], "required"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_bad_input_is_one_line_and_status_2(capsys, argv: list[str], needle: str):
    code, _, err = arena(capsys, *argv)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one error line, got:\n{err}"
    assert "error" in lines[0] and needle in lines[0]
    assert "Traceback" not in err


def test_layout_prints_the_table(capsys):
    code, out, _ = arena(capsys, "layout", "metanoia")
    assert code == 0
    layout = get_env_module("metanoia").ENCODING.layout
    assert out.strip() == layout.describe().strip()
    assert f"Discrete({layout.size})" in out
    for block in layout.blocks:
        assert re.search(rf"\b{block.name}\b", out), block.name


def test_help_lists_the_commands(capsys):
    code, out, _ = arena(capsys, "--help")
    assert code == 0
    for command in ("demo", "watch", "cases", "match", "layout", "bench", "train", "eval"):
        assert command in out


def test_every_encounter_is_accepted_by_match(capsys):
    for encounter in get_rules("metanoia").encounter_names():
        code, out, err = arena(capsys, "match", "metanoia", encounter, "random", "heuristic", "--games", "1")
        assert code == 0, err


def test_demo_trains_evaluates_and_prints_the_table(capsys, tmp_path):
    run = tmp_path / "demo"
    small = ("--train-config", "configs/train/smoke.yaml")  # the demo's own config trains for minutes
    code, out, err = arena(capsys, "demo", "--steps", "512", "--games", "2", "--run-dir", str(run), *small)
    assert code == 0, err
    assert "1/2  Training a Metanoia NPC" in out and "2/2  Tournament" in out
    assert re.search(r"\| \*\*ppo\*\* \| .*% \(", out), out
    assert f"Report: {run / 'eval' / 'report.md'}" in out
    assert (run / "policy.pt").is_file() and (run / "eval" / "winrate.png").is_file()
    assert (run / "eval" / "learning_curve.png").is_file()
    # a second demo reuses the trained policy
    code, out, _ = arena(capsys, "demo", "--steps", "512", "--games", "2", "--run-dir", str(run), *small)
    assert code == 0 and "already trained (512 steps)" in out
