"""Mano a Mano case files (tests/cases/mano_a_mano/*.yaml) pass through ``arena cases``' runner; the
seed's Steven-vs-Clone example (spec §11.3) is among them."""

from __future__ import annotations

from pathlib import Path

import pytest

from envs.core.cases import load_case, run_case
from envs.core.data import load_yaml

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "mano_a_mano").glob("*.yaml"))


def test_the_seed_combat_example_has_a_case():
    assert any(p.name.startswith("s11_3_") for p in CASES)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case_file(path):
    data = load_yaml(path)
    assert data.get("name") and data.get("description") and str(data.get("spec", "")).startswith("§")
    result = run_case(load_case(path))
    assert result.passed, "\n".join(result.problems)
