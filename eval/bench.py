"""``arena bench``: speed of every registered system next to PettingZoo classic envs, same run.

Machines are shared and noisy, so the numbers that matter are the ratios against
``connect_four_v3`` measured in the same process, with the same loop: masked uniform-random play
through ``agent_iter``/``last``/``step``, raw envs and wrapped envs. Each system env is timed in
alternating slices with connect_four (``paired_steps_per_second``), so a change in the machine's
load while it runs hits both sides of the ratio alike.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np


def _timed(fn: Callable[[], int], seconds: float) -> float:
    """Calls ``fn`` (which returns a count) until ``seconds`` pass; returns counts per second."""
    count, t0 = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        count += fn()
    return count / elapsed


class _RandomPlay:
    """Masked uniform-random play of whole episodes of one env (the loop of the module
    docstring)."""

    def __init__(self, make: Callable[[], Any], seed: int = 0) -> None:
        self.env = make()
        self.rng = np.random.default_rng(seed)
        self.episode = seed

    def one_episode(self) -> int:
        """Play one episode; returns the number of ``step`` calls."""
        env, rng = self.env, self.rng
        env.reset(seed=self.episode)
        self.episode += 1
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


def env_steps_per_second(make: Callable[[], Any], seconds: float, seed: int = 0) -> float:
    """Masked random play with the standard AEC loop; counts ``step`` calls."""
    return _timed(_RandomPlay(make, seed).one_episode, seconds)


def paired_steps_per_second(
    make_base: Callable[[], Any],
    make_env: Callable[[], Any],
    seconds: float,
    seed: int = 0,
    slice_s: float = 0.05,
) -> tuple[float, float]:
    """Steps/s of a baseline env and of another, timed in alternating slices of whole episodes
    (about ``slice_s`` each) for ``seconds`` in all; returns ``(baseline, env)``. Read their ratio:
    a change of machine load during the run slows both alike."""
    plays = (_RandomPlay(make_base, seed), _RandomPlay(make_env, seed))
    steps, spent = [0, 0], [0.0, 0.0]
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or 0 in steps:
        for k, play in enumerate(plays):
            t0 = time.perf_counter()
            while (elapsed := time.perf_counter() - t0) < slice_s:
                steps[k] += play.one_episode()
            spent[k] += elapsed
    return steps[0] / spent[0], steps[1] / spent[1]


def engine_decisions_per_second(
    system: str, encounter: str, seconds: float, seed: int = 0
) -> float:
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
    states: list[Any] = []
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


def run_bench(
    seconds: float = 2.0,
    out: Callable[[str], None] = print,
    systems: list[str] | None = None,
    encounters: list[str] | None = None,
) -> dict[str, float]:
    """Measure and print; returns the numbers by name. ``systems`` / ``encounters`` limit the run
    (default: every registered system and all its encounters)."""
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
    out(
        "  each env below is timed in turns with connect_four_v3 "
        "(raw with raw, wrapped with wrapped);"
    )
    out("  the ratio compares the two, measured side by side")
    from envs.rl import toy

    base_raw, raw = paired_steps_per_second(connect_four_v3.raw_env, toy.raw_env, seconds)
    results.update(toy_env_raw=raw, toy_vs_connect_four_raw=raw / base_raw)
    out(
        "\n  the generic env on a toy game (envs.rl.toy: next to no rules, a 15-float observation),"
    )
    out(
        f"  what the env plumbing costs: raw {raw:,.0f} steps/s = "
        f"{raw / base_raw:4.2f}x connect_four raw"
    )
    for system in systems or SYSTEMS:
        rules = get_rules(system)
        module = get_env_module(system)
        out(f"\n  {system}")
        for encounter in rules.encounter_names():
            if encounters and encounter not in encounters:
                continue
            dec = engine_decisions_per_second(system, encounter, seconds / 2)
            clo = clones_per_second(system, encounter, seconds / 2)
            base_raw, raw = paired_steps_per_second(
                connect_four_v3.raw_env,
                partial(module.raw_env, encounter=encounter),
                seconds,
            )
            base, wrapped = paired_steps_per_second(
                connect_four_v3.env, partial(module.env, encounter=encounter), seconds)
            key = f"{system}/{encounter}"
            results.update(
                {
                    f"{key}/decisions": dec,
                    f"{key}/clones": clo,
                    f"{key}/env_raw": raw,
                    f"{key}/env": wrapped,
                    f"{key}/vs_connect_four_raw": raw / base_raw,
                    f"{key}/vs_connect_four": wrapped / base,
                }
            )
            out(f"    {encounter:<20} engine {dec:>9,.0f} decisions/s   clone {clo:>9,.0f}/s")
            out(
                f"    {'':<20} env raw {raw:>8,.0f} steps/s = "
                f"{raw / base_raw:4.2f}x connect_four raw "
                f"({base_raw:,.0f} steps/s alongside)"
            )
            out(
                f"    {'':<20} env     {wrapped:>8,.0f} steps/s = "
                f"{wrapped / base:4.2f}x connect_four wrapped "
                f"({base:,.0f} steps/s alongside)"
            )
    return results
