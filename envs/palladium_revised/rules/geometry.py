"""The battle line (spec §2.5, §2.6, §3.2, §5.2.1, §5.2.2; R21, R22, R26, R45): pure functions
of positions ``x`` in feet, Zone radii and weapons. No state: the engine passes numbers in.

* ``zone_radii`` for any height > 0 (``rnd``, ``parse_height``), ``band_index`` (§2.5, R22);
* ``distance``, ``toward``, ``home_edge``, ``roster_by_x``: the line itself (§3.2);
* ``band``: the band of a distance by the owner's radii (§2.5);
* ``zoc_band``, ``zoc_radius``, ``in_zone``: a combatant's Zone of Control (§2.5, R22);
* ``melee_reach_ok``, ``closer_bands``, ``ranged_reach_ok``: may a weapon strike at d (§2.6, R45);
* ``engaged``, ``MELEE_FIRE``, ``melee_fire``: ranged fire into a melee (§5.2.2, R26).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational

from .sheet import BANDS, FAR, C, G, M, R, Weapon, ZoneRadii

__all__ = [
    "rnd", "parse_height", "zone_radii", "band_index", "distance", "toward", "home_edge",
    "roster_by_x", "band", "zoc_band", "zoc_radius",
    "in_zone", "melee_reach_ok", "closer_bands", "ranged_reach_ok", "engaged", "MeleeFire",
    "MELEE_FIRE", "melee_fire", "DEFAULT_ARENA_LENGTH", "DEFAULT_START",
]

DEFAULT_ARENA_LENGTH = 200  # spec §3.2, R53
DEFAULT_START = {"A": 80, "B": 120}  # spec §3.2: 40 ft apart


def band_index(letter: str) -> int:
    """A band letter (G, C, M, R) as its index 1..4 (spec §2.5)."""
    if letter not in BANDS:
        raise ValueError(f"unknown band {letter!r}; expected one of {', '.join(BANDS)}")
    return BANDS[letter]


def rnd(x: Rational) -> int:
    """``floor(x + 1/2)`` on an exact rational (spec §2.5)."""
    return math.floor(Fraction(x) + Fraction(1, 2))


def parse_height(height: object) -> Fraction:
    """A body height in feet as an exact rational > 0 (a decimal such as 5.5 is read exactly)."""
    if isinstance(height, bool) or not isinstance(height, int | float | Fraction | str):
        raise ValueError(f"expected a height in feet > 0, got {height!r}")
    try:
        h = Fraction(str(height)) if isinstance(height, float | str) else Fraction(height)
    except ValueError:
        raise ValueError(f"expected a height in feet > 0, got {height!r}") from None
    if h <= 0:
        raise ValueError(f"expected a height in feet > 0, got {height!r}")
    return h


def zone_radii(height: int | Fraction | float | str) -> ZoneRadii:
    """Zone radii for a body of ``height`` feet (spec §2.5, R22), exact: 10%, 35%, 100% and
    200% of the height rounded half up, each at least one more than the layer inside it."""
    h = parse_height(height)
    g = max(1, rnd(h / 10))
    c = max(g + 1, rnd(h * 35 / 100))
    m = max(c + 1, rnd(h))
    return ZoneRadii(g, c, m, max(m + 1, rnd(2 * h)))


def distance(x_p: int, x_q: int) -> int:
    """``d(P, Q) = |x_P - x_Q|`` (spec §3.2)."""
    return abs(x_p - x_q)


def home_edge(side: str, arena_length: int = DEFAULT_ARENA_LENGTH) -> int:
    """Side A's home edge is 0, side B's is ``L`` (spec §3.2); other sides have none."""
    if side not in ("A", "B"):
        raise ValueError(f"side {side!r} has no home edge (spec §3.2: only A and B)")
    return 0 if side == "A" else arena_length


def home_signs(sides: list[str]) -> dict[str, int]:
    """Each side's home edge as a direction: -1 for x = 0, +1 for x = L (spec §3.2: side A's is
    x = 0, side B's x = L); a side of another name: the first side listed, when no side is
    named A, has x = 0, every other one x = L."""
    return {s: -1 if s == "A" else 1 if s == "B" else
            (-1 if i == 0 and "A" not in sides else 1) for i, s in enumerate(sides)}


def toward(x_from: int, x_to: int, home: int) -> int:
    """The direction (+1 or -1) from ``x_from`` toward ``x_to``; at the same coordinate "away"
    is toward the mover's home edge, so "toward" is the other way (spec §3.2, §5.3)."""
    if x_to != x_from:
        return 1 if x_to > x_from else -1
    return 1 if home <= x_from else -1


def roster_by_x(positions: Iterable[tuple[str, int]]) -> list[str]:
    """Ids ordered along the line (then by roster order, which ``positions`` gives)."""
    items = list(positions)
    return [cid for _, cid in sorted(((x, i), cid) for i, (cid, x) in enumerate(items))]


def band(d: int, radii: ZoneRadii) -> int:
    """``band_X(d)`` with X's radii: 1 Grappling .. 4 Reach, 5 outside (spec §2.5)."""
    return radii.band(d)


def zoc_band(weapons: Iterable[Weapon]) -> int:
    """The largest reach band among the melee weapons, at least Close (``unarmed``, R22, R45)."""
    return max([C] + [w.reach for w in weapons if w.reach is not None])


def zoc_radius(radii: ZoneRadii, weapons: Iterable[Weapon]) -> int:
    """``r_{zoc_band(X)}``: the outer radius of X's Zone of Control (spec §2.5)."""
    return radii.radius(zoc_band(weapons))


def in_zone(d: int, radii: ZoneRadii, weapons: Iterable[Weapon]) -> bool:
    """Is a point at distance d inside X's Zone of Control (spec §2.5)? Comatose and dead
    combatants exert none: the engine checks that first."""
    return band(d, radii) <= zoc_band(weapons)


def melee_reach_ok(weapon: Weapon, d: int, radii: ZoneRadii) -> bool:
    """May this melee weapon strike at distance d (R45)? ``band_W(d) <= reach``, and in the
    Grappling band only a ``short`` weapon."""
    if weapon.reach is None:
        return False
    b = band(d, radii)
    return b <= weapon.reach and (b != G or weapon.short)


def closer_bands(weapon: Weapon, d: int, radii: ZoneRadii) -> int:
    """``k = reach - band_W(d)``: bands the target is closer than the weapon's reach; the
    strike gets -25% x k to Strike and to the Damage Modifier (spec §5.2.1, R45)."""
    if weapon.reach is None:
        raise ValueError(f"{weapon.id} is a ranged weapon: no closer-band penalty")
    return max(0, weapon.reach - band(d, radii))


def ranged_reach_ok(weapon: Weapon, d: int) -> bool:
    """May this ranged weapon fire at distance d: ``d <= inc x max_inc`` (spec §2.6)?"""
    top = weapon.max_range
    return top is not None and 0 <= d <= top


def engaged(d: int, zoc_radius_t: int, zoc_radius_x: int) -> bool:
    """T is engaged with a conscious enemy X when ``d(T, X) <= max(zoc_radius(X),
    zoc_radius(T))`` (spec §5.2.2)."""
    return d <= max(zoc_radius_t, zoc_radius_x)


@dataclass(frozen=True, slots=True)
class MeleeFire:
    """One row of the ranged-into-melee table (spec §5.2.2)."""

    band: int
    strike_pct_per_member: int  # negative
    retarget_pct: int


# spec §5.2.2 (R26): by the melee's band b* (the closest engagement band of the target)
MELEE_FIRE: dict[int, MeleeFire] = {row.band: row for row in (
    MeleeFire(G, -75, 75), MeleeFire(C, -25, 60), MeleeFire(M, -10, 10), MeleeFire(R, -1, 1),
)}


def melee_fire(members: int, melee_band: int) -> tuple[int, int]:
    """``(strike pct, retarget chance %)`` for a third party shooting into a melee of
    ``members`` (the target included) whose band is ``melee_band`` (spec §5.2.2, R26)."""
    if melee_band not in MELEE_FIRE:
        allowed = ", ".join(str(b) for b in sorted(BANDS.values()))
        raise ValueError(f"melee band: expected one of {allowed} (not {FAR}), got {melee_band}")
    if members < 1:
        raise ValueError(f"melee members: expected at least 1 (the target), got {members}")
    row = MELEE_FIRE[melee_band]
    return row.strike_pct_per_member * members, row.retarget_pct

