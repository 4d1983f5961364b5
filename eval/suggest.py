"""``arena suggest``: every legal action of the deciding NPC ranked by estimated probability that
its side wins, with a 95% interval, harm dealt/taken before its next turn, the trained policy's
probability (when given) and a one-line reason, from the ``search`` agent. Same seed and rollout
budget, same answer. Nothing here knows a particular system.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from envs import get_encoding
from envs.core.cases import encounter_from_situation, load_situation

__all__ = ["suggest", "suggest_encounter", "render_suggestions"]


def suggest(situation: str | dict[str, Any], actor: str | None = None, top: int | None = None,
            rollouts: int | None = 2000, seconds: float | None = None, policy: str | None = None,
            rollout_policy: str = "heuristic", seed: int = 0, keep: int = 3) -> dict[str, Any]:
    """Rank the deciding combatant's legal actions (see the module docstring).

    Args:
        situation: a situation file path or its parsed data.
        actor: who decides (default: the situation's actor); must be the one whose decision it is.
        top: how many moves to return (default: all).
        rollouts: the rollout budget (deterministic for a seed); ``None`` to use ``seconds``.
        seconds: a time budget instead of ``rollouts``.
        policy: ``trained:PATH`` whose probability of each move is shown.
        rollout_policy: agent spec playing the rollouts (``heuristic`` or ``trained:PATH``).
        seed: seeds the rollouts.
        keep: how many top moves successive halving keeps refining.

    Returns:
        JSON-able ``{"situation", "system", "round", "actor", "side", "rollouts", "seconds",
        "moves"}``;
        each move has ``rank, label, index, win_prob, interval, rollouts, harm_dealt, harm_taken,
        policy_prob, reason``.

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
        policy=policy, rollout_policy=rollout_policy, seed=seed, keep=keep,
    )


def suggest_encounter(enc: Any, *, title: str = "", top: int | None = None,
                      rollouts: int | None = None, seconds: float | None = 2.0,
                      policy: str | None = None, rollout_policy: str = "heuristic",
                      seed: int = 0, keep: int = 3) -> dict[str, Any]:
    """``suggest`` for a live encounter (read only; ``arena play``'s ``?``): the same result."""
    from agents import make_agent
    from agents.search import SearchAgent, reason

    deciding = enc.current_actor()
    trained = make_agent(policy, enc.system, seed) if policy else None
    if trained is not None and not hasattr(trained, "policy"):
        raise ValueError(f"--policy must be trained:PATH, got {policy!r}")
    agent = SearchAgent(
        seed=seed,
        rollouts=rollouts,
        seconds=seconds,
        rollout_policy=rollout_policy,
        system=enc.system,
        keep=keep,
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
    moves = []
    for rank, c in enumerate(cands[: top or len(cands)], start=1):
        lo, hi = c.interval
        moves.append(
            {
                "rank": rank,
                "label": c.action.label,
                "index": c.index,
                "win_prob": round(c.win_prob, 4),
                "interval": [round(lo, 4), round(hi, 4)],
                "rollouts": c.n,
                "harm_dealt": round(c.mean_dealt, 3),
                "harm_taken": round(c.mean_taken, 3),
                "policy_prob": None
                if probs is None or c.index is None
                else round(float(probs[c.index]), 4),
                "reason": reason(c, enc),
            }
        )
    return {
        "situation": title or enc.system,
        "system": enc.system,
        "round": enc.round,
        "actor": deciding,
        "side": enc.side_of(deciding),
        "legal_moves": len(cands),
        "rollouts": sum(c.n for c in cands),
        "seconds": round(took, 3),
        "seed": seed,
        "moves": moves,
    }


def render_suggestions(result: dict[str, Any], console: Any = None) -> None:
    """Print a ``suggest`` result as a table (rich)."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console(width=None if sys.stdout.isatty() else 160)
    table = Table(
        title=f"{result['situation']}: {result['actor']} (side {result['side']}) to act, "
        f"round {result['round']}",
        caption=f"{result['rollouts']} rollouts in {result['seconds']:.2f}s, "
        f"seed {result['seed']}; "
        "win % = the side's chance to win the fight (95% interval); harm before its next turn",
    )
    table.add_column("#", justify="right")
    table.add_column("move", no_wrap=True)
    table.add_column("win %", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("n", justify="right")
    table.add_column("dealt", justify="right")
    table.add_column("taken", justify="right")
    if any(m["policy_prob"] is not None for m in result["moves"]):
        table.add_column("policy", justify="right")
    table.add_column("why")
    for m in result["moves"]:
        lo, hi = m["interval"]
        row = [
            str(m["rank"]),
            m["label"],
            f"{m['win_prob']:.1%}",
            f"{lo:.0%}-{hi:.0%}",
            str(m["rollouts"]),
            f"{m['harm_dealt']:.2f}",
            f"{m['harm_taken']:.2f}",
        ]
        if len(table.columns) == 9:
            row.append("-" if m["policy_prob"] is None else f"{m['policy_prob']:.0%}")
        row.append(m["reason"])
        table.add_row(*row)
    console.print(table)
