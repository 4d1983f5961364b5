"""``search``: Monte Carlo look-ahead over ``Encounter.clone()`` (DESIGN.md, "Agents").

For the deciding combatant, every legal action is tried on a clone of the fight and played out to
the end by a rollout policy (the system's heuristic by default, or a trained policy) on both sides,
with sampled dice. An action's value is the share of its rollouts that its side wins (a draw counts
half), with a 95% interval (Wilson's; for value-scored rollouts the normal interval of the mean).

Budget and allocation: a number of rollouts or of seconds. Rollouts are spent in rounds of
successive halving: every candidate gets a batch, the weaker half is set aside, and the survivors
(never fewer than ``keep``) get the next, larger batch, so the budget goes to telling the best moves
apart. Each round ranks every candidate again, so one set aside early returns when the leaders'
estimates fall below its own. With a ``precision`` (``arena suggest``), the rounds after the first
give each batch to the top ``keep`` rows still wider than it, with a few rollouts for the rows below
whose intervals reach theirs (LUCB's top-k identification), and stop once the top rows are that
precise. Rollouts run on one process per core (``agents.rollouts``), and with
the system's value estimate (``agents.value``) a rollout still going at the actor's next turn is
scored there instead of played to the end. Rollouts are reused across candidates through common
random numbers: rollout ``i`` of every candidate rolls its dice from the same seed, so the
candidates are compared on the same luck and the differences between them are far less noisy than
the win rates themselves.

Search reads the whole state (it acts for the GM, who knows everything) and never mutates it. The
same seed gives the same statistics, and ``evaluate`` also reports what happened before the actor's
next turn (harm dealt and taken, who was taken out), from which ``reason`` builds a one-line why.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.core import Action
from envs.core.stats import wilson

from .explain import MIN_SHARED, collapse, reason
from .rollouts import Job, Rollout, WorkerPool, can_fork, default_workers, run_batch

__all__ = ["SearchAgent", "Candidate", "reason", "collapse", "NORMAL_FROM", "MIN_SHARED"]

NORMAL_FROM = 30
"""rollouts from which value-scored results get the normal interval of their mean"""
BATCH = 32
"""rollouts a batch of the precision phase fills up to with challengers (``SearchAgent._focus``)"""


@dataclass
class Candidate:
    """One legal action and what its rollouts showed."""

    action: Action
    index: int | None = None
    """its action index in the system's env (``None`` if the system has no encoding)"""
    n: int = 0
    score: float = 0.0
    """wins + draws / 2 of the actor's side"""
    dealt: float = 0.0
    """summed harm to enemies before the actor's next turn (over all rollouts)"""
    taken: float = 0.0
    """summed harm to the actor's side before its next turn"""
    out: dict[str, int] = field(default_factory=dict)
    """combatant -> rollouts in which it was taken out before the actor's next turn"""
    rounds: float = 0.0
    """summed rounds until the end of the fight"""
    stage: int = 0
    """the last round of successive halving it took part in (the ranking puts the last round's
    candidates first)"""
    results: list[float] = field(default_factory=list)
    """rollout ``i``'s result (1 win, 0.5 draw, 0 loss); rollout ``i`` of every candidate shares
    its dice"""
    prior_best: bool = False
    """the rollout policy's own choice (never dropped; ``choose`` leaves it only for a clearly
    better move)"""
    policy_prob: float | None = None
    signatures: list[int] = field(default_factory=list)
    """rollout ``i``'s signature (``agents.rollouts``): equal lists, the same effect"""

    def add(self, r: Rollout) -> None:
        """Count one rollout of this candidate."""
        self.n += 1
        self.score += r.result
        self.results.append(r.result)
        self.signatures.append(r.signature)
        self.rounds += r.rounds
        for cid in r.outs:
            self.out[cid] = self.out.get(cid, 0) + 1
        self.dealt += r.dealt
        self.taken += r.taken

    @property
    def win_prob(self) -> float:
        return self.score / self.n if self.n else 0.0

    @property
    def value(self) -> float:
        """What the search ranks by: the win probability (the order ``arena suggest`` shows),
        exact ties broken by net harm before the next turn."""
        return self.win_prob + 1e-6 * (self.mean_dealt - self.mean_taken)

    @property
    def interval(self) -> tuple[float, float]:
        """95%: Wilson's for win / draw / loss results; for rollouts scored by a value estimate
        (results between 0 and 1), the normal interval of their mean from ``NORMAL_FROM``
        rollouts on (Wilson's before, and when they are all equal: a result in [0, 1] varies at
        most as a win/loss does)."""
        if self.n < NORMAL_FROM or all(r in (0.0, 0.5, 1.0) for r in self.results):
            return wilson(self.score, self.n)
        sd = float(np.std(self.results, ddof=1))
        if sd < 1e-9:  # the same estimate every time (no die rolled before the cut): no spread
            return wilson(self.score, self.n)  # to measure, so Wilson's bound, not a zero width
        mean = self.score / self.n
        half = 1.96 * sd / math.sqrt(self.n)
        return max(0.0, mean - half), min(1.0, mean + half)

    @property
    def mean_dealt(self) -> float:
        return self.dealt / self.n if self.n else 0.0

    @property
    def mean_taken(self) -> float:
        return self.taken / self.n if self.n else 0.0


class SearchAgent:
    """Monte Carlo look-ahead agent (see the module docstring).

    Args:
        seed: seeds the rollout dice and the rollout policy.
        rollouts: total rollouts per decision (the budget), or
        seconds: time per decision (used when ``rollouts`` is ``None``; default 0.2 s).
        rollout_policy: agent spec playing both sides in rollouts: ``heuristic`` or
            ``trained:PATH``.
        system: the system (needed to build the rollout policy; taken from the encounter if
            omitted).
        keep: how many candidates successive halving never drops below (the GM sees the top
            ``keep``).
        first_batch: rollouts per candidate in the first round of halving (fewer, down to 2,
            when more than 25 moves share the first 100 rollouts).
        width: if set, only the ``width`` moves the rollout policy ranks highest are searched (the
            others keep ``n = 0``): a prior that spends a small budget where it can matter.
        margin: how many standard errors of the paired difference a move must beat the rollout
            policy's own choice by before ``choose`` prefers it.
        workers: processes playing rollouts (default: one per core; forked, so only where
            ``fork`` exists; a budget under 64 rollouts or 0.3 s stays on one).
        precision: stop early once the top ``keep`` moves' 95% half-widths are all at most this.
        value: ``"auto"`` (the system's shipped value estimate, ``agents.value``, where its
            sidecar says ``play: true``: it was measured to play at least as well as rollouts to
            the end), ``"shipped"`` (the shipped estimate wherever there is one: ``arena
            suggest``, for its speed), ``None`` (every rollout to the end) or a
            ``value(enc, side)`` callable.
        horizon: with a value estimate, the rounds a rollout plays past the start of the actor's
            next turn before the estimate scores it (0: it is cut there).
    """

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        rollouts: int | None = None,
        seconds: float | None = None,
        rollout_policy: str = "heuristic",
        system: str | None = None,
        keep: int = 1,
        first_batch: int = 4,
        width: int | None = None,
        margin: float = 1.0,
        workers: int | None = None,
        precision: float | None = None,
        value: Any = "auto",
        horizon: int = 0,
    ) -> None:
        if rollouts is not None and rollouts < 1:
            raise ValueError(f"search: rollouts must be >= 1, got {rollouts}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"search: seconds must be > 0, got {seconds}")
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.rollouts = rollouts
        self.seconds = 0.2 if rollouts is None and seconds is None else seconds
        self.rollout_spec = rollout_policy
        self.keep = max(1, keep)
        self.first_batch = max(1, first_batch)
        self.width = width
        self.margin = margin
        self.workers = default_workers() if workers is None else max(1, workers)
        self.precision = precision
        self.value_spec = value
        self.horizon = horizon
        self._values: dict[str, Any] = {}
        self._policies: dict[str, Any] = {}
        if (
            system is not None
        ):  # load the rollout policy and the encoding now, not in the first decision
            from envs import get_encoding

            self._policy(system)
            get_encoding(system)
            self.value_model(system)

    def _policy(self, system: str) -> Any:
        policy = self._policies.get(system)
        if policy is None:
            from . import make_agent

            if self.rollout_spec not in (
                "heuristic",
                "random",
                "trained",
            ) and not self.rollout_spec.startswith("trained:"):
                raise ValueError(
                    f"search: rollout policy {self.rollout_spec!r} must be heuristic, random, "
                    "trained (the shipped policy) or trained:PATH"
                )
            policy = self._policies[system] = make_agent(
                self.rollout_spec, system, int(self.rng.integers(2**31))
            )
        return policy

    def value_model(self, system: str) -> Any:
        """The value estimate that scores cut-short rollouts, or ``None`` (see ``value``)."""
        if self.value_spec not in ("auto", "shipped"):
            return self.value_spec
        if system not in self._values:
            from .value import load_value

            model = load_value(system)
            if model is not None and self.value_spec == "auto" and not model.meta.get("play"):
                model = None  # measured weaker in play than rollouts to the end (its sidecar)
            self._values[system] = model
        return self._values[system]

    # ------------------------------------------------------------------ look-ahead

    def evaluate(
        self, enc: Any, on_progress: Callable[[int], None] | None = None
    ) -> list[Candidate]:
        """Every legal action of the current actor with its rollout statistics, best first."""
        from envs import get_encoding

        actor = enc.current_actor()
        side = enc.side_of(actor)
        legal = enc.legal_actions()
        try:
            encoding = get_encoding(enc.system)
            index = [encoding.encode_action(enc, actor, a) for a in legal]
        except Exception:  # noqa: BLE001 - a system without an encoding still gets suggestions
            index = [None] * len(legal)
        cands = [Candidate(a, i) for a, i in zip(legal, index, strict=True)]
        if len(cands) == 1 and self.keep == 1:
            return cands
        start = time.perf_counter()
        deadline = (
            None
            if self.seconds is None or self.rollouts is not None
            else start + self.seconds - 0.01
        )
        policy = self._policy(enc.system)
        base = int(self.rng.integers(2**31))
        alive = list(range(len(cands)))
        if hasattr(policy, "rank"):
            prior = policy.rank(enc, actor, legal)
            order = sorted(alive, key=lambda i: -prior[i])
            cands[order[0]].prior_best = True
            if self.width is not None:
                alive = order[: self.width]
        harm0 = enc.harm() if hasattr(enc, "harm") else None
        job = Job(enc, tuple(legal), policy, actor, side, harm0, self.value_model(enc.system),
                  self.horizon)
        workers = self.workers if can_fork() else 1
        if workers > 1 and (self.rollouts or 0) < 64 and (self.seconds or 0) < 0.3:
            workers = 1  # a small budget: forking costs more than it buys
        pool = WorkerPool(job, workers) if workers > 1 else None
        try:
            self._halving(cands, alive, job, base, deadline, workers, pool, on_progress)
        finally:
            if pool is not None:
                pool.__exit__(None)
        return self._ranked(cands)

    def _halving(self, cands: list[Candidate], alive: list[int], job: Job, base: int,
                 deadline: float | None, workers: int, pool: Any,
                 on_progress: Callable[[int], None] | None) -> None:
        """Successive halving with re-ranking (see the module docstring) until the budget, the
        deadline, or (with ``precision``) the top ``keep`` moves' 95% half-widths are all at most
        ``precision``. Each round brings every candidate still in the race up to the round's
        rollout count (rollout ``i`` of every candidate on seed ``base + i``), then ranks all the
        searched candidates again and keeps the better half: a move set aside early comes back
        when the leaders' estimates fall below its own."""
        budget = self.rollouts
        searched = list(alive)
        # many moves: a smaller first batch (at least 2), so the budget reaches the leaders sooner
        batch = max(2, min(self.first_batch, 100 // max(1, len(alive))))
        target, stage, done = 0, 0, 0
        size = len(alive)
        while True:
            stage += 1
            target += batch
            while True:  # this round: bring the race's candidates up to ``target`` rollouts
                if stage > 1:
                    alive = self._race(cands, searched, size)
                work = [(c, base + r) for r in range(min(cands[c].n for c in alive), target)
                        for c in alive if r >= cands[c].n]
                if not work:
                    break
                if budget is not None:
                    work = work[: budget - done]
                part = work[: max(64, 4 * len(alive))]  # not by workers: the same stops anywhere
                for c in alive:
                    cands[c].stage = stage
                results = run_batch(job, part, workers, deadline, pool)
                for r in results:
                    cands[r.cand].add(r)
                done += len(results)
                if on_progress is not None:
                    on_progress(done)
                if len(results) < len(part) or self._precise(cands):
                    return
                if budget is not None and done >= budget:
                    return
            if self.precision is not None:  # every move screened: now the rows the GM reads
                self._focus(cands, searched, job, base, deadline, workers, pool, on_progress,
                            done)
                return
            size = max(self.keep, math.ceil(size / 2))
            batch *= 2

    def _focus(self, cands: list[Candidate], searched: list[int], job: Job, base: int,
               deadline: float | None, workers: int, pool: Any,
               on_progress: Callable[[int], None] | None, done: int) -> None:
        """With a ``precision``, after the first round: each batch goes to the top ``keep`` rows
        (one per effect, by estimate) still wider than ``precision``, each given about the
        rollouts its spread says it lacks, plus the best-placed challenger (the row below them
        whose interval reaches highest above the lowest of theirs, as in LUCB's top-k
        identification, 4 rollouts each, more of them while the batch is under ``BATCH``) so that a
        move screened on a few rollouts can still climb. Ranked again
        after every batch, until the top rows are precise, the budget or the deadline."""
        budget, precision = self.rollouts, self.precision or 0.05
        number = {id(cands[c]): c for c in searched}
        while True:
            heads = [g[0] for g in collapse([cands[c] for c in searched if cands[c].n])]
            ranked = sorted(heads, key=lambda c: (-c.win_prob, -c.n))
            top = ranked[: self.keep]
            wide = [c for c in top if (c.interval[1] - c.interval[0]) / 2 > precision]
            if not wide:
                return
            floor = min(c.interval[0] for c in top)
            rest = [c for c in ranked[self.keep:] if c.interval[1] > floor]
            work = [(number[id(c)], base + r) for c in wide
                    for r in range(c.n, c.n + self._lacking(c))]
            rest.sort(key=lambda c: (-c.interval[1], c.n))
            for c in rest[: max(1, (BATCH - len(work)) // 4)]:  # 4 each: enough to lower a
                wide.append(c)  # lucky estimate; batches of BATCH keep both workers busy
                work += [(number[id(c)], base + r) for r in range(c.n, c.n + 4)]
            if budget is not None:
                work = work[: budget - done]
            if not work:
                return
            results = run_batch(job, work, workers, deadline, pool)
            for r in results:
                cands[r.cand].add(r)
            done += len(results)
            if on_progress is not None:
                on_progress(done)
            if len(results) < len(work) or (budget is not None and done >= budget):
                return

    def _lacking(self, c: Candidate) -> int:
        """Rollouts a row needs for ``precision`` by its spread so far (at least 4, at most 16 a
        batch; up to ``NORMAL_FROM`` first, where its interval stops being Wilson's)."""
        if c.n < NORMAL_FROM:
            return max(4, min(16, NORMAL_FROM - c.n))
        sd = float(np.std(c.results, ddof=1)) or 0.5
        need = math.ceil((1.96 * sd / (self.precision or 0.05)) ** 2) - c.n
        return max(4, min(16, need))

    def _race(self, cands: list[Candidate], searched: list[int], size: int) -> list[int]:
        """The ``size`` best candidates by estimate, one per effect (variants whose rollouts were
        the same drop out), plus the rollout policy's own choice when ``keep`` is 1. Ranked
        again after every batch, so a move set aside comes back once the leaders fall below it."""
        heads = {id(g[0]) for g in collapse([cands[c] for c in searched])}
        ranking = sorted((c for c in searched if id(cands[c]) in heads),
                         key=lambda c: (-cands[c].value, not cands[c].prior_best))
        return ranking[:size] + [
            c for c in ranking[size:] if cands[c].prior_best and self.keep == 1
        ]

    def _precise(self, cands: list[Candidate]) -> bool:
        """``precision`` is met: the ``keep`` moves of best estimate (as ``arena suggest`` shows
        them) each have a 95% half-width at most it."""
        if self.precision is None:
            return False
        heads = [g[0] for g in collapse([c for c in cands if c.n])]  # a row per effect
        top = sorted(heads, key=lambda c: (-c.win_prob, -c.n))[: self.keep]
        return len(top) == self.keep and all(
            (c.interval[1] - c.interval[0]) / 2 <= self.precision for c in top
        )

    @staticmethod
    def _ranked(cands: list[Candidate]) -> list[Candidate]:
        return sorted(cands, key=lambda c: (-c.stage, c.n == 0, -c.value, -c.n))

    # ------------------------------------------------------------------ agent interface

    def choose(self, enc: Any) -> Action:
        """The best move found, or the rollout policy's own choice unless another is clearly better.

        "Clearly": on the rollouts both moves played with the same dice, the mean paired difference
        is more than ``margin`` standard errors above zero. A small budget then falls back on the
        rollout policy instead of on noise.
        """
        legal = enc.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ranked = self.evaluate(enc)
        best = ranked[0]
        prior = next((c for c in ranked if c.prior_best), None)
        if prior is None or prior is best:
            return best.action
        m = min(best.n, prior.n)
        if m >= 8:
            d = np.asarray(best.results[:m]) - np.asarray(prior.results[:m])
            se = d.std(ddof=1) / math.sqrt(m)
            if d.mean() > self.margin * se and d.mean() > 0:
                return best.action
        return prior.action

    def scores(self, observation: np.ndarray, mask: np.ndarray, encounter: Any) -> np.ndarray:
        """Estimated win probability per action index (``-inf`` off the mask)."""
        out = np.full(len(mask), -np.inf)
        for c in self.evaluate(encounter):
            if c.index is not None:
                out[c.index] = c.win_prob
        return out
