"""Mano a Mano's map as text (the registry's ``text_map`` part): what ``arena play`` shows before
each of a person's decisions and ``arena situation check`` prints, in any terminal and with no
files. One character per hex of the view's ``map.hexes`` (``.`` open, ``#`` wall, ``~`` water,
``^`` raised ground), each fighter's letter on its hex (capitals: the first side; a rider hides
its mount), then a legend with every fighter's hex."""

from __future__ import annotations

from typing import Any

__all__ = ["text_map"]

TERRAIN_KEY = "map (q grows to the east, r to the south-east; . open # wall ~ water ^ raised):"


def _view(enc: Any, viewer: str | None) -> dict[str, Any]:
    view = enc.view(viewer) if viewer is not None else enc.snapshot()
    return view if isinstance(view, dict) else {}


def text_map(enc: Any, viewer: str | None) -> list[str]:
    """The map as ``viewer`` knows it (``None``: everything, as the GM sees it), as text lines
    (``[]`` when the view has no hex map)."""
    view = _view(enc, viewer)
    grid, combatants = view.get("map"), view.get("combatants")
    if not isinstance(grid, dict) or "hexes" not in grid or not isinstance(combatants, dict):
        return []
    cells: dict[tuple[int, int], str] = {(h[0], h[1]): "." for h in grid["hexes"]}
    for t in grid.get("terrain", []):
        at = (t["hex"][0], t["hex"][1])
        cells[at] = "#" if t.get("wall") else "~" if t.get("water") else "^" if t.get(
            "height_m") else "."
    placed = {cid: c for cid, c in combatants.items() if isinstance(c, dict) and "hex" in c}
    first_side = next((c.get("side") for c in placed.values()), None)
    mounts = view.get("mounts")
    riders: dict[str, str] = mounts if isinstance(mounts, dict) else {}
    used: set[str] = set()
    legend: list[str] = []
    for cid, c in placed.items():
        letter = next((ch for ch in cid if ch.isalpha() and ch.lower() not in used), "?")
        used.add(letter.lower())
        letter = letter.upper() if c.get("side") == first_side else letter.lower()
        at = (c["hex"][0], c["hex"][1])
        if cid not in riders.values() or cells.get(at, ".") in ".#~^":
            cells[at] = letter  # a rider hides its mount
        ride = f", riding {riders[cid]}" if cid in riders else ""
        legend.append(f"{letter} {cid} ({c.get('side')}) at {at[0]},{at[1]}{ride}")
    xs = {h: 2 * h[0] + h[1] for h in cells}
    x0 = min(xs.values())
    out = [TERRAIN_KEY]
    for r in sorted({h[1] for h in cells}):
        row = [" "] * (max(xs.values()) - x0 + 1)
        for h, ch in cells.items():
            if h[1] == r:
                row[xs[h] - x0] = ch
        out.append(f"  r={r:>3}  " + "".join(row).rstrip())
    return out + ["  " + "; ".join(legend)]
