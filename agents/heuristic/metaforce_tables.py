"""Fixed tables of the Metaforce heuristic (agents/heuristic/metaforce.py): odds and rule look-ups
it reads, none of them a tuning weight."""

from __future__ import annotations

__all__ = ["BY_TYPE", "META_DIE", "_ADV", "_meta_sides"]

BY_TYPE = {"blunt": "knockback", "slashing": "bleed", "piercing": "bleed", "fire": "burn",
           "electric": "stun"}  # the status a damage type carries (spec §2.7, R-16)
_ADV = {k: (k * k - (k - 1) * (k - 1)) / 144 for k in range(1, 13)}  # the higher of 2d12
META_DIE = ((12, 12), (10, 10), (8, 8), (6, 6), (4, 4))  # (MP needed, Meta-Die sides), R-41


def _meta_sides(mp: int) -> int:
    """The largest Meta-Die ``mp`` can create (0: none)."""
    for need, sides in META_DIE:
        if mp >= need:
            return sides
    return 0
