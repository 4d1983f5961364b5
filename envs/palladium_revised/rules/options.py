"""Rule options: every [Constructed]/ruling parameter a designer may vary, with its default;
CORE and FULL differ by flags, not by copied code (spec §12.1, §12.2)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from envs.core.options import parse_rule_options

from . import rulings

__all__ = ["RuleOptions", "CORE", "FULL", "PRESETS", "parse_options"]


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Which rules are on.

    Attributes:
        version: ``core`` or ``full`` (the preset the flags came from).
        max_rounds: spec §8.8 round cap (20); reaching it is a draw.
        arena_length: spec §3.2, R53: the battle line [0, L] in feet (200).
        start_a, start_b: spec §3.2 default start coordinates of sides A and B (80, 120).
        closer_band_pct: R45, Strike and Damage Modifier penalty per band closer (25).
        ranged_into_melee: spec §5.2.2, R26 (on).
        opportunity_strikes: spec §6.2, R24 (on).
        zone_entry_contests: spec §5.3, R23 (on).
        critical_tables: spec §8.5 Evocation and Attacks table on a critical (on).
        internal_bleeding_on_actions: spec §7.5, R60: Internal Bleeding adds 1D4 Wounds per stack
            per Action spent (on).
        crippled_health_cap_stacks: R59, how many Crippled stacks reduce max S.D.C./H.P. (3).
        rest_every: spec §5.4, R30: rest Seconds per 1D4 Stamina (5).
    """

    version: str = "full"
    max_rounds: int = rulings.MAX_ROUNDS
    arena_length: int = rulings.ARENA_LENGTH
    start_a: int = 80
    start_b: int = 120
    closer_band_pct: int = rulings.CLOSER_BAND_PCT
    ranged_into_melee: bool = True
    opportunity_strikes: bool = True
    zone_entry_contests: bool = True
    critical_tables: bool = True
    internal_bleeding_on_actions: bool = True
    crippled_health_cap_stacks: int = rulings.CRIPPLE_CAP_STACKS
    rest_every: int = rulings.REST_EVERY

    @property
    def round_limit(self) -> int:
        """The round cap under the name every tool reads (``EncounterBase``, situations)."""
        return self.max_rounds

    @property
    def full(self) -> bool:
        return self.version == "full"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


CORE = RuleOptions("core")
FULL = RuleOptions("full")
# FULL's own rules (Taunt, spells, common effects, ambush, POST_ROLL) are not in this engine yet;
# FULL runs the CORE rules until they land (see the module report).
PRESETS = {"core": CORE, "full": FULL}

_MINIMUM = {"closer_band_pct": 0, "start_a": 0, "start_b": 0, "crippled_health_cap_stacks": 0}


def parse_options(spec: Any, source: str = "rules=", entry: str = "options") -> RuleOptions:
    """``None`` (full), ``"core"``, ``"full"``, a ``RuleOptions``, or a mapping such as
    ``{version: core, max_rounds: 10}``, through the shared parser (envs/core/options.py)."""
    opts = parse_rule_options(spec, PRESETS, source=source, entry=entry, minimum=_MINIMUM)
    from envs.core.data import DataError
    for key in ("start_a", "start_b"):
        if getattr(opts, key) > opts.arena_length:
            raise DataError(f"{source}: {entry}: field {key!r}: {key} must be at most "
                            f"arena_length {opts.arena_length}, got {getattr(opts, key)}")
    return opts
