"""Mano a Mano resolution: success rolls, modifiers, armor, power, harm and health (spec §5.1, §5.2,
§2.6, §8). Pure functions of numbers, so the turn engine and the tests share one implementation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from . import rulings
from .catalogue import Region

__all__ = [
    "success",
    "opposed_difficulty",
    "tie_contest",
    "circumstance",
    "darkness",
    "substitute_roll",
    "Piece",
    "resolve_regions",
    "best_absorption",
    "total_cover",
    "avoid_cost",
    "absorb_after",
    "avoidance_legal",
    "avoidance_levels",
    "distance_penalty",
    "attack_power",
    "harm",
    "health",
    "attack_position_mod",
    "defense_position_mod",
    "HEALTH_STATES",
]


# ----------------------------------------------------------------------------- §5.1 success rolls


def success(die: int, mods: int, difficulty: int, difficulty_mods: int = 0) -> bool:
    """A natural 20 always succeeds; otherwise the total must be strictly greater (RULING R36).

    >>> success(10, 3, 13), success(11, 3, 13), success(20, -10, 40)
    (False, True, True)
    """
    return die == 20 or die + mods > difficulty + difficulty_mods


def opposed_difficulty(modifier: int) -> int:
    """An opposing modifier as a difficulty: ``10 + modifier`` (spec §5.1)."""
    return 10 + modifier


def tie_contest(die_a: int, die_b: int, mod_a: int, mod_b: int) -> str | None:
    """Tie-capable contest (spec §5.1): A rolls against ``10 + mod_b``, then B against
    ``10 + mod_a``.

    Returns ``"A"`` or ``"B"`` when exactly one succeeds, ``None`` for a tie.
    """
    a = success(die_a, mod_a, opposed_difficulty(mod_b))
    b = success(die_b, mod_b, opposed_difficulty(mod_a))
    if a == b:
        return None
    return "A" if a else "B"


CIRCUMSTANCES = {"favorable": 2, "very_favorable": 4, "unfavorable": 2, "hostile": 4}


def circumstance(values: Iterable[int]) -> int:
    """Only the largest circumstance of one direction applies (spec §5.1, RULING R40)."""
    return max(values, default=0)


DARKNESS = {  # spec §5.1: difficulty added for attackers who are not blind (RULING R40: separately)
    "total": {"grappling": 3, "striking": 4, "missile": 5},
    "very_dim": {"grappling": 1, "striking": 2, "missile": 3},
}


def darkness(lighting: str | None, kind: str, blind: bool = False) -> int:
    """Darkness difficulty for an attack of ``kind`` (``None`` or ``"normal"``: none)."""
    if blind or lighting in (None, "normal"):
        return 0
    return DARKNESS[lighting][kind]


SUBSTITUTES = {  # spec §5.1 alternative dice: (sides, scale(face), automatic on the second roll)
    "d10x2": (10, lambda f: 2 * (10 if f == 10 else f), lambda g: g >= 6),
    "d6": (6, lambda f: (f - 1) * 4, lambda g: g >= 5),
    "d8": (8, lambda f: (f - 1) * 3, lambda g: g >= 6),
    "d12": (12, lambda f: (f - 1) * 2, lambda g: g >= 9),
}


def substitute_roll(dice: str, first: int, second: int | None = None) -> tuple[int, bool]:
    """Value on the 0-20+ scale of a substitute die, and whether it is an automatic success.

    ``first`` is the face of the first die (a d10's 0 is given as 10); ``second`` is only read when
    the value reaches 20 (``None``: the second roll is skipped, no automatic success).

    >>> substitute_roll("d10x2", 3), substitute_roll("d10x2", 10, 7)
    ((6, False), (20, True))
    >>> substitute_roll("d10x2", 10, 5)
    (20, False)
    """
    sides, scale, auto = SUBSTITUTES[dice]
    value = scale(first)
    return value, value >= 20 and second is not None and auto(
        10 if dice == "d10x2" and second == 0 else second
    )


# ---------------------------------------------------------------------------------- §2.6 armor


@dataclass(frozen=True, slots=True)
class Piece:
    """A worn armor piece; ``inside`` names the piece it lies entirely within (layering)."""

    name: str
    cover: int | None  # None = complete
    absorption: int
    inside: str | None = None


def resolve_regions(pieces: Sequence[Piece]) -> tuple[Region, ...]:
    """Non-overlapping regions of worn armor (spec §2.6): a piece B inside A makes a region with B's
    cover and ``A.abs + B.abs``; the rest of A keeps ``A.cover - B.cover`` and A's absorption.

    >>> resolve_regions([Piece("vest", 3, 3), Piece("plate", 1, 5, inside="vest")])
    (Region(cover=2, absorption=3), Region(cover=1, absorption=8))
    """
    by_name = {p.name: p for p in pieces}
    remaining = {p.name: p.cover for p in pieces if p.inside is None}
    inner: list[Region] = []
    for p in pieces:
        if p.inside is None:
            continue
        outer = by_name.get(p.inside)
        if outer is None or outer.inside is not None:
            raise ValueError(
                f"armor {p.name!r} lies inside {p.inside!r}, which is not a worn outer piece"
            )
        inner.append(Region(p.cover, outer.absorption + p.absorption))
        left = remaining[outer.name]
        if left is not None and p.cover is not None:
            remaining[outer.name] = left - p.cover
    outer_regions = [
        Region(cover, by_name[name].absorption)
        for name, cover in remaining.items()
        if cover is None or cover > 0
    ]
    return tuple(outer_regions + inner)


def best_absorption(regions: Iterable[Region]) -> int:
    return max((r.absorption for r in regions), default=0)


def total_cover(regions: Sequence[Region]) -> int | str:
    """Sum of the regions' cover, ``"complete"`` with a complete region or 10 or more (spec
    §2.6)."""
    if any(r.complete for r in regions):
        return "complete"
    total = sum(r.cover or 0 for r in regions)
    return "complete" if total >= rulings.COMPLETE_COVER else total


def avoid_cost(regions: Iterable[Region], level: int) -> int:
    """Difficulty added by avoiding every avoidable region whose absorption is above ``level``."""
    return sum(r.cover or 0 for r in regions if r.absorption > level and not r.complete)


def absorb_after(regions: Iterable[Region], level: int) -> int:
    """The absorption left after avoiding everything above ``level`` (complete regions stay)."""
    return max([r.absorption for r in regions if r.absorption <= level or r.complete] or [0])


def avoidance_legal(regions: Sequence[Region], level: int) -> bool:
    """RULING R55: with complete total cover at least one region must stay un-avoided."""
    return total_cover(regions) != "complete" or any(
        r.absorption <= level or r.complete for r in regions
    )


def avoidance_levels(regions: Sequence[Region]) -> list[int]:
    """The useful avoidance levels, from none (the best absorption) down to the lowest legal one,
    one per distinct absorption left (spec §2.6: only "avoid everything above L" can be optimal).

    >>> avoidance_levels([Region(5, 2), Region(2, 5)]), avoidance_levels([Region(None, 1)])
    ([5, 2, 0], [1])
    """
    out: list[int] = []
    seen: set[int] = set()
    for level in sorted(
        {best_absorption(regions), 0, *(r.absorption for r in regions)}, reverse=True
    ):
        left = absorb_after(regions, level)
        if avoidance_legal(regions, level) and left not in seen:
            seen.add(left)
            out.append(level)
    return out


# ---------------------------------------------------------------------------------- §5.6 distance


def distance_penalty(range_m: int, max_range_m: int) -> int:
    """``floor(20 x d / R)``, one point per full 5% of the maximum range (spec §5.6; 0 at 0 m, R8).

    >>> [distance_penalty(d, 140) for d in (6, 7, 13, 14, 70, 76)]
    [0, 1, 1, 2, 10, 10]
    """
    if range_m <= 0 or max_range_m <= 0:
        return 0
    return (20 * range_m) // max_range_m


# ------------------------------------------------------------------------------ §8 power and harm


def attack_power(
    base: int,
    double: bool = False,
    die: int = 0,
    kind: str = "striking",
    charge_hexes: int = 0,
    random_damage: bool = False,
    critical_hits: bool = False,
) -> int:
    """Power of a hit (spec §8.1): doubled by double-power actions (unless the optional random
    damage rule rolls 12 or less), +base on a natural 20 with critical hits (RULING R37), and the
    charge bonus ``2 x hexes - 5`` after both (RULING R28) for striking and grappling attacks."""
    mult = 2 if double else 1
    if random_damage and mult == 2 and die <= 12:
        mult = 1
    power = base * mult
    if critical_hits and die == 20:
        power += base
    meters = rulings.HEX_METERS * charge_hexes
    if meters > 5 and kind in ("striking", "grappling"):
        power += meters - 5
    return power


def harm(
    power: int,
    sharpness: str,
    absorption: int,
    choke: bool = False,
    fall: bool = False,
    min_stun_exempt: bool = False,
) -> tuple[int, int]:
    """``(damage, stun)`` from a hit (spec §8.2).

    >>> harm(5, "blunt", 0), harm(5, "sharp", 0), harm(5, "padded", 0), harm(7, "blunt", 2)
    ((2, 3), (5, 0), (0, 5), (2, 3))
    """
    net = max(0, power - absorption)
    if choke:
        damage, stun = 0, max(2, net)
    elif sharpness == "sharp":
        damage, stun = net, 0
    elif sharpness == "padded":
        damage, stun = 0, net
    else:
        damage, stun = net // 2, net - net // 2
    if fall and not min_stun_exempt:
        stun = max(stun, 2)
    return damage, stun


HEALTH_STATES = ("healthy", "injured", "incapacitated", "incapacitated_by_damage")


def health(stun: int, damage: int, toughness: int) -> str:
    """Health state (spec §2.3, §8.3, RULING R1): healthy ``T <= toughness``, injured below stamina,
    incapacitated at stamina or more, "by damage" when damage alone reaches stamina.

    >>> health(2, 1, 7), health(0, 10, 7), health(1, 13, 7), health(0, 15, 7)
    ('healthy', 'injured', 'incapacitated', 'incapacitated_by_damage')
    """
    stamina = 2 * toughness
    if damage >= stamina:
        return "incapacitated_by_damage"
    total = stun + damage
    if total >= stamina:
        return "incapacitated"
    return "healthy" if total <= toughness else "injured"


# ------------------------------------------------------------------------------- §5.2.1 positions


def attack_position_mod(
    grappling: bool, dominant_over_target: bool, on_ground: bool, kind: str
) -> int:
    """Attacker's position modifier (spec §5.2.1, RULING R4, R24)."""
    if grappling:
        return 5 if dominant_over_target else -5
    if on_ground and kind == "striking":
        return -5
    return 0


def defense_position_mod(
    grappling: bool,
    dominant_over_attacker: bool,
    grapple_on_ground: bool,
    on_ground: bool,
    kind: str,
) -> int:
    """Defender's position modifier (spec §5.2.1, RULING R4, R24)."""
    if grappling:
        if dominant_over_attacker:
            return 5
        if kind == "missile":
            return 5 if grapple_on_ground else -5
        return -5
    m = 0
    if on_ground:
        if kind == "missile":
            m += 5
        if kind == "striking":
            m -= 5
    return m
