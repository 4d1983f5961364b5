"""Movement on the square grid (spec §3.2, §5.1, R-26, R-27, R-59): the HOLD / APPROACH /
RETREAT modes, Dash, Reaction Move and Knockback.

Allies' squares may be crossed, enemies' not; no move ends on an occupied square. Bodies of the
fallen may be crossed but not stopped on. Distances are Chebyshev between the closest squares
of two footprints (``envs.core.squaregrid``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.squaregrid import distance, footprint

from .combatant import Combatant
from .events import GrappleChanged, KnockedBack, Moved

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["dist", "approach_cell", "retreat_cell", "move_to", "knockback", "on_edge",
           "release_grapple", "edge_distance"]


def dist(a: Combatant, b: Combatant, at: tuple[int, int] | None = None) -> int:
    """Squares between the closest cells of ``a`` (at ``at`` if given) and ``b``."""
    return distance(at or (a.x, a.y), a.n, (b.x, b.y), b.n)


def _cells(enc: MetaforceEncounter, c: Combatant) -> tuple[set[tuple[int, int]],
                                                             set[tuple[int, int]]]:
    """``(blocked, occupied)``: active enemies block; allies and bodies may be crossed."""
    blocked: set[tuple[int, int]] = set()
    occupied: set[tuple[int, int]] = set()
    for o in enc.combatants:
        if o is c or not o.present:
            continue
        cells = footprint(o.pos, o.n)
        if o.side != c.side and o.active:
            blocked.update(cells)
        else:
            occupied.update(cells)
    return blocked, occupied


def _layout(enc: MetaforceEncounter) -> tuple[tuple[int, int, str], ...]:
    """Where everyone stands and in what state: what movement depends on."""
    return tuple((o.x, o.y, o.state) for o in enc.combatants)


def _reach(enc: MetaforceEncounter, c: Combatant, budget: int,
           layout: tuple[tuple[int, int, str], ...] | None = None) -> dict[tuple[int, int], int]:
    """The anchors ``c`` can stop at (cached by the layout of everyone on the field)."""
    key = (c.id, budget, layout or _layout(enc))
    memo = enc.reach_memo
    got = memo.get(key)
    if got is None:
        if len(memo) > 512:
            memo.clear()
        blocked, occupied = _cells(enc, c)
        got = enc.grid.reachable(c.pos, budget, c.n, blocked, occupied)
        memo[key] = got
    return got


def approach_cell(enc: MetaforceEncounter, c: Combatant, t: Combatant, budget: int,
                  within: int = 1) -> tuple[int, int]:
    """spec §5.1 APPROACH(t): along the shortest path toward ``t``; stop as soon as ``t`` is
    within ``within`` squares (the activity's reach, or adjacent). Ties: least cost, then the
    lowest y, then x."""
    if dist(c, t) <= within or budget <= 0:
        return c.pos
    layout = _layout(enc)
    key = ("approach", c.id, budget, layout, t.id, within)
    memo = enc.reach_memo
    got = memo.get(key)
    if got is not None:
        return got
    reach = _reach(enc, c, budget, layout)
    n, tn = c.n, t.n
    tx0, ty0 = t.x - n + 1, t.y - n + 1  # distance() written out (see squaregrid.distance)
    tx1, ty1 = t.x + tn - 1, t.y + tn - 1
    bd = bc = bx = by = -1
    for (x, y), cost in reach.items():
        gx = tx0 - x if tx0 - x > x - tx1 else x - tx1
        gy = ty0 - y if ty0 - y > y - ty1 else y - ty1
        d = gx if gx > gy else gy
        if d < 0:
            d = 0
        if d < within:
            d = within
        if bd < 0 or d < bd or (d == bd and (cost < bc or (cost == bc and (
                y < by or (y == by and x < bx))))):
            bd, bc, bx, by = d, cost, x, y
    memo[key] = got = (bx, by)
    return got


def retreat_cell(enc: MetaforceEncounter, c: Combatant, t: Combatant,
                 budget: int) -> tuple[int, int]:
    """spec §5.1 RETREAT(t): maximise the distance from ``t``; ties stay closest to the own side's
    edge, then least cost, then the lowest y and x."""
    if budget <= 0:
        return c.pos
    home = enc.home_edge.get(c.side, "south")
    layout = _layout(enc)
    key = ("retreat", c.id, budget, layout, t.id, home)
    memo = enc.reach_memo
    got = memo.get(key)
    if got is not None:
        return got
    reach = _reach(enc, c, budget, layout)
    n, tn, g = c.n, t.n, enc.grid
    # edge_distance() and distance() written out: the edge is e0 + sx * x + sy * y
    sx, sy, e0 = {"south": (0, 1, 0), "north": (0, -1, g.height - n), "west": (1, 0, 0),
                  "east": (-1, 0, g.width - n)}[home]
    tx0, ty0 = t.x - n + 1, t.y - n + 1
    tx1, ty1 = t.x + tn - 1, t.y + tn - 1
    bd = be = bc = bx = by = 0
    first = True
    for (x, y), cost in reach.items():
        gx = tx0 - x if tx0 - x > x - tx1 else x - tx1
        gy = ty0 - y if ty0 - y > y - ty1 else y - ty1
        d = gx if gx > gy else gy
        if d < 0:
            d = 0
        e = e0 + sx * x + sy * y
        if first or d > bd or (d == bd and (e < be or (e == be and (cost < bc or (
                cost == bc and (y < by or (y == by and x < bx))))))):
            bd, be, bc, bx, by = d, e, cost, x, y
            first = False
    memo[key] = got = (bx, by)
    return got


def release_grapple(enc: MetaforceEncounter, ev: list[Event], g: Combatant, how: str,
                    tid: str | None = None) -> None:
    """spec §5.9 item 4: the grapple of ``g`` on ``tid`` ends (every grapple of ``g`` with no
    ``tid``), its target's Grappled status with it."""
    for gid in g.grips() if tid is None else (tid,) if g.holds(tid) else ():
        t = enc.by_id[gid]
        g.drop_grip(gid)
        if "grappled" in t.statuses and t.statuses["grappled"][2] == g.id:
            del t.statuses["grappled"]
        ev.append(GrappleChanged(g.id, t.id, 0, how))


def move_to(enc: MetaforceEncounter, ev: list[Event], c: Combatant, cell: tuple[int, int],
            how: str) -> None:
    """Put ``c`` at ``cell``; a grappler that moves away loses its grapple (spec §5.9 item 4)."""
    if cell == c.pos:
        return
    squares = max(abs(cell[0] - c.x), abs(cell[1] - c.y))
    c.x, c.y = cell
    enc.memo.clear()
    ev.append(Moved(c.id, how, c.x, c.y, squares))
    for gid in c.grips():
        if dist(c, enc.by_id[gid]) > c.reach:
            release_grapple(enc, ev, c, "ended", gid)
    for o in enc.combatants:  # the grappled creature moved out of its grappler's reach
        if o.holds(c.id) and dist(o, c) > o.reach:
            release_grapple(enc, ev, o, "ended", c.id)


def knockback(enc: MetaforceEncounter, ev: list[Event], a: Combatant, t: Combatant,
              squares: int) -> None:
    """R-59: push ``t`` one square at a time along ``(sign dx, sign dy)`` from the attacker's
    nearest square to the target's; stop at the edge or before any occupied square. A Grappled
    target is not moved; a pushed grappler releases its grapple. Not a move of its own (no W-R1)."""
    if "grappled" in t.statuses:
        return
    ax = min(max(t.x, a.x), a.x + a.n - 1)
    ay = min(max(t.y, a.y), a.y + a.n - 1)
    tx = min(max(ax, t.x), t.x + t.n - 1)
    ty = min(max(ay, t.y), t.y + t.n - 1)
    dx, dy = (tx > ax) - (tx < ax), (ty > ay) - (ty < ay)
    if dx == 0 and dy == 0:
        return
    others = set()
    for o in enc.combatants:
        if o is not t and o.present:
            others.update(footprint(o.pos, o.n))
    moved = 0
    for _ in range(squares):
        nxt = (t.x + dx, t.y + dy)
        if not enc.grid.fits(nxt, t.n, others):
            break
        t.x, t.y = nxt
        moved += 1
    if moved:
        enc.memo.clear()
        ev.append(KnockedBack(t.id, moved, t.x, t.y))
        if t.grappling is not None:
            release_grapple(enc, ev, t, "ended")


def edge_distance(enc: MetaforceEncounter, cell: tuple[int, int], n: int, edge: str) -> int:
    """Squares between an N x N block at ``cell`` and the named edge of the grid."""
    g = enc.grid
    return {"south": cell[1], "north": g.height - n - cell[1], "west": cell[0],
            "east": g.width - n - cell[0]}[edge]


def on_edge(enc: MetaforceEncounter, c: Combatant) -> bool:
    """spec §5.2 #17: some square of ``c`` is on the battlefield's edge."""
    g = enc.grid
    return c.x == 0 or c.y == 0 or c.x + c.n >= g.width or c.y + c.n >= g.height
