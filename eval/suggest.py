"""``arena suggest``: every legal action of the deciding NPC ranked by estimated probability that
its side wins, with a 95% interval, harm dealt/taken before its next turn, the trained policy's
probability (when given) and a one-line reason, from the ``search`` agent. Same seed and rollout
budget, same answer. Nothing here knows a particular system.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import numpy as np

from envs import get_encoding
from envs.core.cases import encounter_from_situation, load_situation

from .suggest_table import collapse, footer, sort_rows, tie_groups, tie_lines

PRECISION = 0.05
"""stop once the top 3 rows' 95% half-widths are at most 5 points (the GM's target)"""
DEFAULT_SECONDS = 2.0
RENDER_RESERVE = 0.25
"""seconds of ``arena suggest``'s wall-time budget kept for the table after the search"""


class WallClock(float):
    """A time budget of ``seconds`` that started ``age`` seconds ago: what is left of it (less
    ``RENDER_RESERVE`` for the table, and at least 0.2 s) is read when the search starts."""

    def __new__(cls, seconds: float, age: float = 0.0) -> WallClock:
        clock = super().__new__(cls, seconds)
        clock.end = time.perf_counter() + seconds - age  # type: ignore[attr-defined]
        return clock

    def left(self) -> float:
        return max(0.2, self.end - time.perf_counter() - RENDER_RESERVE)  # type: ignore[attr-defined]


def process_age() -> float:
    """Seconds since this process started (Linux ``/proc``; elsewhere 0): ``arena suggest``'s
    budget is the wall time of the whole command, start-up and reading the situation included."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0
__all__ = ["suggest", "suggest_encounter", "render_suggestions", "WallClock", "process_age"]


def suggest(situation: str | dict[str, Any], actor: str | None = None, top: int | None = None,
            rollouts: int | None = None, seconds: float | None = DEFAULT_SECONDS,
            policy: str | None = None, rollout_policy: str = "heuristic", seed: int = 0,
            keep: int = 3, precision: float | None = PRECISION,
            workers: int | None = None) -> dict[str, Any]:
    """Rank the deciding combatant's legal actions (see the module docstring).

    Args:
        situation: a situation file path or its parsed data.
        actor: who decides (default: the situation's actor); must be the one whose decision it is.
        top: how many moves to return (default: all).
        rollouts: a rollout budget (deterministic for a seed, with ``precision=None``); it
            overrides ``seconds``.
        seconds: the time budget (default 2 s); a ``WallClock`` counts from a start given
            before this call (``arena suggest``: the process start), so that reading the
            situation and the table are inside it too.
        precision: stop early once the top ``keep`` rows' 95% half-widths are at most this
            (``None``: spend the whole budget).
        workers: rollout processes (default one per core).
        policy: ``trained:PATH`` whose probability of each move is shown.
        rollout_policy: agent spec playing the rollouts (``heuristic`` or ``trained:PATH``).
        seed: seeds the rollouts.
        keep: how many top moves successive halving keeps refining.

    Returns:
        JSON-able ``{"situation", "system", "round", "actor", "side", "legal_moves", "rows",
        "rollouts", "rollout_policy", "seconds", "seed", "moves", "ties", "footer"}``; each move
        (a row) has ``rank, group, label, words, variants, index, win_prob, interval,
        half_width, rollouts, harm_dealt, harm_taken, policy_prob, reason`` (see
        ``eval.suggest_table``).

    Raises:
        DataError: a bad situation file. ValueError: a bad actor, policy or budget.
    """
    source = str(situation) if not isinstance(situation, dict) else "<situation>"
    data = load_situation(situation) if not isinstance(situation, dict) else dict(situation)
    if actor is not None:
        data["actor"] = actor
    enc = encounter_from_situation(data, source)
    if enc.is_over():
        raise ValueError(f"{source}: the fight is already over; nothing to suggest")
    deciding = enc.current_actor()
    if actor is not None and deciding != actor:
        raise ValueError(f"{source}: it is {deciding}'s decision, not {actor}'s")
    return suggest_encounter(
        enc, title=data.get("title") or source, top=top, rollouts=rollouts, seconds=seconds,
        precision=precision, policy=policy, rollout_policy=rollout_policy, seed=seed, keep=keep,
        workers=workers,
    )


def suggest_encounter(enc: Any, *, title: str = "", top: int | None = None,
                      rollouts: int | None = None, seconds: float | None = 2.0,
                      precision: float | None = PRECISION, policy: str | None = None,
                      rollout_policy: str = "heuristic", seed: int = 0, keep: int = 3,
                      workers: int | None = None) -> dict[str, Any]:
    """``suggest`` for a live encounter (read only; ``arena play``'s ``?``): the same result."""
    from agents import make_agent
    from agents.search import SearchAgent, reason
    from envs import describe_action

    deciding = enc.current_actor()
    trained = make_agent(policy, enc.system, seed) if policy else None
    if trained is not None and not hasattr(trained, "policy"):
        raise ValueError(f"--policy must be trained:PATH, got {policy!r}")
    if isinstance(seconds, WallClock):
        seconds = seconds.left()
    agent = SearchAgent(
        seed=seed,
        rollouts=rollouts,
        seconds=seconds,
        rollout_policy=rollout_policy,
        system=enc.system,
        keep=keep,
        workers=workers,
        precision=precision,
        value="shipped",  # the estimate wherever one ships: the GM's answer within 2 s
    )
    t0 = time.perf_counter()
    cands = agent.evaluate(enc)
    took = time.perf_counter() - t0
    probs = None
    if trained is not None:
        encoding = get_encoding(enc.system)
        mask = np.zeros(encoding.layout.size, dtype=np.int8)
        mask[[c.index for c in cands if c.index is not None]] = 1
        probs = np.exp(trained.scores(encoding.observe(enc, deciding), mask))
    rows = []
    for group in collapse(cands):
        c = group[0]
        lo, hi = c.interval
        rows.append(
            {
                "label": c.action.label,
                "words": describe_action(enc, c.action),
                "variants": [v.action.label for v in group],
                "index": c.index,
                "win_prob": round(c.win_prob, 4),
                "interval": [round(lo, 4), round(hi, 4)],
                "half_width": round((hi - lo) / 2, 4),
                "rollouts": c.n,
                "harm_dealt": round(c.mean_dealt, 3),
                "harm_taken": round(c.mean_taken, 3),
                "policy_prob": None  # the policy's chance of any of the row's variants
                if probs is None or c.index is None
                else round(float(sum(probs[v.index] for v in group if v.index is not None)), 4),
                "reason": reason(c, enc),
            }
        )
    rows = sort_rows(rows)
    for g, members in enumerate(tie_groups(rows), start=1):
        for i in members:
            rows[i]["group"] = g
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    shown = rows[: top or len(rows)]
    result = {
        "situation": title or enc.system,
        "system": enc.system,
        "round": enc.round,
        "actor": deciding,
        "side": enc.side_of(deciding),
        "legal_moves": len(cands),
        "rows": len(rows),
        "rollouts": sum(c.n for c in cands),
        "rollout_policy": rollout_policy,
        "value": _value_note(agent, enc.system),
        "seconds": round(took, 3),
        "seed": seed,
        "moves": shown,
        "ties": tie_lines(shown),
    }
    result["footer"] = footer(result)
    return result


def _value_note(agent: Any, system: str) -> dict[str, Any] | None:
    """What scored the cut-short rollouts: the value model's fit (``agents.value``), or ``None``
    when every rollout was played to the end."""
    model = agent.value_model(system)
    if model is None:
        return None
    meta = getattr(model, "meta", {})
    return {"horizon": agent.horizon, "games": meta.get("games"), "brier": meta.get("brier"),
            "brier_base_rate": meta.get("brier_base_rate")}


def render_suggestions(result: dict[str, Any], console: Any = None) -> None:
    """Print a ``suggest`` result as a table (rich): plain words, the label under them, win %
    and interval, rollouts, harm, why; then the tie lines and the footer."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console(width=None if sys.stdout.isatty() else 160)
    table = Table(
        title=f"{result['situation']}: {result['actor']} (side {result['side']}) to act, "
        f"round {result['round']}: {result['legal_moves']} legal moves in {result['rows']} rows",
        show_lines=True,
    )
    table.add_column("#", justify="right")
    table.add_column("tie", justify="right")
    table.add_column("move")
    table.add_column("win %", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("n", justify="right")
    table.add_column("dealt", justify="right")
    table.add_column("taken", justify="right")
    with_policy = any(m["policy_prob"] is not None for m in result["moves"])
    if with_policy:
        table.add_column("policy", justify="right")
    table.add_column("why")
    sizes: dict[int, int] = {}
    for m in result["moves"]:
        sizes[m["group"]] = sizes.get(m["group"], 0) + 1
    for m in result["moves"]:
        lo, hi = m["interval"]
        variants = [v for v in m["variants"] if v != m["label"]]
        move = f"{m['words']}\n[dim]{m['label']}[/dim]"
        if variants:
            move += f"\n[dim]same effect: {', '.join(variants)}[/dim]"
        simulated = m["rollouts"] > 0
        row = [
            str(m["rank"]),
            f"T{m['group']}" if sizes[m["group"]] > 1 else "",
            move,
            f"{m['win_prob']:.1%}" if simulated else "-",
            f"{lo:.0%}-{hi:.0%} (+-{m['half_width']:.1%})" if simulated else "-",
            str(m["rollouts"]),
            f"{m['harm_dealt']:.2f}",
            f"{m['harm_taken']:.2f}",
        ]
        if with_policy:
            row.append("-" if m["policy_prob"] is None else f"{m['policy_prob']:.0%}")
        row.append(m["reason"])
        table.add_row(*row)
    console.print(table)
    for line in result["ties"]:
        console.print(f"[yellow]{line}[/yellow]")
    console.print(result["footer"])
