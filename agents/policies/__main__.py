"""``python -m agents.policies retrain|install|check``: the shipped policies (see the package)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from ..config import OneLineParser
from . import SHIPPED_SYSTEMS, install, real_systems, ship_config, win_rate

PROG = "python -m agents.policies"


def main(argv: Sequence[str] | None = None) -> int:
    p = OneLineParser(prog=PROG, description="Retrain, install and check the shipped policies.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("retrain", help="train SYSTEM's ship config, then install its policy")
    r.add_argument("system", choices=real_systems())
    r.add_argument("overrides", nargs="*", help="key=value, read as YAML (e.g. run_dir=runs/x)")
    i = sub.add_parser("install", help="copy a trained policy file (+ sidecar) into the package")
    i.add_argument("system", choices=real_systems())
    i.add_argument("policy", help="the .pt file (its .json sidecar beside it)")
    c = sub.add_parser("check", help="load each shipped policy; its win rate against random")
    c.add_argument("systems", nargs="*", help=f"default: all ({', '.join(SHIPPED_SYSTEMS)})")
    c.add_argument("--games", type=int, default=100, help="games, sides alternating (100)")
    args = p.parse_args(argv)
    try:
        if args.command == "retrain":
            return _retrain(args.system, args.overrides)
        if args.command == "install":
            print(f"installed {install(args.system, args.policy)}")
            return 0
        for system in args.systems or SHIPPED_SYSTEMS:
            if system not in SHIPPED_SYSTEMS:
                raise ValueError(f"no policy ships for {system!r}; known: "
                                 f"{', '.join(SHIPPED_SYSTEMS)}")
            wins, games = win_rate(system, args.games)
            print(f"{system}: the shipped policy won {wins} of {games} games against random")
        return 0
    except (ValueError, OSError) as e:  # PolicyFileError, DataError, bad config keys: one line
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2


def _retrain(system: str, overrides: Sequence[str]) -> int:
    from ..train_config import load_config
    from ..training import train

    config = ship_config(system)
    if not config.is_file():
        raise ValueError(f"{config}: no such config (retrain from a checkout of the repository)")
    cfg = load_config(str(config), overrides)
    status = train(cfg)
    if status:
        return status
    print(f"installed {install(system, Path(cfg.run_dir) / 'policy.pt')}")
    wins, games = win_rate(system)
    print(f"{system}: the new policy won {wins} of {games} games against random")
    return 0


if __name__ == "__main__":
    sys.exit(main())
