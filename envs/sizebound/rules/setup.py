"""Building an encounter from profiles and placements (spec §3.1-§3.4, §3.6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from envs.core.dice import Dice
from envs.core.squaregrid import SquareGrid

from .fighter import Fighter, condition_table
from .options import parse_options
from .profile import Profile
from .state import SizeboundEncounter

__all__ = ["build"]


def build(lineup: Iterable[tuple[str, str, Profile, tuple[int, int]]], grid: SquareGrid,
          order: list[str], options: Any, name: str = "custom",
          start: bool = True, hp: Mapping[str, int] | None = None,
          dice: Dice | None = None) -> SizeboundEncounter:
    """``lineup``: (id, side, profile, anchor) in roster order; ``order``: the sides by turn
    slot (the instigator first). Starting resources as spec §3.6. With ``first_side: random``
    and ``dice``, one d<sides> draws the instigator (spec §3.4 item 4); the other sides keep
    their order."""
    options = parse_options(options)
    if options.first_side == "random" and dice is not None and len(order) > 1:
        first = order[dice.roll(len(order))[0] - 1]
        order = [first] + [s for s in order if s != first]
    table = condition_table(len(order))
    fighters = [Fighter(cid, side, p, at, table) for cid, side, p, at in lineup]
    for f in fighters:
        if hp and f.id in hp:
            f.hp = hp[f.id]
    enc = SizeboundEncounter(fighters, grid, order, options, name)
    if start:
        enc.begin()
    return enc


def start_events(enc: SizeboundEncounter) -> list[Any]:
    return enc.begin()
