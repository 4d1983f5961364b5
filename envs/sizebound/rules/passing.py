"""Passing through allies (spec §5.0.5, R-29): "Cells held by allies of any size may be passed
through", while a creature may only *stop* where the footprint rules let it.

RULINGS of this module (the spec gives the rule, not the procedure, for an engine whose
movement is one step at a time):

* A ``step <dir>`` whose next position the mover may enter but not stop in (an ally's cells
  it cannot share: a Large or bigger ally, or two whole-cell creatures) carries on in the
  same direction to the first position where it may stop, paying for every cell entered
  (difficult terrain and crawling as for single steps). It is one label, so the fixed action
  layout needs no new index, and it is offered only when the whole passage fits in the budget
  (or in the Walk an unspent M would open).
* Every position crossed must be enterable: on the map, no wall, no hostile in it. Under
  ``elevation`` a walker crosses no rise or drop of more than 1 level between two positions,
  and a flyer stays above every ground it crosses; water, magma and falling apply only where
  it stops.
* Afraid: no position crossed may be nearer a fear source than the one before it.
* Not while dragging a grappled or lifted creature (each dragged creature must be placed on
  every step), nor for an Incorporeal creature (its own pass-through, ``full_move2``).
* Every cell crossed is a step of the Move: a Charge's straight line counts them, and a
  Blinded runner's first step is the whole passage (it falls Prone where it stops).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx
from envs.core.squaregrid import DIRECTIONS

from . import rulings
from .events import Stepped
from .fighter import Fighter
from .full_conditions import fear_sources
from .full_geometry import ground
from .full_motion import step_cost
from .space import Blocker, dist, stop_ok

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["through", "pass_step", "step_limit"]

Passage = tuple[list[tuple[int, int]], list[int]]
"""The positions crossed (the last one is where the mover stops) and each one's cost."""


def _enterable(enc: SizeboundEncounter, f: Fighter, anchor: tuple[int, int],
               hostile: list[tuple[int, int, int]]) -> bool:
    """On the map, no wall, no hostile in any cell of the block at ``anchor``."""
    x, y = anchor
    n, grid = f.n, enc.grid
    if not (0 <= x and x + n <= grid.width and 0 <= y and y + n <= grid.height):
        return False
    if grid.walls and any((x + i, y + j) in grid.walls for i in range(n) for j in range(n)):
        return False
    return not any(ox < x + n and x < ox + on and oy < y + n and y < oy + on
                   for ox, oy, on in hostile)


def step_limit(enc: SizeboundEncounter, f: Fighter) -> int:
    """The movement a step may spend now: the Move's (or Run's) budget left, else the budget the
    first step would open (``full_motion.move_speed``: Walk, or the speed in the air)."""
    from .full_motion import move_speed
    return f.budget if f.mode in ("move", "run") else move_speed(enc, f)


def through(enc: SizeboundEncounter, f: Fighter, d: int, limit: int,
            others: list[Blocker]) -> Passage | None:
    """The passage of ``step <dir>`` through allies when the next position is enterable but
    no place to stop (None when there is none, or it costs more than ``limit``)."""
    if f.grips or "incorporeal" in f.conds:
        return None
    dx, dy = DIRECTIONS[d]
    grid = enc.grid
    x, y, n = f.x + dx, f.y + dy, f.n
    if not (0 <= x and x + n <= grid.width and 0 <= y and y + n <= grid.height):
        return None  # off the map: no passage (a step there may flee, ``full_flee``)
    if not any(o.alive and o is not f and o.side == f.side and o.x < x + n and x < o.x + o.n
               and o.y < y + n and y < o.y + o.n for o in enc.fighters):
        return None  # no ally in the way: nothing to pass
    hostile = [(o.x, o.y, o.n) for o in enc.fighters
               if o.alive and o is not f and o.side != f.side]
    factor = 2 if f.prone else 1
    sources = [s for s in (enc.by_id.get(i) for i in fear_sources(f)) if s is not None
               and s.alive]
    heights = bool(enc.heights)
    alt = f.ground + f.z
    here = f.pos
    cells: list[tuple[int, int]] = []
    costs: list[int] = []
    spent = 0
    for _ in range(max(grid.width, grid.height)):
        new = (here[0] + dx, here[1] + dy)
        if not _enterable(enc, f, new, hostile):
            return None
        if heights:
            g = ground(enc, new, f.n)
            if (f.z == 0 and abs(g - alt) > 1) or (f.z and g > alt):
                return None
            if f.z == 0:
                alt = g
        if sources and any(dist(f, s, new) < dist(f, s, here) for s in sources):
            return None
        cost = step_cost(enc, f, grid.step_cost(here, d, f.n, factor))
        spent += cost
        if spent > limit:
            return None
        cells.append(new)
        costs.append(cost)
        if stop_ok(grid, f, new, others):
            return (cells, costs) if len(cells) > 1 else None
        here = new
    return None


def pass_step(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, d: int,
              passage: Passage) -> None:
    """Resolve the passage: pay it, one ``Stepped`` per cell, then the ground's rules where the
    mover stops (spec §5.0.5, §5.2.18, §8.3, §8.8)."""
    from . import full_motion, full_terrain
    from .procedures import make_prone
    from .resolve import _open_move
    if f.mode == "none":
        _open_move(ev, f, full_motion.move_speed(enc, f))
    first = f.steps == 0
    cells, costs = passage
    if f.charge_dir != d:
        f.charge_dir, f.charge_path = d, [f.pos]
    for cell, cost in zip(cells, costs, strict=True):
        f.budget -= cost
        f.steps += 1
        f.x, f.y = cell
        f.charge_path.append(cell)
        ev.append(Stepped(f.id, rulings.DIRECTIONS[d], f.x, f.y, cost))
    if enc.options.elevation:
        full_motion.settle(enc, ctx, ev, f)
    full_terrain.entered(enc, ev, f)
    if f.mode == "run" and "blinded" in f.conds and first:
        make_prone(enc, ctx, ev, f, on_purpose=False)  # spec §5.2.4
