"""Every example situation under configs/situations/ builds its fight (envs/core/situation.py and
each system's rules/situation.py; docs/situations.md) at the actor's turn decision."""

from __future__ import annotations

from pathlib import Path

import pytest

from envs.core.cases import encounter_from_situation, load_situation

ROOT = Path(__file__).resolve().parents[2] / "configs" / "situations"
FILES = sorted(ROOT.glob("*.yaml"))


def test_there_are_examples_with_inline_combatants_for_each_system():
    datas = [load_situation(p) for p in FILES]
    inline = {d["system"] for d in datas
              if any(isinstance(c.get("stats"), dict) for c in d.get("combatants", []))}
    assert inline == {"mano_a_mano", "metanoia", "sizebound", "metaforce", "palladium_revised"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_example_situation(path):
    data = load_situation(path)
    enc = encounter_from_situation(data, str(path))
    assert enc.current_actor() == data["actor"]
    assert any(a.actor == data["actor"] for a in enc.legal_actions())
