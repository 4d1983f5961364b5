"""Metaforce character building (spec §2.11, R-2, R-54): the creation steps as a checker.

``build_character`` applies the racial adjustments, the Core Value picks, the Level 1 points and
the later level-ups from all-zero Attributes, refuses a step the spec does not allow, and returns
the Attributes with the Proficiencies and Expertise the choices grant. The tests replay every
§13.1 derivation through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .content import ATTRIBUTES, CORE_AFFECTED, CORE_PRIMARY, CORES, check_level

__all__ = ["Race", "RACES", "CorePick", "Build", "build_character"]


@dataclass(frozen=True, slots=True)
class Race:
    """A race's §2.11 step-1 data. ``versatile`` races skip the adjustments and pick two Core
    Values (R-2); ``base_hp``/``hplv`` replace the defaults when set (R-54)."""

    id: str
    versatile: bool
    adjustments: Mapping[str, int]
    proficient: frozenset[str] = frozenset()
    expertise: frozenset[str] = frozenset()
    base_hp: int | None = None
    hplv: int | None = None


RACES = {
    "human": Race("human", True, {}),
    "odonghe": Race("odonghe", False, {"end": 2, "per": 2},  # §13.1, R-54
                    expertise=frozenset({"end", "per"}), base_hp=20, hplv=4),
}


@dataclass(frozen=True, slots=True)
class CorePick:
    """§2.11 step 2: a Core Value and the Attributes that take its two extra +1s."""

    core: str
    extra: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Build:
    attributes: Mapping[str, int]
    proficient: frozenset[str]
    expertise: frozenset[str]


def build_character(race: str | Race, picks: Iterable[CorePick], level: int,
                    level_one: tuple[str, str], level_ups: Iterable[str] = (),
                    training: Iterable[str] = (), versatile: bool | None = None) -> Build:
    """Check and apply the §2.11 creation steps from all-zero Attributes.

    1. the race's adjustments (skipped by a Versatile race); 2. one Core Value pick (two for a
    Versatile race, unless ``versatile=False``, R-2), each +1 to both primaries and the two extra
    +1s to its affected Attributes, granting Proficiency in the primaries (twice: Expertise);
    3. Level 1: ``level_one[0]`` +1 (any), then ``level_one[1]`` +1, which must still be <= Level
    afterwards; 4. one free +1 for each level above 1 (``level_ups``); Attributes bought with
    Training Points (``training``) may not end above the Level (§2.1 Attribute limit).
    """
    r = RACES.get(race) if isinstance(race, str) else race
    if r is None:
        raise ValueError(f"unknown race {race!r}; known: {', '.join(RACES)}")
    level = check_level(level)
    attrs = dict.fromkeys(ATTRIBUTES, 0)

    def raise_(attr: str, step: str) -> None:
        if attr not in ATTRIBUTES:
            raise ValueError(f"{step}: unknown attribute {attr!r}; expected "
                             f"{', '.join(ATTRIBUTES)}")
        attrs[attr] += 1

    if not r.versatile:
        for a, v in r.adjustments.items():
            attrs[a] += v
    picks = list(picks)
    want = 2 if (r.versatile if versatile is None else versatile) else 1
    if len(picks) != want or len({p.core for p in picks}) != len(picks):
        raise ValueError(f"{r.id}: expected {want} different Core Value pick(s), got "
                         f"{[p.core for p in picks]} (§2.11 step 2, R-2)")
    grants: list[str] = list(r.proficient)
    for p in picks:
        if p.core not in CORES:
            raise ValueError(f"unknown core {p.core!r}; expected {', '.join(CORES)}")
        for a in CORE_PRIMARY[p.core]:
            raise_(a, f"{p.core} pick")
        grants += CORE_PRIMARY[p.core]
        for a in p.extra:
            if a not in CORE_AFFECTED[p.core]:
                raise ValueError(f"{p.core} pick: {a!r} may not take an extra +1; expected "
                                 f"one of {', '.join(CORE_AFFECTED[p.core])} (§2.11)")
            raise_(a, f"{p.core} pick")
    free, limited = level_one
    raise_(free, "level 1")
    raise_(limited, "level 1")
    if attrs[limited] > 1:
        raise ValueError(f"level 1: the second +1 went to {limited!r}, now {attrs[limited]}, "
                         "above Level 1 (§2.11 step 3)")
    ups = list(level_ups)
    if len(ups) != level - 1:
        raise ValueError(f"expected {level - 1} level-up point(s) for level {level}, got "
                         f"{len(ups)} (§2.11 step 4)")
    for i, a in enumerate(ups):
        raise_(a, f"level {i + 2}")
    for a in training:
        raise_(a, "training")
        if attrs[a] > level:
            raise ValueError(f"training: {a!r} would be {attrs[a]}, above Level {level} "
                             "(§2.1 Attribute limit)")
    twice = {a for a in grants if grants.count(a) > 1}
    expertise = frozenset(r.expertise | twice)
    return Build(attrs, frozenset(grants) - expertise, expertise)

