"""What happens during ``learn`` (DESIGN.md, "Training"; STYLE C16): ``TrainingCallback`` (progress
bar, metrics, periodic evaluation, self-play snapshots, atomic checkpoints, Ctrl-C) and
``evaluate`` (the periodic evaluation's win rates). ``agents.training`` runs it and re-exports both.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .config import config_dict
from .train_config import (
    Metrics,
    TrainConfig,
    policy_meta,
    policy_weights,
)

__all__ = ["evaluate", "TrainingCallback"]


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
