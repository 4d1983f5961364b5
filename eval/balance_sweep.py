"""``arena balance sweep FILE --set PATH=V1,V2,...`` and ``arena balance rules ENCOUNTER``
(docs/balance.md).

**Sweep**: the first side's score (a draw counts half) and the mean rounds at each value of one
field of the situation file (``PATH`` into its YAML: ``combatants[1].stats.totals.might``), every
value on the same seeds. With ``--target-win`` (or ``--target-rounds``) the search then spends games
where the curve crosses the target: between the two bracketing values of a whole-number field it
bisects (each midpoint played), and the values next to the crossing get more games, until the
crossing is pinned to neighbouring whole numbers or the interval of the value nearest the target
is within ``precision``. The answer is the value whose score is nearest the target.

**Rules**: one row per rule option: CORE against FULL, then each boolean (flipped) or choice field
(every other choice) of the system's ``RuleOptions``, read with ``dataclasses.fields`` from
``rules.parse_options("full")``; each row the first side's score and the mean rounds with the
option changed, minus FULL's, paired on the same seeds.
"""

from __future__ import annotations

import math
from dataclasses import fields
from pathlib import Path
from typing import Any

from envs import get_rules
from envs.core.stats import mean_interval, paired_difference, wilson
from eval.balance import BalanceConfig, adaptive, score, score_difference
from eval.balance_run import Bench, Variant, fingerprint
from eval.fights import Fight, get_path, set_path

__all__ = ["run_sweep", "rule_variants", "run_rules", "parse_values"]


def parse_values(text: str) -> tuple[str, list[Any]]:
    """``PATH=V1,V2,...`` -> the path and the values (read as YAML scalars)."""
    import yaml

    path, sep, values = text.partition("=")
    if not sep or not path or not values:
        raise ValueError(f"--set {text!r}: expected PATH=V1,V2,... (e.g. combatants[0].state.hp="
                         "20,30,40)")
    return path.strip(), [yaml.safe_load(v.strip()) for v in values.split(",") if v.strip()]


def _point(bench: Bench, v: Variant, side: str, n: int, value: Any) -> dict[str, Any]:
    games = bench.games(v.key, n)
    s = sum(score(g, side) for g in games)
    lo, hi = wilson(s, n)
    rounds = [float(g["rounds"]) for g in games]
    return {"value": value, "side": side, "n": n, "rate": s / n, "lo": lo, "hi": hi,
            "rounds": sum(rounds) / n, "rounds_ci": list(mean_interval(rounds)[1:]),
            "draws": sum(1 for g in games if g["winner"] is None)}


def run_sweep(cfg: BalanceConfig, path: str, values: list[Any], target_win: float | None = None,
              target_rounds: float | None = None, log: Any = None) -> tuple[dict[str, Any], Path]:
    """Play the sweep (see the module docstring); write ``sweep.json``, ``sweep.md`` and
    ``sweep.png`` under ``cfg.out``; returns the summary and the report path."""
    from envs.core import SeededDice
    from envs.core.files import atomic_write
    from eval.balance_plots import plot_sweep

    fight = cfg.fight
    if not fight.is_file or fight.data is None:
        raise ValueError("arena balance sweep needs a situation file (its fields are swept)")
    try:
        get_path(fight.data, path)  # the field must exist
    except KeyError as e:
        raise ValueError(f"{fight.source}: --set: {e.args[0]}") from None
    side = fight.sides(cfg.options)[0]
    made: dict[str, Variant] = {}

    def variant(value: Any) -> Variant:
        key = f"sweep:{path}={value!r}"
        if key not in made:
            f = Fight.from_data(set_path(fight.data or {}, path, value), fight.source,
                                note=f"{path}={value!r}")
            try:
                f.build(cfg.options, SeededDice(0))
            except ValueError as e:
                raise ValueError(f"--set {path}={value!r}: {e}") from None
            made[key] = Variant(key, f, cfg.options, meta={"value": value})
        return made[key]

    def measure(vals: list[Any]) -> dict[Any, dict[str, Any]]:
        arms: list[tuple[Variant, Variant | None, str]] = [(variant(x), None, side) for x in vals]
        got = adaptive(bench, arms, cfg, cfg.precision, 2 * cfg.precision, "sweep")
        return {x: _point(bench, variant(x), side, got[variant(x).key], x) for x in vals}

    for x in values:  # every value checked before anything is written
        variant(x)
    bench = Bench(cfg.out, fingerprint(fight.system, fight, cfg.agent, cfg.options), cfg.agent,
                  seed=cfg.seed, workers=cfg.workers, progress=cfg.progress, log=log,
                  ray=cfg.ray)
    points = measure(list(values))
    answer = None
    if target_win is not None or target_rounds is not None:
        answer = _search(points, measure, target_win, target_rounds, cfg)
    ordered = sorted(points.values(), key=lambda p: p["value"])
    summary = {"system": fight.system, "fight": fight.label, "field": path, "agent": cfg.agent,
               "points": ordered,
               "target_win": target_win, "target_rounds": target_rounds, "answer": answer,
               "games_played": len(bench.done)}
    out = Path(cfg.out)
    atomic_write(out / "sweep.json", __import__("json").dumps(summary, indent=1, default=str))
    title = f"{fight.label}: score and fight length against {path} ({cfg.agent} on both sides)"
    plot_sweep(ordered, path, title, out / "sweep.png", target_win, target_rounds)
    report = out / "sweep.md"
    atomic_write(report, "\n".join(sweep_lines(summary)) + "\n\n![sweep](sweep.png)\n")
    return summary, report


def _search(points: dict[Any, dict[str, Any]], measure: Any, target_win: float | None,
            target_rounds: float | None, cfg: BalanceConfig) -> dict[str, Any]:
    """Bisect between the bracketing whole-number values, then answer (see the docstring)."""
    key, goal = ("rate", target_win) if target_win is not None else ("rounds", target_rounds)
    assert goal is not None
    for _ in range(12):
        pts = sorted(points.values(), key=lambda p: p["value"])
        pair = next(((a, b) for a, b in zip(pts, pts[1:], strict=False)
                     if (a[key] - goal) * (b[key] - goal) <= 0), None)
        if pair is None:
            break
        a, b = pair
        numeric = all(isinstance(p["value"], int) and not isinstance(p["value"], bool)
                      for p in pair)
        if numeric and b["value"] - a["value"] > 1:
            mid = (a["value"] + b["value"]) // 2
            points.update(measure([mid]))
            continue
        if numeric and isinstance(a["value"], int):  # neighbours: more games at both ends
            more = BalanceConfig(**{**cfg.__dict__, "precision": cfg.precision / 1.5})
            if more.precision >= 0.02 and min(a["n"], b["n"]) < cfg.max_games:
                cfg = more
                points.update(measure([a["value"], b["value"]]))
        break
    best = min(points.values(), key=lambda p: abs(p[key] - goal))
    reached = best["lo"] <= goal <= best["hi"] if key == "rate" else (
        best["rounds_ci"][0] <= goal <= best["rounds_ci"][1])
    return {"value": best["value"], "by": key, "goal": goal, "point": best, "reached": reached}


def sweep_lines(summary: dict[str, Any]) -> list[str]:
    out = [f"# Sweep: {summary['system']} / {summary['fight']}, field `{summary['field']}`", "",
           f"Agent `{summary['agent']}` on both sides; every value on the same seeds.", "",
           "| value | side score | 95% CI | n | draws | mean rounds | 95% CI |",
           "|---|---|---|---|---|---|---|"]
    for p in summary["points"]:
        out.append(f"| {p['value']} | {100 * p['rate']:.1f}% | {100 * p['lo']:.1f}-"
                   f"{100 * p['hi']:.1f}% | {p['n']} | {p['draws']} | {p['rounds']:.1f} | "
                   f"{p['rounds_ci'][0]:.1f}-{p['rounds_ci'][1]:.1f} |")
    a = summary.get("answer")
    if a:
        p = a["point"]
        what = "score" if a["by"] == "rate" else "mean rounds"
        out += ["", f"Target {what} {a['goal']:g}: `{summary['field']}` = **{a['value']}** "
                f"(side {p['side']} scores {100 * p['rate']:.1f}%, 95% CI {100 * p['lo']:.1f}-"
                f"{100 * p['hi']:.1f}%, n = {p['n']}; mean rounds {p['rounds']:.1f})"
                + ("" if a["reached"] else "; the target is not inside its interval")]
    return out


# ---------------------------------------------------------------------------------- rules

def _choices(system: str, name: str, current: str) -> list[str]:
    """A text field's accepted values (the system's ``RULE_CHOICES``; none listed: its own)."""
    from eval.balance_options import rule_choices_for

    return list(rule_choices_for(system).get(name, (current,)))


def rule_variants(fight: Fight) -> list[tuple[str, Any]]:
    """``(label, options)`` per rule option: ``core``, then each boolean flipped and each other
    value of each choice field of FULL (a mapping over FULL)."""
    R = get_rules(fight.system)
    full, core = R.parse_options("full"), R.parse_options("core")
    out: list[tuple[str, Any]] = [("version=core (CORE vs FULL)", "core")]
    for f in fields(full):
        value = getattr(full, f.name)
        if f.name == "version":
            continue
        if isinstance(value, bool):
            flipped = ({"version": "full", f.name: not value} if hasattr(full, "version")
                       else {f.name: not value})
            if R.parse_options(flipped) != core:  # Mano a Mano's full=False is CORE's row
                out.append((f"{f.name}={not value}", flipped))
        elif isinstance(value, str):
            for other in _choices(fight.system, f.name, value):
                if other != value:
                    opts = {f.name: other}
                    if hasattr(full, "version"):
                        opts["version"] = "full"
                    out.append((f"{f.name}={other}", opts))
    return out


def run_rules(cfg: BalanceConfig, log: Any = None) -> tuple[dict[str, Any], Path]:
    """One row per rule option (see the module docstring); ``rules.md``/``rules.json``."""
    from envs.core import SeededDice
    from envs.core.files import atomic_write

    fight = cfg.fight
    side = fight.sides("full")[0]
    bench = Bench(cfg.out, fingerprint(fight.system, fight, cfg.agent, "rules"), cfg.agent,
                  seed=cfg.seed, workers=cfg.workers, progress=cfg.progress, log=log,
                  ray=cfg.ray)
    base = Variant("rule:full", fight, "full")
    arms: list[tuple[Variant, Variant | None, str]] = [(base, None, side)]
    skipped = []
    for label, opts in rule_variants(fight):
        try:
            fight.build(opts, SeededDice(0))
        except ValueError as e:
            skipped.append(f"{label} ({e})")
            continue
        arms.append((Variant(f"rule:{label}", fight, opts, meta={"label": label}), base, side))
    got = adaptive(bench, arms, cfg, cfg.precision, 2 * cfg.precision, "rules")
    rows = []
    full_games = bench.games(base.key, got[base.key])
    for v, _, _ in arms[1:]:
        n = got[v.key]
        mine, ref = bench.games(v.key, n), full_games[:n]
        d = score_difference([score(g, side) for g in mine], [score(g, side) for g in ref])
        r = paired_difference([float(g["rounds"]) for g in mine],
                              [float(g["rounds"]) for g in ref])
        rows.append({"option": v.meta["label"], "n": n,
                     "score": sum(score(g, side) for g in mine) / n, "delta": d[0],
                     "lo": d[1], "hi": d[2], "rounds": sum(g["rounds"] for g in mine) / n,
                     "rounds_delta": r[0], "rounds_lo": r[1], "rounds_hi": r[2]})
    n0 = got[base.key]
    s0 = sum(score(g, side) for g in full_games)
    summary = {"system": fight.system, "fight": fight.label, "agent": cfg.agent, "side": side,
               "full": {"n": n0, "score": s0 / n0, "ci": list(wilson(s0, n0)),
                        "rounds": sum(g["rounds"] for g in full_games) / n0},
               "rows": rows, "skipped": skipped}
    out = Path(cfg.out)
    atomic_write(out / "rules.json", __import__("json").dumps(summary, indent=1, default=str))
    report = out / "rules.md"
    atomic_write(report, "\n".join(rules_lines(summary)) + "\n")
    return summary, report


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def rules_lines(summary: dict[str, Any]) -> list[str]:
    f = summary["full"]
    out = [f"# Rule options: {summary['system']} / {summary['fight']}", "",
           f"Agent `{summary['agent']}` on both sides. FULL: side {summary['side']} scores "
           f"{100 * f['score']:.1f}% (95% CI {100 * f['ci'][0]:.1f}-{100 * f['ci'][1]:.1f}%, "
           f"n = {f['n']}), mean rounds {f['rounds']:.1f}. Each row: that option changed from "
           "FULL, paired on the same seeds (Δ in points of score; rounds).", "",
           "| option | score | Δ score | 95% CI | mean rounds | Δ rounds | 95% CI | n |",
           "|---|---|---|---|---|---|---|---|"]
    for r in summary["rows"]:
        out.append(f"| `{r['option']}` | {100 * r['score']:.1f}% | {_pts(r['delta'])} | "
                   f"[{_pts(r['lo'])}, {_pts(r['hi'])}] | {r['rounds']:.1f} | "
                   f"{r['rounds_delta']:+.1f} | [{r['rounds_lo']:+.1f}, {r['rounds_hi']:+.1f}] | "
                   f"{r['n']} |")
    if summary["skipped"]:
        out += ["", "Not played (the fight does not build): " + "; ".join(summary["skipped"])]
    return out
