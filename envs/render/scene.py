"""The scene of a map picture, the same for every map system: tokens, sides, health rings, bars,
badges, links, cell marks, a title and a legend, drawn on any ``Geometry`` (Pillow).

A system turns its encounter into a ``Scene``; a ``MapPainter`` over the map's geometry
(``envs.render.hex``, ``envs.render.square``, ``envs.render.line``) draws it as an ``H x W x 3``
uint8 array::

    painter = MapPainter.for_geometry(SquareGeometry(grid))   # cached: the frame size is fixed
    frame = painter.draw(Scene(tokens=(Token("ogre", (3, 4), "Og", RED, span=2),), title="round 1"))
    assert frame.shape == (painter.height, painter.width, 3)

The geometry says where cells are and draws the ground (terrain, grid, coordinates) once per map;
the painter lays the frame out (title on top, the map, ``legend_lines`` under it) and draws each
scene on a copy of that base, a few milliseconds a frame.

Several tokens on one cell (a rider on its mount, say): the largest ``scale`` is drawn in the
middle of the cell and the others smaller, side by side, near its top; tokens of equal scale share
the cell on a small circle. A token with ``span`` N covers an N x N block of a square grid from its
anchor cell and is drawn N times as large over the block. Links join token positions, so a link to
a rider ends at the rider.

This package is for pictures only (numpy and Pillow); the rules layer never imports it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import numpy as np
from PIL import Image, ImageDraw

from .style import BACKGROUND, HIGHLIGHT, INK, PALE, RGB, TRACK, font, mix, text

__all__ = ["RGB", "Cell", "Token", "Link", "CellMark", "Scene", "Geometry", "MapPainter", "font",
           "text", "mix"]

Cell = tuple[int, int]
"""a cell of the map: axial ``(q, r)`` on hexes, ``(x, y)`` on squares, ``(x, 0)`` on a line"""


@dataclass(frozen=True)
class Token:
    """One piece on the map.

    Attributes:
        key: unique name (links refer to it).
        cell: where it stands (its anchor cell when ``span`` > 1).
        label: a short text drawn on it (two or three characters read best).
        fill: its colour (e.g. the side's).
        hollow: drawn as a thick ring of ``fill`` around a pale middle (e.g. lying on the ground).
        ring: colour of an outer ring (e.g. the health state), or ``None``.
        cross: struck through (e.g. out of the fight).
        bar: segments ``(fraction, colour)`` of a bar under the token, left to right, fractions of
            the whole track (e.g. damage then stun, out of stamina).
        bar_tick: a tick on the bar at this fraction (e.g. a threshold), or ``None``.
        marks: a short badge text at its upper right (e.g. ``"C"`` for a counter ready).
        scale: relative size; when several tokens share a cell the largest takes the middle.
        highlight: outline its cell (e.g. the one whose decision it is).
        span: the side of its N x N footprint on a square grid (1 elsewhere).
    """

    key: str
    cell: Cell
    label: str
    fill: RGB
    hollow: bool = False
    ring: RGB | None = None
    cross: bool = False
    bar: tuple[tuple[float, RGB], ...] = ()
    bar_tick: float | None = None
    marks: str = ""
    scale: float = 1.0
    highlight: bool = False
    span: int = 1

    @property
    def hex(self) -> Cell:
        """The cell, under the name the hex pictures used."""
        return self.cell


@dataclass(frozen=True)
class Link:
    """A line between two tokens (e.g. a grapple), with an optional dot near the ``marked`` end."""

    a: str
    b: str
    color: RGB = (96, 52, 22)
    width: int = 5
    marked: str | None = None
    """the key of the end that gets a dot (e.g. the dominant grappler), or ``None``"""


@dataclass(frozen=True)
class CellMark:
    """A small square in the upper left of a cell (e.g. items lying there)."""

    cell: Cell
    color: RGB = (110, 110, 110)

    @property
    def hex(self) -> Cell:
        """The cell, under the name the hex pictures used."""
        return self.cell


@dataclass(frozen=True)
class Scene:
    """What one frame shows on top of the map.

    ``legend`` lines are sequences of ``(swatch, text)``; a swatch is a colour (a small square), the
    string ``"hollow"`` (a ring) or ``None`` (text only). Lines beyond the painter's
    ``legend_lines`` are not drawn; text wider than the frame is cut off.
    """

    tokens: Sequence[Token] = ()
    links: Sequence[Link] = ()
    marks: Sequence[CellMark] = ()
    title: str = ""
    legend: Sequence[Sequence[tuple[RGB | str | None, str]]] = ()


class Geometry(Protocol):
    """Where the cells of one map are and how its ground looks (hex, square, line)."""

    size: int
    """pixel scale: a token's radius is ``size / 2``"""
    cell_w: float
    """width of one cell in pixels (for the frame size)"""
    cell_h: float
    """height of one cell in pixels"""

    def key(self) -> Hashable:
        """Equal for equal maps (painters are cached by it)."""
        ...

    def cells(self) -> list[Cell]:
        """Every cell of the ground, in drawing order."""
        ...

    def raw_centre(self, cell: Cell) -> tuple[float, float]:
        """Pixel centre of ``cell`` before the painter shifts the map into the frame."""
        ...

    def outline(self, x: float, y: float, shrink: float = 0.0, span: int = 1
                ) -> list[tuple[float, float]]:
        """Polygon of a cell (or an N x N block) centred on ``(x, y)``, ``shrink`` pixels in."""
        ...

    def span_offset(self, span: int) -> tuple[float, float]:
        """From the centre of an anchor cell to the centre of its ``span`` x ``span`` block."""
        ...

    def draw_cell(self, d: ImageDraw.ImageDraw, cell: Cell, x: float, y: float,
                  coords: bool) -> None:
        """Draw the ground of ``cell`` centred on ``(x, y)`` (and its coordinates if asked)."""
        ...


class MapPainter:
    """Draws scenes on one map; ``for_geometry`` caches one painter per map (ground drawn once).

    Args:
        geometry: the map's geometry.
        coords: print each cell's coordinates small, to match logs and files.
        legend_lines: room for this many legend lines under the map.
        min_width: the narrowest frame (small maps still get a readable legend).
    """

    TITLE_H = 30
    LINE_H = 19
    MARGIN = 10

    _CACHE: ClassVar[dict[Hashable, MapPainter]] = {}

    def __init__(self, geometry: Geometry, coords: bool = True, legend_lines: int = 3,
                 min_width: int = 560) -> None:
        self.geometry = geometry
        self.coords = coords
        self.legend_lines = legend_lines
        self.min_width = min_width
        s = self.size = geometry.size
        cell_w, cell_h = geometry.cell_w, geometry.cell_h
        raw = {c: geometry.raw_centre(c) for c in geometry.cells()}
        if not raw:
            raise ValueError("cannot draw an empty map")
        xs = [p[0] for p in raw.values()]
        ys = [p[1] for p in raw.values()]
        map_w = max(xs) - min(xs) + cell_w
        map_h = max(ys) - min(ys) + cell_h
        self.width = int(math.ceil(max(map_w + 2 * self.MARGIN, self.min_width)))
        self.map_top = self.TITLE_H
        self.height = int(
            math.ceil(self.TITLE_H + map_h + 2 * self.MARGIN + self.legend_lines * self.LINE_H + 4)
        )
        self._dx = (self.width - map_w) / 2 + cell_w / 2 - min(xs)
        self._dy = self.map_top + self.MARGIN + cell_h / 2 - min(ys)
        self._centres = {c: (x + self._dx, y + self._dy) for c, (x, y) in raw.items()}
        self.token_radius = 0.5 * s
        self.ring_width = max(2, round(0.12 * s))
        self._base = self._draw_base()

    @classmethod
    def for_geometry(cls, geometry: Geometry, **kwargs: Any) -> MapPainter:
        """The painter of ``geometry`` (the same object for an equal map and options)."""
        key = (cls.__name__, geometry.key(), tuple(sorted(kwargs.items())))
        painter = MapPainter._CACHE.get(key)
        if painter is None:
            if len(MapPainter._CACHE) >= 32:
                MapPainter._CACHE.clear()
            painter = MapPainter._CACHE[key] = cls(geometry, **kwargs)
        return painter

    def centre(self, cell: Cell, span: int = 1) -> tuple[float, float]:
        """Pixel centre ``(x, y)`` of ``cell`` (of the block it anchors when ``span`` > 1)."""
        found = self._centres.get(cell)
        if found is None:  # off the drawn cells (a position on a line between ticks)
            x, y = self.geometry.raw_centre(cell)
            found = (x + self._dx, y + self._dy)
        if span != 1:
            ox, oy = self.geometry.span_offset(span)
            return (found[0] + ox, found[1] + oy)
        return found

    def place(self, tokens: Sequence[Token]) -> dict[str, tuple[float, float, float]]:
        """``{key: (x, y, radius)}``: where each token is drawn (see the module docstring)."""
        groups: dict[Cell, list[Token]] = {}
        for t in tokens:
            groups.setdefault(t.cell, []).append(t)
        out: dict[str, tuple[float, float, float]] = {}
        base, s = self.token_radius, self.size
        for c, group in groups.items():
            group = sorted(group, key=lambda t: -t.scale)
            x, y = self.centre(c, group[0].span)
            if len(group) == 1:
                t = group[0]
                r = base * min(t.scale, 1.25)
                out[t.key] = (x, y, r if t.span == 1 else r * t.span)
            elif group[0].scale > group[1].scale:  # a carrier in the middle, the others on top
                big, rest = group[0], group[1:]
                out[big.key] = (
                    x + 0.08 * s * (len(rest) > 1),
                    y + 0.12 * s,
                    base * min(big.scale, 1.25),
                )
                n = len(rest)
                for i, t in enumerate(rest):
                    off = (i - (n - 1) / 2) * 0.5 * s
                    out[t.key] = (x + off, y - 0.4 * s, base * min(t.scale, 0.55))
            else:  # equals share the cell
                n = len(group)
                for i, t in enumerate(group):
                    a = math.radians(-90 + 360 * i / n)
                    out[t.key] = (
                        x + 0.4 * s * math.cos(a),
                        y + 0.4 * s * math.sin(a),
                        base * 0.55 * min(t.scale, 1),
                    )
        return out

    # ------------------------------------------------------------------ drawing

    def _draw_base(self) -> Image.Image:
        img = Image.new("RGB", (self.width, self.height), BACKGROUND)
        d = ImageDraw.Draw(img)
        for c in self.geometry.cells():
            x, y = self._centres[c]
            self.geometry.draw_cell(d, c, x, y, self.coords)
        return img

    def draw(self, scene: Scene) -> np.ndarray:
        """The frame of ``scene``: an ``(height, width, 3)`` uint8 array."""
        return np.array(self.image(scene), dtype=np.uint8)

    def image(self, scene: Scene) -> Image.Image:
        """The frame of ``scene`` as a Pillow image."""
        img = self._base.copy()
        d = ImageDraw.Draw(img)
        spots = self.place(scene.tokens)
        carriers = self._carriers(scene.tokens)
        for t in scene.tokens:
            if t.highlight:
                x, y = self.centre(t.cell, t.span)
                d.polygon(self.geometry.outline(x, y, 1.5, t.span), outline=HIGHLIGHT,
                          width=max(3, self.size // 9))
        for m in scene.marks:
            x, y = self.centre(m.cell)
            k = 0.12 * self.size
            cx, cy = x - 0.55 * self.size, y - 0.38 * self.size
            d.rectangle([cx - k, cy - k, cx + k, cy + k], fill=m.color, outline=INK)
        for t in sorted(scene.tokens, key=lambda t: -t.scale):  # carriers under riders
            x, y, r = spots[t.key]
            self._token(d, t, x, y, r, carrier=t.key in carriers)
        for link in scene.links:  # on top, from ring to ring, so bars and rings never hide one
            if link.a in spots and link.b in spots:
                self._link(d, link, spots)
        d.text((self.MARGIN, 7), scene.title, font=font(17), fill=INK)
        self._legend(d, scene.legend)
        return img

    def _link(
        self, d: ImageDraw.ImageDraw, link: Link, spots: dict[str, tuple[float, float, float]]
    ) -> None:
        ax, ay, ar = spots[link.a]
        bx, by, br = spots[link.b]
        dist = math.hypot(bx - ax, by - ay)
        if dist < 1:
            return
        ux, uy = (bx - ax) / dist, (by - ay) / dist
        ea = min(ar + self.ring_width - 1, dist / 2 - 2)  # start and end at the rings
        eb = min(br + self.ring_width - 1, dist / 2 - 2)
        start, end = (ax + ux * ea, ay + uy * ea), (bx - ux * eb, by - uy * eb)
        d.line([start, end], fill=PALE, width=link.width + 4)
        d.line([start, end], fill=link.color, width=link.width)
        if link.marked in (link.a, link.b):
            px, py = start if link.marked == link.a else end
            k = max(4.0, 0.2 * self.size)
            d.ellipse([px - k, py - k, px + k, py + k], fill=link.color, outline=PALE, width=2)

    @staticmethod
    def _carriers(tokens: Sequence[Token]) -> set[str]:
        """Keys of tokens with smaller ones on top (their labels go low, under the riders)."""
        groups: dict[Cell, list[Token]] = {}
        for t in tokens:
            groups.setdefault(t.cell, []).append(t)
        out = set()
        for group in groups.values():
            group = sorted(group, key=lambda t: -t.scale)
            if len(group) > 1 and group[0].scale > group[1].scale:
                out.add(group[0].key)
        return out

    def _token(self, d: ImageDraw.ImageDraw, t: Token, x: float, y: float, r: float,
               carrier: bool = False) -> None:
        w = max(2.0, self.ring_width * r / self.token_radius)
        if t.ring is not None:
            d.ellipse([x - r - w, y - r - w, x + r + w, y + r + w], fill=t.ring)
        if t.hollow:
            d.ellipse(
                [x - r, y - r, x + r, y + r],
                fill=PALE,
                outline=t.fill,
                width=max(3, round(r * 0.3)),
            )
            label_colour = t.fill
        else:
            d.ellipse([x - r, y - r, x + r, y + r], fill=t.fill, outline=INK, width=1)
            label_colour = PALE if sum(t.fill) < 450 else INK
        if t.cross:
            k = r * 0.8
            d.line([(x - k, y - k), (x + k, y + k)], fill=INK, width=max(2, round(r / 7)))
            d.line([(x - k, y + k), (x + k, y - k)], fill=INK, width=max(2, round(r / 7)))
        text(
            d,
            (x, y + 0.5 * r) if carrier else (x, y),  # a carrier's label shows under its riders
            t.label,
            font(max(8, round(r * (0.6 if carrier else 0.95)))),
            label_colour,
            stroke=INK if t.cross and label_colour == PALE else (PALE if t.cross else None),
        )
        if t.bar or t.bar_tick is not None:
            self._bar(d, t, x, y + r + w + 2, r)
        if t.marks:
            f = font(max(8, round(self.size * 0.3)))
            left, top, right, bottom = d.textbbox((0, 0), t.marks, font=f)
            bx, by = x + r * 0.75, y - r * 0.95
            pad = 2
            d.rectangle(
                [bx - pad, by - pad, bx + right - left + pad, by + bottom - top + pad], fill=INK
            )
            d.text((bx - left, by - top), t.marks, font=f, fill=HIGHLIGHT)

    def _bar(self, d: ImageDraw.ImageDraw, t: Token, x: float, top: float, r: float) -> None:
        half = r * 1.05
        h = max(3.0, 0.13 * self.size * r / self.token_radius)
        d.rectangle([x - half, top, x + half, top + h], fill=TRACK, outline=INK)
        left, end = x - half, x + half
        for fraction, colour in t.bar:
            right = min(left + 2 * half * min(max(fraction, 0.0), 1.0), end)
            if right - left >= 1:
                d.rectangle([left, top, right, top + h], fill=colour, outline=None)
            left = right
        if t.bar_tick is not None:
            tx = x - half + 2 * half * t.bar_tick
            d.line([(tx, top - 2), (tx, top + h + 2)], fill=INK, width=1)

    def _legend(
        self, d: ImageDraw.ImageDraw, legend: Sequence[Sequence[tuple[RGB | str | None, str]]]
    ) -> None:
        f = font(13)
        y0 = self.height - self.legend_lines * self.LINE_H - 4
        for row, line in enumerate(legend[: self.legend_lines]):
            x = float(self.MARGIN)
            y = y0 + row * self.LINE_H
            for swatch, words in line:
                if swatch == "hollow":
                    d.ellipse([x, y + 2, x + 12, y + 14], fill=PALE, outline=INK, width=3)
                    x += 16
                elif isinstance(swatch, tuple):
                    d.rectangle([x, y + 2, x + 12, y + 14], fill=swatch, outline=INK)
                    x += 16
                d.text((x, y), words, font=f, fill=INK)
                x += d.textlength(words, font=f) + 12
