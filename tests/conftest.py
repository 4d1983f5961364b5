"""Shared test set-up: the toy game registered as a test-only system, and a small random-weight
policy file per system for ``trained:PATH`` agents.

``TOY`` is registered here, at import, before any test module builds its parameter lists from
``envs.SYSTEMS``: every system-wide test (api_test, seed test, invariants, determinism, agent
legality, ``arena match``/``watch``, the train.py smoke run) then also runs on a system whose sides
are ``heroes``/``monsters`` and that plugs in through its registry record alone.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.trained import save_policy
from envs import SystemEntry, get_env_module, register

TOY = SystemEntry(
    name="toy",
    rules="envs.toy.rules",
    env="envs.toy.env",
    encoding="envs.toy.encoding:ENCODING",
    heuristic="agents.heuristic.toy:ToyHeuristic",
    invariants="envs.toy.invariants:state_invariants",
    describe="envs.toy.rules.describe:describe",
    spec="the module docstring of envs/toy/rules/__init__.py",
    shaping="envs.toy.env:SHAPING",
    starter="envs.toy.starter:STARTER",
    test_only=True,
)
register(TOY)


def write_random_policy(
    path: Path, system: str, hidden: tuple[int, ...] = (16,), seed: int = 0
) -> Path:
    """A policy file with random weights of the right sizes for ``system``'s env."""
    enc = get_env_module(system).ENCODING
    rng = np.random.default_rng(seed)
    weights = {}
    for head, out in (("pi", enc.layout.size), ("vf", 1)):
        sizes = [enc.obs_spec.size, *hidden, out]
        for i in range(len(sizes) - 1):
            weights[f"{head}.{i}.weight"] = rng.normal(0, 0.3, (sizes[i + 1], sizes[i]))
            weights[f"{head}.{i}.bias"] = rng.normal(0, 0.1, sizes[i + 1])
    meta = {
        "system": system,
        "env": enc.name,
        "obs_size": enc.obs_spec.size,
        "n_actions": enc.layout.size,
        "activation": "tanh",
        "pi": list(hidden),
        "vf": list(hidden),
        "config": {},
    }
    return save_policy(path, weights, meta)


@pytest.fixture(scope="session")
def policy_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``{system: path}`` of random-weight policy files."""
    from envs import SYSTEMS

    root = tmp_path_factory.mktemp("policies")
    return {s: write_random_policy(root / f"{s}.pt", s) for s in SYSTEMS}
