"""Behaviour digest: a hash of the event logs and observations of seeded random games.

A restructuring must change no behaviour: record the digest before, compare after::

    python -m tests.digest --games 200 --out before.json      # before the change
    python -m tests.digest --games 200 --compare before.json  # after: exit 1 on any difference

For every registered system, encounter and rule set (core, full), ``--games`` raw envs are reset
with seeds 0..N-1 and played by a masked random policy seeded with the same seed; the digest hashes
every agent's observation and mask at every step and the final event-log text. Both cores are used.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

RULE_SETS = ("core", "full")


def game_digest(system: str, encounter: str, rules: str, seed: int) -> str:
    from envs import make_env

    env = make_env(system, encounter, rules=rules, wrapped=False)
    env.reset(seed=seed)
    policy = np.random.default_rng(seed)
    h = hashlib.sha256()
    for agent in env.agent_iter(20000):
        obs, reward, term, trunc, _ = env.last()
        h.update(agent.encode())
        h.update(np.asarray(obs["observation"], dtype=np.float32).tobytes())
        h.update(np.asarray(obs["action_mask"], dtype=np.int8).tobytes())
        h.update(repr((round(float(reward), 6), bool(term), bool(trunc))).encode())
        if term or trunc:
            env.step(None)
            continue
        env.step(int(policy.choice(np.flatnonzero(obs["action_mask"]))))
    h.update(env.unwrapped.log_text().encode())
    return h.hexdigest()


def _group(args: tuple[str, str, str, int]) -> tuple[str, str]:
    system, encounter, rules, games = args
    h = hashlib.sha256()
    for seed in range(games):
        h.update(game_digest(system, encounter, rules, seed).encode())
    return f"{system}/{encounter}/{rules}", h.hexdigest()


def digest(games: int, workers: int = 2, systems: list[str] | None = None) -> dict[str, str]:
    from envs import SYSTEMS, get_rules

    jobs = [
        (s, e, r, games) for s in systems or SYSTEMS
        for e in get_rules(s).encounter_names() for r in RULE_SETS
    ]
    with ProcessPoolExecutor(workers) as pool:
        return dict(pool.map(_group, jobs))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.digest", description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out")
    p.add_argument("--compare")
    p.add_argument("--system", action="append", help="only this system (repeatable)")
    a = p.parse_args(argv)
    result = digest(a.games, a.workers, a.system)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=1, sort_keys=True)
    if a.compare:
        with open(a.compare, encoding="utf-8") as fh:
            before = json.load(fh)
        keys = result.keys() | (before.keys() if not a.system else set())
        diff = sorted(k for k in keys if before.get(k) != result.get(k))
        for key in diff:
            print(f"differs: {key}")
        print(f"{len(result) - len(diff)} of {len(result)} groups identical")
        return 1 if diff else 0
    for key, value in sorted(result.items()):
        print(key, value[:16])
    return 0


if __name__ == "__main__":
    sys.exit(main())
