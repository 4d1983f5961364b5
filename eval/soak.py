"""``arena soak SYSTEM|all [--games N] [--seconds S] [--workers W] [--journal FILE]``: many
seeded games, every invariant checked on the way, every failure printed with the command that
replays it. With ``--journal`` every finished game is written to FILE at once, and the same
command resumes an interrupted soak from it (``eval.soak_journal``).

Game ``i`` of a soak plays the ``i``-th of the schedule's rounds over every (system, encounter,
rules) of the run (CORE and FULL), with the agents of ``AGENT_PAIRS`` in turn (random legal play,
and the heuristic against random on either side), on seed ``seed + i``. A game is exactly what
``arena watch SYSTEM --seed S --encounter E --rules R --agents A,B`` plays (the same
``agents.episode.play``, dice and agent seeds), so each failure is one line to reproduce;
``--check`` there checks the same invariants at every decision.

Checked (``eval.invariants.InvariantChecker``): the system's state invariants from the registry
(``envs.get_invariants``) after every ``apply``, the decision invariants at every decision (the
``parse_action`` round trip of every label at every third), the encoding invariants (mask, decode,
observation bounds) at every third, the round cap and the outcome. An exception in the rules or an
agent counts as a failure too.

Games run on ``workers`` processes (default 2, one per core) with a bounded number in flight, so
``--seconds`` stops on time; progress goes to stderr. Ctrl-C stops the workers and prints what
has been played (exit status 130), and so does a SIGTERM (``kill``; a background job started
by a script ignores Ctrl-C); otherwise the status is 1 when anything failed, else 0.
"""

from __future__ import annotations

import itertools
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from eval.backend import Backend, run_jobs
from eval.soak_journal import Journal, failure_from

__all__ = [
    "AGENT_PAIRS",
    "RULE_SETS",
    "Failure",
    "GameSpec",
    "SoakResult",
    "schedule",
    "soak_game",
    "run_soak",
    "render",
    "main",
]

RULE_SETS = ("core", "full")
AGENT_PAIRS: tuple[tuple[str, str], ...] = (
    ("random", "random"),
    ("heuristic", "random"),
    ("random", "heuristic"),
)
"""agent kinds of the first and second side, in turn"""
CHUNK = 8
"""games per task sent to a local worker"""
RAY_CHUNK = 32
"""games per Ray task (docs/scaling.md)"""
SOAK_OBSERVERS = 2
"""observations each encoding check builds: the deciding combatant's and one other's in turn
(``InvariantChecker``; every combatant's costs about twice the soak's time on a 2v2)"""


@dataclass(frozen=True)
class GameSpec:
    """One soak game: what ``arena watch`` needs to replay it."""

    system: str
    encounter: str
    rules: str
    agents: tuple[str, str]
    seed: int

    def watch_command(self) -> str:
        return (
            f"arena watch {self.system} --seed {self.seed} --encounter {self.encounter} "
            f"--rules {self.rules} --agents {','.join(self.agents)} --check"
        )


@dataclass(frozen=True)
class Failure:
    """A game that raised: ``kind`` is ``invariant`` (an ``AssertionError``) or ``exception``."""

    game: GameSpec
    kind: str
    decisions: int
    message: str

    def lines(self) -> list[str]:
        g = self.game
        return [
            f"FAIL {g.system}/{g.encounter}/{g.rules} seed {g.seed} ({' vs '.join(g.agents)}), "
            f"{self.kind} after {self.decisions} decisions: {self.message}",
            f"  replay: {g.watch_command()}",
        ]


@dataclass
class SoakResult:
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)
    per_system: dict[str, list[int]] = field(default_factory=dict)
    """system -> [games, decisions]"""
    interrupted: bool = False
    resumed: int = 0
    """games counted from a journal, not played in this run"""

    def add(self, spec: GameSpec, decisions: int, failure: Failure | None) -> None:
        self.games += 1
        self.decisions += decisions
        row = self.per_system.setdefault(spec.system, [0, 0])
        row[0] += 1
        row[1] += decisions
        if failure is not None:
            self.failures.append(failure)

    def count(self, kind: str) -> int:
        return sum(f.kind == kind for f in self.failures)


def schedule(systems: Sequence[str], seed: int = 0) -> Iterator[GameSpec]:
    """The soak's games in order (endless): every (system, encounter, rules), then again with the
    next agent pair, and so on; game ``i`` is played on seed ``seed + i``."""
    from envs import get_rules

    combos = [(s, e, r) for s in systems for e in get_rules(s).encounter_names() for r in RULE_SETS]
    for i in itertools.count():
        yield _spec(combos, seed, i)


def _spec(combos: list[tuple[str, str, str]], seed: int, i: int) -> GameSpec:
    system, encounter, rules = combos[i % len(combos)]
    pair = AGENT_PAIRS[(i // len(combos)) % len(AGENT_PAIRS)]
    return GameSpec(system, encounter, rules, pair, seed + i)


def _one_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    text = lines[0] if lines else "(no message)"
    frames = traceback.extract_tb(error.__traceback__)
    where = f" [at {frames[-1].filename.rsplit('/', 2)[-1]}:{frames[-1].lineno}]" if frames else ""
    text = text if len(text) <= 300 else text[:297] + "..."
    return f"{type(error).__name__}: {text}{where}"


def soak_game(spec: GameSpec) -> tuple[int, Failure | None]:
    """Play one game as ``arena watch`` does, checking every invariant; (decisions, failure)."""
    from agents import make_agent
    from agents.episode import encounter_sides, play
    from eval.invariants import InvariantChecker

    check = InvariantChecker(spec.system, observers=SOAK_OBSERVERS)
    try:
        sides = encounter_sides(spec.system, spec.encounter, spec.rules)
        agents = {
            side: make_agent(kind, spec.system, spec.seed + i)
            for i, (side, kind) in enumerate(zip(sides, spec.agents, strict=True))
        }
        play(spec.system, spec.encounter, agents, spec.seed, options=spec.rules, check=check)
    except AssertionError as e:
        return check.decisions, Failure(spec, "invariant", check.decisions, _one_line(e))
    except Exception as e:  # noqa: BLE001 - any exception in the rules or an agent is a finding
        return check.decisions, Failure(spec, "exception", check.decisions, _one_line(e))
    return check.decisions, None


def _soak_job(extra: list[Any], spec: GameSpec) -> tuple[int, Failure | None]:
    return soak_game(spec)


def _register(entries: list[Any]) -> None:
    """In a worker: register the parent's extra systems (the tests' toy)."""
    from envs import SYSTEMS, register

    for entry in entries:
        if entry.name not in SYSTEMS:
            register(entry)


def run_soak(
    systems: Sequence[str],
    *,
    games: int | None = None,
    seconds: float | None = None,
    workers: int = 2,
    seed: int = 0,
    progress: Callable[[SoakResult], None] | None = None,
    journal: Journal | None = None,
    backend: Backend | None = None,
) -> SoakResult:
    """Play the schedule until ``games`` games or ``seconds`` seconds (whichever comes first; one
    of them must be given). Ctrl-C returns what was played with ``interrupted`` set. With a
    ``journal`` (``eval.soak_journal``), the games it holds count without being played again and
    every finished game is written to it at once. ``backend`` (``eval.backend``) says where the
    games run (default ``workers`` local processes)."""
    if games is None and seconds is None:
        raise ValueError("soak needs --games or --seconds")
    result = SoakResult()
    done = _resume(result, systems, seed, games, journal)
    prior = result.seconds
    t0 = time.perf_counter()
    todo: Iterator[GameSpec] = (s for s in schedule(systems, seed) if s.seed - seed not in done)
    if games is not None:
        todo = itertools.islice(todo, max(0, games - len(done)))

    def take(rows: list[tuple[GameSpec, int, Failure | None]]) -> None:
        elapsed = time.perf_counter() - t0
        for spec, decisions, failure in rows:
            result.add(spec, decisions, failure)
            if journal is not None:
                journal.record(spec.seed - seed, decisions, failure, elapsed)
        result.seconds = prior + elapsed
        if progress is not None:
            progress(result)

    def on_time() -> bool:
        return seconds is None or time.perf_counter() - t0 < seconds

    from envs import SYSTEMS

    # systems registered at run time (the tests' toy): the workers register them too
    extra = [entry for entry in SYSTEMS.values() if entry.test_only]
    backend = backend or Backend(workers=workers)
    try:
        for spec, (decisions, failure) in run_jobs(
            _soak_job, extra, todo, backend, setup=_register, batch=CHUNK, ray_batch=RAY_CHUNK,
            key=lambda s: s.seed, keep_going=on_time,
        ):
            take([(spec, decisions, failure)])
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = prior + time.perf_counter() - t0
    return result


def _resume(result: SoakResult, systems: Sequence[str], seed: int, games: int | None,
            journal: Journal | None) -> set[int]:
    """Count the journal's games (those within ``games``) into ``result``; their indices."""
    if journal is None:
        return set()
    from envs import get_rules

    combos = [(s, e, r) for s in systems for e in get_rules(s).encounter_names() for r in RULE_SETS]
    done = {i for i in journal.done if games is None or i < games}
    for i in sorted(done):
        decisions, fail = journal.done[i]
        result.add(_spec(combos, seed, i), decisions, None if fail is None else failure_from(fail))
    result.resumed = len(done)
    result.seconds = journal.prior_seconds
    return done


def render(result: SoakResult, systems: Sequence[str], out: TextIO) -> None:
    """The summary: games, decisions, decisions/s, failures by kind, per system, every failure."""
    rate = result.decisions / result.seconds if result.seconds else 0.0
    head = "interrupted; played so far: " if result.interrupted else ""
    print(
        f"{head}{result.games} games, {result.decisions} decisions in {result.seconds:.1f} s "
        f"({rate:,.0f} decisions/s); {result.count('exception')} exceptions, "
        f"{result.count('invariant')} invariant breaks",
        file=out,
    )
    for system in systems:
        g, d = result.per_system.get(system, [0, 0])
        print(f"  {system:<14} {g:>8} games {d:>10} decisions", file=out)
    for failure in result.failures:
        for line in failure.lines():
            print(line, file=out)


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(system: str, games: int | None, seconds: float | None, workers: int, seed: int = 0,
         journal: str | None = None, backend: Backend | None = None) -> int:
    """``arena soak``: see the module docstring. Returns the exit status."""
    from envs import get_rules, list_systems

    book = None if journal is None else Journal(journal, system, seed)  # JournalError: status 2

    systems = list_systems(include_test_only=False) if system == "all" else [system]
    combos = sum(len(get_rules(s).encounter_names()) for s in systems) * len(RULE_SETS)
    backend = backend or Backend(workers=workers)
    where = backend.describe()
    parts = [
        x for x in (f"{games} games" if games else "", f"{seconds:g} s" if seconds else "") if x
    ]
    budget = " or ".join(parts) + (", whichever comes first" if len(parts) == 2 else "")
    print(
        f"arena soak {system}: {budget} over {combos} (system, encounter, rules) "
        f"with agents {', '.join('/'.join(p) for p in AGENT_PAIRS)}; {where}, seeds from "
        f"{seed}"
    )
    if book is not None and book.done:
        print(f"resuming from {book.path}: {len(book.done)} games already played "
              f"(run {book.run})")
    last = [time.perf_counter()]

    def progress(r: SoakResult) -> None:
        now = time.perf_counter()
        if now - last[0] >= 2.0:
            last[0] = now
            total = f"/{games}" if games else ""
            print(
                f"  {r.games}{total} games, {r.decisions} decisions, "
                f"{r.decisions / max(r.seconds, 1e-9):,.0f} decisions/s, "
                f"{len(r.failures)} failures",
                file=sys.stderr,
                flush=True,
            )

    if book is not None:
        book.open()
    previous = signal.signal(signal.SIGTERM, _stop)  # kill: as Ctrl-C (what ran is kept)
    try:
        result = run_soak(systems, games=games, seconds=seconds, workers=workers, seed=seed,
                          progress=progress, journal=book, backend=backend)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if book is not None:
            book.close()
    render(result, systems, sys.stdout)
    if result.interrupted:
        if book is not None:
            print(f"every finished game is in {book.path}: the same command resumes")
        return 130
    return 1 if result.failures else 0
