"""The ``arena`` sub-commands: one ``cmd_NAME(args) -> exit status`` per command of
``eval.cli`` (which parses the arguments, dispatches here and turns errors into exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agents.config import OneLineParser as _Parser

__all__ = [
    "cmd_cases",
    "cmd_demo",
    "cmd_watch",
    "cmd_match",
    "cmd_soak",
    "cmd_campaign",
    "cmd_layout",
    "cmd_bench",
    "cmd_suggest",
    "cmd_fit_value",
    "cmd_play",
    "cmd_replay",
    "cmd_situation_new",
    "cmd_situation_check",
    "cmd_render",
    "cmd_train",
    "cmd_eval",
    "DEMO_TRAIN",
    "DEMO_EVAL",
    "print_tournament",
    "eval_parser",
]


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
    from eval.backend import backend_of, session

    games = args.games if args.games is not None or args.seconds is not None else 1000
    backend = backend_of(args.ray, args.workers)
    with session(backend):
        return soak_main(args.target, games, args.seconds, args.workers, seed=args.seed,
                         journal=args.journal, backend=backend)


def cmd_campaign(args: argparse.Namespace) -> int:
    from eval.campaign import main as campaign_main

    agents = tuple(a.strip() for a in args.agents.split(","))
    if len(agents) != 2 or not all(agents):
        raise ValueError(f"--agents: expected A,B (the party's agent, the other side's), got "
                         f"{args.agents!r}")
    return campaign_main(args.file, args.games, (agents[0], agents[1]), args.seed, args.workers,
                         args.json)


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
    if args.scaling:
        from eval.bench_scaling import main as bench_scaling

        return bench_scaling()
    if args.suggest:
        from envs import list_systems
        from eval.bench_suggest import main as bench_suggest

        systems = [args.system] if args.system else list_systems(include_test_only=False)
        return bench_suggest(systems, stability=not args.no_stability)
    run_bench(seconds=args.seconds, systems=[args.system] if args.system else None,
              encounters=[args.encounter] if args.encounter else None)
    return 0


def cmd_fit_value(args: argparse.Namespace) -> int:
    from agents.value import main

    return main(args.args)


def cmd_suggest(args: argparse.Namespace) -> int:
    import json

    from eval.suggest import WallClock, process_age, render_suggestions, suggest

    if args.precision < 0 or args.precision >= 0.5:
        raise ValueError(f"--precision: expected 0 to 0.5 (0.05 is 5 points), got {args.precision}")
    # the budget is the whole answer's wall time: what start-up took is spent already
    seconds = WallClock(args.seconds, age=process_age())
    result = suggest(
        args.situation,
        actor=args.actor,
        top=args.top,
        rollouts=args.rollouts,
        seconds=None if args.rollouts else seconds,
        precision=args.precision or None,
        policy=args.policy,
        rollout_policy=args.rollout_policy,
        seed=args.seed,
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        render_suggestions(result)
    return 0


def cmd_situation_new(args: argparse.Namespace) -> int:
    from envs.core.files import atomic_write
    from eval.situation_tools import new_situation

    if args.out is not None and Path(args.out).exists() and not args.force:
        raise ValueError(f"--out: {args.out} already exists; add --force to overwrite it")
    if args.out is not None and Path(args.out).is_dir():
        raise ValueError(f"--out: {args.out} is a folder, not a file")
    text = new_situation(args.system, args.encounter)
    if args.out is None:
        print(text, end="")
        return 0
    atomic_write(args.out, text)
    print(f"Wrote {args.out}; check it with: arena situation check {args.out}")
    return 0


def cmd_situation_check(args: argparse.Namespace) -> int:
    from eval.situation_tools import check_situation

    print(check_situation(args.file))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from agents import make_agent
    from envs import get_rules
    from eval.play import play_terminal

    if args.situation is not None:
        from envs.core.cases import load_situation

        if args.system is not None:
            raise ValueError("give SYSTEM [ENCOUNTER] or --situation FILE, not both")
        if args.rules is not None:
            raise ValueError("--rules: the situation file's options apply (its 'options' field)")
        system, encounter = load_situation(args.situation)["system"], None
    elif args.system is None:
        raise ValueError("give SYSTEM [ENCOUNTER] or --situation FILE")
    else:
        system = args.system
        R = get_rules(system)
        encounter = args.encounter or R.encounter_names()[0]
        if encounter not in R.encounter_names():
            raise ValueError(
                f"unknown encounter {encounter!r} for {system}; "
                f"known: {', '.join(R.encounter_names())}"
            )
    make_agent(args.vs, system, 0)  # a bad agent spec fails before the game starts
    play_terminal(
        system,
        encounter,
        args.side,
        args.vs,
        seed=args.seed,
        rules=args.rules or "full",
        record_dir=args.record_dir,
        situation=args.situation,
    )
    return 0  # finished, or stopped by the player (q, end of input): the record says which


def cmd_replay(args: argparse.Namespace) -> int:
    from eval.replay import load_record, replay

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
    n = len(rec["actions"])
    if rec.get("stopped") or rec.get("reason") == "stopped":
        result = f"the game was stopped after {n} actions (not finished, not a draw)"
    elif rec.get("winner") is None:
        result = "a draw"
    else:
        result = f"side {rec['winner']} ({who.get(rec['winner'], '?')}) wins"
    print(f"\nReplayed {n} actions (seed {rec['seed']}): {result}, as recorded.")
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
    from eval.backend import add_ray_flag

    add_ray_flag(p)  # local Ray gets the config's workers as CPUs
    return p


def cmd_eval(args: argparse.Namespace) -> int:
    from eval.backend import backend_of, session
    from eval.tournament import load_eval_config, run_tournament

    args = eval_parser().parse_intermixed_args(args.args)
    cfg = load_eval_config(args.config, args.overrides)
    backend = backend_of(args.ray, cfg.workers)
    try:
        with session(backend):
            records, report = run_tournament(cfg, fresh=args.fresh, backend=backend)
    except KeyboardInterrupt:
        print(
            f"interrupted; finished games are kept in {cfg.out_dir}/games.jsonl; "
            "run the same command to go on",
            file=sys.stderr,
        )
        return 130
    print_tournament(records, report)
    return 0


def cmd_balance(args: argparse.Namespace) -> int:
    from eval.balance_cli import balance_main

    return balance_main(args.args)
