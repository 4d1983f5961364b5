"""A one-dimensional map for pictures: Palladium Revised's battle line (spec §3.2, R21: positions
in feet along ``0..L``) and abstract zones in a row (named boxes, one per zone).

Cells are ``(x, 0)``: the ground is a strip of boxes, one every ``tick`` units from 0 to
``length``, each ``tick * unit`` pixels wide and centred on its position, labelled with its
position (and ``unit_name``) or its name; a token stands at any integer position ``x`` of the
line, ticks or not, and tokens at one position share it as on any map.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from PIL import ImageDraw

from .scene import Cell
from .style import BACKGROUND, COORDS, GRID, GROUND, font, mix, text

__all__ = ["LineGeometry"]


class LineGeometry:
    """Where positions of a line are drawn, and the strip of boxes under them.

    Args:
        length: the last position (``L``; the first is 0).
        tick: units between two boxes (Palladium: 10 ft; zones: 1).
        names: a name per box (zones), instead of the position.
        unit_name: written after a position (``"ft"``).
        size: pixel scale (a token's radius is ``size / 2``; a box is ``2 * size`` wide).
    """

    def __init__(self, length: int, tick: int = 1, names: Sequence[str] = (),
                 unit_name: str = "", size: int = 36) -> None:
        if length < 0 or tick < 1:
            raise ValueError(f"a line needs length >= 0 and tick >= 1, got {length}, {tick}")
        self.length, self.tick, self.names, self.unit_name = length, tick, tuple(names), unit_name
        self.size = size
        self.unit = 2 * size / tick
        self.cell_w = float(2 * size)
        self.cell_h = float(2 * size)
        self._small = font(max(9, round(size * 0.3)))

    def key(self) -> Hashable:
        return ("line", self.length, self.tick, self.names, self.unit_name, self.size)

    def cells(self) -> list[Cell]:
        return [(x, 0) for x in range(0, self.length + 1, self.tick)]

    def raw_centre(self, cell: Cell) -> tuple[float, float]:
        return (cell[0] * self.unit, 0.0)

    def outline(self, x: float, y: float, shrink: float = 0.0, span: int = 1
                ) -> list[tuple[float, float]]:
        w, h = self.cell_w / 2 - shrink, self.cell_h / 2 - shrink
        return [(x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)]

    def span_offset(self, span: int) -> tuple[float, float]:
        return (0.0, 0.0)

    def draw_cell(self, d: ImageDraw.ImageDraw, cell: Cell, x: float, y: float,
                  coords: bool) -> None:
        i = cell[0] // self.tick
        fill = GROUND if i % 2 == 0 else mix(GROUND, BACKGROUND, 0.5)
        d.polygon(self.outline(x, y), fill=fill, outline=GRID)
        if i < len(self.names):
            label = self.names[i]
        elif coords:
            label = f"{cell[0]}{' ' + self.unit_name if self.unit_name else ''}"
        else:
            return
        text(d, (x, y + 0.8 * self.size), label, self._small, COORDS)
