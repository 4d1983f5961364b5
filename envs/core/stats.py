"""Small statistics shared by the agents (search) and the reports (tournaments)."""

from __future__ import annotations

import math

__all__ = ["wilson"]


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for the proportion ``k / n``.

    ``k`` may be fractional (a draw counts half a win). The bounds are clipped to [0, 1].

    Args:
        k: Successes (score), ``0 <= k <= n``.
        n: Trials (games).
        z: Normal quantile; 1.96 gives a 95% interval.

    Returns:
        ``(low, high)``; ``(0.0, 1.0)`` when ``n == 0``.

    >>> lo, hi = wilson(8, 10)
    >>> round(lo, 4), round(hi, 4)
    (0.4902, 0.9433)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(p * (1.0 - p) / n + z2 / (4 * n * n), 0.0))
    return max(0.0, centre - half), min(1.0, centre + half)
