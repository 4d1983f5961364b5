"""Every worked example of Metanoia's spec §11 has a case file (tests/cases/metanoia/*.yaml); the
files themselves run in tests/test_case_files.py."""

from __future__ import annotations

from pathlib import Path

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "metanoia").glob("*.yaml"))


def test_every_worked_example_has_a_case():
    """§11: S0..S11 and X1..X7 each have at least one case file."""
    stems = {p.name.split("_")[0].rstrip("abcde") for p in CASES}
    assert {f"s{i:02d}" for i in range(12)} | {f"x{i}" for i in range(1, 8)} <= stems
