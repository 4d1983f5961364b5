"""``arena play``: a person plays one side in the terminal against an agent; every game is saved
as a record that ``arena replay`` re-runs. The screen shows ``Encounter.describe(viewer)`` rows;
``?`` asks the ``search`` agent. Nothing here knows a particular system.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from envs import get_rules
from envs.core import SeededDice
from envs.core.files import atomic_write

__all__ = ["PlayResult", "play_terminal"]


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
