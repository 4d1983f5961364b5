"""The toy game as a registered system's PettingZoo AEC env (``SystemEnv``), test-only.

``env(encounter="duel", rules="full", render_mode=None, shaping=None)`` and ``raw_env(...)``;
agents ``heroes_0``.. and ``monsters_0``... ``SHAPING(weight)``: +weight per own point scored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from envs.rl import SystemEnv, env_factory

from . import rules
from .encoding import ENCODING
from .rules import Scored

__all__ = ["env", "raw_env", "ENCODING", "rules", "points_shaping", "SHAPING"]


def points_shaping(weight: float = 0.1) -> Any:
    """+``weight`` to a combatant for each point it scores (term ``points``)."""

    def shaping(enc: Any, events: Sequence[Any], actor: str) -> Mapping[str, Mapping[str, float]]:
        return {e.who: {"points": weight} for e in events if isinstance(e, Scored)}

    return shaping


class raw_env(SystemEnv):
    """The toy AEC env without wrappers (``shaping=True``: ``points_shaping()``)."""

    metadata = {"render_modes": ["ansi"], "name": ENCODING.name, "is_parallelizable": False}
    rules_module = rules
    system_encoding = ENCODING
    default_encounter = "duel"

    def default_shaping(self) -> Any:
        return points_shaping()


env = env_factory(raw_env)

SHAPING = points_shaping
