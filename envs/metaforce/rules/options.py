"""Rule options: every key of spec §12.1 with its default; CORE and FULL differ by flags, not by
copied code (spec §12.2, §12.3)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from envs.core.options import parse_rule_options

from . import rulings

__all__ = ["RuleOptions", "CORE", "FULL", "PRESETS", "parse_options", "CHOICES"]

CHOICES: dict[str, tuple[str, ...]] = {
    "initiative_mode": ("preset", "direct", "alternating"),
    "dot_x_mode": ("source", "half_magnitude"),
    "deus_ex_mode": ("survive_defeated", "negate"),
    "crit_policy": ("auto", "agent"),
}


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Which rules are on (spec §12.1 table; the R-n each key cites).

    Attributes:
        version: ``core`` or ``full`` (the preset the flags came from).
        base_core: R-1, added to every Core Value of a stat block built here (default 0).
        defense_adds_level: R-1, Evasion and Deflection add the Level (default false).
        base_hp, hplv, base_mp, mplv, base_speed_ft: spec §2.5 creation defaults.
        evasion_floor: spec §2.5 (6).
        initiative_mode: ``preset`` (the encounter's own order: ``alternating`` where its preset
            names it and the rules are FULL, else ``direct``), ``direct`` (§3.3) or
            ``alternating`` (§3.3 option, FULL): a named mode holds whatever the preset says.
        deflection_vs_giants: R-4, §8.2.4 (off).
        dot_x_mode: ``source`` (R-18) or ``half_magnitude``.
        deus_ex_mode: ``survive_defeated`` (R-43) or ``negate``.
        deus_ex_enabled: the Meta Power page lets the GM switch Deus Ex off.
        luck_save_on_death: R-46 (FULL option, ``damage._luck_save``): a Protected character about
            to die rolls d12 + Level against max(4, 12 - Level); a success Incapacitates instead.
        gm_grants_saves: §7.3, every save is allowed.
        exert_to_save: R-49 (FULL option).
        unaware_bonus: R-8, +1 step against an unaware target that has not acted (FULL).
        max_rounds: spec §8.7 round limit (a draw).
        grid_w, grid_h: spec §3.2 default battlefield (an encounter preset may set its own).
        range_band_penalty: R-30, steps per extra range increment.
        range_increments: R-30, the most increments a ranged attack reaches.
        crit_policy: ``auto`` (the default V policy of §5.3.4, R-10) or ``agent`` (FULL).
        primed_at_start: spec §3.5 option: bows start primed if the archer was ready.
    """

    version: str = "full"
    base_core: int = 0
    defense_adds_level: bool = False
    base_hp: int = 6
    hplv: int = 6
    base_mp: int = 12
    mplv: int = 3
    base_speed_ft: int = 15
    evasion_floor: int = 6
    initiative_mode: str = "preset"
    deflection_vs_giants: bool = False
    dot_x_mode: str = "source"
    deus_ex_mode: str = "survive_defeated"
    deus_ex_enabled: bool = True
    luck_save_on_death: bool = False
    gm_grants_saves: bool = False
    exert_to_save: bool = False
    unaware_bonus: bool = True
    max_rounds: int = rulings.MAX_ROUNDS
    grid_w: int = 16
    grid_h: int = 16
    range_band_penalty: int = 1
    range_increments: int = rulings.MAX_INCREMENTS
    crit_policy: str = "auto"
    primed_at_start: bool = False

    @property
    def round_limit(self) -> int:
        """The round cap under the name every tool reads (``EncounterBase``, situations)."""
        return self.max_rounds

    @property
    def full(self) -> bool:
        return self.version == "full"

    def on(self, flag: str) -> bool:
        """A FULL-only switch (``luck_save_on_death``, ``gm_grants_saves``, ``exert_to_save``,
        ``unaware_bonus``) in force: set, and the rules FULL; under CORE it does nothing,
        whatever the setting (spec §7.3, R-8, R-46, R-49, §12.1)."""
        return self.full and bool(getattr(self, flag))

    @property
    def agent_crits(self) -> bool:
        """``crit_policy: agent`` in force (FULL only, spec §12.1)."""
        return self.full and self.crit_policy == "agent"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


CORE = RuleOptions("core", unaware_bonus=False)
FULL = RuleOptions("full")
PRESETS = {"core": CORE, "full": FULL}

_MINIMUM = {"base_core": -10, "base_hp": 0, "hplv": 0, "base_mp": 0, "mplv": 0,
            "base_speed_ft": 0, "evasion_floor": 0, "range_band_penalty": 0}


def parse_options(spec: Any, source: str = "rules=", entry: str = "options") -> RuleOptions:
    """``None`` (full), ``"core"``, ``"full"``, a ``RuleOptions``, or a mapping such as
    ``{version: core, max_rounds: 10}``, through the shared parser (envs/core/options.py)."""
    return parse_rule_options(spec, PRESETS, source=source, entry=entry, minimum=_MINIMUM,
                              choices=CHOICES)
