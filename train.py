"""Train an NPC policy with MaskablePPO self-play (DESIGN.md, "Training"; STYLE C16).

    python train.py configs/train/metanoia_duel.yaml [key=value ...] [--resume]
    arena train configs/train/metanoia_duel.yaml total_timesteps=50000

The script only; the training lives in ``agents.training`` (``main``, ``train``, ``evaluate``) and
the config in ``agents.train_config`` (``TrainConfig``, ``load_config``, ``latest_checkpoint``), so
that ``arena train``/``arena demo`` (``eval/cli.py``) share them without importing this file, and
this file imports nothing from ``eval/`` (one-way imports, DESIGN.md "Layers"). ``--help`` lists
the config keys; ``agents/training.py`` describes what a run writes.
"""

from __future__ import annotations

import sys

from agents.config import config_help
from agents.train_config import TrainConfig, latest_checkpoint, load_config
from agents.training import evaluate, main, train

__all__ = [
    "TrainConfig",
    "load_config",
    "latest_checkpoint",
    "config_help",
    "evaluate",
    "main",
    "train",
]

if __name__ == "__main__":
    sys.exit(main())
