"""The pictures of ``arena balance``: side balance with fight lengths, the option tornado, the
combatant values and a sweep's curve (matplotlib, saved atomically like ``eval.plots``)."""

from __future__ import annotations

import math
import os
from typing import Any

from eval.plots import _save_figure

__all__ = ["plot_sides", "plot_tornado", "plot_combatants", "plot_sweep"]

RED, GREEN, GREY, BLUE = "#c0392b", "#27ae60", "#9e9e9e", "#2f6fb0"


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _who(side: str, members: dict[str, str] | None) -> str:
    """``side A`` with its combatants under it (at most three named)."""
    ids = [cid for cid, s in (members or {}).items() if s == side]
    if not ids:
        return f"side {side}"
    shown = "\n".join(ids[:3]) + (f"\n+{len(ids) - 3} more" if len(ids) > 3 else "")
    return f"side {side}\n{shown}"


def plot_sides(balance: dict[str, Any], title: str, path: str | os.PathLike[str],
               members: dict[str, str] | None = None) -> None:
    """Win rate of each side (its combatants named under it, from ``members``: id -> side) and
    the draws (95% Wilson bars), and the fight lengths."""
    from matplotlib.ticker import PercentFormatter

    plt = _plt()
    n = balance["n"]
    names = [_who(s, members) for s in balance["sides"]] + ["draws"]
    rows = [*balance["sides"].values(), balance["draws"]]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10.5, 4.2), gridspec_kw={"width_ratios": [1, 1.4]})
    try:
        rates = [r["rate"] for r in rows]
        # a Wilson bound may sit a rounding error inside a rate of 0 or 1: never below 0
        err = [[max(0.0, r["rate"] - r["lo"]) for r in rows],
               [max(0.0, r["hi"] - r["rate"]) for r in rows]]
        colours = [BLUE, "#e67e22", "#7f8c8d", "#8e44ad"][: len(rows) - 1] + [GREY]
        ax.bar(names, rates, yerr=err, capsize=6, color=colours)
        for i, r in enumerate(rows):
            ax.text(i, min(0.97, r["hi"] + 0.03), f"{100 * r['rate']:.1f}%", ha="center",
                    fontsize=10, fontweight="bold")
        ax.axhspan(0.45, 0.55, color=GREEN, alpha=0.12, label="balanced band (45-55%)")
        ax.axhline(0.05, color=RED, linestyle=":", linewidth=1, label="unwinnable (< 5%)")
        ax.set_ylim(0, 1.05)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_title(f"Win rates (n = {n} games, 95% interval)")
        ax.set_ylabel("share of games")
        ax.tick_params(axis="x", labelsize=8)
        ax.legend(loc="upper right", fontsize=8)
        counts = {int(k): v for k, v in balance["rounds"]["counts"].items()}
        bx.bar(list(counts), list(counts.values()), color=BLUE, width=0.8)
        r = balance["rounds"]
        bx.axvline(r["mean"], color=RED, linestyle="--", linewidth=1.2,
                   label=f"mean {r['mean']:.1f}")
        bx.set_xlabel("rounds")
        bx.set_ylabel("games")
        bx.set_title(f"Fight length (median {r['median']}, 10-90%: {r['p10']}-{r['p90']})")
        bx.legend(fontsize=8)
        fig.suptitle(title)
        fig.tight_layout()
        _save_figure(fig, path)
    finally:
        plt.close(fig)


def _points_axis(ax: Any, label: str) -> None:
    """An x axis of score changes in points (-100 .. +100), a zero line and a grid."""
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlim(-105, 105)
    ax.set_xlabel(label)
    ax.grid(axis="x", alpha=0.3)


def _bars(rows: list[dict[str, Any]]) -> tuple[list[float], list[list[float]]]:
    """Each row's Δ and its 95% error bars, in points, the interval kept inside ±100."""
    delta = [100 * r["delta"] for r in rows]
    lo = [max(0.0, 100 * (r["delta"] - max(r["lo"], -1.0))) for r in rows]
    hi = [max(0.0, 100 * (min(r["hi"], 1.0) - r["delta"])) for r in rows]
    return delta, [lo, hi]


def plot_tornado(rows: list[dict[str, Any]], title: str, path: str | os.PathLike[str],
                 top: int = 24) -> None:
    """One bar per option: the side's score with it banned minus with it, in points with its
    95% interval; the largest effects on top; coloured by verdict, with a legend."""
    from matplotlib.patches import Patch

    plt = _plt()
    shown = sorted(rows, key=lambda r: -abs(r["delta"]))[:top][::-1]
    height = 2.0 + 0.34 * max(1, len(shown))
    fig, ax = plt.subplots(figsize=(10, height))
    try:
        ys = range(len(shown))
        colours = [RED if r["verdict"] == "dominant" else GREEN if r["verdict"].startswith("a trap")
                   else GREY if r["verdict"].startswith("dead") else BLUE for r in shown]
        delta, err = _bars(shown)
        ax.barh(list(ys), delta, xerr=err, color=colours, capsize=3)
        ax.plot(delta, list(ys), "|", color="black", markersize=8)  # a 0 shows too
        ax.set_yticks(list(ys), labels=[f"{r['combatant']}: {r['option']}  (chosen {r['used']} "
                                        f"times, n={r['n']} games)" for r in shown], fontsize=8)
        _points_axis(ax, "change in the side's score when the option is banned (points; a draw "
                         "counts half; bars: 95% interval)")
        ax.set_title(title + (f" (the {top} largest of {len(rows)} options)"
                              if len(rows) > top else ""), fontsize=10)
        ax.legend(handles=[Patch(color=RED, label="dominant: ban costs 10+ points"),
                           Patch(color=GREEN, label="trap: ban gains 10+ points"),
                           Patch(color=GREY, label="dead weight: never chosen or ban < 3 points"),
                           Patch(color=BLUE, label="other")], fontsize=7, ncol=2,
                  loc="upper center", bbox_to_anchor=(0.5, -0.6 / height - 0.04))  # below, clear
        fig.tight_layout()
        _save_figure(fig, path)
    finally:
        plt.close(fig)


def plot_combatants(rows: list[dict[str, Any]], title: str,
                    path: str | os.PathLike[str]) -> None:
    """Leave-one-out: the side's score without each combatant minus with it, in points with its
    95% interval."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(9, 1.8 + 0.45 * max(1, len(rows))))
    try:
        ys = range(len(rows))
        delta, err = _bars(rows)
        ax.barh(list(ys), delta, xerr=err, color=BLUE, capsize=3)
        ax.set_yticks(list(ys), labels=[f"{r['combatant']} (side {r['side']}, n={r['n']} games)"
                                        for r in rows], fontsize=9)
        _points_axis(ax, "change in its side's score without the combatant (points; a draw "
                         "counts half; bars: 95% interval)")
        ax.set_title(title, fontsize=10)
        fig.tight_layout()
        _save_figure(fig, path)
    finally:
        plt.close(fig)


def plot_sweep(points: list[dict[str, Any]], field: str, title: str,
               path: str | os.PathLike[str], target_win: float | None = None,
               target_rounds: float | None = None) -> None:
    """Win rate (with its 95% band) and mean rounds against the swept value."""
    from matplotlib.ticker import PercentFormatter

    plt = _plt()
    pts = sorted(points, key=lambda p: p["value"])
    xs = [p["value"] for p in pts]
    fig, ax = plt.subplots(figsize=(8.5, 4.6))
    try:
        ax.fill_between(xs, [p["lo"] for p in pts], [p["hi"] for p in pts], color=BLUE,
                        alpha=0.2, label="95% interval")
        ax.plot(xs, [p["rate"] for p in pts], "o-", color=BLUE,
                label=f"side {pts[0]['side']} score" if pts else "score")
        for p in pts:
            ax.annotate(f"n={p['n']}", (p["value"], p["rate"]), textcoords="offset points",
                        xytext=(0, 7), ha="center", fontsize=7)
        if target_win is not None:
            ax.axhline(target_win, color=RED, linestyle=":", label=f"target {target_win:.0%}")
        ax.set_ylim(-0.02, 1.02)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_xlabel(f"{field} (the swept field of the file)")
        side = pts[0]["side"] if pts else "A"
        ax.set_ylabel(f"side {side}'s score (a draw counts half)")
        bx = ax.twinx()
        rounds = [p["rounds"] for p in pts]
        bx.errorbar(xs, rounds, yerr=[[r - p["rounds_ci"][0] for r, p in zip(rounds, pts,
                                                                             strict=True)],
                                      [p["rounds_ci"][1] - r for r, p in zip(rounds, pts,
                                                                             strict=True)]],
                    fmt="s--", color="#e67e22", markersize=4, capsize=3,
                    label="mean rounds (95% interval)")
        if target_rounds is not None:
            bx.axhline(target_rounds, color="#e67e22", linestyle=":", linewidth=1,
                       label=f"target {target_rounds:g} rounds")
        top = max([p["rounds_ci"][1] for p in pts if math.isfinite(p["rounds_ci"][1])]
                  + [target_rounds or 0, 1])
        bx.set_ylim(0, top * 1.35)  # from 0: a small change in length looks small
        bx.set_ylabel("mean rounds")
        lines = ax.get_legend_handles_labels()
        more = bx.get_legend_handles_labels()
        ax.legend(lines[0] + more[0], lines[1] + more[1], fontsize=8, loc="best")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        _save_figure(fig, path)
    finally:
        plt.close(fig)
