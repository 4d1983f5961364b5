"""Palladium Revised battle line (spec §2.5, §2.6, §3.2, §5.2.1, §5.2.2): bands by the owner's
radii, Zones of Control, melee reach and the closer-band penalty, ranged reach, engagement and
the ranged-into-melee table, with the distances of the §11 worked examples."""

from __future__ import annotations

import pytest

from envs.palladium_revised.rules import content as C
from envs.palladium_revised.rules import geometry as G
from envs.palladium_revised.rules.catalogue import stat_blocks

W = C.DEFAULT_WEAPONS
SIX, OGRE, GOBLIN = C.zone_radii(6), C.zone_radii(10), C.zone_radii(4)


def test_the_line():
    assert G.distance(80, 120) == 40 == G.distance(120, 80)
    assert (G.home_edge("A"), G.home_edge("B"), G.home_edge("B", 150)) == (0, 200, 150)
    with pytest.raises(ValueError, match="side 'C' has no home edge"):
        G.home_edge("C")
    assert (G.toward(80, 120, 0), G.toward(120, 80, 200)) == (1, -1)
    # same coordinate: "away" is toward the home edge, so "toward" is the other way
    assert (G.toward(100, 100, 0), G.toward(100, 100, 200)) == (1, -1)
    assert G.roster_by_x([("a", 120), ("b", 80), ("c", 120), ("d", 70)]) == ["d", "b", "a", "c"]
    assert (G.DEFAULT_ARENA_LENGTH, G.DEFAULT_START) == (200, {"A": 80, "B": 120})


def test_bands_use_the_owners_radii():
    # §11 C12: the Ogre's layers G 0-1, C 2-4, M 5-10; a 6-ft body's C is 2 only
    assert [G.band(d, OGRE) for d in (1, 2, 4, 5, 6, 10, 11, 20, 21)] == [1, 2, 2, 3, 3, 3, 4, 4,
                                                                          5]
    assert [G.band(d, SIX) for d in (4, 6, 7)] == [3, 3, 4]
    assert [G.band(d, GOBLIN) for d in (2, 3, 4, 5, 8, 9)] == [2, 3, 3, 4, 4, 5]


def test_zone_of_control():
    assert G.zoc_band([]) == C.C  # unarmed: at least Close (R22)
    assert G.zoc_band([W["dagger"], W["long_bow"]]) == C.C  # bows give no Zone
    assert G.zoc_band([W["spear"], W["dagger"]]) == C.R
    assert G.zoc_radius(SIX, [W["spear"]]) == 12 and G.zoc_radius(OGRE, [W["great_club"]]) == 10
    assert G.in_zone(12, SIX, [W["spear"]]) and not G.in_zone(13, SIX, [W["spear"]])
    assert G.in_zone(2, SIX, []) and not G.in_zone(3, SIX, [])
    sb = stat_blocks()
    assert [sb[b].zoc_radius for b in ("sellsword", "spear_guard", "archer", "ogre_brute",
                                       "goblin_skirmisher")] == [6, 12, 2, 10, 4]


def test_melee_reach_and_closer_bands():
    sword, dagger, spear = W["long_sword"], W["dagger"], W["spear"]
    assert [G.melee_reach_ok(sword, d, SIX) for d in (0, 1, 2, 5, 6, 7)] == \
        [False, False, True, True, True, False]  # Grappling needs a short weapon (R45)
    assert [G.melee_reach_ok(dagger, d, SIX) for d in (0, 1, 2, 3)] == [True, True, True, False]
    assert G.melee_reach_ok(spear, 12, SIX) and not G.melee_reach_ok(W["long_bow"], 5, SIX)
    # §11 C5: the long sword at distance 2 is one band closer than Medium; at 6 none
    assert (G.closer_bands(sword, 2, SIX), G.closer_bands(sword, 6, SIX)) == (1, 0)
    assert G.closer_bands(spear, 2, SIX) == 2 and G.closer_bands(spear, 10, SIX) == 0  # §11 C2
    assert G.closer_bands(W["great_club"], 6, OGRE) == 0  # §11 C12
    assert G.closer_bands(dagger, 1, SIX) == 1
    with pytest.raises(ValueError, match="long_bow is a ranged weapon"):
        G.closer_bands(W["long_bow"], 5, SIX)


def test_ranged_reach():
    assert G.ranged_reach_ok(W["long_bow"], 480) and not G.ranged_reach_ok(W["long_bow"], 481)
    assert G.ranged_reach_ok(W["throwing_knife"], 60) and not G.ranged_reach_ok(
        W["throwing_knife"], 61)
    assert not G.ranged_reach_ok(W["dagger"], 1)
    assert W["long_bow"].increment(60) == 1  # §11 C7: within the first 80-ft increment


def test_engagement_and_fire_into_melee():
    # §11 C7: Goblin and Sellsword 1 ft apart are engaged; Grappling, 2 members -> -150%, 75%
    assert G.engaged(1, 4, 6) and G.engaged(12, 2, 12) and not G.engaged(13, 6, 12)
    assert G.melee_fire(2, C.G) == (-150, 75)
    assert [G.melee_fire(3, b) for b in (C.C, C.M, C.R)] == [(-75, 60), (-30, 10), (-3, 1)]
    assert {b: (r.strike_pct_per_member, r.retarget_pct) for b, r in G.MELEE_FIRE.items()} == \
        {1: (-75, 75), 2: (-25, 60), 3: (-10, 10), 4: (-1, 1)}
    with pytest.raises(ValueError, match="melee band: expected one of 1, 2, 3, 4"):
        G.melee_fire(2, C.FAR)
    with pytest.raises(ValueError, match="expected at least 1"):
        G.melee_fire(0, C.G)
