"""The Metaforce map as a picture (``render_mode="rgb_array"``, ``arena replay --frames/--gif``).

``render(enc, caption="")`` returns an ``H x W x 3`` uint8 array of the square grid drawn by
``envs.render`` (square geometry, shared scene); ``scene(enc)`` is what it draws:

=======================  ====================================================================
ground                   floor, walls (grey, hatched), difficult cells (darker, three strokes)
creature                 a disc in its side's colour (a blue, b purple, then teal, brown) with a
                         two-letter label; a creature of N x N squares (the Stone Golem 2 x 2,
                         the Hill Giant 4 x 4) is drawn over its whole block, one below Size 1
                         (Tiny and smaller) as a smaller disc inside its cell
health (spec §8.6)       outer ring: green above half HP, amber above 0, red at 0 or below
                         (incapacitated or unconscious), dark red when dead; struck through
                         when out of the fight (dead, incapacitated, unconscious)
retreated                not drawn (it left the battlefield, spec §5.2 #17)
HP and MP                bar under the disc: HP (green) then MP (blue), of Max HP and Max MP
marks                    badge: Reactions left, then S stunned, G grappled, B burning, L
                         bleeding, K knocked back, V Vigilance, * a Special Attack set up
grapple (spec §5.9)      a brown line between the two; a dot at the grappler's end
whose decision           its footprint outlined in gold
=======================  ====================================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.render import RGB, Link, MapPainter, Scene, SquareGeometry, Token

__all__ = ["render", "scene", "labels", "SIDE_COLOURS", "HEALTH_COLOURS"]

SIDE_COLOURS: tuple[RGB, ...] = ((38, 104, 214), (152, 62, 186), (18, 146, 136), (168, 108, 30))
"""side colours in roster order of sides (a, b, ...)"""
HEALTH_COLOURS: dict[str, RGB] = {"healthy": (52, 168, 72), "hurt": (244, 166, 20),
                                  "down": (214, 38, 38), "dead": (112, 18, 18)}
HP = (60, 170, 80)
MP = (70, 130, 220)
GRAPPLE = (96, 52, 22)
STATUS_MARKS = (("grappled", "G"), ("burn", "B"), ("bleed", "L"), ("knockback", "K"))


def labels(enc: Any) -> dict[str, str]:
    """Two-letter labels, unique in the fight: ``hill_giant`` -> ``Hi``; clashes are numbered
    (``bandit``, ``bandit_2`` -> ``B1``, ``B2``)."""
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


def _title(enc: Any, caption: str) -> str:
    head = f"{caption} | " if caption else ""
    out = enc.outcome()
    if out is not None:
        result = "a draw" if out.winner is None else f"side {out.winner} wins"
        return (f"{head}Metaforce, round {out.round}: fight over, {result} "
                f"({out.reason.replace('_', ' ')})")
    decision = enc.decision
    what = "" if decision == "frame" else f" ({decision.replace('_', ' ')})"
    return f"{head}Metaforce, round {enc.round}: {enc.current_actor()} to decide{what}"


def _health(c: Any) -> str:
    if not c.alive:
        return "dead"
    if not c.active or c.hp <= 0:
        return "down"
    return "healthy" if 2 * c.hp > c.profile.hp_max else "hurt"


def _marks(c: Any) -> str:
    if not c.alive:
        return ""
    letters = [str(c.reactions)]
    if c.stunned:
        letters.append("S")
    letters += [m for s, m in STATUS_MARKS if s in c.statuses]
    if c.vigilance:
        letters.append("V")
    if c.special_until >= 0:
        letters.append("*")
    return "".join(letters)


def scene(enc: Any, caption: str = "") -> Scene:
    """What ``render`` draws (see the module docstring)."""
    sides = [s.side for s in enc.sides()]
    colour = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sides)}
    short = labels(enc)
    actor = enc.current_actor()
    tokens = []
    for c in enc.combatants:
        if not c.present:
            continue
        p = c.profile
        small = p.size < 1
        tokens.append(Token(
            key=c.id, cell=c.pos, label=short[c.id], fill=colour[c.side],
            ring=HEALTH_COLOURS[_health(c)], cross=not c.active,
            bar=((max(0, c.hp) / max(1, p.hp_max), HP),
                 *(((c.mp / max(1, p.mp_max), MP),) if p.mp_max else ())),
            marks=_marks(c),
            scale=0.55 + 0.45 * p.size if small else (1.25 if c.n > 1 else 1.0),
            highlight=c.id == actor, span=c.n))
    links = [Link(c.id, g, color=GRAPPLE, marked=c.id) for c in enc.combatants if c.present
             for g in c.grips() if enc.by_id[g].present]
    legend: list[list[tuple[RGB | str | None, str]]] = [
        [(colour[s], f"{s}: " + ", ".join(f"{short[c.id]} {c.id}" for c in enc.combatants
                                          if c.side == s)) for s in sides],
        [(HEALTH_COLOURS["healthy"], "above half HP"), (HEALTH_COLOURS["hurt"], "hurt"),
         (HEALTH_COLOURS["down"], "down (ring)"), (HEALTH_COLOURS["dead"], "dead"),
         (GRAPPLE, "grapple, dot = grappler")],
        [(HP, "HP"), (MP, "MP (bar)"),
         (None, "badge: Reactions, S stunned, G grappled, B burn, L bleed, K knockback, "
                "V Vigilance, * Special set up")],
    ]
    return Scene(tokens=tokens, links=links, title=_title(enc, caption), legend=legend)


def render(enc: Any, caption: str = "") -> np.ndarray:
    """The map with every creature as an ``(H, W, 3)`` uint8 array; ``caption`` starts the
    title."""
    return MapPainter.for_geometry(SquareGeometry(enc.grid)).draw(scene(enc, caption))
