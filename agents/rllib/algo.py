"""Build the RLlib PPO algorithm of a training config (``--backend rllib``).

``ppo_config(cfg)`` maps the ``TrainConfig`` keys onto ``PPOConfig`` (table in
``agents.rllib.config``); ``init_ray(address, cfg)`` starts or joins Ray. Kept apart from the
training loop (``agents.rllib.train``) so tests can build an algorithm directly.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from agents.train_config import TrainConfig

from .env import LEARNER, RANDOM, make_arena_env, mapping_fn, side_of

__all__ = ["ppo_config", "init_ray", "ENV_NAME", "LOCAL_CPUS"]

ENV_NAME = "arena_pettingzoo"
LOCAL_CPUS = 2
"""``ray.init(num_cpus=...)`` of a local run (this project's machines have 2 cores)."""

_PROJECT = Path(__file__).resolve().parents[2]


def init_ray(address: str | None) -> bool:
    """Start a local Ray (``LOCAL_CPUS`` CPUs, no dashboard, workers at normal priority) or
    connect to ``address``.

    On a cluster the project folder is shipped as the job's ``working_dir`` (without run folders,
    virtual envs and git data), so the env runners there import this code; the cluster's Python
    must have the project's dependencies (``pip install .[ray]``).

    Returns:
        ``True`` when this call started (or joined) Ray, ``False`` when Ray was already up (the
        caller then leaves it running).
    """
    import logging

    import ray

    if ray.is_initialized():
        return False
    common: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR,
                              "log_to_driver": False}
    if address:
        ray.init(address=address, runtime_env={
            "working_dir": str(_PROJECT),
            "excludes": ["runs/", ".venv/", ".git/", "**/__pycache__/", "*.pt", "*.png"],
        }, **common)
    else:
        os.environ.setdefault("RAY_DEDUP_LOGS", "0")
        # Ray starts its workers at niceness 15; on a shared 2-core machine any other process
        # then starves the env runners (measured: 4x slower sampling). Normal priority here.
        os.environ.setdefault("RAY_worker_niceness", "0")
        path = os.environ.get("PYTHONPATH", "")
        parts = [str(_PROJECT), *(p for p in path.split(os.pathsep) if p)]
        ray.init(num_cpus=LOCAL_CPUS, runtime_env={"env_vars": {
            "PYTHONPATH": os.pathsep.join(parts)}}, **common)
    return True


def _callbacks_class() -> Any:
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class ArenaCallbacks(RLlibCallback):
        """Logs ``win_vs_random``: 1 when the learned side beat the random one, else 0."""

        def on_episode_end(self, *, episode: Any, metrics_logger: Any = None,
                           **kwargs: Any) -> None:
            agents = list(episode.agent_episodes)
            mods = {a: episode.module_for(a) for a in agents}
            if RANDOM not in mods.values() or metrics_logger is None:
                return
            mine = [a for a in agents if mods[a] == LEARNER]
            score = sum(episode.agent_episodes[a].get_return() for a in mine) / max(len(mine), 1)
            metrics_logger.log_value("win_vs_random", float(score > 0), reduce="mean",
                                     window=200)

    return ArenaCallbacks





def ppo_config(cfg: TrainConfig, sides: list[str] | None = None) -> Any:
    """The ``PPOConfig`` of ``cfg`` (multi-agent, masked MLP modules, self-play mapping)."""
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    from envs import make_env

    from .module import MaskedMLPModule

    register_env(ENV_NAME, make_arena_env)
    if sides is None:
        probe = make_env(cfg.system, cfg.encounter, wrapped=False, rules=cfg.rules)
        sides = sorted({side_of(a) for a in probe.possible_agents})
    model = {"hidden": list(cfg.net_arch), "activation": cfg.activation}
    modules = {LEARNER: RLModuleSpec(module_class=MaskedMLPModule, model_config=model)}
    if cfg.opponents.get("random", 0) > 0:
        modules[RANDOM] = RLModuleSpec(module_class=MaskedMLPModule,
                                       model_config={**model, "hidden": [8], "uniform": True})
    torch.set_num_threads(cfg.torch_threads)
    workers = cfg.workers
    envs_each = cfg.n_envs // max(workers, 1)
    return (
        PPOConfig()
        .environment(ENV_NAME, disable_env_checking=True, env_config={
            "system": cfg.system, "encounter": cfg.encounter, "rules": cfg.rules,
            "draw_reward": cfg.draw_reward, "shaping": cfg.shaping,
        })
        .framework("torch")
        .env_runners(
            num_env_runners=workers,
            num_envs_per_env_runner=envs_each,
            num_cpus_per_env_runner=1,
            rollout_fragment_length=cfg.n_steps,
            gym_env_vectorize_mode="sync",
        )
        .resources(num_cpus_for_main_process=0 if workers >= LOCAL_CPUS else 1)
        .learners(num_learners=0)
        .multi_agent(
            policies=set(modules),
            policy_mapping_fn=mapping_fn(dict(cfg.opponents), sides),
            policies_to_train=[LEARNER],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
        .training(
            lr=cfg.learning_rate,
            gamma=cfg.gamma,
            lambda_=cfg.gae_lambda,
            clip_param=cfg.clip_range,
            entropy_coeff=cfg.ent_coef,
            vf_loss_coeff=cfg.vf_coef,
            grad_clip=cfg.max_grad_norm,
            grad_clip_by="global_norm",
            use_kl_loss=False,
            train_batch_size_per_learner=cfg.n_steps * cfg.n_envs,
            minibatch_size=cfg.batch_size,
            num_epochs=cfg.n_epochs,
        )
        .callbacks(_callbacks_class())
        .reporting(metrics_num_episodes_for_smoothing=200)
        .debugging(seed=cfg.seed)
    )
