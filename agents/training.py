"""Train an NPC policy with MaskablePPO self-play (DESIGN.md, "Training"; STYLE C16).

    python train.py configs/train/metanoia_duel.yaml [key=value ...] [--resume]
    arena train configs/train/metanoia_duel.yaml total_timesteps=50000

The YAML file maps one-to-one onto ``TrainConfig`` (unknown keys and bad values are errors naming
the key); ``key=value`` arguments override it (values are read as YAML: ``opponents={random: 1}``).
Everything a run writes goes to ``run_dir``::

    run_dir/config.yaml          the config as run
    run_dir/metrics.csv          one row per rollout: timesteps, fps, train win rate, eval win rates
    run_dir/tb/                  TensorBoard events
    run_dir/checkpoints/step_N/  model.zip (weights + optimizer) and state.json, written atomically
    run_dir/snapshots/step_N.pt  frozen copies of the learner for the self-play pool
    run_dir/policy.pt + .json    the latest policy as plain weights and its sidecar (agents.trained)
    run_dir/best_policy.pt       the evaluated policy that did best against ``best_of`` (+ .json)

``--resume`` continues from the newest complete checkpoint after a kill or Ctrl-C: the step count,
optimizer, snapshot pool and metrics carry on, and rows written after that checkpoint are dropped
(those steps are trained again). Ctrl-C during a rollout writes a checkpoint before exiting.

``--backend rllib [--ray ADDRESS]`` trains with RLlib's multi-agent PPO instead (``agents.rllib``,
which writes the same policy files; ``agents/rllib/train.py`` describes its run folder).

This module is the training itself; ``train.py`` (the script) and ``arena train`` both call
``main``, and ``arena demo`` calls ``train``. The config is ``agents.train_config.TrainConfig``;
what happens during ``learn`` (``TrainingCallback``, ``evaluate``) is ``agents.training_callback``.
"""

from __future__ import annotations

import random
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from envs.core.files import atomic_write

from .config import OneLineParser, config_dict, config_help
from .train_config import (
    Metrics,
    TrainConfig,
    latest_checkpoint,
    load_config,
    resume_state,
)
from .training_callback import TrainingCallback, evaluate

__all__ = ["train", "main", "evaluate", "make_vec_env", "TrainingCallback"]


# ---------------------------------------------------------------------------------- envs


def _make_env(cfg: TrainConfig, seed: int) -> Any:
    """Env factory for the vec env (runs inside the worker for subproc)."""

    def thunk() -> Any:
        import multiprocessing

        if multiprocessing.parent_process() is not None:  # a subproc worker: Ctrl-C is the
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # learner's to handle; never ignore
            # it in the learner's own process (``vec_env: dummy`` builds the envs there, and an
            # ignored SIGINT is inherited by every program it starts)
        import torch

        torch.set_num_threads(1)
        from agents.learner import LearnerEnv

        return LearnerEnv(
            cfg.system,
            cfg.encounter,
            cfg.rules,
            cfg.opponents,
            share_side=cfg.share_side,
            shaping=cfg.shaping,
            draw_reward=cfg.draw_reward,
            seed=seed,
        )

    return thunk


def make_vec_env(cfg: TrainConfig, seed: int) -> Any:
    """``n_envs`` learner envs, in worker processes (``subproc``) or here (``dummy``), monitored."""
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from envs.rl.vec import BatchedSubprocVecEnv

    fns = [_make_env(cfg, seed * 1000 + i) for i in range(cfg.n_envs)]
    vec = BatchedSubprocVecEnv(fns, cfg.workers) if cfg.vec_env == "subproc" else DummyVecEnv(fns)
    return VecMonitor(vec, info_keywords=("score", "opponent"))


def main(argv: Sequence[str] | None = None, prog: str = "train.py") -> int:
    import argparse

    p = OneLineParser(
        prog=prog,
        description="Train an NPC policy with MaskablePPO self-play (--backend rllib: RLlib "
                    "multi-agent PPO, locally or on a Ray cluster).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="config keys (YAML or key=value):\n" + config_help(TrainConfig),
    )
    p.add_argument("config", help="YAML file under configs/train/")
    p.add_argument("overrides", nargs="*", help="key=value, read as YAML")
    p.add_argument(
        "--resume", action="store_true", help="continue from the run's newest checkpoint"
    )
    p.add_argument("--backend", choices=("sb3", "rllib"), default="sb3",
                   help="sb3: MaskablePPO (default); rllib: multi-agent PPO on Ray RLlib "
                        "(needs the ray extra; agents/rllib)")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="with --backend rllib: connect to this Ray cluster (default: local Ray)")
    args = p.parse_intermixed_args(argv)
    if args.ray is not None and args.backend != "rllib":
        p.error("--ray needs --backend rllib")
    try:
        if args.backend == "rllib":
            try:
                from .rllib.config import load_rllib_config
                from .rllib.train import train_rllib
            except ImportError as e:
                print(f"{prog}: error: --backend rllib needs Ray RLlib ({e}); install the "
                      "ray extra: pip install '.[ray]'", file=sys.stderr)
                return 2

            cfg = load_rllib_config(args.config, args.overrides)
            return train_rllib(cfg, address=args.ray, resume=args.resume)
        cfg = load_config(args.config, args.overrides)
        return train(cfg, resume=args.resume)
    except (ValueError, OSError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2


def train(cfg: TrainConfig, resume: bool = False) -> int:
    """Run (or resume) training as configured; returns a process exit status."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure

    run_dir = Path(cfg.run_dir)
    ckpt = latest_checkpoint(run_dir)
    state = resume_state(cfg, run_dir, ckpt, resume)
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write(run_dir / "config.yaml", yaml.safe_dump(config_dict(cfg), sort_keys=False))
    start_steps = int(state.get("timesteps", 0))

    # ---- seeding (one block; a resumed run reseeds from its step count so it sees new fights)
    seed = cfg.seed + start_steps
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    torch.set_num_threads(cfg.torch_threads)

    vec = make_vec_env(cfg, seed)
    try:
        if resume and ckpt is not None:  # resume without a checkpoint was refused above
            model = MaskablePPO.load(ckpt / "model.zip", env=vec, device="cpu")
            model.set_random_seed(seed)
        else:
            model = MaskablePPO(
                "MlpPolicy",
                vec,
                learning_rate=cfg.learning_rate,
                n_steps=cfg.n_steps,
                batch_size=cfg.batch_size,
                n_epochs=cfg.n_epochs,
                gamma=cfg.gamma,
                gae_lambda=cfg.gae_lambda,
                clip_range=cfg.clip_range,
                ent_coef=cfg.ent_coef,
                vf_coef=cfg.vf_coef,
                max_grad_norm=cfg.max_grad_norm,
                seed=seed,
                device="cpu",
                policy_kwargs={
                    "net_arch": {"pi": list(cfg.net_arch), "vf": list(cfg.net_arch)},
                    "activation_fn": torch.nn.Tanh if cfg.activation == "tanh" else torch.nn.ReLU,
                },
            )
            if cfg.imitation_games:
                from agents.imitation import pretrain

                pretrain(model, cfg, log=lambda m: print(m, file=sys.stderr))
        model.set_logger(configure(str(run_dir / "tb"), ["tensorboard"]))
        metrics = Metrics(
            run_dir / "metrics.csv", cfg.eval_opponents, start_steps if resume else None
        )
        callback = TrainingCallback(cfg, run_dir, metrics, state, vec)
        remaining = cfg.total_timesteps - start_steps
        if remaining > 0:
            try:
                model.learn(remaining, callback=callback.hook, reset_num_timesteps=not resume)
            except KeyboardInterrupt:
                callback.interrupted()
                return 130
            finally:
                callback.close_bar()
        callback.finish()
    finally:
        vec.close()
    return 0

