"""Where the Palladium Revised heuristic stands and moves (agents/heuristic/palladium_revised.py):
the value of a spot on the battle line, and the expected gain of a Step or Full Move, with the
entry contest at a Zone layer and the opportunity Strikes of the layers it leaves (spec §5.3,
R23). Each function takes the decision ``d`` (``palladium_revised._Decision``: the view, the
foes, the weapon tables and its per-decision caches), as ``palladium_revised_windows`` does.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from envs.core import Action

__all__ = ["p_layers", "band", "bands_of", "bands", "foe_rows", "pos", "foe_zones", "stop",
           "foe_blow", "move_gain", "HURT_W", "APPROACH", "DANGER_W"]

HURT_W = 0.6  # focus: value multiplier per share of a foe's health already lost
DANGER_W = 0.45  # weight of the foes' blows in a position's value
APPROACH = 2.0  # value of one Full Move of progress toward a foe out of reach


@cache
def p_layers(diff: int) -> tuple[float, ...]:
    """P(an entry contest grants 0, 1, 2, 3, 4+ layers): d20 + diff against d20, ties and
    losses 0, else ``ceil(margin / 5)`` (spec §5.3, R23)."""
    out = [0.0] * 5
    for a in range(1, 21):
        for b in range(1, 21):
            m = a + diff - b
            out[min(4, -(-m // 5)) if m > 0 else 0] += 1 / 400
    return tuple(out)


def band(radii: list[int], d: int) -> int:
    """The band (1 = the closest) of distance ``d`` for Zone radii ``radii``; beyond: 5."""
    for i, r in enumerate(radii):
        if d <= r:
            return i + 1
    return 5


_TABLES: dict[tuple[int, ...], tuple[int, ...]] = {}


def bands_of(radii: list[int]) -> tuple[int, ...]:
    """``band(radii, d)`` for ``d`` in ``0..radii[-1]`` (beyond: 5), once per radii."""
    key = tuple(radii)
    found = _TABLES.get(key)
    if found is None:
        if len(_TABLES) > 4096:
            _TABLES.clear()
        found = _TABLES[key] = tuple(band(radii, d) for d in range(max(radii[-1], -1) + 1))
    return found


def bands(dec: Any, cid: str) -> tuple[int, ...]:
    """``cid``'s band of each distance up to its Reach radius (``bands_of``)."""
    found = dec._tab.get(cid)
    if found is None:
        found = dec._tab[cid] = bands_of(dec.c[cid]["radii"])
    return found


def foe_rows(dec: Any) -> list[tuple[str, int, float, int]]:
    """Per foe, in order: (id, x, ``1 + HURT_W x`` the share of its health lost, its
    Actions), what ``pos`` reads of it."""
    rows = dec._foe_rows
    if rows is None:
        rows = []
        for f in dec.foes:
            r = dec.c[f]
            hurt = 1 - dec.life(f) / max(1, r["sdc_max"] + r["hp_max"])
            rows.append((f, r["x"], 1 + HURT_W * hurt, r["actions"]))
        dec._foe_rows = rows
    return rows


def pos(dec: Any, x: int) -> float:
    """How good it is to stand at ``x``: the best blow from there less the foes' blows."""
    out = dec._pos.get(x)
    if out is not None:
        return out
    me, mine, danger, gap = dec.me, 0.0, 0.0, 10 ** 6
    reach = dec._reach
    if reach < 0:
        reach = dec._reach = max([me["radii"][w.reach - 1] for w in dec.arms(dec.id)
                                   if not w.ranged] + [me["radii"][1]])
    acts = me["actions"]
    best_geo = dec.best_geo
    for f, fx, hf, f_acts in foe_rows(dec, ):
        d = abs(x - fx)
        v = best_geo(dec.id, d) * hf
        if v > mine:  # ``max(mine, v)``
            mine = v
        danger += best_geo(f, d) * f_acts / acts
        g = d - reach
        if g < 0:
            g = 0
        if g < gap:
            gap = g
    if mine <= 0 and dec.foes:
        mine = -APPROACH * gap / max(1, me["full_move_ft"])
    out = dec._pos[x] = mine - DANGER_W * danger
    return out


def foe_zones(dec: Any) -> list[tuple[str, int, int, tuple[int, ...]]]:
    """Per foe, in order: (id, x, Zone band, band table), what ``move_gain`` reads."""
    zones = dec._zones
    if zones is None:
        zones = dec._zones = [(f, dec.c[f]["x"], dec.c[f]["zoc_band"], bands(dec, f))
                               for f in dec.foes]
    return zones


def stop(dec: Any, dest: int) -> tuple[int, int]:
    """(where a move toward ``dest`` stops: no passing an enemy's coordinate, the Zone
    layers of foes that could strike it leaves), once per ``dest`` and decision."""
    found = dec._stops.get(dest)
    if found is not None:
        return found
    x = dec.me["x"]
    sign = 1 if dest > x else -1
    left = 0
    zones = foe_zones(dec, )
    to = dest
    for _, fx, _, _ in zones:
        if fx != x and (fx - x) * sign > 0 and (to - fx) * sign > 0:
            to = fx  # no passing an enemy's coordinate
    for f, fx, zb, tab in zones:
        d0, d1 = abs(x - fx), abs(to - fx)
        b0 = tab[d0] if d0 < len(tab) else 5
        b1 = tab[d1] if d1 < len(tab) else 5
        if b0 <= zb and b1 > b0 and dec.best_geo(f, d0) > 0:
            left += min(b1, zb + 1) - b0
    found = dec._stops[dest] = (to, left)
    return found


def foe_blow(dec: Any) -> float:
    """The best blow of any foe at 1 ft (an opportunity Strike's worth)."""
    if dec._foe_blow is None:
        dec._foe_blow = max((dec.best_geo(f, 1) for f in dec.foes), default=0.0)
    return dec._foe_blow


def move_gain(dec: Any, a: Action, allowance: int) -> float:
    """Expected position gain of a move (spec §5.3): its destination, no passing, the
    entry contest that may stop it at a Zone layer of the target, the opportunity Strikes
    of the layers it leaves."""
    me, t = dec.me, dec.c[a.target or ""]
    x, tx, mode = me["x"], t["x"], a.args[0]
    side = (-1 if x < tx else 1) if x != tx else (-1 if x <= tx else 1)
    want = (me["zoc_radius"] if mode == "engage" else me["radii"][1] if mode == "close"
            else t["zoc_radius"] + 1)
    dest = x + side * allowance if mode == "away" else tx + side * want
    dest = max(0, min(dec.v["arena_length"], dest, x + allowance), x - allowance)
    dest, left = stop(dec, dest)
    ends = [(1.0, dest)]
    d0, d1 = abs(x - tx), abs(dest - tx)
    rad, zb = t["radii"], t["zoc_band"]
    if a.target in dec.foes and d1 < d0:
        tab = bands(dec, a.target or "")
        b0 = tab[d0] if d0 < len(tab) else 5
        b1 = tab[d1] if d1 < len(tab) else 5
        entered = [b for b in range(zb, 0, -1) if b1 <= b < b0]
        if entered:
            diff = me["bonuses"]["maneuver"] - t["bonuses"]["maneuver"]
            probs = p_layers(diff + (2 if me["boost_pending"] else 0))
            ends = [(probs[m], tx + side * (rad[entered[m] - 1] + 1))
                    for m in range(len(entered))]
            ends.append((sum(probs[len(entered):]), dest))
    now = pos(dec, x)
    gain: float = 0  # summed in ``ends`` order from 0, as ``sum`` would
    for p, y in ends:
        if p > 0:
            gain += p * (pos(dec, y) - now)
    gain -= 0.002 * abs(dest - x)  # no farther than it needs
    return gain - left * foe_blow(dec, )
