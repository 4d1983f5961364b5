"""Mano a Mano rulings and fixed numbers (spec rules/mano_a_mano.md §10), one named constant each.

Every gap the seed leaves is filled by a ruling of spec §10; the constant below carries its number,
so code that relies on it cites it by name.
"""

from __future__ import annotations

from fractions import Fraction

HEX_METERS = 2
# RULING R6: one hex is a 2 m space; running N = N hexes a turn.


def range_m(hex_distance: int) -> int:
    """Range distance in metres for missile rules: ``2 x (h - 1)``, adjacent = 0 m (RULING R6, R8)."""
    return HEX_METERS * max(0, hex_distance - 1)


ONE_HANDED_HEFT_FACTOR = Fraction(3, 2)
# RULING R34: a two-handed weapon with neither control nor offense used in one hand compares the exact
# 1.5 x heft with the limb's power (no rounding).

INEPT_PENALTY = -4
# spec §2.8 (stated): an inept character takes -4 on rolls for which it has no applicable ability.

COMPLETE_COVER = 10
# spec §2.6 (stated): armor cover adding up to 10 or more is complete; RULING R55 keeps one region
# un-avoided then.

# RULING R16 (grapple power = best hand, or best natural weapon without hands), RULING R20 (bows and
# guns add no agility) and RULING R48 (melee defense falls back on 10 + agility) are formulas; they
# live in catalogue.StatBlock where the derived values are computed.

GRAPPLES_NEED_ADJACENCY = True
# Project ruling (spec §5.7.1 and R43 are silent): a push moves the target, and a kept hold moves the
# actor after it; any other grapple of theirs whose members end up more than one hex apart ends,
# since a hold cannot reach across a hex.
