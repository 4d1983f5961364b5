"""Metanoia situations (rules/situation.py on envs/core/situation.py; docs/situations.md): ids
that are not in the encounter, inline combatants next to an encounter's."""

from __future__ import annotations

import pytest

from envs.core.data import DataError
from envs.metanoia.rules import from_situation, stat_blocks

BASE = {
    "system": "metanoia",
    "encounter": "duel_seed",
    "order": ["rotblade_duelist", "shadow_warden"],
    "actor": "rotblade_duelist",
}


def test_a_misspelt_combatant_id_names_it_and_the_known_ones():
    data = {**BASE, "combatants": [{"id": "shadow_wardn", "state": {"strain": 2}}]}
    with pytest.raises(DataError) as info:
        from_situation(data, "duel.yaml")
    assert str(info.value) == (
        "duel.yaml: combatants[0]: field 'id': unknown combatant 'shadow_wardn': encounter "
        "'duel_seed' has rotblade_duelist, shadow_warden (a new combatant needs 'side' and 'stats')"
    )


def test_a_combatant_of_the_encounter_keeps_its_block_and_takes_state():
    data = {**BASE, "combatants": [{"id": "shadow_warden", "side": "B", "state": {"strain": 2}}]}
    enc = from_situation(data, "duel.yaml")
    assert enc.by_id["shadow_warden"].strain == 2
    assert enc.by_id["shadow_warden"].block is stat_blocks()["shadow_warden"]
    data["combatants"][0]["stats"] = "dusk_wyrm"
    with pytest.raises(DataError, match="field 'stats': 'shadow_warden' comes with its stat block"):
        from_situation(data, "duel.yaml")


def test_an_inline_combatant_joins_an_encounter():
    stats = {
        "realm": 1,
        "texture": "tranquil",
        "motive": 2,
        "identity": 1,
        "polarity": "decay",
        "abilities": [{"keyword": "counter", "rank": 2}],
    }
    data = {
        "system": "metanoia",
        "encounter": "duel_seed",
        "actor": "rotblade_duelist",
        "combatants": [{"id": "ally", "side": "A", "zone": 1, "stats": stats}],
    }
    enc = from_situation(data, "duel.yaml")
    ally = enc.by_id["ally"]
    assert (ally.side, ally.zone, ally.block.motive) == ("A", 1, 2)
    assert [f.id for f in enc.fighters] == ["rotblade_duelist", "ally", "shadow_warden"]
