"""The honest table of ``arena suggest``: rows sorted by estimated win %, variants with the same
effect collapsed into one row, tie groups of rows that cannot be told apart, and the footer that
says what the numbers mean.

* **Collapse.** Rollout ``i`` of every candidate rolls the same dice (common random numbers). Two
  candidates whose rollouts had the same signature (``agents.rollouts``: every event after the
  move's own label, and the outcome) on every rollout both played had the same effect on the same
  luck: they are one row that names its variants. The row keeps the statistics of its most
  simulated variant; identical rollouts are one observation, so they are not pooled.
* **Order.** Rows with rollouts, by estimated win % (ties: more rollouts first), then the moves
  the budget left unsimulated.
* **Tie groups.** From the top, a group is a row and every later row whose 95% interval overlaps
  the group leader's: at this budget they cannot be told apart. A group of more than one row gets
  a line saying so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.search import MIN_SHARED, NORMAL_FROM, collapse

__all__ = ["collapse", "sort_rows", "tie_groups", "tie_lines", "footer", "MIN_SHARED"]

def sort_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Simulated rows by win % (then more rollouts), then the unsimulated ones."""
    return sorted(rows, key=lambda r: (r["rollouts"] == 0, -r["win_prob"], -r["rollouts"]))


def tie_groups(rows: Sequence[dict[str, Any]]) -> list[list[int]]:
    """Indices of ``rows`` (already sorted) in tie groups, from the top (module docstring)."""
    groups: list[list[int]] = []
    i = 0
    while i < len(rows):
        if rows[i]["rollouts"] == 0:
            groups.append([i])
            i += 1
            continue
        lo = rows[i]["interval"][0]
        group = [i]
        j = i + 1
        while j < len(rows) and rows[j]["rollouts"] and rows[j]["interval"][1] >= lo:
            group.append(j)
            j += 1
        groups.append(group)
        i = j
    return groups


def tie_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """One line per tie group of two or more rows."""
    out = []
    for g in {r["group"]: None for r in rows}:
        ranks = [r["rank"] for r in rows if r["group"] == g]
        if len(ranks) > 1:
            out.append(
                f"moves {ranks[0]}-{ranks[-1]} cannot be told apart at this budget (their 95% "
                "intervals overlap); a longer budget (--seconds 10) may separate them"
            )
    return out


def footer(result: dict[str, Any]) -> str:
    """What the numbers mean, and how many rollouts each row had."""
    counts = [m["rollouts"] for m in result["moves"] if m["rollouts"]]
    spread = f"{min(counts)}-{max(counts)}" if counts else "0"
    unsimulated = sum(1 for m in result["moves"] if not m["rollouts"])
    tail = f"; {unsimulated} moves not simulated in the budget" if unsimulated else ""
    value = result.get("value")
    if value is None:
        how = "to the end with sampled dice; 95% Wilson interval"
    else:
        later = f" plus {value['horizon']} rounds" if value["horizon"] else ""
        how = (
            f"with sampled dice until the actor's next turn{later}, where a value estimate "
            f"fitted on {value['games']} simulated fights scores the chance to win (held-out "
            f"Brier {value['brier']}, base rate {value['brier_base_rate']}); 95% interval of "
            f"the mean (Wilson's below {NORMAL_FROM} rollouts)"
        )
    return (
        f"win % = side {result['side']}'s estimated chance to win over a row's n rollouts (a draw "
        f"counts half): the move, then {result['rollout_policy']} play for both sides {how}; "
        f"n = {spread} rollouts a row ({result['rollouts']} in all, {result['seconds']:.2f} s, "
        f"seed {result['seed']}){tail}. dealt / taken = mean harm before the actor's next turn. "
        "Variants with the same effect in every rollout share a row."
    )
