"""Sizebound's state invariants (the registry's ``invariants`` part): checked after every
``apply`` by the property tests and ``arena soak``.

HP >= PNR for the living, HP <= max, Mana <= max, Guard >= 0, Exertion Dice in 0..max,
reactions >= 0, positions on the map and off walls, no hostile sharing a cell, capacity (R-29),
the attack pool and movement budget in range, grapples mutual and adjacent.
"""

from __future__ import annotations

from typing import Any

from envs.core.squaregrid import distance, footprint
from envs.sizebound.rules.full_sides import pool_cap

__all__ = ["state_invariants"]


def _who(enc: Any, f: Any) -> str:
    return f"round {enc.round}: {f.id}"


def state_invariants(enc: Any) -> None:
    """Raise ``AssertionError`` naming the round, the combatant and the value out of bounds."""
    grid = enc.grid
    load: dict[tuple[int, int], list[Any]] = {}
    for f in enc.fighters:
        p = f.profile
        assert f.hp <= p.max_hp, f"{_who(enc, f)}: hp {f.hp} > max {p.max_hp}"
        assert f.mana <= p.max_mana, f"{_who(enc, f)}: mana {f.mana} > max {p.max_mana}"
        assert 0 <= f.dice <= pool_cap(enc, f), f"{_who(enc, f)}: exertion dice {f.dice}"
        assert f.guard >= 0, f"{_who(enc, f)}: guard {f.guard}"
        assert f.reactions >= 0, f"{_who(enc, f)}: reactions {f.reactions}"
        assert f.pool_general >= 0 and all(v >= 0 for v in f.pool_weapon.values()), \
            f"{_who(enc, f)}: attack pool {f.pool_general} {f.pool_weapon}"
        assert f.budget >= 0, f"{_who(enc, f)}: movement budget {f.budget}"
        assert 0 <= f.mr <= p.mr, f"{_who(enc, f)}: MR {f.mr}"
        assert len(set(f.used)) == len(f.used), f"{_who(enc, f)}: actions spent twice {f.used!r}"
        if not f.alive:
            assert not f.grips and not f.grappled_by, f"{_who(enc, f)}: dead but grappling"
            continue
        assert f.hp >= p.pnr, f"{_who(enc, f)}: alive with hp {f.hp} < PNR {p.pnr}"
        assert f.free_hands >= 0, \
            f"{_who(enc, f)}: hands over-used ({f.hands_used()} > {p.hands})"
        for c in footprint(f.pos, f.n):
            assert grid.passable(c), \
                f"{_who(enc, f)}: at {f.pos} covers {c}, off the map or a wall"
            here = load.get(c)
            if here is None:
                load[c] = [f]
            else:
                here.append(f)
        for g in f.grips:
            t = enc.by_id[g]
            assert f.id in t.grappled_by, \
                f"{_who(enc, f)}: grips {g} but {g} is not grappled by it"
            assert distance(f.pos, f.n, t.pos, t.n) <= 1, f"{_who(enc, f)}: grips {g} from afar"
    for cell, here in load.items():
        if len(here) < 2:
            continue
        ids = ", ".join(f.id for f in here)
        assert len({f.side for f in here}) == 1, f"round {enc.round}: hostiles share {cell}: {ids}"
        assert all(f.profile.footprint < 1 for f in here), \
            f"round {enc.round}: a Large+ creature shares {cell}: {ids}"
        total = sum(f.profile.footprint for f in here)
        assert total <= 1.0 + 1e-9, f"round {enc.round}: {cell} holds {total} (> 1): {ids}"
