"""Building an encounter (spec §3.1-§3.5): combatants with starting resources, the default
deployment along opposite edges, the grid and the initiative roll."""

from __future__ import annotations

from collections.abc import Sequence

from envs.core.dice import Dice, SeededDice
from envs.core.events import Event, RoundStarted
from envs.core.squaregrid import SquareGrid, footprint

from .combatant import Combatant
from .geometry import EDGES, default_deployment
from .options import RuleOptions
from .profile import Profile
from .state import MetaforceEncounter
from .turns import roll_initiative

__all__ = ["Row", "deploy", "build", "clear_of"]

Row = tuple[str, str, Profile, "tuple[int, int] | None", bool]
"""``(id, side, profile, anchor or None for the default deployment, aware)``."""


def deploy(rows: Sequence[tuple[str, str, Profile]], grid: SquareGrid, min_gap_ft: int = 30
           ) -> tuple[dict[str, tuple[int, int]], dict[str, str]]:
    """spec §3.2 default deployment (``geometry.default_deployment``: the first team along the
    west edge, the second along the east, then south and north). Returns the anchors and each
    side's home edge; ``ValueError`` when the teams do not fit."""
    sides: dict[str, list[tuple[str, int]]] = {}
    for cid, side, p in rows:
        sides.setdefault(side, []).append((cid, max(1, p.space)))
    spots = default_deployment(grid.width, grid.height,
                               [[n for _, n in ms] for ms in sides.values()], min_gap_ft)
    pos: dict[str, tuple[int, int]] = {}
    home: dict[str, str] = {}
    for i, (side, members) in enumerate(sides.items()):
        home[side] = EDGES[i]
        for (cid, _), at in zip(members, spots[i], strict=True):
            pos[cid] = at
    return pos, home


def clear_of(auto: dict[str, tuple[int, int]], rows: Sequence[Row], grid: SquareGrid
             ) -> dict[str, tuple[int, int]]:
    """The default spots of the members a scenario leaves unplaced, moved off the squares of the
    ones it places (spec §3.2: no two combatants on one square): each, in row order, to the
    nearest free spot (Chebyshev distance, then the sum of the x and y offsets, then y, then x)
    where its whole footprint fits."""
    taken = {c for _, _, p, at, _ in rows if at is not None for c in footprint(at, p.space)}
    out: dict[str, tuple[int, int]] = {}
    for cid, _, p, at, _ in rows:
        if at is not None:
            continue
        x0, y0 = auto[cid]
        n = max(1, p.space)
        spots = sorted(((x, y) for x in range(grid.width - n + 1)
                        for y in range(grid.height - n + 1)),
                       key=lambda s: (max(abs(s[0] - x0), abs(s[1] - y0)),
                                      abs(s[0] - x0) + abs(s[1] - y0), s[1], s[0]))
        spot = next((s for s in spots if not taken.intersection(footprint(s, n))), None)
        if spot is None:
            raise ValueError(f"no free square left on the {grid.width} x {grid.height} map "
                             f"for {cid!r}")
        out[cid] = spot
        taken.update(footprint(spot, n))
    return out


def home_edges(rows: Sequence[tuple[str, str, Profile, tuple[int, int]]], grid: SquareGrid
               ) -> dict[str, str]:
    """Each side's own edge (the RETREAT tie-break, spec §5.1): the edge nearest the centre of
    its members' anchors."""
    out: dict[str, str] = {}
    by: dict[str, list[tuple[int, int, int]]] = {}
    for _, side, p, (x, y) in rows:
        by.setdefault(side, []).append((x, y, max(1, p.space)))
    for side, ms in by.items():
        cx = sum(x + n / 2 for x, _, n in ms) / len(ms)
        cy = sum(y + n / 2 for _, y, n in ms) / len(ms)
        gaps = {"south": cy, "north": grid.height - cy, "west": cx, "east": grid.width - cx}
        out[side] = min(gaps, key=lambda k: gaps[k])
    return out


def build(rows: Sequence[Row], grid: SquareGrid, options: RuleOptions, name: str = "custom",
          dice: Dice | None = None, initiative: list[str] | None = None,
          first: str | None = None) -> MetaforceEncounter:
    """A fresh fight: place everyone, roll initiative with ``dice`` (unless ``initiative`` is
    given) and run the clock to the first decision (``first``'s turn, if given)."""
    dice = dice if dice is not None else SeededDice(0)
    if all(r[3] is not None for r in rows):
        auto: dict[str, tuple[int, int]] = {}
        home = home_edges([(r[0], r[1], r[2], r[3]) for r in rows if r[3] is not None], grid)
    else:
        auto, home = deploy([(r[0], r[1], r[2]) for r in rows], grid)
        if any(r[3] is not None for r in rows):  # a scenario placing some of them (§3.2)
            auto = clear_of(auto, rows, grid)
    cs = [Combatant(cid, side, p, at if at is not None else auto[cid], aware,
                    options.primed_at_start)
          for cid, side, p, at, aware in rows]
    ev: list[Event] = []
    mode = "direct" if options.initiative_mode == "preset" else options.initiative_mode
    order = initiative or roll_initiative(cs, dice, mode, ev)
    enc = MetaforceEncounter(cs, grid, order, options, name, home)
    if first is not None:
        enc.turn = order.index(first) - 1
    enc.start_events = [RoundStarted(1), *ev]
    enc.start_events += enc.start(dice)
    return enc
