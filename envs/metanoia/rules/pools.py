"""Dice pools and success counting (spec §2.2, §2.3), shared by the engine and the agents."""

from __future__ import annotations

from functools import cache

from . import rulings
from .catalogue import Option, StatBlock, catalogue


def pool_size(block: StatBlock, boosts: tuple[str, ...], opponent: StatBlock | None = None,
              option: Option | None = None, extra: int = 0, slip: int = 0,
              instrument: bool = True) -> tuple[int, list[str]]:
    """Dice in a pool and how it was built (spec §2.3; RULINGS R3, R18, R28).

    ``2 + M + I`` (traits invoked) capped at 7, then +3 (Rule 1), + item rank (Instrument against a
    creature one Realm higher, full rules), + ``extra`` (Exploit or Ward dice), then - Slip (min 1).
    """
    base = (rulings.BASE_POOL + (block.motive if "motive" in boosts else 0)
            + (block.identity if "identity" in boosts else 0))
    pool = min(base, rulings.DICE_CAP)
    parts = [f"{pool} base"]
    if opponent is not None:
        if block.realm - opponent.realm == 1:  # Rule 1 [S]
            pool += rulings.REALM_BONUS_DICE
            parts.append(f"+{rulings.REALM_BONUS_DICE} Realm")
        if (instrument and option is not None and option.instrument
                and opponent.realm - block.realm == 1):
            pool += option.item_rank  # RULING R28
            parts.append(f"+{option.item_rank} Instrument")
    if extra:
        pool += extra
        ward = option is not None and option.keyword == "ward"
        parts.append(f"+{extra} {'Ward' if ward else 'Exploit'}")
    if slip:  # RULING R18
        pool = max(1, pool - slip)
        parts.append(f"-{slip} Slip")
    return pool, parts


@cache
def success_distribution(texture: str, dice: int) -> tuple[float, ...]:
    """P(successes = k) for ``dice`` d6 counted by ``texture`` (exact convolution)."""
    per_face = catalogue().textures[texture]
    die = [0.0] * (max(per_face) + 1)
    for s in per_face:
        die[s] += 1 / 6
    dist = [1.0]
    for _ in range(dice):
        out = [0.0] * (len(dist) + len(die) - 1)
        for i, p in enumerate(dist):
            if p:
                for j, q in enumerate(die):
                    out[i + j] += p * q
        dist = out
    return tuple(dist)


@cache
def opposed_odds(actor_texture: str, actor_dice: int, reactor_texture: str,
                 reactor_dice: int) -> tuple[float, float, float]:
    """(P actor more successes, P tie, P reactor more) for two pools."""
    a = success_distribution(actor_texture, actor_dice)
    r = success_distribution(reactor_texture, reactor_dice)
    cum = [0.0]
    for p in r:
        cum.append(cum[-1] + p)  # cum[k] = P(r < k)
    win = sum(p * cum[min(k, len(r))] for k, p in enumerate(a))
    tie = sum(p * (r[k] if k < len(r) else 0.0) for k, p in enumerate(a))
    return win, tie, max(0.0, 1.0 - win - tie)
