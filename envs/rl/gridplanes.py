"""Egocentric map planes for square-grid systems (Sizebound, Metaforce): the terrain of a map,
padded so that any observer's window is one slice.

``terrain_planes(grid, radius)`` is the wall plane (off the map counts as wall) and the
difficult-ground plane of a ``SquareGrid``, north up (row 0 is the top row ``y = height - 1``),
padded by ``radius`` cells on every side. The window of side ``2 * radius + 1`` centred on the
cell ``(x, y)`` is ``planes[:, top:top + side, x:x + side]`` with ``top = height - 1 - y``.
Equal maps share one array (a ``SquareGrid`` is frozen and hashable); do not write into it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["terrain_planes"]

_TERRAIN: dict[tuple[Any, int], np.ndarray] = {}


def terrain_planes(grid: Any, radius: int) -> np.ndarray:
    """``(2, height + 2 radius, width + 2 radius)`` float32: walls (and off the map), difficult."""
    key = (grid, radius)
    pad = _TERRAIN.get(key)
    if pad is None:
        if len(_TERRAIN) > 256:
            _TERRAIN.clear()
        w, h = grid.width, grid.height
        pad = np.zeros((2, h + 2 * radius, w + 2 * radius), dtype=np.float32)
        pad[0] = 1.0
        pad[0, radius:radius + h, radius:radius + w] = 0.0
        for x, y in grid.walls:
            pad[0, radius + h - 1 - y, radius + x] = 1.0
        for x, y in grid.difficult:
            pad[1, radius + h - 1 - y, radius + x] = 1.0
        _TERRAIN[key] = pad
    return pad
