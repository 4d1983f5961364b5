"""``arena soak`` (eval.soak): seeded games with every invariant checked, failures printed as the
``arena watch`` command that replays them, both cores, Ctrl-C prints what it has (status 130)."""

from __future__ import annotations

import itertools
import re

import pytest

import eval.soak as soak
from eval.cli import main as arena


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = arena(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def summary(out: str) -> tuple[int, int, int, int]:
    m = re.search(
        r"^(\d+) games, (\d+) decisions in [\d.]+ s \([\d,]+ decisions/s\); (\d+) exceptions, "
        r"(\d+) invariant breaks$",
        out,
        re.M,
    )
    assert m, out
    return tuple(int(g) for g in m.groups())  # type: ignore[return-value]


def test_the_schedule_covers_every_encounter_rules_and_agent_pair():
    specs = list(itertools.islice(soak.schedule(["toy"], seed=5), 12))
    assert [s.seed for s in specs] == list(range(5, 17))
    combos = {(s.encounter, s.rules) for s in specs[:4]}
    assert combos == {
        ("duel", "core"),
        ("duel", "full"),
        ("skirmish", "core"),
        ("skirmish", "full"),
    }
    assert [s.agents for s in specs[::4]] == list(soak.AGENT_PAIRS)
    assert specs[0].watch_command() == (
        "arena watch toy --seed 5 --encounter duel --rules core --agents random,random --check"
    )


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_clean_soak_counts_games_and_decisions(capsys, workers: str):
    code, out, err = run(capsys, "soak", "toy", "--games", "30", "--workers", workers)
    assert code == 0, out + err
    games, decisions, exceptions, breaks = summary(out)
    assert (games, exceptions, breaks) == (30, 0, 0) and decisions > 30
    assert re.search(rf"^  toy\s+30 games\s+{decisions} decisions$", out, re.M), out
    assert "FAIL" not in out


def test_the_same_soak_plays_the_same_games(capsys):
    first = summary(run(capsys, "soak", "toy", "--games", "12", "--workers", "1")[1])
    second = summary(run(capsys, "soak", "toy", "--games", "12", "--workers", "2")[1])
    assert first == second


def test_seconds_stop_the_soak(capsys):
    code, out, _ = run(capsys, "soak", "toy", "--seconds", "0.5", "--workers", "1")
    assert code == 0 and summary(out)[0] > 0


def test_a_broken_invariant_is_printed_with_its_replay_command(capsys, monkeypatch):
    import envs.toy.invariants as toy_invariants

    def broken(enc):
        if enc.round >= 3 and enc.points.get("amy", 0) >= 1:
            raise AssertionError(f"round {enc.round}: amy scored")

    monkeypatch.setattr(toy_invariants, "state_invariants", broken)
    code, out, _ = run(capsys, "soak", "toy", "--games", "40", "--workers", "1")
    assert code == 1
    games, _, exceptions, breaks = summary(out)
    assert games == 40 and exceptions == 0 and breaks >= 1
    fail = re.search(
        r"^FAIL toy/skirmish/(core|full) seed (\d+) \((\w+) vs (\w+)\), invariant after (\d+) "
        r"decisions: AssertionError: round \d+: amy scored \[at .*\]$",
        out,
        re.M,
    )
    assert fail, out
    replay = re.search(r"^  replay: arena (watch .*)$", out, re.M)
    assert replay and f"--seed {fail.group(2)} " in replay.group(1)
    code, watched = run(capsys, *replay.group(1).split())[:2]
    assert code == 1
    assert re.search(
        rf"^FAILED after {fail.group(5)} decisions: AssertionError: round \d+: amy scored",
        watched,
        re.M,
    ), watched


def test_an_exception_is_a_failure_too(capsys, monkeypatch):
    from envs.toy.rules.state import RaceEncounter

    original = RaceEncounter.apply

    def apply(self, action, dice):
        if action.kind == "pass":
            raise KeyError("boom")
        return original(self, action, dice)

    monkeypatch.setattr(RaceEncounter, "apply", apply)
    code, out, _ = run(capsys, "soak", "toy", "--games", "8", "--workers", "1")
    assert code == 1
    assert summary(out)[2] >= 1
    assert re.search(
        r"^FAIL toy/.* exception after \d+ decisions: KeyError: 'boom' \[at .*test_soak\.py:\d+\]$",
        out,
        re.M,
    ), out


def test_ctrl_c_prints_what_it_has_and_exits_130(capsys, monkeypatch):
    calls = {"n": 0}
    original = soak.soak_game

    def interrupted(spec):
        calls["n"] += 1
        if calls["n"] > 10:
            raise KeyboardInterrupt
        return original(spec)

    monkeypatch.setattr(soak, "soak_game", interrupted)
    code, out, _ = run(capsys, "soak", "toy", "--games", "100", "--workers", "1")
    assert code == 130
    assert out.splitlines()[1].startswith(
        "interrupted; played so far: 10 games"
    )  # one process: every game that ended counts


def test_bad_soak_input_is_one_line(capsys):
    code, _, err = run(capsys, "soak", "chess")
    assert code == 2 and err.count("\n") == 1 and "unknown system 'chess'; known: all" in err


def test_a_journal_resumes_an_interrupted_soak_and_plays_no_game_twice(capsys, monkeypatch,
                                                                       tmp_path):
    journal = tmp_path / "soak.jsonl"
    full = summary(run(capsys, "soak", "toy", "--games", "24", "--workers", "1")[1])
    played: list[int] = []
    original = soak.soak_game

    def interrupted(spec):
        if len(played) >= 10:
            raise KeyboardInterrupt
        played.append(spec.seed)
        return original(spec)

    monkeypatch.setattr(soak, "soak_game", interrupted)
    code, out, _ = run(capsys, "soak", "toy", "--games", "24", "--workers", "1",
                       "--journal", str(journal))
    assert code == 130 and "the same command resumes" in out
    assert played == list(range(10))
    rows = journal.read_text().splitlines()
    assert len(rows) == 1 + 10  # the header, then every game that finished (one process)
    played.clear()
    monkeypatch.setattr(soak, "soak_game", lambda spec: (played.append(spec.seed),
                                                          original(spec))[1])
    code, out, _ = run(capsys, "soak", "toy", "--games", "24", "--workers", "1",
                       "--journal", str(journal))
    assert code == 0, out
    assert "resuming from" in out and "10 games already played (run 2)" in out
    assert played == list(range(10, 24))  # only the games the journal lacks
    assert summary(out) == full  # the same totals as one uninterrupted soak
    code, out, _ = run(capsys, "soak", "toy", "--games", "24", "--workers", "2",
                       "--journal", str(journal))
    assert code == 0 and summary(out) == full and played == list(range(10, 24))


def test_a_journal_keeps_failures_and_drops_a_line_cut_off_mid_write(capsys, monkeypatch,
                                                                      tmp_path):
    import envs.toy.invariants as toy_invariants

    def broken(enc):
        if enc.round >= 3 and enc.points.get("amy", 0) >= 1:
            raise AssertionError(f"round {enc.round}: amy scored")

    monkeypatch.setattr(toy_invariants, "state_invariants", broken)
    journal = tmp_path / "soak.jsonl"
    code, first, _ = run(capsys, "soak", "toy", "--games", "16", "--workers", "1",
                         "--journal", str(journal))
    assert code == 1
    with journal.open("a") as f:
        f.write('{"i": 16, "d": 3')  # a game cut off mid-write
    code, again, _ = run(capsys, "soak", "toy", "--games", "16", "--workers", "1",
                         "--journal", str(journal))
    assert code == 1 and summary(again) == summary(first)
    assert [x for x in again.splitlines() if x.startswith(("FAIL", "  replay"))] == \
        [x for x in first.splitlines() if x.startswith(("FAIL", "  replay"))]
    code, out, _ = run(capsys, "soak", "toy", "--games", "17", "--workers", "1",
                       "--journal", str(journal))
    assert summary(out)[0] == 17 and journal.read_text().endswith("\n")
    assert all(line.startswith("{") and line.endswith("}")
               for line in journal.read_text().splitlines())


@pytest.mark.parametrize(("content", "message"), [
    ('{"soak": 1, "target": "mano_a_mano", "seed": 0}\n',
     "line 1: field 'target': the journal is for 'mano_a_mano', this soak is 'toy'"),
    ('{"soak": 1, "target": "toy", "seed": 0}\n{"i": "x", "d": 1, "f": null, "run": 1, '
     '"t": 0.5}\n', "line 2: field 'i': expected a number, got 'x'"),
    ('not json\n', "line 1: not JSON"),
])
def test_a_journal_that_cannot_resume_is_one_line_and_changes_nothing(capsys, tmp_path, content,
                                                                      message):
    journal = tmp_path / "soak.jsonl"
    journal.write_text(content)
    code, out, err = run(capsys, "soak", "toy", "--games", "4", "--journal", str(journal))
    assert code == 2 and err.count("\n") == 1 and message in err and str(journal) in err
    assert journal.read_text() == content


def test_a_sigterm_stops_a_soak_like_ctrl_c_and_keeps_its_journal(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    journal = tmp_path / "soak.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "eval.cli", "soak", "metanoia", "--games", "100000",
         "--workers", "1", "--journal", str(journal)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if journal.exists() and len(journal.read_text().splitlines()) > 8:
                break  # a chunk is on disk
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, out
    games = int(re.search(r"^interrupted; played so far: (\d+) games", out, re.M).group(1))
    assert games >= 8 and "the same command resumes" in out
    assert len(journal.read_text().splitlines()) == 1 + games
