"""The ``arena`` command line.

    arena demo [--steps N] [--games N]         train a Metanoia NPC briefly, evaluate it, print
                                               the table
    arena watch [SYSTEM] [--seed N] [--encounter E] [--rules R] [--agents A,B] [--check]
                                               a seeded fight, heuristic vs random, as text
    arena cases PATH...                        run case files; ends with "N passed, N failed"
    arena match SYSTEM ENCOUNTER A B [--games N]   paired-seed, side-swapped win rates, by agent
                                               and by side, with 95% Wilson intervals
    arena soak SYSTEM|all [--games N] [--seconds S] [--workers W] [--journal FILE]
                                               random and heuristic games, every invariant
                                               checked; failures as replay commands; with a
                                               journal an interrupted soak resumes
    arena campaign FILE [--games N] [--agents A,B]   fights in a row with rests between them:
                                               each fight's and the campaign's win rate
    arena layout SYSTEM [--obs]                print the action layout table (or the observation's)
    arena bench [--seconds S] [--system SYSTEM] [--encounter NAME]   engine/env speed next to
                                               PettingZoo classics
    arena bench --suggest [--system SYSTEM]    suggest's speed and stability on every system
    arena bench --scaling                      tournament games/s on 1 and 2 Ray workers
    arena suggest SITUATION.yaml [--top K] [--seconds S | --rollouts N] [--json]   ranked NPC moves,
                                               in plain words, with intervals and tie groups
    arena fit-value SYSTEM [--games N]         fit the value estimate that cuts rollouts short
    arena situation new SYSTEM [ENCOUNTER] [--out FILE] [--force]   a starter situation file,
                                               every field present and commented
    arena situation check FILE                 the fight a situation file describes, its moves
    arena play SYSTEM [ENCOUNTER] --as SIDE --vs AGENT     play one side in the terminal
    arena play --situation FILE --as SIDE --vs AGENT       ... from a fight in progress
    arena replay RECORD [--game N] [--frames DIR] [--gif PATH] [--fps F]
                                               re-run a recorded game, print its event log, and
                                               draw it (grid systems): one PNG per decision, a GIF
    arena render SYSTEM [ENCOUNTER] --out PNG  the map at the start of an encounter (or of a
    arena render SITUATION.yaml --out PNG      situation file), for grid systems
    arena train CONFIG.yaml [key=value ...] [--resume]   MaskablePPO self-play (same as train.py)
    arena train CONFIG.yaml --backend rllib [--ray ADDRESS]   multi-agent PPO on RLlib
    arena eval CONFIG.yaml [key=value ...] [--fresh]     round-robin tournament -> records -> report
    arena balance ENCOUNTER_OR_FILE [--system S] [--agent A] [--games N | --precision P]
                                               side balance, option impact (restricted play),
                                               combatant value; resumes from --out
    arena balance sweep FILE --set PATH=V1,V2,... [--target-win W] [--target-rounds R]
    arena balance rules ENCOUNTER_OR_FILE      each rule option's effect on balance and length

ENCOUNTER (match, eval, balance) may also be a situation file (docs/situations.md).
match, eval, soak and balance take --ray [ADDRESS]: the games on Ray, here or on a cluster
(docs/scaling.md).

Errors in input (files, names, numbers) are one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from agents.config import OneLineParser as _Parser
from eval.backend import add_ray_flag
from eval.commands import (
    DEMO_EVAL,
    DEMO_TRAIN,
    cmd_balance,  # noqa: F401 - PASS_THROUGH finds it in globals()
    cmd_bench,
    cmd_campaign,
    cmd_cases,
    cmd_demo,
    cmd_eval,
    cmd_fit_value,  # noqa: F401 - PASS_THROUGH finds it in globals()
    cmd_layout,
    cmd_match,
    cmd_play,
    cmd_render,
    cmd_replay,
    cmd_situation_check,
    cmd_situation_new,
    cmd_soak,
    cmd_suggest,
    cmd_train,
    cmd_watch,
)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected seconds > 0, got {value}")
    return value


def _fps(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected frames per second, got {text!r}") from None
    if not 0 < value <= 50:
        raise argparse.ArgumentTypeError(f"expected frames per second in (0, 50], got {text}")
    return value


def watch_agents(text: str) -> tuple[str, str]:
    """``--agents FIRST,SECOND``: the agent kinds of the encounter's two sides, in side order."""
    kinds = tuple(k.strip() for k in text.split(","))
    if len(kinds) != 2 or not all(kinds):
        raise argparse.ArgumentTypeError(f"expected two agents like heuristic,random, got {text!r}")
    return kinds[0], kinds[1]


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="arena", description="Tabletop combat arena: rules engines, envs, agents and tools."
    )
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser(
        "demo", help="train a Metanoia NPC for a few minutes, evaluate it, print the table"
    )
    s.add_argument(
        "--steps", type=_positive, default=None, help="training steps (default: the demo config's)"
    )
    s.add_argument(
        "--games", type=_positive, default=None, help="paired seeds per pairing in the tournament"
    )
    s.add_argument("--run-dir", default="runs/demo", help="where the run and the report go")
    s.add_argument("--train-config", default=DEMO_TRAIN, help=argparse.SUPPRESS)
    s.add_argument("--eval-config", default=DEMO_EVAL, help=argparse.SUPPRESS)
    s.set_defaults(func=cmd_demo)

    s = sub.add_parser("watch", help="play a seeded fight (heuristic vs random) and print the log")
    s.add_argument("system", nargs="?", default="metanoia", help="system id (default metanoia)")
    s.add_argument("--seed", type=int, default=7)
    s.add_argument("--encounter", default=None, help="default: the system's first encounter")
    s.add_argument("--rules", default=None, choices=["core", "full"],
                   help="rule set (default: the system's default)")
    s.add_argument("--agents", type=watch_agents, default=("heuristic", "random"),
                   metavar="FIRST,SECOND",
                   help="agents of the first and second side (default heuristic,random)")
    s.add_argument("--check", action="store_true",
                   help="check every invariant at every decision (as arena soak does); "
                   "exit 1 on a break")
    s.set_defaults(func=cmd_watch)

    s = sub.add_parser("cases", help="run case files (files or folders of *.yaml)")
    s.add_argument("paths", nargs="+")
    s.add_argument("-v", "--verbose", action="store_true", help="also list passing cases")
    s.set_defaults(func=cmd_cases)

    s = sub.add_parser("match", help="agent A vs agent B on paired seeds with sides swapped")
    s.add_argument("system")
    s.add_argument("encounter", help="an encounter name or a situation .yaml file")
    s.add_argument("a", help="agent: random | heuristic | search[:BUDGET] | trained:PATH")
    s.add_argument("b", help="agent: random | heuristic | search[:BUDGET] | trained:PATH")
    s.add_argument("--games", type=_positive, default=200, help="paired seeds (each played twice)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--rules", default=None, choices=["core", "full"],
                   help="rule set (default: full, or a situation file's own)")
    s.add_argument("--workers", type=_positive, default=None,
                   help="processes (default: 1, this one; with --ray: Ray's CPUs, default 2)")
    add_ray_flag(s)
    s.set_defaults(func=cmd_match)

    s = sub.add_parser("soak", help="many seeded games checking every invariant; "
                       "failures as replay commands")
    s.add_argument("target", metavar="SYSTEM|all", help="a system id, or all (every system)")
    s.add_argument("--games", type=_positive, default=None,
                   help="games to play (default 1000 without --seconds)")
    s.add_argument("--seconds", type=_seconds, default=None, help="stop after this long")
    s.add_argument("--workers", type=_positive, default=2, help="worker processes (default 2)")
    s.add_argument("--seed", type=int, default=0, help="seed of the first game")
    s.add_argument("--journal", metavar="FILE", default=None,
                   help="write every finished game to FILE; the same command resumes from it")
    add_ray_flag(s)
    s.set_defaults(func=cmd_soak)

    s = sub.add_parser("campaign", help="several fights in a row with rests between them, "
                       "played many times: each fight's and the whole campaign's win rate")
    s.add_argument("file", help="a campaign .yaml file (docs/campaigns.md)")
    s.add_argument("--games", type=_positive, default=200, help="campaigns to play")
    s.add_argument("--agents", default="heuristic,heuristic",
                   help="A,B: the party's agent and the other side's (default heuristic,heuristic)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--workers", type=_positive, default=2, help="worker processes (default 2)")
    s.add_argument("--json", metavar="OUT", default=None,
                   help="also write the summary and every campaign's record to OUT")
    s.set_defaults(func=cmd_campaign)

    s = sub.add_parser("layout",
                       help="print a system's action layout (--obs: its observation layout)")
    s.add_argument("system")
    s.add_argument("--obs", action="store_true",
                   help="the observation layout: feature, offset, range")
    s.set_defaults(func=cmd_layout)

    s = sub.add_parser(
        "bench", help="decisions/s, clone/s and env steps/s vs PettingZoo classic envs"
    )
    s.add_argument("--seconds", type=_seconds, default=2.0, help="time per measurement")
    s.add_argument("--system", help="only this system (default: all)")
    s.add_argument("--encounter", help="only this encounter (default: all)")
    s.add_argument("--suggest", action="store_true",
                   help="instead: arena suggest's speed on every shipped situation and its "
                   "stability (2 s against 20 s on 10 fights a system)")
    s.add_argument("--no-stability", action="store_true",
                   help="with --suggest: the speed table only")
    s.add_argument("--scaling", action="store_true",
                   help="instead: a fixed tournament's games/s on 1 and 2 Ray workers and the "
                   "local pool, their ratio and the cost model (docs/scaling.md; needs the ray "
                   "extra)")
    s.set_defaults(func=cmd_bench)

    s = sub.add_parser(
        "suggest", help="rank the acting NPC's moves in a situation by estimated win probability"
    )
    s.add_argument("situation", help="situation YAML (see configs/situations/)")
    s.add_argument("--actor", help="the combatant deciding (default: the situation's actor)")
    s.add_argument(
        "--top", type=_positive, default=None, help="show the best K moves (default: all)"
    )
    budget = s.add_mutually_exclusive_group()
    budget.add_argument(
        "--rollouts",
        type=_positive,
        default=None,
        help="a rollout budget instead of time (deterministic for a seed)",
    )
    budget.add_argument(
        "--seconds", type=_seconds, default=2.0,
        help="the wall time of the whole answer, start-up included (default 2)",
    )
    s.add_argument(
        "--precision", type=float, default=0.05,
        help="stop early once the top 3 rows' 95%% half-widths are at most this (default "
        "0.05; 0: spend the whole budget)",
    )
    s.add_argument(
        "--policy", help="trained:PATH: also show this policy's probability of each move"
    )
    s.add_argument(
        "--rollout-policy",
        default="heuristic",
        help="who plays the rollouts: heuristic or trained:PATH",
    )
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--json", action="store_true", help="print JSON for other tools")
    s.set_defaults(func=cmd_suggest)

    s = sub.add_parser(
        "situation", help="write a starter situation file (new) or check one (check)"
    )
    ss = s.add_subparsers(dest="action", required=True)
    n = ss.add_parser("new", help="a starter situation file, every field present and commented")
    n.add_argument("system")
    n.add_argument("encounter", nargs="?",
                   help="start from this encounter (default: your own fight, new combatants)")
    n.add_argument("--out", metavar="FILE", help="write it here (default: print it)")
    n.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    n.set_defaults(func=cmd_situation_new)
    c = ss.add_parser("check", help="read a situation file and print the fight and its moves")
    c.add_argument("file")
    c.set_defaults(func=cmd_situation_check)

    s = sub.add_parser("play", help="play one side of a fight in the terminal against an agent")
    s.add_argument("system", nargs="?", help="system id (not with --situation)")
    s.add_argument("encounter", nargs="?", help="default: the system's first encounter")
    s.add_argument("--situation", metavar="FILE",
                   help="start from this situation file (a fight in progress) instead")
    s.add_argument("--as", dest="side", required=True, help="the side you play (e.g. A)")
    s.add_argument(
        "--vs",
        default="heuristic",
        help="the opponent: random, heuristic, search[:BUDGET], trained:PATH",
    )
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--rules", default=None, help="core or full (default full; not with "
                   "--situation, whose options apply)")
    s.add_argument("--record-dir", default="runs/play", help="where the game record is saved")
    s.set_defaults(func=cmd_play)

    s = sub.add_parser(
        "replay", help="re-run a recorded game (a .json record or a line of games.jsonl)"
    )
    s.add_argument("record")
    s.add_argument("--game", type=int, default=0, help="which game of a .jsonl file (0-based)")
    s.add_argument("--frames", metavar="DIR",
                   help="write the map as PNGs: the start, then one per decision")
    s.add_argument("--gif", metavar="PATH", help="write the fight as an animated GIF (.gif)")
    s.add_argument("--fps", type=_fps, default=None, metavar="F",
                   help="GIF frames per second (default 2)")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser(
        "render", help="draw the map at an encounter's start or of a situation (PNG)"
    )
    s.add_argument("target", help="SYSTEM (then ENCOUNTER) or a situation .yaml file")
    s.add_argument("encounter", nargs="?", help="default: the system's first encounter")
    s.add_argument("--out", required=True, metavar="PNG", help="where the picture goes")
    s.add_argument("--seed", type=int, default=0, help="seed of the setup rolls (surprise, order)")
    s.add_argument("--rules", default="full", choices=["core", "full"])
    s.set_defaults(func=cmd_render)

    s = sub.add_parser(
        "train",
        help="train an NPC policy: MaskablePPO self-play, or --backend rllib (--help: keys)",
        add_help=False,
    )
    s.add_argument("args", nargs=argparse.REMAINDER, help="CONFIG.yaml [key=value ...] [--resume] "
                   "[--backend sb3|rllib] [--ray ADDRESS]")
    s.set_defaults(func=cmd_train)

    s = sub.add_parser(
        "eval",
        help="round-robin tournament with paired seeds and swapped sides, then a report",
        add_help=False,
    )
    s.add_argument("args", nargs=argparse.REMAINDER, help="CONFIG.yaml [key=value ...] [--fresh]")
    s.set_defaults(func=cmd_eval)

    s = sub.add_parser(
        "balance",
        help="a designer's bench: side balance, option impact, combatant value (sweep, rules)",
        add_help=False,
    )
    s.add_argument("args", nargs=argparse.REMAINDER,
                   help="ENCOUNTER_OR_FILE ... | sweep FILE --set PATH=V1,V2 | rules ENCOUNTER")
    return p


PASS_THROUGH = {"train": "cmd_train", "eval": "cmd_eval", "fit-value": "cmd_fit_value",
                "balance": "cmd_balance"}
"""Subcommands that parse their own arguments (so ``--help`` and intermixed flags reach them)."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in PASS_THROUGH:
        args = argparse.Namespace(
            command=argv[0], args=argv[1:], func=globals()[PASS_THROUGH[argv[0]]]
        )
    else:
        args = parser.parse_args(argv)
    if getattr(args, "system", None) is not None:
        from envs import SYSTEMS

        if args.system not in SYSTEMS:
            parser.exit(
                2, f"arena: error: unknown system {args.system!r}; known: {', '.join(SYSTEMS)}\n"
            )
    try:
        return args.func(args)
    except (ValueError, OSError) as e:  # DataError, IllegalActionError, bad names: one line
        print(f"arena {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
