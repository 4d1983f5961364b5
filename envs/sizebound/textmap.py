"""Sizebound's map as text (the registry's ``text_map`` part): what ``arena play`` shows before
each of a person's decisions and ``arena situation check`` prints. One character per cell, north
at the top (``.`` open, ``#`` wall, ``:`` difficult, ``*`` an item on the ground), each living
creature's letter on every cell of its footprint (capitals: the first side; allies sharing a
cell show the first), then a legend: letter, id, side, anchor, size, HP and conditions."""

from __future__ import annotations

from typing import Any

from envs.core.squaregrid import footprint

__all__ = ["text_map", "KEY"]

KEY = "map (x grows to the east, y to the north; . open # wall : difficult * item):"


def text_map(enc: Any, viewer: str | None) -> list[str]:
    """The map as ``viewer`` knows it (``None``: as the GM sees it; Sizebound hides nothing),
    as text lines."""
    grid = enc.grid
    cells = {c: "#" if c in grid.walls else ":" if c in grid.difficult else "." for c in grid}
    for _, x, y in enc.items:
        if (x, y) in cells and cells[(x, y)] != "#":
            cells[(x, y)] = "*"
    first = enc.sides()[0].side if enc.sides() else None
    used: set[str] = set()
    legend: list[str] = []
    for f in enc.fighters:
        letter = next((ch for ch in f.id if ch.isalpha() and ch.lower() not in used), "?")
        used.add(letter.lower())
        letter = letter.upper() if f.side == first else letter.lower()
        if f.alive:
            for c in footprint(f.pos, f.n):
                if c in cells and not cells[c].isalpha():
                    cells[c] = letter
        p = f.profile
        state = ", ".join(sorted({c.name for c in f.conds})) if f.alive else (
            "fled" if f.fled else "dead")
        size = f"{p.size} {f.n}x{f.n}" if f.n > 1 else f"{p.size} {p.footprint:g}"
        legend.append(f"{letter} {f.id} ({f.side}) at {f.x},{f.y}, {size}, "
                      f"HP {f.hp}/{p.max_hp}" + (f", {state}" if state else ""))
    out = [KEY]
    for y in range(grid.height - 1, -1, -1):
        out.append(f"  y={y:>2}  " + " ".join(cells[(x, y)] for x in range(grid.width)))
    out.append("        " + " ".join(str(x % 10) for x in range(grid.width)))
    return out + ["  " + line for line in legend]
