"""Metaforce as a PettingZoo AEC environment.

``env(encounter="duel_fighter_brawler", rules="full", render_mode=None)`` (wrapped) and
``raw_env(...)`` (illegal actions raise). Agents: ``a_0``.. and ``b_0``.. (side, roster slot);
the agent to act follows the rules engine: a frame of the turn owner (spec §4.2), a W-R1
Reaction of an opponent after that frame, or a W-I5 Deus Ex window of the combatant about to
fall (spec §6.1), in the middle of another combatant's attack.

=================  ==========================================================================
action space       ``Discrete(577)``: see ``envs/metaforce/encoding.py`` or
                   ``arena layout metaforce``
observation space  ``Dict(observation=Box(-1, 1, (1652,), float32),
                   action_mask=Box(0, 1, (577,), int8))``
reward             +1 win / -1 loss / 0 draw (round limit = truncation), spec §12.6;
                   optional shaping ``SHAPING(weight)``, off by default
render modes       ``"ansi"`` (the event log) and ``"rgb_array"`` (the square map with every
                   creature at its size, ``envs/metaforce/render.py``)
=================  ==========================================================================

Version history:
    v0: first release (CORE and FULL rules as the engine offers them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.rl import SystemEnv, env_factory

from . import rules
from .encoding import ENCODING

__all__ = ["env", "raw_env", "ENCODING", "rules", "draw", "SHAPING", "OutcomeShaping",
           "outcome_shaping", "DEFAULT_ENCOUNTER"]

DEFAULT_ENCOUNTER = rules.encounter_names()[0]


def draw(enc: Any, caption: str = "") -> np.ndarray:
    """The map picture of ``enc`` (``render.render``; Pillow is loaded on the first picture)."""
    from .render import render

    return render(enc, caption)


class raw_env(SystemEnv):
    """Metaforce AEC env without wrappers (``shaping=True``: ``outcome_shaping()``)."""

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
        """``shaping=True``: ``outcome_shaping()``."""
        return outcome_shaping()


env = env_factory(raw_env)


class OutcomeShaping:
    """The optional shaping of spec §12.6 (see ``outcome_shaping``)."""

    def __init__(self, weight: float = 1.0) -> None:
        self.weight = weight

    def __call__(self, enc: Any, events: Sequence[Any], actor: str
                 ) -> dict[str, dict[str, float]]:
        from .rules.events import DamageDealt, StateChanged

        lost: dict[str, float] = {}  # HP lost in this step, down to 0 (no credit for overkill)
        out_now: dict[str, str] = {}
        for e in events:
            if isinstance(e, DamageDealt) and e.amount > 0:
                before = e.hp + e.amount
                loss = min(e.amount, max(0, before))
                if loss:
                    lost[e.target] = lost.get(e.target, 0.0) + loss
            elif isinstance(e, StateChanged):
                out_now[e.combatant] = e.state
        if not lost and not out_now:
            return {}
        w = self.weight
        total: dict[str, float] = {}
        for c in enc.combatants:
            total[c.side] = total.get(c.side, 0.0) + c.profile.hp_max
        out: dict[str, dict[str, float]] = {}
        for c in enc.combatants:
            foes = [o for o in enc.combatants if o.side != c.side]
            foe_total = sum(o.profile.hp_max for o in foes)
            dealt = sum(lost.get(o.id, 0.0) for o in foes) / max(1.0, foe_total)
            taken = sum(lost.get(o.id, 0.0) for o in enc.combatants
                        if o.side == c.side) / max(1.0, total[c.side])
            terms: dict[str, float] = {}
            if dealt or taken:
                terms["harm"] = w * 0.5 * (dealt - taken)
            dead = sum(1 for o in enc.combatants
                       if o.side == c.side and out_now.get(o.id) == "dead")
            if dead:
                terms["deaths"] = -w * 0.25 * dead
            removed = sum(1 for o in foes if o.id in out_now)
            if removed:
                terms["removed"] = w * 0.1 * removed
            if terms:
                out[c.id] = terms
        return out


def outcome_shaping(weight: float = 1.0) -> OutcomeShaping:
    """Optional shaping for training (spec §12.6), from each step's events, for every combatant,
    all times ``weight``: ``+0.5`` x the HP its enemies lost (down to 0) over their total Max HP,
    ``-0.5`` x the HP its own side lost over the side's total Max HP, ``-0.25`` for each own
    combatant that dies (not for one incapacitated, unconscious or retreated: Deus Ex matters) and
    ``+0.1`` for each enemy removed from the fight. A side's episode stays within
    ``weight * (0.5 + 0.25 * its size + 0.1 * the enemies)`` of zero, beside the terminal
    +1/-1/0, which is unchanged. Reported apart in ``infos[agent]["shaping"]`` (terms ``harm``,
    ``deaths`` and ``removed``)."""
    return OutcomeShaping(weight)


SHAPING = outcome_shaping
"""The system's optional shaping, ``SHAPING(weight)``; training (``shaping: w``) looks it up by
this name."""
