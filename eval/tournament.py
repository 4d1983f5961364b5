"""``arena eval CONFIG.yaml``: round-robin tournaments -> JSONL records -> report (STYLE C17).

The schedule is fair by construction: for every encounter, every pair of agents and every seed, the
pair plays twice on the same dice stream (``SeededDice(seed)``), once on each side. Games run on
``workers`` processes; each finished game is appended to ``out_dir/games.jsonl`` at once, so an
interrupted tournament keeps its games, and running the same config again plays only the missing
ones. The report (``eval.report``) is built from the records alone.

Config (``EvalConfig``, YAML under ``configs/eval/``)::

    system: metanoia
    encounters: [duel_seed]
    agents: {random: random, heuristic: heuristic, ppo: "trained:runs/metanoia_duel/policy.pt"}
    games: 200          # paired seeds per pairing and encounter -> 400 games each
    out_dir: runs/eval_metanoia
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from agents.config import config_dict
from agents.config import load_config as read_config
from agents.episode import encounter_sides
from eval.backend import Backend, run_jobs

__all__ = ["EvalConfig", "Game", "load_eval_config", "schedule", "run_tournament"]

RAY_BATCH = 32
"""the most games in one batch, a pool's or a Ray task's (docs/scaling.md: a batch amortizes
the task's overhead; eight batches a worker or more keep the last ones from leaving a worker
idle)"""


@dataclass(frozen=True)
class EvalConfig:
    """One tournament; every field can be set in the YAML file or as ``key=value``."""

    system: str = "metanoia"
    """registry key in envs.SYSTEMS"""
    encounters: tuple[str, ...] = ("duel_seed",)
    """the system's encounters to play (names, or situation .yaml files)"""
    rules: str = "full"
    """the system's rules option"""
    agents: dict[str, str] = field(
        default_factory=lambda: {"random": "random", "heuristic": "heuristic"}
    )
    """display name -> agent spec (random, heuristic, trained:PATH)"""
    games: int = 200
    """paired seeds per pairing and encounter; each seed is played twice, sides swapped"""
    seed: int = 0
    """first seed; seeds are seed, seed+1, ..."""
    out_dir: str = "runs/eval"
    """folder for games.jsonl, report.md and the plots"""
    workers: int = 2
    """processes playing games"""
    training_csvs: tuple[str, ...] = ()
    """extra training metrics.csv files for the learning curve (trained agents' own are found)"""
    progress: bool = True
    """show a progress bar"""


def load_eval_config(path: str | None, overrides: Sequence[str] = ()) -> EvalConfig:
    """Read and check an ``EvalConfig`` (one-line errors naming the file and the key)."""
    from agents import make_agent
    from envs import SYSTEMS, get_rules

    cfg, source = read_config(EvalConfig, path, overrides)

    def bad(key: str, why: str) -> ValueError:
        return ValueError(f"{source}: key {key!r}: {why}")

    if cfg.system not in SYSTEMS:
        raise bad("system", f"unknown system {cfg.system!r}; known: {', '.join(SYSTEMS)}")
    known = get_rules(cfg.system).encounter_names()
    if not cfg.encounters:
        raise bad("encounters", "needs at least one encounter")
    for name in cfg.encounters:
        if name not in known and name.endswith((".yaml", ".yml")):
            from eval.fights import resolve_fight

            try:
                resolve_fight(cfg.system, name)  # a situation file of this system
            except ValueError as e:
                raise bad("encounters", str(e)) from None
        elif name not in known:
            raise bad(
                "encounters", f"unknown {cfg.system} encounter {name!r}; known: {', '.join(known)}"
            )
    if len(cfg.agents) < 2:
        raise bad("agents", "a tournament needs at least two agents")
    for name, spec in cfg.agents.items():
        try:
            make_agent(spec, cfg.system, 0)
        except ValueError as e:
            raise bad("agents", f"{name}: {e}") from None
    for key in ("games", "workers"):
        if getattr(cfg, key) < 1:
            raise bad(key, f"must be >= 1, got {getattr(cfg, key)}")
    try:
        get_rules(cfg.system).parse_options(cfg.rules)
    except (ValueError, TypeError) as e:
        raise bad("rules", str(e)) from None
    return cfg


@dataclass(frozen=True)
class Game:
    """One scheduled game: who plays which side of which encounter on which seed."""

    encounter: str
    seed: int
    sides: tuple[tuple[str, str], ...]
    """``((side, agent name), ...)`` in the encounter's side order"""

    @property
    def key(self) -> tuple[str, int, tuple[tuple[str, str], ...]]:
        return (self.encounter, self.seed, self.sides)


def schedule(cfg: EvalConfig) -> list[Game]:
    """Every game of the tournament: encounters x agent pairs x seeds x both side assignments."""
    games = []
    names = list(cfg.agents)
    for encounter in cfg.encounters:
        first, second = encounter_sides(cfg.system, _start(cfg.system, encounter), cfg.rules)
        for a, b in combinations(names, 2):
            for seed in range(cfg.seed, cfg.seed + cfg.games):
                games.append(Game(encounter, seed, ((first, a), (second, b))))
                games.append(
                    Game(encounter, seed, ((first, b), (second, a)))
                )  # same dice, sides swapped
    return games


def _record_key(rec: dict[str, Any]) -> tuple[str, int, tuple[tuple[str, str], ...]]:
    return (rec["encounter"], rec["seed"], tuple(rec["agents"].items()))


# ---------------------------------------------------------------------------------- games


def play_game(cfg: dict[str, Any], game: Game) -> dict[str, Any]:
    """Play one scheduled game and return its record (agents seeded from the seed and their
    name)."""
    from agents import make_agent
    from agents.episode import play

    agents = {}
    for side, name in game.sides:
        agent_seed = int(np.random.SeedSequence([game.seed, *name.encode()]).generate_state(1)[0])
        agents[side] = make_agent(cfg["agents"][name], cfg["system"], agent_seed)
    start = cfg.get("fights", {}).get(game.encounter) or _start(cfg["system"], game.encounter)
    rec = play(
        cfg["system"],
        start,
        agents,
        game.seed,
        options=cfg["rules"],
        names=dict(game.sides),
    )
    out = rec.to_dict()
    out["encounter"] = game.encounter  # a file's path, as scheduled (its text is in "situation")
    return out


def _start(system: str, encounter: str) -> Any:
    """An encounter name as it is, a situation file as its ``Fight`` (``eval.fights``)."""
    if encounter.endswith((".yaml", ".yml")):
        from eval.fights import Fight

        return Fight.from_file(encounter)
    return encounter


def batch_size(games: int, workers: int) -> int:
    """Games a batch for ``games`` on ``workers`` (a pool's and a Ray task's alike)."""
    return max(1, min(RAY_BATCH, games // (8 * workers)))


def _run(cfg: EvalConfig, todo: list[Game], backend: Backend | None = None
         ) -> Iterator[dict[str, Any]]:
    """The records of ``todo`` as they finish, on ``backend`` (default: ``cfg.workers`` local
    processes; fewer than 8 games are played here)."""
    data = config_dict(cfg)
    # situation files read here, so a cluster's workers need no copy of them
    data["fights"] = {e: _start(cfg.system, e) for e in cfg.encounters
                      if e.endswith((".yaml", ".yml"))}
    backend = backend or Backend(workers=cfg.workers)
    if backend.ray is None and len(todo) < 8:
        backend = Backend(workers=1)
    batch = batch_size(len(todo), backend.workers)
    for _, rec in run_jobs(play_game, data, todo, backend, batch=batch, key=lambda g: g.key):
        yield rec


# ---------------------------------------------------------------------------------- tournament


def trained_metrics(cfg: EvalConfig) -> list[str]:
    """Training CSVs for the learning curve: the config's, plus each trained agent's run
    folder's."""
    out = list(cfg.training_csvs)
    for spec in cfg.agents.values():
        if spec.startswith("trained:"):
            csv = Path(spec[len("trained:"):]).parent / "metrics.csv"
            if csv.is_file() and str(csv) not in out:
                out.append(str(csv))
    return out


def run_tournament(
    cfg: EvalConfig, fresh: bool = False, log: Any = None, backend: Backend | None = None
) -> tuple[list[dict[str, Any]], Path]:
    """Play the missing games of ``cfg``'s schedule, then write the report.

    Args:
        cfg: a checked config.
        fresh: delete earlier records in ``out_dir`` first (else they are kept and reused).
        log: where progress and messages go (default stderr).
        backend: where the games run (``eval.backend``; default ``cfg.workers`` local
            processes).

    Returns:
        The records of this schedule and the report's path.

    Raises:
        KeyboardInterrupt: after saving every finished game (rerun to continue).
    """
    from eval.report import load_records, write_report

    log = log or sys.stderr
    out = Path(cfg.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.jsonl"
    if fresh and path.exists():
        path.unlink()
    games = schedule(cfg)
    wanted = {g.key for g in games}
    done: dict[Any, dict[str, Any]] = {}
    if path.exists():
        for rec in load_records(path):
            key = _record_key(rec)
            if (
                key in wanted
                and rec.get("options") == cfg.rules
                and rec.get("system") == cfg.system
            ):
                done[key] = rec
    todo = [g for g in games if g.key not in done]
    if done:
        print(
            f"{len(done)} of {len(games)} games already in {path}; playing the other {len(todo)}",
            file=log,
        )
    bar = None
    if cfg.progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), unit="game", desc="eval", dynamic_ncols=True, file=log)
    try:
        with path.open("a") as fh:
            for rec in _run(cfg, todo, backend):
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                done[_record_key(rec)] = rec
                if bar is not None:
                    bar.update()
            os.fsync(fh.fileno())
    finally:
        if bar is not None:
            bar.close()
    records = [done[g.key] for g in games]
    report = write_report(records, out, training_csvs=trained_metrics(cfg))
    return records, report
