"""Hex-map geometry for pictures (Mano a Mano spec §3, ``envs.core.hexgrid``) and ``HexPainter``.

Axial ``(q, r)`` on pointy-top hexes: the pixel centre of a hex is
``x = size * sqrt(3) * (q + r / 2)``, ``y = size * 3 / 2 * r`` (the painter shifts the map so its
bounds fit). The ground shows open ground, walls (grey, hatched so they read in grey print too),
water and height in metres (a mix toward high ground, with the height written in the hex), and
``q,r`` small in every hex when ``coords`` is on. Tokens, rings, bars and the legend are the
scene's (``envs.render.scene``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from PIL import ImageDraw

from envs.core.hexgrid import Hex, HexMap

from .scene import Cell, MapPainter
from .style import (
    COORDS,
    GRID,
    GROUND,
    HATCH,
    HEIGHT_FULL_M,
    HIGH_GROUND,
    INK,
    WALL,
    WATER,
    font,
    mix,
    text,
)

__all__ = ["HexGeometry", "HexPainter"]


class HexGeometry:
    """Where the hexes of a ``HexMap`` are drawn, and their ground.

    Args:
        hexmap: the map.
        size: hex size in pixels (centre to corner).
    """

    def __init__(self, hexmap: HexMap, size: int = 36) -> None:
        self.hexmap = hexmap
        self.size = size
        self.cell_w = math.sqrt(3) * size
        self.cell_h = float(2 * size)
        self._small = font(max(9, round(size * 0.3)))

    def key(self) -> Hashable:
        return self.key_of(self.hexmap, self.size)

    @staticmethod
    def key_of(hexmap: HexMap, size: int) -> Hashable:
        """The ``key`` of the geometry of ``hexmap`` at ``size``, without building it."""
        return ("hex", hexmap.hexes, tuple(sorted(hexmap.terrain.items())), size)

    def cells(self) -> list[Cell]:
        return sorted(self.hexmap.hexes)

    def raw_centre(self, cell: Cell) -> tuple[float, float]:
        return (self.cell_w * (cell[0] + cell[1] / 2), 1.5 * self.size * cell[1])

    def outline(self, x: float, y: float, shrink: float = 0.0, span: int = 1
                ) -> list[tuple[float, float]]:
        r = self.size - shrink
        return [
            (
                x + r * math.cos(math.radians(60 * i - 30)),
                y + r * math.sin(math.radians(60 * i - 30)),
            )
            for i in range(6)
        ]

    def span_offset(self, span: int) -> tuple[float, float]:
        return (0.0, 0.0)  # hex creatures stand in one hex

    def draw_cell(self, d: ImageDraw.ImageDraw, cell: Cell, x: float, y: float,
                  coords: bool) -> None:
        t = self.hexmap.at(cell)
        s = self.size
        if t.wall:
            colour = WALL
        elif t.water:
            colour = WATER
        else:
            colour = mix(GROUND, HIGH_GROUND, t.height_m / HEIGHT_FULL_M) if t.height_m > 0 \
                else GROUND
        d.polygon(self.outline(x, y), fill=colour, outline=GRID)
        if t.wall:  # hatch, so a wall reads as a wall in grey print too
            for k in (-0.4, 0.0, 0.4):
                d.line([(x - 0.5 * s, y + (k + 0.25) * s), (x + 0.5 * s, y + (k - 0.25) * s)],
                       fill=HATCH, width=2)
        if t.height_m and not t.wall:
            text(d, (x + 0.02 * s, y + 0.62 * s), f"{t.height_m:g}m", self._small, INK)
        if coords and not t.wall:
            text(d, (x, y - 0.7 * s), f"{cell[0]},{cell[1]}", self._small, COORDS)


class HexPainter(MapPainter):
    """A ``MapPainter`` over a hex map; ``for_map`` caches one painter per map.

    Args:
        hexmap: the map.
        size: hex size in pixels (centre to corner).
        coords: print ``q,r`` small in every hex, to match the coordinates of logs and files.
        legend_lines: room for this many legend lines under the map.
        min_width: the narrowest frame (small maps still get a readable legend).
    """

    def __init__(self, hexmap: HexMap, size: int = 36, coords: bool = True,
                 legend_lines: int = 3, min_width: int = 560) -> None:
        self.hexmap = hexmap
        super().__init__(HexGeometry(hexmap, size), coords, legend_lines, min_width)

    @classmethod
    def for_map(cls, hexmap: HexMap, **kwargs: Any) -> HexPainter:
        """The painter of ``hexmap`` (the same object for an equal map and options)."""
        size = kwargs.pop("size", 36)
        key = ("hexpainter", HexGeometry.key_of(hexmap, size), tuple(sorted(kwargs.items())))
        painter = MapPainter._CACHE.get(key)
        if painter is None:
            if len(MapPainter._CACHE) >= 32:
                MapPainter._CACHE.clear()
            painter = MapPainter._CACHE[key] = cls(hexmap, size=size, **kwargs)
        assert isinstance(painter, HexPainter)
        return painter

    def corners(self, h: Hex, shrink: float = 0.0) -> list[tuple[float, float]]:
        """The six corners of ``h``, pointy-top, ``shrink`` pixels inward."""
        x, y = self.centre(h)
        return self.geometry.outline(x, y, shrink)
