"""The Sizebound map as a picture (``render_mode="rgb_array"``, ``arena replay --frames/--gif``).

``render(enc, caption="")`` returns an ``H x W x 3`` uint8 array of the square grid (size fixed
per map) drawn by ``envs.render`` (square geometry, shared scene); ``scene(enc)`` is what it
draws:

=======================  ====================================================================
ground                   floor, walls (grey, hatched), difficult cells (darker, three strokes)
creature                 a disc in its side's colour (A blue, B purple, then teal, brown) with a
                         two-letter label; an N x N creature (Large and up) is drawn over its
                         whole block, a fractional one (Stocky and down) as a smaller disc in
                         its cell, sharing it with the allies there
standing / Prone         filled disc / hollow ring
health (spec §8.10)      outer ring: green above half HP, amber above 0, red at 0 or below (the
                         HP Stun); struck through when dead
HP and Guard             bar under the disc: HP (green) then Guard (blue), of Max HP
marks                    badge: reactions left, then G grappled, J/S/T/P/U the action rung
                         (Jarred .. Unconscious), W/R/L/D the fatigue rung, A aiming
grapple (spec §5.2.9)    a brown line between the two; a dot at the grappler's end
whose decision           its footprint outlined in gold
items on the ground      a grey square in the cell's upper left
=======================  ====================================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.render import RGB, CellMark, Link, MapPainter, Scene, SquareGeometry, Token

__all__ = ["render", "scene", "labels", "SIDE_COLOURS", "HEALTH_COLOURS"]

SIDE_COLOURS: tuple[RGB, ...] = ((38, 104, 214), (152, 62, 186), (18, 146, 136), (168, 108, 30))
"""side colours in roster order of sides (A, B, ...)"""
HEALTH_COLOURS: dict[str, RGB] = {"healthy": (52, 168, 72), "hurt": (244, 166, 20),
                                  "hp_stun": (214, 38, 38), "dead": (112, 18, 18)}
HP = (60, 170, 80)
GUARD = (70, 130, 220)
GRAPPLE = (96, 52, 22)
ITEM = (128, 128, 128)
ACTION_MARKS = ("", "J", "S", "T", "P", "U")
FATIGUE_MARKS = ("", "W", "R", "L", "D")


def labels(enc: Any) -> dict[str, str]:
    """Two-letter labels, unique in the fight: ``war_dog`` -> ``Wa``; clashes are numbered."""
    first = {f.id: (f.id[:1].upper() + f.id[1:2].lower()) for f in enc.fighters}
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for f in enc.fighters:
        lab = first[f.id]
        if list(first.values()).count(lab) > 1:
            seen[lab] = seen.get(lab, 0) + 1
            lab = f"{lab[0]}{seen[lab]}"
        out[f.id] = lab
    return out


def _title(enc: Any, caption: str) -> str:
    head = f"{caption} | " if caption else ""
    out = enc.outcome()
    if out is not None:
        result = "a draw" if out.winner is None else f"side {out.winner} wins"
        return f"{head}Sizebound, round {out.round}: fight over, {result} " \
               f"({out.reason.replace('_', ' ')})"
    window = enc.window
    what = f" ({window.kind.replace('_', ' ')})" if window is not None else ""
    return f"{head}Sizebound, round {enc.round}: {enc.current_actor()} to decide{what}"


def _health(f: Any) -> str:
    if not f.alive:
        return "dead"
    if f.hp <= 0:
        return "hp_stun"
    return "healthy" if 2 * f.hp > f.profile.max_hp else "hurt"


def _marks(f: Any) -> str:
    if not f.alive:
        return ""
    letters = [str(f.reactions)]
    if f.grappled_by:
        letters.append("G")
    letters.append(ACTION_MARKS[min(f.action_rung, 5)])
    letters.append(FATIGUE_MARKS[min(f.fatigue, 4)])
    if f.aim_active:
        letters.append("A")
    return "".join(letters)


def scene(enc: Any, caption: str = "") -> Scene:
    """What ``render`` draws (see the module docstring)."""
    sides = [s.side for s in enc.sides()]
    colour = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sides)}
    short = labels(enc)
    actor = enc.current_actor()
    tokens = []
    for f in enc.fighters:
        if f.fled:
            continue  # off the map (spec §8.11)
        p = f.profile
        whole = max(1, p.max_hp)
        fractional = p.footprint < 1
        tokens.append(Token(
            key=f.id, cell=f.pos, label=short[f.id], fill=colour[f.side], hollow=f.prone,
            ring=HEALTH_COLOURS[_health(f)], cross=not f.alive,
            bar=((max(0, f.hp) / whole, HP), (f.guard / whole, GUARD)),
            marks=_marks(f),
            scale=0.55 + 0.5 * p.footprint if fractional else (1.25 if f.n > 1 else 1.0),
            highlight=f.id == actor, span=f.n))
    links = [Link(f.id, t, color=GRAPPLE, marked=f.id)
             for f in enc.fighters for t in sorted(f.grips)]
    marks = [CellMark((int(x), int(y)), ITEM) for _, x, y in enc.items]
    legend: list[list[tuple[RGB | str | None, str]]] = [
        [(colour[s], f"{s}: " + ", ".join(f"{short[f.id]} {f.id}" for f in enc.fighters
                                          if f.side == s)) for s in sides],
        [(HEALTH_COLOURS["healthy"], "above half HP"), (HEALTH_COLOURS["hurt"], "hurt"),
         (HEALTH_COLOURS["hp_stun"], "0 HP or less (ring)"), ("hollow", "Prone"),
         (GRAPPLE, "grapple, dot = grappler"), (ITEM, "item on the ground")],
        [(HP, "HP"), (GUARD, "Guard (bar, of Max HP)"),
         (None, "badge: reactions, G grappled, J S T P U action rung, W R L D fatigue, "
                "A aiming")],
    ]
    return Scene(tokens=tokens, links=links, marks=marks, title=_title(enc, caption),
                 legend=legend)


def render(enc: Any, caption: str = "") -> np.ndarray:
    """The map with every creature as an ``(H, W, 3)`` uint8 array; ``caption`` starts the
    title."""
    return MapPainter.for_geometry(SquareGeometry(enc.grid)).draw(scene(enc, caption))
