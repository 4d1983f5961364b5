"""Fixed tables of the Metaforce heuristic (agents/heuristic/metaforce.py): odds and rule look-ups
it reads, none of them a tuning weight, and its straight-line move estimate (a pure function of
the positions, remembered across decisions and rollouts)."""

from __future__ import annotations

from functools import lru_cache

from envs.core.squaregrid import distance

__all__ = ["BY_TYPE", "META_DIE", "_ADV", "_meta_sides", "straight_move"]

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


@lru_cache(maxsize=65536)
def straight_move(at: tuple[int, int], n: int, ref: tuple[int, int], ref_n: int, mode: str,
                  squares: int, stop: int, width: int, height: int) -> tuple[int, int]:
    """Where a combatant of footprint ``n`` at ``at`` ends after ``squares`` steps toward
    (``approach``: until within ``stop`` squares) or away from (``retreat``) a combatant of
    footprint ``ref_n`` at ``ref``: a straight line, clamped to the grid."""
    rx, ry = ref[0] * 2 + ref_n, ref[1] * 2 + ref_n
    x, y = at
    sx = (rx > x * 2 + n) - (rx < x * 2 + n)
    sy = (ry > y * 2 + n) - (ry < y * 2 + n)
    if mode == "retreat":
        sx, sy = -sx, -sy
    for _ in range(squares):
        if mode == "approach" and distance((x, y), n, ref, ref_n) <= stop:
            break
        nx = min(max(x + sx, 0), width - n)
        ny = min(max(y + sy, 0), height - n)
        if (nx, ny) == (x, y):
            break
        x, y = nx, ny
    return x, y
