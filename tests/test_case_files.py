"""Every case file of every registered system (tests/cases/<system>/*.yaml) passes through
``arena cases``' runner and carries a name, a spec reference and a description."""

from __future__ import annotations

from pathlib import Path

import pytest

from envs import SYSTEMS
from envs.core.cases import load_case, run_case
from envs.core.data import load_yaml

ROOT = Path(__file__).resolve().parent / "cases"
CASES = sorted(p for system in SYSTEMS for p in (ROOT / system).glob("*.yaml"))


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_system_has_case_files(system):
    assert any(p.parent.name == system for p in CASES)


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_case_file(path):
    data = load_yaml(path)
    assert (
        data.get("name") and data.get("description") and str(data.get("spec", "")).startswith("§")
    )
    result = run_case(load_case(path))
    assert result.passed, "\n".join(result.problems)
