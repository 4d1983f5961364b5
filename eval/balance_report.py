"""The report of ``arena balance``: ``report.md``, ``balance.json`` and the PNGs (built from the
summary ``eval.balance.run_balance`` makes), and the short text the command prints."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from envs.core.files import atomic_write

__all__ = ["write_report", "render_markdown", "headline", "pct", "signed"]


def pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def signed(x: float) -> str:
    if not math.isfinite(x):
        return "-inf" if x < 0 else "+inf"
    return f"{100 * x:+.1f}"


def _interval(lo: float, hi: float, points: bool = False) -> str:
    if points:
        return f"[{signed(max(lo, -1.0))}, {signed(min(hi, 1.0))}]"
    return f"{pct(lo)}-{pct(hi)}"


def _unsure(b: dict[str, Any]) -> str:
    """What a flag of fewer than 5% wins does not prove yet: the sides whose 95% upper bound is
    still 5% or more."""
    unsure = b.get("unsure") or []
    if not unsure:
        return ""
    bounds = ", ".join(f"side {side} up to {pct(b['sides'][side]['hi'])}" for side in unsure)
    return f" (not yet proven below 5%: {bounds} at 95%; more games tell)"


def headline(summary: dict[str, Any]) -> list[str]:
    """The side balance and the top options, as printed lines."""
    b = summary["balance"]
    out = [f"{summary['system']} / {summary['fight']}, agent {summary['agent']} on both sides, "
           f"n = {b['n']} games:"]
    for side, r in b["sides"].items():
        out.append(f"  side {side} wins {r['wins']}/{b['n']} = {pct(r['rate'])} "
                   f"(95% CI {_interval(r['lo'], r['hi'])})")
    d = b["draws"]
    out.append(f"  draws {d['n']}/{b['n']} = {pct(d['rate'])}; rounds mean "
               f"{b['rounds']['mean']:.1f}, median {b['rounds']['median']}")
    flags = []
    if b["unwinnable"]:
        flags.append("UNWINNABLE for side " + ", ".join(b["unwinnable"]) + _unsure(b))
    if b.get("mostly_draws"):
        flags.append(f"MOSTLY DRAWS ({pct(d['rate'])} of the games: nobody wins)")
    if b["balanced"]:
        flags.append("balanced (45-55%)")
    out.append("  verdict: " + ("; ".join(flags) if flags else
                                f"not balanced (side {b['score']['side']} scores "
                                f"{pct(b['score']['rate'])})"))
    rows = summary.get("options", [])
    dominant = [r for r in rows if r["verdict"] == "dominant"]
    dead = [r for r in rows if r["verdict"].startswith("dead")]
    played = [r for r in rows if r.get("played", True)]
    if played:
        r = played[0]
        out.append(f"  most dominant option: {r['combatant']}: {r['option']} "
                   f"(ban {signed(r['delta'])} points, 95% CI "
                   f"{_interval(r['lo'], r['hi'], True)}, n = {r['n']}){'' if dominant else ''}")
        out.append(f"  {len(dominant)} dominant, {len(dead)} dead weight of {len(rows)} options")
    return out


def _verdict_cell(row: dict[str, Any]) -> str:
    if not row.get("same_as"):
        return str(row["verdict"])
    k = row["checked"]
    return (f"{row['verdict']}{'; ' if row['verdict'] else ''}the same ban as `{row['same_as']}` "
            f"(played {k} games: all {k} identical)")


def render_markdown(summary: dict[str, Any], pictures: dict[str, str]) -> str:
    b = summary["balance"]
    lines = [f"# Balance: {summary['system']} / {summary['fight']}", ""]
    mode = (f"until the 95% half-width is at most {pct(summary['precision'])} (differences "
            f"{pct(2 * summary['precision'])}), at most {summary['max_games']} games"
            if summary["precision"] is not None else "a fixed number of games")
    lines += [f"Agent `{summary['agent']}` on both sides; rules {summary['rules']}; game i of "
              f"every variant on seed {summary['seed']} + i (the same dice); sampled {mode}. "
              f"{summary['games_played']} games recorded in `games.jsonl` "
              f"({summary['reused']} reused from an earlier run).", ""]
    lines += ["## Side balance", ""] + [f"    {x}" for x in headline(summary)[1:4]] + [""]
    lines += ["| side | wins | rate | 95% CI |", "|---|---|---|---|"]
    for side, r in b["sides"].items():
        lines.append(f"| {side} | {r['wins']}/{b['n']} | {pct(r['rate'])} | "
                     f"{_interval(r['lo'], r['hi'])} |")
    d = b["draws"]
    lines.append(f"| draws | {d['n']}/{b['n']} | {pct(d['rate'])} | "
                 f"{_interval(d['lo'], d['hi'])} |")
    flag = ("**unwinnable** for side " + ", ".join(b["unwinnable"]) + _unsure(b)
            if b["unwinnable"] else
            "**balanced** (45-55%)" if b["balanced"] else "not balanced")
    if b.get("mostly_draws"):
        flag += f"; **mostly draws** ({pct(d['rate'])} of the games end with no winner)"
    s = b["score"]
    lines += ["", f"Side {s['side']} scores {pct(s['rate'])} (draws half; 95% CI "
              f"{_interval(s['lo'], s['hi'])}, n = {b['n']}): {flag}. Fight length: mean "
              f"{b['rounds']['mean']:.1f} rounds, median {b['rounds']['median']}, 10-90% "
              f"{b['rounds']['p10']}-{b['rounds']['p90']}.", ""]
    if "sides" in pictures:
        lines += [f"![side balance]({pictures['sides']})", ""]
    rows = summary.get("options", [])
    if rows:
        lines += ["## Option impact (restricted play)", "",
                  "Each option banned for its combatant (every action using it removed from its "
                  "legal moves; if that leaves none, the full list stays and *fallbacks* counts "
                  "it). Δ = the side's score with the ban minus without, paired on the same seeds "
                  "(points); *used* = times chosen in the baseline's games (in how many games).",
                  "", "| combatant | option | Δ (points) | 95% CI | n | games changed | used | "
                  "fallbacks | verdict |", "|---|---|---|---|---|---|---|---|---|"]
        for r in (r for r in rows if r.get("played", True)):
            lines.append(f"| {r['combatant']} | `{r['option']}` | {signed(r['delta'])} | "
                         f"{_interval(r['lo'], r['hi'], True)} | {r['n']} | {r['changed']} | "
                         f"{r['used']} ({r['games_used']} games) | {r['fallbacks']} | "
                         f"{_verdict_cell(r)} |")
        never = [r for r in rows if not r.get("played", True)]
        if never:
            n, hi = never[0]["baseline_n"], never[0]["chosen_hi"]
            lines += ["", f"Never chosen in the baseline's {n} games (0 of {n}: chosen in at most "
                      f"{pct(hi)} of games, 95% upper bound), so dead weight whatever their ban "
                      "would do; their bans are not played: "
                      + ", ".join(f"{r['combatant']} `{r['option']}`" for r in never) + "."]
        lines.append("")
        if "tornado" in pictures:
            lines += [f"![option impact]({pictures['tornado']})", ""]
    lines += ["## Combatant value (leave-one-out)", ""]
    if summary.get("combatants"):
        ref = ("the fight's own-form baseline (the named encounter written as new combatants)"
               if summary["loo_reference"] == "loo_base" else "the baseline")
        lines += [f"The side's score without the combatant minus with it (against {ref}).", "",
                  "| combatant | side | with | without | Δ (points) | 95% CI | n |",
                  "|---|---|---|---|---|---|---|"]
        for r in summary["combatants"]:
            lines.append(f"| {r['combatant']} | {r['side']} | {pct(r['with'])} | "
                         f"{pct(r['without'])} | {signed(r['delta'])} | "
                         f"{_interval(r['lo'], r['hi'], True)} | {r['n']} |")
        lines.append("")
        if "combatants" in pictures:
            lines += [f"![combatant value]({pictures['combatants']})", ""]
    if summary.get("loo_skipped"):
        lines += ["Not played (a side would be left with nobody): without "
                  + ", ".join(summary["loo_skipped"]) + ".", ""]
    if summary.get("capped"):
        lines += [f"Stopped at the cap of {summary['max_games']} games before the requested "
                  "precision: " + ", ".join(f"`{k}`" for k in summary["capped"]) + ".", ""]
    return "\n".join(lines)


def write_report(summary: dict[str, Any], out_dir: str | Path) -> Path:
    """``balance.json``, the PNGs and ``report.md`` under ``out_dir``; returns the report."""
    from eval.balance_plots import plot_combatants, plot_sides, plot_tornado

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / "balance.json", json.dumps(summary, indent=1, default=str).encode())
    title = f"{summary['system']} / {summary['fight']} ({summary['agent']} on both sides)"
    pictures = {"sides": "balance_sides.png"}
    plot_sides(summary["balance"], title, out / pictures["sides"], summary.get("members"))
    if summary.get("options"):
        pictures["tornado"] = "balance_options.png"
        who = f"{summary['fight']}, {summary['agent']} on both sides"
        played = [r for r in summary["options"] if r.get("played", True)]
        skipped = len(summary["options"]) - len(played)
        note = f"; {skipped} options never chosen, not shown" if skipped else ""
        twins = sum(1 for r in played if r.get("same_as"))
        played = [r for r in played if not r.get("same_as")]
        note += f"; {twins} the same ban as another, shown once" if twins else ""
        plot_tornado(played, f"Option impact (each option banned in turn)\n{who}{note}",
                     out / pictures["tornado"])
    if summary.get("combatants"):
        pictures["combatants"] = "balance_combatants.png"
        who = f"{summary['fight']}, {summary['agent']} on both sides"
        plot_combatants(summary["combatants"], f"Combatant value (leave-one-out)\n{who}",
                        out / pictures["combatants"])
    path = out / "report.md"
    atomic_write(path, render_markdown(summary, pictures).encode())
    return path
