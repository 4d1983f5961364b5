"""Metanoia's state invariants (the registry's ``invariants`` part): checked after every ``apply``
by the property tests and ``arena soak``.

Strain in 0..strain_max, stacks in 0..10, Injuries <= slots, Convictions in 0..conv_max or None for
the mindless, status ranks > 0, a full Injury track means out of the fight, no Convictions left
means broken, a guard guards an ally.
"""

from __future__ import annotations

from typing import Any

from .rules import rulings as metanoia_rulings

__all__ = ["state_invariants"]


def state_invariants(enc: Any) -> None:
    """Raise ``AssertionError`` naming the round, the combatant and the value out of bounds."""
    for f in enc.fighters:
        b = f.block
        who = f"round {enc.round}: {f.id}"
        assert 0 <= f.strain <= b.strain_max, f"{who}: strain {f.strain} outside 0..{b.strain_max}"
        assert 0 <= f.stacks <= metanoia_rulings.STACKS_CAP, f"{who}: stacks {f.stacks}"
        assert len(f.injuries) <= b.injury_slots, (
            f"{who}: {len(f.injuries)} injuries > {b.injury_slots} slots"
        )
        assert all(sev > 0 for _, sev in f.injuries), (
            f"{who}: injury of severity <= 0: {f.injuries}"
        )
        if b.conv_max is None:
            assert f.conv is None, f"{who}: mindless but has convictions {f.conv}"
        else:
            assert 0 <= f.conv <= b.conv_max, f"{who}: conv {f.conv} outside 0..{b.conv_max}"
        assert all(rank > 0 for rank in f.statuses.values()), f"{who}: statuses {f.statuses}"
        if len(f.injuries) >= b.injury_slots:
            assert f.defeated, f"{who}: full injury track but not defeated"
        if f.conv is not None and f.conv <= 0:
            assert f.broken, f"{who}: no convictions left but not broken"
        if f.guarding is not None:
            g = enc.by_id[f.guarding]
            assert g.side == f.side and g is not f, f"{who}: guards {f.guarding}, not an ally"
