"""``train.py`` end to end in a subprocess (STYLE C18 tier 4): smoke run, kill + ``--resume``,
Ctrl-C."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import train
from agents.trained import load_policy

ROOT = Path(__file__).resolve().parents[2]
SMOKE = str(ROOT / "configs" / "train" / "smoke.yaml")


def _sigint_as_default() -> None:
    """In the child: SIGINT as a terminal's Ctrl-C (a shell without job control starts its
    background commands with SIGINT ignored, and children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def sigint_handled():
    """SIGINT raises KeyboardInterrupt in this process for the test, whatever it inherited."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def run_train(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "train.py"), SMOKE, *args, "progress=false"],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def metric_rows(run: Path) -> list[dict[str, str]]:
    with (run / "metrics.csv").open() as fh:
        return list(csv.DictReader(fh))


def test_smoke_run_writes_a_loadable_policy_metrics_and_checkpoints(tmp_path):
    run = tmp_path / "run"
    out = run_train(f"run_dir={run}")
    assert out.returncode == 0, out.stderr
    assert "to 512 steps" in out.stdout
    policy = load_policy(run / "policy.pt", "metanoia")
    meta = json.loads((run / "policy.json").read_text())
    assert meta["timesteps"] == 512 and meta["config"]["net_arch"] == [32, 32]
    assert policy.pi[0][0].shape == (meta["obs_size"], 32)
    rows = metric_rows(run)
    steps = [int(r["timesteps"]) for r in rows]
    assert steps == sorted(set(steps)) and steps[0] == 0 and steps[-1] == 512
    assert rows[-1]["eval_random"] and rows[-1]["eval_heuristic"]
    assert [p.name for p in (run / "checkpoints").iterdir()] == ["step_512"] or len(
        list((run / "checkpoints").iterdir())
    ) == 2
    assert sorted(p.name for p in (run / "snapshots").glob("*.pt"))  # self-play pool snapshots
    assert any((run / "tb").rglob("events.out.tfevents.*"))
    # best_policy.pt: the evaluation with the highest win rate against the heuristic (the last
    # opponent)
    evals = [(float(r["eval_heuristic"]), int(r["timesteps"])) for r in rows if r["eval_heuristic"]]
    best_rate = max(rate for rate, _ in evals)
    first_best = min(n for rate, n in evals if rate == best_rate)
    best = json.loads((run / "best_policy.json").read_text())
    assert (best["timesteps"], best["eval"]["heuristic"]) == (first_best, best_rate)
    load_policy(run / "best_policy.pt", "metanoia")
    assert f"{best_rate:.1%} vs heuristic at step {first_best}" in out.stdout
    # the same command again refuses to overwrite the run
    again = run_train(f"run_dir={run}")
    assert again.returncode == 2 and "already holds a run; pass --resume" in again.stderr


def test_killed_run_resumes_from_its_last_checkpoint_and_the_step_count_continues(tmp_path):
    run = tmp_path / "run"
    args = [sys.executable, str(ROOT / "train.py"), SMOKE, f"run_dir={run}", "total_timesteps=2048",
            "checkpoint_every=128", "eval_every=512", "progress=false"]
    proc = subprocess.Popen(
        args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    killed_at = None
    deadline = time.time() + 180
    while time.time() < deadline and proc.poll() is None:
        ckpt = train.latest_checkpoint(run)
        if ckpt is not None and int(ckpt.name.removeprefix("step_")) >= 512:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            killed_at = int(train.latest_checkpoint(run).name.removeprefix("step_"))
            break
        time.sleep(0.05)
    assert killed_at is not None and killed_at < 2048, "the run ended before it could be killed"
    before = [r["timesteps"] for r in metric_rows(run)]
    out = run_train(
        f"run_dir={run}",
        "total_timesteps=2048",
        "checkpoint_every=128",
        "eval_every=512",
        "--resume",
    )
    assert out.returncode == 0, out.stderr
    assert f"to 2048 steps; this run: {2048 - killed_at} steps" in out.stdout
    steps = [int(r["timesteps"]) for r in metric_rows(run)]
    assert steps == sorted(set(steps)), "metrics rows must not repeat or go back after a resume"
    assert steps[-1] == 2048
    kept = [s for s in before if int(s) <= killed_at]
    assert [
        str(s) for s in steps[: len(kept)]
    ] == kept  # rows up to the checkpoint are kept as they were
    state = json.loads((train.latest_checkpoint(run) / "state.json").read_text())
    assert state["timesteps"] == 2048
    assert load_policy(run / "policy.pt")  # loads and matches the env


def test_resume_checks(tmp_path):
    assert train.main([SMOKE, f"run_dir={tmp_path / 'none'}", "--resume"]) == 2


@pytest.mark.skipif(os.name != "posix", reason="SIGINT delivery")
def test_ctrl_c_keeps_a_checkpoint(tmp_path):
    run = tmp_path / "run"
    args = [
        sys.executable,
        str(ROOT / "train.py"),
        SMOKE,
        f"run_dir={run}",
        "total_timesteps=100000",
        "checkpoint_every=100000",
        "eval_every=100000",
        "snapshot_every=100000",
        "progress=false",
    ]
    proc = subprocess.Popen(
        args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_sigint_as_default,
    )
    deadline = time.time() + 120
    while time.time() < deadline and not (run / "metrics.csv").exists():
        time.sleep(0.05)
    while time.time() < deadline and len(metric_rows(run)) < 3:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=180)
    assert proc.returncode == 130, err
    assert "continue with --resume" in err
    assert "Traceback" not in err
    assert train.latest_checkpoint(run) is not None


def test_the_toy_system_trains_through_the_contract_alone(tmp_path, capsys):
    """train.py's smoke run on the test-only toy (sides heroes/monsters, registered by conftest.py):
    nothing in the training names a side or a system."""
    run = tmp_path / "toy"
    code = train.main(
        [
            SMOKE,
            "system=toy",
            "encounter=duel",
            f"run_dir={run}",
            "vec_env=dummy",
            "shaping=0.1",
            "total_timesteps=256",
            "snapshot_every=128",
            "checkpoint_every=128",
            "eval_every=128",
            "imitation_games=4",
            "progress=false",
        ]
    )
    out = capsys.readouterr()
    assert code == 0, out.err
    policy = load_policy(run / "policy.pt", "toy")
    meta = json.loads((run / "policy.json").read_text())
    assert meta["system"] == "toy" and meta["env"] == "toy_v0" and meta["timesteps"] == 256
    assert policy.meta["n_actions"] == 6 and policy.meta["obs_size"] == 15
    rates = [float(r[f"eval_{o}"]) for r in metric_rows(run) for o in ("random", "heuristic")
             if r.get(f"eval_{o}")]
    assert rates and all(0.0 <= x <= 1.0 for x in rates), "evaluated against the toy's opponents"


def test_building_the_envs_in_the_learners_own_process_keeps_ctrl_c(sigint_handled):
    """``vec_env: dummy`` builds the learner envs in this process: that must not make it ignore
    SIGINT (Ctrl-C would be lost, and every program it starts would inherit the ignore)."""
    from agents.train_config import load_config
    from agents.training import _make_env

    before = signal.getsignal(signal.SIGINT)
    assert before is not signal.SIG_IGN
    env = _make_env(load_config(SMOKE, ["vec_env=dummy"]), 0)()
    try:
        assert signal.getsignal(signal.SIGINT) is before
    finally:
        env.close()
