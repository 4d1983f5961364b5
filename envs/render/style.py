"""Colours, fonts and small drawing helpers shared by the scene and the geometries of
``envs.render`` (Pillow)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import ImageDraw, ImageFont

__all__ = ["RGB", "font", "text", "mix", "BACKGROUND", "GROUND", "HIGH_GROUND", "HEIGHT_FULL_M",
           "WALL", "HATCH", "WATER", "ROUGH", "GRID", "COORDS", "INK", "PALE", "HIGHLIGHT",
           "TRACK"]

RGB = tuple[int, int, int]

BACKGROUND: RGB = (252, 251, 247)
GROUND: RGB = (234, 226, 204)
HIGH_GROUND: RGB = (168, 146, 104)
"""ground colour at ``HEIGHT_FULL_M`` metres and above (lower ground is a mix)"""
HEIGHT_FULL_M = 6.0
WALL: RGB = (88, 88, 96)
HATCH: RGB = (60, 60, 66)
WATER: RGB = (148, 192, 232)
ROUGH: RGB = (214, 200, 160)
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


def text(d: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, f: Any, colour: RGB,
         stroke: RGB | None = None) -> None:
    """``words`` centred on ``xy`` (outlined in ``stroke`` when given)."""
    width = 2 if stroke is not None else 0
    left, top, right, bottom = d.textbbox((0, 0), words, font=f, stroke_width=width)
    d.text(
        (xy[0] - (left + right) / 2, xy[1] - (top + bottom) / 2),
        words,
        font=f,
        fill=colour,
        stroke_width=width,
        stroke_fill=stroke,
    )


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b`` (``t`` clamped to 0..1)."""
    t = min(max(t, 0.0), 1.0)
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
