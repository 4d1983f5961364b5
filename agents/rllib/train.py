"""The RLlib training loop: ``arena train CONFIG --backend rllib [--ray ADDRESS] [--resume]``.

What a run writes to ``run_dir`` (the same names as the SB3 backend where they mean the same)::

    run_dir/config.yaml           the config as run (with ``backend: rllib`` in the sidecars)
    run_dir/metrics.csv           one row per RLlib iteration: steps, episodes, wall time, fps,
                                  the learned module's mean return, ``train_win_rate`` (its win
                                  rate against the random module over the last 200 such games),
                                  eval win rates
    run_dir/checkpoints/step_N/   an RLlib checkpoint (``Algorithm.save_to_path``) plus
                                  ``state.json`` (written last: a folder without it is incomplete)
    run_dir/policy.pt + .json     the learned module as an ``agents.trained`` policy file
    run_dir/best_policy.pt        the evaluated policy that did best against ``best_of``

Progress: one line per iteration (``progress: true``; otherwise at each evaluation) with env
steps, episodes, the module's mean return, the training win rate against random and elapsed time.
Ctrl-C stops training, writes ``policy.pt`` from the learner's current weights and keeps the newest
checkpoint; ``--resume`` continues from that checkpoint (weights, optimizer and the step count;
the steps after it are trained again).
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from agents.config import config_dict
from agents.train_config import Metrics, TrainConfig, policy_meta, resume_state
from envs.core.files import atomic_write

from .env import LEARNER

__all__ = ["train_rllib", "latest_rllib_checkpoint", "export_policy"]


def latest_rllib_checkpoint(run_dir: Path) -> Path | None:
    """The newest complete ``checkpoints/step_N`` folder (it has ``state.json``), or ``None``."""
    best, best_n = None, -1
    for p in (run_dir / "checkpoints").glob("step_*"):
        n_text = p.name.removeprefix("step_")
        complete = p.is_dir() and n_text.isdigit() and (p / "state.json").is_file()
        if complete and int(n_text) > best_n:
            best, best_n = p, int(n_text)
    return best


def export_policy(algo: Any, cfg: TrainConfig, path: Path, steps: int,
                  evals: dict[str, float] | None = None) -> Path:
    """Write the learner's ``main`` module as a policy file (``agents.trained``) at ``path``."""
    from agents.trained import save_policy

    from .module import export_weights

    weights = export_weights(algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER])
    meta = {**policy_meta(cfg, steps, evals), "backend": "rllib"}
    return save_policy(path, weights, meta)


def _evaluate(algo: Any, cfg: TrainConfig) -> dict[str, float]:
    from agents.trained import MLPPolicy
    from agents.training_callback import evaluate

    from .module import export_weights

    weights = export_weights(algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER])
    return evaluate(cfg, MLPPolicy(weights, {"activation": cfg.activation}), cfg.eval_games)


def _save_checkpoint(algo: Any, run_dir: Path, state: dict[str, Any]) -> Path:
    final = run_dir / "checkpoints" / f"step_{state['timesteps']}"
    tmp = final.with_name(final.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    algo.save_to_path(str(tmp.resolve()))
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    atomic_write(final / "state.json", json.dumps(state, indent=2) + "\n")
    return final


def _check_resume(cfg: TrainConfig, run_dir: Path, resume: bool) -> tuple[Path | None, dict]:
    ckpt = latest_rllib_checkpoint(run_dir)
    return (ckpt if resume else None), resume_state(cfg, run_dir, ckpt, resume)


def _line(steps: int, total: int, er: dict[str, Any], wall: float) -> str:
    ret = (er.get("module_episode_returns_mean") or {}).get(LEARNER)
    win, n = er.get("win_vs_random"), er.get("num_episodes_lifetime", 0)
    parts = [f"steps {steps:,}/{total:,}", f"episodes {int(n):,}"]
    if ret is not None:
        parts.append(f"return(main) {float(ret):+.2f}")
    if win is not None:
        parts.append(f"train win vs random {float(win):.0%} (last <=200 games)")
    m, s = divmod(int(wall), 60)
    parts.append(f"elapsed {m}m{s:02d}s")
    return "  ".join(parts)


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def train_rllib(cfg: TrainConfig, address: str | None = None, resume: bool = False) -> int:
    """Run (or resume) RLlib training as configured; returns a process exit status."""
    import ray

    from .algo import init_ray

    run_dir = Path(cfg.run_dir)
    ckpt, state = _check_resume(cfg, run_dir, resume)
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write(run_dir / "config.yaml", yaml.safe_dump(config_dict(cfg), sort_keys=False))
    metrics = Metrics(run_dir / "metrics.csv", cfg.eval_opponents,
                      int(state.get("timesteps", 0)) if resume else None)
    t0 = time.perf_counter()
    started = init_ray(address)
    try:
        return _loop(cfg, address, run_dir, ckpt, state, metrics, t0)
    finally:
        if started:
            ray.shutdown()


def _loop(cfg: TrainConfig, address: str | None, run_dir: Path, ckpt: Path | None,
          state: dict[str, Any], metrics: Metrics, t0: float) -> int:
    import ray

    from .algo import ppo_config

    log = _log
    steps = int(state.get("timesteps", 0))
    wall_before = float(state.get("wall_s", 0.0))
    cpus = ray.cluster_resources().get("CPU")
    where = f"cluster {address} ({cpus} CPUs)" if address else f"local Ray ({cpus} CPUs)"
    log(f"rllib: {cfg.system}/{cfg.encounter} on {where}, {cfg.workers} env runner(s), "
        f"{cfg.n_envs} envs, {cfg.total_timesteps:,} env steps")
    algo = ppo_config(cfg).build_algo()
    if ckpt is not None:
        algo.restore_from_path(str(ckpt.resolve()))
        log(f"rllib: resumed from {ckpt} at {steps:,} steps")
    last = {"eval": steps, "ckpt": steps}
    evals: dict[str, float] = {}
    best = float(state.get("best", -1.0))
    best_of = (cfg.eval_opponents[-1] if cfg.best_of == "last" and cfg.eval_opponents
               else cfg.best_of)
    try:
        while steps < cfg.total_timesteps:
            result = algo.train()
            er = result.get("env_runners", {})
            steps += int(er.get("num_env_steps_sampled", 0))
            wall = wall_before + time.perf_counter() - t0
            row: dict[str, Any] = {
                "timesteps": steps, "episodes": int(er.get("num_episodes_lifetime", 0)),
                "wall_s": wall, "fps": steps / max(wall, 1e-9),
                "ep_rew_mean": (er.get("module_episode_returns_mean") or {}).get(LEARNER, ""),
                "ep_len_mean": er.get("episode_len_mean", ""),
                "train_win_rate": er.get("win_vs_random", ""),
            }
            due_eval = steps - last["eval"] >= cfg.eval_every or steps >= cfg.total_timesteps
            if due_eval and cfg.eval_opponents:
                evals = _evaluate(algo, cfg)
                last["eval"] = steps
                row.update({f"eval_{k}": v for k, v in evals.items()})
                if best_of and evals.get(best_of, -1.0) > best:
                    best = evals[best_of]
                    export_policy(algo, cfg, run_dir / "best_policy.pt", steps, evals)
            metrics.append({k: (float(v) if hasattr(v, "item") else v) for k, v in row.items()})
            if cfg.progress or due_eval:
                text = _line(steps, cfg.total_timesteps, er, wall)
                if due_eval and evals:
                    n = 2 * cfg.eval_games
                    text += "  eval " + ", ".join(
                        f"vs {k} {v:.0%} of {n}" for k, v in evals.items())
                log(text)
            if steps - last["ckpt"] >= cfg.checkpoint_every or steps >= cfg.total_timesteps:
                state = {"timesteps": steps, "wall_s": wall, "best": best,
                         "config": config_dict(cfg), "backend": "rllib"}
                _save_checkpoint(algo, run_dir, state)
                last["ckpt"] = steps
        wall = wall_before + time.perf_counter() - t0
        path = export_policy(algo, cfg, run_dir / "policy.pt", steps, evals)
        log(f"rllib: {steps:,} env steps in {wall:.0f} s; policy {path}")
        return 0
    except KeyboardInterrupt:
        path = export_policy(algo, cfg, run_dir / "policy.pt", steps, evals)
        kept = latest_rllib_checkpoint(run_dir)
        log(f"rllib: interrupted at {steps:,} steps; policy {path}; "
            f"checkpoint {kept or 'none yet'} (--resume continues from it)")
        return 130
    finally:
        algo.stop()
