"""The command line of ``arena balance`` (its three forms; docs/balance.md)::

    arena balance ENCOUNTER_OR_FILE [--system S] [--agent A] [--games N | --precision P] [--out DIR]
    arena balance sweep FILE --set PATH=V1,V2,... [--target-win 0.5] [--target-rounds R] ...
    arena balance rules ENCOUNTER_OR_FILE [--system S] ...
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

from agents.config import OneLineParser
from eval.backend import add_ray_flag, backend_of, session

__all__ = ["balance_main"]


def _games(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 2:
        raise argparse.ArgumentTypeError(f"expected at least 2 games, got {value}")
    return value


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {value}")
    return value


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {value}")
    return value


def _common(p: argparse.ArgumentParser, target: str) -> None:
    p.add_argument("target", metavar=target)
    p.add_argument("--system", help="the system of an encounter name (a file names its own)")
    p.add_argument("--agent", default="heuristic",
                   help="who plays both sides: heuristic (default, fast), search:0.5s (strong), "
                   "trained:PATH, random")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--games", type=_games, help="games of every variant (instead of "
                      "--precision)")
    size.add_argument("--precision", type=_fraction, default=0.05,
                      help="play until the 95%% half-width of the baseline is at most this, and "
                      "of each difference at most twice this (default 0.05)")
    p.add_argument("--max-games", type=_games, default=1000,
                   help="the most games of one variant in precision mode (default 1000)")
    p.add_argument("--rules", default=None, help="core, full (default: the file's own, or full)")
    p.add_argument("--seed", type=int, default=0, help="seed of game 0 (game i: seed + i)")
    p.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    p.add_argument("--out", help="where the report and games.jsonl go "
                   "(default runs/balance/<fight>)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_ray_flag(p)


def build_parsers() -> dict[str, argparse.ArgumentParser]:
    main = OneLineParser(prog="arena balance", description="Side balance, option impact and "
                         "combatant value of a fight, with the same agent on both sides.")
    _common(main, "ENCOUNTER_OR_FILE")
    main.add_argument("--no-options", action="store_true", help="skip the option impact")
    main.add_argument("--no-loo", action="store_true", help="skip leave-one-out")
    sweep = OneLineParser(prog="arena balance sweep", description="Score and rounds against one "
                          "field of a situation file; with a target, the value that reaches it.")
    _common(sweep, "FILE")
    sweep.add_argument("--set", required=True, dest="values", metavar="PATH=V1,V2,...",
                       help="the field (e.g. combatants[1].stats.totals.might) and its values")
    sweep.add_argument("--target-win", type=_fraction, help="the first side's target score")
    sweep.add_argument("--target-rounds", type=_positive, help="the target mean rounds")
    rules = OneLineParser(prog="arena balance rules", description="The effect of each rule "
                          "option on side balance and fight length.")
    _common(rules, "ENCOUNTER_OR_FILE")
    return {"balance": main, "sweep": sweep, "rules": rules}


def _config(args: argparse.Namespace, kind: str):
    from agents import make_agent
    from envs import SYSTEMS
    from eval.balance import BalanceConfig
    from eval.fights import resolve_fight

    if args.system is not None and args.system not in SYSTEMS:
        raise ValueError(f"unknown system {args.system!r}; known: {', '.join(SYSTEMS)}")
    fight = resolve_fight(args.system, args.target)
    make_agent(args.agent, fight.system, 0)  # a bad agent is one line now
    if args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    backend_of(args.ray, args.workers)  # the address and Ray's install checked now
    options = args.rules
    if options is not None:
        from envs import get_rules

        get_rules(fight.system).parse_options(options)
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", fight.label)
    out = args.out or f"runs/balance/{fight.system}_{slug}" + ("" if kind == "balance"
                                                                else f"_{kind}")
    return BalanceConfig(fight, agent=args.agent, games=args.games, precision=args.precision,
                         max_games=args.max_games, out=out, seed=args.seed,
                         workers=args.workers, progress=not args.no_progress, options=options,
                         ray=args.ray)


def balance_main(argv: Sequence[str]) -> int:
    """``arena balance ...``: parse, play (resuming from ``--out``), write and print."""
    argv = list(argv)
    kind = argv[0] if argv and argv[0] in ("sweep", "rules") else "balance"
    parser = build_parsers()[kind]
    args = parser.parse_args(argv[1:] if kind != "balance" else argv)
    cfg = _config(args, kind)
    try:
        with session(backend_of(cfg.ray, cfg.workers)):  # one Ray for all the rounds
            return _run(args, cfg, kind)
    except KeyboardInterrupt:
        print(f"interrupted; finished games are kept in {cfg.out}/games.jsonl; run the same "
              "command to go on", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace, cfg, kind: str) -> int:
    if kind == "sweep":
        from eval.balance_sweep import parse_values, run_sweep, sweep_lines

        path, values = parse_values(args.values)
        summary, report = run_sweep(cfg, path, values, args.target_win, args.target_rounds)
        print("\n".join(sweep_lines(summary)))
    elif kind == "rules":
        from eval.balance_sweep import rules_lines, run_rules

        summary, report = run_rules(cfg)
        print("\n".join(rules_lines(summary)))
    else:
        from eval.balance import run_balance
        from eval.balance_report import headline

        cfg.bans, cfg.loo = not args.no_options, not args.no_loo
        summary, report = run_balance(cfg)
        print("\n".join(headline(summary)))
    print(f"\nReport: {report}  (games: {cfg.out}/games.jsonl)")
    return 0
