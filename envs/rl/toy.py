"""The toy game on the generic env: the tests exercise ``CombatAECEnv`` and the SB3 adapter on it,
and ``arena bench`` times it to show what the env itself costs per step with next to no rules.

The rules and encoding live in the toy system package ``envs.toy`` (registered only by the tests,
with sides ``heroes``/``monsters``); this module builds a ``CombatAECEnv`` straight from any
rosters (default ``DUEL``: sides ``red`` and ``blue``), the way a system env module writes its
``raw_env`` when it does not use ``SystemEnv``.
"""

from __future__ import annotations

from typing import Any, cast

from envs.core import Dice
from envs.toy.encoding import ENCODING, ToyEncoding
from envs.toy.rules import DUEL, TWO_VS_TWO, RaceEncounter, Rolled, Scored, Wounded, apply_situation

from .base_env import CombatAECEnv
from .layout import SystemEncoding
from .system_env import env_factory


def toy_from_situation(data: dict[str, Any], source: str, dice: Dice) -> RaceEncounter:
    """Situation fields: ``points`` and ``hp`` overrides by combatant, ``round``, ``max_rounds``."""
    return apply_situation(
        RaceEncounter(dice=dice, max_rounds=data.get("max_rounds", 6)), data, source
    )


class raw_env(CombatAECEnv):
    """The toy system's AEC env on any rosters."""

    def __init__(
        self, rosters=DUEL, max_rounds: int = 6, render_mode: str | None = None, shaping=None
    ) -> None:
        super().__init__(
            # the toy encoding reads RaceEncounter fields; this env builds only RaceEncounters
            cast(SystemEncoding, ENCODING),
            lambda dice, options: RaceEncounter(rosters, dice=dice, max_rounds=max_rounds),
            from_situation=toy_from_situation,
            render_mode=render_mode,
            shaping=shaping,
        )


env = env_factory(raw_env)


__all__ = [
    "RaceEncounter",
    "ToyEncoding",
    "ENCODING",
    "raw_env",
    "env",
    "toy_from_situation",
    "DUEL",
    "TWO_VS_TWO",
    "Rolled",
    "Scored",
    "Wounded",
]
