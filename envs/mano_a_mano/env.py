"""Mano a Mano as a PettingZoo AEC environment.

``env(encounter="duel_seed", rules="full", render_mode=None)`` (wrapped) and ``raw_env(...)``
(illegal actions raise). Agents: ``A_0``.. and ``B_0``.. (side, roster slot); the agent to act
follows the rules engine, so a counterattacker (spec §6.1), a grapple-choice responder (§6.2) or a
setup stance chooser (§6.5) is selected in the middle of another combatant's turn.

=================  ==========================================================================
action space       ``Discrete(N)``: see ``envs/mano_a_mano/encoding.py`` or
                   ``arena layout mano_a_mano``
observation space  ``Dict(observation=Box(-1, 1, (M,), float32),
                   action_mask=Box(0, 1, (N,), int8))``
reward             +1 win / -1 loss / 0 draw (round cap = truncation)
render modes       ``"ansi"`` (the event log) and ``"rgb_array"`` (the hex map with every fighter,
                   ``envs/mano_a_mano/render.py``: side, stance, health, stun/damage, grapples)
=================  ==========================================================================

Version history:
    v0: first release (CORE and FULL rules without mounted combat, guns and
        climbing/swimming/flying).
        Later, in v0 still (sizes unchanged): FULL mounted combat (spec §5.11: war animals as their
        own combatants, mount / dismount, stay-mounted rolls, mounted charges; encounter
        ``cavalry``), falls over ledges and from a mount's back (R57); the two spare floats of each
        slot row are now "mounted" and "ridden".
        Later, without a change of behaviour: ``render_mode="rgb_array"``.
        Later, in v0 still (sizes unchanged): guns (spec §5.6, R50: shots, aim, load, unload,
        muzzle-loaders; encounter ``duel_musket``), a bow can be dropped, pick-ups reach the two
        items on top of a pile, and a two-handed weapon needs two free hands to pick up.
    v1: the observation's slot rows (52 floats, was 44) add each fighter's reach (RULING R7),
        whether it can strike the observer and the observer it, and its held gun's shots, clip
        and reload progress (spec §5.6). Policies trained on v0 do not load.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.rl import SystemEnv, env_factory

from . import rules
from .encoding import ENCODING

DEFAULT_ENCOUNTER = "duel_seed"


def draw(enc: Any, caption: str = "") -> np.ndarray:
    """The map picture of ``enc`` (``render.render``; Pillow is loaded on the first picture)."""
    from .render import render

    return render(enc, caption)


class raw_env(SystemEnv):
    """Mano a Mano AEC env without wrappers (``shaping=True``: ``harm_shaping()``)."""

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

    def __init__(self, weight: float = 0.1, incapacitation: float = 0.25) -> None:
        self.weight = weight
        self.incapacitation = incapacitation
        self._enc: Any = None
        self._before: dict[str, tuple[float, bool]] = {}

    @staticmethod
    def _state(enc: Any) -> dict[str, tuple[float, bool]]:
        """Per combatant: ``T / stamina`` clipped to 1, and whether it is incapacitated."""
        return {
            f.id: (min(1.0, (f.stun + f.damage) / max(1, f.block.stamina)), f.incapacitated)
            for f in enc.fighters
        }

    def start(self, enc: Any) -> None:
        """Remember the state an episode starts from (the env calls this after every reset)."""
        self._enc, self._before = enc, self._state(enc)

    def __call__(self, enc: Any, events: Any, actor: str) -> dict[str, dict[str, float]]:
        from .rules.state import Harmed

        now = self._state(enc)
        if (
            enc is not self._enc
        ):  # not started on this encounter: undo this step's hits to get "before"
            hurt: dict[str, int] = {}
            for e in events:
                if isinstance(e, Harmed):
                    hurt[e.target] = hurt.get(e.target, 0) + e.damage + e.stun
            before = {}
            for f in enc.fighters:
                t = f.stun + f.damage - hurt.get(f.id, 0)
                before[f.id] = (min(1.0, t / max(1, f.block.stamina)), t >= 2 * f.block.toughness)
            self._enc = enc
        else:
            before = self._before
        self._before = now
        change = {cid: now[cid][0] - before[cid][0] for cid in now}
        downed = {cid for cid in now if now[cid][1] and not before[cid][1]}
        if not any(change.values()) and not downed:
            return {}
        out: dict[str, dict[str, float]] = {}
        for f in enc.fighters:
            harm = down = 0.0
            for g in enc.fighters:
                sign = -1.0 if g.side == f.side else 1.0
                harm += sign * change[g.id]
                down += sign * (g.id in downed)
            terms = {"harm": self.weight * harm}
            if down:
                terms["incapacitation"] = self.incapacitation * down
            out[f.id] = terms
        return out


def harm_shaping(weight: float = 0.1, incapacitation: float = 0.25) -> HarmShaping:
    """Optional shaping for training (spec §12.4): after every step, for each combatant, ``weight``
    times the change of its enemies' ``T / stamina`` (T = stun + damage, clipped to stamina) minus
    its own side's, and ``+incapacitation`` for every enemy / ``-incapacitation`` for every ally
    that became incapacitated in the step. Recovery lowers ``T``, so it counts too. Reported apart
    in ``infos[agent]["shaping"]`` (terms ``harm`` and ``incapacitation``); the terminal +1/-1/0
    is unchanged."""
    return HarmShaping(weight, incapacitation)


SHAPING = harm_shaping
"""The system's optional shaping, ``SHAPING(weight)``; training (``shaping: w``) looks it up by
this name."""

__all__ = ["env", "raw_env", "ENCODING", "rules", "harm_shaping", "HarmShaping", "SHAPING"]
