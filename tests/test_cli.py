"""The ``arena`` command line, run in-process through ``eval.cli.main`` (stdout/stderr captured).

Input errors (unknown system, encounter or agent, bad numbers, missing arguments) end with exit
status 2 and exactly one line on stderr, never a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agents.episode import encounter_sides
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
    assert out.startswith(
        "metanoia, encounter 'duel_seed', seed 7: side A = heuristic, side B = random"
    )
    assert re.search(
        r"^Result: (side [AB] \((heuristic|random)\) wins|a draw) after \d+ rounds", out, re.M
    ), out
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


def _match_lines(out: str) -> dict[str, tuple[int, int]]:
    """``{label: (wins, games)}`` of every ``LABEL wins K/N`` or ``draws K/N`` line of
    ``arena match``."""
    found = re.findall(
        r"^\s*(.+?)\s+(?:wins\s+)?(\d+)/(\d+)\s+\d+\.\d%\s+\(95% CI \d+\.\d%-\d+\.\d%\)", out, re.M
    )
    return {label: (int(k), int(n)) for label, k, n in found}


def test_match_prints_win_rates(capsys):
    code, out, err = arena(
        capsys, "match", "metanoia", "duel_seed", "heuristic", "random", "--games", "5"
    )
    assert code == 0, err
    assert "10 games" in out
    rates = _match_lines(out)
    total = rates["A heuristic"][0] + rates["B random"][0] + rates["draws"][0]
    assert total == 10 and all(
        n == 10 for k, n in (rates["A heuristic"], rates["B random"], rates["draws"])
    )
    sides = encounter_sides("metanoia", "duel_seed")
    assert rates[f"side {sides[0]}"][0] + rates[f"side {sides[1]}"][0] == total - rates["draws"][0]
    for seat in ("A heuristic", "B random"):  # each agent played each side on every seed
        assert sum(rates[f"{seat} as {side}"][0] for side in sides) == rates[seat][0]
        assert all(rates[f"{seat} as {side}"][1] == 5 for side in sides)
    assert "Traceback" not in err


def test_a_mirror_match_counts_by_seat_not_by_name(capsys):
    """The defect: ``heuristic heuristic`` reported "heuristic (first) wins 100%"."""
    code, out, err = arena(
        capsys, "match", "toy", "duel", "heuristic", "heuristic", "--games", "20"
    )
    assert code == 0, err
    rates = _match_lines(out)
    a, b, draws = rates["A heuristic"][0], rates["B heuristic"][0], rates["draws"][0]
    assert a + b + draws == 40 and 0 < a < 40 and 0 < b < 40, out
    assert rates["side heroes"][0] + rates["side monsters"][0] == a + b, (
        "the side split of the toy's sides"
    )
    assert "(first)" not in out


def test_match_with_core_rules_and_same_agent(capsys):
    code, out, _ = arena(
        capsys,
        "match",
        "metanoia",
        "pvp_2v2",
        "random",
        "random",
        "--games",
        "1",
        "--rules",
        "core",
    )
    assert code == 0
    assert "rules core" in out and "A random" in out and "B random" in out


def test_watch_and_match_play_a_system_with_other_side_names(capsys):
    code, out, err = arena(capsys, "watch", "toy", "--seed", "2")
    assert code == 0, err
    assert out.startswith(
        "toy, encounter 'duel', seed 2: side heroes = heuristic, side monsters = random"
    )
    assert re.search(
        r"^Result: (side (heroes \(heuristic\)|monsters \(random\)) wins|a draw)", out, re.M
    ), out
    code, out, err = arena(
        capsys, "match", "toy", "skirmish", "heuristic", "random", "--games", "3"
    )
    assert code == 0, err
    assert "side heroes" in out and "side monsters" in out and "A heuristic as monsters" in out


def test_watch_check_replays_with_every_invariant(capsys):
    code, out, err = arena(
        capsys,
        "watch",
        "toy",
        "--seed",
        "4",
        "--rules",
        "core",
        "--agents",
        "random,random",
        "--check",
    )
    assert code == 0, err
    assert "side heroes = random, side monsters = random" in out
    assert re.search(r"^Every invariant held at each of the \d+ decisions\.$", out, re.M), out


def test_watch_check_reports_a_broken_invariant(capsys, monkeypatch):
    import envs.toy.invariants as toy_invariants

    def broken(enc):
        assert enc.round < 2, f"round {enc.round}: a deliberately broken invariant"

    monkeypatch.setattr(toy_invariants, "state_invariants", broken)
    code, out, _ = arena(
        capsys, "watch", "toy", "--seed", "1", "--agents", "random,random", "--check"
    )
    assert code == 1
    assert re.search(
        r"^FAILED after \d+ decisions: AssertionError: round 2: a deliberately broken", out, re.M
    ), out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["match", "chess", "duel_seed", "heuristic", "random"], "unknown system 'chess'"),
        (["layout", "chess"], "unknown system 'chess'"),
        (
            ["match", "metanoia", "no_such_fight", "heuristic", "random"],
            "unknown encounter 'no_such_fight'",
        ),
        (["match", "metanoia", "duel_seed", "heuristic", "random", "--games", "0"], "--games"),
        (["match", "metanoia", "duel_seed", "heuristic", "random", "--games", "many"], "--games"),
        (
            ["match", "metanoia", "duel_seed", "genius", "random", "--games", "1"],
            "unknown agent 'genius'",
        ),
        (["match", "metanoia", "duel_seed", "heuristic", "random", "--rules", "medium"], "--rules"),
        (["match", "metanoia"], "required"),
        (["watch", "--encounter", "no_such_fight"], "unknown encounter 'no_such_fight'"),
        (["watch", "chess"], "unknown system 'chess'"),
        (["watch", "--agents", "heuristic"], "--agents"),
        (["demo", "--steps", "0"], "--steps"),
        (
            ["eval", "configs/eval/metanoia_demo.yaml", "games=none"],
            "key 'games': expected a whole number",
        ),
        (["train", "configs/train/metanoia_demo.yaml", "lr=1"], "unknown key 'lr'"),
        (["bench", "--seconds", "0"], "--seconds"),
        (["bench", "--system", "chess"], "unknown system 'chess'"),
        (
            ["bench", "--system", "mano_a_mano", "--encounter", "duel_seeed"],
            "unknown encounter 'duel_seeed'",
        ),
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


@pytest.mark.parametrize("system", ["metanoia", "mano_a_mano", "toy"])
def test_layout_obs_prints_every_piece_with_offset_and_range(capsys, system: str):
    code, out, err = arena(capsys, "layout", system, "--obs")
    assert code == 0, err
    spec = get_env_module(system).ENCODING.obs_spec
    assert out.startswith(f"Observation: Box({spec.size},) float32 ({len(spec.pieces)} pieces)")
    for name, size, lo, hi in spec.pieces:
        start = spec.slices[name].start
        span = str(start) if size == 1 else f"{start}..{start + size - 1}"
        assert re.search(
            rf"^{re.escape(span)}\s+{name}\s+{size}\s+\[{lo:g}, {hi:g}\]$", out, re.M
        ), name


def test_layout_obs_lists_named_features_inside_a_piece(capsys):
    code, out, _ = arena(capsys, "layout", "toy", "--obs")
    assert code == 0
    assert re.search(r"^  1\s+  self\.points\s+1\s+\[-1, 1\]$", out, re.M), out
    assert re.search(r"^  10\s+  enemies\.points1\s+1\s+\[-1, 1\]$", out, re.M), out
    assert re.search(r"^  14\s+  phase\.reaction\s+1\s+\[0, 1\]$", out, re.M), out
    assert "names no features" not in out
    code, out, _ = arena(capsys, "layout", "mano_a_mano", "--obs")
    named = "." in "".join(
        line.split()[1] for line in out.splitlines()[3:] if line.strip() and line[0] == " "
    )
    assert named or "names no features" in out


def test_help_lists_the_commands(capsys):
    code, out, _ = arena(capsys, "--help")
    assert code == 0
    for command in ("demo", "watch", "cases", "match", "layout", "bench", "train", "eval"):
        assert command in out


def test_every_encounter_is_accepted_by_match(capsys):
    for encounter in get_rules("metanoia").encounter_names():
        code, out, err = arena(
            capsys, "match", "metanoia", encounter, "random", "heuristic", "--games", "1"
        )
        assert code == 0, err


def test_demo_trains_evaluates_and_prints_the_table(capsys, tmp_path):
    run = tmp_path / "demo"
    small = (
        "--train-config",
        "configs/train/smoke.yaml",
    )  # the demo's own config trains for minutes
    code, out, err = arena(
        capsys, "demo", "--steps", "512", "--games", "2", "--run-dir", str(run), *small
    )
    assert code == 0, err
    assert "1/2  Training a Metanoia NPC" in out and "2/2  Tournament" in out
    assert re.search(r"\| \*\*ppo\*\* \| .*% \(", out), out
    assert f"Report: {run / 'eval' / 'report.md'}" in out
    assert (run / "policy.pt").is_file() and (run / "eval" / "winrate.png").is_file()
    assert (run / "eval" / "learning_curve.png").is_file()
    # a second demo reuses the trained policy
    code, out, _ = arena(
        capsys, "demo", "--steps", "512", "--games", "2", "--run-dir", str(run), *small
    )
    assert code == 0 and "already trained (512 steps)" in out
