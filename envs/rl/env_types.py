"""The callables a ``CombatAECEnv`` is built from (encounter factory, situation reader, shaping,
renderer), and reading a situation for ``reset(options={"situation": ...})``."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from envs.core import DataError, Dice, Encounter, Event, load_yaml

__all__ = ["NewEncounter", "FromSituation", "Renderer", "Shaping", "read_situation"]

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
