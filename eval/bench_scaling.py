"""``arena bench --scaling``: tournament throughput on 1 and 2 Ray workers, next to the local pool
(docs/scaling.md).

The tournament is fixed: the Metanoia duel, random against heuristic, ``games`` paired seeds (each
played twice, sides swapped), as ``arena eval`` plays it (``eval.tournament``), each record turned
into its JSON line in this process as ``arena eval`` writes it (the serial part). Each row is timed
``repeats`` times and shows the mean games/s with the slowest and fastest run and the number of
games. Ray runs on this machine with ``num_cpus`` = workers, started afresh for each row and warmed
first (its worker processes started, the code imported: Ray's start-up, about 10 s, is not in the
figures); a local pool row includes starting its pool, as every ``arena eval`` does.

From the rows it fits the simple cost model of docs/scaling.md: ``t`` seconds of one game on one
worker (local, one process), ``o`` seconds of Ray's overhead per batch of ``b`` games (from Ray
with one worker), ``p`` seconds of the parent per game; then
``games/s(W) = 1 / max((t + o / b) / W, p)``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

__all__ = ["Row", "scaling_rows", "model", "render", "main"]

GAMES = 300
"""paired seeds of the fixed tournament (600 games)"""


@dataclass
class Row:
    label: str
    workers: int
    ray: bool
    games: int
    seconds: list[float] = field(default_factory=list)
    batch: int = 1

    def rates(self) -> list[float]:
        return [self.games / s for s in self.seconds]

    def rate(self) -> float:
        return sum(self.rates()) / len(self.rates())


def _tournament(games: int) -> tuple[Any, list[Any]]:
    from eval.tournament import EvalConfig, schedule

    cfg = EvalConfig(system="metanoia", encounters=("duel_seed",), games=games,
                     agents={"random": "random", "heuristic": "heuristic"}, progress=False,
                     out_dir="runs/bench_scaling")
    return cfg, schedule(cfg)


def _timed_run(cfg: Any, todo: list[Any], backend: Any) -> tuple[float, float]:
    """Seconds of the whole run, and of it the parent's own work (the JSON lines)."""
    from eval.tournament import _run

    t0 = time.perf_counter()
    parent = 0.0
    n = 0
    for rec in _run(cfg, todo, backend):
        t1 = time.perf_counter()
        json.dumps(rec)
        parent += time.perf_counter() - t1
        n += 1
    assert n == len(todo), (n, len(todo))
    return time.perf_counter() - t0, parent


def scaling_rows(games: int = GAMES, repeats: int = 2, ray_workers: tuple[int, ...] = (1, 2),
                 log: Callable[[str], None] = print) -> tuple[list[Row], float]:
    """Time the fixed tournament locally (1 and 2 processes) and on Ray (``ray_workers``);
    the rows, and the parent's seconds per game."""
    from eval.backend import LOCAL_RAY, Backend, connect
    from eval.tournament import batch_size

    cfg, todo = _tournament(games)
    warm = todo[: 8 * max(ray_workers)]
    rows: list[Row] = []
    parent: list[float] = []
    plans = [(w, False) for w in (1, 2)] + [(w, True) for w in ray_workers]
    for workers, on_ray in plans:
        backend = Backend(workers=workers, ray=LOCAL_RAY if on_ray else None)
        # the batch sizes eval.tournament._run picks
        batch = batch_size(len(todo), workers) if on_ray or workers > 1 else 1
        label = f"Ray, {workers} worker{'s' * (workers > 1)}" if on_ray else \
            f"local, {workers} process{'es' * (workers > 1)}"
        row = Row(label, workers, on_ray, len(todo), batch=batch)
        if on_ray:
            import ray

            connect(backend)
        try:
            for _ in range(repeats):
                if on_ray:
                    _timed_run(cfg, warm, backend)  # workers up, code imported
                seconds, own = _timed_run(cfg, todo, backend)
                row.seconds.append(seconds)
                parent.append(own / len(todo))
                log(f"  {label}: {len(todo)} games in {seconds:.2f} s")
        finally:
            if on_ray:
                ray.shutdown()
        rows.append(row)
    return rows, min(parent)


def model(rows: list[Row], parent: float) -> dict[str, float]:
    """The cost model's ``t``, ``o``, ``b`` and ``p`` (module docstring) from the rows."""
    one = next(r for r in rows if not r.ray and r.workers == 1)
    ray1 = next(r for r in rows if r.ray and r.workers == 1)
    t = 1 / one.rate()
    per_game = 1 / ray1.rate()
    o = max(0.0, per_game - t) * ray1.batch
    return {"t": t, "o": o, "b": float(ray1.batch), "p": parent}


def predicted(m: dict[str, float], workers: int) -> float:
    """games/s of ``workers`` Ray workers by the model."""
    return 1 / max((m["t"] + m["o"] / m["b"]) / workers, m["p"])


def render(rows: list[Row], m: dict[str, float], out: TextIO) -> None:
    base = next(r for r in rows if r.ray and r.workers == 1).rate()
    local = next(r for r in rows if not r.ray and r.workers == 1).rate()
    print("Fixed tournament: Metanoia duel_seed, random vs heuristic, "
          f"{rows[0].games} games a run ({len(rows[0].seconds)} runs a row; range: slowest "
          "to fastest run)", file=out)
    print(f"  {'backend':<20} {'batch':>5} {'games/s':>9} {'range':>15} {'vs Ray 1':>9} "
          f"{'vs local 1':>10}", file=out)
    for r in rows:
        rates = r.rates()
        print(f"  {r.label:<20} {r.batch:>5} {r.rate():>9.1f} "
              f"{min(rates):>7.1f}-{max(rates):<7.1f} {r.rate() / base:>8.2f}x "
              f"{r.rate() / local:>9.2f}x", file=out)
    two = [r for r in rows if r.ray and r.workers == 2]
    if two:
        lo = min(two[0].rates()) / max(next(r for r in rows if r.ray and r.workers == 1).rates())
        hi = max(two[0].rates()) / min(next(r for r in rows if r.ray and r.workers == 1).rates())
        print(f"Ray 2 workers / 1 worker: {two[0].rate() / base:.2f}x (range {lo:.2f}-{hi:.2f}x, "
              f"{two[0].games} games a run)", file=out)
    print(f"Model: t = {m['t'] * 1e3:.2f} ms a game, o = {m['o'] * 1e3:.1f} ms a batch of "
          f"{m['b']:.0f}, p = {m['p'] * 1e3:.3f} ms a game in the parent; predicted games/s: "
          + ", ".join(f"{w} workers {predicted(m, w):,.0f}" for w in (1, 2, 4, 8, 16, 32)),
          file=out)


def main(games: int = GAMES, repeats: int = 2) -> int:
    import sys

    from eval.backend import backend_of

    backend_of("local", 1)  # Ray installed? (one line and status 2 if not)
    rows, parent = scaling_rows(games, repeats, log=lambda s: print(s, file=sys.stderr))
    render(rows, model(rows, parent), sys.stdout)
    return 0
