"""The odds and the worth constants the Sizebound heuristic reads (``sizebound.py``, and its
windows in ``sizebound_windows.py``): exact d20 chances, one roll or a contest."""

from __future__ import annotations

from functools import cache

__all__ = ["p_over", "p_contest", "mod_of", "KILL", "STUN"]

KILL, STUN = 12.0, 4.0  # bonus HP-equivalents for finishing an enemy / putting it at 0 HP


@cache
def p_over(mod: int, target: int, edge: int = 0, fumble: bool = True) -> float:
    """P(d20 + mod > target); ``edge`` +1 advantage, -1 disadvantage; a natural 1 fails."""
    n = sum(1 for d in range(2 if fumble else 1, 21) if d + mod > target)
    p = n / 20
    return 1 - (1 - p) ** 2 if edge > 0 else p * p if edge < 0 else p


@cache
def p_contest(a: int, b: int, edge_a: int = 0, edge_b: int = 0) -> float:
    """P(d20 + a > d20 + b): the initiator wins only strictly (R-13)."""
    def dist(edge: int) -> list[float]:
        if edge == 0:
            return [1 / 20] * 20
        return [((k * k - (k - 1) ** 2) if edge > 0 else ((21 - k) ** 2 - (20 - k) ** 2)) / 400
                for k in range(1, 21)]
    da, db = dist(edge_a), dist(edge_b)
    return sum(pa * pb for i, pa in enumerate(da) for j, pb in enumerate(db) if i + a > j + b)


def mod_of(total: int) -> int:
    return total // 2 - 5
