"""Sizebound observation: the egocentric map planes (``observation.py``'s ``map`` part): 11 x 11
cells around the observer's anchor, one plane a ``PLANES`` entry, row-major from the north-west.
What depends on the map alone (walls, difficult ground, sight, reach) is built once per place."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.rl.gridplanes import terrain_planes

from .rules.legal import weapon_in

__all__ = ["RADIUS", "SIDE", "PLANES", "map_planes"]

RADIUS = 5
SIDE = 2 * RADIUS + 1
PLANES = ("wall", "difficult", "ally", "enemy", "self", "item", "sight", "reach")
"""``sight``: the cells a one-cell creature would be seen in from the observer's footprint
(supercover line of sight through walls, spec §3.2; raised ground is in each slot's
``in_sight``); ``reach``: the cells within the observer's melee reach (its longest wielded melee
weapon, at least 1 for a Jab or a Grapple, R-28 distance from its footprint)"""


def map_planes(enc: Any, me: Any, out: np.ndarray) -> None:
    """The planes, written into ``out`` (zeros on entry)."""
    r = max([1] + [me.profile.weapon(w).reach or 0 for w in
                   (weapon_in(me, s) for s in ("main", "off")) if w is not None])
    out[:] = _static_planes(enc.grid, me.x, me.y, me.n, r)
    ox, oy = me.x - RADIUS, me.y + RADIUS  # the north-west corner
    planes = out.reshape(len(PLANES), SIDE, SIDE)
    side = me.side
    for g in enc.fighters:
        if not g.alive:
            continue
        k = 4 if g is me else (2 if side == g.side else 3)
        n = g.n
        c0, c1 = max(g.x - ox, 0), min(g.x + n - 1 - ox, SIDE - 1)  # its block in the window
        r0, r1 = max(oy - (g.y + n - 1), 0), min(oy - g.y, SIDE - 1)
        if c0 <= c1 and r0 <= r1:
            planes[k, r0:r1 + 1, c0:c1 + 1] = 1.0
    items = planes[5]
    for _, x, y in enc.items:
        col, row = x - ox, oy - y
        if 0 <= col < SIDE and 0 <= row < SIDE:
            items[row, col] = 1.0


_STATIC: dict[Any, np.ndarray] = {}
"""per (map, anchor, footprint side, reach): the planes that depend on nothing else (wall,
difficult, sight, reach), read-only"""


def _static_planes(grid: Any, x: int, y: int, n: int, r: int) -> np.ndarray:
    key = (grid, x, y, n, r)
    out = _STATIC.get(key)
    if out is not None:
        return out
    if len(_STATIC) > 50_000:
        _STATIC.clear()
    out = np.zeros(len(PLANES) * SIDE * SIDE, dtype=np.float32)
    ox, oy = x - RADIUS, y + RADIUS  # the north-west corner
    plane = SIDE * SIDE
    top = grid.height - 1 - y  # the padded row of the window's north edge
    window = terrain_planes(grid, RADIUS)[:, top:top + SIDE, x:x + SIDE]
    out[: 2 * plane] = window.reshape(-1)
    out[6 * plane: 7 * plane] = _sight(grid, x, y, n)
    reach = out[7 * plane: 8 * plane].reshape(SIDE, SIDE)
    x0, x1 = max(x - r, 0), min(x + n - 1 + r, grid.width - 1)  # on the map
    y0, y1 = max(y - r, 0), min(y + n - 1 + r, grid.height - 1)
    c0, c1 = max(x0 - ox, 0), min(x1 - ox, SIDE - 1)  # in the window
    r0, r1 = max(oy - y1, 0), min(oy - y0, SIDE - 1)
    if c0 <= c1 and r0 <= r1:
        reach[r0:r1 + 1, c0:c1 + 1] = 1.0
    out.flags.writeable = False
    _STATIC[key] = out
    return out


_SIGHT: dict[Any, np.ndarray] = {}
"""per (map, anchor, footprint side): the ``sight`` plane (it depends on the walls only)"""


def _sight(grid: Any, x: int, y: int, n: int) -> np.ndarray:
    key = (grid, x, y, n)
    plane = _SIGHT.get(key)
    if plane is None:
        if len(_SIGHT) > 50_000:
            _SIGHT.clear()
        plane = np.zeros(SIDE * SIDE, dtype=np.float32)
        ox, oy = x - RADIUS, y + RADIUS
        for row in range(SIDE):
            for col in range(SIDE):
                cell = (ox + col, oy - row)
                if 0 <= cell[0] < grid.width and 0 <= cell[1] < grid.height \
                        and cell not in grid.walls \
                        and grid.line_of_sight((x, y), n, cell, 1):
                    plane[row * SIDE + col] = 1.0
        _SIGHT[key] = plane
    return plane
