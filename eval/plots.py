"""The tournament report's pictures: the win-rate heatmap and the training learning curve."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.files import atomic_write
from eval.records import RecordError
from eval.summary import EM_DASH, EN_DASH, Summary

__all__ = ["plot_learning_curve", "plot_winrate_heatmap"]


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
