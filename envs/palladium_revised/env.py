"""Palladium Revised as a PettingZoo AEC environment.

``env(encounter="duel_sword_vs_rogue", rules="full", render_mode=None)`` (wrapped) and
``raw_env(...)`` (illegal actions raise). Agents: ``A_0``.. and ``B_0``.. (side, roster slot);
the agent to act follows the rules engine's timeline (spec §4.4, §4.8): the combatant whose
slot of the Melee Grid is reached (TURN, or COMMITTED at a reserved slot, asked again after each
free action), or a window inside another combatant's action: the DEFENSE of a Strike's target
and the OPPORTUNITY Strike of an enemy whose Zone layer a mover leaves, and under FULL the SAVE
against a Taunt or Distract and the POST_ROLL spending of Morale.

=================  ==========================================================================
action space       ``Discrete(199)``: see ``envs/palladium_revised/encoding.py`` or
                   ``arena layout palladium_revised``
observation space  ``Dict(observation=Box(-1, 1, (1161,), float32),
                   action_mask=Box(0, 1, (199,), int8))``
reward             +1 win / -1 loss / 0 draw (round cap = truncation), spec §12.6;
                   optional shaping ``SHAPING(weight)``, off by default
render modes       ``"ansi"`` (the event log) and ``"rgb_array"`` (the battle line with every
                   fighter's Zone bands and the round's Melee Grid,
                   ``envs/palladium_revised/render.py``)
=================  ==========================================================================

Version history:
    v0: first release (CORE and FULL rules: ``rules="core"`` masks FULL's indices).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.rl import SystemEnv, env_factory

from . import rules
from .encoding import ENCODING

__all__ = ["env", "raw_env", "ENCODING", "rules", "draw", "SHAPING", "HealthShaping",
           "health_shaping", "DEFAULT_ENCOUNTER"]

DEFAULT_ENCOUNTER = rules.encounter_names()[0]


def draw(enc: Any, caption: str = "") -> np.ndarray:
    """The picture of ``enc`` (``render.render``; Pillow is loaded on the first picture)."""
    from .render import render

    return render(enc, caption)


class raw_env(SystemEnv):
    """Palladium Revised AEC env without wrappers (``shaping=True``: ``health_shaping()``)."""

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "name": ENCODING.name,
        "is_parallelizable": False,
    }
    rules_module = rules
    system_encoding = ENCODING
    default_encounter = DEFAULT_ENCOUNTER
    renderer = staticmethod(draw)

    def default_shaping(self) -> Any:
        """``shaping=True``: ``health_shaping()``."""
        return health_shaping()


env = env_factory(raw_env)


class HealthShaping:
    """The optional shaping of spec §12.6 (see ``health_shaping``)."""

    def __init__(self, weight: float = 1.0) -> None:
        self.weight = weight

    def __call__(self, enc: Any, events: Sequence[Any], actor: str
                 ) -> dict[str, dict[str, float]]:
        from .rules.events import DamageDealt, StateChanged

        lost: dict[str, float] = {}  # health = S.D.C. + max(H.P., 0) lost in this step
        comas: set[str] = set()
        for e in events:
            if isinstance(e, DamageDealt):
                hp_before = e.hp + e.to_hp
                loss = e.to_sdc + max(0, hp_before) - max(0, e.hp)
                if loss > 0:
                    lost[e.target] = lost.get(e.target, 0.0) + loss
            elif isinstance(e, StateChanged) and e.state == "coma":
                comas.add(e.combatant)
        if not lost and not comas:
            return {}
        whole: dict[str, float] = {}
        for c in enc.combatants:
            whole[c.side] = whole.get(c.side, 0.0) + c.profile.sdc_max + c.profile.hp_base
        side_lost: dict[str, float] = {}
        side_comas: dict[str, int] = {}
        for c in enc.combatants:
            side_lost[c.side] = side_lost.get(c.side, 0.0) + lost.get(c.id, 0.0)
            side_comas[c.side] = side_comas.get(c.side, 0) + (c.id in comas)
        w = self.weight
        out: dict[str, dict[str, float]] = {}
        for c in enc.combatants:
            own = c.side
            dealt = sum(v / max(1.0, whole[s]) for s, v in side_lost.items() if s != own)
            taken = side_lost[own] / max(1.0, whole[own])
            terms: dict[str, float] = {}
            if dealt or taken:
                terms["health"] = w * 0.5 * (dealt - taken)
            k = sum(n for s, n in side_comas.items() if s != own)
            if k:
                terms["comas"] = w * 0.2 * k
            if terms:
                out[c.id] = terms
        return out


def health_shaping(weight: float = 1.0) -> HealthShaping:
    """Optional shaping for training (spec §12.6), from each step's events, for every combatant,
    all times ``weight``: ``+0.5`` x the health its enemies lost over their side's whole health,
    ``-0.5`` x the health its own side lost over its own, where health is S.D.C. + max(H.P., 0)
    (so no credit below 0 H.P.), and ``+0.2`` per enemy put into a Coma. A side's episode stays
    within ``weight * (0.5 + 0.5 + 0.2 * the enemies)`` of zero, beside the terminal +1/-1/0,
    which is unchanged. Reported apart in ``infos[agent]["shaping"]`` (terms ``health`` and
    ``comas``)."""
    return HealthShaping(weight)


SHAPING = health_shaping
"""The system's optional shaping, ``SHAPING(weight)``; training (``shaping: w``) looks it up by
this name."""
