"""GM tools: ``arena suggest``, ``arena play`` and ``arena replay`` (DESIGN.md, "GM tools").

Nothing here knows a particular system: a fight comes from the registry (``new_encounter``) or a
situation file, moves are ``Action`` labels, the screen shows ``Encounter.describe(viewer)`` rows,
and suggestions come from the ``search`` agent.

* ``suggest(situation)``: every legal action of the deciding NPC ranked by estimated probability
  that its side wins, with a 95% interval, harm dealt/taken before its next turn, the trained
  policy's probability (when given) and a one-line reason. Same seed and rollout budget, same
  answer.
* ``play(...)``: a person plays one side in the terminal; every game is saved as a record that
  ``replay`` re-runs.
* ``replay(record)``: re-runs a record (system, encounter, options, seed, actions) and returns the
  event log; a record that does not reproduce (an action that is not legal, another winner or
  round count) is a ``ReplayError``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from envs import get_encoding, get_rules
from envs.core import Encounter, IllegalActionError, SeededDice
from envs.core.cases import encounter_from_situation, load_situation
from envs.core.files import atomic_write

__all__ = ["suggest", "render_suggestions", "play_terminal", "replay", "ReplayError", "load_record"]


# ---------------------------------------------------------------------------------- suggest


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
    from agents import make_agent
    from agents.search import SearchAgent, reason

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
        "situation": data.get("title") or source,
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


# ---------------------------------------------------------------------------------- records


class ReplayError(ValueError):
    """A record that cannot be read or does not reproduce."""


def load_record(path: str | Path, game: int = 0) -> dict[str, Any]:
    """One record from a ``.json`` file or line ``game`` (0-based) of a ``.jsonl`` file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ReplayError(f"{path}: cannot read ({getattr(e, 'strerror', None) or e})") from None
    try:
        if path.suffix == ".jsonl":
            lines = [ln for ln in text.splitlines() if ln.strip()]
            if not 0 <= game < len(lines):
                raise ReplayError(
                    f"{path}: no game {game}; the file holds {len(lines)} (0..{len(lines) - 1})"
                )
            rec = json.loads(lines[game])
        else:
            rec = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(f"{path}: not JSON ({e.msg}, line {e.lineno})") from None
    if not isinstance(rec, dict):
        raise ReplayError(f"{path}: a record must be a JSON object")
    for key, kind in (("system", str), ("encounter", str), ("seed", int), ("actions", list)):
        if not isinstance(rec.get(key), kind):
            raise ReplayError(f"{path}: field {key!r} is missing or not a {kind.__name__}")
    return rec


def replay(rec: dict[str, Any], source: str = "record",
           on_state: Callable[[Encounter, int], None] | None = None) -> list[str]:
    """Re-run a record and return its event log (one line per event).

    ``on_state(enc, step)``, when given, sees the fight at the start (step 0) and after each action
    (step 1..N); it must not change ``enc`` (``arena replay --frames/--gif`` draws it).

    Raises:
        ReplayError: an unknown system or encounter, an action that is not legal where the record
            has it, actions left after the end, or another winner or round count than recorded.
    """
    dice = SeededDice(rec["seed"])
    try:
        R = get_rules(rec["system"])
        enc = R.new_encounter(rec["encounter"], R.parse_options(rec.get("options")), dice)
    except (ValueError, KeyError, TypeError) as e:
        raise ReplayError(f"{source}: cannot start the fight ({e})") from None
    log = [str(e) for e in enc.start_events]
    if on_state is not None:
        on_state(enc, 0)
    for step, label in enumerate(rec["actions"], start=1):
        if enc.is_over():
            raise ReplayError(
                f"{source}: does not reproduce: the fight ended before step {step} ({label!r})"
            )
        try:
            action = enc.parse_action(label)
            log.extend(str(e) for e in enc.apply(action, dice))
        except (IllegalActionError, ValueError) as e:
            raise ReplayError(f"{source}: does not reproduce at step {step}: {e}") from None
        if on_state is not None:
            on_state(enc, step)
    if rec.get("reason") == "stopped":  # a game a person stopped early: replay what was played
        return log
    if not enc.is_over():
        raise ReplayError(
            f"{source}: does not reproduce: the fight is not over after "
            f"{len(rec['actions'])} actions"
        )
    out = enc.outcome()
    for key, got in (("winner", out.winner), ("rounds", out.round)):
        if key in rec and rec[key] != got:
            raise ReplayError(
                f"{source}: does not reproduce: recorded {key} {rec[key]!r}, replay gives {got!r}"
            )
    return log


# ---------------------------------------------------------------------------------- play


@dataclass
class PlayResult:
    record: dict[str, Any]
    path: Path | None
    finished: bool


def play_terminal(
    system: str,
    encounter: str,
    human_side: str,
    opponent: str,
    seed: int = 0,
    rules: str = "full",
    record_dir: str | Path = "runs/play",
    hint_seconds: float = 0.5,
    stdin: IO[str] | None = None,
    console: Any = None,
) -> PlayResult:
    """A person plays ``human_side`` against ``opponent`` in the terminal (see
    ``arena play --help``).

    Input at each of the person's decisions: a number from the list, an action label, ``?`` for the
    search agent's suggestions for their own side, ``q`` to stop. Bad input is answered and asked
    again. The game is saved (also when stopped early) as a JSON record in ``record_dir``.
    """
    from rich.console import Console
    from rich.table import Table

    from agents import make_agent
    from agents.search import SearchAgent, reason

    stdin = stdin or sys.stdin
    console = console or Console(highlight=False, width=None if sys.stdout.isatty() else 150)
    R = get_rules(system)
    options = R.parse_options(rules)
    dice = SeededDice(seed)
    enc = R.new_encounter(encounter, options, dice)
    sides = [s.side for s in enc.sides()]
    if human_side not in sides:
        raise ValueError(
            f"--as {human_side!r} is not a side of {system}/{encounter}; sides: {', '.join(sides)}"
        )
    bot = make_agent(opponent, system, seed + 1)
    helper = SearchAgent(seed=seed, seconds=hint_seconds, system=system, keep=3)
    other = next(s for s in sides if s != human_side)
    names = {human_side: "human", other: opponent}
    actions: list[str] = []
    usage: dict[str, dict[str, int]] = {s: {} for s in sides}
    console.print(
        f"[bold]{system} / {encounter}[/bold] (rules {rules}, seed {seed}): "
        f"you play side {human_side}, "
        f"{opponent} plays side {other}."
    )
    for e in enc.start_events:
        console.print(f"  {e}")

    def show_state(viewer: str) -> None:
        rows = enc.describe(viewer)
        table = Table(title=f"round {enc.round}: {viewer} to decide", show_lines=False)
        for key in rows[0]:
            table.add_column(key)
        for r in rows:
            style = "bold" if r.get("combatant") == viewer else None
            table.add_row(*[str(v) for v in r.values()], style=style)
        console.print(table)

    def ask(legal: list[Any], actor: str) -> Any | None:
        labels = [a.label for a in legal]
        for i, label in enumerate(labels):
            console.print(f"  [cyan]{i:>3}[/cyan]  {label}")
        while True:
            console.print("your move (number or label, ? for suggestions, q to stop): ", end="")
            line = stdin.readline()
            if not line:
                return None  # end of input
            text = line.strip()
            if text in ("q", "quit", "exit"):
                return None
            if text == "?":
                cands = helper.evaluate(enc)
                for c in cands[:5]:
                    lo, hi = c.interval
                    console.print(
                        f"  {labels.index(c.action.label):>3}  {c.action.label:<55} "
                        f"win {c.win_prob:5.1%} "
                        f"({lo:.0%}-{hi:.0%}, {c.n} rollouts)  {reason(c, enc)}"
                    )
                continue
            if text.isdigit():
                if int(text) < len(legal):
                    return legal[int(text)]
                console.print(f"[red]no move {text}: choose 0..{len(legal) - 1}[/red]")
                continue
            if text in labels:
                return legal[labels.index(text)]
            prefixed = text if text.startswith(f"{actor}:") else f"{actor}: {text}"
            if prefixed in labels:
                return legal[labels.index(prefixed)]
            console.print(
                f"[red]{text!r} is not one of your moves; "
                "type its number or its label exactly[/red]"
            )

    finished = True
    while not enc.is_over():
        actor = enc.current_actor()
        side = enc.side_of(actor)
        if side == human_side:
            show_state(actor)
            action = ask(enc.legal_actions(), actor)
            if action is None:
                finished = False
                console.print("stopped; the game so far is saved")
                break
        else:
            action = bot.choose(enc)  # its ActionTaken event below shows what it chose
        actions.append(action.label)
        usage[side][action.kind] = usage[side].get(action.kind, 0) + 1
        for e in enc.apply(action, dice):
            console.print(f"  {e}")
    out = enc.outcome()
    rec = {
        "system": system,
        "encounter": encounter,
        "options": rules,
        "seed": seed,
        "agents": names,
        "winner": out.winner if out else None,
        "reason": out.reason if out else "stopped",
        "rounds": out.round if out else enc.round,
        "actions": actions,
        "usage": usage,
    }
    path = (
        Path(record_dir) / f"{system}_{encounter}_{time.strftime('%Y%m%d-%H%M%S')}_seed{seed}.json"
    )
    atomic_write(path, json.dumps(rec, indent=1) + "\n")
    if finished:
        verdict = (
            "a draw"
            if out.winner is None
            else ("you win" if out.winner == human_side else f"{opponent} wins")
        )
        console.print(f"[bold]{verdict}[/bold] after {out.round} rounds ({out.reason}).")
    console.print(f"record: {path}   (arena replay {path})")
    return PlayResult(rec, path, finished)
