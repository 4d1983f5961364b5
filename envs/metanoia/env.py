"""Metanoia as a PettingZoo AEC environment.

``env(encounter="duel_seed", rules="full", render_mode=None, shaping=None)`` (wrapped) and
``raw_env(...)`` (illegal actions raise). Agents: ``A_0``.. and ``B_0``.. (side, roster slot);
the agent to act follows the rules engine, so a Reactor, a guard deciding to intercept or an enemy
deciding to challenge a Move is selected in the middle of another combatant's turn.

=================  ==========================================================================
action space       ``Discrete(581)``: see ``envs/metanoia/encoding.py`` or ``arena layout metanoia``
observation space  ``Dict(observation=Box(-1, 1, (N,), float32),
                   action_mask=Box(0, 1, (581,), int8))``
reward             +1 win / -1 loss / 0 draw (round cap = truncation); optional shaping in infos
=================  ==========================================================================

Version history:
    v0: first release (spec rules/metanoia.md, CORE and FULL rules).
"""

from __future__ import annotations

from typing import Any

from envs.rl import SystemEnv, env_factory

from . import rules
from .encoding import ENCODING

DEFAULT_ENCOUNTER = "duel_seed"


def injury_shaping(weight: float = 0.05):
    """Optional shaping (spec §12.6): +weight per enemy Injury slot filled or Conviction removed,
    -weight per own; stacks are not rewarded. Reported separately in ``infos[agent]["shaping"]``."""

    def shaping(enc: Any, events: Any, actor: str) -> dict[str, dict[str, float]]:
        from .rules.events import ConvictionsChanged, InjuryLanded

        hurt: dict[str, float] = {}
        for e in events:
            if isinstance(e, InjuryLanded):
                hurt[e.target] = hurt.get(e.target, 0.0) + e.slots
            elif isinstance(e, ConvictionsChanged) and e.delta < 0:
                hurt[e.combatant] = hurt.get(e.combatant, 0.0) - e.delta
        if not hurt:
            return {}
        out: dict[str, dict[str, float]] = {}
        for f in enc.fighters:
            v = sum((-n if enc.side_of(t) == f.side else n) for t, n in hurt.items())
            out[f.id] = {"harm": weight * v}
        return out

    return shaping


class raw_env(SystemEnv):
    """Metanoia AEC env without wrappers (``shaping=True``: ``injury_shaping()``)."""

    metadata = {"render_modes": ["ansi"], "name": ENCODING.name, "is_parallelizable": False}
    rules_module = rules
    system_encoding = ENCODING
    default_encounter = DEFAULT_ENCOUNTER

    def default_shaping(self) -> Any:
        return injury_shaping()


env = env_factory(raw_env)

SHAPING = injury_shaping
"""The system's optional shaping, ``SHAPING(weight)``; training (``shaping: w``) looks it up by this
name."""

__all__ = ["env", "raw_env", "ENCODING", "rules", "injury_shaping", "SHAPING"]
