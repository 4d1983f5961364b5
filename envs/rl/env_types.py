"""The callables a ``CombatAECEnv`` is built from (encounter factory, situation reader, shaping,
renderer), reading a situation for ``reset(options={"situation": ...})``, and the env's plain
functions: the agent roster of an encounter, the illegal-action message and the terminal
rewards."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces

from envs.core import Action, DataError, Dice, Encounter, Event, Outcome, load_yaml

__all__ = [
    "NewEncounter",
    "FromSituation",
    "Renderer",
    "Shaping",
    "read_situation",
    "env_spaces",
    "check_observation",
    "roster",
    "illegal_message",
    "terminal_rewards",
]

NewEncounter = Callable[[Dice, Mapping[str, Any] | None], Encounter]
"""``new_encounter(dice, reset_options)``: a fresh encounter for one episode."""

FromSituation = Callable[[dict[str, Any], str, Dice], Encounter]
"""``from_situation(data, source, dice)``: the encounter a situation describes."""


Renderer = Callable[[Encounter, str], np.ndarray]
"""``renderer(enc, caption)``: the encounter as an ``(H, W, 3)`` uint8 picture; ``caption`` (may be
empty) starts its title line."""


class Shaping(Protocol):
    """Optional shaped-reward terms of one step. A shaping that needs the state an episode starts
    from (to score changes) may also define ``start(enc)``: the env calls it after every
    ``reset``."""

    def __call__(
        self, enc: Encounter, events: Sequence[Event], actor: str
    ) -> Mapping[str, Mapping[str, float]]:
        """Return ``{combatant id: {term name: value}}`` for the step ``actor`` just took."""
        ...


def _default_from_situation(data: dict[str, Any], source: str, dice: Dice) -> Encounter:
    """Build through the system registry (``envs.core.cases.encounter_from_situation``)."""
    from envs.core.cases import encounter_from_situation

    return encounter_from_situation(data, source, dice)


def read_situation(situation: Any, system: str) -> tuple[dict[str, Any], str]:
    """A situation (a mapping or a YAML path) as ``(data, source)``, checked to be for
    ``system``."""
    if isinstance(situation, str | os.PathLike):
        source = str(situation)
        data = load_yaml(Path(situation))
        if not isinstance(data, Mapping):
            raise DataError(
                f"{source}: a situation file must hold a mapping, got {type(data).__name__}"
            )
        data = dict(data)
    elif isinstance(situation, Mapping):
        data = dict(situation)
        source = str(data.get("name", "<situation>"))
    else:
        raise TypeError(
            f"options['situation'] must be a mapping or a path, got {type(situation).__name__}"
        )
    if data.get("system") != system:
        raise DataError(
            f"{source}: field 'system': the situation is for {data.get('system')!r}; "
            f"this env plays {system!r}"
        )
    return data, source


def roster(enc: Encounter, encoding: Any) -> tuple[dict[str, str], dict[str, str]]:
    """``({agent: combatant id}, {agent: side})`` with agents named ``<side>_<slot>`` in
    ``enc.sides()`` order; a side larger than ``encoding.max_per_side`` is a ``ValueError``."""
    limit = encoding.max_per_side
    a2c: dict[str, str] = {}
    side_of: dict[str, str] = {}
    for info in enc.sides():
        if len(info.members) > limit:
            raise ValueError(
                f"side {info.side!r} has {len(info.members)} combatants; "
                f"{encoding.name} holds at most {limit} per side"
            )
        for slot, cid in enumerate(info.members):
            a2c[f"{info.side}_{slot}"] = cid
            side_of[f"{info.side}_{slot}"] = info.side
    return a2c, side_of


def illegal_message(
    encoding: Any, enc: Encounter, agent: str, cid: str, index: int, legal: dict[int, Action]
) -> str:
    """Explain an illegal index: what it would mean and what is legal (the first eight)."""
    try:
        meant = encoding.decode_action(enc, cid, index).label
    except (LookupError, ValueError, TypeError):
        inside = 0 <= index < encoding.layout.size
        meant = encoding.layout.label(index) if inside else "outside the layout"
    shown = ", ".join(f"{i}={a.label}" for i, a in list(legal.items())[:8])
    more = f" and {len(legal) - 8} more" if len(legal) > 8 else ""
    return (
        f"round {enc.round}: action {index} ({meant}) is not legal for {agent} "
        f"({cid}); legal: {shown}{more}"
    )


def terminal_rewards(outcome: Outcome, side_of: Mapping[str, str]) -> dict[str, float]:
    """+1 for every agent of the winning side, -1 for the others, 0 for all in a draw."""
    if outcome.winner is None:
        return dict.fromkeys(side_of, 0.0)
    return {agent: 1.0 if side == outcome.winner else -1.0 for agent, side in side_of.items()}


def env_spaces(encoding: Any) -> tuple[spaces.Discrete, spaces.Dict]:
    """The action space ``Discrete(layout.size)`` and the observation space ``Dict(observation:
    Box(obs_spec bounds, float32), action_mask: Box(0, 1, int8))`` shared by every agent."""
    n, spec = encoding.layout.size, encoding.obs_spec
    box = spaces.Box(spec.low.copy(), spec.high.copy(), (spec.size,), np.float32)
    mask = spaces.Box(0, 1, (n,), np.int8)
    return spaces.Discrete(n), spaces.Dict({"observation": box, "action_mask": mask})


def check_observation(encoding: Any, obs: Any) -> None:
    """``TypeError`` unless ``obs`` is a float32 vector of the encoding's observation size."""
    want = (encoding.obs_spec.size,)
    if not isinstance(obs, np.ndarray) or obs.shape != want or obs.dtype != np.float32:
        got = f"{obs.dtype} {obs.shape}" if isinstance(obs, np.ndarray) else type(obs).__name__
        raise TypeError(f"{encoding.name}.observe returned {got}; expected float32 {want}")
