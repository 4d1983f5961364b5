"""``arena play --situation FILE`` driven through a pseudo-terminal (stdlib ``pty``), as a person
types: a typo, ``?`` with a small budget, a label, a number, ``q``. The saved record says the game
was stopped and ``arena replay`` reproduces every move."""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from envs.core.cases import encounter_from_situation, load_situation
from eval.cli import main as arena
from eval.play import PROMPT
from eval.replay import load_record, replay

ROOT = Path(__file__).resolve().parents[2]
SITUATION = ROOT / "configs" / "situations" / "mano_skirmish_grapple.yaml"
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\r")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


class Terminal:
    """A child process on a pseudo-terminal: ``expect`` text, ``send`` lines."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.fd, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 220, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT,
                                     env=env, close_fds=True)
        os.close(slave)
        self.text, self.seen = "", 0

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the child has closed the terminal
            return False
        if not chunk:
            return False
        self.text += ANSI.sub("", chunk.decode("utf-8", "replace"))
        return True

    def expect(self, needle: str, timeout: float = 20.0) -> str:
        """Wait until ``needle`` appears after what was already matched; return the text up to
        it."""
        end = time.monotonic() + timeout
        while needle not in self.text[self.seen:]:
            if time.monotonic() > end or not self._read(min(0.2, end - time.monotonic())):
                raise AssertionError(f"no {needle!r} in:\n{self.text[self.seen:][-3000:]}")
        at = self.text.index(needle, self.seen) + len(needle)
        before, self.seen = self.text[self.seen:at], at
        return before

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def close(self, timeout: float = 20.0) -> int:
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self._read(0.1)
        while self._read(0.05):  # what is left
            if self.proc.poll() is not None and not select.select([self.fd], [], [], 0)[0]:
                break
        os.close(self.fd)
        return self.proc.wait(timeout=5)


def test_a_person_plays_from_a_situation_through_a_terminal_and_stops(tmp_path, capsys):
    enc = encounter_from_situation(load_situation(SITUATION), str(SITUATION))
    assert enc.current_actor() == "guard" and enc.side_of("guard") == "B"
    legal = [a.label for a in enc.legal_actions()]
    label = legal[-1]  # typed as a label (not the first move, which "0" would pick)
    assert label != legal[0]
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", TERM="dumb")
    record_dir = tmp_path / "records"
    argv = [sys.executable, "-m", "eval.cli", "play", "--situation", str(SITUATION), "--as", "B",
            "--vs", "random", "--seed", "4", "--record-dir", str(record_dir)]
    t0 = time.monotonic()
    term = Terminal(argv, env)
    try:
        screen = term.expect(PROMPT)
        assert "Skirmish, round 3: the Guard in the Wrestler's clinch" in screen
        assert "round 3: guard (side B) to decide" in screen
        assert "both: spear" in screen  # held weapons
        assert "map (q grows to the east" in screen and "g guard (B) at 1,0" in screen
        assert f"[{label}]" in screen and f"[{legal[0]}]" in screen  # the move list
        term.send("gaurd: hold")  # a typo
        assert "'gaurd: hold' is not one of your moves" in term.expect(PROMPT)
        term.send("? 0.2s")
        hints = term.expect(PROMPT)
        assert "rollouts in" in hints and "win = your side's chance to win" in hints
        term.send(label)
        screen = term.expect(PROMPT)  # the next decision of side B
        assert f"> {label}" in screen
        term.send("0")
        term.expect(PROMPT)
        term.send("q")
        end = term.expect("(arena replay ")
        assert "stopped after" in end and "(not a draw)" in end
    finally:
        code = term.close()
    assert code == 0
    assert time.monotonic() - t0 < 20
    (path,) = record_dir.glob("*.json")
    rec = load_record(path)
    assert (rec["stopped"], rec["reason"], rec["winner"]) == (True, "stopped", None)
    assert rec["system"] == "mano_a_mano" and rec["agents"] == {"B": "human", "A": "random"}
    assert rec["situation"]["source"] == str(SITUATION)
    assert rec["actions"][0] == label
    assert json.loads(path.read_text())["actions"] == rec["actions"]
    log = replay(rec, source=str(path))
    assert [line for line in log if line.startswith("> ")] == [f"> {a}" for a in rec["actions"]]
    transcript = [line.strip() for line in term.text.splitlines()]
    at = 0
    for line in log:  # the replay prints what the game printed, in the same order
        at = transcript.index(line.strip(), at) + 1
    assert arena(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    n = len(rec["actions"])
    assert out.rstrip().endswith(
        f"Replayed {n} actions (seed 4): the game was stopped after {n} actions (not finished, "
        "not a draw), as recorded."
    )
