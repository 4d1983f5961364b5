"""``LearnerEnv``: self-play training view of any registered system (STYLE C16).

One Gymnasium env in which the learner plays a whole side (parameter sharing: it decides for every
``<side>_<slot>`` agent of that side) against an opponent drawn from a weighted pool at each reset,
on a side drawn at random, so it learns both sides. It is built on ``envs.rl.ActionMaskAdapter``,
which steps the opponents itself: every transition's observation, reward and done flag belong to the
learner, and a fight lost on an opponent's step still reaches the learner as its -1.

Pool entries (weights need not sum to 1)::

    random        uniform over the mask
    heuristic     the system's scripted agent (agents.heuristic)
    self          a frozen snapshot of the learner, drawn uniformly among those given to
                  ``set_snapshots``; it samples from its policy. Until the first snapshot exists its
                  weight is shared out among the other entries.
    trained       the system's shipped policy (``agents/policies``)
    trained:PATH  a fixed policy file

An index off the mask ends the episode as a loss. At the end of an episode ``info`` also holds
``opponent`` (the pool entry), ``learner_side`` and ``score`` (1 win, 0.5 draw, 0 loss) for the
training metrics.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from envs import make_env, weighted_shaping
from envs.rl import ActionMaskAdapter

from . import make_agent
from .trained import MLPPolicy, TrainedAgent, load_policy

__all__ = ["LearnerEnv", "POOL_KINDS", "check_pool"]

POOL_KINDS = ("random", "heuristic", "self", "trained", "trained:PATH")


def check_pool(pool: Mapping[str, float]) -> dict[str, float]:
    """Validate pool weights; returns them as floats. Raises ``ValueError`` naming the entry."""
    if not pool:
        raise ValueError("the opponent pool is empty")
    out = {}
    for name, weight in pool.items():
        if name not in ("random", "heuristic", "self", "trained") and not (
            name.startswith("trained:") and len(name) > 8
        ):
            raise ValueError(f"opponent {name!r} is not one of {', '.join(POOL_KINDS)}")
        if isinstance(weight, bool) or not isinstance(weight, int | float) or weight < 0:
            raise ValueError(f"opponent {name!r}: weight must be a number >= 0, got {weight!r}")
        out[name] = float(weight)
    if sum(w for n, w in out.items() if n != "self") <= 0:
        raise ValueError("the opponent pool needs a positive weight on an entry other than 'self'")
    return out


class LearnerEnv(gymnasium.Env):
    """The learner's single-agent view of one system's encounter, for ``MaskablePPO``.

    Args:
        system: registry key (``metanoia``).
        encounter: the system's encounter name.
        rules: the system's rules option (``"full"``, ``"core"``...).
        opponents: pool weights, e.g. ``{"heuristic": 0.5, "random": 0.2, "self": 0.3}``.
        share_side: the learner decides for every agent of its side (else for slot 0 only, the
            others then play like the opponent).
        sides: the sides the learner may play (default: every side, drawn per episode).
        shaping: weight of the system's optional shaping (0: off), built by the registry's
            ``shaping`` part (``envs.weighted_shaping(system, weight)``).
        draw_reward: the learner's reward when a fight ends with no winner (the env gives 0). A
            negative value stops the learner from settling for stalling to the round cap.
        seed: seeds the side and opponent draws and the opponents' generators.
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        system: str,
        encounter: str,
        rules: Any = "full",
        opponents: Mapping[str, float] | None = None,
        *,
        share_side: bool = True,
        sides: Sequence[str] | None = None,
        shaping: float = 0.0,
        draw_reward: float = 0.0,
        seed: int | None = None,
    ) -> None:
        self.system = system
        self.draw_reward = float(draw_reward)
        self.pool = check_pool(opponents or {"random": 1.0})
        kwargs: dict[str, Any] = {"rules": rules}
        if shaping:
            kwargs["shaping"] = weighted_shaping(system, shaping)
        self.env = make_env(system, encounter, wrapped=False, **kwargs)
        self.encoding = self.env.encoding
        self.rng = np.random.default_rng(seed)
        all_sides = sorted({a.rsplit("_", 1)[0] for a in self.env.possible_agents})
        self.sides = list(sides) if sides else all_sides
        for s in self.sides:
            if s not in all_sides:
                raise ValueError(
                    f"side {s!r} is not a side of {system}/{encounter} ({', '.join(all_sides)})"
                )
        self.adapters = {
            s: ActionMaskAdapter(self.env, f"{s}_0", self._opponent_step, share_side=share_side)
            for s in self.sides
        }
        first = self.adapters[self.sides[0]]
        self.observation_space = first.observation_space
        self.action_space = first.action_space
        self._fixed: dict[str, Any] = {}
        self._snapshots: list[TrainedAgent] = []
        self._snapshot_paths: list[str] = []
        self._adapter: ActionMaskAdapter = first
        self._opponent: str = ""
        self._opponent_agent: Any = None
        self._first_reset = True

    # ------------------------------------------------------------------ pool

    def set_snapshots(self, paths: Sequence[str | os.PathLike[str]]) -> int:
        """Use these policy files as the ``self`` entries of the pool; returns how many are
        loaded."""
        keep = {p: a for p, a in zip(self._snapshot_paths, self._snapshots, strict=True)}
        agents, names = [], []
        for p in map(str, paths):
            agent = keep.get(p) or TrainedAgent(
                load_policy(p, self.system),
                self.system,
                int(self.rng.integers(2**31)),
                temperature=1.0,
                name="self",
            )
            agents.append(agent)
            names.append(p)
        self._snapshots, self._snapshot_paths = agents, names
        return len(agents)

    def set_snapshot_weights(self, policies: Sequence[MLPPolicy]) -> None:
        """Use in-memory policies as the ``self`` entries (tests, single-process training)."""
        self._snapshots = [
            TrainedAgent(
                p, self.system, int(self.rng.integers(2**31)), temperature=1.0, name="self"
            )
            for p in policies
        ]
        self._snapshot_paths = [f"<memory {i}>" for i in range(len(policies))]

    def _draw_opponent(self) -> tuple[str, Any]:
        names = [n for n in self.pool if n != "self" or self._snapshots]
        weights = np.array([self.pool[n] for n in names])
        name = names[int(self.rng.choice(len(names), p=weights / weights.sum()))]
        if name == "self":
            return name, self._snapshots[int(self.rng.integers(len(self._snapshots)))]
        agent = self._fixed.get(name)
        if agent is None:
            agent = self._fixed[name] = make_agent(name, self.system, int(self.rng.integers(2**31)))
        return name, agent

    def _opponent_step(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """Policy for every agent the learner does not control (called by the adapter)."""
        agent = self._opponent_agent
        if isinstance(agent, TrainedAgent):
            return agent.pick(observation, mask)
        enc = self.env.encounter
        actor = enc.current_actor()
        return self.encoding.encode_action(enc, actor, agent.choose(enc))

    # ------------------------------------------------------------------ gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw a side and an opponent, start a fight, play until the learner's first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        side = self.sides[int(self.rng.integers(len(self.sides)))]
        self._adapter = self.adapters[side]
        self._opponent, self._opponent_agent = self._draw_opponent()
        env_seed = (
            seed
            if seed is not None
            else (int(self.rng.integers(2**31)) if self._first_reset else None)
        )
        self._first_reset = False
        obs, info = self._adapter.reset(seed=env_seed, options=options)
        return obs, {**info, "opponent": self._opponent, "learner_side": side}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action, then the opponents' until its next decision or the end.

        An index off the mask ends the episode as a loss (-1) with ``info["illegal_action"]``, as
        PettingZoo's ``TerminateIllegalWrapper`` does; masked PPO never plays one.
        """
        mask = self._adapter.action_masks()
        if not (0 <= int(action) < len(mask) and mask[int(action)]):
            side = self._adapter.side_prefix[:-1]
            obs = self.env.observe(self._adapter.agent)["observation"]
            return (
                obs,
                -1.0,
                True,
                False,
                {
                    "illegal_action": int(action),
                    "opponent": self._opponent,
                    "learner_side": side,
                    "score": 0.0,
                },
            )
        obs, reward, terminated, truncated, info = self._adapter.step(action)
        if terminated or truncated:
            side = self._adapter.side_prefix[:-1]
            winner = (info.get("outcome") or {}).get("winner")
            if winner is None:
                reward += self.draw_reward
            info = {**info, "opponent": self._opponent, "learner_side": side,
                    "score": 0.5 if winner is None else float(winner == side)}
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's current mask (for ``MaskablePPO``)."""
        return self._adapter.action_masks()

    def close(self) -> None:
        self.env.close()
