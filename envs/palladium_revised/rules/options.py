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

    FULL (spec §12.2; every one off under CORE):
        common_effects: Ignite (with Extinguish), Numbing, Soaked, Stunned, Prone with Knockdown
            and Stand (spec §5.7, §5.8, §7.3).
        taunt_distract: Taunt and Distract with forced re-targeting and upkeep (spec §5.6).
        save_phase: the SAVE decision before a Save (spec §6.3).
        post_roll: the POST_ROLL Morale decision (spec §6.4, R27).
        morale_to_se: the free action Morale -> S.E. (spec §5.1 row 16).
        escape: the Escape action at the home edge (spec §5.1 row 19, R53; optional).
        spells: spells, E.E., Power Draw and the Stunned fizzle (spec §5.5, §5.9).
        full_crit_tables: the Affliction & Stuns and Healing Effects tables (spec §8.5).
        ambush: the ambush setup of spec §3.5 when the scenario names an ambushing side.
        awareness_mod: R39, the detection modifier of the ambushed (-25: Passive).
        no_pe_beings: beings without P.E. (spec §2.1, R43).
        in_water: scenario flag, the swimming hazard for everyone (spec §8.9; off in both).
        no_air: scenario flag, the suffocation hazard for everyone from ``no_air_from``
            (spec §8.9, R48; off in both).
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
    common_effects: bool = True
    taunt_distract: bool = True
    save_phase: bool = True
    post_roll: bool = True
    morale_to_se: bool = True
    escape: bool = True
    spells: bool = True
    full_crit_tables: bool = True
    ambush: bool = True
    awareness_mod: int = -25
    no_pe_beings: bool = True
    in_water: bool = False
    no_air: bool = False
    no_air_from: int = 1

    @property
    def round_limit(self) -> int:
        """The round cap under the name every tool reads (``EncounterBase``, situations)."""
        return self.max_rounds

    @property
    def full(self) -> bool:
        return self.version == "full"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


CORE = RuleOptions("core", common_effects=False, taunt_distract=False, save_phase=False,
                   post_roll=False, morale_to_se=False, escape=False, spells=False,
                   full_crit_tables=False, ambush=False, no_pe_beings=False)
FULL = RuleOptions("full")
PRESETS = {"core": CORE, "full": FULL}

_MINIMUM = {"closer_band_pct": 0, "start_a": 0, "start_b": 0, "crippled_health_cap_stacks": 0,
            "awareness_mod": -100}


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
