"""Situation and case files (DESIGN.md, "Situations and cases"; docs/situations.md).

A **situation** describes a fight in progress: ``system``, an ``encounter`` and/or ``combatants``,
``round``, ``actor``, rule ``options`` (read by ``envs.core.situation`` and the system's rules
module, which turns it into an ``Encounter``).

A **case** is a situation plus ``name``, ``spec``, ``description``, ``dice`` (forced faces in draw
order), ``steps`` and ``expect``. A step is an action label, applied in order, a check
``{check: {...}}``, which applies nothing and checks the fight at that point, or a scenario event
``{event: "..."}``: something the scenario does between decisions, outside the actions (a fall, a
heal), read by the encounter's ``scenario_event(text, dice)`` (a system without one, or a text it
cannot read, is the step's error). ``expect`` is checked after the last step. Both take:

- dotted paths into ``snapshot()`` with expected values (``combatants.c2.stun: 3``);
- ``legal`` / ``illegal``: action labels that must / must not be legal for the decision at hand
  (each must be a readable label: an unreadable one is a problem, not "illegal");
- ``events``: texts that must appear, in order, in the event log so far;
- ``absent_events``: texts that no event so far may contain.

``expect`` also takes ``error`` (text the error of a step must contain; later steps are not run)
and ``dice_left`` (scripted dice left unused at the end, default 0).

``arena cases PATH...`` runs case files (directories are searched for ``*.yaml``) and ends with
``N passed, N failed``; paths without any case file are a ``DataError`` (exit status 2).
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
    steps: list[str | dict[str, Any]]
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
        if isinstance(step, dict) and "event" in step:
            ev = Entry(step, src, f"case.steps[{i}]")
            ev.req("event", str, "a scenario event (text)")
            ev.done()
        elif isinstance(step, dict):
            check = Entry(step, src, f"case.steps[{i}]")
            body = check.req("check", dict, "a mapping: legal, illegal, events, absent_events, "
                             "snapshot paths")
            check.done()
            _labels(Entry(body, src, f"case.steps[{i}].check"))
        elif not isinstance(step, str):
            entry.fail(f"steps[{i}]",
                       f"expected an action label (text) or {{check: ...}}, got {step!r}")
    expect = entry.opt("expect", {}, dict, "a mapping of snapshot paths to values")
    _labels(Entry(expect, src, "case.expect"))
    situation = {k: v for k, v in data.items() if k not in CASE_KEYS}
    return Case(src, name, situation, dice, steps, expect, spec)


def _labels(e: Entry) -> None:
    """``legal``, ``illegal``, ``events`` and ``absent_events`` are lists of text."""
    for key in STEP_CHECK_KEYS:
        if key in ("events", "absent_events") and isinstance(e.data.get(key), str):
            continue  # one text
        values = e.items(key, [])
        if not all(isinstance(v, str) for v in values):
            e.fail(key, f"expected a list of texts, got {values!r}")


def resolve_path(snapshot: Any, path: str) -> Any:
    """Follow a dotted path (``combatants.c2.injuries.0.severity``) into a snapshot."""
    node = snapshot
    for part in str(path).split("."):
        if isinstance(node, dict):
            if part not in node:
                raise KeyError(
                    f"no {part!r} at {path!r} (has: {', '.join(map(str, node)) or 'nothing'})"
                )
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


STEP_CHECK_KEYS = ("legal", "illegal", "events", "absent_events")
"""The special keys of a ``check`` step and of ``expect`` (besides snapshot paths)."""


def run_case(case: Case) -> CaseResult:
    result = CaseResult(case.source, case.name, True)
    problems = result.problems
    # Every problem is one line naming the file, the entry and the field (data.py's DataError
    # format).
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
        for i, step in enumerate(case.steps):
            if isinstance(step, dict) and "event" in step:  # a scenario event
                happen = getattr(enc, "scenario_event", None)
                if happen is None:
                    error_text = (f"{where} 'steps[{i}].event': {case.situation.get('system')} "
                                  "has no scenario events")
                    break
                try:
                    events.extend(happen(step["event"], dice))
                except DiceError as e:  # a ValueError too: first
                    error_text = f"{where} 'dice': at steps[{i}] {step['event']!r}: {e}"
                    break
                except ValueError as e:
                    error_text = f"{where} 'steps[{i}].event': {e}"
                    break
                continue
            if isinstance(step, dict):  # a check: expectations at this point, nothing applied
                _check(enc, step["check"], [str(e) for e in events], f"{where} 'steps[{i}].check",
                       problems)
                continue
            try:
                action = enc.parse_action(step)
                events.extend(enc.apply(action, dice))
            except IllegalActionError as e:
                error_text = f"{where} 'steps[{i}]': {step!r}: {e}"
                break
            except DiceError as e:
                error_text = f"{where} 'dice': at steps[{i}] {step!r}: {e}"
                break
    except (DataError, DiceError) as e:
        error_text = str(e)
        enc = None
    if expected_error is not None:
        if error_text is None:
            problems.append(
                f"{where} 'expect.error': expected an error containing {expected_error!r}, but "
                "every step was legal"
            )
        elif str(expected_error).lower() not in error_text.lower():
            problems.append(
                f"{where} 'expect.error': expected an error containing {expected_error!r}, got: "
                f"{error_text}"
            )
    elif error_text is not None:
        problems.append(error_text)
    if enc is None:
        result.passed = not problems
        return result
    if error_text is None:  # 'dice_left' (default 0) is checked even when no die is left
        want_left = case.expect.get("dice_left", 0)
        if dice.remaining != want_left:
            problems.append(
                f"{where} 'dice': {dice.remaining} scripted dice were left unused (the rules drew "
                f"{dice.used})"
            )
    final = {k: v for k, v in case.expect.items() if k not in ("error", "dice_left")}
    _check(enc, final, [str(e) for e in events], f"{where} 'expect", problems)
    result.passed = not problems
    return result


def _check(enc: Any, expect: dict[str, Any], log: list[str], where: str,
           problems: list[str]) -> None:
    """Check ``expect`` against the encounter now: ``legal`` / ``illegal`` labels (of the current
    decision), ``events`` (texts in the log so far, in order), ``absent_events`` (texts in no event
    so far) and dotted snapshot paths. ``where`` ends in the entry (``... field 'expect``)."""
    snap = None
    for key, want in expect.items():
        at = f"{where}.{key}'"
        if key in ("legal", "illegal"):
            legal = enc.legal_actions()
            for label in want:
                try:
                    action = enc.parse_action(label)
                except (IllegalActionError, ValueError) as e:
                    problems.append(f"{at}: cannot read {label!r}: {e}")
                    continue
                if (action in legal) != (key == "legal"):
                    now = ", ".join(a.label for a in legal) or "none"
                    problems.append(f"{at}: {label!r} is {'not ' if key == 'legal' else ''}legal "
                                    f"here (legal: {now})")
        elif key == "events":
            pos = 0
            for text in want if isinstance(want, list) else [want]:
                hit = next((j for j in range(pos, len(log)) if str(text) in log[j]), None)
                if hit is None:
                    problems.append(f"{at}: no event containing {text!r} (in order); log:\n       "
                                    + "\n       ".join(log))
                    break
                pos = hit + 1
        elif key == "absent_events":
            for text in want if isinstance(want, list) else [want]:
                found = next((line for line in log if str(text) in line), None)
                if found is not None:
                    problems.append(f"{at}: an event contains {text!r}: {found!r}")
        else:
            if snap is None:
                snap = enc.snapshot()
            try:
                got = resolve_path(snap, key)
            except KeyError as e:
                problems.append(f"{at}: {e.args[0]}")
                continue
            if _norm(got) != _norm(want):
                problems.append(f"{at}: wanted {want!r}, got {got!r}")


def find_case_files(paths: Iterable[str | Path]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files.extend(sorted(p.rglob("*.yaml")))
        else:
            files.append(p)
    return files


def run_cases(
    paths: Iterable[str | Path], out: Callable[[str], None] = print, verbose: bool = False
) -> tuple[int, int]:
    """Run every case file under ``paths``; print failures (and passes if ``verbose``). Raises
    ``DataError`` when ``paths`` hold no case file."""
    paths = list(paths)
    files = find_case_files(paths)
    if not files:  # a wrong folder must not look like a green run
        raise DataError(f"{', '.join(map(str, paths)) or 'no path'}: no case files found (*.yaml)")
    passed = failed = 0
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
    out(f"{passed} passed, {failed} failed")
    return passed, failed
