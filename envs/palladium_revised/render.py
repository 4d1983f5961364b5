"""The Palladium Revised fight as a picture (``render_mode="rgb_array"``, ``arena replay
--frames/--gif``, ``arena render``).

``render(enc, caption="")`` returns an ``H x W x 3`` uint8 array (size fixed per roster and
battle-line length) in three panels:

=======================  ====================================================================
battle line (top)        the line 0..L in feet (``envs.render`` line geometry, shared scene):
                         each fighter a disc in its side's colour (A blue, B purple, then
                         teal, brown) at its x with a two-letter label; outer ring: green
                         unhurt, amber hurt, red on H.P. alone, dark red in a coma or dead,
                         struck through out of the fight; bar under it: S.D.C. (steel) then
                         H.P. (red) of their sum; badge letters: D defending, R resting,
                         M a Multi-Dodge window, C a commitment, W Wounds, X a critical-table
                         condition; a brown line joins enemies engaged (one inside the other's
                         Zone of Control); the one deciding outlined in gold
Zone bands (middle)      a row per fighter: its four Zone layers around its x as bands of its
                         side's colour, darker inward (Grappling, Close, Medium, Reach), its
                         Zone of Control edge as a dark tick each side
Melee Grid (bottom)      the round's 15 Seconds x combatants (spec §4.2): each slot free
                         (green), reserved by a commitment (orange), spent in a turn (grey),
                         consumed by a dodge (dark grey) or lost (pale red), the number of
                         slots when a Second holds two; the current Second's column in gold,
                         the slot being played outlined
=======================  ====================================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from envs.render import RGB, LineGeometry, Link, MapPainter, Scene, Token, font
from envs.render.style import BACKGROUND, GRID, HIGHLIGHT, INK, mix

from .rules import zone_bands
from .rules.slots import AVAILABLE, CONSUMED, LOST, RESERVED, USED

__all__ = ["render", "scene", "labels", "geometry", "painter", "SIDE_COLOURS",
           "HEALTH_COLOURS", "SLOT_COLOURS", "BAND_ROW", "GRID_ROW", "band_top", "grid_top",
           "grid_cell"]

SIDE_COLOURS: tuple[RGB, ...] = ((38, 104, 214), (152, 62, 186), (18, 146, 136), (168, 108, 30))
"""side colours in roster order of sides (A, B, ...)"""
HEALTH_COLOURS: dict[str, RGB] = {"unhurt": (52, 168, 72), "hurt": (244, 166, 20),
                                  "hp": (214, 38, 38), "down": (112, 18, 18)}
SLOT_COLOURS: dict[str, RGB] = {AVAILABLE: (120, 196, 120), RESERVED: (240, 150, 40),
                                USED: (176, 176, 176), CONSUMED: (96, 96, 96),
                                LOST: (236, 176, 176)}
SDC: RGB = (110, 130, 160)
HP: RGB = (200, 40, 40)
ENGAGED: RGB = (96, 52, 22)
PALE_LINE: RGB = (250, 250, 250)
SIZE = 24
"""the line geometry's pixel scale: 4.8 pixels a foot with a box every 10 ft"""
BAND_ROW = 18
GRID_ROW = 20
LABEL_W = 150
_GAP = 8


def labels(enc: Any) -> dict[str, str]:
    """Two-letter labels, unique in the fight: ``sellsword_1`` -> ``Se``; clashes are numbered
    (``gob_1`` .. ``gob_4`` -> ``G1`` .. ``G4``)."""
    first = {c.id: (c.id[:1].upper() + c.id[1:2].lower()) for c in enc.combatants}
    counts: dict[str, int] = {}
    for lab in first.values():
        counts[lab] = counts.get(lab, 0) + 1
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for c in enc.combatants:
        lab = first[c.id]
        if counts[lab] > 1:
            seen[lab] = seen.get(lab, 0) + 1
            lab = f"{lab[0]}{seen[lab]}"
        out[c.id] = lab
    return out


def geometry(enc: Any) -> LineGeometry:
    return LineGeometry(enc.options.arena_length, tick=10, unit_name="ft", size=SIZE)


def painter(enc: Any) -> MapPainter:
    """The battle line's painter (cached per line length)."""
    return MapPainter.for_geometry(geometry(enc), legend_lines=3, min_width=720)


def band_top(enc: Any) -> int:
    """The first pixel row of the Zone bands panel (its first fighter's row)."""
    return painter(enc).height + _GAP + 16


def grid_top(enc: Any) -> int:
    """The first pixel row of the Melee Grid panel (its header row)."""
    return band_top(enc) + BAND_ROW * len(enc.combatants) + _GAP + 18


def grid_cell(enc: Any, row: int, second: int) -> tuple[int, int, int, int]:
    """``(left, top, right, bottom)`` of combatant ``row``'s cell in Second ``second``."""
    w = painter(enc).width
    cw = (w - LABEL_W - 2 * _GAP) / 15
    left = LABEL_W + _GAP + (second - 1) * cw
    top = grid_top(enc) + GRID_ROW * (row + 1)
    return (round(left), top, round(left + cw) - 1, top + GRID_ROW - 1)


def _health(c: Any) -> str:
    if not c.active:
        return "down"
    if c.sdc <= 0:
        return "hp"
    return "unhurt" if c.sdc >= c.sdc_max and c.hp >= c.hp_max else "hurt"


def _marks(c: Any) -> str:
    if not c.alive:
        return ""
    crit = c.concussion or c.dazed or c.internal_bleeding or any(c.crippled.values())
    return "".join(m for m, on in (("D", c.defending), ("R", c.resting),
                                   ("M", c.multidodge is not None),
                                   ("C", c.commitment is not None), ("W", c.wounds > 0),
                                   ("X", crit)) if on)


def _title(enc: Any, caption: str) -> str:
    head = f"{caption} | " if caption else ""
    out = enc.outcome()
    if out is not None:
        result = "a draw" if out.winner is None else f"side {out.winner} wins"
        return (f"{head}Palladium Revised, round {out.round}: fight over, {result} "
                f"({out.reason.replace('_', ' ')})")
    what = "" if enc.decision == "turn" else f" ({enc.decision})"
    return (f"{head}Palladium Revised, round {enc.round}, Second {enc.second}: "
            f"{enc.current_actor()} to decide{what}")


def scene(enc: Any, caption: str = "") -> Scene:
    """The battle line panel's scene (see the module docstring)."""
    sides = [s.side for s in enc.sides()]
    colour = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sides)}
    short = labels(enc)
    actor = enc.current_actor()
    tokens = []
    for c in enc.combatants:
        whole = max(1, c.sdc_max + c.hp_max)
        tokens.append(Token(
            key=c.id, cell=(c.x, 0), label=short[c.id], fill=colour[c.side],
            ring=HEALTH_COLOURS[_health(c)], cross=not c.active,
            bar=((max(0, c.sdc) / whole, SDC), (max(0, c.hp) / whole, HP)),
            marks=_marks(c), scale=1.25 if c.profile.height_ft >= 9 else 1.0,
            highlight=c.id == actor))
    links = []
    cs = enc.combatants
    for i, a in enumerate(cs):
        for b in cs[i + 1:]:
            if a.side != b.side and a.active and b.active:
                z = zone_bands(enc, a.id, b.id)
                if z["b_in_a_zone"] or z["a_in_b_zone"]:
                    links.append(Link(a.id, b.id, color=ENGAGED, width=3))
    legend: list[list[tuple[RGB | str | None, str]]] = [
        [(colour[s], f"{s}: " + ", ".join(f"{short[c.id]} {c.id}" for c in enc.combatants
                                          if c.side == s)) for s in sides],
        [(HEALTH_COLOURS["unhurt"], "unhurt"), (HEALTH_COLOURS["hurt"], "hurt"),
         (HEALTH_COLOURS["hp"], "on H.P."), (HEALTH_COLOURS["down"], "coma/dead"),
         (SDC, "S.D.C."), (HP, "H.P. (bar)"), (ENGAGED, "engaged")],
        [(None, "badge: D defending, R resting, M multi-dodge, C committed, W wounds, "
                "X crit condition; gold: deciding")],
    ]
    return Scene(tokens=tokens, links=links, title=_title(enc, caption), legend=legend)


def _bands(d: ImageDraw.ImageDraw, enc: Any, pt: MapPainter, top: int,
           colour: dict[str, RGB], short: dict[str, str]) -> None:
    f = font(12)
    d.text((_GAP, top - 16), "Zone of Control bands (Grappling, Close, Medium, Reach):",
           font=f, fill=INK)
    unit = pt.geometry.unit if isinstance(pt.geometry, LineGeometry) else 1.0
    for row, c in enumerate(enc.combatants):
        y0 = top + row * BAND_ROW
        y1 = y0 + BAND_ROW - 4
        cx = pt.centre((c.x, 0))[0]
        base = colour[c.side]
        for k in range(3, -1, -1):  # Reach first, Grappling on top
            r = c.profile.radii[k] * unit
            fill = mix(base, BACKGROUND, 0.25 + 0.18 * k) if c.alive else mix(GRID, BACKGROUND,
                                                                             0.3)
            d.rectangle([cx - r, y0, cx + r, y1], fill=fill)
        zr = c.profile.zoc_radius * unit
        for x in (cx - zr, cx + zr):
            d.line([(x, y0 - 1), (x, y1 + 1)], fill=INK, width=2)
        d.line([(cx, y0), (cx, y1)], fill=PALE_LINE, width=1)
        d.text((_GAP, y0 + 1), f"{short[c.id]} {c.id}", font=f, fill=INK)


def _grid(d: ImageDraw.ImageDraw, enc: Any, w: int, short: dict[str, str]) -> None:
    f = font(12)
    top = grid_top(enc)
    head = f"Melee Grid, round {enc.round} (Second {enc.second}):"
    d.text((_GAP, top - 18), head, font=f, fill=INK)
    x = _GAP + d.textlength(head, font=f) + 10
    for st, words in ((AVAILABLE, "free"), (RESERVED, "reserved"), (USED, "spent"),
                      (CONSUMED, "consumed by a dodge"), (LOST, "lost")):
        d.rectangle([x, top - 16, x + 11, top - 5], fill=SLOT_COLOURS[st], outline=INK)
        d.text((x + 15, top - 18), words, font=f, fill=INK)
        x += 15 + d.textlength(words, font=f) + 12
    sec = enc.second
    for s in range(1, 16):
        left, _, right, _ = grid_cell(enc, 0, s)
        fill = HIGHLIGHT if s == sec else mix(GRID, BACKGROUND, 0.6)
        d.rectangle([left, top, right, top + GRID_ROW - 2], fill=fill, outline=GRID)
        label = str(s)
        tw = d.textlength(label, font=f)
        d.text(((left + right - tw) / 2, top + 3), label, font=f, fill=INK)
    for row, c in enumerate(enc.combatants):
        _, y0, _, _ = grid_cell(enc, row, 1)
        d.text((_GAP, y0 + 3), f"{short[c.id]} {c.id}"[:22], font=f, fill=INK)
        per: dict[int, list[tuple[int, str]]] = {}
        for i, ((s, _k), st) in enumerate(zip(c.slot_at, c.slot_state, strict=True)):
            per.setdefault(s, []).append((i, st))
        for s in range(1, 16):
            left, y, right, bottom = grid_cell(enc, row, s)
            slots = per.get(s, [])
            outline = HIGHLIGHT if s == sec else GRID
            if not slots:
                d.rectangle([left, y, right, bottom], fill=BACKGROUND, outline=outline)
                continue
            fill = SLOT_COLOURS.get(slots[0][1], GRID)
            d.rectangle([left, y, right, bottom], fill=fill, outline=outline,
                        width=2 if s == sec else 1)
            if len(slots) > 1:
                d.text((left + 3, y + 3), str(len(slots)), font=f, fill=INK)
            if enc.turn == c.id and any(i == enc.turn_slot for i, _ in slots):
                d.rectangle([left + 2, y + 2, right - 2, bottom - 2], outline=INK, width=2)


def render(enc: Any, caption: str = "") -> np.ndarray:
    """The three panels as an ``(H, W, 3)`` uint8 array; ``caption`` starts the title."""
    pt = painter(enc)
    line = pt.image(scene(enc, caption))
    n = len(enc.combatants)
    height = grid_top(enc) + GRID_ROW * (n + 1) + _GAP
    img = Image.new("RGB", (pt.width, height), BACKGROUND)
    img.paste(line, (0, 0))
    d = ImageDraw.Draw(img)
    sides = [s.side for s in enc.sides()]
    colour = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sides)}
    short = labels(enc)
    _bands(d, enc, pt, band_top(enc), colour, short)
    _grid(d, enc, pt.width, short)
    return np.array(img, dtype=np.uint8)
