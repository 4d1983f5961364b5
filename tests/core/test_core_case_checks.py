"""Case files that say more (envs/core/cases.py): ``check`` steps and ``expect`` with ``legal``,
``illegal``, ``events`` and ``absent_events``; paths without case files; files that are not UTF-8
(envs/core/files.py ``read_text``, used by every YAML read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envs.core.cases import load_case, run_case, run_cases
from envs.core.data import DataError, load_yaml
from eval.cli import main

# Steven against the clone, Steven's turn; a natural 20 hits for 5 damage (machete power 5).
CASE = """\
name: checks
spec: "§5.2"
description: check steps and expect keys
system: mano_a_mano
combatants:
  - {id: s, side: A, block: steven, state: {hex: [0, 0]}}
  - {id: c, side: B, block: clone, state: {hex: [1, 0]}}
actor: s
order: [s, c]
dice: [20]
steps:
  - check:
      legal: ["s: strike quick machete -> c", "s: move 1"]
      illegal: ["s: move 0"]
      combatants.c.damage: 0
  - "s: strike quick machete -> c"
  - check: {events: ["success"], absent_events: ["stun (incapacitated"]}
expect:
  combatants.c.damage: 5
  absent_events: ["failure"]
"""


def _run(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    result = run_case(load_case(path))
    return result.problems


def test_check_steps_and_expect_pass(tmp_path):
    assert _run(tmp_path, CASE) == []


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            'illegal: ["s: move 0"]',
            'illegal: ["s: move 1"]',
            "field 'steps[0].check.illegal': 's: move 1' is legal here",
        ),
        (
            'legal: ["s: strike quick machete -> c", "s: move 1"]',
            'legal: ["s: move 0"]',
            "field 'steps[0].check.legal': 's: move 0' is not legal here (legal: s: counter",
        ),
        (
            "combatants.c.damage: 0",
            "combatants.c.damage: 1",
            "field 'steps[0].check.combatants.c.damage': wanted 1, got 0",
        ),
        (
            'absent_events: ["stun (incapacitated"]',
            'absent_events: ["success"]',
            "field 'steps[2].check.absent_events': an event contains 'success'",
        ),
        (
            'absent_events: ["failure"]',
            'absent_events: ["machete"]',
            "field 'expect.absent_events': an event contains 'machete'",
        ),
        (
            'illegal: ["s: move 0"]',
            'illegal: ["s move 0"]',
            "field 'steps[0].check.illegal': cannot read 's move 0'",
        ),
    ],
)
def test_each_check_can_fail(tmp_path, old, new, problem):
    assert old in CASE
    problems = _run(tmp_path, CASE.replace(old, new))
    assert len(problems) == 1 and problem in problems[0], problems
    assert problems[0].startswith(f"{tmp_path / 'case.yaml'}: case: ")


def test_a_bad_check_step_is_a_data_error(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text(CASE.replace("  - check: {events", "  - chek: {events"), encoding="utf-8")
    with pytest.raises(DataError, match=r"case.steps\[2\]: field 'check': missing"):
        load_case(path)
    path.write_text(CASE.replace('legal: ["s: strike', 'legal: [3, "s: strike'), encoding="utf-8")
    with pytest.raises(
        DataError, match=r"case.steps\[0\].check: field 'legal': expected a list of texts"
    ):
        load_case(path)


def test_paths_without_case_files_are_an_error_with_exit_status_2(tmp_path, capsys):
    with pytest.raises(DataError, match="no case files found"):
        run_cases([tmp_path])
    assert main(["cases", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith(f"{tmp_path}: no case files found (*.yaml)") and "\n" not in err


def test_a_file_that_is_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: caf\u00e9\n".encode("latin-1"))
    with pytest.raises(DataError) as info:
        load_yaml(path)
    assert str(info.value) == (
        f"{path}: not UTF-8 text (byte 0xe9 at offset 9); save the file as UTF-8"
    )
    passed, failed = run_cases([path], out=lambda line: None)
    assert (passed, failed) == (0, 1)
