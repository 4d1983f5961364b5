"""The Mano a Mano map as a picture (``render_mode="rgb_array"``, ``arena replay --frames/--gif``,
``arena render``).

``render(enc, caption="")`` returns an ``H x W x 3`` uint8 array of the hex map (size fixed per
map) drawn by ``envs.render`` (hex geometry, shared scene); ``scene(enc)`` is what it draws:

=======================  ====================================================================
fighter                  a disc in its side's colour (A blue, B purple, then teal, brown)
                         with a two-letter label; the legend names every label
standing / on the ground filled disc / hollow ring
health (spec §8.3)       outer ring: green healthy, amber injured, red incapacitated,
                         dark red incapacitated by damage; struck through when out
stun and damage          bar under the disc: damage (dark red) then stun (yellow) out of
                         stamina; the tick is toughness (healthy up to there)
grapple (spec §5.7.1)    a brown line between the two; a dot at the dominant one's end
marks                    badge letters: C counter ready, A aiming, D defending (+defense),
                         V covering an ally
whose decision           its hex outlined in gold
items on the floor       a grey square in the hex's upper left
=======================  ====================================================================

Several fighters in one hex (a rider on its mount): the heaviest (by ``mass_kg``) is drawn in the
middle, the others smaller near the top of the hex. The title line reads the round, who decides,
or the result.
"""

from __future__ import annotations

import numpy as np

from envs.render import RGB, CellMark, HexPainter, Link, Scene, Token

from .rules.state import ManoEncounter

__all__ = ["render", "scene", "labels", "SIDE_COLOURS", "HEALTH_COLOURS"]

SIDE_COLOURS = ((38, 104, 214), (152, 62, 186), (18, 146, 136), (168, 108, 30))
"""side colours in roster order of sides (A, B, ...)"""
HEALTH_COLOURS = {
    "healthy": (52, 168, 72),
    "injured": (244, 166, 20),
    "incapacitated": (214, 38, 38),
    "incapacitated_by_damage": (112, 18, 18),
}
DAMAGE = (150, 24, 24)
STUN = (250, 206, 60)
GRAPPLE = (96, 52, 22)
FLOOR = (128, 128, 128)
LARGE_KG = 400
"""fighters this heavy (a horse, an elephant) get a larger disc"""


def labels(enc: ManoEncounter) -> dict[str, str]:
    """Two-letter labels, unique in the fight: ``steven`` -> ``St``; clashes are numbered."""
    first = {f.id: (f.id[:1].upper() + f.id[1:2].lower()) for f in enc.fighters}
    count: dict[str, int] = {}
    for lab in first.values():
        count[lab] = count.get(lab, 0) + 1
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for f in enc.fighters:
        lab = first[f.id]
        if count[lab] > 1:
            seen[lab] = seen.get(lab, 0) + 1
            lab = f"{lab[0]}{seen[lab]}"
        out[f.id] = lab
    return out


def _title(enc: ManoEncounter, caption: str) -> str:
    head = f"{caption} | " if caption else ""
    out = enc.outcome()
    if out is not None:
        result = "a draw" if out.winner is None else f"side {out.winner} wins"
        why = out.reason.replace("_", " ")
        return f"{head}Mano a Mano, round {out.round}: fight over, {result} ({why})"
    actor = enc.current_actor()
    return f"{head}Mano a Mano, round {enc.round}: {actor} to decide"


def scene(enc: ManoEncounter, caption: str = "") -> Scene:
    """What ``render`` draws (see the module docstring)."""
    sides = [s.side for s in enc.sides()]
    colour = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sides)}
    short = labels(enc)
    actor = enc.current_actor()
    by_hex: dict[tuple[int, int], list[float]] = {}
    for f in enc.fighters:
        by_hex.setdefault(f.hex, []).append(f.block.mass_kg)
    tokens = []
    for f in enc.fighters:
        stamina = max(1, f.block.stamina)
        masses = by_hex[f.hex]
        carrier = (
            len(masses) > 1 and f.block.mass_kg == max(masses) and masses.count(max(masses)) == 1
        )
        scale = 1.25 if f.block.mass_kg >= LARGE_KG else 1.0
        badges = "".join(
            m
            for m, on in (
                ("C", f.counter_ready),
                ("A", f.aiming is not None),
                ("D", f.defense_bonus > 0),
                ("V", f.covering is not None),
            )
            if on
        )
        tokens.append(
            Token(
                key=f.id,
                cell=f.hex,
                label=short[f.id],
                fill=colour[f.side],
                hollow=not f.standing,
                ring=HEALTH_COLOURS.get(f.health, HEALTH_COLOURS["incapacitated"]),
                cross=f.incapacitated,
                bar=((f.damage / stamina, DAMAGE), (f.stun / stamina, STUN)),
                bar_tick=min(1.0, f.block.toughness / stamina),
                marks=badges,
                scale=max(scale, 1.2) if carrier else scale,
                highlight=f.id == actor,
            )
        )
    links = [
        Link(min(pair), max(pair), color=GRAPPLE, marked=g.get("dominant"))
        for pair, g in sorted(enc.grapples.items(), key=lambda kv: sorted(kv[0]))
    ]
    marks = [CellMark(h, FLOOR) for h, items in sorted(enc.floor.items()) if items and h in enc.map]
    legend: list[list[tuple[RGB | str | None, str]]] = [
        [
            (
                colour[s],
                f"{s}: " + ", ".join(f"{short[f.id]} {f.id}" for f in enc.fighters if f.side == s),
            )
            for s in sides
        ],
        [
            (HEALTH_COLOURS["healthy"], "healthy"),
            (HEALTH_COLOURS["injured"], "injured"),
            (HEALTH_COLOURS["incapacitated"], "incapacitated (ring)"),
            ("hollow", "on the ground"),
            (GRAPPLE, "grapple, dot = dominant"),
            (FLOOR, "items on the floor"),
        ],
        [
            (DAMAGE, "damage"),
            (STUN, "stun (bar, of stamina; tick = toughness)"),
            (None, "C counter ready  A aiming  D defending  V covering  gold hex: deciding"),
        ],
    ]
    return Scene(tokens=tokens, links=links, marks=marks, title=_title(enc, caption), legend=legend)


def render(enc: ManoEncounter, caption: str = "") -> np.ndarray:
    """The map with every fighter as an ``(H, W, 3)`` uint8 array; ``caption`` starts the title."""
    return HexPainter.for_map(enc.map).draw(scene(enc, caption))
