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

import importlib
from typing import TYPE_CHECKING, Any

from .layout import (
    ActionLayout,
    Block,
    EncodingError,
    SystemEncoding,
    legal_index_map,
    mask_from_legal,
)
from .observation import ObsSpec, ego_order

if TYPE_CHECKING:
    from .base_env import CombatAECEnv, FromSituation, NewEncounter, Shaping
    from .sb3 import ActionMaskAdapter, Policy, random_policy
    from .system_env import SystemEnv, env_factory

_LAZY = {
    "CombatAECEnv": "base_env", "FromSituation": "base_env", "NewEncounter": "base_env",
    "Shaping": "base_env", "ActionMaskAdapter": "sb3", "Policy": "sb3", "random_policy": "sb3",
    "SystemEnv": "system_env", "env_factory": "system_env",
}
"""names whose modules import gymnasium and pettingzoo: loaded on first use, so an encoding
(layout and observation only, numpy) costs no env import (``arena suggest`` starts faster)"""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'envs.rl' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "SystemEnv",
    "ActionLayout", "Block", "EncodingError", "SystemEncoding",
    "legal_index_map", "mask_from_legal",
    "ObsSpec", "ego_order",
    "CombatAECEnv", "FromSituation", "NewEncounter", "Shaping", "env_factory",
    "ActionMaskAdapter", "Policy", "random_policy",
]
