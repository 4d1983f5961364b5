"""The seed's Steven-vs-Clone example (spec §11.3) has a case file (tests/cases/mano_a_mano/*.yaml);
the files themselves run in tests/test_case_files.py."""

from __future__ import annotations

from pathlib import Path

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "mano_a_mano").glob("*.yaml"))


def test_the_seed_combat_example_has_a_case():
    assert any(p.name.startswith("s11_3_") for p in CASES)
