"""The shared rule-options parser (envs/core/options.py) behind both systems' ``parse_options``:
the same accepted values, the same resulting options, one ``DataError`` format naming the file,
the entry and the field."""

from __future__ import annotations

import pytest

from envs.core.data import DataError
from envs.mano_a_mano.rules import options as mano
from envs.metanoia.rules import options as meta

SYSTEMS = [mano, meta]


@pytest.mark.parametrize("module", SYSTEMS, ids=["mano_a_mano", "metanoia"])
def test_presets_and_instances(module):
    assert module.parse_options(None) is module.FULL
    assert module.parse_options("full") is module.FULL
    assert module.parse_options("core") is module.CORE
    assert module.parse_options(module.CORE) is module.CORE
    assert module.parse_options({"version": "core"}) == module.CORE
    assert module.parse_options({}) == module.FULL


def test_mappings_change_the_named_preset():
    got = mano.parse_options({"version": "core", "darkness": "very_dim", "round_limit": 10})
    assert got == mano.RuleOptions(full=False, darkness="very_dim", round_limit=10)
    got = meta.parse_options({"version": "core", "zones": 2, "guard": True})
    assert got == meta.RuleOptions(
        "core", guard=True, withdraw=False, instrument=False, surprise=False, hazards=False, zones=2
    )


@pytest.mark.parametrize(
    ("module", "spec", "field", "text"),
    [
        (
            mano,
            {"darkness": "dusk"},
            "darkness",
            "darkness must be normal, very_dim, total, got 'dusk'",
        ),
        (mano, {"round_limit": 0}, "round_limit", "round_limit must be a whole number >= 1, got 0"),
        (mano, {"full": 1}, "full", "full must be true or false, got 1"),
        (
            mano,
            {"speed": 3},
            "speed",
            "unknown field 'speed'; known: armor_levels, critical_hits, darkness",
        ),
        (meta, {"zones": 1}, "zones", "zones must be a whole number >= 2, got 1"),
        (
            meta,
            {"round_limit": True},
            "round_limit",
            "round_limit must be a whole number >= 1, got True",
        ),
        (meta, {"guard": "yes"}, "guard", "guard must be true or false, got 'yes'"),
        (
            meta,
            {"darkness": "total"},
            "darkness",
            "unknown field 'darkness'; known: guard, hazards",
        ),
        (
            meta,
            {"version": "medium"},
            "version",
            "unknown rules 'medium'; version must be core or full",
        ),
        (
            mano,
            {"version": "medium"},
            "version",
            "unknown rules 'medium'; version must be core or full",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_bad_fields_name_file_entry_and_field(module, spec, field, text):
    with pytest.raises(DataError) as info:
        module.parse_options(spec, "fight.yaml", "situation.options")
    assert str(info.value).startswith(f"fight.yaml: situation.options: field {field!r}: {text}")


@pytest.mark.parametrize("module", SYSTEMS, ids=["mano_a_mano", "metanoia"])
def test_unknown_rules_for_an_env_argument(module):
    for bad in ("medium", 3):
        with pytest.raises(DataError) as info:
            module.parse_options(bad)
        assert str(info.value) == (
            f"rules=: options: unknown rules {bad!r}: must be 'core', 'full' "
            "or a mapping of rule options"
        )
