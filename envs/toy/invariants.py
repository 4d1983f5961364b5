"""The toy's state invariants (the registry's ``invariants`` part): points in 0..target, hit
points in 0..max, a pending attack is between two active enemies, the turn holder is active."""

from __future__ import annotations

from typing import Any

__all__ = ["state_invariants"]


def state_invariants(enc: Any) -> None:
    """Raise ``AssertionError`` naming the round, the combatant and the value out of bounds."""
    for cid, points in enc.points.items():
        assert 0 <= points <= enc.target, f"round {enc.round}: {cid} has {points} points"
        assert 0 <= enc.hp[cid] <= enc.max_hp, f"round {enc.round}: {cid} has {enc.hp[cid]} hp"
    if enc.pending is not None:
        attacker, defender = enc.pending
        assert enc.side_of(attacker) != enc.side_of(defender), f"{attacker} attacks an ally"
        assert enc.is_active(attacker) and enc.is_active(defender), f"pending attack {enc.pending}"
    if not enc.is_over():
        assert enc.is_active(enc.order[enc.turn]), (
            f"round {enc.round}: {enc.order[enc.turn]} is out"
        )
