"""Tabletop combat systems as PettingZoo environments.

``SYSTEMS`` is the only list of systems (STYLE C14): every CLI, test and tool enumerates it. Entries
name modules by path and are imported lazily, so reading the registry imports no RL library.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

__all__ = ["SYSTEMS", "SystemEntry", "get_rules", "get_env_module", "make_env", "list_systems"]


@dataclass(frozen=True)
class SystemEntry:
    """Where one system lives.

    Attributes:
        name: system id (``metanoia``).
        rules: module path of the pure rules engine (``new_encounter``, ``from_situation``, ...).
        env: module path of the PettingZoo env (``raw_env``, ``env``, ``ENCODING``).
        spec: the combat spec it implements.
    """

    name: str
    rules: str
    env: str
    spec: str


SYSTEMS: dict[str, SystemEntry] = {
    "metanoia": SystemEntry("metanoia", "envs.metanoia.rules", "envs.metanoia.env", "rules/metanoia.md"),
    "mano_a_mano": SystemEntry("mano_a_mano", "envs.mano_a_mano.rules", "envs.mano_a_mano.env", "rules/mano_a_mano.md"),
}


def list_systems() -> list[str]:
    return list(SYSTEMS)


def _entry(system: str) -> SystemEntry:
    try:
        return SYSTEMS[system]
    except KeyError:
        raise ValueError(f"unknown system {system!r}; known: {', '.join(SYSTEMS)}") from None


def get_rules(system: str) -> ModuleType:
    """The rules module of ``system`` (pure Python)."""
    return importlib.import_module(_entry(system).rules)


def get_env_module(system: str) -> ModuleType:
    """The env module of ``system`` (imports PettingZoo)."""
    return importlib.import_module(_entry(system).env)


def make_env(system: str, encounter: str | None = None, *, wrapped: bool = True, **kwargs: Any):
    """Build the AEC env of ``system`` on ``encounter`` (default: the system's first encounter).

    ``wrapped=False`` returns the raw env (illegal actions raise instead of ending the game).
    Other keyword arguments go to the env (``rules="core"``, ``render_mode="ansi"``, ...).
    """
    module = get_env_module(system)
    factory = module.env if wrapped else module.raw_env
    return factory(encounter=encounter, **kwargs)
