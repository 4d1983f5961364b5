"""Fleeing (spec §3.7, §8.11, FULL): "Fleeing means leaving the map through an edge cell."
A creature in the fight is alive and has not fled.

RULINGS of this module (the spec names fleeing, not its procedure):

* Under FULL (the option ``fleeing``, off in CORE) a creature whose block touches an edge flees
  with ``step <dir>`` in a direction that takes its block off the map: a step like any other
  (it opens M with the Walk budget, or spends the budget: 1, x2 into a difficult cell still on
  the map, x2 while Prone), under the limits of every step (not Grappled, Rooted, Paralyzed or
  worse, Disabled). It is one label, so the action layout needs no new index.
* The part of the new block still on the map must be enterable (no wall, no hostile). It may
  not drag anybody along (not while grappling or lifting). An Afraid creature may flee (leaving
  the map never brings it closer to what it fears), and a Panicked one that can flee has an
  escape.
* A creature that flees leaves the battlefield for good: it is out of the fight, its grapples
  end, it keeps its items and conditions, and nothing on the map reaches it. The engine marks
  it ``fled`` and no longer ``alive`` on the map (every rule that skips the dead skips it), and
  its events say it fled, not that it died.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event, OutOfFight
from envs.core.flow import Ctx
from envs.core.squaregrid import DIRECTIONS

from . import rulings
from .events import GrappleChanged, Stepped
from .fighter import Fighter
from .full_motion import step_cost

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["off_map", "flee_cost", "flee"]



def off_map(enc: SizeboundEncounter, f: Fighter, anchor: tuple[int, int]) -> bool:
    """Whether the block at ``anchor`` sticks out of the map."""
    x, y = anchor
    g = enc.grid
    return not (0 <= x and x + f.n <= g.width and 0 <= y and y + f.n <= g.height)


def flee_cost(enc: SizeboundEncounter, f: Fighter, d: int, limit: int | None = None
              ) -> int | None:
    """The cost of fleeing with ``step <d>`` (None when it is no flight, is not allowed, or costs
    more than ``limit``; ``None``: the direction alone, whatever the budget)."""
    if not enc.options.fleeing or enc.options.version != "full" or f.grips:
        return None
    dx, dy = DIRECTIONS[d]
    x, y = f.x + dx, f.y + dy
    if not off_map(enc, f, (x, y)):
        return None
    g = enc.grid
    on = [(x + i, y + j) for i in range(f.n) for j in range(f.n)
          if 0 <= x + i < g.width and 0 <= y + j < g.height]
    if any(c in g.walls for c in on):
        return None
    for o in enc.fighters:
        if o.alive and o is not f and o.side != f.side and any(
                o.x <= cx < o.x + o.n and o.y <= cy < o.y + o.n for cx, cy in on):
            return None
    cost = step_cost(enc, f, g.step_cost(f.pos, d, f.n, 2 if f.prone else 1))
    return cost if limit is None or cost <= limit else None


def flee(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, d: int,
         cost: int) -> None:
    """``f`` steps off the map and is out of the fight (spec §8.11)."""
    from . import full_motion
    from .resolve import _open_move
    if f.mode == "none":
        _open_move(ev, f, full_motion.move_speed(enc, f))
    f.budget -= cost
    f.steps += 1
    dx, dy = DIRECTIONS[d]
    ev.append(Stepped(f.id, rulings.DIRECTIONS[d], f.x + dx, f.y + dy, cost))
    for other in enc.fighters:
        if f.id in other.grips:
            enc.end_grapple(ev, other, f, "ended")
    for gid in list(f.grappled_by):
        f.grappled_by.remove(gid)
        ev.append(GrappleChanged(gid, f.id, "ended"))
    f.fled, f.alive = True, False
    f.charge_dir, f.charge_path = None, []
    f.fall_turn = f.fallen = f.cling = 0
    ev.append(OutOfFight(f.id, "fled"))
    enc.check_end(ev)
