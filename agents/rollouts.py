"""One Monte Carlo rollout and batches of them, on this process or on worker processes.

``rollout(job, cand, seed)`` plays candidate action ``cand`` on a clone of the fight and then the
rollout policy on both sides to the end, with ``SeededDice(seed)``: rollout ``i`` of every
candidate rolls its dice from the same seed (common random numbers). It returns a ``Rollout``:
the result for the actor's side (1 win, 0.5 draw, 0 loss), the rounds, who was taken out and the
harm dealt and taken before the actor's next turn, and a **signature** of what happened: a hash of
every event's text after the candidate's own label and of the outcome. With a value estimate
(``agents.value``), a rollout still going when the actor's next turn starts (``horizon`` 0), or
``horizon`` rounds later, is cut there and scored by the estimate instead of its end; a rollout in
which no die has been rolled yet plays on until one has (a cut before any luck would give every
rollout of the move the same estimate, and no spread to measure its uncertainty by). Two
candidates whose rollouts have the same signatures had the same effect on the same luck
(``arena suggest`` collapses them).

``run_batch(job, work, workers, deadline)`` runs a list of ``(candidate, seed)`` in order, on
``workers`` forked processes when more than one (each takes a contiguous share of the list, so a
deadline leaves the counts even, and the answer for a rollout budget is the same as on one
process). Forked workers inherit the fight and the policy; nothing is pickled but the results.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.core import SeededDice
from envs.core.events import ActionTaken, OutOfFight, TurnStarted

__all__ = ["Job", "Rollout", "rollout", "run_batch", "can_fork"]


@dataclass(frozen=True)
class Job:
    """What every rollout of one decision shares."""

    enc: Any
    """the fight (read only; every rollout plays on its own clone)"""
    actions: tuple[Any, ...]
    """the candidate actions, by candidate number"""
    policy: Any
    """the rollout policy (``choose(enc)``), playing both sides"""
    actor: str
    side: str
    harm0: dict[str, float] | None
    """``enc.harm()`` at the decision, where the system reports harm"""
    value: Any = None
    """``value(enc, side) -> P(side wins)`` scoring a rollout cut short (``agents.value``)"""
    horizon: int = 0
    """with ``value``: rounds played past the start of the actor's next turn before a rollout is
    cut (0: cut right there)"""


@dataclass(frozen=True, slots=True)
class Rollout:
    cand: int
    result: float
    rounds: int
    outs: tuple[str, ...]
    dealt: float
    taken: float
    signature: int


class CountingDice(SeededDice):
    """``SeededDice`` that count the dice rolled (a rollout is cut only after some luck)."""

    def __init__(self, seed: object = None) -> None:
        super().__init__(seed)
        self.rolled = 0

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        self.rolled += count
        return super().roll(sides, count)


def rollout(job: Job, cand: int, seed: int) -> Rollout:
    """Play candidate ``cand`` then the rollout policy to the end (see the module docstring)."""
    sim = job.enc.clone()
    dice = CountingDice(seed)
    if hasattr(job.policy, "rng"):  # its tie-breaks too: the same on every process and order
        job.policy.rng = np.random.default_rng(seed)
    events = sim.apply(job.actions[cand], dice)
    sig = 0
    for e in events:
        if not isinstance(e, ActionTaken):  # the candidate's own label differs between variants
            sig = hash((sig, str(e)))
    window = True  # until the actor's next turn
    outs: list[str] = []
    harm_end: dict[str, float] | None = None
    policy, actor = job.policy, job.actor
    cut: int | None = None  # the round from which the rollout is cut (set at the window's end)
    while True:
        if window:
            for e in events:
                if isinstance(e, OutOfFight):
                    outs.append(e.combatant)
                elif isinstance(e, TurnStarted) and e.actor == actor:
                    window = False
            if not window or sim.is_over():
                window = False
                harm_end = sim.harm() if job.harm0 is not None else None
                if job.value is not None:
                    cut = sim.round + job.horizon
        if sim.is_over():
            break
        if cut is not None and sim.round >= cut and dice.rolled:  # luck seen: the estimate scores
            result = job.value(sim, job.side)  # cut short: the value estimate scores it
            break
        events = sim.apply(policy.choose(sim), dice)
        for e in events:
            sig = hash((sig, str(e)))
    outcome = sim.outcome()
    if outcome is not None:
        result = 0.5 if outcome.winner is None else float(outcome.winner == job.side)
    dealt = taken = 0.0
    if job.harm0 is not None and harm_end is not None:
        for cid, h in harm_end.items():
            delta = h - job.harm0.get(cid, 0.0)
            if sim.side_of(cid) == job.side:
                taken += delta
            else:
                dealt += delta
    if outcome is not None:
        sig = hash((sig, outcome.winner, outcome.round, outcome.reason))
    rounds = outcome.round if outcome is not None else sim.round
    return Rollout(cand, result, rounds, tuple(dict.fromkeys(outs)), dealt, taken, sig)


def can_fork() -> bool:
    """Worker processes are forked (they inherit the fight): only where ``fork`` exists, and not
    from a pool's own (daemonic) worker, which may not have children (a tournament's games)."""
    if multiprocessing.current_process().daemon:
        return False
    return "fork" in multiprocessing.get_all_start_methods()


_JOB: Job | None = None
"""the job a forked worker inherits"""


def _run_share(args: tuple[Sequence[tuple[int, int]], float | None]) -> list[Rollout]:
    work, deadline = args
    assert _JOB is not None
    return _run(_JOB, work, deadline)


def _run(job: Job, work: Sequence[tuple[int, int]], deadline: float | None) -> list[Rollout]:
    out: list[Rollout] = []
    start = time.perf_counter()
    for cand, seed in work:
        if deadline is not None:  # stop when the next rollout would likely overrun
            now = time.perf_counter()
            if out and now + (now - start) / len(out) >= deadline:
                break
        out.append(rollout(job, cand, seed))
    return out


def _init_worker() -> None:
    torch = sys.modules.get("torch")  # only where a trained rollout policy loaded it
    if torch is not None:  # small MLPs: one thread per worker process
        torch.set_num_threads(1)


def run_batch(
    job: Job,
    work: Sequence[tuple[int, int]],
    workers: int = 1,
    deadline: float | None = None,
    pool: Any = None,
) -> list[Rollout]:
    """The rollouts of ``work`` (``(candidate, seed)`` pairs), in ``work`` order, each share cut
    short at ``deadline`` (``time.perf_counter()`` seconds). ``pool``: a ``WorkerPool`` made for
    this job (else one process)."""
    if pool is None or workers <= 1 or len(work) < 2 * workers:
        return _run(job, work, deadline)
    shares = [work[i::workers] for i in range(workers)]  # interleaved: counts stay even
    parts = pool.map(_run_share, [(share, deadline) for share in shares])
    out: list[Rollout] = []
    for i in range(max(len(p) for p in parts)):  # back to work order
        out.extend(p[i] for p in parts if i < len(p))
    return out


class WorkerPool:
    """``workers`` forked processes that hold ``job`` (``with WorkerPool(job, 2) as pool``)."""

    def __init__(self, job: Job, workers: int) -> None:
        global _JOB
        _JOB = job
        ctx = multiprocessing.get_context("fork")
        self._pool = ctx.Pool(workers, initializer=_init_worker)

    def map(self, fn: Any, items: list[Any]) -> list[Any]:
        return self._pool.map(fn, items, chunksize=1)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        global _JOB
        self._pool.terminate()
        self._pool.join()
        _JOB = None


def default_workers() -> int:
    """One worker per core (``os.cpu_count()``), at most 8."""
    return max(1, min(8, os.cpu_count() or 1))
