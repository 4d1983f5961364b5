"""Mano a Mano as a PettingZoo AEC environment.

``env(encounter="duel_seed", rules="full", render_mode=None)`` (wrapped) and ``raw_env(...)``
(illegal actions raise). Agents: ``A_0``.. and ``B_0``.. (side, roster slot); the agent to act
follows the rules engine, so a counterattacker (spec §6.1), a grapple-choice responder (§6.2) or a
setup stance chooser (§6.5) is selected in the middle of another combatant's turn.

=================  ==========================================================================
action space       ``Discrete(N)``: see ``envs/mano_a_mano/encoding.py`` or ``arena layout mano_a_mano``
observation space  ``Dict(observation=Box(-1, 1, (M,), float32), action_mask=Box(0, 1, (N,), int8))``
reward             +1 win / -1 loss / 0 draw (round cap = truncation)
=================  ==========================================================================

Version history:
    v0: first release (CORE and FULL rules without mounted combat, guns and climbing/swimming/flying).
"""

from __future__ import annotations

from typing import Any

from envs.rl import CombatAECEnv, env_factory

from . import rules
from .encoding import ENCODING

DEFAULT_ENCOUNTER = "duel_seed"


class raw_env(CombatAECEnv):
    """Mano a Mano AEC env without wrappers."""

    metadata = {"render_modes": ["ansi"], "name": ENCODING.name, "is_parallelizable": False}

    def __init__(self, encounter: str | None = None, rules: Any = "full", render_mode: str | None = None,
                 shaping: Any = None) -> None:
        from . import rules as R

        self.encounter_name = encounter or DEFAULT_ENCOUNTER
        if self.encounter_name not in R.encounter_names():
            raise ValueError(f"unknown mano_a_mano encounter {self.encounter_name!r}; known: {', '.join(R.encounter_names())}")
        self.rule_options = R.parse_options(rules)
        super().__init__(
            ENCODING,
            lambda dice, _options: R.new_encounter(self.encounter_name, self.rule_options, dice),
            from_situation=R.from_situation,
            render_mode=render_mode,
            shaping=shaping or None,
        )


env = env_factory(raw_env)

SHAPING = None
"""No shaped reward yet (``shaping`` in training configs needs one)."""

__all__ = ["env", "raw_env", "ENCODING", "rules", "SHAPING"]
