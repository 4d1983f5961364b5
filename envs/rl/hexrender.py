"""Pictures of hex maps for any grid system: terrain, tokens, links, a title and a legend (Pillow).

A system turns its encounter into a ``Scene`` (tokens on hexes, links between tokens, marks on
hexes, a title line and legend lines); ``HexPainter`` draws it as an ``H x W x 3`` uint8 array::

    painter = HexPainter.for_map(enc.map)           # cached per map: the frame size is fixed
    frame = painter.draw(Scene(tokens=(Token("steven", (0, 0), "St", BLUE),), title="round 1"))
    assert frame.shape == (painter.height, painter.width, 3)

Geometry follows ``envs.core.hexgrid``: axial ``(q, r)`` on pointy-top hexes, the pixel centre of a
hex is ``x = size * sqrt(3) * (q + r / 2)``, ``y = size * 3 / 2 * r`` (shifted so the map's bounds
fit). The terrain (open ground, walls, water, height in metres) and the grid are drawn once per map;
a frame copies that base and draws the scene on it, a few milliseconds each.

Several tokens on one hex (a rider on its mount, say): the largest ``scale`` is drawn in the middle
of the hex and the others smaller, side by side, near the top of the hex; tokens of equal scale
share
the hex on a small circle. Links join token positions, so a link to a rider ends at the rider.

This module is for pictures only (numpy and Pillow); the rules layer never imports it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from envs.core.hexgrid import Hex, HexMap

__all__ = ["RGB", "Token", "Link", "HexMark", "Scene", "HexPainter", "font"]

RGB = tuple[int, int, int]

BACKGROUND: RGB = (252, 251, 247)
GROUND: RGB = (234, 226, 204)
HIGH_GROUND: RGB = (168, 146, 104)
"""ground colour at ``HEIGHT_FULL_M`` metres and above (lower ground is a mix)"""
HEIGHT_FULL_M = 6.0
WALL: RGB = (88, 88, 96)
WATER: RGB = (148, 192, 232)
GRID: RGB = (176, 166, 146)
COORDS: RGB = (128, 118, 96)
INK: RGB = (30, 30, 34)
PALE: RGB = (250, 250, 250)
HIGHLIGHT: RGB = (255, 196, 0)
TRACK: RGB = (255, 255, 255)


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """Pillow's default font at ``size`` pixels (the fixed bitmap font on old Pillow builds)."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError, ImportError):  # Pillow < 10.1 or no FreeType
        return ImageFont.load_default()


@dataclass(frozen=True)
class Token:
    """One piece on the map.

    Attributes:
        key: unique name (links refer to it).
        hex: where it stands.
        label: a short text drawn on it (two or three characters read best).
        fill: its colour (e.g. the side's).
        hollow: drawn as a thick ring of ``fill`` around a pale middle (e.g. lying on the ground).
        ring: colour of an outer ring (e.g. the health state), or ``None``.
        cross: struck through (e.g. out of the fight).
        bar: segments ``(fraction, colour)`` of a bar under the token, left to right, fractions of
            the whole track (e.g. damage then stun, out of stamina).
        bar_tick: a tick on the bar at this fraction (e.g. a threshold), or ``None``.
        marks: a short badge text at its upper right (e.g. ``"C"`` for a counter ready).
        scale: relative size; when several tokens share a hex the largest takes the middle.
        highlight: outline its hex (e.g. the one whose decision it is).
    """

    key: str
    hex: Hex
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
class HexMark:
    """A small square in the upper left of a hex (e.g. items lying there)."""

    hex: Hex
    color: RGB = (110, 110, 110)


@dataclass(frozen=True)
class Scene:
    """What one frame shows on top of the map.

    ``legend`` lines are sequences of ``(swatch, text)``; a swatch is a colour (a small square), the
    string ``"hollow"`` (a ring) or ``None`` (text only). Lines beyond the painter's
    ``legend_lines`` are not drawn; text wider than the frame is cut off.
    """

    tokens: Sequence[Token] = ()
    links: Sequence[Link] = ()
    marks: Sequence[HexMark] = ()
    title: str = ""
    legend: Sequence[Sequence[tuple[RGB | str | None, str]]] = ()


@dataclass(frozen=True)
class _Placed:
    token: Token
    x: float
    y: float
    r: float


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    t = min(max(t, 0.0), 1.0)
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@dataclass
class HexPainter:
    """Draws scenes on one map; ``for_map`` caches one painter per map (terrain drawn once).

    Args:
        hexmap: the map.
        size: hex size in pixels (centre to corner).
        coords: print ``q,r`` small in every hex, to match the coordinates of logs and files.
        legend_lines: room for this many legend lines under the map.
        min_width: the narrowest frame (small maps still get a readable legend).
    """

    hexmap: HexMap
    size: int = 36
    coords: bool = True
    legend_lines: int = 3
    min_width: int = 560
    width: int = field(init=False)
    height: int = field(init=False)

    TITLE_H = 30
    LINE_H = 19
    MARGIN = 10

    def __post_init__(self) -> None:
        s = self.size
        w3 = math.sqrt(3) * s
        raw = {h: (w3 * (h[0] + h[1] / 2), 1.5 * s * h[1]) for h in self.hexmap.hexes}
        if not raw:
            raise ValueError("cannot draw an empty map")
        xs = [p[0] for p in raw.values()]
        ys = [p[1] for p in raw.values()]
        map_w = max(xs) - min(xs) + w3
        map_h = max(ys) - min(ys) + 2 * s
        self.width = int(math.ceil(max(map_w + 2 * self.MARGIN, self.min_width)))
        self.map_top = self.TITLE_H
        self.height = int(
            math.ceil(self.TITLE_H + map_h + 2 * self.MARGIN + self.legend_lines * self.LINE_H + 4)
        )
        dx = (self.width - map_w) / 2 + w3 / 2 - min(xs)
        dy = self.map_top + self.MARGIN + s - min(ys)
        self._centres = {h: (x + dx, y + dy) for h, (x, y) in raw.items()}
        self.token_radius = 0.5 * s
        self.ring_width = max(2, round(0.12 * s))
        self._base = self._draw_base()

    # ------------------------------------------------------------------ geometry

    _CACHE: ClassVar[dict[tuple, HexPainter]] = {}

    @classmethod
    def for_map(cls, hexmap: HexMap, **kwargs: object) -> HexPainter:
        """The painter of ``hexmap`` (the same object for an equal map and options)."""
        key = (hexmap.hexes, tuple(sorted(hexmap.terrain.items())), tuple(sorted(kwargs.items())))
        painter = cls._CACHE.get(key)
        if painter is None:
            if len(cls._CACHE) >= 32:
                cls._CACHE.clear()
            painter = cls._CACHE[key] = cls(hexmap, **kwargs)  # type: ignore[arg-type]
        return painter

    def centre(self, h: Hex) -> tuple[float, float]:
        """Pixel centre ``(x, y)`` of hex ``h`` (which must be on the map)."""
        return self._centres[h]

    def corners(self, h: Hex, shrink: float = 0.0) -> list[tuple[float, float]]:
        """The six corners of ``h``, pointy-top, ``shrink`` pixels inward."""
        x, y = self._centres[h]
        r = self.size - shrink
        return [
            (
                x + r * math.cos(math.radians(60 * i - 30)),
                y + r * math.sin(math.radians(60 * i - 30)),
            )
            for i in range(6)
        ]

    def place(self, tokens: Sequence[Token]) -> dict[str, tuple[float, float, float]]:
        """``{key: (x, y, radius)}``: where each token is drawn (see the module docstring)."""
        groups: dict[Hex, list[Token]] = {}
        for t in tokens:
            groups.setdefault(t.hex, []).append(t)
        out: dict[str, tuple[float, float, float]] = {}
        base, s = self.token_radius, self.size
        for h, group in groups.items():
            x, y = self._centres[h]
            group = sorted(group, key=lambda t: -t.scale)
            if len(group) == 1:
                t = group[0]
                out[t.key] = (x, y, base * min(t.scale, 1.25))
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
            else:  # equals share the hex
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
        small = font(max(9, round(self.size * 0.3)))
        for h in sorted(self.hexmap.hexes):
            t = self.hexmap.at(h)
            if t.wall:
                colour = WALL
            elif t.water:
                colour = WATER
            else:
                colour = (
                    _mix(GROUND, HIGH_GROUND, t.height_m / HEIGHT_FULL_M)
                    if t.height_m > 0
                    else GROUND
                )
            d.polygon(self.corners(h), fill=colour, outline=GRID)
            x, y = self._centres[h]
            if t.wall:  # hatch, so a wall reads as a wall in grey print too
                for k in (-0.4, 0.0, 0.4):
                    d.line(
                        [
                            (x - 0.5 * self.size, y + (k + 0.25) * self.size),
                            (x + 0.5 * self.size, y + (k - 0.25) * self.size),
                        ],
                        fill=(60, 60, 66),
                        width=2,
                    )
            if t.height_m and not t.wall:
                self._text(
                    d, (x + 0.02 * self.size, y + 0.62 * self.size), f"{t.height_m:g}m", small, INK
                )
            if self.coords and not t.wall:
                self._text(d, (x, y - 0.7 * self.size), f"{h[0]},{h[1]}", small, COORDS)
        return img

    @staticmethod
    def _text(
        d: ImageDraw.ImageDraw,
        xy: tuple[float, float],
        text: str,
        f: object,
        colour: RGB,
        stroke: RGB | None = None,
    ) -> None:
        """``text`` centred on ``xy`` (outlined in ``stroke`` when given)."""
        width = 2 if stroke is not None else 0
        left, top, right, bottom = d.textbbox((0, 0), text, font=f, stroke_width=width)
        d.text(
            (xy[0] - (left + right) / 2, xy[1] - (top + bottom) / 2),
            text,
            font=f,
            fill=colour,
            stroke_width=width,
            stroke_fill=stroke,
        )

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
                d.polygon(
                    self.corners(t.hex, shrink=1.5), outline=HIGHLIGHT, width=max(3, self.size // 9)
                )
        for m in scene.marks:
            x, y = self._centres[m.hex]
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
        groups: dict[Hex, list[Token]] = {}
        for t in tokens:
            groups.setdefault(t.hex, []).append(t)
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
        self._text(
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
            for swatch, text in line:
                if swatch == "hollow":
                    d.ellipse([x, y + 2, x + 12, y + 14], fill=PALE, outline=INK, width=3)
                    x += 16
                elif isinstance(swatch, tuple):
                    d.rectangle([x, y + 2, x + 12, y + 14], fill=swatch, outline=INK)
                    x += 16
                d.text((x, y), text, font=f, fill=INK)
                x += d.textlength(text, font=f) + 12
