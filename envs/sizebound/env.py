"""Sizebound as a PettingZoo AEC environment.

``env(encounter="duel_blade_vs_shield", rules="full", render_mode=None)`` (wrapped) and
``raw_env(...)`` (illegal actions raise). Agents: ``A_0``.. and ``B_0``.. (side, roster slot);
the agent to act follows the rules engine: an own-turn action of a member of the active side
(team turns, interleaved), or a reaction or exertion window (spec §6.3, §6.5) of whoever it
asks, in the middle of another creature's action.

=================  ==========================================================================
action space       ``Discrete(335)``: see ``envs/sizebound/encoding.py`` or
                   ``arena layout sizebound``
observation space  ``Dict(observation=Box(-1, 1, (1521,), float32),
                   action_mask=Box(0, 1, (335,), int8))``
reward             +1 win / -1 loss / 0 draw (round cap = truncation), spec §12.4;
                   optional shaping ``SHAPING(weight)``, off by default
render modes       ``"ansi"`` (the event log) and ``"rgb_array"`` (the square map with every
                   creature at its size, ``envs/sizebound/render.py``)
=================  ==========================================================================

Version history:
    v0: first release (CORE and FULL rules; the map's sight and reach planes and each slot's
    in_sight flag were added before the first shipped policy was trained on it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.rl import SystemEnv, env_factory

from . import rules
from .encoding import ENCODING

__all__ = ["env", "raw_env", "ENCODING", "rules", "draw", "SHAPING", "HarmShaping",
           "harm_shaping", "DEFAULT_ENCOUNTER"]

DEFAULT_ENCOUNTER = rules.encounter_names()[0]


def draw(enc: Any, caption: str = "") -> np.ndarray:
    """The map picture of ``enc`` (``render.render``; Pillow is loaded on the first picture)."""
    from .render import render

    return render(enc, caption)


class raw_env(SystemEnv):
    """Sizebound AEC env without wrappers (``shaping=True``: ``harm_shaping()``)."""

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
        """``shaping=True``: ``harm_shaping()``."""
        return harm_shaping()


env = env_factory(raw_env)


class HarmShaping:
    """The optional shaping of spec §12.4 (see ``harm_shaping``)."""

    def __init__(self, weight: float = 0.1, kill: float | None = None) -> None:
        self.weight = weight
        self.kill = 2 * weight if kill is None else kill

    def __call__(self, enc: Any, events: Sequence[Any], actor: str
                 ) -> dict[str, dict[str, float]]:
        from .rules.events import Damaged, Died

        lost: dict[str, float] = {}  # share of Max HP lost in this step
        died: set[str] = set()
        for e in events:
            if isinstance(e, Damaged) and e.amount > 0:
                p = enc.by_id[e.target].profile
                before = e.hp + e.amount
                loss = min(e.amount, max(0, before - p.pnr + 1))  # no credit for overkill
                lost[e.target] = lost.get(e.target, 0.0) + loss / max(1, p.max_hp)
            elif isinstance(e, Died):
                died.add(e.actor)
        if not lost and not died:
            return {}
        members = {s.side: s.members for s in enc.sides()}
        side_of = {c: s for s, ms in members.items() for c in ms}
        out: dict[str, dict[str, float]] = {}
        for f in enc.fighters:
            own = members[f.side]
            foes = [c for c in side_of if side_of[c] != f.side]
            dealt = sum(lost.get(c, 0.0) for c in foes) / max(1, len(foes))
            taken = sum(lost.get(c, 0.0) for c in own) / max(1, len(own))
            terms = {"harm": self.weight * (dealt - taken)} if (dealt or taken) else {}
            kills = sum(1 for c in foes if c in died)
            if kills:
                terms["kills"] = self.kill * kills / len(foes)
            if terms:
                out[f.id] = terms
        return out


def harm_shaping(weight: float = 0.1, kill: float | None = None) -> HarmShaping:
    """Optional shaping for training (spec §12.4), from each step's events: for every
    combatant, ``weight`` times the share of Max HP its enemies lost (down to PNR, no credit for
    overkill) minus the share its own side lost, each averaged over that side's members, and
    ``kill`` (default ``2 * weight``) per enemy killed, over the number of enemies. A side's
    whole episode stays within ``weight * 1.5 + kill`` of zero (``0.35`` at the default), below
    the terminal +1/-1/0, which is unchanged. Reported apart in ``infos[agent]["shaping"]``
    (terms ``harm`` and ``kills``)."""
    return HarmShaping(weight, kill)


SHAPING = harm_shaping
"""The system's optional shaping, ``SHAPING(weight)``; training (``shaping: w``) looks it up by
this name."""
