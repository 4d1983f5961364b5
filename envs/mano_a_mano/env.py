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

from envs.rl import SystemEnv, env_factory

from . import rules
from .encoding import ENCODING

DEFAULT_ENCOUNTER = "duel_seed"


class raw_env(SystemEnv):
    """Mano a Mano AEC env without wrappers."""

    metadata = {"render_modes": ["ansi"], "name": ENCODING.name, "is_parallelizable": False}
    rules_module = rules
    system_encoding = ENCODING
    default_encounter = DEFAULT_ENCOUNTER


env = env_factory(raw_env)

SHAPING = None
"""No shaped reward yet (``shaping`` in training configs needs one)."""

__all__ = ["env", "raw_env", "ENCODING", "rules", "SHAPING"]
