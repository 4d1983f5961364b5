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

This module is the training itself; ``train.py`` (the script) and ``arena train`` both call
``main``, and ``arena demo`` calls ``train``. The config is ``agents.train_config.TrainConfig``.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
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
    policy_meta,
    policy_weights,
)

__all__ = ["train", "main", "evaluate", "make_vec_env", "TrainingCallback"]


# ---------------------------------------------------------------------------------- evaluation


def evaluate(cfg: TrainConfig, policy: Any, games: int, seed: int = 10_000_000) -> dict[str, float]:
    """Win rate of ``policy`` against each eval opponent over ``games`` paired seeds, sides swapped.

    Only wins count: a draw is not a win, so a policy that stalls to the round cap shows as such.
    """
    from agents import make_agent
    from agents.trained import TrainedAgent

    from .episode import encounter_sides, play

    first, second = encounter_sides(cfg.system, cfg.encounter, cfg.rules)
    out = {}
    for name in cfg.eval_opponents:
        score = 0.0
        for i in range(games):
            for me, other in ((first, second), (second, first)):
                agents = {
                    me: TrainedAgent(policy, cfg.system, seed + i),
                    other: make_agent(name, cfg.system, seed + i),
                }
                rec = play(cfg.system, cfg.encounter, agents, seed + i, options=cfg.rules)
                score += float(rec.winner == me)
        out[name] = score / (2 * games)
    return out


# ---------------------------------------------------------------------------------- envs


def _make_env(cfg: TrainConfig, seed: int) -> Any:
    """Env factory for the vec env (runs inside the worker for subproc)."""

    def thunk() -> Any:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the learner's to handle
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


# ---------------------------------------------------------------------------------- training


class TrainingCallback:
    """Progress bar, metrics, periodic evaluation, snapshots and atomic checkpoints during
    ``learn``.

    Everything happens at the start of a rollout, right after an update, so a checkpoint's weights,
    optimizer and step count always belong together.
    """

    def __init__(
        self, cfg: TrainConfig, run_dir: Path, metrics: Metrics, state: dict[str, Any], vec: Any
    ) -> None:
        from collections import deque

        import torch
        from stable_baselines3.common.callbacks import BaseCallback

        self.cfg, self.run_dir, self.metrics, self.vec = cfg, run_dir, metrics, vec
        self.episodes = int(state.get("episodes", 0))
        self.wall_before = float(state.get("wall_s", 0.0))
        self.snapshots: list[str] = list(state.get("snapshots", []))
        self.evals: dict[str, float] = dict(state.get("evals", {}))
        self.best: dict[str, Any] = dict(state.get("best", {}))
        """``{"timesteps", "win_rate"}`` of best_policy.pt (TrainConfig.best_of)"""
        start = int(state.get("timesteps", 0))
        self.last = {
            "checkpoint": start,
            "snapshot": start,
            "eval": start if state else -cfg.eval_every,
        }
        self.scores: deque[float] = deque(maxlen=200)
        self.bar: Any = None
        self.in_rollout = False
        self.rollout_start = start
        self.t0 = time.perf_counter()
        self.start_steps = start
        outer = self

        class _Hook(BaseCallback):
            def _on_training_start(self) -> None:
                outer.on_training_start(self.model)

            def _on_rollout_start(self) -> None:
                outer.on_rollout_start()

            def _on_step(self) -> bool:
                return outer.on_step(self.locals.get("infos", ()))

            def _on_rollout_end(self) -> None:
                outer.in_rollout = False
                torch.set_num_threads(outer.cfg.torch_threads)  # the update may use every core

        self.hook = _Hook()
        self.model: Any = None

    # SB3 calls these through the hook
    def on_training_start(self, model: Any) -> None:
        self.model = model
        if self.snapshots:
            self.vec.env_method("set_snapshots", [str(self.run_dir / p) for p in self.snapshots])
        if self.cfg.progress:
            from tqdm import tqdm

            self.bar = tqdm(
                total=self.cfg.total_timesteps,
                initial=model.num_timesteps,
                unit="step",
                desc="train",
                dynamic_ncols=True,
                file=sys.stderr,
            )

    def on_step(self, infos: Sequence[dict[str, Any]]) -> bool:
        for info in infos:
            if "episode" in info:
                self.episodes += 1
                self.scores.append(float(info.get("score", 0.0)))
        if self.bar is not None:
            self.bar.update(self.model.num_timesteps - self.bar.n)
        return True

    def on_rollout_start(self) -> None:
        import torch

        # while collecting, the workers hold the cores; batch-of-n_envs forwards are fastest on
        # one thread
        torch.set_num_threads(1)
        n = self.model.num_timesteps
        self.rollout_start, self.in_rollout = n, True
        evals = None
        if n - self.last["eval"] >= self.cfg.eval_every:
            evals = self.evaluate()
        if n - self.last["snapshot"] >= self.cfg.snapshot_every:
            self.snapshot()
        if n > self.start_steps or evals:
            self.log_row(evals)
        if n - self.last["checkpoint"] >= self.cfg.checkpoint_every:
            self.checkpoint()

    # work
    def policy(self) -> Any:
        from agents.trained import MLPPolicy

        return MLPPolicy(policy_weights(self.model), {"activation": self.cfg.activation})

    def evaluate(self) -> dict[str, float]:
        n = self.model.num_timesteps
        self.evals = evaluate(self.cfg, self.policy(), self.cfg.eval_games)
        self.last["eval"] = n
        for name, rate in self.evals.items():
            self.model.logger.record(f"eval/win_rate_vs_{name}", rate)
        if self.bar is not None:
            self.bar.set_postfix({f"vs {k}": f"{v:.0%}" for k, v in self.evals.items()})
        self.keep_best(n)
        return self.evals

    def keep_best(self, n: int) -> None:
        """Write ``best_policy.pt`` when the eval against ``best_of`` beats every earlier one."""
        from agents.trained import save_policy

        best_of = (
            self.cfg.eval_opponents[-1]
            if self.cfg.best_of == "last" and self.cfg.eval_opponents
            else self.cfg.best_of
        )
        rate = self.evals.get(best_of) if best_of else None
        if rate is None or rate <= self.best.get("win_rate", -1.0):
            return
        save_policy(self.run_dir / "best_policy.pt", policy_weights(self.model),
                    policy_meta(self.cfg, n, self.evals))
        self.best = {"timesteps": n, "win_rate": rate, "against": best_of}

    def snapshot(self) -> None:
        from agents.trained import save_policy

        n = self.model.num_timesteps
        rel = f"snapshots/step_{n}.pt"
        save_policy(self.run_dir / rel, policy_weights(self.model), policy_meta(self.cfg, n))
        self.snapshots = [*self.snapshots, rel][-self.cfg.snapshot_keep :]
        self.vec.env_method("set_snapshots", [str(self.run_dir / p) for p in self.snapshots])
        self.last["snapshot"] = n

    def wall(self) -> float:
        return self.wall_before + time.perf_counter() - self.t0

    def log_row(self, evals: dict[str, float] | None) -> None:
        n = self.model.num_timesteps
        buf = self.model.ep_info_buffer or []
        row: dict[str, Any] = {
            "timesteps": n,
            "episodes": self.episodes,
            "wall_s": round(self.wall(), 1),
            "fps": round((n - self.start_steps) / max(time.perf_counter() - self.t0, 1e-9), 1),
        }
        if buf:
            row["ep_rew_mean"] = float(np.mean([e["r"] for e in buf]))
            row["ep_len_mean"] = float(np.mean([e["l"] for e in buf]))
        if self.scores:
            row["train_win_rate"] = float(np.mean(self.scores))
            self.model.logger.record("train/win_rate", row["train_win_rate"])
        for name, rate in (evals or {}).items():
            row[f"eval_{name}"] = rate
        self.metrics.append(row)

    def checkpoint(self, timesteps: int | None = None) -> Path:
        """Write ``checkpoints/step_N`` atomically (temporary folder, then rename), keep the
        newest two."""
        from agents.trained import save_policy

        model = self.model
        n = model.num_timesteps if timesteps is None else timesteps
        root = self.run_dir / "checkpoints"
        root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".step_", dir=root))
        saved_n, model.num_timesteps = model.num_timesteps, n
        try:
            model.save(tmp / "model.zip")
        finally:
            model.num_timesteps = saved_n
        state = {
            "timesteps": n,
            "episodes": self.episodes,
            "wall_s": self.wall(),
            "snapshots": self.snapshots,
            "evals": self.evals,
            "best": self.best,
            "config": config_dict(self.cfg),
        }
        (tmp / "state.json").write_text(json.dumps(state, indent=2))
        final = root / f"step_{n}"
        if final.exists():
            shutil.rmtree(final)
        os.rename(tmp, final)
        for old in sorted((p for p in root.glob("step_*") if p != final),
                          key=lambda p: int(p.name.removeprefix("step_")))[:-1]:
            shutil.rmtree(old, ignore_errors=True)
        save_policy(
            self.run_dir / "policy.pt", policy_weights(model), policy_meta(self.cfg, n, self.evals)
        )
        self.last["checkpoint"] = n
        return final

    def interrupted(self) -> None:
        """Ctrl-C: keep a checkpoint if the weights are whole (a rollout was being collected)."""
        self.close_bar()
        if self.model is not None and self.in_rollout:
            path = self.checkpoint(self.rollout_start)
            print(f"\ninterrupted: checkpoint at step {self.rollout_start} in {path}; "
                  f"continue with --resume", file=sys.stderr)
        else:
            print(
                "\ninterrupted during an update; "
                f"the last checkpoint is step {self.last['checkpoint']}; "
                "continue with --resume",
                file=sys.stderr,
            )

    def close_bar(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def finish(self) -> None:
        """Final evaluation, checkpoint, policy file and a summary on stdout."""
        model = self.model
        if model is None:  # nothing left to train: the run was already complete
            print(f"{self.run_dir}: already trained to {self.start_steps} steps", file=sys.stderr)
            return
        n = model.num_timesteps
        evals = self.evaluate() if self.last["eval"] != n else None
        self.log_row(evals)
        self.checkpoint()
        steps = n - self.start_steps
        took = time.perf_counter() - self.t0
        print(
            f"trained {self.cfg.system}/{self.cfg.encounter} to {n} steps; "
            f"this run: {steps} steps in {took:.0f}s "
            f"({steps / max(took, 1e-9):.0f} steps/s), {self.episodes} episodes in all"
        )
        for name, rate in self.evals.items():
            print(
                f"  win rate vs {name:<10} {rate:.1%}  "
                f"({2 * self.cfg.eval_games} games, paired seeds, sides swapped)"
            )
        print(
            f"  policy: {self.run_dir / 'policy.pt'} (+ .json)   "
            f"metrics: {self.run_dir / 'metrics.csv'}"
        )
        if self.best:
            print(
                f"  best:   {self.run_dir / 'best_policy.pt'} (+ .json), "
                f"{self.best['win_rate']:.1%} vs "
                f"{self.best['against']} at step {self.best['timesteps']}"
            )


def main(argv: Sequence[str] | None = None, prog: str = "train.py") -> int:
    import argparse

    p = OneLineParser(
        prog=prog,
        description="Train an NPC policy with MaskablePPO self-play.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="config keys (YAML or key=value):\n" + config_help(TrainConfig),
    )
    p.add_argument("config", help="YAML file under configs/train/")
    p.add_argument("overrides", nargs="*", help="key=value, read as YAML")
    p.add_argument(
        "--resume", action="store_true", help="continue from the run's newest checkpoint"
    )
    args = p.parse_intermixed_args(argv)
    try:
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
    state: dict[str, Any] = {}
    if resume:
        if ckpt is None:
            raise ValueError(f"{run_dir}: no checkpoint to resume from")
        state = json.loads((ckpt / "state.json").read_text())
        saved = state.get("config", {})
        changed = [k for k, v in config_dict(cfg).items()
                   if k not in ("total_timesteps", "progress") and saved.get(k) != v]
        if changed:
            raise ValueError(
                f"{run_dir}: --resume with a different config (keys {', '.join(changed)}); "
                "only total_timesteps and progress may change"
            )
    elif ckpt is not None:
        raise ValueError(
            f"{run_dir} already holds a run; pass --resume to continue it, or set run_dir=..."
        )
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

