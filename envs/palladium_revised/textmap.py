"""Palladium Revised's battle line as text (the registry's ``text_map`` part): what ``arena play``
shows before each of a person's decisions and ``arena situation check`` prints.

A ruler in feet, the line with each fighter's letter at its x (capitals: the first side; ``*``
where several stand), a row per fighter with its Zone layers around it (inside its Zone of
Control ``#`` Grappling, ``=`` Close, ``-`` Medium, ``~`` Reach; ``.`` its layers beyond), then
the round's Melee Grid (a column per Second: ``o`` a free slot, ``R`` reserved by a commitment,
``x`` spent, ``d`` consumed by a dodge, ``_`` lost, ``.`` no slot; ``^`` marks the current
Second) and a legend line per fighter."""

from __future__ import annotations

from typing import Any

from .rules.profile import band
from .rules.slots import AVAILABLE, CONSUMED, LOST, RESERVED, USED

__all__ = ["text_map", "letters", "ZONE_CHARS", "SLOT_CHARS"]

ZONE_CHARS = "#=-~"
SLOT_CHARS = {AVAILABLE: "o", RESERVED: "R", USED: "x", CONSUMED: "d", LOST: "_"}
_WIDTH = 100
"""the most columns of the line itself"""


def letters(enc: Any) -> dict[str, str]:
    """One character per combatant: the first letter of its id not taken yet (then a digit of
    it), upper case for the first side, lower case for the others."""
    first = enc.sides()[0].side if enc.sides() else None
    used: set[str] = set()
    out: dict[str, str] = {}
    for c in enc.combatants:
        pick = next((ch for ch in c.id if ch.isalpha() and ch.lower() not in used), None)
        if pick is None:
            pick = next((ch for ch in c.id if ch.isdigit() and ch not in used), "?")
        used.add(pick.lower())
        out[c.id] = pick.upper() if c.side == first else pick.lower()
    return out


def _row(n: int) -> list[str]:
    return [" "] * n


def text_map(enc: Any, viewer: str | None) -> list[str]:
    """The battle line as ``viewer`` knows it (``None``: as the GM sees it; Palladium Revised
    hides nothing), as text lines."""
    length = enc.options.arena_length
    per = max(1, -(-length // _WIDTH))  # feet per character
    cols = length // per + 1
    mark = letters(enc)
    out = [f"battle line (1 character = {per} ft; capitals: side {enc.sides()[0].side}; "
           "Zone of Control: # Grappling = Close - Medium ~ Reach, . layers beyond it):"]
    ruler = _row(cols)
    ticks = _row(cols)
    step = 10 * per
    for ft in range(0, length + 1, step):
        col = ft // per
        label = str(ft)
        if col + len(label) <= cols + 4:
            ruler[col:col + len(label)] = list(label)
        ticks[col] = "|"
    out.append("  ft    " + "".join(ruler).rstrip())
    out.append("        " + "".join(c if c != " " else "." for c in ticks))
    line = ["."] * cols
    for c in enc.combatants:
        if not c.alive:
            continue
        col = min(cols - 1, c.x // per)
        line[col] = mark[c.id] if line[col] == "." else "*"
    out.append("  line  " + "".join(line))
    for c in enc.combatants:
        row = _row(cols)
        if c.active:
            for col in range(cols):
                b = band(c.profile.radii, abs(col * per - c.x))
                if b <= 4:
                    row[col] = ZONE_CHARS[b - 1] if b <= c.profile.zoc_band else "."
        row[min(cols - 1, c.x // per)] = mark[c.id]
        out.append(f"  {mark[c.id]:<4}  " + "".join(row).rstrip())
    out.append(f"  Melee Grid, round {enc.round}:  " + "".join(str(s % 10) for s in range(1, 16)))
    pad = len(f"  Melee Grid, round {enc.round}:  ")
    if 1 <= enc.second <= 15:
        out.append(" " * (pad + enc.second - 1) + f"^ Second {enc.second}")
    for c in enc.combatants:
        cells = ["."] * 15
        for (s, _k), st in zip(c.slot_at, c.slot_state, strict=True):
            if cells[s - 1] in (".", "x", "_", "d") or st == AVAILABLE:
                cells[s - 1] = SLOT_CHARS.get(st, "?")
        out.append(f"  {mark[c.id]} {c.id}".ljust(pad) + "".join(cells))
    for c in enc.combatants:
        conds = [k for k, v in (("coma", c.state == "coma"), ("dead", c.state == "dead"),
                                ("defending", c.defending), ("resting", c.resting),
                                ("multi-dodge", c.multidodge is not None),
                                ("committed", c.commitment is not None),
                                ("exhausted", c.exhausted)) if v]
        if c.wounds:
            conds.append(f"{c.wounds} wounds")
        out.append(f"  {mark[c.id]} {c.id} ({c.side}) at {c.x} ft, S.D.C. {c.sdc}/{c.sdc_max}, "
                   f"H.P. {c.hp}/{c.hp_max}, Zone of Control {c.profile.zoc_radius} ft"
                   + (f", {', '.join(conds)}" if conds else ""))
    return out
