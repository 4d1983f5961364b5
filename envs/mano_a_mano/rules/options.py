"""Mano a Mano rule options: CORE or FULL and the scenario parameters (spec §12.1, §12.2 items 7-8,
RULING R37, R40), and ``parse_options`` for env arguments and situation files."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envs.core.options import parse_rule_options

ROUND_CAP = 50  # spec §12.4: default round cap (a draw)


@dataclass(frozen=True)
class RuleOptions:
    """Scenario parameters and optional rules (spec §12.1, §12.2 items 7-8, RULING R37, R40)."""

    full: bool = True
    """FULL rules (spec §12.2): grappling, armor avoidance, missiles, items, cover, delay, mounted
    combat, initial stances and weapons stowed when surprised; ``False``: CORE (spec §12.1), whose
    decisions are ``CORE_KINDS`` and strikes without armor avoidance"""
    random_damage: bool = False
    """optional rule: a double-power hit rolled 12 or less does single power"""
    critical_hits: bool = False
    """optional rule: a natural 20 adds the weapon's power once more"""
    darkness: str = "normal"
    """normal, very_dim or total (spec §5.1)"""
    round_limit: int = ROUND_CAP
    rear_attack_favorable: bool = False
    """optional flag: attacks from the target's three rear hex sides are favorable, +2 (spec §3.2,
    RULING R9)"""
    reach_initiative: bool = False
    """optional flag: without surprise, the side with the strictly greatest melee reach or missile
    range goes first without a roll (spec §3.5, RULING R10)"""
    armor_levels: str = "compact"
    """armor avoidance (spec §2.6): ``compact`` offers none, the next lower level and the lowest
    legal one (the env's layout, spec §12.3); ``any`` offers every level (``avoid_N``: avoid the
    outer N levels)"""


CORE = RuleOptions(full=False)
FULL = RuleOptions()


PRESETS = {"core": CORE, "full": FULL}
DARKNESS = ("normal", "very_dim", "total")  # spec §5.1
ARMOR_LEVELS = ("compact", "any")  # spec §2.6, §12.3


def parse_options(options: Any, source: str = "rules=", entry: str = "options") -> RuleOptions:
    """``None``/``"full"``, ``"core"``, a ``RuleOptions``, or a mapping of its fields (with an
    optional ``version: core|full``), through the shared parser (envs/core/options.py). Raises
    ``DataError``
    (a ``ValueError``) naming ``source``, ``entry`` and the field."""
    return parse_rule_options(
        options,
        PRESETS,
        source=source,
        entry=entry,
        choices={"darkness": DARKNESS, "armor_levels": ARMOR_LEVELS},
    )
