"""Map pictures for every map system: one scene drawer over three geometries (pictures only:
numpy and Pillow; the rules layer never imports this package).

* ``style``: colours, fonts, centred text;
* ``scene``: ``Token``, ``Link``, ``CellMark``, ``Scene`` and ``MapPainter``, which lays out a frame
  (title, map, legend) and draws tokens (side colour, health ring, bar, badges, highlight) and
  links on any geometry;
* ``hex``: axial hex maps (``envs.core.hexgrid``; Mano a Mano) and ``HexPainter``;
* ``square``: square grids with N x N footprints (``envs.core.squaregrid``; Sizebound, Metaforce);
* ``line``: a one-dimensional line or a row of zones (Palladium Revised's battle line).

A system's ``render(enc)`` builds a ``Scene`` from its encounter and draws it with
``MapPainter.for_geometry(...)`` (or ``HexPainter.for_map``): the scene code is shared.
"""

from __future__ import annotations

from .hex import HexGeometry, HexPainter
from .line import LineGeometry
from .scene import CellMark, Geometry, Link, MapPainter, Scene, Token
from .square import SquareGeometry
from .style import RGB, font

__all__ = ["RGB", "Token", "Link", "CellMark", "Scene", "Geometry", "MapPainter", "font",
           "HexGeometry", "HexPainter", "SquareGeometry", "LineGeometry"]
