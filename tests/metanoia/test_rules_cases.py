"""Every worked example of spec §11 as a case file (tests/cases/metanoia/*.yaml) passes, and every
file carries a name, a spec reference and a description."""

from __future__ import annotations

from pathlib import Path

import pytest

from envs.core.cases import load_case, run_case
from envs.core.data import load_yaml

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "metanoia").glob("*.yaml"))


def test_every_worked_example_has_a_case():
    """§11: S0..S11 and X1..X7 each have at least one case file."""
    stems = {p.name.split("_")[0].rstrip("abcde") for p in CASES}
    assert {f"s{i:02d}" for i in range(12)} | {f"x{i}" for i in range(1, 8)} <= stems


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case_file(path):
    data = load_yaml(path)
    assert data.get("name") and data.get("description") and str(data.get("spec", "")).startswith("§")
    result = run_case(load_case(path))
    assert result.passed, "\n".join(result.problems)
