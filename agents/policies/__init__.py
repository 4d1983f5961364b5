"""The trained policies that ship with the package, and the tools that retrain and check them.

One policy a system, trained on its main encounter (the first of ``encounter_names()``) by its
``configs/train/<system>_ship.yaml``, kept here as plain tensors and a sidecar
(``agents.trained``)::

    metanoia_duel_seed.pt     + .json     configs/train/metanoia_ship.yaml
    mano_a_mano_duel_seed.pt  + .json     configs/train/mano_a_mano_ship.yaml

A system ships its policy by adding the two files (``install``); ``SHIPPED_SYSTEMS`` reads them.

The agent spec ``trained`` (``make_agent("trained", system)``, ``arena play --vs trained``,
``arena suggest --policy trained``, eval configs) plays the system's file. From a checkout::

    python -m agents.policies retrain SYSTEM [key=value ...]    train with the ship config, install
    python -m agents.policies install SYSTEM RUN_DIR/policy.pt  copy a trained policy here
    python -m agents.policies check [SYSTEM ...]                load each; win rate vs random

``install`` checks the file against the current env and writes the sidecar without anything
machine-specific (an absolute path in it becomes its file name).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from envs.core.files import atomic_write

from ..trained import POLICY_DIR, PolicyFileError, load_policy, main_encounter, sidecar_path

__all__ = ["ship_config", "install", "scrub", "win_rate", "SHIPPED_SYSTEMS", "real_systems"]

def _shipped() -> tuple[str, ...]:
    """The systems whose policy file lies in ``agents/policies`` (read from the sidecars), in
    registry order: a new system ships one by adding its files, with no line of code here."""
    from envs import SYSTEMS

    found = set()
    for sidecar in POLICY_DIR.glob("*.json"):
        try:
            system = json.loads(sidecar.read_text(encoding="utf-8")).get("system")
        except (OSError, ValueError, AttributeError):
            continue  # not a sidecar: load_policy reports it when the file is played
        if system in SYSTEMS and sidecar.with_suffix(".pt").is_file():
            found.add(system)
    return tuple(s for s in SYSTEMS if s in found)


SHIPPED_SYSTEMS = _shipped()
"""the systems a policy ships for (the test asks for every real system in the registry)"""


def real_systems() -> tuple[str, ...]:
    """The registered systems a policy can be trained and installed for (not the test-only)."""
    from envs import SYSTEMS

    return tuple(s for s, entry in SYSTEMS.items() if not entry.test_only)


def ship_config(system: str) -> Path:
    """The training config of ``system``'s shipped policy (in a checkout, not in a wheel)."""
    return Path(__file__).resolve().parents[2] / "configs" / "train" / f"{system}_ship.yaml"


def scrub(value: Any) -> Any:
    """``value`` (sidecar data) with every absolute path, in keys and values, replaced by its file
    name (``trained:/home/me/p.pt`` -> ``trained:p.pt``)."""
    if isinstance(value, dict):
        return {scrub(k): scrub(v) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    if isinstance(value, str):
        prefix = "trained:" if value.startswith("trained:") else ""
        rest = value[len(prefix):]
        if os.path.isabs(rest) or rest.startswith("~"):
            return prefix + Path(rest).name
    return value


def install(system: str, source: str | os.PathLike[str]) -> Path:
    """Copy policy ``source`` (+ its sidecar) to ``agents/policies/<system>_<encounter>.pt``.

    Raises:
        PolicyFileError: the file does not load against the current env of ``system``, or was
            trained on another encounter than the system's main one.
    """
    source = Path(source)
    policy = load_policy(source, system)
    encounter = main_encounter(system)
    if policy.meta.get("encounter") != encounter:
        raise PolicyFileError(
            f"{sidecar_path(source)}: field 'encounter' is {policy.meta.get('encounter')!r}; "
            f"the shipped {system} policy is trained on {encounter!r}"
        )
    target = POLICY_DIR / f"{system}_{encounter}.pt"
    atomic_write(target, source.read_bytes())
    meta = scrub(policy.meta)
    atomic_write(sidecar_path(target), json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return target


def win_rate(system: str, games: int = 100, seed: int = 0) -> tuple[int, int]:
    """``(wins, games)`` of the shipped policy against random play on the main encounter.

    Rules-level games (``agents.episode.play``), sides alternating, dice seeds ``seed, seed+1,
    ...``; the random player's generator is seeded apart from the dice (``1000 + seed + i``).
    """
    from agents import make_agent
    from agents.episode import encounter_sides, play

    encounter = main_encounter(system)
    sides = encounter_sides(system, encounter)
    trained = make_agent("trained", system, seed)
    wins = 0
    for i in range(games):
        me, other = sides if i % 2 == 0 else sides[::-1]
        agents = {me: trained, other: make_agent("random", system, 1000 + seed + i)}
        wins += play(system, encounter, agents, seed + i).winner == me
    return wins, games
