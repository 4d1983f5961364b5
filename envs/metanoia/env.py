"""Metanoia as a PettingZoo AEC environment.

``env(encounter="duel_seed", rules="full", render_mode=None, shaping=None)`` (wrapped) and
``raw_env(...)`` (illegal actions raise). Agents: ``A_0``.. and ``B_0``.. (side, roster slot);
the agent to act follows the rules engine, so a Reactor, a guard deciding to intercept or an enemy
deciding to challenge a Move is selected in the middle of another combatant's turn.

=================  ==========================================================================
action space       ``Discrete(581)``: see ``envs/metanoia/encoding.py`` or ``arena layout metanoia``
observation space  ``Dict(observation=Box(-1, 1, (N,), float32), action_mask=Box(0, 1, (581,), int8))``
reward             +1 win / -1 loss / 0 draw (round cap = truncation); optional shaping in infos
=================  ==========================================================================

Version history:
    v0: first release (spec rules/metanoia.md, CORE and FULL rules).
"""

from __future__ import annotations

from typing import Any

from envs.rl import CombatAECEnv, env_factory

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


class raw_env(CombatAECEnv):
    """Metanoia AEC env without wrappers."""

    metadata = {"render_modes": ["ansi"], "name": ENCODING.name, "is_parallelizable": False}

    def __init__(self, encounter: str | None = None, rules: Any = "full", render_mode: str | None = None,
                 shaping: Any = None) -> None:
        from . import rules as R

        self.encounter_name = encounter or DEFAULT_ENCOUNTER
        if self.encounter_name not in R.encounter_names():
            raise ValueError(f"unknown metanoia encounter {self.encounter_name!r}; known: {', '.join(R.encounter_names())}")
        self.rule_options = R.parse_options(rules)
        if shaping is True:
            shaping = injury_shaping()
        super().__init__(
            ENCODING,
            lambda dice, _options: R.new_encounter(self.encounter_name, self.rule_options, dice),
            from_situation=R.from_situation,
            render_mode=render_mode,
            shaping=shaping or None,
        )


env = env_factory(raw_env)

SHAPING = injury_shaping
"""The system's optional shaping, ``SHAPING(weight)``; training (``shaping: w``) looks it up by this name."""

__all__ = ["env", "raw_env", "ENCODING", "rules", "injury_shaping", "SHAPING"]
