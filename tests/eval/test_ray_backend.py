"""The Ray backend (``eval.backend``) against the local one: the same records and reports, a
worker killed mid-run, an interrupted run resumed, and the ``--ray`` command-line errors.

One local Ray (2 CPUs, no dashboard) serves the whole module and is always shut down; the module
is one xdist group, so under ``pytest -n 2`` (``--dist loadgroup``) it runs on one worker.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from eval.backend import LOCAL_RAY, TASK_NAME, Backend
from eval.cli import main
from eval.tournament import EvalConfig, run_tournament

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.xdist_group("ray")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield Backend(workers=2, ray=LOCAL_RAY)
    finally:
        ray.shutdown()


def duel(out: Path, games: int = 6) -> EvalConfig:
    """The Metanoia duel, random against heuristic: ``2 * games`` games."""
    return EvalConfig(system="metanoia", encounters=("duel_seed",), games=games,
                      out_dir=str(out), workers=2, progress=False)


def lines(path: Path) -> list[str]:
    """The records of a games.jsonl file, each as canonical JSON, sorted."""
    text = path.read_text().splitlines()
    return sorted(json.dumps(json.loads(line), sort_keys=True) for line in text)


@pytest.fixture(scope="module")
def local_duel(tmp_path_factory):
    """The 40-game duel played on the local pool: records, report text, games.jsonl lines."""
    out = tmp_path_factory.mktemp("local")
    records, report = run_tournament(duel(out, 20))
    return records, report.read_text(), lines(out / "games.jsonl")


def test_local_and_ray_runs_give_identical_records_and_reports(local_ray, local_duel, tmp_path):
    records, report = run_tournament(duel(tmp_path, 20), backend=local_ray)
    assert len(records) == 40
    assert records == local_duel[0]  # every field of every game, in schedule order
    assert lines(tmp_path / "games.jsonl") == local_duel[2]  # the file: each game once
    assert report.read_text() == local_duel[1]


def _batch_workers() -> list[int]:
    """Processes of this test's Ray (children of its raylet) running a batch right now."""
    raylet = ray._private.worker._global_node.all_processes["raylet"][0].process.pid
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            title = Path("/proc", entry, "cmdline").read_bytes()
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if title.startswith(f"ray::{TASK_NAME}".encode()) and ppid == raylet:
            found.append(int(entry))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds workers under /proc")
def test_a_worker_killed_mid_run_loses_no_game_and_duplicates_none(local_ray, local_duel,
                                                                   tmp_path):
    killed: list[int] = []
    stop = threading.Event()

    def killer() -> None:
        while not stop.is_set() and not killed:
            for pid in _batch_workers():
                os.kill(pid, signal.SIGKILL)  # the batch it was playing is retried
                killed.append(pid)
                break
            time.sleep(0.005)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    try:
        records, report = run_tournament(duel(tmp_path, 20), backend=local_ray)
    finally:
        stop.set()
        thread.join()
    assert len(killed) == 1
    assert records == local_duel[0]
    assert lines(tmp_path / "games.jsonl") == local_duel[2]  # every game present exactly once
    assert report.read_text() == local_duel[1]


def test_an_interrupted_ray_run_resumes_like_a_local_one(local_ray, local_duel, tmp_path,
                                                         monkeypatch):
    import eval.tournament as T

    real = T.run_jobs

    def stops_after_7(*args, **kwargs):
        for n, item in enumerate(real(*args, **kwargs)):
            if n == 7:
                raise KeyboardInterrupt  # Ctrl-C after 7 finished games
            yield item

    monkeypatch.setattr(T, "run_jobs", stops_after_7)
    with pytest.raises(KeyboardInterrupt):
        run_tournament(duel(tmp_path, 20), backend=local_ray)
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 7
    monkeypatch.setattr(T, "run_jobs", real)
    played: list[int] = []

    def counting(*args, **kwargs):
        for item in real(*args, **kwargs):
            played.append(1)
            yield item

    monkeypatch.setattr(T, "run_jobs", counting)
    log = tmp_path / "log.txt"
    with log.open("w") as fh:
        records, report = run_tournament(duel(tmp_path, 20), backend=local_ray, log=fh)
    assert "7 of 40 games already in" in log.read_text()
    assert len(played) == 33  # only the missing games
    assert records == local_duel[0]
    assert lines(tmp_path / "games.jsonl") == local_duel[2]
    assert report.read_text() == local_duel[1]


def test_soak_on_ray_counts_what_the_local_soak_counts(local_ray, capsys):
    def summary(*extra: str) -> list[str]:
        assert main(["soak", "toy", "--games", "40", *extra]) == 0
        out = capsys.readouterr().out.splitlines()
        return [out[1].split(" in ")[0], *out[2:]]  # without the seconds

    local = summary("--workers", "2")
    assert local[0] == "40 games, " + local[0].split(", ")[1]
    assert summary("--ray") == local  # the toy registered in the Ray workers too


def test_match_on_ray_prints_the_local_table(local_ray, capsys):
    argv = ["match", "metanoia", "duel_seed", "heuristic", "random", "--games", "8"]
    assert main(argv) == 0
    local = capsys.readouterr().out.splitlines()
    assert main([*argv, "--ray"]) == 0
    on_ray = capsys.readouterr().out.splitlines()
    assert on_ray[1:] == local[1:] and len(local) > 5
    assert on_ray[0].split("),")[0] == local[0].split("),")[0]  # all but the seconds


def test_ray_flag_errors_are_one_line_and_exit_2(capsys, monkeypatch, tmp_path):
    config = tmp_path / "e.yaml"
    config.write_text("system: metanoia\nagents: {random: random, heuristic: heuristic}\n")
    argv = ["match", "metanoia", "duel_seed", "heuristic", "random", "--games", "2"]
    assert main([*argv, "--ray=not an address"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--ray: 'not an address' is not a Ray address" in err
    assert main([*argv, "--ray", "127.0.0.1:1"]) == 2  # nothing listens there
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--ray 127.0.0.1:1: no Ray cluster answers there" in err
    assert main(["eval", str(config), "--ray", "games=2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'games=2' is not a Ray address" in err
    monkeypatch.setitem(sys.modules, "ray", None)  # as without the extra: import ray fails
    for command in (argv, ["soak", "toy", "--games", "2"],
                    ["balance", "duel_seed", "--system", "metanoia", "--games", "2"]):
        assert main([*command, "--ray"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "pip install -e '.[ray]'" in err, err


def test_balance_on_ray_writes_the_local_records_and_report(local_ray, tmp_path, capsys):
    argv = ["balance", "duel_seed", "--system", "metanoia", "--games", "12", "--no-loo",
            "--no-options", "--no-progress"]
    reports = []
    for out, extra in ((tmp_path / "local", []), (tmp_path / "ray", ["--ray"])):
        assert main([*argv, "--out", str(out), *extra]) == 0
        reports.append(((out / "report.md").read_text(), lines(out / "games.jsonl")))
    capsys.readouterr()
    assert reports[0] == reports[1] and len(reports[0][1]) == 12
