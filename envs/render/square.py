"""Square-grid geometry for pictures (Sizebound spec §3.2-3.3, Metaforce spec §3.2;
``envs.core.squaregrid``).

Cells ``(x, y)`` with x to the east and y to the **north**, so north is up in the picture: the
pixel centre of a cell is ``(x * side, -y * side)`` before the painter shifts the map into the frame
(``side`` is about ``1.75 * size``). The ground shows floor, walls (grey, hatched) and difficult
cells (a darker floor with three short strokes), and ``x,y`` small in every cell when ``coords`` is
on. A token with ``span`` N stands on its anchor (the block's south-west cell) and is drawn over
the whole N x N block; its highlight outlines the block.
"""

from __future__ import annotations

from collections.abc import Hashable

from PIL import ImageDraw

from envs.core.squaregrid import SquareGrid

from .scene import Cell
from .style import COORDS, GRID, GROUND, HATCH, INK, ROUGH, WALL, font, text

__all__ = ["SquareGeometry"]


class SquareGeometry:
    """Where the cells of a ``SquareGrid`` are drawn, and their ground.

    Args:
        grid: the battlefield.
        size: pixel scale (a token's radius is ``size / 2``; a cell's side is ``1.75 * size``).
    """

    def __init__(self, grid: SquareGrid, size: int = 36) -> None:
        self.grid = grid
        self.size = size
        self.side = round(1.75 * size)
        self.cell_w = self.cell_h = float(self.side)
        self._small = font(max(9, round(size * 0.3)))

    def key(self) -> Hashable:
        g = self.grid
        return ("square", g.width, g.height, g.walls, g.difficult, self.size)

    def cells(self) -> list[Cell]:
        return sorted(self.grid)

    def raw_centre(self, cell: Cell) -> tuple[float, float]:
        return (float(cell[0] * self.side), float(-cell[1] * self.side))

    def outline(self, x: float, y: float, shrink: float = 0.0, span: int = 1
                ) -> list[tuple[float, float]]:
        h = max(1, span) * self.side / 2 - shrink
        return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]

    def span_offset(self, span: int) -> tuple[float, float]:
        k = (max(1, span) - 1) * self.side / 2
        return (k, -k)  # toward the north-east of the anchor

    def draw_cell(self, d: ImageDraw.ImageDraw, cell: Cell, x: float, y: float,
                  coords: bool) -> None:
        wall = cell in self.grid.walls
        rough = cell in self.grid.difficult
        d.polygon(self.outline(x, y), fill=WALL if wall else ROUGH if rough else GROUND,
                  outline=GRID)
        h = self.side / 2
        if wall:  # hatch, so a wall reads as a wall in grey print too
            for k in (-0.5, 0.0, 0.5):
                d.line([(x - 0.7 * h, y + (k + 0.35) * h), (x + 0.7 * h, y + (k - 0.35) * h)],
                       fill=HATCH, width=2)
            return
        if rough:
            for k in (-0.45, 0.0, 0.45):
                d.line([(x + (k - 0.12) * h, y + 0.55 * h), (x + (k + 0.12) * h, y + 0.3 * h)],
                       fill=INK, width=1)
        if coords:
            text(d, (x, y - 0.72 * h), f"{cell[0]},{cell[1]}", self._small, COORDS)
