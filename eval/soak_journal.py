"""The soak's journal (``arena soak ... --journal FILE``): every finished game as one JSON line,
so that an interrupted soak (Ctrl-C, a killed session, a lost machine) resumes where it stopped.

The first line names the run (``{"soak": 1, "target": "sizebound", "seed": 0}``); each further
line is one game: ``{"i": index in the schedule, "d": decisions, "f": failure or null, "run":
run number, "t": seconds into that run}``. Rerunning the same command with the same journal
plays only the games it lacks (``--games`` counts them all) and reports the whole soak: games,
decisions and failures of every run, and the seconds of every run added up. A last line cut off
mid-write (a killed process) is dropped, and that game is played again.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from eval.soak import Failure, GameSpec

__all__ = ["JournalError", "Journal"]

VERSION = 1


class JournalError(ValueError):
    """A journal that cannot be resumed: the message names the file, the line and the field."""


class Journal:
    """The games a soak has finished, read from ``path`` (if it exists) and appended to it."""

    def __init__(self, path: str | Path, target: str, seed: int) -> None:
        self.path = Path(path)
        self.target, self.seed = target, seed
        self.done: dict[int, tuple[int, dict[str, Any] | None]] = {}
        """index in the schedule -> (decisions, failure as a dict or None)"""
        self.prior_seconds = 0.0
        self.run = 1
        self._file: TextIO | None = None
        if self.path.exists():
            self._read()

    def _fail(self, line: int, what: str) -> JournalError:
        return JournalError(f"{self.path}: line {line}: {what}")

    def _read(self) -> None:
        text = self.path.read_text(encoding="utf-8")
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        elif lines:
            lines.pop()  # cut off mid-write: that game is played again
        if not lines:
            return
        head = self._json(lines[0], 1)
        if head.get("soak") != VERSION:
            raise self._fail(1, f"field 'soak': expected {VERSION}, got {head.get('soak')!r} "
                             "(not a soak journal)")
        for key, want in (("target", self.target), ("seed", self.seed)):
            if head.get(key) != want:
                raise self._fail(1, f"field {key!r}: the journal is for {head.get(key)!r}, this "
                                 f"soak is {want!r} (use another --journal file)")
        runs: dict[int, float] = {}
        for n, raw in enumerate(lines[1:], start=2):
            row = self._json(raw, n)
            for key, kind in (("i", int), ("d", int), ("run", int), ("t", (int, float))):
                if not isinstance(row.get(key), kind) or isinstance(row.get(key), bool):
                    raise self._fail(n, f"field {key!r}: expected a number, got {row.get(key)!r}")
            fail = row.get("f")
            if fail is not None and not (isinstance(fail, dict) and {"game", "kind", "decisions",
                                                                     "message"} <= set(fail)):
                raise self._fail(n, f"field 'f': expected a failure or null, got {fail!r}")
            self.done[row["i"]] = (row["d"], fail)
            runs[row["run"]] = max(runs.get(row["run"], 0.0), float(row["t"]))
        self.prior_seconds = sum(runs.values())
        self.run = max(runs, default=0) + 1

    def _json(self, raw: str, line: int) -> dict[str, Any]:
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as e:
            raise self._fail(line, f"not JSON ({e.msg})") from None
        if not isinstance(data, dict):
            raise self._fail(line, "expected a JSON object")
        return data

    def open(self) -> None:
        """Start appending (the header first, for a new journal)."""
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if not fresh and not self.path.read_bytes().endswith(b"\n"):
            self._truncate_last_line()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a", encoding="utf-8")
        if fresh:
            self._write({"soak": VERSION, "target": self.target, "seed": self.seed})

    def _truncate_last_line(self) -> None:
        data = self.path.read_bytes()
        self.path.write_bytes(data[: data.rfind(b"\n") + 1])

    def record(self, index: int, decisions: int, failure: Failure | None, seconds: float) -> None:
        """One finished game (``seconds`` into this run), on disk before the next."""
        fail = None if failure is None else asdict(failure)
        self.done[index] = (decisions, fail)
        self._write({"i": index, "d": decisions, "f": fail, "run": self.run,
                     "t": round(seconds, 3)})

    def _write(self, row: dict[str, Any]) -> None:
        assert self._file is not None, "Journal.open() first"
        self._file.write(json.dumps(row, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def failure_from(data: dict[str, Any]) -> Failure:
    """A journal's failure dict as a ``Failure``."""
    from eval.soak import Failure, GameSpec

    g = data["game"]
    spec = GameSpec(g["system"], g["encounter"], g["rules"], tuple(g["agents"]), g["seed"])
    return Failure(spec, data["kind"], data["decisions"], data["message"])


def spec_index(spec: GameSpec, seed: int) -> int:
    """The game's index in the schedule (game ``i`` plays seed ``seed + i``)."""
    return spec.seed - seed
