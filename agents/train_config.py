"""The training config (``TrainConfig``) and the run folder's files (checkpoints, ``metrics.csv``,
the exported policy's weights and sidecar), shared by ``train.py``,
``arena train`` and ``arena demo`` (``eval/cli.py``) and the training modules (``agents.training``,
``agents.imitation``).

The YAML file maps one-to-one onto ``TrainConfig`` (STYLE C16): unknown keys and bad values are
one-line errors naming the key; ``key=value`` overrides are read as YAML.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.files import atomic_write

from .config import config_dict, config_help
from .config import load_config as read_config

__all__ = ["TrainConfig", "check_config", "load_config", "latest_checkpoint", "resume_state",
           "config_help", "METRIC_FIELDS", "Metrics", "policy_weights", "policy_meta"]



@dataclass(frozen=True)
class TrainConfig:
    """One training run; every field can be set in the YAML file or as ``key=value``."""

    system: str = "metanoia"
    """registry key in envs.SYSTEMS"""
    encounter: str = "duel_seed"
    """the system's encounter to train on"""
    rules: str = "full"
    """the system's rules option (metanoia: core or full)"""
    run_dir: str = "runs/metanoia_duel"
    """folder for checkpoints, metrics, snapshots and the final policy"""
    total_timesteps: int = 200_000
    """learner decisions to train for (all envs together)"""
    seed: int = 0
    """seeds python, numpy, torch, the envs and the opponent draws"""
    n_envs: int = 32
    """parallel envs (their decisions are batched through the policy together)"""
    vec_env: str = "subproc"
    """subproc (envs stepped in worker processes, using every core) or dummy (all in this
    process)"""
    workers: int = 2
    """worker processes for vec_env=subproc; the n_envs envs are split between them"""
    opponents: dict[str, float] = field(
        default_factory=lambda: {"heuristic": 0.6, "random": 0.25, "self": 0.15}
    )
    """opponent pool weights: random, heuristic, self (frozen snapshots of the learner),
    trained:PATH"""
    share_side: bool = True
    """the learner decides for every agent of its side (parameter sharing)"""
    snapshot_every: int = 50_000
    """timesteps between frozen snapshots of the learner added to the self-play pool"""
    snapshot_keep: int = 5
    """how many of the newest snapshots the pool keeps"""
    shaping: float = 0.0
    """weight of the system's optional shaped reward (0: only +1 win / -1 loss)"""
    draw_reward: float = -1.0
    """learner's reward for a fight that ends with no winner (round cap); below 0 so stalling
    never pays"""
    learning_rate: float = 3e-4
    """Adam step size"""
    n_steps: int = 128
    """rollout length per env between updates"""
    batch_size: int = 512
    """minibatch size of an update"""
    n_epochs: int = 4
    """passes over each rollout"""
    gamma: float = 0.99
    """discount factor"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_range: float = 0.2
    """PPO clipping"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value loss weight"""
    max_grad_norm: float = 0.5
    """gradient clipping"""
    net_arch: tuple[int, ...] = (256, 256)
    """hidden layer sizes of the policy and of the value network"""
    activation: str = "tanh"
    """tanh or relu"""
    torch_threads: int = 2
    """torch threads in the learner process (2 on a 2-core machine: updates run while the
    workers wait)"""
    imitation_games: int = 0
    """games of imitation_agent (against itself and random) to pre-train the policy on before
    PPO (0: none)"""
    imitation_agent: str = "heuristic"
    """agent imitated by the pre-training"""
    imitation_epochs: int = 10
    """passes over the recorded decisions"""
    imitation_workers: int = 2
    """processes that play the imitation games (the recorded data is the same for any number)"""
    eval_every: int = 50_000
    """timesteps between evaluations"""
    eval_games: int = 100
    """paired seeds per evaluation opponent (each played twice, sides swapped)"""
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    """agents the periodic evaluation plays"""
    best_of: str = "last"
    """eval opponent whose win rate picks best_policy.pt, the best evaluated policy ("last":
    the last of eval_opponents; "": keep none)"""
    checkpoint_every: int = 25_000
    """timesteps between checkpoints"""
    progress: bool = True
    """show a progress bar"""


# ---------------------------------------------------------------------------------- config


def check_config(cfg: TrainConfig, source: str) -> None:
    """Range and name checks that the types alone do not catch (one-line errors naming the key)."""
    from agents.learner import check_pool
    from envs import SYSTEMS, get_rules

    def bad(key: str, why: str) -> ValueError:
        return ValueError(f"{source}: key {key!r}: {why}")

    if cfg.system not in SYSTEMS:
        raise bad("system", f"unknown system {cfg.system!r}; known: {', '.join(SYSTEMS)}")
    names = get_rules(cfg.system).encounter_names()
    if cfg.encounter not in names:
        raise bad(
            "encounter",
            f"unknown {cfg.system} encounter {cfg.encounter!r}; known: {', '.join(names)}",
        )
    for key in (
        "total_timesteps",
        "n_envs",
        "workers",
        "snapshot_every",
        "snapshot_keep",
        "n_steps",
        "batch_size",
        "n_epochs",
        "eval_every",
        "eval_games",
        "checkpoint_every",
        "torch_threads",
        "imitation_epochs",
        "imitation_workers",
    ):
        if getattr(cfg, key) < 1:
            raise bad(key, f"must be >= 1, got {getattr(cfg, key)}")
    for key in ("learning_rate", "clip_range", "max_grad_norm"):
        if getattr(cfg, key) <= 0:
            raise bad(key, f"must be > 0, got {getattr(cfg, key)}")
    for key in ("gamma", "gae_lambda"):
        if not 0 < getattr(cfg, key) <= 1:
            raise bad(key, f"must be in (0, 1], got {getattr(cfg, key)}")
    for key in ("ent_coef", "vf_coef", "shaping", "imitation_games"):
        if getattr(cfg, key) < 0:
            raise bad(key, f"must be >= 0, got {getattr(cfg, key)}")
    if cfg.vec_env not in ("subproc", "dummy"):
        raise bad("vec_env", f"must be subproc or dummy, got {cfg.vec_env!r}")
    if cfg.activation not in ("tanh", "relu"):
        raise bad("activation", f"must be tanh or relu, got {cfg.activation!r}")
    if not cfg.net_arch or min(cfg.net_arch) < 1:
        raise bad("net_arch", f"needs at least one layer, each >= 1, got {list(cfg.net_arch)}")
    if cfg.batch_size > cfg.n_steps * cfg.n_envs:
        raise bad(
            "batch_size",
            f"{cfg.batch_size} is more than a rollout "
            f"(n_steps * n_envs = {cfg.n_steps * cfg.n_envs})",
        )
    if not cfg.run_dir:
        raise bad("run_dir", "must not be empty")
    try:
        check_pool(cfg.opponents)
    except ValueError as e:
        raise bad("opponents", str(e)) from None
    if cfg.best_of not in ("", "last") and cfg.best_of not in cfg.eval_opponents:
        raise bad(
            "best_of",
            f"{cfg.best_of!r} is not one of eval_opponents ({', '.join(cfg.eval_opponents)}); "
            'use "" to keep no best policy',
        )
    for name in (*cfg.eval_opponents, *([cfg.imitation_agent] if cfg.imitation_games else [])):
        if name not in ("random", "heuristic", "trained") and not name.startswith("trained:"):
            raise bad("eval_opponents" if name in cfg.eval_opponents else "imitation_agent",
                      f"unknown agent {name!r}; known: random, heuristic, trained (the shipped "
                      "policy), trained:PATH")


def load_config(path: str | None, overrides: Sequence[str] = ()) -> TrainConfig:
    """Read a YAML config and ``key=value`` overrides into a checked ``TrainConfig``.

    Raises:
        DataError, ValueError: one line naming the file (or the command line) and the key.
    """
    cfg, source = read_config(TrainConfig, path, overrides)
    check_config(cfg, source)
    return cfg


# ---------------------------------------------------------------------------------- files


def latest_checkpoint(run_dir: Path) -> Path | None:
    """The newest complete ``checkpoints/step_N`` folder (it has ``state.json``), or ``None``."""
    best, best_n = None, -1
    for p in (run_dir / "checkpoints").glob("step_*"):
        if p.is_dir() and (p / "state.json").is_file() and (p / "model.zip").is_file():
            try:
                n = int(p.name.removeprefix("step_"))
            except ValueError:
                continue
            if n > best_n:
                best, best_n = p, n
    return best


def resume_state(cfg: TrainConfig, run_dir: Path, ckpt: Path | None,
                 resume: bool) -> dict[str, Any]:
    """The checkpoint's ``state.json`` to go on from (``{}`` for a new run), for either backend.

    Raises ``ValueError`` (one line) for ``--resume`` with no checkpoint or with a config that
    differs from the run's in more than ``total_timesteps`` and ``progress``, and for a new run
    into a folder that already holds one.
    """
    import json

    if not resume:
        if ckpt is not None:
            raise ValueError(f"{run_dir} already holds a run; pass --resume to continue it, "
                             "or set run_dir=...")
        return {}
    if ckpt is None:
        raise ValueError(f"{run_dir}: no checkpoint to resume from")
    state: dict[str, Any] = json.loads((ckpt / "state.json").read_text())
    saved = state.get("config", {})
    changed = [k for k, v in config_dict(cfg).items()
               if k not in ("total_timesteps", "progress") and saved.get(k) != v]
    if changed:
        raise ValueError(f"{run_dir}: --resume with a different config (keys "
                         f"{', '.join(changed)}); only total_timesteps and progress may change")
    return state


METRIC_FIELDS = [
    "timesteps",
    "episodes",
    "wall_s",
    "fps",
    "ep_rew_mean",
    "ep_len_mean",
    "train_win_rate",
]


class Metrics:
    """``metrics.csv``, one row per rollout (TensorBoard scalars go through SB3's logger)."""

    def __init__(self, path: Path, eval_opponents: Sequence[str], keep_upto: int | None) -> None:
        self.path = path
        self.fields = METRIC_FIELDS + [f"eval_{o}" for o in eval_opponents]
        rows: list[dict[str, str]] = []
        if keep_upto is not None and path.is_file():
            with path.open(newline="") as fh:
                rows = [r for r in csv.DictReader(fh) if int(float(r["timesteps"])) <= keep_upto]
        # rewrite (atomically) with only the rows up to the checkpoint being resumed
        lines = [",".join(self.fields)] + [
            ",".join(r.get(k, "") or "" for k in self.fields) for r in rows
        ]
        atomic_write(path, "\n".join(lines) + "\n")

    def append(self, row: dict[str, Any]) -> None:
        with self.path.open("a", newline="") as fh:
            csv.DictWriter(fh, self.fields, extrasaction="ignore").writerow(
                {k: (str(round(v, 4)) if isinstance(v, float) else v) for k, v in row.items()})
            fh.flush()
            os.fsync(fh.fileno())


# ---------------------------------------------------------------------------------- policy export


def policy_weights(model: Any) -> dict[str, np.ndarray]:
    """The MaskablePPO policy's MLPs as ``pi.<i>``/``vf.<i>`` arrays (agents.trained format)."""
    import torch

    def linears(*modules: torch.nn.Module) -> list[torch.nn.Linear]:
        return [m for mod in modules for m in mod.modules() if isinstance(m, torch.nn.Linear)]

    p = model.policy
    out: dict[str, np.ndarray] = {}
    for head, layers in (("pi", linears(p.mlp_extractor.policy_net, p.action_net)),
                         ("vf", linears(p.mlp_extractor.value_net, p.value_net))):
        for i, lin in enumerate(layers):
            out[f"{head}.{i}.weight"] = lin.weight.detach().cpu().numpy().copy()
            out[f"{head}.{i}.bias"] = lin.bias.detach().cpu().numpy().copy()
    return out


def policy_meta(
    cfg: TrainConfig, timesteps: int, evals: dict[str, float] | None = None
) -> dict[str, Any]:
    """The sidecar of a policy trained with ``cfg`` for ``timesteps`` steps."""
    from envs import get_encoding

    encoding = get_encoding(cfg.system)
    return {
        "system": cfg.system,
        "env": encoding.name,
        "obs_size": encoding.obs_spec.size,
        "n_actions": encoding.layout.size,
        "activation": cfg.activation,
        "pi": list(cfg.net_arch),
        "vf": list(cfg.net_arch),
        "encounter": cfg.encounter,
        "rules": cfg.rules,
        "timesteps": timesteps,
        "eval": evals or {},
        "config": config_dict(cfg),
    }
