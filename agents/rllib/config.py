"""What ``--backend rllib`` reads from a ``TrainConfig`` (agents.train_config), and its checks.

The RLlib backend reuses the training config's keys; no key is new. How they map:

==================  ==========================================================================
key                 RLlib
==================  ==========================================================================
total_timesteps     env steps to sample (one step = one decision of any agent, both sides)
n_envs, workers     ``workers`` env runners (``num_env_runners``), ``n_envs / workers`` envs each;
                    ``workers: 0`` samples in the driver process (quick runs, tests)
n_steps             rollout per env between updates: ``train_batch_size = n_steps * n_envs``
batch_size          ``minibatch_size``;  ``n_epochs``: ``num_epochs``
learning_rate ...   ``lr``, ``gamma``, ``lambda_`` (gae_lambda), ``clip_param`` (clip_range),
                    ``entropy_coeff`` (ent_coef), ``vf_loss_coeff``, ``grad_clip`` (global norm)
net_arch            hidden sizes of both MLPs (``MaskedMLPModule``); ``activation`` likewise
opponents           ``self`` (both sides are the learned policy) and ``random`` only; ``self``
                    alone is allowed (the SB3 backend needs a fixed opponent besides it)
eval_*, best_of     the same periodic evaluation as the SB3 backend (agents.training_callback)
checkpoint_every    env steps between RLlib checkpoints (``checkpoints/step_N``)
torch_threads       torch threads of the learner (the driver process)
==================  ==========================================================================

Keys the RLlib backend cannot honour are refused with one line naming the key (exit status 2):
``imitation_games`` must be 0, ``opponents`` may name only ``self`` and ``random``, and ``n_envs``
must split evenly over ``workers``. ``vec_env``, ``share_side``, ``snapshot_every`` and
``snapshot_keep`` do not apply (RLlib runs its own env runners; every agent of a side maps to the
same module; self-play is against the current policy, not frozen snapshots).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agents.config import load_config as read_config
from agents.train_config import TrainConfig, check_config

__all__ = ["check_rllib", "load_rllib_config", "RLLIB_OPPONENTS"]

RLLIB_OPPONENTS = ("self", "random")


def check_rllib(cfg: TrainConfig, source: str) -> None:
    """Refuse what the RLlib backend cannot do (``ValueError``, one line naming the key)."""

    def bad(key: str, why: str) -> ValueError:
        return ValueError(f"{source}: key {key!r}: {why} (backend rllib)")

    if cfg.imitation_games:
        raise bad("imitation_games", f"must be 0, got {cfg.imitation_games}; "
                  "imitation pre-training is only in the sb3 backend")
    others = [name for name in cfg.opponents if name not in RLLIB_OPPONENTS]
    if others:
        raise bad("opponents", f"{others[0]!r} is not one of {', '.join(RLLIB_OPPONENTS)}")
    if sum(cfg.opponents.values()) <= 0:
        raise bad("opponents", "needs a positive weight")
    if cfg.workers < 0:
        raise bad("workers", f"must be >= 0, got {cfg.workers}")
    if cfg.workers and cfg.n_envs % cfg.workers:
        raise bad("n_envs", f"{cfg.n_envs} does not split evenly over workers={cfg.workers}")


def load_rllib_config(path: str | None, overrides: Sequence[str] = ()) -> TrainConfig:
    """Read and check a training config for the RLlib backend.

    The shared checks (``check_config``) run on the config with the two keys whose meaning differs
    here set to values they accept (``opponents``: ``self`` alone is fine here; ``workers``: 0 is
    fine here), then ``check_rllib`` checks those two and what RLlib cannot do.

    Raises:
        DataError, ValueError: one line naming the file (or the command line) and the key.
    """
    cfg, source = read_config(TrainConfig, path, overrides)
    check_config(dataclasses.replace(cfg, opponents={"random": 1.0}, workers=1), source)
    check_rllib(cfg, source)
    return cfg
