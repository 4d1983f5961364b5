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
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.files import atomic_write
from envs.core.stats import wilson

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

ELO_BASE = 1500.0
ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per unit of natural log-odds
PRIOR_GAMES = 1.0  # virtual draws of each agent against a fixed 1500-rated anchor
EM_DASH = "\u2014"
EN_DASH = "\u2013"
TOP_KINDS = 6


class RecordError(ValueError):
    """A game record or a metrics file that cannot be used; the message is one line."""


# --------------------------------------------------------------------------------------------
# Loading and validation


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_record(rec: Any, where: str) -> dict[str, Any]:
    """Check one game record and return it with defaults filled in.

    Args:
        rec: The decoded JSON value.
        where: Prefix for error messages, e.g. ``"runs/x/games.jsonl line 7"``.

    Returns:
        A shallow copy of ``rec`` with ``usage`` defaulting to ``{}`` and ``options`` to ``None``.

    Raises:
        RecordError: If a required field is missing or has the wrong type or value.
    """
    if not isinstance(rec, dict):
        raise RecordError(f"{where}: expected a JSON object, got {type(rec).__name__}")

    def bad(name: str, what: str) -> RecordError:
        return RecordError(f"{where}: field '{name}' {what}")

    for name in ("system", "encounter", "seed", "agents", "winner", "rounds"):
        if name not in rec:
            raise bad(name, "is missing")
    for name in ("system", "encounter"):
        if not isinstance(rec[name], str) or not rec[name]:
            raise bad(name, "must be a non-empty string")
    if not _is_int(rec["seed"]):
        raise bad("seed", "must be an integer")
    agents = rec["agents"]
    if (not isinstance(agents, dict) or len(agents) != 2
            or not all(isinstance(k, str) and isinstance(v, str) and v for k, v in agents.items())):
        raise bad("agents", "must map exactly 2 side ids to agent names (strings)")
    sides = list(agents)
    winner = rec["winner"]
    if winner is not None and winner not in agents:
        raise bad("winner", f"must be one of the sides {sides[0]}, {sides[1]} or null")
    if not _is_int(rec["rounds"]) or rec["rounds"] < 0:
        raise bad("rounds", "must be an integer >= 0")
    usage = rec.get("usage")
    if usage is None:
        usage = {}
    if not isinstance(usage, dict):
        raise bad("usage", "must be an object mapping side ids to {action kind: count}")
    for side, counts in usage.items():
        if side not in agents:
            raise bad("usage", f"has side {side!r}, which is not one of {sides[0]}, {sides[1]}")
        if not isinstance(counts, dict) or not all(
                isinstance(k, str) and _is_int(v) and v >= 0 for k, v in counts.items()):
            raise bad("usage", f"for side {side!r} must map action kinds to counts >= 0")
    if "reason" in rec and rec["reason"] is not None and not isinstance(rec["reason"], str):
        raise bad("reason", "must be a string")
    out = dict(rec)
    out["usage"] = usage
    out.setdefault("options", None)
    return out


def load_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read game records from a JSONL file, one JSON object per line.

    Blank lines are skipped. Every record is checked with :func:`validate_record`.

    Args:
        path: The ``.jsonl`` file.

    Returns:
        The records in file order, with ``usage`` defaulting to ``{}``.

    Raises:
        RecordError: If the file cannot be read, or for the first bad line; the one-line message
            names the file, the line number and the field, e.g.
            ``runs/x/games.jsonl line 7: field 'winner' must be one of the sides A, B or null``.
    """
    name = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{name}: cannot read game records ({exc})") from exc
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{where}: invalid JSON ({exc.msg} at column {exc.colno})") from exc
        records.append(validate_record(rec, where))
    return records


# --------------------------------------------------------------------------------------------
# Statistics


def _agent_names(records: Iterable[Mapping[str, Any]]) -> list[str]:
    return sorted({name for rec in records for name in rec["agents"].values()})


def _scores(rec: Mapping[str, Any]) -> dict[str, float]:
    """Score of each side in one game: 1 win, 0.5 draw, 0 loss."""
    winner = rec["winner"]
    return {side: 0.5 if winner is None else float(side == winner) for side in rec["agents"]}


def fit_elo(records: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Bradley-Terry maximum-likelihood ratings on the Elo scale.

    Each agent ``i`` has a strength ``s_i`` (natural log-odds) with
    ``P(i beats j) = 1 / (1 + exp(s_j - s_i))``; a game scores 1 for a win, 0.5 for a draw and 0
    for a loss, and the fit maximises ``sum score * log P + (1 - score) * log(1 - P)`` over all
    games between two different agents (all encounters and systems pooled).

    Prior: every agent also plays one virtual draw against a fixed anchor of strength 0
    (1500). This is a weak logistic prior pulling strengths toward the anchor; it keeps an agent
    that wins (or loses) every game finite and makes the optimum unique, and its weight fades as
    real games accumulate. Agents that never met anyone stay at the anchor before the shift.

    Strengths are converted with ``1500 + 400 * log10(odds)`` and then shifted so the mean
    rating is exactly 1500. The fit is a damped Newton iteration, so it is deterministic.

    Args:
        records: Game records (see :func:`validate_record`).

    Returns:
        Agent name -> rating; empty if there are no records.
    """
    records = list(records)
    names = _agent_names(records)
    if not names:
        return {}
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    games = np.zeros((n, n))
    score = np.zeros((n, n))  # score[i, j]: points i took from games against j
    for rec in records:
        (side_a, name_a), (side_b, name_b) = rec["agents"].items()
        if name_a == name_b:
            continue
        i, j = index[name_a], index[name_b]
        s = _scores(rec)
        games[i, j] += 1
        games[j, i] += 1
        score[i, j] += s[side_a]
        score[j, i] += s[side_b]

    def objective(s: np.ndarray) -> float:
        diff = s[:, None] - s[None, :]
        # log sigmoid(d) = -logaddexp(0, -d); score[j, i] supplies each game's other half
        ll = -(score * np.logaddexp(0.0, -diff)).sum()
        prior = -0.5 * PRIOR_GAMES * (np.logaddexp(0.0, -s) + np.logaddexp(0.0, s)).sum()
        return float(ll + prior)

    s = np.zeros(n)
    value = objective(s)
    for _ in range(100):
        diff = s[:, None] - s[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))  # p[i, j] = P(i beats j)
        q = 1.0 / (1.0 + np.exp(-s))  # P(i beats anchor)
        grad = (score - games * p).sum(axis=1) + PRIOR_GAMES * (0.5 - q)
        w = games * p * (1.0 - p)
        hess = w - np.diag(w.sum(axis=1) + PRIOR_GAMES * q * (1.0 - q))  # negative definite
        step = np.linalg.solve(hess, -grad)
        t = 1.0
        while True:  # backtracking keeps every step an ascent step
            candidate = s + t * step
            new_value = objective(candidate)
            if new_value >= value - 1e-12 or t < 1e-6:
                break
            t *= 0.5
        s, value = candidate, new_value
        if np.max(np.abs(t * step)) < 1e-10:
            break
    ratings = ELO_BASE + ELO_SCALE * s
    ratings += ELO_BASE - ratings.mean()
    return {name: float(ratings[index[name]]) for name in names}


@dataclass(frozen=True)
class PairStats:
    """Results of ``agent`` (row) against ``opponent`` (column), all encounters pooled."""

    agent: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    mean_rounds: float

    @property
    def score(self) -> float:
        """Wins plus half the draws."""
        return self.wins + self.draws / 2

    @property
    def win_rate(self) -> float:
        """Score / games (NaN without games)."""
        return self.score / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`win_rate`."""
        return wilson(self.score, self.games)


@dataclass(frozen=True)
class AgentStats:
    """One agent's totals over games against other agents."""

    name: str
    rating: float
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """Wins plus half the draws."""
        return self.wins + self.draws / 2

    @property
    def score_rate(self) -> float:
        """Score / games (NaN without games)."""
        return self.score / self.games if self.games else math.nan


@dataclass(frozen=True)
class PairingStats:
    """One unordered pairing within one encounter; ``agents`` is ordered best-rated first."""

    agents: tuple[str, str]
    games: int
    mean_rounds: float
    first_score: float  # score of agents[0] (0 when both names are the same agent)
    side_wins: dict[str, int]
    draws: int

    @property
    def first_score_rate(self) -> float:
        """Score rate of ``agents[0]`` in this pairing."""
        return self.first_score / self.games if self.games else math.nan

    def side_win_rate(self, side: str) -> float:
        """Fraction of this pairing's games won by ``side``."""
        return self.side_wins.get(side, 0) / self.games if self.games else math.nan

    @property
    def draw_rate(self) -> float:
        """Fraction of this pairing's games drawn."""
        return self.draws / self.games if self.games else math.nan


@dataclass(frozen=True)
class EncounterStats:
    """Everything about one (system, encounter, options) group of games."""

    system: str
    encounter: str
    options: str | None
    games: int
    mean_rounds: float
    sides: list[str]
    side_wins: dict[str, int]
    draws: int
    pairings: list[PairingStats]
    usage: dict[str, dict[str, int]]  # agent -> action kind -> count, most used first

    @property
    def label(self) -> str:
        """Encounter name, with options in brackets when given."""
        return self.encounter + (f" [{self.options}]" if self.options else "")

    def side_win_rate(self, side: str) -> float:
        """Fraction of games won by ``side``."""
        return self.side_wins.get(side, 0) / self.games if self.games else math.nan

    @property
    def draw_rate(self) -> float:
        """Fraction of games drawn."""
        return self.draws / self.games if self.games else math.nan

    def usage_share(self, agent: str) -> dict[str, float]:
        """Action kind -> share of ``agent``'s actions in this encounter (0..1)."""
        counts = self.usage.get(agent, {})
        total = sum(counts.values())
        return {kind: c / total for kind, c in counts.items()} if total else {}


@dataclass(frozen=True)
class Summary:
    """Tournament statistics; see :func:`summarize`."""

    systems: list[str]
    games: int
    seeds: int
    agents: list[str]  # best rating first
    ratings: dict[str, float]
    agent_stats: dict[str, AgentStats]
    pairs: dict[tuple[str, str], PairStats]  # (row agent, column agent), both orders present
    encounters: list[EncounterStats] = field(default_factory=list)

    def pair(self, agent: str, opponent: str) -> PairStats:
        """Results of ``agent`` against ``opponent`` (zero games if they never met)."""
        found = self.pairs.get((agent, opponent))
        return found or PairStats(agent, opponent, 0, 0, 0, 0, math.nan)


def _mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else math.nan


def _sorted_counts(counts: Mapping[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def summarize(records: Iterable[Mapping[str, Any]]) -> Summary:
    """Compute the tournament statistics from game records only.

    Args:
        records: Game records, as returned by :func:`load_records` (records built in memory are
            validated here too, e.g. ``EpisodeRecord.to_dict()`` without ``usage``).

    Returns:
        A :class:`Summary`: agents sorted by rating (best first, ties by name), per ordered pair
        games / wins / draws / losses / score / win rate / Wilson interval / mean rounds, per agent
        totals and rating, and per encounter games, mean rounds, side win rates, draws, pairings
        and action usage per agent (summed over the sides the agent played).

    Raises:
        RecordError: If there are no records or one is malformed.
    """
    recs = [validate_record(dict(r), f"record {i}") for i, r in enumerate(records, start=1)]
    if not recs:
        raise RecordError("no game records to summarize")
    ratings = fit_elo(recs)
    agents = sorted(ratings, key=lambda a: (-round(ratings[a], 9), a))
    rank = {a: i for i, a in enumerate(agents)}

    # ordered pairs, all encounters pooled
    wdl: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    pair_rounds: dict[tuple[str, str], list[int]] = defaultdict(list)
    for rec in recs:
        (side_a, name_a), (side_b, name_b) = rec["agents"].items()
        if name_a == name_b:
            continue
        for (me, my_side), (them, _) in (((name_a, side_a), (name_b, side_b)),
                                         ((name_b, side_b), (name_a, side_a))):
            slot = 1 if rec["winner"] is None else (0 if rec["winner"] == my_side else 2)
            wdl[me, them][slot] += 1
            pair_rounds[me, them].append(rec["rounds"])
    pairs = {key: PairStats(key[0], key[1], sum(v), v[0], v[1], v[2], _mean(pair_rounds[key]))
             for key, v in wdl.items()}
    agent_stats = {}
    for a in agents:
        rows = [p for (me, _), p in pairs.items() if me == a]
        agent_stats[a] = AgentStats(a, ratings[a], sum(p.games for p in rows),
                                    sum(p.wins for p in rows), sum(p.draws for p in rows),
                                    sum(p.losses for p in rows))

    # encounters
    groups: dict[tuple[str, str, str | None], list[dict[str, Any]]] = defaultdict(list)
    for rec in recs:
        opts = rec.get("options")
        groups[rec["system"], rec["encounter"], None if opts is None else str(opts)].append(rec)
    encounters = []
    for (system, encounter, options), group in sorted(groups.items(),
                                                      key=lambda kv: tuple(map(str, kv[0]))):
        sides = sorted({side for rec in group for side in rec["agents"]})
        by_pairing: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        usage: dict[str, Counter[str]] = defaultdict(Counter)
        for rec in group:
            first_name, second_name = sorted(rec["agents"].values(), key=lambda a: (rank[a], a))
            by_pairing[first_name, second_name].append(rec)
            for side, counts in rec["usage"].items():
                usage[rec["agents"][side]].update(counts)
        pairings = []
        for key in sorted(by_pairing, key=lambda k: (rank[k[0]], rank[k[1]])):
            games = by_pairing[key]
            first = 0.0
            if key[0] != key[1]:
                for rec in games:
                    s = _scores(rec)
                    first += sum(s[side] for side, name in rec["agents"].items() if name == key[0])
            pairings.append(PairingStats(
                agents=key, games=len(games), mean_rounds=_mean([r["rounds"] for r in games]),
                first_score=first,
                side_wins=dict(Counter(r["winner"] for r in games if r["winner"] is not None)),
                draws=sum(r["winner"] is None for r in games)))
        encounters.append(EncounterStats(
            system=system, encounter=encounter, options=options, games=len(group),
            mean_rounds=_mean([r["rounds"] for r in group]), sides=sides,
            side_wins=dict(Counter(r["winner"] for r in group if r["winner"] is not None)),
            draws=sum(r["winner"] is None for r in group), pairings=pairings,
            usage={a: _sorted_counts(usage[a]) for a in sorted(usage, key=lambda a: (rank[a], a))
                   if sum(usage[a].values())}))

    return Summary(systems=sorted({r["system"] for r in recs}), games=len(recs),
                   seeds=len({r["seed"] for r in recs}), agents=agents, ratings=ratings,
                   agent_stats=agent_stats, pairs=pairs, encounters=encounters)


# --------------------------------------------------------------------------------------------
# Markdown


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


# --------------------------------------------------------------------------------------------
# Files and plots


def _save_figure(fig: Any, path: str | os.PathLike[str], dpi: int = 120) -> None:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", pad_inches=0.15)
    atomic_write(path, buf.getvalue())


def plot_winrate_heatmap(summary: Summary, path: str | os.PathLike[str]) -> None:
    """Save the win-rate matrix as a PNG heatmap (row = agent, column = opponent).

    Cells show the win rate and, on a smaller second line, the 95% Wilson interval; the
    colormap is RdYlGn from 0% to 100% (yellow at 50%); the diagonal and pairs that never met are
    grey.

    Args:
        summary: From :func:`summarize`.
        path: The PNG file to write (atomically).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    names = summary.agents
    n = len(names)
    rate = np.full((n, n), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if a != b and summary.pair(a, b).games:
                rate[i, j] = summary.pair(a, b).win_rate
    side = 1.15 * n + 2.6
    big = 12 if n <= 4 else (11 if n <= 6 else 10)
    small = big - 2
    fig, ax = plt.subplots(figsize=(side + 1.2, side))
    try:
        cmap = matplotlib.colormaps["RdYlGn"].with_extremes(bad="#d9d9d9")
        im = ax.imshow(np.ma.masked_invalid(rate), cmap=cmap, vmin=0.0, vmax=1.0)
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                if np.isnan(rate[i, j]):
                    text = EM_DASH if a == b else "no games"
                    ax.text(j, i, text, ha="center", va="center", fontsize=small, color="#555555")
                    continue
                lo, hi = summary.pair(a, b).interval
                colour = "white" if abs(rate[i, j] - 0.5) > 0.35 else "black"
                ax.text(j, i - 0.09, f"{100 * rate[i, j]:.1f}%", ha="center", va="center",
                        fontsize=big, fontweight="bold", color=colour)
                ax.text(j, i + 0.17, f"({100 * lo:.0f}{EN_DASH}{100 * hi:.0f})", ha="center",
                        va="center", fontsize=small, color=colour)
        ax.set_xticks(range(n), labels=names)
        ax.set_yticks(range(n), labels=names)
        longest = max(len(a) for a in names)
        if longest * n > 40:
            plt.setp(ax.get_xticklabels(), rotation=30, ha="right", rotation_mode="anchor")
        ax.set_xlabel("opponent")
        ax.set_ylabel("agent")
        ax.set_xticks(np.arange(n + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(n + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=2)
        ax.tick_params(which="minor", length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        bar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04,
                           format=PercentFormatter(1.0, decimals=0))
        bar.set_label("row agent's score vs column (draws = ½)")
        ax.set_title(f"Win rates ({summary.games} games, 95% Wilson interval)")
        fig.tight_layout()
        _save_figure(fig, path)
    finally:
        plt.close(fig)


def _read_metrics(path: Path) -> list[dict[str, float]]:
    """Rows of one metrics CSV as ``{column: value}``, empty cells left out."""
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            header = reader.fieldnames
            raw = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise RecordError(f"{path}: cannot read training metrics ({exc})") from exc
    if not header:
        return []
    if "timesteps" not in header:
        raise RecordError(f"{path}: missing column 'timesteps'")
    rows = []
    for number, row in enumerate(raw, start=2):
        values = {}
        for key, cell in row.items():
            if key is None or cell is None or not str(cell).strip():
                continue
            try:
                values[key] = float(cell)
            except ValueError:
                if key == "timesteps" or key == "train_win_rate" or key.startswith("eval_"):
                    raise RecordError(f"{path} line {number}: column '{key}' is not a number: "
                                      f"{cell!r}") from None
        if "timesteps" in values:
            rows.append(values)
    return rows


def _compact(x: float, _pos: object = None) -> str:
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= scale:
            return f"{x / scale:g}{suffix}"
    return f"{x:g}"


def plot_learning_curve(csv_paths: Sequence[str | os.PathLike[str]],
                        path: str | os.PathLike[str]) -> bool:
    """Plot evaluation win rates (and the training win rate) against timesteps.

    Each CSV has a ``timesteps`` column and optionally ``train_win_rate`` and ``eval_<opponent>``
    columns (other columns are ignored; empty cells are skipped). Every non-empty
    ``eval_<opponent>`` column becomes a "win rate vs <opponent>" line with markers and
    ``train_win_rate`` a thin line. With several files, each run is labelled by the CSV's parent
    folder name and drawn with its own line style.

    Args:
        csv_paths: Training metrics files.
        path: The PNG file to write (atomically).

    Returns:
        True if the plot was written; False (nothing written) if no CSV has plottable data.

    Raises:
        RecordError: If a CSV is missing or unreadable, lacks ``timesteps`` or has a non-number
            in a plotted column.
    """
    runs = []
    for p in csv_paths:
        rows = _read_metrics(Path(p))
        series: dict[str, tuple[list[float], list[float]]] = {}
        columns = sorted({k for row in rows for k in row
                          if k.startswith("eval_") and len(k) > len("eval_")})
        for key in columns + ["train_win_rate"]:
            pts = [(row["timesteps"], row[key]) for row in rows if key in row]
            if pts:
                series[key] = ([x for x, _ in pts], [y for _, y in pts])
        if series:
            runs.append((Path(p), series))
    if not runs:
        return False

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, PercentFormatter

    labels = [r.resolve().parent.name or str(r) for r, _ in runs]
    for i, label in enumerate(labels):
        if labels.count(label) > 1:
            labels[i] = f"{label} #{i + 1}"
    several = len(runs) > 1
    opponents = sorted({k for _, series in runs for k in series if k != "train_win_rate"})
    palette = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colours = {k: palette[i % len(palette)] for i, k in enumerate(opponents)}
    styles = ["-", "--", ":", "-."]
    markers = ["o", "s", "^", "D", "v", "P"]

    fig, ax = plt.subplots(figsize=(8.5, 5.0))
    try:
        ax.axhline(0.5, color="#888888", linestyle=":", linewidth=1.0, zorder=0)
        for r, ((_, series), label) in enumerate(zip(runs, labels, strict=True)):
            suffix = f" ({label})" if several else ""
            for key, (xs, ys) in series.items():
                if key == "train_win_rate":
                    ax.plot(xs, ys, color="#555555", linewidth=0.9, alpha=0.8,
                            linestyle=styles[r % len(styles)], label=f"train win rate{suffix}")
                else:
                    ax.plot(xs, ys, color=colours[key], linestyle=styles[r % len(styles)],
                            marker=markers[r % len(markers)], markersize=4, linewidth=1.6,
                            label=f"win rate vs {key[len('eval_'):]}{suffix}")
        ax.set_ylim(-0.02, 1.02)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.xaxis.set_major_formatter(FuncFormatter(_compact))
        ax.set_xlabel("timesteps")
        ax.set_ylabel("win rate")
        ax.set_title("Learning curve")
        ax.grid(alpha=0.3)
        handles = len(ax.get_legend_handles_labels()[0])
        if handles > 6:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
        else:
            ax.legend(loc="best", fontsize=9)
        fig.tight_layout()
        _save_figure(fig, path)
    finally:
        plt.close(fig)
    return True


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
