"""What a search found, in words and rows: ``collapse`` groups candidates whose rollouts had the
same effect, ``reason`` says in one line why a move scored as it did (from its rollouts' events
before the actor's next turn). ``agents.search`` uses them; ``arena suggest`` shows them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .search import Candidate

__all__ = ["MIN_SHARED", "collapse", "reason"]

MIN_SHARED = 4
"""rollouts two candidates must both have played before they are called the same effect"""


def collapse(cands: list[Candidate]) -> list[list[Candidate]]:
    """Candidates grouped by identical effect: those whose rollouts had the same signature
    (``agents.rollouts``) on every rollout both played (at least ``MIN_SHARED``) had the same
    effect on the same luck. Each group's most simulated candidate first; one with too few
    rollouts stays alone."""
    groups: list[list[Candidate]] = []
    for c in sorted(cands, key=lambda c: -c.n):
        for g in groups:
            head = g[0]
            m = min(head.n, c.n)
            if m >= MIN_SHARED and head.signatures[:m] == c.signatures[:m]:
                g.append(c)
                break
        else:
            groups.append([c])
    return groups


def reason(cand: Candidate, enc: Any, name: Callable[[str], str] | None = None) -> str:
    """A one-line why for a candidate, from its rollouts' events before the actor's next turn."""
    if cand.n == 0:
        return "not simulated (outside the budget)"
    name = name or (lambda cid: cid)
    actor = enc.current_actor()
    side = enc.side_of(actor)
    enemies = {cid: k for cid, k in cand.out.items() if enc.side_of(cid) != side}
    friends = {cid: k for cid, k in cand.out.items() if enc.side_of(cid) == side}
    if enemies:
        cid, k = max(enemies.items(), key=lambda kv: kv[1])
        if k / cand.n >= 0.1:
            return (
                f"finishes {name(cid)} before {name(actor)}'s next turn in {k / cand.n:.0%} "
                "of rollouts"
            )
    if friends:
        cid, k = max(friends.items(), key=lambda kv: kv[1])
        if k / cand.n >= 0.1:
            who = "is itself taken out" if cid == actor else f"loses {name(cid)}"
            return f"{who} before its next turn in {k / cand.n:.0%} of rollouts"
    if cand.mean_dealt or cand.mean_taken:
        return (
            f"deals {cand.mean_dealt:.1f} harm and takes {cand.mean_taken:.1f} on average "
            "before its next turn"
        )
    return (
        f"quiet until its next turn; the fight lasts {cand.rounds / cand.n:.1f} rounds on average"
    )
