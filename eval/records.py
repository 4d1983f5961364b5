"""Game records (JSONL) for the tournament report: validation and loading.

A record's fields are described in ``eval.report``; a bad record is a one-line ``RecordError``
naming the file, the line and the field.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["RecordError", "load_records", "validate_record"]


class RecordError(ValueError):
    """A game record or a metrics file that cannot be used; the message is one line."""


# --------------------------------------------------------------------------------------------
# Loading and validation


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_record(rec: Any, where: str) -> dict[str, Any]:
    """Check one game record and return it with defaults filled in.

    Args:
        rec: The decoded JSON value.
        where: Prefix for error messages, e.g. ``"runs/x/games.jsonl line 7"``.

    Returns:
        A shallow copy of ``rec`` with ``usage`` defaulting to ``{}`` and ``options`` to ``None``.

    Raises:
        RecordError: If a required field is missing or has the wrong type or value.
    """
    if not isinstance(rec, dict):
        raise RecordError(f"{where}: expected a JSON object, got {type(rec).__name__}")

    def bad(name: str, what: str) -> RecordError:
        return RecordError(f"{where}: field '{name}' {what}")

    for name in ("system", "encounter", "seed", "agents", "winner", "rounds"):
        if name not in rec:
            raise bad(name, "is missing")
    for name in ("system", "encounter"):
        if not isinstance(rec[name], str) or not rec[name]:
            raise bad(name, "must be a non-empty string")
    if not _is_int(rec["seed"]):
        raise bad("seed", "must be an integer")
    agents = rec["agents"]
    if (not isinstance(agents, dict) or len(agents) != 2
            or not all(isinstance(k, str) and isinstance(v, str) and v for k, v in agents.items())):
        raise bad("agents", "must map exactly 2 side ids to agent names (strings)")
    sides = list(agents)
    winner = rec["winner"]
    if winner is not None and winner not in agents:
        raise bad("winner", f"must be one of the sides {sides[0]}, {sides[1]} or null")
    if not _is_int(rec["rounds"]) or rec["rounds"] < 0:
        raise bad("rounds", "must be an integer >= 0")
    usage = rec.get("usage")
    if usage is None:
        usage = {}
    if not isinstance(usage, dict):
        raise bad("usage", "must be an object mapping side ids to {action kind: count}")
    for side, counts in usage.items():
        if side not in agents:
            raise bad("usage", f"has side {side!r}, which is not one of {sides[0]}, {sides[1]}")
        if not isinstance(counts, dict) or not all(
                isinstance(k, str) and _is_int(v) and v >= 0 for k, v in counts.items()):
            raise bad("usage", f"for side {side!r} must map action kinds to counts >= 0")
    if "reason" in rec and rec["reason"] is not None and not isinstance(rec["reason"], str):
        raise bad("reason", "must be a string")
    out = dict(rec)
    out["usage"] = usage
    out.setdefault("options", None)
    return out


def load_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read game records from a JSONL file, one JSON object per line.

    Blank lines are skipped. Every record is checked with :func:`validate_record`.

    Args:
        path: The ``.jsonl`` file.

    Returns:
        The records in file order, with ``usage`` defaulting to ``{}``.

    Raises:
        RecordError: If the file cannot be read, or for the first bad line; the one-line message
            names the file, the line number and the field, e.g.
            ``runs/x/games.jsonl line 7: field 'winner' must be one of the sides A, B or null``.
    """
    name = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{name}: cannot read game records ({exc})") from exc
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{where}: invalid JSON ({exc.msg} at column {exc.colno})") from exc
        records.append(validate_record(rec, where))
    return records
