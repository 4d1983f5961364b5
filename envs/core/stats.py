"""Small statistics shared by the agents (search) and the reports (tournaments)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["wilson", "mean_interval", "paired_difference"]


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


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal-approximation interval ``(mean, low, high)``.

    With fewer than two values the interval is ``(-inf, inf)`` around the mean (``nan`` for none).

    >>> [round(x, 4) for x in mean_interval([1.0, 0.0, 1.0, 0.0])]
    [0.5, -0.0658, 1.0658]
    """
    n = len(values)
    if n == 0:
        return math.nan, -math.inf, math.inf
    mean = sum(values) / n
    if n < 2:
        return mean, -math.inf, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def paired_difference(
    variant: Sequence[float], base: Sequence[float], z: float = 1.96
) -> tuple[float, float, float]:
    """``variant - base`` on paired games (game i of both on the same seed): the mean of the
    per-game differences and its interval ``(mean, low, high)`` (``mean_interval``)."""
    if len(variant) != len(base):
        raise ValueError(f"paired samples differ in size: {len(variant)} and {len(base)}")
    return mean_interval([v - b for v, b in zip(variant, base, strict=True)], z)
