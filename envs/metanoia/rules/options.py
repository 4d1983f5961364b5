"""Rule options: CORE and FULL differ by flags, not by copied code (spec §12.1, §12.2)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from envs.core.options import parse_rule_options

from . import rulings


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Which rules are on.

    Attributes:
        version: ``core`` or ``full`` (the preset the flags came from).
        guard: Defend/Guard action and intercept reaction (RULING R25, full).
        withdraw: Withdraw action (RULING R37, full).
        instrument: Instrument dice against a creature one Realm higher (RULING R28, full).
        surprise: a surprised side skips round 1 and cannot react with keywords (RULING R36, full).
        hazards: zone hazard rolls on entering (RULING R35, full).
        zones: number of zones in the row (RULING R22; configurable in full, spec §12.2).
        round_limit: last round before a draw (RULING R26; configurable in full, spec §12.2).
    """

    version: str = "full"
    guard: bool = True
    withdraw: bool = True
    instrument: bool = True
    surprise: bool = True
    hazards: bool = True
    zones: int = rulings.ZONES
    round_limit: int = rulings.ROUND_LIMIT

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


CORE = RuleOptions(
    "core", guard=False, withdraw=False, instrument=False, surprise=False, hazards=False
)
FULL = RuleOptions("full")
PRESETS = {"core": CORE, "full": FULL}


def parse_options(spec: Any, source: str = "rules=", entry: str = "options") -> RuleOptions:
    """``None`` (full), ``"core"``, ``"full"``, a ``RuleOptions``, or a mapping such as
    ``{version: core, round_limit: 20}``, through the shared parser (envs/core/options.py); at
    least 2 zones (RULING R22)."""
    return parse_rule_options(spec, PRESETS, source=source, entry=entry, minimum={"zones": 2})
