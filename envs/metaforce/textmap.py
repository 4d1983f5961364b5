"""Metaforce's map as text (the registry's ``text_map`` part): what ``arena play`` shows before
each of a person's decisions and ``arena situation check`` prints. One character per 5-ft
square, north at the top (``.`` open, ``#`` wall, ``:`` difficult), each combatant still on the
field by its letter on every square of its footprint (capitals: the first side; ``x`` marks a
dead body), then a legend: letter, id, side, square, size, HP, MP and statuses."""

from __future__ import annotations

from typing import Any

from envs.core.squaregrid import footprint

__all__ = ["text_map", "KEY"]

KEY = "map (x grows to the east, y to the north; . open # wall : difficult x dead):"


def text_map(enc: Any, viewer: str | None) -> list[str]:
    """The map as ``viewer`` knows it (``None``: as the GM sees it; Metaforce hides nothing),
    as text lines."""
    grid = enc.grid
    cells = {c: "#" if c in grid.walls else ":" if c in grid.difficult else "." for c in grid}
    first = enc.sides()[0].side if enc.sides() else None
    used: set[str] = set()
    legend: list[str] = []
    for c in enc.combatants:
        letter = next((ch for ch in c.id if ch.isalpha() and ch.lower() not in used), "?")
        used.add(letter.lower())
        letter = letter.upper() if c.side == first else letter.lower()
        if c.present:
            mark = letter if c.alive else "x"
            for cell in footprint(c.pos, c.n):
                if cell in cells and not cells[cell].isalpha():
                    cells[cell] = mark
        p = c.profile
        st = [f"{k} {v[0]}" for k, v in sorted(c.statuses.items())]
        if c.stun:
            st.append(f"stun {c.stun}")
        state = "" if c.active else c.state
        size = f"{p.size:g} {c.n}x{c.n}"
        mp = f", MP {c.mp}/{c.mp_max}" if c.mp_max else ""
        tail = ", ".join(x for x in (state, *st) if x)
        legend.append(f"{letter} {c.id} ({c.side}) at {c.x},{c.y}, size {size}, "
                      f"HP {c.hp}/{p.hp_max}{mp}" + (f", {tail}" if tail else ""))
    out = [KEY]
    for y in range(grid.height - 1, -1, -1):
        out.append(f"  y={y:>2}  " + " ".join(cells[(x, y)] for x in range(grid.width)))
    out.append("        " + " ".join(str(x % 10) for x in range(grid.width)))
    return out + ["  " + line for line in legend]
