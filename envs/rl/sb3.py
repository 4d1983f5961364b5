"""``ActionMaskAdapter``: one learner in an AEC combat env as a single-agent Gymnasium env.

The learner controls one agent (or, with ``share_side=True``, every ``<side>_<slot>`` agent of its
side: parameter sharing). Every other agent is driven inside ``step`` by a policy
``policy(observation, mask) -> index``, so each transition's observation, reward and done flags all
belong to the learner (STYLE C16)::

    adapter = ActionMaskAdapter(
        make_env("metanoia"), learner="heroes_0", opponents=random_policy(rng)
    )
    model = MaskablePPO("MlpPolicy", adapter).learn(10_000)   # reads adapter.action_masks()

An opponent can also be one of the project's agents, built (``make_agent("heuristic", system)``)
or as its spec, built for the env's system: ``"random"``, ``"heuristic"``, ``"search:0.1s"``,
``"trained"`` (the system's shipped policy) or ``"trained:PATH"``::

    ActionMaskAdapter(make_env("metanoia"), "heroes_0", opponents="trained", opponent_seed=0)

Rewards: a transition's reward is what the learner's agents received from its action up to its next
decision (or the end), averaged over the agents it controls, so a side win is +1 however many agents
share the policy, and a loss that happens on an opponent's step still reaches the learner as -1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from envs import load_part

__all__ = ["Policy", "ActionMaskAdapter", "random_policy", "AGENT_FACTORY"]

Policy = Callable[[np.ndarray, np.ndarray], int]
"""``policy(observation vector, int8 mask) -> action index``."""

AGENT_FACTORY = "agents:make_agent"
"""what builds an opponent given as an agent spec (``make_agent(spec, system, seed)``): named by
path and loaded on first use, as the registry names each system's heuristic, because ``agents/``
sits above ``envs/``"""


def random_policy(rng: np.random.Generator) -> Policy:
    """A policy that picks uniformly among the masked-in indices with ``rng``."""

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(len(legal))])

    return act


class ActionMaskAdapter(gymnasium.Env):
    """A single-agent view of an AEC combat env for SB3-contrib's ``MaskablePPO``.

    Args:
        env: a raw or wrapped AEC env with Dict observations ``{"observation", "action_mask"}``.
        learner: the learning agent's name (``heroes_0``).
        opponents: one opponent for every other agent, or ``{agent: opponent}``; an opponent is
            a ``Policy``, a project agent (``scores(observation, mask, encounter)``, and
            ``choose(encounter)`` or ``pick(observation, mask)``) or an agent spec
            (``"heuristic"``, ``"search:0.1s"``, ``"trained"``, ``"trained:PATH"``; each agent of
            a mapping gets its own). Default: uniform random over the mask, drawn from this
            adapter's ``np_random``.
        share_side: if true the learner also acts for every agent of its side (names starting with
            ``"<side>_"``).
        max_restarts: how many fresh episodes ``reset`` may start when a fight ends before the
            learner has a decision.
        opponent_seed: seeds the generators of opponents given as specs (tie-breaks, sampling).

    Raises:
        ValueError: if ``learner`` is not one of the env's ``possible_agents``, or an opponent spec
            is unknown or cannot be built (one line).
        TypeError: if an opponent is neither a policy, an agent nor a spec.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        env: AECEnv,
        learner: str,
        opponents: Any = None,
        *,
        share_side: bool = False,
        max_restarts: int = 100,
        opponent_seed: int | None = None,
    ) -> None:
        if learner not in env.possible_agents:
            raise ValueError(
                f"learner {learner!r} is not an agent of {env} ({', '.join(env.possible_agents)})"
            )
        self.env = env
        self.learner = learner
        self.side_prefix = learner.rsplit("_", 1)[0] + "_"
        self.share_side = share_side
        self.max_restarts = max_restarts
        self._opponents: Policy | Mapping[str, Policy] | None
        if opponents is None:
            self._opponents = None
        elif isinstance(opponents, Mapping):
            self._opponents = {
                agent: self._as_policy(
                    o, f"opponents[{agent!r}]", None if opponent_seed is None else opponent_seed + i
                )
                for i, (agent, o) in enumerate(opponents.items())
            }
        else:
            self._opponents = self._as_policy(opponents, "opponents", opponent_seed)
        self._default: Policy | None = None
        self.observation_space = env.observation_space(learner)["observation"]
        self.action_space = env.action_space(learner)
        self._n_actions = int(cast(gymnasium.spaces.Discrete, self.action_space).n)
        self.render_mode = getattr(env.unwrapped, "render_mode", None)
        self._agent: str | None = None
        self._team: list[str] = []
        self._mask = np.zeros(self._n_actions, dtype=np.bool_)

    def controls(self, agent: str) -> bool:
        """Whether the learner decides for ``agent``."""
        if agent == self.learner:
            return True
        return (
            self.share_side
            and agent.startswith(self.side_prefix)
            and agent[len(self.side_prefix) :].isdigit()
        )

    @property
    def agent(self) -> str | None:
        """The learner's agent that decides now (``None`` before ``reset``)."""
        return self._agent

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset the AEC env and play opponents until the learner's first decision.

        Args:
            seed: passed to the AEC env (and seeds the default random opponents).
            options: passed to the AEC env's ``reset``.

        Returns:
            The learner's observation vector and ``{"agent": name of the deciding agent}``.

        Raises:
            RuntimeError: if ``max_restarts`` fights in a row end before the learner decides.
        """
        super().reset(seed=seed)
        if self._default is None or seed is not None:
            self._default = random_policy(self.np_random)
        self.env.reset(seed=seed, options=options)
        for _ in range(self.max_restarts + 1):
            if self.learner not in self.env.agents:
                raise ValueError(
                    f"learner {self.learner!r} is not in this episode's agents {self.env.agents}"
                )
            self._team = [a for a in self.env.agents if self.controls(a)]
            _, done = self._advance()
            if not done:
                obs = self._decision_observation()
                return obs, {"agent": self._agent}
            self.env.reset(options=options)
        raise RuntimeError(
            f"{self.max_restarts + 1} fights in a row ended before {self.learner} had a decision"
        )

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents until the learner decides again.

        Returns:
            ``(observation, reward, terminated, truncated, info)`` from the learner's point of view;
            at the end ``info`` is the AEC env's info of the learner's last agent (``outcome``,
            ``terminal_reward``...).
        """
        if self._agent is None:
            raise RuntimeError("reset() the adapter first")
        acted = self._agent
        env = self.env
        env.step(int(action))
        reward = self._team_reward()
        more, done = self._advance()
        reward += more
        if not done:
            return self._decision_observation(), reward, False, False, {"agent": self._agent}
        terminated = bool(env.terminations[acted])
        truncated = bool(env.truncations[acted]) and not terminated
        info = dict(env.infos[acted])
        obs = env.observe(acted)["observation"]
        self._agent = None
        self._mask = np.zeros(self._n_actions, dtype=np.bool_)
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's current decision (all false after the end)."""
        return self._mask

    def render(self) -> Any:  # the AEC env's frame: text or an RGB array
        """The AEC env's ``render()``."""
        return self.env.render()

    def close(self) -> None:
        """Close the AEC env."""
        self.env.close()

    def _policy(self, agent: str) -> Policy:
        """The policy driving opponent ``agent``."""
        opponents = self._opponents
        if opponents is None:
            assert self._default is not None
            return self._default
        if isinstance(opponents, Mapping):
            try:
                return opponents[agent]
            except KeyError:
                raise KeyError(
                    f"no opponent policy for {agent!r} (have: {', '.join(opponents)})"
                ) from None
        return opponents

    def _as_policy(self, opponent: Any, who: str, seed: int | None) -> Policy:
        """``opponent`` (a policy, a project agent or an agent spec) as a ``Policy``."""
        if isinstance(opponent, str):
            system = getattr(self.env.unwrapped, "system", None)
            if system is None:
                raise ValueError(f"{who}: agent spec {opponent!r} needs a combat env")
            try:
                opponent = load_part(AGENT_FACTORY)(opponent, system, seed)
            except ValueError as e:
                raise ValueError(f"{who}: {e}") from None
        if callable(opponent):
            return cast(Policy, opponent)
        if callable(getattr(opponent, "pick", None)):  # a trained agent reads the observation
            return cast(Policy, opponent.pick)
        if callable(getattr(opponent, "choose", None)):  # heuristics and search read the rules
            return lambda observation, mask: self._choose(opponent)
        if callable(getattr(opponent, "scores", None)):
            return lambda observation, mask: self._best(opponent, observation, mask)
        raise TypeError(
            f"{who}: {opponent!r} is not a policy, an agent or an agent spec"
        )

    def _choose(self, agent: Any) -> int:
        """The index of a rules-level agent's choice for the deciding combatant."""
        raw = self.env.unwrapped
        enc = raw.encounter
        return int(raw.encoding.encode_action(enc, enc.current_actor(), agent.choose(enc)))

    def _best(self, agent: Any, observation: np.ndarray, mask: np.ndarray) -> int:
        """The highest of ``agent.scores`` (ties broken by its ``rng``, else the first)."""
        s = np.asarray(agent.scores(observation, mask, self.env.unwrapped.encounter))
        best = np.flatnonzero(s == s[np.asarray(mask) != 0].max())
        rng = getattr(agent, "rng", None)
        return int(best[0] if len(best) == 1 or rng is None else rng.choice(best))

    def _advance(self) -> tuple[float, bool]:
        """Step opponents until a learner agent must decide (``done=False``) or the fight ends."""
        env = self.env
        total = 0.0
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                return total, True
            if self.controls(agent):
                self._agent = agent
                return total, False
            obs = env.observe(agent)
            env.step(self._policy(agent)(obs["observation"], obs["action_mask"]))
            total += self._team_reward()

    def _team_reward(self) -> float:
        """Mean reward of the learner's agents in the AEC env's latest step."""
        rewards = self.env.rewards
        return sum(float(rewards.get(a, 0.0)) for a in self._team) / len(self._team)

    def _decision_observation(self) -> np.ndarray:
        """Observation of the deciding learner agent; also caches its mask."""
        obs = self.env.observe(self._agent)
        self._mask = obs["action_mask"].astype(bool)
        return obs["observation"]
