"""Mano a Mano's state invariants (the registry's ``invariants`` part): checked after every
``apply`` by the property tests and ``arena soak``.

No two fighters in one hex (RULING R46) unless the rules allow it: exactly a rider and its mount
(spec §5.11), both standing and active; nobody on a wall or off the map.
"""

from __future__ import annotations

from typing import Any

__all__ = ["state_invariants"]


def state_invariants(enc: Any) -> None:
    """Raise ``AssertionError`` naming the round, the fighters and the hexes that break a rule."""
    riders = enc.mounts
    hexes = [f.hex for f in enc.fighters if f.id not in riders]
    assert len(set(hexes)) == len(hexes), (
        f"round {enc.round}: two fighters in a hex: {sorted(hexes)}"
    )
    assert len(set(riders.values())) == len(riders), f"a mount carries two riders: {riders}"
    for rider, mount in riders.items():
        r, m = enc.by_id[rider], enc.by_id[mount]
        assert r.side == m.side and m.block.mount is not None and rider not in riders.values()
        assert r.hex == m.hex, f"round {enc.round}: {rider} at {r.hex} is not on {mount} at {m.hex}"
        assert r.standing and m.standing and not r.incapacitated and not m.incapacitated
        assert not enc.grappling(rider), f"{rider} grapples while mounted"
    for f in enc.fighters:
        assert enc.map.passable(f.hex), f"{f.id} stands on a wall or off the map at {f.hex}"
