"""Tournament statistics from game records: Elo-scale ratings, win rates with Wilson intervals,
per-pairing and per-encounter tables and action usage (``summarize``), for the Markdown report
(``eval.report``) and the plots (``eval.plots``).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.core.stats import wilson
from eval.records import RecordError, validate_record

__all__ = [
    "AgentStats",
    "EncounterStats",
    "PairStats",
    "PairingStats",
    "Summary",
    "fit_elo",
    "summarize",
]

ELO_BASE = 1500.0
ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per unit of natural log-odds
PRIOR_GAMES = 1.0  # virtual draws of each agent against a fixed 1500-rated anchor
# the dashes the Markdown (eval.report) and the plots (eval.plots) print
EM_DASH = "\u2014"
EN_DASH = "\u2013"


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
        got = _scores(rec)
        games[i, j] += 1
        games[j, i] += 1
        score[i, j] += got[side_a]
        score[j, i] += got[side_b]

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
