"""The games of ``arena balance``: variants of a fight, played on common random numbers, on a
process pool or on Ray (``eval.backend``), recorded as they end (docs/balance.md).

A ``Variant`` is one way to play the fight: the baseline, an option banned for a combatant
(restricted play), a combatant left out, other rule options, another value of a field. Game ``i``
of every variant uses the seed ``base + i``: the same dice (``SeededDice(seed)``) and the same
agent seeds (side ``k``'s agent gets ``2 * seed + k``), so two variants differ only by what the
variant changes (common random numbers), and a variant's score is compared with the baseline's game
by game.

``Bench(out_dir, ...)`` plays what is missing: ``bench.play([(variant, n), ...])`` makes sure games
``0 .. n-1`` of each variant are in ``out_dir/games.jsonl`` (one JSON line per game, written and
flushed as the game ends). The file's lines carry the run's fingerprint (system, fight, agent);
rerunning the same command reads them and plays only the missing games. Ctrl-C or SIGTERM stops the
pool and keeps every finished game (``KeyboardInterrupt`` reaches the caller).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval.backend import Backend, run_jobs
from eval.fights import Fight

__all__ = ["Variant", "Bench", "play_variant_game", "fingerprint"]


@dataclass(frozen=True)
class Variant:
    """One way to play a fight (see the module docstring)."""

    key: str
    """unique in a run: ``base``, ``ban:<cid>:<option>``, ``loo:<cid>``, ``rule:<field>=<v>``"""
    fight: Fight
    options: Any = None
    """rule options (a name or a mapping; ``None``: the fight's own)"""
    banned: tuple[tuple[str, str], ...] = ()
    """``(combatant, option)`` pairs banned (restricted play)"""
    track: bool = False
    """also record the options each combatant had at its decisions"""
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """what the report shows of it (the combatant, option, field and value)"""


def fingerprint(system: str, fight: Fight, agent: str, options: Any) -> str:
    """What a run's records must match to be reused: the system, fight, agent and rules."""
    body = json.dumps([system, fight.record(), agent, options], sort_keys=True, default=str)
    return hashlib.sha1(body.encode()).hexdigest()[:16]


def play_variant_game(variant: Variant, seed: int, agent: str) -> dict[str, Any]:
    """Play game ``seed`` of ``variant`` and return its record line."""
    from agents import make_agent
    from agents.episode import play
    from eval.balance_options import RestrictedFight, Tracking, option_keys_for

    fight = variant.fight
    keys = option_keys_for(fight.system)
    banned: dict[str, set[str]] = {}
    for cid, option in variant.banned:
        banned.setdefault(cid, set()).add(option)
    start: Any = fight
    if banned:
        start = RestrictedFight(fight, {c: frozenset(o) for c, o in banned.items()}, keys)
    sides = fight.sides(variant.options)
    usage: dict[str, dict[str, int]] = {}
    seen: dict[str, set[str]] | None = {} if variant.track else None
    agents = {
        side: Tracking(make_agent(agent, fight.system, 2 * seed + k), keys, usage, seen)
        for k, side in enumerate(sides)
    }
    trackers = list(agents.values())
    rec = play(fight.system, start, agents, seed, options=variant.options)
    out: dict[str, Any] = {
        "variant": variant.key,
        "seed": seed,
        "winner": rec.winner,
        "reason": rec.reason,
        "rounds": rec.rounds,
        "sides": list(sides),
        "decisions": len(rec.actions),
        "usage": usage,
    }
    if seen is not None:
        out["seen"] = {cid: sorted(keys_) for cid, keys_ in seen.items()}
        out["alike"] = {cid: g for t in trackers for cid, g in t.alike().items()}
    if banned and isinstance(start, RestrictedFight) and start.built is not None:
        out["fallbacks"] = start.built.fallbacks
    return out


# ---------------------------------------------------------------------------------- games

RAY_BATCH = 16
"""the most games in one Ray task (docs/scaling.md)"""


def _play_job(agent: str, job: tuple[Variant, int]) -> dict[str, Any]:
    return play_variant_game(job[0], job[1], agent)


def _on_term(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


class Bench:
    """The record file of one run and the pool that fills it (see the module docstring)."""

    def __init__(self, out_dir: str | Path, fp: str, agent: str, *, seed: int = 0,
                 workers: int = 2, progress: bool = True, log: Any = None,
                 ray: str | None = None) -> None:
        self.out = Path(out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        self.path = self.out / "games.jsonl"
        self.fp = fp
        self.agent = agent
        self.seed = seed
        self.workers = workers
        self.backend = Backend(workers=workers, ray=ray)  # eval.backend
        self.progress = progress
        self.log = log or sys.stderr
        self.done: dict[tuple[str, int], dict[str, Any]] = {}
        self.reused = 0
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by a kill: that game is played again
                if isinstance(rec, dict) and rec.get("fp") == fp:
                    self.done[(rec["variant"], rec["seed"])] = rec
            self.reused = len(self.done)

    def games(self, key: str, n: int) -> list[dict[str, Any]]:
        """Games ``0 .. n-1`` of variant ``key`` (all must have been played)."""
        return [self.done[(key, self.seed + i)] for i in range(n)]

    def count(self, key: str) -> int:
        """How many games from the first on are recorded for ``key``, without a gap."""
        n = 0
        while (key, self.seed + n) in self.done:
            n += 1
        return n

    def play(self, wanted: list[tuple[Variant, int]], desc: str = "balance") -> int:
        """Play the missing games ``0 .. n-1`` of each ``(variant, n)``; returns how many were
        played."""
        todo = [(v, self.seed + i) for v, n in wanted for i in range(n)
                if (v.key, self.seed + i) not in self.done]
        if not todo:
            return 0
        bar = None
        if self.progress:
            from tqdm import tqdm

            bar = tqdm(total=len(todo), unit="game", desc=desc, dynamic_ncols=True, mininterval=1.0,
                       file=self.log)
        old = signal.getsignal(signal.SIGTERM)
        try:
            signal.signal(signal.SIGTERM, _on_term)
        except ValueError:  # not the main thread
            old = None
        try:
            with self.path.open("a", encoding="utf-8") as fh:
                for rec in self._run(todo):
                    rec["fp"] = self.fp
                    fh.write(json.dumps(rec) + "\n")
                    fh.flush()
                    self.done[(rec["variant"], rec["seed"])] = rec
                    if bar is not None:
                        bar.update()
                os.fsync(fh.fileno())
        finally:
            if bar is not None:
                bar.close()
            if old is not None:
                signal.signal(signal.SIGTERM, old)
        return len(todo)

    def _run(self, todo: list[tuple[Variant, int]]) -> Iterator[dict[str, Any]]:
        backend = self.backend
        if backend.ray is None and len(todo) < 8:
            backend = Backend(workers=1)
        # locally each game is its own task (recorded as it ends); on Ray, batches
        ray_batch = max(1, min(RAY_BATCH, len(todo) // (4 * backend.workers)))
        for _, rec in run_jobs(_play_job, self.agent, todo, backend, batch=1,
                               ray_batch=ray_batch, key=lambda j: (j[0].key, j[1])):
            yield rec
