"""Situation and case files (DESIGN.md, "Situations and cases").

A **situation** describes a fight in progress: ``system``, an ``encounter`` and/or ``combatants``,
``round``, ``actor``, rule ``options``; the system's rules module turns it into an ``Encounter``.
A **case** is a situation plus ``dice`` (forced faces in draw order), ``steps`` (action labels
applied in order) and ``expect``: dotted paths into ``snapshot()`` with expected values, plus the
special keys ``error`` (text the error of a step must contain; later steps are not run) and
``events`` (texts that must appear, in order, in the event log).

``arena cases PATH...`` runs case files (directories are searched for ``*.yaml``) and ends with
``N passed, N failed``.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import IllegalActionError
from .data import DataError, Entry, load_yaml
from .dice import DiceError, ScriptedDice

__all__ = [
    "CASE_KEYS",
    "Case",
    "CaseResult",
    "load_situation",
    "load_case",
    "run_case",
    "run_cases",
    "find_case_files",
    "encounter_from_situation",
    "resolve_path",
]

CASE_KEYS = ("name", "spec", "description", "dice", "steps", "expect")
_MISSING = object()


@dataclass
class Case:
    source: str
    name: str
    situation: dict[str, Any]
    dice: list[Any]
    steps: list[str]
    expect: dict[str, Any]
    spec: str = ""


@dataclass
class CaseResult:
    source: str
    name: str
    passed: bool
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        head = "PASS" if self.passed else "FAIL"
        text = f"{head} {self.source} ({self.name})"
        if self.problems:
            text += "".join(f"\n     {p}" for p in self.problems)
        return text


def load_situation(path: str | Path) -> dict[str, Any]:
    """Read a situation file into a plain dict (its ``system`` is checked against the registry)."""
    data = load_yaml(path)
    entry = Entry(data, str(path), "situation")
    _system(entry)
    return dict(data)


def _system(entry: Entry) -> str:
    from envs import SYSTEMS

    return entry.choice("system", list(SYSTEMS))


def encounter_from_situation(data: dict[str, Any], source: str, dice: Any = None):
    """Build the ``Encounter`` a situation describes, through its system's rules module."""
    from envs import get_rules

    entry = Entry(data, source, "situation")
    system = _system(entry)
    situation = {k: v for k, v in data.items() if k not in CASE_KEYS}
    return get_rules(system).from_situation(situation, source, dice)


def load_case(path: str | Path) -> Case:
    data = load_yaml(path)
    src = str(path)
    entry = Entry(data, src, "case")
    _system(entry)
    name = entry.opt("name", Path(src).stem, str)
    spec = entry.opt("spec", "", str)
    entry.opt("description", "", str)
    dice = entry.items("dice", [])
    steps = entry.items("steps", [])
    for i, step in enumerate(steps):
        if not isinstance(step, str):
            entry.fail(f"steps[{i}]", f"expected an action label (text), got {step!r}")
    expect = entry.opt("expect", {}, dict, "a mapping of snapshot paths to values")
    situation = {k: v for k, v in data.items() if k not in CASE_KEYS}
    return Case(src, name, situation, dice, steps, expect, spec)


def resolve_path(snapshot: Any, path: str) -> Any:
    """Follow a dotted path (``combatants.c2.injuries.0.severity``) into a snapshot."""
    node = snapshot
    for part in str(path).split("."):
        if isinstance(node, dict):
            if part not in node:
                raise KeyError(f"no {part!r} at {path!r} (has: {', '.join(map(str, node)) or 'nothing'})")
            node = node[part]
        elif isinstance(node, list | tuple):
            try:
                node = node[int(part)]
            except (ValueError, IndexError):
                raise KeyError(f"no item {part!r} at {path!r} (list of {len(node)})") from None
        else:
            raise KeyError(f"{path!r} goes past a value ({node!r})")
    return node


def _norm(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _norm(v) for k, v in value.items()}
    return value


def run_case(case: Case) -> CaseResult:
    result = CaseResult(case.source, case.name, True)
    problems = result.problems
    # Every problem is one line naming the file, the entry and the field (data.py's DataError format).
    where = f"{case.source}: case: field"
    try:
        dice = ScriptedDice(case.dice)
    except DiceError as e:
        return CaseResult(case.source, case.name, False, [f"{where} 'dice': {e}"])
    expected_error = case.expect.get("error")
    error_text = None
    events: list[Any] = []
    try:
        enc = encounter_from_situation(case.situation, case.source, dice)
        events.extend(getattr(enc, "start_events", []))
        for i, label in enumerate(case.steps):
            try:
                action = enc.parse_action(label)
                events.extend(enc.apply(action, dice))
            except IllegalActionError as e:
                error_text = f"{where} 'steps[{i}]': {label!r}: {e}"
                break
            except DiceError as e:
                error_text = f"{where} 'dice': at steps[{i}] {label!r}: {e}"
                break
    except (DataError, DiceError) as e:
        error_text = str(e)
        enc = None
    if expected_error is not None:
        if error_text is None:
            problems.append(f"{where} 'expect.error': expected an error containing {expected_error!r}, but every step was legal")
        elif str(expected_error).lower() not in error_text.lower():
            problems.append(f"{where} 'expect.error': expected an error containing {expected_error!r}, got: {error_text}")
    elif error_text is not None:
        problems.append(error_text)
    if enc is None:
        result.passed = not problems
        return result
    if error_text is None:  # 'dice_left' (default 0) is checked even when no die is left
        want_left = case.expect.get("dice_left", 0)
        if dice.remaining != want_left:
            problems.append(f"{where} 'dice': {dice.remaining} scripted dice were left unused (the rules drew {dice.used})")
    snap = enc.snapshot()
    log = [str(e) for e in events]
    for key, want in case.expect.items():
        if key in ("error", "dice_left"):
            continue
        if key == "events":
            pos = 0
            for text in want if isinstance(want, list) else [want]:
                hit = next((j for j in range(pos, len(log)) if str(text) in log[j]), None)
                if hit is None:
                    problems.append(f"{where} 'expect.events': no event containing {text!r} (in order); log:\n       " + "\n       ".join(log))
                    break
                pos = hit + 1
            continue
        try:
            got = resolve_path(snap, key)
        except KeyError as e:
            problems.append(f"{where} 'expect.{key}': {e.args[0]}")
            continue
        if _norm(got) != _norm(want):
            problems.append(f"{where} 'expect.{key}': wanted {want!r}, got {got!r}")
    result.passed = not problems
    return result


def find_case_files(paths: Iterable[str | Path]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files.extend(sorted(p.rglob("*.yaml")))
        else:
            files.append(p)
    return files


def run_cases(paths: Iterable[str | Path], out: Callable[[str], None] = print, verbose: bool = False) -> tuple[int, int]:
    """Run every case file under ``paths``; print failures (and passes if ``verbose``)."""
    passed = failed = 0
    files = find_case_files(paths)
    for path in files:
        try:
            result = run_case(load_case(path))
        except DataError as e:
            result = CaseResult(str(path), path.stem, False, [str(e)])
        except Exception as e:  # an engine bug fails this case, not the whole run
            where = traceback.extract_tb(e.__traceback__)[-1]
            result = CaseResult(str(path), path.stem, False, [
                f"{path}: the engine raised {type(e).__name__}: {e} "
                f"(at {Path(where.filename).name}:{where.lineno})"])
        if result.passed:
            passed += 1
        else:
            failed += 1
        if verbose or not result.passed:
            out(result.line())
    if not files:
        out("no case files found")
    out(f"{passed} passed, {failed} failed")
    return passed, failed
