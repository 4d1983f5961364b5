"""The ``arena`` command line.

    arena demo [--steps N] [--games N]         train a Metanoia NPC briefly, evaluate it, print
                                               the table
    arena watch [SYSTEM] [--seed N] [--encounter E] [--rules R] [--agents A,B] [--check]
                                               a seeded fight, heuristic vs random, as text
    arena cases PATH...                        run case files; ends with "N passed, N failed"
    arena match SYSTEM ENCOUNTER A B [--games N]   paired-seed, side-swapped win rates, by agent
                                               and by side, with 95% Wilson intervals
    arena soak SYSTEM|all [--games N] [--seconds S] [--workers W]   random and heuristic games,
                                               every invariant checked; failures as replay commands
    arena layout SYSTEM [--obs]                print the action layout table (or the observation's)
    arena bench [--seconds S] [--system SYSTEM] [--encounter NAME]   engine/env speed next to
                                               PettingZoo classics
    arena suggest SITUATION.yaml [--top K] [--rollouts N | --seconds S] [--json]   ranked NPC moves
    arena play SYSTEM [ENCOUNTER] --as SIDE --vs AGENT     play one side in the terminal
    arena replay RECORD [--game N] [--frames DIR] [--gif PATH] [--fps F]
                                               re-run a recorded game, print its event log, and
                                               draw it (grid systems): one PNG per decision, a GIF
    arena render SYSTEM [ENCOUNTER] --out PNG  the map at the start of an encounter (or of a
    arena render SITUATION.yaml --out PNG      situation file), for grid systems
    arena train CONFIG.yaml [key=value ...] [--resume]   MaskablePPO self-play (same as train.py)
    arena eval CONFIG.yaml [key=value ...] [--fresh]     round-robin tournament -> records -> report

Errors in input (files, names, numbers) are one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


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
    return kinds  # type: ignore[return-value]


def cmd_cases(args: argparse.Namespace) -> int:
    from envs.core.cases import run_cases

    _, failed = run_cases(args.paths, verbose=args.verbose)
    return 1 if failed else 0


DEMO_TRAIN = "configs/train/metanoia_demo.yaml"
DEMO_EVAL = "configs/eval/metanoia_demo.yaml"


def cmd_demo(args: argparse.Namespace) -> int:
    """Train a Metanoia NPC on a short budget, then a tournament against random and heuristic."""

    from agents.train_config import latest_checkpoint, load_config
    from agents.training import train
    from eval.tournament import load_eval_config, run_tournament

    overrides = [f"run_dir={args.run_dir}"]
    if args.steps is not None:
        overrides.append(f"total_timesteps={args.steps}")
    cfg = load_config(args.train_config, overrides)
    run = Path(cfg.run_dir)
    done = latest_checkpoint(run)
    steps_done = int(done.name.removeprefix("step_")) if done else 0
    print(
        f"1/2  Training a Metanoia NPC ({cfg.encounter}, {cfg.total_timesteps} steps, opponents "
        f"{', '.join(cfg.opponents)}, warm start from {cfg.imitation_games} "
        f"{cfg.imitation_agent} games) in {run}/"
    )
    if done is not None and steps_done >= cfg.total_timesteps:
        print(f"     already trained ({steps_done} steps); delete {run} to train again")
    else:
        code = train(cfg, resume=done is not None)
        if code:
            return code
    policy = run / "policy.pt"
    eval_overrides = [f"agents={{random: random, heuristic: heuristic, ppo: 'trained:{policy}'}}",
                      f"out_dir={run / 'eval'}"]
    if args.games is not None:
        eval_overrides.append(f"games={args.games}")
    ecfg = load_eval_config(args.eval_config, eval_overrides)
    print(
        f"\n2/2  Tournament: {', '.join(ecfg.agents)} on {', '.join(ecfg.encounters)}, "
        f"{ecfg.games} paired seeds "
        "per pairing, sides swapped"
    )
    records, report = run_tournament(ecfg, fresh=True)
    print()
    print_tournament(records, report)
    print(f"Plots: {report.parent / 'winrate.png'}, {report.parent / 'learning_curve.png'}")
    print("\nTry next:")
    print(f"  arena match metanoia duel_seed trained:{policy} heuristic --games 200")
    print(
        "  arena train configs/train/metanoia_full.yaml      "
        "the full run (about 12 minutes on 2 cores)"
    )
    print("  arena watch                                       one fight as text")
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    from eval.match import watch

    return watch(args)


def cmd_match(args: argparse.Namespace) -> int:
    from eval.match import match

    return match(args)


def cmd_soak(args: argparse.Namespace) -> int:
    from eval.soak import main as soak_main

    if args.target != "all":
        from envs import SYSTEMS

        if args.target not in SYSTEMS:
            raise ValueError(f"unknown system {args.target!r}; known: all, {', '.join(SYSTEMS)}")
    games = args.games if args.games is not None or args.seconds is not None else 1000
    return soak_main(args.target, games, args.seconds, args.workers, seed=args.seed)


def cmd_layout(args: argparse.Namespace) -> int:
    from envs import get_encoding
    from eval.match import observation_layout

    encoding = get_encoding(args.system)
    print(observation_layout(encoding) if args.obs else encoding.layout.describe())
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from envs import SYSTEMS, get_rules
    from eval.bench import run_bench

    if args.encounter is not None:  # the system is checked in main
        known = [
            n
            for name in ([args.system] if args.system else SYSTEMS)
            for n in get_rules(name).encounter_names()
        ]
        if args.encounter not in known:
            raise ValueError(
                f"--encounter: unknown encounter {args.encounter!r}; known: {', '.join(known)}"
            )
    run_bench(seconds=args.seconds, systems=[args.system] if args.system else None,
              encounters=[args.encounter] if args.encounter else None)
    return 0


def cmd_suggest(args: argparse.Namespace) -> int:
    import json

    from eval.gm import render_suggestions, suggest

    rollouts = None if args.seconds is not None else (args.rollouts or 2000)
    result = suggest(
        args.situation,
        actor=args.actor,
        top=args.top,
        rollouts=rollouts,
        seconds=args.seconds,
        policy=args.policy,
        rollout_policy=args.rollout_policy,
        seed=args.seed,
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        render_suggestions(result)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from agents import make_agent
    from envs import get_rules
    from eval.gm import play_terminal

    R = get_rules(args.system)
    encounter = args.encounter or R.encounter_names()[0]
    if encounter not in R.encounter_names():
        raise ValueError(
            f"unknown encounter {encounter!r} for {args.system}; "
            f"known: {', '.join(R.encounter_names())}"
        )
    make_agent(args.vs, args.system, 0)  # a bad agent spec fails before the game starts
    result = play_terminal(
        args.system,
        encounter,
        args.side,
        args.vs,
        seed=args.seed,
        rules=args.rules,
        record_dir=args.record_dir,
    )
    return 0 if result.finished else 1


def cmd_replay(args: argparse.Namespace) -> int:
    from eval.gm import load_record, replay

    pictures = args.frames is not None or args.gif is not None
    if pictures or args.fps is not None:
        from eval.pictures import check_outputs

        check_outputs(args.frames, args.gif, args.fps)
    rec = load_record(args.record, args.game)
    if pictures:
        from eval.pictures import replay_pictures

        lines, frames = replay_pictures(rec, source=args.record, frames_dir=args.frames,
                                        gif=args.gif, fps=args.fps or 2.0, progress=True)
    else:
        lines, frames = replay(rec, source=args.record), 0
    for line in lines:
        print(line)
    who = rec.get("agents", {})
    result = (
        "a draw"
        if rec.get("winner") is None
        else f"side {rec['winner']} ({who.get(rec['winner'], '?')}) wins"
    )
    print(f"\nReplayed {len(rec['actions'])} actions (seed {rec['seed']}): {result}, as recorded.")
    if args.frames is not None:
        print(f"Wrote {frames} frames to {args.frames}/ (frame_*.png: the start, then one per "
              "decision).")
    if args.gif is not None:
        print(f"Wrote {args.gif} ({frames} frames, {args.fps or 2.0:g} per second).")
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    from eval.pictures import render_encounter

    path = render_encounter(args.target, args.encounter, args.out, seed=args.seed, rules=args.rules)
    print(f"Wrote {path}")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from agents.training import main as train_main

    return train_main(args.args, prog="arena train")


def print_tournament(records: list[dict], report: object) -> None:
    """The win-rate matrix and ratings of a finished tournament, and where the report is."""
    from eval.report import render_markdown, summarize

    text = render_markdown(summarize(records))
    head = text.split("\n## Encounters", 1)[0].split("## Win rates", 1)[-1]
    print("## Win rates" + head.rstrip())
    print(f"\nReport: {report}  (plots next to it)")


def eval_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="arena eval",
        description="Round-robin tournament with paired seeds and swapped sides, then a "
        "report (Markdown, win-rate heatmap, learning curves) built from the JSONL records.",
    )
    p.add_argument("config", help="YAML file under configs/eval/")
    p.add_argument("overrides", nargs="*", help="key=value, read as YAML (e.g. games=50)")
    p.add_argument(
        "--fresh",
        action="store_true",
        help="discard earlier records in out_dir instead of reusing them",
    )
    return p


def cmd_eval(args: argparse.Namespace) -> int:
    from eval.tournament import load_eval_config, run_tournament

    args = eval_parser().parse_intermixed_args(args.args)
    cfg = load_eval_config(args.config, args.overrides)
    try:
        records, report = run_tournament(cfg, fresh=args.fresh)
    except KeyboardInterrupt:
        print(
            f"interrupted; finished games are kept in {cfg.out_dir}/games.jsonl; "
            "run the same command to go on",
            file=sys.stderr,
        )
        return 130
    print_tournament(records, report)
    return 0


from agents.config import OneLineParser as _Parser  # noqa: E402


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
    s.add_argument("encounter")
    s.add_argument("a", help="agent: random | heuristic | search[:BUDGET] | trained:PATH")
    s.add_argument("b", help="agent: random | heuristic | search[:BUDGET] | trained:PATH")
    s.add_argument("--games", type=_positive, default=200, help="paired seeds (each played twice)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--rules", default="full", choices=["core", "full"])
    s.set_defaults(func=cmd_match)

    s = sub.add_parser("soak", help="many seeded games checking every invariant; "
                       "failures as replay commands")
    s.add_argument("target", metavar="SYSTEM|all", help="a system id, or all (every system)")
    s.add_argument("--games", type=_positive, default=None,
                   help="games to play (default 1000 without --seconds)")
    s.add_argument("--seconds", type=_seconds, default=None, help="stop after this long")
    s.add_argument("--workers", type=_positive, default=2, help="worker processes (default 2)")
    s.add_argument("--seed", type=int, default=0, help="seed of the first game")
    s.set_defaults(func=cmd_soak)

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
        help="rollout budget (default 2000; deterministic for a seed)",
    )
    budget.add_argument(
        "--seconds", type=_seconds, default=None, help="time budget instead of rollouts"
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

    s = sub.add_parser("play", help="play one side of a fight in the terminal against an agent")
    s.add_argument("system")
    s.add_argument("encounter", nargs="?", help="default: the system's first encounter")
    s.add_argument("--as", dest="side", required=True, help="the side you play (e.g. A)")
    s.add_argument(
        "--vs",
        default="heuristic",
        help="the opponent: random, heuristic, search[:BUDGET], trained:PATH",
    )
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--rules", default="full")
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
        help="train an NPC policy with MaskablePPO self-play (train.py; --help: keys)",
        add_help=False,
    )
    s.add_argument("args", nargs=argparse.REMAINDER, help="CONFIG.yaml [key=value ...] [--resume]")
    s.set_defaults(func=cmd_train)

    s = sub.add_parser(
        "eval",
        help="round-robin tournament with paired seeds and swapped sides, then a report",
        add_help=False,
    )
    s.add_argument("args", nargs=argparse.REMAINDER, help="CONFIG.yaml [key=value ...] [--fresh]")
    s.set_defaults(func=cmd_eval)
    return p


PASS_THROUGH = {"train": "cmd_train", "eval": "cmd_eval"}
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
