"""Rule options: CORE and FULL differ by flags, not by copied code (spec §12.1, §12.2)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from envs.core.options import parse_rule_options

from . import rulings

DEFEAT_MODES = ("death", "zero_hp", "incapacitated")
EXERTION_CONTROL = ("agent", "heuristic", "off")
MANA_OVERDRAW = ("excess", "full")
WEATHER = ("none", "large_hail", "heavy_rain", "hail", "heavy_wind", "wind_storm", "hurricane")
DAMAGE_ROLL_MODES = ("roll", "average")
FIRST_SIDE = ("scenario", "random")
EXERTION_POOLS = ("per_combatant", "per_side")


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Which rules are on.

    Attributes:
        version: ``core`` or ``full`` (the preset the flags came from).
        round_limit: the round cap (spec §3.7, R-18; default 60).
        defeat_mode: ``death`` (faithful), ``zero_hp`` or ``incapacitated`` (spec §8.11, R-18).
        interleave: round-robin interleaving of a side's members (spec §4.3, R-19); ``False``
            gives each member its whole turn in id order.
        exertion_control: ``agent`` (E-windows are decisions, spec §6.5), ``heuristic`` (the
            engine decides them by spec §9.2's rule: a die on a d20 only when one die could flip
            the outcome and the pool has 2 or more; E-CRIT always; no E-DMG) or ``off`` (no
            E-D20/E-DMG/E-CRIT windows). Recovery (E-HEAL) stays an own-turn action of the
            creature's agent under all three (RULING; the built-in heuristic agent recovers at
            0 HP or below).
        skills: the DEFAULT skill pack (spec §5.3, R-50); off masks every ``cast``.
        fear: Roar's Unnerved(-3) and Afraid (spec §7.2, FULL; CORE-optional).
        allow_friendly_fire: single-target attacks may aim at allies (spec §5.2.1).
        armoured_dodge_bonus: the Dodge bonus of an armoured creature (RULING R-06: 0).
        mana_overdraw: ``excess`` (RULING R-16) or ``full``.
        prone_burst: the Sonic burst of a Colossal/Megalithic creature knocked Prone (spec §2.1,
            R-80; FULL).
        elevation: heights, flying, other move speeds, falling and Wall Cling (spec §3.2,
            §5.2.17, §5.2.18, §8.8; FULL).
        weather: ``none`` or one of ``WEATHER`` (spec §1.3, WE-37; FULL, a scenario option).
        damage_roll_mode: ``roll``, or ``average`` for every dealer (spec §8.2 D4, R-61: each
            dice expression gives ``floor(max / 2)``); a stat block may also choose it alone.
        first_side: ``scenario`` (the instigator, spec §3.4), or ``random``: drawn uniformly
            with the dice at the start (spec §3.4 item 4).
        hazard_reaction: the GM option of spec §6.1 (FULL, WE-08): +1 Reaction for every
            player-side creature at the start of a hazard side's turn (``full_sides``).
        exertion_pool: ``per_combatant`` (each player-style creature has its own pool) or
            ``per_side``: one player controls the side, companions included, and its
            player-style creatures share one pool (spec §9.2, ``full_sides``).
        fleeing: a creature on an edge may step off the map and flee, out of the fight
            (spec §3.7, §8.11; FULL, ``full_flee``).
    """

    version: str = "full"
    round_limit: int = rulings.ROUND_LIMIT
    defeat_mode: str = "death"
    interleave: bool = True
    exertion_control: str = "agent"
    skills: bool = True
    fear: bool = True
    allow_friendly_fire: bool = False
    armoured_dodge_bonus: int = 0
    mana_overdraw: str = "excess"
    prone_burst: bool = True
    elevation: bool = True
    weather: str = "none"
    damage_roll_mode: str = "roll"
    first_side: str = "scenario"
    hazard_reaction: bool = False
    exertion_pool: str = "per_combatant"
    fleeing: bool = True

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


CORE = RuleOptions("core", fear=False, prone_burst=False, elevation=False, fleeing=False)
FULL = RuleOptions("full")
PRESETS = {"core": CORE, "full": FULL}


def parse_options(spec: Any, source: str = "rules=", entry: str = "options") -> RuleOptions:
    """``None`` (full), ``"core"``, ``"full"``, a ``RuleOptions``, or a mapping such as
    ``{version: core, round_limit: 20}``, through the shared parser (envs/core/options.py)."""
    return parse_rule_options(
        spec, PRESETS, source=source, entry=entry, minimum={"armoured_dodge_bonus": 0},
        choices={"defeat_mode": DEFEAT_MODES, "exertion_control": EXERTION_CONTROL,
                 "mana_overdraw": MANA_OVERDRAW, "weather": WEATHER,
                 "damage_roll_mode": DAMAGE_ROLL_MODES, "first_side": FIRST_SIDE,
                 "exertion_pool": EXERTION_POOLS})
