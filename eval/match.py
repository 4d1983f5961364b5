"""``arena watch`` and ``arena match`` (the commands' bodies; ``eval.cli`` parses their arguments),
``arena layout --obs``'s table, and one seeded episode at the rules level (``agents.episode``,
shared with training, re-exported here).

Neither command names a side: both read the sides from the encounter (``enc.sides()``). ``match``
counts wins by seat (agent A, agent B) and by side, so a mirror match splits, and prints each with
its 95% Wilson interval and sample size.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from agents.episode import EpisodeRecord, encounter_sides, play
from eval.backend import backend_of, run_jobs, session

__all__ = ["EpisodeRecord", "encounter_sides", "play", "watch", "match", "observation_layout"]


def watch(args: argparse.Namespace) -> int:
    """A seeded fight as text. The first side's agent gets the seed, the second's seed + 1, the
    dice ``SeededDice(seed)``: ``arena soak`` prints its failures as such a command."""
    from agents import make_agent
    from envs import get_rules

    system = args.system
    known = get_rules(system).encounter_names()
    encounter = args.encounter or known[0]
    if encounter not in known:
        raise ValueError(f"unknown encounter {encounter!r} for {system}; known: {', '.join(known)}")
    sides = encounter_sides(system, encounter, args.rules)
    agents = {
        side: make_agent(kind, system, args.seed + i)
        for i, (side, kind) in enumerate(zip(sides, args.agents, strict=True))
    }
    names = dict(zip(sides, args.agents, strict=True))
    rules = f", rules {args.rules}" if args.rules else ""
    print(
        f"{system}, encounter {encounter!r}, seed {args.seed}{rules}: "
        + ", ".join(f"side {side} = {kind}" for side, kind in names.items())
        + "\n"
    )
    log: list[str] = []
    check = None
    if args.check:
        from eval.invariants import InvariantChecker

        check = InvariantChecker(system, encoding_every=1)
    try:
        rec = play(
            system,
            encounter,
            agents,
            args.seed,
            options=args.rules,
            names=names,
            log=log,
            check=check,
        )
    except Exception as e:  # --check: the first broken invariant, after the log
        if check is None and not isinstance(e, AssertionError):
            raise
        for line in log:
            print(line)
        print(
            f"\nFAILED after {check.decisions if check else '?'} decisions: {type(e).__name__}: {e}"
        )
        return 1
    for line in log:
        print(line)
    result = f"side {rec.winner} ({rec.agents[rec.winner]}) wins" if rec.winner else "a draw"
    print(
        f"\nResult: {result} after {rec.rounds} rounds ({rec.reason}), "
        f"{len(rec.actions)} decisions."
    )
    if check is not None:
        print(f"Every invariant held at each of the {check.decisions} decisions.")
    print("\nTry next:")
    other = next((e for e in known if e != encounter), encounter)
    print(f"  arena watch {system} --seed {args.seed + 1} --encounter {other}    another fight")
    print(
        f"  arena match {system} {encounter} heuristic random --games 400   "
        "win rates, sides swapped"
    )
    if Path("tests/cases", system).is_dir():
        print(
            f"  arena cases tests/cases/{system}                              "
            "the spec's worked examples"
        )
    print("  arena bench                                                   engine and env speed")
    return 0


def _rate(k: int, n: int) -> str:
    from envs.core.stats import wilson

    lo, hi = wilson(k, n)
    return f"{k:>5}/{n:<5} {k / n:6.1%}  (95% CI {lo:.1%}-{hi:.1%})"


def match(args: argparse.Namespace) -> int:
    """Paired seeds, sides swapped; wins are counted by seat (agent A = the first agent named,
    B = the second), so a mirror match splits, and by the encounter's sides (read from it)."""
    from agents import make_agent
    from envs import get_rules
    from eval.fights import resolve_fight

    fight = resolve_fight(args.system, args.encounter)  # a name or a situation file
    start = fight.name if fight.name is not None else fight
    if args.rules is not None:
        get_rules(args.system).parse_options(args.rules)
    for spec in (args.a, args.b):
        make_agent(spec, args.system, 0)
    sides = encounter_sides(args.system, start, args.rules)
    seats = {"A": args.a, "B": args.b}
    wins = {(seat, side): 0 for seat in seats for side in sides}  # (seat, side it played) -> wins
    played = dict.fromkeys(wins, 0)
    draws = rounds = games = 0
    data = (args.system, start, args.a, args.b, args.rules)
    # paired seeds, sides swapped: (seed, side of A, side of B)
    jobs = [(args.seed + i, *order) for i in range(args.games) for order in (sides, sides[::-1])]
    ray = getattr(args, "ray", None)  # here by default; --workers W: W processes; --ray: Ray
    backend = backend_of(ray, getattr(args, "workers", None) or (1 if ray is None else 2))
    batch = max(1, min(32, len(jobs) // (4 * backend.workers)))
    t0 = time.perf_counter()
    try:
        with session(backend):
            for (_, a_side, b_side), (winner, n_rounds) in run_jobs(
                _match_game, data, jobs, backend, batch=min(batch, 8), ray_batch=batch):
                games += 1
                rounds += n_rounds
                played[("A", a_side)] += 1
                played[("B", b_side)] += 1
                if winner is None:
                    draws += 1
                else:
                    seat = "A" if winner == a_side else "B"
                    wins[(seat, winner)] += 1
                if games % max(2, 2 * (args.games // 10)) == 0:
                    print(f"  {games // 2}/{args.games} seeds ({games} games)", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"interrupted after {games} games; results so far:", file=sys.stderr)
    if not games:
        return 1
    print(
        f"{args.system} / {fight.label} / rules {args.rules or 'as given'}: {games} games "
        f"({games // 2} paired seeds from {args.seed}, sides swapped), "
        f"{time.perf_counter() - t0:.1f}s"
    )
    width = max(12, *(len(f"{seat} {name}") for seat, name in seats.items()))
    for seat, name in seats.items():
        won = sum(wins[(seat, side)] for side in sides)
        print(f"  {seat + ' ' + name:<{width}} wins {_rate(won, games)}")
    print(f"  {'draws':<{width}}      {_rate(draws, games)};  mean rounds {rounds / games:.1f}")
    print(f"  by side (n = {games}):")
    for side in sides:
        won = sum(wins[(seat, side)] for seat in seats)
        print(f"    side {side:<{width - 3}} wins {_rate(won, games)}")
    print("  by agent and side:")
    labels = {
        (seat, side): f"{seat} {name} as {side}" for seat, name in seats.items() for side in sides
    }
    pad = max(len(label) for label in labels.values())
    for key, label in labels.items():
        print(f"    {label:<{pad}} wins {_rate(wins[key], played[key])}")
    return 0


def _match_game(data: tuple[Any, ...], job: tuple[int, str, str]) -> tuple[str | None, int]:
    """One game of ``arena match``: (winner side, rounds). Agent A gets the agent seed
    ``2 * seed``, B ``2 * seed + 1``, on either side."""
    from agents import make_agent

    system, start, a, b, rules = data
    seed, a_side, b_side = job
    agents = {a_side: make_agent(a, system, 2 * seed), b_side: make_agent(b, system, 2 * seed + 1)}
    rec = play(system, start, agents, seed, options=rules)
    return rec.winner, rec.rounds


def observation_layout(encoding: object) -> str:
    """The observation layout of ``encoding`` as a table: offset, feature, size and range.

    Read from ``encoding.obs_spec`` (``envs.rl.observation.ObsSpec``): one row per piece, and under
    it one row per named feature where the encoding declares them: ``encoding.obs_features()``
    returns ``(name, offset, size, low, high)`` rows in vector order (``slot3.zone``,
    ``options[2].rank``). Without those names the table lists the pieces and says so.
    """
    spec = encoding.obs_spec  # type: ignore[attr-defined]
    lister = getattr(encoding, "obs_features", None)
    features = list(lister()) if callable(lister) else []
    rows = [("offset", "feature", "size", "range")]
    named = 0
    for name, size, lo, hi in spec.pieces:
        start = spec.slices[name].start
        span = str(start) if size == 1 else f"{start}..{start + size - 1}"
        rows.append((span, name, str(size), f"[{lo:g}, {hi:g}]"))
        for feature, at, n, flo, fhi in features:
            if feature != name and start <= at < start + size:
                named += 1
                sub = str(at) if n == 1 else f"{at}..{at + n - 1}"
                rows.append((f"  {sub}", f"  {feature}", str(n), f"[{flo:g}, {fhi:g}]"))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [f"Observation: Box({spec.size},) float32 ({len(spec.pieces)} pieces)"]
    for k, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    if not named:
        lines.append(
            "(the encoding names no features inside its pieces; only the pieces are listed)"
        )
    return "\n".join(lines)
