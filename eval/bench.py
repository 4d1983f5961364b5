"""``arena bench``: speed of every registered system next to PettingZoo classic envs, same run.

Machines are shared and noisy, so the numbers that matter are the ratios against
``connect_four_v3`` and ``tictactoe_v3`` measured in the same process, with the same loop:
masked uniform-random play through ``agent_iter``/``last``/``step``, raw envs and wrapped envs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def _timed(fn: Callable[[], int], seconds: float) -> float:
    """Calls ``fn`` (which returns a count) until ``seconds`` pass; returns counts per second."""
    count, t0 = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        count += fn()
    return count / elapsed


def env_steps_per_second(make: Callable[[], Any], seconds: float, seed: int = 0) -> float:
    """Masked random play with the standard AEC loop; counts ``step`` calls."""
    env = make()
    rng = np.random.default_rng(seed)
    episode = [seed]

    def one_episode() -> int:
        env.reset(seed=episode[0])
        episode[0] += 1
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            steps += 1
        return steps

    return _timed(one_episode, seconds)


def engine_decisions_per_second(system: str, encounter: str, seconds: float, seed: int = 0) -> float:
    from envs import get_rules
    from envs.core import SeededDice

    rules = get_rules(system)
    dice = SeededDice(seed)
    rng = np.random.default_rng(seed)

    def one_fight() -> int:
        enc = rules.new_encounter(encounter, None, dice)
        n = 0
        while not enc.is_over():
            legal = enc.legal_actions()
            enc.apply(legal[int(rng.integers(len(legal)))], dice)
            n += 1
        return n

    return _timed(one_fight, seconds)


def clones_per_second(system: str, encounter: str, seconds: float, seed: int = 0) -> float:
    """clone() of mid-fight states (about ten decisions in)."""
    from envs import get_rules
    from envs.core import SeededDice

    rules = get_rules(system)
    dice = SeededDice(seed)
    rng = np.random.default_rng(seed)
    states = []
    while len(states) < 20:
        enc = rules.new_encounter(encounter, None, dice)
        for _ in range(10):
            if enc.is_over():
                break
            legal = enc.legal_actions()
            enc.apply(legal[int(rng.integers(len(legal)))], dice)
        if not enc.is_over():
            states.append(enc)

    def batch() -> int:
        for s in states:
            s.clone()
        return len(states)

    return _timed(batch, seconds)


def run_bench(seconds: float = 2.0, out: Callable[[str], None] = print) -> dict[str, float]:
    """Measure and print; returns the numbers by name."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from pettingzoo.classic import connect_four_v3, tictactoe_v3

    from envs import SYSTEMS, get_env_module, get_rules

    results: dict[str, float] = {}
    out(f"arena bench: {seconds:g} s per measurement, masked uniform-random play, one process")
    c4_raw = env_steps_per_second(connect_four_v3.raw_env, seconds)
    c4 = env_steps_per_second(connect_four_v3.env, seconds)
    ttt_raw = env_steps_per_second(tictactoe_v3.raw_env, seconds)
    ttt = env_steps_per_second(tictactoe_v3.env, seconds)
    results.update(connect_four_raw=c4_raw, connect_four=c4, tictactoe_raw=ttt_raw, tictactoe=ttt)
    out(f"  {'baseline':<34}{'raw steps/s':>14}{'wrapped steps/s':>18}")
    out(f"  {'pettingzoo connect_four_v3':<34}{c4_raw:>14,.0f}{c4:>18,.0f}")
    out(f"  {'pettingzoo tictactoe_v3':<34}{ttt_raw:>14,.0f}{ttt:>18,.0f}")
    for system in SYSTEMS:
        rules = get_rules(system)
        module = get_env_module(system)
        out(f"\n  {system}")
        for encounter in rules.encounter_names():
            dec = engine_decisions_per_second(system, encounter, seconds / 2)
            clo = clones_per_second(system, encounter, seconds / 2)
            raw = env_steps_per_second(lambda e=encounter, m=module: m.raw_env(encounter=e), seconds)
            wrapped = env_steps_per_second(lambda e=encounter, m=module: m.env(encounter=e), seconds)
            key = f"{system}/{encounter}"
            results.update({f"{key}/decisions": dec, f"{key}/clones": clo, f"{key}/env_raw": raw, f"{key}/env": wrapped})
            out(f"    {encounter:<20} engine {dec:>9,.0f} decisions/s   clone {clo:>9,.0f}/s")
            out(f"    {'':<20} env raw {raw:>8,.0f} steps/s = {raw / c4_raw:4.2f}x connect_four raw, "
                f"{raw / ttt_raw:4.2f}x tictactoe raw")
            out(f"    {'':<20} env     {wrapped:>8,.0f} steps/s = {wrapped / c4:4.2f}x connect_four, "
                f"{wrapped / ttt:4.2f}x tictactoe (both wrapped)")
    return results
