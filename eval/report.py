"""Tournament report built only from game records (JSONL), plus training learning curves.

A game record is one JSON object per line::

    {"system": "metanoia", "encounter": "duel_seed", "options": "full", "seed": 3,
     "agents": {"A": "heuristic", "B": "ppo"}, "winner": "A", "reason": "defeated",
     "rounds": 6, "actions": [...], "usage": {"A": {"attack": 4}, "B": {"attack": 5}}}

``agents`` maps exactly two side ids (any strings) to agent display names; ``winner`` is one of
those side ids or ``null`` for a draw. ``usage`` (side -> action kind -> count) and ``options`` are
optional. Nothing here knows about a particular game system.

Typical use::

    records = load_records("runs/t1/games.jsonl")
    path = write_report(records, "runs/t1/report", training_csvs=["runs/ppo/metrics.csv"])

Scores: a win counts 1, a draw 1/2 to each agent, a loss 0. Win rates are score / games with a 95%
Wilson score interval. Ratings are a Bradley-Terry maximum-likelihood fit on the Elo scale (see
:func:`fit_elo`). Games where one agent plays itself count in the per-encounter tables and action
usage, but not in the win-rate matrix, the per-agent totals or the ratings.

The parts live in ``eval.records`` (loading and validation), ``eval.summary`` (statistics and
ratings) and ``eval.plots`` (pictures); their public names are importable from here.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from envs.core.files import atomic_write
from envs.core.stats import wilson
from eval.plots import plot_learning_curve, plot_winrate_heatmap
from eval.records import RecordError, load_records, validate_record
from eval.summary import (
    EM_DASH,
    EN_DASH,
    AgentStats,
    EncounterStats,
    PairingStats,
    PairStats,
    Summary,
    fit_elo,
    summarize,
)

__all__ = [
    "AgentStats",
    "EncounterStats",
    "PairStats",
    "PairingStats",
    "RecordError",
    "Summary",
    "fit_elo",
    "load_records",
    "plot_learning_curve",
    "plot_winrate_heatmap",
    "render_markdown",
    "summarize",
    "validate_record",
    "wilson",
    "write_report",
]

TOP_KINDS = 6


def _pct(x: float, digits: int = 1) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:.{digits}f}%"


def _md(text: str) -> str:
    """Escape a name for a Markdown table cell."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|")


def winrate_cell(pair: PairStats) -> str:
    """Matrix cell text such as ``62.5% (57.6–67.2)``; ``no games`` if the agents never met."""
    if not pair.games:
        return "no games"
    lo, hi = pair.interval
    return f"{100 * pair.win_rate:.1f}% ({100 * lo:.1f}{EN_DASH}{100 * hi:.1f})"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], align: str) -> list[str]:
    marks = {"l": "---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks[a] for a in align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def render_markdown(summary: Summary, plots: Mapping[str, str] | None = None) -> str:
    """Render the summary as a Markdown report.

    Args:
        summary: From :func:`summarize`.
        plots: Caption -> image file name relative to the report (e.g.
            ``{"Win-rate matrix": "winrate.png"}``); each becomes an image link.

    Returns:
        The report text, ending with a newline.
    """
    s = summary
    encounter_names = sorted({e.label for e in s.encounters})
    out = [f"# Tournament report: {', '.join(s.systems)}", ""]
    out += [f"- Encounters: {', '.join(encounter_names)}",
            f"- Games: {s.games} over {s.seeds} seed{'s' if s.seeds != 1 else ''}",
            f"- Agents: {len(s.agents)}", ""]

    out += ["## Win rates", "",
            "Row's score against column; draws count half; 95% Wilson interval in parentheses.", ""]
    header = ["agent \\ opponent"] + [_md(a) for a in s.agents]
    rows = []
    for a in s.agents:
        cells = [EM_DASH if a == b else winrate_cell(s.pair(a, b)) for b in s.agents]
        rows.append([f"**{_md(a)}**"] + cells)
    out += _table(header, rows, "l" + "c" * len(s.agents)) + [""]

    out += ["## Ratings", "",
            "Bradley-Terry fit on the Elo scale (mean 1500, weak prior of one draw against a "
            "1500 anchor per agent).", ""]
    rows = []
    for i, a in enumerate(s.agents, start=1):
        st = s.agent_stats[a]
        rows.append([str(i), _md(a), str(round(st.rating)), str(st.games),
                     f"{st.wins}-{st.draws}-{st.losses}", _pct(st.score_rate)])
    out += _table(["rank", "agent", "Elo", "games", "W-D-L", "score"], rows, "rlrrrr") + [""]

    out += ["## Encounters", ""]
    multi_system = len(s.systems) > 1
    for enc in s.encounters:
        title = f"{enc.system} / {enc.label}" if multi_system else enc.label
        side_txt = ", ".join(f"{_md(side)} {_pct(enc.side_win_rate(side))}" for side in enc.sides)
        out += [f"### {_md(title)}", "",
                f"{enc.games} games, mean {enc.mean_rounds:.1f} rounds; side wins: {side_txt}; "
                f"draws {_pct(enc.draw_rate)}.", ""]
        rows = []
        for p in enc.pairings:
            a, b = p.agents
            rows.append([f"{_md(a)} vs {_md(b)}", str(p.games), f"{p.mean_rounds:.1f}",
                         EM_DASH if a == b else _pct(p.first_score_rate),
                         ", ".join(f"{_md(side)} {_pct(p.side_win_rate(side))}"
                                   for side in enc.sides),
                         _pct(p.draw_rate)])
        out += _table(["pairing", "games", "mean rounds", "first agent's score", "side wins",
                       "draws"], rows, "lrrrll") + [""]

    out += ["## Action usage", ""]
    if not any(enc.usage for enc in s.encounters):
        out += ["No action usage recorded.", ""]
    for enc in s.encounters:
        if not enc.usage:
            continue
        title = f"{enc.system} / {enc.label}" if multi_system else enc.label
        rows = []
        for agent, counts in enc.usage.items():
            share = enc.usage_share(agent)
            kinds = list(counts)
            top = [f"{_md(k)} {_pct(share[k], 0)}" for k in kinds[:TOP_KINDS]]
            if len(kinds) > TOP_KINDS:
                top.append(f"other {_pct(sum(share[k] for k in kinds[TOP_KINDS:]), 0)}")
            rows.append([_md(agent), str(sum(counts.values())), ", ".join(top)])
        out += [f"### {_md(title)}", ""]
        out += _table(["agent", "actions", "most used kinds"], rows, "lrl") + [""]

    if plots:
        out += ["## Figures", ""]
        for caption, file in plots.items():
            out += [f"![{caption}]({file})", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def write_report(records: Iterable[Mapping[str, Any]], out_dir: str | os.PathLike[str],
                 training_csvs: Sequence[str | os.PathLike[str]] = ()) -> Path:
    """Write ``report.md``, ``winrate.png`` and, with training data, ``learning_curve.png``.

    Args:
        records: Game records (see :func:`load_records`).
        out_dir: Output folder, created if needed.
        training_csvs: Training metrics CSVs for the learning curve (optional).

    Returns:
        The path of ``report.md``.

    Raises:
        RecordError: If the records or a training CSV are unusable.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = summarize(records)
    plots = {"Win-rate matrix": "winrate.png"}
    plot_winrate_heatmap(summary, out / "winrate.png")
    if training_csvs and plot_learning_curve(training_csvs, out / "learning_curve.png"):
        plots["Learning curve"] = "learning_curve.png"
    return atomic_write(out / "report.md", render_markdown(summary, plots).encode("utf-8"))
