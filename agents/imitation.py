"""Imitation warm start: pre-train a MaskablePPO policy on an agent's decisions before self-play.

Reinforcement learning from scratch spends most of a short budget rediscovering what a scripted
agent already knows. ``record_decisions`` plays rules-level games in which the imitated agent (the
heuristic, by default) plays one side against itself and against random, and keeps each of its
decisions as ``(observation, mask, action index, outcome)`` through the system's encoding, so it
works for every registered system. ``pretrain`` then fits the policy head by maximum likelihood on
the chosen actions (masked) and the value head on the outcomes (+1 win, -1 loss, ``draw_reward``).
PPO then starts from a policy that plays like the teacher and improves on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from envs import get_encoding, get_rules
from envs.core import SeededDice
from envs.rl import legal_index_map

from . import make_agent

__all__ = ["record_decisions", "pretrain"]


def record_decisions(
    system: str,
    encounter: str,
    rules: Any,
    teacher: str,
    games: int,
    seed: int = 0,
    draw_reward: float = 0.0,
    workers: int = 1,
) -> dict[str, np.ndarray]:
    """Play ``games`` fights and return the teacher's decisions.

    Even games are teacher against teacher (both sides recorded), odd ones teacher against random
    (the teacher's side only), with the teacher's side alternating. Game ``g`` is seeded from
    ``seed + g`` wherever it is played, so ``workers`` processes (each a block of games, joined
    in game order) return exactly the data of one.

    Returns:
        ``{"obs": float32 (N, obs), "mask": bool (N, actions), "action": int64 (N,),
        "outcome": float32 (N,)}``
    """
    args = (system, encounter, rules, teacher, seed, draw_reward)
    workers = max(1, min(workers, games))
    if workers == 1:
        parts = [_record(*args, 0, games)]
    else:
        from concurrent.futures import ProcessPoolExecutor

        cuts = [games * i // workers for i in range(workers + 1)]
        with ProcessPoolExecutor(workers) as pool:
            futures = [pool.submit(_record, *args, cuts[i], cuts[i + 1]) for i in range(workers)]
            parts = [f.result() for f in futures]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _record(system: str, encounter: str, rules: Any, teacher: str, seed: int,
            draw_reward: float, first: int, stop: int) -> dict[str, np.ndarray]:
    """Games ``first`` to ``stop - 1`` of ``record_decisions``."""
    R = get_rules(system)
    enc_ = get_encoding(system)
    options = R.parse_options(rules)
    n_obs, n_actions = enc_.obs_spec.size, enc_.layout.size
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    who: list[str] = []
    outcomes: list[float] = []
    for g in range(first, stop):
        dice = SeededDice(seed + g)
        enc = R.new_encounter(encounter, options, dice)
        sides = [info.side for info in enc.sides()]
        mine = sides[g // 2 % 2]
        vs_random = g % 2 == 1
        agents = {
            s: make_agent(
                "random" if vs_random and s != mine else teacher, system, seed + 7 * g + i
            )
            for i, s in enumerate(sides)
        }
        start = len(actions)
        while not enc.is_over():
            actor = enc.current_actor()
            side = enc.side_of(actor)
            action = agents[side].choose(enc)
            if not vs_random or side == mine:
                legal = legal_index_map(enc_, enc, actor)
                mask = np.zeros(n_actions, dtype=bool)
                mask[list(legal)] = True
                obs.append(enc_.observe(enc, actor))
                masks.append(mask)
                actions.append(enc_.encode_action(enc, actor, action))
                who.append(side)
            enc.apply(action, dice)
        winner = enc.outcome().winner
        outcomes.extend(
            draw_reward if winner is None else (1.0 if s == winner else -1.0) for s in who[start:]
        )
    return {
        "obs": np.asarray(obs, dtype=np.float32).reshape(-1, n_obs),
        "mask": np.asarray(masks, dtype=bool).reshape(-1, n_actions),
        "action": np.asarray(actions, dtype=np.int64),
        "outcome": np.asarray(outcomes, dtype=np.float32),
    }


def pretrain(model: Any, cfg: Any, log: Callable[[str], None] = print) -> dict[str, float]:
    """Fit ``model``'s policy and value heads to ``cfg.imitation_agent``'s decisions.

    Args:
        model: a fresh ``MaskablePPO``.
        cfg: the training config (system, encounter, rules, seed, imitation_*, batch_size,
            draw_reward).
        log: progress messages.

    Returns:
        ``{"decisions": N, "accuracy": share of decisions where the policy's argmax is the
        teacher's}``.
    """
    import torch

    data = record_decisions(
        cfg.system,
        cfg.encounter,
        cfg.rules,
        cfg.imitation_agent,
        cfg.imitation_games,
        seed=cfg.seed + 50_000_000,
        draw_reward=cfg.draw_reward,
        workers=cfg.imitation_workers,
    )
    n = len(data["action"])
    log(f"imitation: {n} decisions of {cfg.imitation_agent} from {cfg.imitation_games} games")
    policy = model.policy
    policy.set_training_mode(True)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    obs = torch.as_tensor(data["obs"])
    masks = torch.as_tensor(data["mask"])
    acts = torch.as_tensor(data["action"])
    target = torch.as_tensor(data["outcome"])
    gen = torch.Generator().manual_seed(cfg.seed)
    for epoch in range(cfg.imitation_epochs):
        order = torch.randperm(n, generator=gen)
        total = 0.0
        for i in range(0, n, cfg.batch_size):
            idx = order[i : i + cfg.batch_size]
            values, log_prob, _ = policy.evaluate_actions(
                obs[idx], acts[idx], action_masks=masks[idx]
            )
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(
                values.flatten(), target[idx]
            )
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            total += loss.item() * len(idx)
        log(f"imitation: epoch {epoch + 1}/{cfg.imitation_epochs}, loss {total / n:.3f}")
    policy.set_training_mode(False)
    with torch.no_grad():
        dist = policy.get_distribution(obs, action_masks=masks.numpy())
        accuracy = float((dist.distribution.probs.argmax(dim=1) == acts).float().mean())
    log(
        f"imitation: the policy picks the {cfg.imitation_agent}'s action in {accuracy:.1%} "
        "of its decisions"
    )
    return {"decisions": float(n), "accuracy": accuracy}
