"""FULL damage rules (spec §8.2-§8.4, §8.9, §2.7): average damage (R-61), Absorption, the
creature-type tags, Tertiary types, Magma, Water, Momentum, Teleport and Blink.

Hooks: ``damage.deal`` asks ``average_roll`` at D4 and ``absorb`` at D12; ``damage.immune_types``
and ``resist_vuln`` add ``tag_immunities`` and ``tag_vulnerabilities``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .fighter import Fighter

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["average_roll", "average_of"]


def average_roll(enc: SizeboundEncounter, dealer: Fighter | None) -> bool:
    """spec §8.2 D4, R-61: the dealer chose average damage (its stat block, or the option for
    every dealer)."""
    if enc.options.damage_roll_mode == "average":
        return True
    return dealer is not None and dealer.profile.damage_roll_mode == "average"


def average_of(dice_n: int, dice_sides: int) -> int:
    """R-61, WE-12: an expression ``nDx`` gives ``floor(n * x / 2)`` (3d6 -> 9, 1d8 -> 4)."""
    return dice_n * dice_sides // 2
