"""Hex map pictures, kept importable under their old name: the drawer now lives in
``envs.render`` (``envs.render.scene`` draws tokens, rings, bars, badges and the legend on any
geometry; ``envs.render.hex`` is the hex geometry and ``HexPainter``)."""

from __future__ import annotations

from envs.render.hex import HexGeometry, HexPainter
from envs.render.scene import CellMark as HexMark
from envs.render.scene import Link, MapPainter, Scene, Token
from envs.render.style import (
    BACKGROUND,
    COORDS,
    GRID,
    GROUND,
    HEIGHT_FULL_M,
    HIGH_GROUND,
    HIGHLIGHT,
    INK,
    PALE,
    RGB,
    TRACK,
    WALL,
    WATER,
    font,
)
from envs.render.style import mix as _mix

__all__ = ["RGB", "Token", "Link", "HexMark", "Scene", "HexPainter", "HexGeometry", "MapPainter",
           "font", "BACKGROUND", "COORDS", "GRID", "GROUND", "HEIGHT_FULL_M", "HIGH_GROUND",
           "HIGHLIGHT", "INK", "PALE", "TRACK", "WALL", "WATER", "_mix"]
