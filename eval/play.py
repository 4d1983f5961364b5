"""``arena play``: a person plays one side in the terminal against an agent, from an encounter or a
situation file (a fight in progress); every game is saved as a record that ``arena replay``
re-runs (a situation's data travels in the record).

Before each of the person's decisions the screen shows what a player at the table sees: the
``Encounter.describe(viewer)`` rows, with the held weapons and the movement left where the
viewer's ``view`` has them, the map as text for a map system (``map_lines``: the system's
optional ``text_map`` part, e.g. a small hex map with each fighter's letter; text rather than a
picture, so it works in any terminal and needs no files), and the legal moves: number, plain
words (``envs.describe_action``) and label. ``?`` asks ``eval.suggest.suggest_encounter`` with a
time budget (``?``: 2 s, ``? 5s``: 5 s). ``q`` or the end of input stops the game; a stopped
game is saved as stopped (no winner), not as a draw.
Nothing here knows a particular system.
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from envs import describe_action, get_rules, get_text_map
from envs.core import SeededDice
from envs.core.files import atomic_write

__all__ = [
    "HINT_SECONDS",
    "PlayResult",
    "play_terminal",
    "parse_hint",
    "fight_table",
    "map_lines",
    "move_lines",
]

HINT_SECONDS = 2.0
"""the budget of a plain ``?``"""
MAX_HINT_SECONDS = 120.0
HINT_ROWS = 5
"""how many suggestions ``?`` shows"""
PROMPT = "your move (number or label; ? suggests, ? 5s thinks longer; q stops): "


@dataclass
class PlayResult:
    record: dict[str, Any]
    path: Path | None
    finished: bool


def parse_hint(text: str, default: float = HINT_SECONDS) -> float:
    """The budget in seconds of a ``?`` request: ``?`` -> ``default``, ``? 5s`` / ``?0.5s`` /
    ``? 3`` -> that many seconds.

    Raises:
        ValueError: not a number of seconds in (0, 120].
    """
    rest = text.strip().removeprefix("?").strip()
    if not rest:
        return default
    try:
        value = float(rest.removesuffix("s").strip())
    except ValueError:
        value = math.nan
    if not 0 < value <= MAX_HINT_SECONDS:
        raise ValueError(
            f"bad budget {rest!r}: write ? ({default:g} s), or seconds like ? 5s or ? 0.5s "
            f"(at most {MAX_HINT_SECONDS:g})"
        )
    return value


def _view(enc: Any, viewer: str | None) -> dict[str, Any]:
    view = enc.view(viewer) if viewer is not None else enc.snapshot()
    return view if isinstance(view, dict) else {}


def fight_table(enc: Any, viewer: str | None, mark: str | None = None) -> list[str]:
    """The ``describe(viewer)`` rows as a text table (``viewer=None``: everything, as the GM sees
    it), plus ``held`` and ``move left`` columns when the view carries them
    (``combatants.ID.held``, ``combatants.ID.derived.movement_left``); the row of ``mark``
    (default: the viewer) is marked ``>``."""
    mark = viewer if mark is None else mark
    rows = [dict(r) for r in enc.describe(viewer)]
    if not rows:
        return []
    known = _view(enc, viewer).get("combatants")
    known = known if isinstance(known, dict) else {}
    for r in rows:
        c = known.get(r.get("combatant", r.get("id")))
        if not isinstance(c, dict):
            continue
        if isinstance(c.get("held"), dict):
            r["held"] = ", ".join(f"{hand}: {item}" for hand, item in c["held"].items()) or "-"
        derived = c.get("derived")
        if isinstance(derived, dict) and "movement_left" in derived:
            left = derived["movement_left"]
            r["move left"] = "" if left is None else str(left)
    keys = list(dict.fromkeys(k for r in rows for k in r))
    width = {k: max(len(k), *(len(str(r.get(k, ""))) for r in rows)) for k in keys}
    out = ["  " + "  ".join(k.ljust(width[k]) for k in keys).rstrip()]
    for r in rows:
        head = "> " if mark is not None and r.get("combatant", r.get("id")) == mark else "  "
        out.append(head + "  ".join(str(r.get(k, "")).ljust(width[k]) for k in keys).rstrip())
    return out


def map_lines(enc: Any, viewer: str | None) -> list[str]:
    """The map as text, as ``viewer`` knows it (``None``: as the GM sees it), by the system's
    optional ``text_map`` part (``envs.get_text_map``); ``[]`` for a system without one."""
    text_map = get_text_map(enc.system)
    return [] if text_map is None else text_map(enc, viewer)


def move_lines(enc: Any, legal: list[Any]) -> list[str]:
    """``number  plain words  [label]`` per legal move (``envs.describe_action``)."""
    words = [describe_action(enc, a) for a in legal]
    width = min(max(map(len, words), default=0), 60)
    return [
        f"  {i:>3}  {w.ljust(width)}  [{a.label}]"
        for i, (a, w) in enumerate(zip(legal, words, strict=True))
    ]


def play_terminal(
    system: str | None,
    encounter: str | None,
    human_side: str,
    opponent: str,
    seed: int = 0,
    rules: str | None = "full",
    record_dir: str | Path = "runs/play",
    hint_seconds: float = HINT_SECONDS,
    stdin: IO[str] | None = None,
    console: Any = None,
    situation: str | Path | None = None,
) -> PlayResult:
    """A person plays ``human_side`` against ``opponent`` in the terminal (see
    ``arena play --help``), from ``system``/``encounter`` or from a ``situation`` file (whose
    system it then is).

    Input at each of the person's decisions: a number from the list, an action label (with or
    without the actor), ``?`` / ``? 5s`` for suggestions, ``q`` to stop. Bad input is answered
    and asked again. The game is saved (also when stopped) as a JSON record in ``record_dir``.
    """
    import yaml
    from rich.console import Console

    from agents import make_agent
    from envs.core.cases import encounter_from_situation, load_situation
    from eval.suggest import suggest_encounter

    stdin = stdin or sys.stdin
    console = console or Console(highlight=False, width=None if sys.stdout.isatty() else 150)
    dice = SeededDice(seed)
    situation_rec = None
    if situation is not None:
        data = load_situation(situation)
        enc = encounter_from_situation(data, str(situation), dice)
        system, name = enc.system, str(data.get("encounter") or "custom")
        rules_rec: Any = data.get("options")
        situation_rec = {"source": str(situation), "yaml": yaml.safe_dump(
            data, sort_keys=False, allow_unicode=True)}
        where = f"{situation} ({data.get('title') or name})"
    else:
        if system is None or encounter is None:
            raise ValueError("play needs a system and an encounter, or a situation file")
        R = get_rules(system)
        enc = R.new_encounter(encounter, R.parse_options(rules), dice)
        name, rules_rec, where = encounter, rules, f"{system} / {encounter} (rules {rules})"
    sides = [s.side for s in enc.sides()]
    if human_side not in sides:
        raise ValueError(
            f"--as {human_side!r} is not a side of {where}; sides: {', '.join(sides)}"
        )
    bot = make_agent(opponent, system, seed + 1)
    other = next(s for s in sides if s != human_side)
    names = {human_side: "human", other: opponent}
    actions: list[str] = []
    usage: dict[str, dict[str, int]] = {s: {} for s in sides}

    def say(text: str = "") -> None:
        console.print(text, markup=False, soft_wrap=True)

    say(f"{where}, seed {seed}: you play side {human_side}, {opponent} plays side {other}.")
    for e in getattr(enc, "start_events", []):
        say(f"  {e}")

    def hints(legal: list[Any], budget: float) -> None:
        result = suggest_encounter(enc, seconds=budget, seed=seed + len(actions))
        index = {a.label: i for i, a in enumerate(legal)}
        rows = []
        for m in result["moves"][:HINT_ROWS]:
            i = index[m["label"]]
            words = m.get("words") or describe_action(enc, legal[i])
            more = len(m.get("variants", [])) - 1
            rows.append((i, words + (f" (+{more} same-effect)" if more > 0 else ""), m))
        width = max(len(w) for _, w, _ in rows)
        for i, words, m in rows:
            lo, hi = m["interval"]
            say(f"  {i:>3}  {words.ljust(width)}  win {m['win_prob']:6.1%} ({lo:.0%}-{hi:.0%}) "
                f"n={m['rollouts']}  {m['reason']}")
        say(f"  ({result['rollouts']} rollouts in {result['seconds']:.1f} s; "
            "win = your side's chance to win, 95% interval; ? 5s thinks longer)")

    def ask(legal: list[Any], actor: str) -> Any | None:
        labels = [a.label for a in legal]
        for line in move_lines(enc, legal):
            say(line)
        while True:
            console.print(PROMPT, end="", markup=False)
            line = stdin.readline()
            if not line:
                return None  # end of input
            text = line.strip()
            if text in ("q", "quit", "exit"):
                return None
            if text.startswith("?"):
                try:
                    budget = parse_hint(text, hint_seconds)
                except ValueError as e:
                    say(str(e))
                    continue
                hints(legal, budget)
                continue
            if text.isdigit():
                if int(text) < len(legal):
                    return legal[int(text)]
                say(f"no move {text}: choose 0..{len(legal) - 1}")
                continue
            for label in (text, f"{actor}: {text}"):
                if label in labels:
                    return legal[labels.index(label)]
            say(f"{text!r} is not one of your moves; type its number or its label exactly")

    finished = True
    try:
        while not enc.is_over():
            actor = enc.current_actor()
            side = enc.side_of(actor)
            if side == human_side:
                say(f"\nround {enc.round}: {actor} (side {side}) to decide")
                for line in fight_table(enc, actor) + map_lines(enc, actor):
                    say(line)
                action = ask(enc.legal_actions(), actor)
                if action is None:
                    finished = False
                    break
            else:
                action = bot.choose(enc)
                say(f"  {opponent} ({side}): {describe_action(enc, action)}")
            actions.append(action.label)
            usage[side][action.kind] = usage[side].get(action.kind, 0) + 1
            for e in enc.apply(action, dice):
                say(f"  {e}")
    except KeyboardInterrupt:
        finished = False
    out = enc.outcome() if finished else None
    rec: dict[str, Any] = {
        "system": system,
        "encounter": name,
        "options": rules_rec,
        "seed": seed,
        "agents": names,
        "winner": out.winner if out else None,
        "reason": out.reason if out else "stopped",
        "stopped": not finished,
        "rounds": out.round if out else enc.round,
        "actions": actions,
        "usage": usage,
    }
    if situation_rec is not None:
        rec["situation"] = situation_rec
    stem = Path(situation).stem if situation is not None else name
    path = Path(record_dir) / f"{system}_{stem}_{time.strftime('%Y%m%d-%H%M%S')}_seed{seed}.json"
    atomic_write(path, json.dumps(rec, indent=1) + "\n")
    if out is not None:
        verdict = (
            "a draw"
            if out.winner is None
            else ("you win" if out.winner == human_side else f"{opponent} wins")
        )
        say(f"{verdict} after {out.round} rounds ({out.reason}).")
    else:
        say(f"\nstopped after {len(actions)} actions; the game so far is saved (not a draw)")
    say(f"record: {path}   (arena replay {path})")
    return PlayResult(rec, path, finished)
