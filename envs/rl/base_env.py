"""``CombatAECEnv``: one generic PettingZoo AEC env over any ``Encounter`` (DESIGN.md, "The
environment").

A system's env module is a thin subclass that passes its ``SystemEncoding`` and an encounter
factory ``new_encounter(dice, reset_options)``, plus ``env = env_factory(raw_env)`` for the
standard wrappers (STYLE C13); a registered system subclasses ``SystemEnv`` instead, which does
this from the registry (both in ``envs.rl.system_env``, with an example there).

Behaviour:

* Agents are ``<side>_<slot>`` from ``enc.sides()``; ``agent_selection`` follows
  ``current_actor()``, so a reaction hands the turn to the defender in the middle of a turn.
  Combatants knocked out mid-fight stay in ``agents`` (never selected) until the end.
* Spaces (the same objects for every agent)::

      action_space       Discrete(layout.size)
      observation_space  Dict({"observation": Box(obs_spec.low, obs_spec.high, float32),
                               "action_mask": Box(0, 1, (layout.size,), int8)})

* The mask comes only from ``legal_actions()`` through the encoding (``legal_index_map``), computed
  at most once per decision; agents that are not deciding get all zeros. Observation vectors are
  computed lazily in ``observe()`` and cached for the current decision; every call still returns
  fresh arrays, so callers may keep or modify what they get.
* Reward: +1 for every agent of the winning side, -1 for the others, 0 for all in a draw, given on
  the step that ends the fight. An outcome with reason ``round_cap`` sets ``truncations`` (a draw);
  any other end sets ``terminations``. Then, like PettingZoo's classic envs, each agent is
  selected once more and must step ``None``, which removes it.
* Shaping (optional): ``shaping(enc, events, actor) -> {combatant id: {term: value}}`` is called
  after every step (and ``shaping.start(enc)``, where defined, after every reset); the values
  are added to that step's rewards, and ``infos[agent]["shaping"]`` holds the running total per
  term. The terminal reward stays exactly +1/-1/0 and is also reported as
  ``infos[agent]["terminal_reward"]``, next to ``infos[agent]["outcome"]``.
* Seeding (STYLE C4): ``reset(seed)`` makes new dice (``SeededDice`` on a ``SeedSequence`` child)
  only when a seed is given or none exist yet; otherwise the dice keep rolling. A second child
  stream, ``np_random``, is left for env-side tie-breaks. Same seed plus same actions gives the
  same event log.
* ``reset(options={"situation": dict_or_path})`` starts this one episode from a situation; other
  reset options are passed to the encounter factory, which must ignore keys it does not know
  (``pettingzoo.test.api_test`` resets with ``options={"options": 1}``).
* ``render_mode="ansi"``: ``render()`` returns the text of the events logged since the previous
  ``render()`` (or since ``reset``), one ``str(event)`` per line, so calling it after every step
  prints the whole fight once. ``log_text()`` returns the whole log.
* ``render_mode="rgb_array"``, for a system that draws (a grid system whose env class sets
  ``renderer``): ``render()`` returns the current state as an ``(H, W, 3)`` uint8 picture, the
  same size for every frame of an encounter. ``renderer(enc, caption)`` is a plain function
  (``staticmethod``), so tools such as ``arena replay --gif`` use it without an env;
  ``metadata["render_modes"]`` lists ``"rgb_array"`` exactly when a renderer is set.
* Illegal actions raise ``IllegalActionError`` in the raw env; ``env_factory`` adds
  ``TerminateIllegalWrapper(illegal_reward=-1)`` for training (STYLE C11).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from envs.core import (
    Action,
    Encounter,
    Event,
    IllegalActionError,
    SeededDice,
)

from .env_types import (
    FromSituation,
    NewEncounter,
    Renderer,
    Shaping,
    _default_from_situation,
    check_observation,
    env_spaces,
    illegal_message,
    read_situation,
    roster,
    terminal_rewards,
)
from .layout import SystemEncoding, legal_index_map

__all__ = ["CombatAECEnv", "NewEncounter", "FromSituation", "Shaping", "Renderer"]


class CombatAECEnv(AECEnv):
    """Generic PettingZoo AEC env over any ``Encounter`` (see the module docstring).

    Args:
        encoding: the system's ``SystemEncoding`` (spaces, Action <-> index, observations).
        new_encounter: ``new_encounter(dice, reset_options)`` returns a fresh encounter;
            ``reset_options`` is the ``options`` dict of ``reset`` without ``"situation"``, or
            ``None``. It is also called once at construction (with throwaway dice) to learn the
            rosters, so ``possible_agents`` and the spaces exist before ``reset``.
        from_situation: ``from_situation(data, source, dice)`` builds the encounter of a situation;
            default: the system registry (``envs.core.cases.encounter_from_situation``).
        render_mode: ``None``, ``"ansi"``, or ``"rgb_array"`` when the class has a ``renderer``.
        shaping: optional shaped-reward callback (``Shaping``).

    Attributes:
        encoding: the system encoding.
        system: the system id (``Encounter.system``) that situations must name.
        last_events: the events of the latest ``step`` (or the start events after ``reset``).
    """

    metadata: dict[str, Any] = {
        "render_modes": ["ansi"],
        "name": "combat_v0",
        "is_parallelizable": False,
    }
    renderer: Renderer | None = None
    """The system's picture of an encounter (set as ``staticmethod(fn)``); ``None``: text only."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Keep ``metadata["render_modes"]`` in step with ``renderer`` (``rgb_array`` iff set)."""
        super().__init_subclass__(**kwargs)
        modes = [m for m in cls.metadata.get("render_modes", []) if m != "rgb_array"]
        if cls.renderer is not None:
            modes.append("rgb_array")
        if modes != list(cls.metadata.get("render_modes", [])):
            cls.metadata = {**cls.metadata, "render_modes": modes}

    def __init__(
        self,
        encoding: SystemEncoding,
        new_encounter: NewEncounter,
        *,
        from_situation: FromSituation | None = None,
        render_mode: str | None = None,
        shaping: Shaping | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(encoding, SystemEncoding):
            raise TypeError(f"{type(encoding).__name__} does not implement SystemEncoding")
        self.metadata = {**type(self).metadata, "name": encoding.name}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} not in {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.encoding = encoding
        self._new_encounter = new_encounter
        self._from_situation = from_situation or _default_from_situation
        self._shaping = shaping
        self._n_actions = encoding.layout.size
        self._action_space, self._observation_space = env_spaces(encoding)
        self._dice: SeededDice | None = None
        self.np_random: np.random.Generator | None = None
        self._enc: Encounter | None = None
        self._log: list[Event] = []
        self._rendered = 0
        self.last_events: list[Event] = []
        self._over = False
        probe = new_encounter(SeededDice(0), None)
        self.system: str = probe.system
        self._set_roster(probe)

    # ------------------------------------------------------------------ spaces and roster

    def observation_space(self, agent: str) -> spaces.Dict:
        """The same ``Dict`` space object for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        """The same ``Discrete(layout.size)`` object for every agent."""
        return self._action_space

    def _set_roster(self, enc: Encounter) -> None:
        """Name agents ``<side>_<slot>`` and map them to combatant ids (``env_types.roster``)."""
        a2c, self._side = roster(enc, self.encoding)
        if list(a2c) != getattr(self, "possible_agents", None):
            self.possible_agents = list(a2c)
            self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
            self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self._a2c = a2c
        self._c2a = {cid: agent for agent, cid in a2c.items()}

    def combatant(self, agent: str) -> str:
        """The combatant id behind ``agent``."""
        return self._a2c[agent]

    def agent_of(self, combatant: str) -> str:
        """The agent name of combatant ``combatant``."""
        return self._c2a[combatant]

    @property
    def encounter(self) -> Encounter:
        """The live encounter (read it; never mutate it; ``clone()`` it for look-ahead)."""
        if self._enc is None:
            raise RuntimeError("reset() the env first")
        return self._enc

    def _seeded_dice(self) -> SeededDice:
        """The episode's dice (made by the first ``reset``)."""
        if self._dice is None:
            raise RuntimeError("reset() the env first")
        return self._dice

    # ------------------------------------------------------------------ reset

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode (see the module docstring for seeding and situations).

        Args:
            seed: reseeds the dice when given; otherwise the dice keep rolling.
            options: ``{"situation": dict_or_path}`` starts from a situation; other keys go to
                the encounter factory.

        Raises:
            DataError: for an unreadable situation or one naming another system.
            ValueError: if the situation's fight is already over or a roster is too large.
        """
        if seed is not None or self._dice is None:
            dice_seq, env_seq = np.random.SeedSequence(seed).spawn(2)
            self._dice = SeededDice(np.random.default_rng(dice_seq))
            self.np_random = np.random.default_rng(env_seq)
        rest = dict(options) if options else {}
        situation = rest.pop("situation", None)
        if situation is not None:
            enc = self._situation_encounter(situation)
        else:
            enc = self._new_encounter(self._dice, rest or None)
        if enc.is_over():
            raise ValueError("the encounter is already over; nothing to play")
        self._enc = enc
        self._set_roster(enc)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {
            a: {"combatant": self._a2c[a], "side": self._side[a]} for a in self.agents
        }
        self._shaping_totals: dict[str, dict[str, float]] = {a: {} for a in self.agents}
        start = getattr(self._shaping, "start", None)
        if start is not None:
            start(enc)
        self._log = list(getattr(enc, "start_events", ()))
        self.last_events = list(self._log)
        self._rendered = 0
        self._over = False
        self._skip_agent_selection = None
        self._next_decision()
        self._check_observation()

    def _situation_encounter(self, situation: Any) -> Encounter:
        """Read a situation (dict or YAML path), check its system and build its encounter."""
        data, source = read_situation(situation, self.system)
        return self._from_situation(data, source, self._seeded_dice())

    def _check_observation(self) -> None:
        """Fail early if the encoding's observation has the wrong shape or dtype."""
        check_observation(self.encoding, self.observe(self.agent_selection)["observation"])

    # ------------------------------------------------------------------ per-decision caches

    def _next_decision(self) -> None:
        """Point ``agent_selection`` at the current actor and drop the per-decision caches."""
        enc = self.encounter
        actor = enc.current_actor()
        if actor is None:
            raise RuntimeError(f"round {enc.round}: the fight is not over but nobody is to act")
        self._actor = actor
        self.agent_selection = self._c2a[actor]
        self._legal: dict[int, Action] | None = None
        self._mask: np.ndarray | None = None
        self._obs_cache: dict[str, np.ndarray] = {}

    def _legal_map(self) -> dict[int, Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_index_map(self.encoding, self.encounter, self._actor)
        return legal

    def _current_mask(self) -> np.ndarray:
        mask = self._mask
        if mask is None:
            mask = np.zeros(self._n_actions, np.int8)
            mask[list(self._legal_map())] = 1
            self._mask = mask
        return mask

    def legal_index_map(self) -> dict[int, Action]:
        """``{index: Action}`` for the current decision (a copy; empty once the fight is over)."""
        return {} if self._over else dict(self._legal_map())

    def action_masks(self) -> np.ndarray:
        """The int8 mask of ``agent_selection`` (for SB3-contrib's ``MaskablePPO``)."""
        if self._over:
            return np.zeros(self._n_actions, np.int8)
        return self._current_mask().copy()

    # ------------------------------------------------------------------ AEC API

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 vector, "action_mask": int8 vector}`` of ``agent``."""
        obs = self._obs_cache.get(agent)
        if obs is None:
            obs = self._obs_cache[agent] = self.encoding.observe(self.encounter, self._a2c[agent])
        if agent == self.agent_selection and not self._over:
            mask = self._current_mask().copy()
        else:
            mask = np.zeros(self._n_actions, np.int8)
        return {"observation": obs.copy(), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply ``agent_selection``'s action (an index), or remove a finished agent (``None``).

        Raises:
            IllegalActionError: if the index is not a legal action of the deciding agent.
            ValueError: if a finished agent steps anything but ``None`` or a live one steps
                ``None``.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still in the fight and must choose an action, not None")
        index = int(action)
        chosen = self._legal_map().get(index)
        if chosen is None:
            raise IllegalActionError(
                illegal_message(
                    self.encoding,
                    self.encounter,
                    agent,
                    self._a2c[agent],
                    index,
                    self._legal_map(),
                )
            )
        self._cumulative_rewards[agent] = 0.0
        enc = self.encounter
        events = enc.apply(chosen, self._seeded_dice())
        self._log.extend(events)
        self.last_events = events
        rewards = dict.fromkeys(self.agents, 0.0)
        if self._shaping is not None:
            self._add_shaping(self._shaping, events, rewards)
        if enc.is_over():
            self._finish(rewards)
        else:
            self._next_decision()
        self.rewards = rewards
        self._accumulate_rewards()

    def _add_shaping(
        self, shaping: Shaping, events: Sequence[Event], rewards: dict[str, float]
    ) -> None:
        """Add this step's shaping terms to ``rewards`` and to the running totals in ``infos``."""
        for cid, terms in shaping(self.encounter, events, self._actor).items():
            agent = self._c2a[cid]
            totals = self._shaping_totals[agent]
            for term, value in terms.items():
                rewards[agent] += float(value)
                totals[term] = totals.get(term, 0.0) + float(value)
            self.infos[agent] = {**self.infos[agent], "shaping": dict(totals)}

    def _finish(self, rewards: dict[str, float]) -> None:
        """Give the terminal rewards and end the episode for every agent at once."""
        outcome = self.encounter.outcome()
        if outcome is None:
            raise RuntimeError("the encounter is over but reports no outcome")
        self._over = True
        self._obs_cache = {}
        self._legal = None
        self._mask = None
        summary = outcome.to_dict()
        values = terminal_rewards(outcome, self._side)
        for agent in self.agents:
            value = values[agent]
            rewards[agent] += value
            self.infos[agent] = {**self.infos[agent], "outcome": summary, "terminal_reward": value}
        if outcome.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.terminations = dict.fromkeys(self.agents, True)

    # ------------------------------------------------------------------ log and render

    @property
    def event_log(self) -> tuple[Event, ...]:
        """Every event since ``reset`` (start events first)."""
        return tuple(self._log)

    def log_text(self) -> str:
        """The whole event log, one ``str(event)`` per line."""
        return "\n".join(map(str, self._log))

    def render_caption(self) -> str:
        """The start of an ``rgb_array`` frame's title line (the encounter's name, where known)."""
        return ""

    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the log lines added since the previous ``render()``; ``"rgb_array"``: the
        current state as an ``(H, W, 3)`` uint8 picture (see the module docstring)."""
        if self.render_mode is None:
            modes = self.metadata["render_modes"]
            gymnasium.logger.warn(f"render() called without a render_mode; use one of {modes}")
            return None
        if self.render_mode == "rgb_array" and self.renderer is not None:
            return self.renderer(self.encounter, self.render_caption())
        new = self._log[self._rendered :]
        self._rendered = len(self._log)
        return "\n".join(map(str, new))

    def close(self) -> None:
        """Nothing to release (pictures are drawn in memory, no window is opened)."""
