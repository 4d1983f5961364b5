"""Mano a Mano rule options: CORE or FULL and the scenario parameters (spec §12.1, §12.2 items 7-8,
RULING R37, R40), and ``parse_options`` for env arguments and situation files."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
    """optional flag: attacks from the target's three rear hex sides are favorable, +2 (spec §3.2, RULING R9)"""
    reach_initiative: bool = False
    """optional flag: without surprise, the side with the strictly greatest melee reach or missile
    range goes first without a roll (spec §3.5, RULING R10)"""


CORE = RuleOptions(full=False)
FULL = RuleOptions()


def parse_options(options: Any) -> RuleOptions:
    """``None``/``"full"``, ``"core"``, a ``RuleOptions``, or a mapping of its fields (with an optional
    ``version: core|full``). Raises ``ValueError`` naming a bad field."""
    if isinstance(options, RuleOptions):
        return options
    if options in (None, "full"):
        return FULL
    if options == "core":
        return CORE
    if isinstance(options, dict):
        data = dict(options)
        base = {"core": CORE, "full": FULL}.get(data.pop("version", "full"))
        if base is None:
            raise ValueError(f"mano_a_mano options: version must be core or full, got {options.get('version')!r}")
        known = {f for f in RuleOptions.__dataclass_fields__}
        for key, value in data.items():
            if key not in known:
                raise ValueError(f"mano_a_mano options: unknown field {key!r}; known: {', '.join(sorted(known))}")
            if key == "darkness" and value not in ("normal", "very_dim", "total"):
                raise ValueError(f"mano_a_mano options: darkness must be normal, very_dim or total, got {value!r}")
            if key == "round_limit" and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"mano_a_mano options: round_limit must be a whole number >= 1, got {value!r}")
            if key in ("full", "random_damage", "critical_hits", "rear_attack_favorable", "reach_initiative") \
                    and not isinstance(value, bool):
                raise ValueError(f"mano_a_mano options: {key} must be true or false, got {value!r}")
        return RuleOptions(**{**base.__dict__, **data})
    raise ValueError(f"mano_a_mano rules options must be 'core', 'full' or a mapping, got {options!r}")
