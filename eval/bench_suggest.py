"""``arena bench --suggest``: how fast and how stable ``arena suggest`` is, on every system.

Two measurements, printed as tables:

* **Speed.** Every shipped situation (``configs/situations/*.yaml``) at the default budget (2 s,
  stopping early at +-5 points): the wall time of the whole answer (reading the situation,
  search, the table), the rollouts, and the 95% half-width and rollouts of the top 3 rows. The
  target: at most 2.0 s with every top-3 half-width at most 5 points.
* **Stability.** Ten fights per system: its shipped situations plus states taken from seeded
  heuristic games (a game on seed ``s`` stopped after a number of decisions drawn from that
  seed). For each, the top row at the short budget (2 s) against the tie group of the top row at
  the long budget (20 s): the target is the same top row, or one in the long run's top tie group,
  in at least 9 of 10.
"""

from __future__ import annotations

import glob
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["speed_rows", "stability_rows", "midfight_states", "main"]

ROOT = Path(__file__).resolve().parent.parent
SITUATIONS = ROOT / "configs" / "situations"


def shipped(system: str | None = None) -> list[Path]:
    """The shipped situation files (of ``system``)."""
    from envs.core import load_yaml

    files = [Path(p) for p in sorted(glob.glob(str(SITUATIONS / "*.yaml")))]
    return [f for f in files if system is None or load_yaml(f).get("system") == system]


def speed_rows(files: list[Path], seconds: float = 2.0) -> Iterator[dict[str, Any]]:
    from eval.suggest import WallClock, suggest

    for f in files:
        t0 = time.perf_counter()
        r = suggest(str(f), seconds=WallClock(seconds))  # reading the file is inside the budget
        wall = time.perf_counter() - t0
        top = r["moves"][:3]
        yield {
            "situation": f.name,
            "system": r["system"],
            "wall": round(wall, 2),
            "rollouts": r["rollouts"],
            "rows": r["rows"],
            "half_widths": [m["half_width"] for m in top],
            "top_n": [m["rollouts"] for m in top],
            "ok": wall <= 2.0 and all(m["half_width"] <= 0.05 for m in top),
        }


def midfight_states(system: str, count: int, seed: int = 0) -> list[tuple[str, Any]]:
    """``count`` fights in progress from seeded heuristic games over the system's encounters."""
    from agents import make_agent
    from envs import get_rules
    from envs.core import SeededDice

    R = get_rules(system)
    names = R.encounter_names()
    out: list[tuple[str, Any]] = []
    s = seed
    while len(out) < count:
        name = names[s % len(names)]
        rng = np.random.default_rng(s)
        stop = int(rng.integers(4, 40))
        dice = SeededDice(s)
        enc = R.new_encounter(name, R.parse_options("full"), dice)
        agent = make_agent("heuristic", system, s)
        for _ in range(stop):
            if enc.is_over():
                break
            enc.apply(agent.choose(enc), dice)
        if not enc.is_over() and len(enc.legal_actions()) > 1:
            out.append((f"{name} seed {s} after {stop} decisions", enc))
        s += 1
    return out


def stability_rows(system: str, short: float = 2.0, long: float = 20.0,
                   fights: int = 10) -> Iterator[dict[str, Any]]:
    from envs.core.cases import encounter_from_situation, load_situation
    from eval.suggest import suggest_encounter

    files = shipped(system)[:fights]
    cases = [(f.name, encounter_from_situation(load_situation(f), str(f))) for f in files]
    cases += midfight_states(system, fights - len(cases))
    for name, enc in cases:
        quick = suggest_encounter(enc, seconds=short)
        slow = suggest_encounter(enc, seconds=long, precision=None)
        best = set(quick["moves"][0]["variants"])
        group = slow["moves"][0]["group"]
        top_group = [m for m in slow["moves"] if m["group"] == group]
        same = any(best & set(m["variants"]) for m in top_group)
        yield {
            "fight": name,
            "system": system,
            "short_top": quick["moves"][0]["label"],
            "long_top": slow["moves"][0]["label"],
            "long_group": len(top_group),
            "ok": same,
        }


def main(systems: list[str], seconds: float = 2.0, long: float = 20.0, fights: int = 10,
         stability: bool = True) -> int:
    """Print both tables; exit status 0 (a benchmark reports, it does not fail)."""
    print(f"arena suggest speed: every shipped situation at {seconds:g} s (target: wall <= 2.0 s, "
          "top-3 half-widths <= 5 points)")
    files = [f for s in systems for f in shipped(s)]
    ok = 0
    for row in speed_rows(files, seconds):
        ok += row["ok"]
        widths = " ".join(f"{w:.3f}" for w in row["half_widths"])
        print(f"  {row['situation']:<36} {row['wall']:5.2f} s  {row['rollouts']:>5} rollouts  "
              f"top-3 half-widths {widths}  n {row['top_n']}  {'ok' if row['ok'] else 'MISSED'}",
              flush=True)
    print(f"  {ok} of {len(files)} situations meet the target")
    if not stability:
        return 0
    for system in systems:
        print(f"{system}: stability, top row at {seconds:g} s vs the top tie group at {long:g} s")
        same = total = 0
        for row in stability_rows(system, seconds, long, fights):
            total += 1
            same += row["ok"]
            print(f"  {row['fight']:<44} {'same' if row['ok'] else 'DIFFERENT'}: "
                  f"{row['short_top']}  /  {row['long_top']} (group of {row['long_group']})",
                  flush=True)
        print(f"  {same} of {total} the same (target: at least 9 of 10)")
    return 0
