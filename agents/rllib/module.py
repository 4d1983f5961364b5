"""The RLlib module of ``--backend rllib``: two plain MLPs (policy, value) with action masking.

``MaskedMLPModule`` is a new-API-stack ``TorchRLModule`` for PPO. It reads the arena env's own
observation dict (``{"observation": float32 vector, "action_mask": int8 vector}``, DESIGN.md "The
environment") and sets the logits of every action off the mask to the smallest float32, so a
masked action is never sampled and carries no gradient (the masking idea of RLlib's
``ActionMaskingTorchRLModule`` example, on our key names).

Its layers are exactly the layout of a saved policy (``agents.trained``): ``pi`` is
``Linear -> act -> ... -> Linear(n_actions)``, ``vf`` the same ending in ``Linear(1)``, with no
shared encoder, so ``export_weights`` copies them to ``pi.<i>.*``/``vf.<i>.*`` one to one and
``MLPPolicy`` computes the same logits in numpy.

``model_config``: ``hidden`` (list of layer sizes), ``activation`` (``tanh`` or ``relu``) and
``uniform`` (true: the module ignores its weights and plays uniformly over the mask; the
``random`` opponent of the self-play pool, never trained).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule

__all__ = ["MaskedMLPModule", "export_weights", "MASKED"]

MASKED = float(torch.finfo(torch.float32).min)
"""The logit of an action off the mask (its probability is exactly 0)."""


def _mlp(sizes: list[int], activation: str) -> torch.nn.Sequential:
    act = torch.nn.Tanh if activation == "tanh" else torch.nn.ReLU
    layers: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(act())
    return torch.nn.Sequential(*layers)


class MaskedMLPModule(TorchRLModule, ValueFunctionAPI):
    """PPO policy and value MLPs over the arena observation, with action masking."""

    def setup(self) -> None:
        cfg: dict[str, Any] = dict(self.model_config or {})  # type: ignore[arg-type]
        hidden = [int(h) for h in cfg.get("hidden", [256, 256])]
        activation = str(cfg.get("activation", "tanh"))
        self.uniform = bool(cfg.get("uniform", False))
        obs_space: Any = self.observation_space
        act_space: Any = self.action_space
        obs_size = int(obs_space["observation"].shape[0])
        n_actions = int(act_space.n)
        self.pi = _mlp([obs_size, *hidden, n_actions], activation)
        self.vf = _mlp([obs_size, *hidden, 1], activation)
        linears = [m for m in (*self.pi, *self.vf) if isinstance(m, torch.nn.Linear)]
        for lin in linears:
            torch.nn.init.orthogonal_(lin.weight, 2**0.5)  # as SB3's PPO: small heads below
            torch.nn.init.zeros_(lin.bias)
        pi_out = [m for m in self.pi if isinstance(m, torch.nn.Linear)][-1]
        vf_out = [m for m in self.vf if isinstance(m, torch.nn.Linear)][-1]
        torch.nn.init.orthogonal_(pi_out.weight, 0.01)
        torch.nn.init.orthogonal_(vf_out.weight, 1.0)

    def _logits(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
        x = obs["observation"].float()
        mask = obs["action_mask"] != 0
        logits = torch.zeros_like(mask, dtype=x.dtype) if self.uniform else self.pi(x)
        return logits.masked_fill(~mask, MASKED)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch[Columns.OBS])}

    def compute_values(
        self, batch: dict[str, Any], embeddings: Any = None
    ) -> torch.Tensor:
        obs = batch[Columns.OBS]
        if self.uniform:
            return torch.zeros(obs["observation"].shape[:-1])
        return self.vf(obs["observation"].float()).squeeze(-1)


def export_weights(state: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """A module's state dict (``pi.<j>.weight`` with ``j`` the index in its ``Sequential``,
    activations in between) as ``pi.<i>``/``vf.<i>`` arrays numbered by linear layer (the
    ``agents.trained`` layout). Works on a module's ``state_dict()`` and on the learner's weights.
    """
    out: dict[str, np.ndarray] = {}
    for head in ("pi", "vf"):
        idx = sorted({int(k.split(".")[1]) for k in state if k.startswith(f"{head}.")})
        for i, j in enumerate(idx):
            for part in ("weight", "bias"):
                value = state[f"{head}.{j}.{part}"]
                if isinstance(value, torch.Tensor):
                    value = value.detach().cpu().numpy()
                out[f"{head}.{i}.{part}"] = np.array(value, dtype=np.float32)
    return out
