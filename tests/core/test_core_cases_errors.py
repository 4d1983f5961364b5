"""Bad case files (envs/core/cases.py, envs/core/data.py): every problem is a failing ``CaseResult``
or a ``DataError`` whose single-line message names the file, the entry and the field — never a
traceback. The bad files are written into ``tmp_path`` from one good Metanoia case (spec §11.1 S3).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envs.core.cases import CaseResult, load_case, run_case, run_cases
from envs.core.data import DataError

GOOD = """\
name: S3 for error tests
spec: "§11.1 S3"
description: C1 wins by 1 and lands Deteriorating 3.
system: metanoia
options: {version: core, round_limit: 1}
combatants:
  - id: c1
    side: A
    zone: 1
    stats:
      realm: 1
      texture: tranquil
      motive: 1
      identity: 1
      polarity: decay
      items:
        - {id: rot_blade, rank: 3, polarity: decay,
           keywords: [{keyword: deteriorating, reach: close}]}
  - id: c2
    side: B
    zone: 1
    stats:
      realm: 1
      texture: tranquil
      motive: 1
      identity: 1
      polarity: shadow
      abilities:
        - {keyword: counter, rank: 3}
        - {keyword: slip, rank: 4}
order: [c2, c1]
actor: c1
dice: [6, 2, 5, 3]
steps:
  - "c1: attack deteriorating@rot_blade -> c2"
  - "c2: react none"
expect:
  combatants.c2.injuries: [{keyword: deteriorating, severity: 3}]
  combatants.c2.stacks: 1
"""


def _write(tmp_path: Path, text: str, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _edit(old: str, new: str, count: int = 1) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, count)


def _outcome(path: Path) -> str:
    """Load and run like ``run_cases`` does; return the single-line message of the first problem."""
    try:
        result = run_case(load_case(path))
    except DataError as e:
        message = str(e)
    else:
        assert isinstance(result, CaseResult)
        assert not result.passed, "a bad case file must fail"
        message = result.problems[0]
    assert "\n" not in message, message
    assert "Traceback" not in message
    assert str(path) in message, f"the message must name the file: {message}"
    return message


def test_the_good_file_passes(tmp_path):
    result = run_case(load_case(_write(tmp_path, GOOD)))
    assert result.passed, result.problems


def test_malformed_yaml_names_file_and_line(tmp_path):
    path = _write(tmp_path, _edit("order: [c2, c1]", "order: [c2, c1"))
    with pytest.raises(DataError) as info:
        load_case(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: line ")
    assert "invalid YAML" in msg and "\n" not in msg


def test_unknown_keyword_in_inline_stat_block(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("keyword: counter", "keyword: countr")))
    assert "combatants[1].stats.abilities[0]" in msg
    assert "field 'keyword'" in msg
    assert "unknown keyword 'countr'" in msg


def test_unknown_stat_block(tmp_path):
    text = GOOD.replace(
        "  - id: c2\n    side: B\n    zone: 1\n    stats:\n      realm: 1\n      texture: "
        "tranquil\n"
        "      motive: 1\n      identity: 1\n      polarity: shadow\n      abilities:\n"
        "        - {keyword: counter, rank: 3}\n        - {keyword: slip, rank: 4}\n",
        "  - {id: c2, side: B, zone: 1, stats: shadow_wardn}\n",
    )
    msg = _outcome(_write(tmp_path, text))
    assert "combatants[1]" in msg and "field 'stats'" in msg
    assert "unknown stat block 'shadow_wardn'" in msg


def test_missing_field(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("      texture: tranquil\n", "")))
    assert "combatants[0].stats" in msg and "field 'texture'" in msg and "missing" in msg


def test_wrong_type(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("realm: 1", "realm: two")))
    assert "combatants[0].stats" in msg and "field 'realm'" in msg
    assert "expected an integer" in msg and "'two'" in msg


def test_wrong_type_of_a_case_field(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("dice: [6, 2, 5, 3]", "dice: 6")))
    assert "case" in msg and "field 'dice'" in msg and "expected a list" in msg


def test_duplicate_yaml_key(tmp_path):
    path = _write(tmp_path, _edit("    zone: 1\n", "    zone: 1\n    zone: 0\n"))
    msg = _outcome(path)
    assert "duplicate key 'zone'" in msg
    assert "line 10" in msg and "first at line 9" in msg


def test_duplicate_combatant_id(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("id: c2", "id: c1")))
    assert "combatants[1]" in msg and "field 'id'" in msg and "duplicate combatant id 'c1'" in msg


def test_unknown_side(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("side: B", "side: C")))
    assert "combatants[1]" in msg and "field 'side'" in msg and "unknown value 'C'" in msg


def test_illegal_action_label(tmp_path):
    msg = _outcome(
        _write(
            tmp_path,
            _edit('"c1: attack deteriorating@rot_blade -> c2"', '"c1: attack deteriorating -> c2"'),
        )
    )
    assert "case" in msg and "field 'steps[0]'" in msg
    assert "'c1: attack deteriorating -> c2'" in msg and "is not legal" in msg


def test_unreadable_label(tmp_path):
    msg = _outcome(_write(tmp_path, _edit('"c2: react none"', '"c2 react none"')))
    assert "field 'steps[1]'" in msg and "cannot read action" in msg


def test_label_with_unknown_target(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("-> c2", "-> c9")))
    assert "field 'steps[0]'" in msg and "unknown target 'c9'" in msg


def test_step_that_is_not_text(tmp_path):
    msg = _outcome(_write(tmp_path, _edit('  - "c2: react none"', "  - 5")))
    assert "case" in msg and "field 'steps[1]'" in msg and "expected an action label" in msg


def test_dice_that_run_out(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("dice: [6, 2, 5, 3]", "dice: [6, 2, 5]")))
    assert "field 'dice'" in msg and "steps[1]" in msg
    assert "asked for 2 more d6" in msg and "1 left" in msg


def test_dice_left_over(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("dice: [6, 2, 5, 3]", "dice: [6, 2, 5, 3, 4]")))
    assert "field 'dice'" in msg and "1 scripted dice were left unused" in msg and "drew 4" in msg


def test_dice_left_is_checked_even_when_none_is_left(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("expect:\n", "expect:\n  dice_left: 2\n")))
    assert "field 'dice'" in msg and "0 scripted dice were left unused" in msg


def test_dice_left_allows_declared_leftovers(tmp_path):
    text = _edit("dice: [6, 2, 5, 3]", "dice: [6, 2, 5, 3, 4]").replace(
        "expect:\n", "expect:\n  dice_left: 1\n"
    )
    assert run_case(load_case(_write(tmp_path, text))).passed


def test_unreadable_die_face(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("dice: [6, 2, 5, 3]", "dice: [6, 2, 5, x]")))
    assert "field 'dice'" in msg and "die 4" in msg and "not a die face" in msg


def test_face_not_on_the_die(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("dice: [6, 2, 5, 3]", "dice: [6, 2, 5, 7]")))
    assert "field 'dice'" in msg and "face 7 is not on a d6" in msg


def test_unknown_situation_field(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("actor: c1\n", "actor: c1\nordr: [c1]\n")))
    assert "situation" in msg and "field 'ordr'" in msg and "unknown field" in msg


def test_wrong_expectation_names_the_path(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("combatants.c2.stacks: 1", "combatants.c2.stacks: 2")))
    assert "field 'expect.combatants.c2.stacks'" in msg and "wanted 2, got 1" in msg


def test_expected_error_that_does_not_happen(tmp_path):
    msg = _outcome(_write(tmp_path, _edit("expect:\n", "expect:\n  error: not legal\n")))
    assert "field 'expect.error'" in msg and "every step was legal" in msg


def test_expected_error_matches(tmp_path):
    text = _edit('"c2: react none"', '"c2: react ward"').replace(
        "expect:\n", "expect:\n  error: is not legal\n"
    )
    text = text.replace(
        "  combatants.c2.injuries: [{keyword: deteriorating, severity: 3}]\n  "
        "combatants.c2.stacks: 1\n",
        "  phase: react\n",
    )
    assert run_case(load_case(_write(tmp_path, text))).passed


def test_guarding_a_non_ally_is_a_data_error(tmp_path):
    msg = _outcome(
        _write(tmp_path, _edit("    zone: 1\n", "    zone: 1\n    state: {guarding: c2}\n"))
    )
    assert "combatants[0].state" in msg and "field 'guarding'" in msg


def test_run_cases_reports_every_file_without_raising(tmp_path):
    _write(tmp_path, GOOD, "a_good.yaml")
    _write(tmp_path, _edit("order: [c2, c1]", "order: [c2, c1"), "b_malformed.yaml")
    _write(tmp_path, _edit("side: B", "side: C"), "c_side.yaml")
    _write(tmp_path, _edit("dice: [6, 2, 5, 3]", "dice: [6, 2, 5]"), "d_dice.yaml")
    lines: list[str] = []
    passed, failed = run_cases([tmp_path], out=lines.append)
    assert (passed, failed) == (1, 3)
    assert lines[-1] == "1 passed, 3 failed"
    text = "\n".join(lines)
    assert "Traceback" not in text
    for name in ("b_malformed.yaml", "c_side.yaml", "d_dice.yaml"):
        assert f"FAIL {tmp_path / name}" in text


def test_an_engine_exception_fails_its_case_and_the_run_goes_on(tmp_path, monkeypatch):
    """A bug in a rules engine (any exception) is reported as that case's failure, in one line."""
    import envs.core.cases as cases

    _write(tmp_path, GOOD, "a_good.yaml")
    _write(tmp_path, GOOD, "b_broken.yaml")
    real = cases.run_case

    def flaky(case):
        if case.source.endswith("b_broken.yaml"):
            raise KeyError("mount")
        return real(case)

    monkeypatch.setattr(cases, "run_case", flaky)
    lines: list[str] = []
    assert run_cases([tmp_path], out=lines.append) == (1, 1)
    failure = next(line for line in lines if "b_broken.yaml" in line)
    assert failure.startswith(f"FAIL {tmp_path / 'b_broken.yaml'}")
    problem = failure.splitlines()[1].strip()
    assert problem.startswith(
        f"{tmp_path / 'b_broken.yaml'}: the engine raised KeyError: 'mount' (at "
    )
