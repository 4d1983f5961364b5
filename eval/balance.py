"""``arena balance ENCOUNTER_OR_FILE``: the designer's bench (docs/balance.md).

One report (``report.md``, ``balance.json`` and PNGs under ``--out``) on one fight, played by the
same agent kind on both sides:

- **side balance**: each side's win rate with its 95% Wilson interval, draws, the fight length
  distribution; a side that wins less than 5% of its games is flagged *unwinnable* (*unsure*
  while its 95% upper bound is 5% or more), a fight drawn in at least half its games *mostly
  draws*, and otherwise a fight whose first side scores 45-55% (a draw counts half) *balanced*;
- **option impact** (restricted play): for every option of every combatant
  (``eval.balance_options``), the side's score with that option banned minus its score with it,
  paired game by game on the same seeds, with its interval, and how often the option was chosen.
  A ban that lowers the score by at least ``DOMINANT`` (interval below zero) marks a *dominant*
  option; an option never chosen, or whose ban moves the score by less than ``DEAD`` (interval
  across zero), is *dead weight*. An option never chosen in the baseline's games is dead weight
  without playing its ban (its row says in how many games, with the 95% upper bound of the share
  of games it would be chosen in). Two options of a combatant that always went together (every
  legal action of the baseline's games that used one used the other: ``family:jab`` and ``jab
  bonus``) are the same ban: the second is played for one batch, and when every one of those games
  goes exactly as the first ban's did, its row repeats the first's (``same_as``); otherwise it is
  played in full;
- **combatant value** (leave-one-out): the side's score without each combatant minus its score with
  it (a side left with nobody is no variant; the report says so). For a named encounter both are
  played from its own-fight form (``eval.fights.own_form``).

``--games N`` plays N games of every variant; otherwise games are added in batches until the
baseline's 95% half-width is at most ``--precision`` and each difference's at most twice that, or
``--max-games`` (said in the report). Every number comes with its interval and sample size.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from envs.core.stats import paired_difference, wilson
from eval.balance_run import Bench, Variant, fingerprint
from eval.fights import Fight

__all__ = ["BalanceConfig", "score", "score_difference", "side_summary", "run_balance",
           "adaptive", "DOMINANT", "DEAD"]

DOMINANT = 0.10
"""a ban that lowers the side's score by this much or more (interval below zero): dominant"""
DEAD = 0.03
"""a ban that moves the score by less than this (interval across zero): dead weight"""
UNWINNABLE = 0.05
BALANCED = (0.45, 0.55)
MOSTLY_DRAWS = 0.5
"""a fight drawn at least this often is flagged *mostly draws* and never called balanced: its
first side's score sits near 50% because nobody wins, not because both sides win alike"""


@dataclass
class BalanceConfig:
    fight: Fight
    agent: str = "heuristic"
    games: int | None = None
    precision: float = 0.05
    max_games: int = 1000
    batch: int = 50
    out: str = "runs/balance"
    seed: int = 0
    workers: int = 2
    ray: str | None = None
    """``None``: local processes; else Ray (``eval.backend.Backend.ray``)"""
    progress: bool = True
    options: Any = None
    """rule options (``None``: the fight's own)"""
    bans: bool = True
    loo: bool = True
    only: tuple[str, ...] | None = None
    """ban only these options (``None``: every option of every combatant)"""
    extra: dict[str, Any] = field(default_factory=dict)


def score(rec: dict[str, Any], side: str) -> float:
    """A game's score for ``side``: a win 1, a draw 0.5, a loss 0."""
    if rec["winner"] is None:
        return 0.5
    return 1.0 if rec["winner"] == side else 0.0


def _half(lo: float, hi: float) -> float:
    return (hi - lo) / 2 if math.isfinite(lo) and math.isfinite(hi) else math.inf


def side_summary(games: list[dict[str, Any]], sides: list[str]) -> dict[str, Any]:
    """Win rates per side (Wilson intervals), draws, the first side's score and the fight
    lengths of ``games``; the ``unwinnable`` and ``balanced`` flags."""
    n = len(games)
    out: dict[str, Any] = {"n": n, "sides": {}}
    for side in sides:
        k = sum(1 for g in games if g["winner"] == side)
        lo, hi = wilson(k, n)
        out["sides"][side] = {"wins": k, "rate": k / n if n else math.nan, "lo": lo, "hi": hi}
    draws = sum(1 for g in games if g["winner"] is None)
    out["draws"] = {"n": draws, "rate": draws / n if n else math.nan,
                    "lo": wilson(draws, n)[0], "hi": wilson(draws, n)[1]}
    s = sum(score(g, sides[0]) for g in games)
    lo, hi = wilson(s, n)
    out["score"] = {"side": sides[0], "rate": s / n if n else math.nan, "lo": lo, "hi": hi}
    rounds = sorted(g["rounds"] for g in games)
    out["rounds"] = {
        "mean": sum(rounds) / n if n else math.nan,
        "median": rounds[n // 2] if n else math.nan,
        "p10": rounds[n // 10] if n else math.nan,
        "p90": rounds[min(n - 1, (9 * n) // 10)] if n else math.nan,
        "counts": {str(r): rounds.count(r) for r in sorted(set(rounds))},
    }
    losers = [side for side in sides if out["sides"][side]["rate"] < UNWINNABLE]
    out["unwinnable"] = losers
    out["unsure"] = [side for side in losers if out["sides"][side]["hi"] >= UNWINNABLE]
    """flagged sides whose 95% upper bound is still 5% or more: more games would tell"""
    out["mostly_draws"] = bool(n) and draws / n >= MOSTLY_DRAWS
    out["balanced"] = (not losers and not out["mostly_draws"]
                       and BALANCED[0] <= out["score"]["rate"] <= BALANCED[1])
    return out


# ---------------------------------------------------------------------------------- sampling

Need = Callable[[Bench, int], float]
"""``need(bench, n)``: the 95% half-width the tracked number has after ``n`` games"""


def adaptive(bench: Bench, arms: list[tuple[Variant, Variant | None, str]], cfg: BalanceConfig,
             base_half: float, diff_half: float, desc: str = "balance") -> dict[str, int]:
    """Play every arm ``(variant, reference, side)`` until the half-width of its score (no
    reference) is at most ``base_half`` or of its paired difference to the reference's score is at
    most ``diff_half``, or ``cfg.max_games``; with ``cfg.games`` exactly that many. Returns the
    games each variant key has (a reference has at least as many as any arm that uses it)."""
    variants = {v.key: v for v, ref, _ in arms} | {r.key: r for _, r, _ in arms if r is not None}
    if cfg.games is not None:
        target = dict.fromkeys(variants, cfg.games)
        bench.play([(variants[k], n) for k, n in target.items()], desc)
        return target
    target = {k: min(cfg.max_games, max(cfg.batch, bench.count(k))) for k in variants}
    while True:
        for key, ref_key in [(v.key, r.key if r else None) for v, r, _ in arms]:
            if ref_key is not None:
                target[ref_key] = max(target[ref_key], target[key])
        bench.play([(variants[k], n) for k, n in target.items()], desc)
        grown = False
        for v, ref, side in arms:
            n = target[v.key]
            if n >= cfg.max_games:
                continue
            half, goal = _arm_half(bench, v, ref, side, n), (diff_half if ref else base_half)
            if half > goal:
                want = n * min(4.0, (half / goal) ** 2) * 1.1 if math.isfinite(half) else 2 * n
                step = max(cfg.batch, int(math.ceil((want - n) / cfg.batch)) * cfg.batch)
                target[v.key] = min(cfg.max_games, n + step)
                grown = True
        if not grown:
            return target


def _arm_half(bench: Bench, v: Variant, ref: Variant | None, side: str, n: int) -> float:
    mine = [score(g, side) for g in bench.games(v.key, n)]
    if ref is None:
        lo, hi = wilson(sum(mine), n)
        return _half(lo, hi)
    base = [score(g, side) for g in bench.games(ref.key, n)]
    _, lo, hi = paired_difference(mine, base)  # unclamped: the stopping rule's own width
    return _half(lo, hi)


def score_difference(mine: list[float], base: list[float]) -> tuple[float, float, float]:
    """``paired_difference`` of two lists of scores, its interval kept inside [-1, 1] (a score
    difference cannot leave it; the normal approximation can, on a few games)."""
    mean, lo, hi = paired_difference(mine, base)
    return mean, max(-1.0, lo), min(1.0, hi)


def difference(bench: Bench, v: Variant, ref: Variant, side: str, n: int) -> dict[str, Any]:
    """``v``'s score minus ``ref``'s for ``side`` on games ``0 .. n-1`` of both."""
    mine = [score(g, side) for g in bench.games(v.key, n)]
    base = [score(g, side) for g in bench.games(ref.key, n)]
    mean, lo, hi = score_difference(mine, base)
    changed = sum(1 for a, b in zip(mine, base, strict=True) if a != b)
    return {"n": n, "with": sum(base) / n, "without": sum(mine) / n, "delta": mean, "lo": lo,
            "hi": hi, "changed": changed}


# ---------------------------------------------------------------------------------- the bench


def _options_of(bench: Bench, base: Variant, n: int, fight: Fight, options: Any
                ) -> tuple[dict[str, list[str]], dict[str, dict[str, int]]]:
    """Every option each combatant had (seen at its decisions, plus the system's list) and how
    often it chose each, over the baseline's games."""
    from envs.core import SeededDice
    from eval.balance_options import combatant_options_for

    had: dict[str, set[str]] = {}
    used: dict[str, dict[str, int]] = {}
    for g in bench.games(base.key, n):
        for cid, keys in g.get("seen", {}).items():
            had.setdefault(cid, set()).update(keys)
        for cid, counts in g["usage"].items():
            mine = used.setdefault(cid, {})
            for k, c in counts.items():
                mine[k] = mine.get(k, 0) + c
    listed = combatant_options_for(fight.system)
    enc = fight.build(options, SeededDice(0))
    for cid in fight.members(options):
        had.setdefault(cid, set()).update(listed(enc, cid))
    return {cid: sorted(keys) for cid, keys in had.items()}, used


def _alike(games: list[dict[str, Any]]) -> dict[str, dict[str, tuple[Any, ...]]]:
    """By combatant, a signature of each option such that two options have the same one when,
    in every baseline game, each was seen exactly when the other was and every legal action that
    used one used the other (``Tracking.alike``); ``{}`` when a game lacks that record (a run
    recorded before it was kept)."""
    if any("alike" not in g for g in games):
        return {}
    out: dict[str, dict[str, list[Any]]] = {}
    for i, g in enumerate(games):
        for cid, keys in g.get("seen", {}).items():
            groups = {k: tuple(grp) for grp in g["alike"].get(cid, []) for k in grp}
            mine = out.setdefault(cid, {})
            for k in keys:
                mine.setdefault(k, []).append((i, groups.get(k, (k,))))
    return {cid: {k: tuple(sig) for k, sig in sigs.items()} for cid, sigs in out.items()}


def _same_games(bench: Bench, a: str, b: str, n: int) -> bool:
    """Whether games ``0 .. n-1`` of variants ``a`` and ``b`` went the same way, move for move
    (the same seeds: equal bans play equal games)."""
    fields = ("winner", "reason", "rounds", "decisions", "usage", "fallbacks")
    return all(all(x.get(f) == y.get(f) for f in fields)
               for x, y in zip(bench.games(a, n), bench.games(b, n), strict=True))


def _never_row(cid: str, side: str, key: str, n: int) -> dict[str, Any]:
    """An option never chosen in the baseline's ``n`` games: dead weight without playing its ban
    (``played`` false; no Δ). ``chosen_hi``: the 95% upper bound of the share of games in which
    the combatant would choose it (Wilson, 0 of ``n``)."""
    return {"combatant": cid, "side": side, "option": key, "played": False, "n": 0,
            "delta": None, "lo": None, "hi": None, "changed": 0, "used": 0, "games_used": 0,
            "baseline_n": n, "chosen_hi": wilson(0, n)[1], "fallbacks": 0,
            "verdict": "dead weight (never chosen)"}


def _verdict(row: dict[str, Any]) -> str:
    if row["used"] == 0:
        return "dead weight (never chosen)"
    if row["hi"] < 0 and row["delta"] <= -DOMINANT:
        return "dominant"
    if row["lo"] > 0 and row["delta"] >= DOMINANT:
        return "a trap (better banned)"
    if row["lo"] <= 0 <= row["hi"] and abs(row["delta"]) < DEAD:
        return "dead weight (ban changes nothing)"
    return ""


def run_balance(cfg: BalanceConfig, log: Any = None) -> tuple[dict[str, Any], Any]:
    """Play what the report needs (see the module docstring), write it; returns the summary
    and the report's path. ``KeyboardInterrupt`` after keeping every finished game."""
    from eval.balance_report import write_report

    fight, opts = cfg.fight, cfg.options
    fp = fingerprint(fight.system, fight, cfg.agent, opts)
    bench = Bench(cfg.out, fp, cfg.agent, seed=cfg.seed, workers=cfg.workers,
                  progress=cfg.progress, log=log, ray=cfg.ray)
    sides = list(fight.sides(opts))
    members = fight.members(opts)
    base = Variant("base", fight, opts, track=True)
    n_base = adaptive(bench, [(base, None, sides[0])], cfg, cfg.precision, 2 * cfg.precision,
                      "baseline")["base"]
    summary: dict[str, Any] = {
        "system": fight.system, "fight": fight.label, "source": fight.record(),
        "agent": cfg.agent, "rules": "as given" if opts is None else str(opts), "seed": cfg.seed,
        "precision": cfg.precision if cfg.games is None else None, "max_games": cfg.max_games,
        "balance": side_summary(bench.games("base", n_base), sides), "members": members,
        "reused": bench.reused,
    }
    arms: list[tuple[Variant, Variant | None, str]] = [(base, None, sides[0])]
    had, used = _options_of(bench, base, n_base, fight, opts)
    bans = []
    from eval.balance_options import turn_structure_for

    structure = turn_structure_for(fight.system)
    summary["not_banned"] = sorted(structure)
    never: list[dict[str, Any]] = []
    twins: list[tuple[Variant, Variant]] = []
    """(a ban whose options always went with an earlier ban's, that earlier ban)"""
    if cfg.bans:
        alike = _alike(bench.games(base.key, n_base))
        for cid, keys in had.items():
            first: dict[tuple[Any, ...], Variant] = {}
            for key in (k for k in keys if k not in structure
                        and (cfg.only is None or k in cfg.only)):
                if not used.get(cid, {}).get(key):  # its verdict is known: not played
                    never.append(_never_row(cid, members[cid], key, n_base))
                    continue
                v = Variant(f"ban:{cid}:{key}", fight, opts, ((cid, key),),
                            meta={"combatant": cid, "option": key})
                sig = alike.get(cid, {}).get(key)
                if sig is not None and sig in first:  # the same ban: checked, not replayed
                    twins.append((v, first[sig]))
                    continue
                if sig is not None:
                    first[sig] = v
                bans.append(v)
                arms.append((v, base, members[cid]))
    loos, skipped, ref = [], [], base
    if cfg.loo and len(members) > 2:
        if not fight.is_file:
            ref = Variant("loo_base", Fight.from_data(fight.situation(), fight.label,
                                                      note="own form"), opts)
        for cid, side in members.items():
            if sum(1 for s in members.values() if s == side) < 2:
                skipped.append(cid)
                continue
            v = Variant(f"loo:{cid}", ref.fight.without(cid), opts, meta={"combatant": cid})
            loos.append(v)
            arms.append((v, ref, side))
    else:
        skipped = list(members) if cfg.loo else []
    got = adaptive(bench, arms, cfg, cfg.precision, 2 * cfg.precision, "variants")
    same: dict[str, tuple[str, int]] = {}
    """a twin ban's key -> (the ban it repeats, games compared)"""
    if twins:
        bench.play([(v, min(cfg.batch, got[ref.key])) for v, ref in twins], "equal bans")
        unlike = []
        for v, ref in twins:
            k = min(cfg.batch, got[ref.key])
            if _same_games(bench, v.key, ref.key, k):
                same[v.key] = (ref.key, k)
            else:  # not the same ban after all: played in full like any other
                unlike.append((v, base, members[v.meta["combatant"]]))
                bans.append(v)
        if unlike:
            got |= adaptive(bench, [(base, None, sides[0]), *unlike], cfg, cfg.precision,
                            2 * cfg.precision, "variants")
    n_base = got["base"]
    summary["balance"] = side_summary(bench.games("base", n_base), sides)
    rows = []
    for v in bans:
        cid, key = v.meta["combatant"], v.meta["option"]
        row = {"combatant": cid, "side": members[cid], "option": key, "played": True,
               **difference(bench, v, base, members[cid], got[v.key]),
               "used": used.get(cid, {}).get(key, 0),
               "games_used": sum(1 for g in bench.games("base", got[v.key])
                                 if g["usage"].get(cid, {}).get(key)),
               "fallbacks": sum(g.get("fallbacks", 0) for g in bench.games(v.key, got[v.key]))}
        row["verdict"] = _verdict(row)
        rows.append(row)
    by_key = {f"ban:{r['combatant']}:{r['option']}": r for r in rows}
    for v, _ in twins:
        if v.key in same:
            ref_key, k = same[v.key]
            rows.append({**by_key[ref_key], "option": v.meta["option"],
                         "same_as": by_key[ref_key]["option"], "checked": k,
                         "used": used.get(v.meta["combatant"], {}).get(v.meta["option"], 0)})
    rows.sort(key=lambda r: (r["delta"], r["combatant"], r["option"]))
    summary["options"] = rows + sorted(never, key=lambda r: (r["combatant"], r["option"]))
    summary["combatants"] = [
        {"combatant": v.meta["combatant"], "side": members[v.meta["combatant"]],
         **difference(bench, v, ref, members[v.meta["combatant"]], got[v.key])}
        for v in loos
    ]
    summary["loo_reference"] = ref.key
    summary["loo_skipped"] = skipped
    summary["capped"] = sorted(k for k, n in got.items() if n >= cfg.max_games
                               and cfg.games is None)
    summary["games_played"] = len(bench.done)
    return summary, write_report(summary, cfg.out)
