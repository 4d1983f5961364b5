"""Rule options: CORE and FULL differ by flags, not by copied code (spec §12.1, §12.2)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from envs.core.data import DataError

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


CORE = RuleOptions("core", guard=False, withdraw=False, instrument=False, surprise=False, hazards=False)
FULL = RuleOptions("full")
PRESETS = {"core": CORE, "full": FULL}


def parse_options(spec: Any, source: str = "options", entry: str = "options") -> RuleOptions:
    """``None`` (full), ``"core"``, ``"full"``, a ``RuleOptions``, or a mapping such as
    ``{version: core, round_limit: 20}``."""
    if spec is None:
        return FULL
    if isinstance(spec, RuleOptions):
        return spec
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise DataError(f"{source}: {entry}: unknown rules {spec!r}; expected core or full")
        return PRESETS[spec]
    if not isinstance(spec, dict):
        raise DataError(f"{source}: {entry}: expected core, full or a mapping, got {spec!r}")
    base = PRESETS.get(spec.get("version", "full"))
    if base is None:
        raise DataError(f"{source}: {entry}: field 'version': unknown rules {spec.get('version')!r}; expected core or full")
    known = {f.name: f for f in fields(RuleOptions)}
    changes = {}
    for key, value in spec.items():
        if key == "version":
            continue
        if key not in known:
            raise DataError(f"{source}: {entry}: field {key!r}: unknown option (known: {', '.join(known)})")
        want = bool if isinstance(getattr(base, key), bool) else int
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise DataError(f"{source}: {entry}: field {key!r}: expected {want.__name__}, got {value!r}")
        if want is int and value < (2 if key == "zones" else 1):
            raise DataError(f"{source}: {entry}: field {key!r}: too small ({value})")
        changes[key] = value
    return replace(base, **changes)
