"""Generic RL glue shared by every system (numpy, gymnasium and pettingzoo are allowed here).

* ``ActionLayout`` / ``Block``: one ``Discrete(n)`` space made of named mixed-radix blocks.
* ``ObsSpec`` / ``ego_order``: fixed-size observation vectors from named pieces, ego-centric slots.
* ``SystemEncoding``: what a system supplies (spaces, Action <-> index, observations);
  ``legal_index_map`` / ``mask_from_legal`` turn ``legal_actions()`` into indices and masks.
* ``CombatAECEnv`` / ``env_factory``: the generic PettingZoo AEC env and its standard wrappers.
* ``ActionMaskAdapter``: a single-agent Gymnasium view for SB3-contrib's ``MaskablePPO``.
* map pictures live in ``envs.render`` (imported on demand, it loads Pillow; ``envs.rl.hexrender``
  re-exports the hex painter), behind ``render_mode="rgb_array"`` (an env class's ``renderer``).
"""

from __future__ import annotations

from .base_env import CombatAECEnv, FromSituation, NewEncounter, Shaping, SystemEnv, env_factory
from .layout import (
    ActionLayout,
    Block,
    EncodingError,
    SystemEncoding,
    legal_index_map,
    mask_from_legal,
)
from .observation import ObsSpec, ego_order
from .sb3 import ActionMaskAdapter, Policy, random_policy

__all__ = [
    "SystemEnv",
    "ActionLayout", "Block", "EncodingError", "SystemEncoding", "legal_index_map",
    "mask_from_legal",
    "ObsSpec", "ego_order",
    "CombatAECEnv", "FromSituation", "NewEncounter", "Shaping", "env_factory",
    "ActionMaskAdapter", "Policy", "random_policy",
]
