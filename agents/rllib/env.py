"""The arena's PettingZoo AEC env as an RLlib multi-agent env, and the self-play mapping.

``ArenaPettingZooEnv`` is RLlib's ``PettingZooEnv`` wrapper (``ray.rllib.env.wrappers``) over the
raw AEC env of any registered system (``envs.make_env``), so one decision of any agent is one RLlib
env step and the agent ids are the env's ``<side>_<slot>`` names. It adds the training config's
``draw_reward`` to every agent's last reward in a fight that hits the round cap (the env gives 0;
below 0, stalling never pays) and, with ``shaping > 0``, the system's shaped reward.

Self-play (``policy_mapping_fn``): each episode draws an opponent from the pool (``opponents``,
``self`` and ``random``) from its own id. With ``self``, every agent of both sides maps to the one
learned module ``main`` (parameter sharing; the observation is ego-centric, built for the deciding
combatant, so one policy serves both sides and each fight trains it twice). With ``random``, one
side (also drawn from the episode id) maps to ``main`` and the other to ``random``, a masking module
that plays uniformly over the legal actions and is never trained.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

__all__ = ["ArenaPettingZooEnv", "make_arena_env", "mapping_fn", "side_of", "LEARNER", "RANDOM"]

LEARNER = "main"
"""The module id of the learned policy."""
RANDOM = "random"
"""The module id of the uniform-over-the-mask opponent."""


def side_of(agent_id: str) -> str:
    """``heroes_0`` -> ``heroes``."""
    return agent_id.rsplit("_", 1)[0]


class ArenaPettingZooEnv(PettingZooEnv):
    """RLlib's ``PettingZooEnv`` over one system's encounter (see the module docstring).

    Args:
        env_config: ``system``, ``encounter``, ``rules``, ``draw_reward`` and ``shaping``
            (RLlib passes the config's ``env_config`` mapping).
    """

    def __init__(self, env_config: Mapping[str, Any]) -> None:
        from envs import make_env, weighted_shaping

        system = env_config["system"]
        kwargs: dict[str, Any] = {"rules": env_config.get("rules", "full")}
        shaping = float(env_config.get("shaping", 0.0))
        if shaping:
            kwargs["shaping"] = weighted_shaping(system, shaping)
        self.draw_reward = float(env_config.get("draw_reward", 0.0))
        super().__init__(make_env(system, env_config["encounter"], wrapped=False, **kwargs))

    def step(self, action: dict[Any, Any]) -> tuple[Any, ...]:
        obs, rew, terminated, truncated, info = super().step(action)
        if self.draw_reward:
            for agent in rew:
                if truncated.get(agent) and not terminated.get(agent):  # the round cap: a draw
                    rew[agent] += self.draw_reward
        return obs, rew, terminated, truncated, info


def make_arena_env(env_config: Mapping[str, Any]) -> ArenaPettingZooEnv:
    """The env creator registered with ``ray.tune.register_env``."""
    return ArenaPettingZooEnv(env_config)


def _unit(text: str) -> float:
    """A number in [0, 1) from a string (stable across processes, unlike ``hash``)."""
    return zlib.crc32(text.encode()) / 2**32


def mapping_fn(
    opponents: Mapping[str, float], sides: list[str]
) -> Any:
    """The ``policy_mapping_fn`` of a pool ``{"self": w, "random": w}`` over ``sides``."""
    total = sum(opponents.values())
    p_random = opponents.get("random", 0.0) / total

    def fn(agent_id: str, episode: Any, **kwargs: Any) -> str:
        eid = str(getattr(episode, "id_", episode))
        if _unit(eid) >= p_random:
            return LEARNER
        learner_side = sides[int(_unit(eid + "/side") * len(sides))]
        return LEARNER if side_of(agent_id) == learner_side else RANDOM

    return fn
