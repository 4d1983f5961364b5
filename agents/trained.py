"""Trained policies: plain-weight files that are safe to share, and the agent that plays them.

A policy is two files side by side (DESIGN.md, "Agents"):

* ``NAME.pt``: a ``dict[str, torch.Tensor]`` written with ``torch.save`` and read back with
  ``torch.load(..., weights_only=True)``, so loading a file runs no code. Keys::

      pi.0.weight  pi.0.bias  pi.1.weight ...   policy MLP (hidden layers, then the action logits)
      vf.0.weight  vf.0.bias  vf.1.weight ...   value MLP (hidden layers, then the scalar value)

* ``NAME.json``: the sidecar::

      {"format": "arena-policy/1", "system": "metanoia", "env": "metanoia_v0",
       "obs_size": 567, "n_actions": 581, "activation": "tanh",
       "pi": [256, 256], "vf": [256, 256], "timesteps": 1200000, "config": {...}}

``load_policy(path)`` checks the sidecar against the registered system's encoding (env name with
its version, observation and action sizes) and the tensors against the sidecar's layer sizes, and
refuses any mismatch with a one-line ``PolicyFileError`` naming the file and the field (for a
version or size mismatch: what the file was trained for, what the env is now, and the command that
retrains it). The forward pass is numpy (a decision is a few small matrix products; torch's
per-call overhead would dominate).

Shipped policies: ``agents/policies/<system>_<encounter>.pt`` (+ ``.json``), one per system on its
main encounter; ``shipped_policy(system)`` finds it and the agent spec ``trained`` (no path) plays
it. ``python -m agents.policies retrain SYSTEM`` trains a new one and installs it there.
"""

from __future__ import annotations

import io
import json
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from envs.core import Action
from envs.core.files import atomic_write

FORMAT = "arena-policy/1"
ACTIVATIONS = ("tanh", "relu")

__all__ = [
    "FORMAT",
    "PolicyFileError",
    "MLPPolicy",
    "TrainedAgent",
    "POLICY_DIR",
    "load_policy",
    "main_encounter",
    "retrain_command",
    "save_policy",
    "shipped_policy",
    "sidecar_path",
]


class PolicyFileError(ValueError):
    """A policy file or its sidecar is missing, malformed or made for another env."""


def sidecar_path(path: str | os.PathLike[str]) -> Path:
    """The sidecar of weights file ``path`` (``x.pt`` -> ``x.json``)."""
    return Path(path).with_suffix(".json")


class MLPPolicy:
    """The numpy forward pass of a saved policy: masked logits and the value estimate.

    Args:
        weights: ``{"pi.<i>.weight": array, "pi.<i>.bias": array, "vf.<i>...": ...}``.
        meta: the sidecar dict (``activation`` is read).
    """

    def __init__(self, weights: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
        self.meta = dict(meta)
        self.pi = _layers(weights, "pi")
        self.vf = _layers(weights, "vf")
        self._act = np.tanh if meta.get("activation", "tanh") == "tanh" else _relu

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Unmasked action logits for one observation (or a batch)."""
        return _forward(self.pi, self._act, np.asarray(observation, dtype=np.float32))

    def value(self, observation: np.ndarray) -> float:
        """The value head's estimate of the decider's return (about -1 loss .. +1 win)."""
        return float(
            _forward(self.vf, self._act, np.asarray(observation, dtype=np.float32))[..., 0]
        )

    def log_probs(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Masked log-probabilities: ``-inf`` where ``mask`` is 0 (the policy's distribution)."""
        z = np.where(np.asarray(mask) != 0, self.logits(observation).astype(np.float64), -np.inf)
        top = z.max()
        return z - (top + np.log(np.exp(z - top).sum()))


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def _layers(weights: Mapping[str, np.ndarray], head: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """``[(W^T, b), ...]`` of one head, in order."""
    out = []
    i = 0
    while f"{head}.{i}.weight" in weights:
        out.append((np.ascontiguousarray(weights[f"{head}.{i}.weight"].T, dtype=np.float32),
                    np.asarray(weights[f"{head}.{i}.bias"], dtype=np.float32)))
        i += 1
    return out


def _forward(layers: list[tuple[np.ndarray, np.ndarray]], act: Any, x: np.ndarray) -> np.ndarray:
    for w, b in layers[:-1]:
        x = act(x @ w + b)
    w, b = layers[-1]
    return x @ w + b


# ---------------------------------------------------------------------------------- files


def save_policy(
    path: str | os.PathLike[str], weights: Mapping[str, Any], meta: Mapping[str, Any]
) -> Path:
    """Write ``weights`` (tensors or arrays, ``pi.*``/``vf.*``) and the sidecar ``meta``,
    atomically.

    Returns:
        The weights file's path.
    """
    import torch

    path = Path(path)
    tensors = {
        k: torch.as_tensor(np.asarray(v, dtype=np.float32)).contiguous() for k, v in weights.items()
    }
    meta = {"format": FORMAT, **meta}
    buf = io.BytesIO()
    torch.save(tensors, buf)
    atomic_write(path, buf.getvalue())
    atomic_write(sidecar_path(path), json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return path


def _read_meta(path: Path) -> dict[str, Any]:
    side = sidecar_path(path)
    try:
        meta = json.loads(side.read_text())
    except FileNotFoundError:
        raise PolicyFileError(f"{path}: no sidecar {side.name} next to the weights") from None
    except (OSError, ValueError) as e:
        raise PolicyFileError(f"{side}: not a readable JSON sidecar ({e})") from None
    if not isinstance(meta, dict):
        raise PolicyFileError(f"{side}: the sidecar must be a JSON object")
    if meta.get("format") != FORMAT:
        raise PolicyFileError(
            f"{side}: field 'format' is {meta.get('format')!r}, expected {FORMAT!r}"
        )
    for key, kind in (
        ("system", str),
        ("env", str),
        ("obs_size", int),
        ("n_actions", int),
        ("pi", list),
        ("vf", list),
    ):
        if not isinstance(meta.get(key), kind):
            raise PolicyFileError(f"{side}: field {key!r} is missing or not a {kind.__name__}")
    if meta.get("activation", "tanh") not in ACTIVATIONS:
        raise PolicyFileError(
            f"{side}: field 'activation' is {meta['activation']!r}; known: {', '.join(ACTIVATIONS)}"
        )
    return meta


_CACHE: dict[tuple[str, int, int], MLPPolicy] = {}


def _sizes(meta: Mapping[str, Any]) -> str:
    return f"{meta['env']} with obs_size {meta['obs_size']}, n_actions {meta['n_actions']}"


# ---------------------------------------------------------------------------------- shipped

POLICY_DIR = Path(__file__).resolve().parent / "policies"
"""The policies that ship with the package: ``<system>_<encounter>.pt`` + ``.json``, one per
system, trained on its main encounter (the first of ``encounter_names()``) by
``configs/train/<system>_ship.yaml``; ``python -m agents.policies`` retrains and checks them."""


def main_encounter(system: str) -> str:
    """The encounter a system's shipped policy is trained on: its first (its main duel)."""
    from envs import get_rules

    return str(get_rules(system).encounter_names()[0])


def shipped_policy(system: str) -> Path:
    """The shipped policy file of ``system`` (what the agent spec ``trained`` plays).

    Raises:
        PolicyFileError: one line naming the system when none ships for it.
    """
    path = POLICY_DIR / f"{system}_{main_encounter(system)}.pt"  # unknown system: ValueError
    if not path.is_file():
        have = ", ".join(sorted(p.stem for p in POLICY_DIR.glob("*.pt"))) or "none"
        raise PolicyFileError(
            f"no trained policy ships for system {system!r} (agents/policies/ has: {have}); "
            "train one with arena train CONFIG.yaml and play it as trained:PATH"
        )
    return path


def retrain_command(path: str | os.PathLike[str], system: str) -> str:
    """The command that retrains policy file ``path`` of ``system`` for the current env."""
    if Path(path).resolve().parent == POLICY_DIR:
        return f"python -m agents.policies retrain {system}"
    return f"arena train CONFIG.yaml system={system} (its sidecar's 'config' holds the settings)"


def _first_line(error: BaseException) -> str:
    """One line for a failed ``torch.load``: torch's weights-only refusal runs to six lines of
    advice around one line of cause (``Unsupported operand 149``); keep the cause."""
    text = str(error)
    marker = "WeightsUnpickler error:"
    if marker in text:
        text = "refused by the weights-only loader: " + text.split(marker, 1)[1].strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    line = lines[0] if lines else type(error).__name__
    return line if len(line) <= 160 else line[:157] + "..."


def load_policy(path: str | os.PathLike[str], system: str | None = None) -> MLPPolicy:
    """Load and check a policy file (see the module docstring).

    Args:
        path: the weights file (``.pt``); its sidecar is ``.json`` next to it.
        system: if given, the policy must have been trained on this system.

    Raises:
        PolicyFileError: for a missing or malformed file, or one whose system, env version or sizes
            do not match the registered env (one line naming the file and the field).
    """
    import torch

    from envs import SYSTEMS, get_encoding

    path = Path(path)
    if not path.is_file():
        raise PolicyFileError(f"{path}: no such policy file")
    side = sidecar_path(path)
    try:
        st, st_side = path.stat(), side.stat()
        key = (str(path.resolve()), st.st_mtime_ns, st_side.st_mtime_ns)
    except OSError:
        key = None
    cached = _CACHE.get(key) if key else None
    if cached is not None:
        if system is not None and cached.meta["system"] != system:
            raise PolicyFileError(
                f"{side}: field 'system' is {cached.meta['system']!r}, but the fight is {system!r}"
            )
        return cached
    meta = _read_meta(path)
    if system is not None and meta["system"] != system:
        raise PolicyFileError(
            f"{side}: field 'system' is {meta['system']!r}, but the fight is {system!r}"
        )
    if meta["system"] not in SYSTEMS:
        raise PolicyFileError(
            f"{side}: field 'system' is {meta['system']!r}; known: {', '.join(SYSTEMS)}"
        )
    encoding = get_encoding(meta["system"])
    expected = {
        "env": encoding.name,
        "obs_size": encoding.obs_spec.size,
        "n_actions": encoding.layout.size,
    }
    for name, want in expected.items():
        if meta[name] != want:
            raise PolicyFileError(
                f"{side}: field {name!r} is {meta[name]!r}, but this version's env has {want!r} "
                f"(trained for {_sizes(meta)}; the env is now {_sizes(expected)}); "
                f"retrain it: {retrain_command(path, meta['system'])}"
            )
    try:
        with warnings.catch_warnings():  # torch warns about pickle protocols on stderr
            warnings.simplefilter("ignore")
            raw = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001 - any unpickling failure is a bad file
        raise PolicyFileError(f"{path}: not a plain-weights file ({_first_line(e)})") from None
    if not isinstance(raw, dict) or not all(isinstance(v, torch.Tensor) for v in raw.values()):
        raise PolicyFileError(f"{path}: expected a dict of tensors")
    weights = {k: v.detach().cpu().numpy() for k, v in raw.items()}
    for head, hidden, out in (("pi", meta["pi"], meta["n_actions"]), ("vf", meta["vf"], 1)):
        sizes = [meta["obs_size"], *hidden, out]
        for i in range(len(sizes) - 1):
            w, b = weights.get(f"{head}.{i}.weight"), weights.get(f"{head}.{i}.bias")
            if w is None or b is None:
                raise PolicyFileError(
                    f"{path}: tensor {head}.{i} is missing (sidecar {head}={hidden})"
                )
            if w.shape != (sizes[i + 1], sizes[i]) or b.shape != (sizes[i + 1],):
                raise PolicyFileError(
                    f"{path}: tensor {head}.{i}.weight has shape {tuple(w.shape)}, "
                    f"expected {(sizes[i + 1], sizes[i])} "
                    f"from the sidecar (obs_size={meta['obs_size']}, {head}={hidden}, "
                    f"n_actions={meta['n_actions']})"
                )
        if f"{head}.{len(sizes) - 1}.weight" in weights:
            raise PolicyFileError(
                f"{path}: tensor {head}.{len(sizes) - 1} is more than the sidecar's {head}={hidden}"
            )
    policy = MLPPolicy(weights, meta)
    if key is not None:
        _CACHE[key] = policy
    return policy


# ---------------------------------------------------------------------------------- agent


class TrainedAgent:
    """A saved policy as an agent (``trained:PATH``).

    ``scores`` returns the masked log-probabilities (STYLE C15); ``choose`` plays at the rules level
    through the system's encoding. With ``temperature=0`` (default) the agent plays its most likely
    action; with 1 it samples from its distribution (used for self-play opponents).

    Args:
        policy: a loaded ``MLPPolicy`` or a path to a weights file.
        system: the system it plays (checked against the file).
        seed: seeds the agent's own generator (tie-breaks and sampling).
        temperature: 0 for argmax, 1 to sample the policy.
        name: display name (default ``trained:<file name>``).
    """

    def __init__(
        self,
        policy: MLPPolicy | str | os.PathLike[str],
        system: str,
        seed: int | None = None,
        temperature: float = 0.0,
        name: str | None = None,
    ) -> None:
        from envs import get_encoding

        if not isinstance(policy, MLPPolicy):
            name = name or f"trained:{policy}"
            policy = load_policy(policy, system)
        self.policy = policy
        self.system = system
        self.encoding = get_encoding(system)
        self.rng = np.random.default_rng(seed)
        self.temperature = temperature
        self.name = name or "trained"

    def scores(
        self, observation: np.ndarray, mask: np.ndarray, encounter: Any = None
    ) -> np.ndarray:
        """Masked log-probabilities of the policy."""
        return self.policy.log_probs(observation, mask)

    def pick(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """An action index for the observation and mask (argmax or a sample)."""
        from .base import act

        return act(self.scores(observation, mask), self.rng, self.temperature)

    def choose(self, encounter: Any) -> Action:
        """The policy's action for the current actor of a rules-level ``encounter``."""
        from envs.rl import legal_index_map

        actor = encounter.current_actor()
        legal = legal_index_map(self.encoding, encounter, actor)
        mask = np.zeros(self.encoding.layout.size, dtype=np.int8)
        mask[list(legal)] = 1
        return legal[self.pick(self.encoding.observe(encounter, actor), mask)]
