"""Mano a Mano observation (spec §12.3, adapted): the named feature tables and ``observe``.

Observation (float32 in [-1, 1]), as named tables: one ``SLOT_FEATURES`` row per ego slot
(relative hex offset and distance, stance, health, harm, defenses, best weapon, armor, counter /
cover / aim / bow, the grapple relation with the observer, mounted / ridden, its reach and whether
it can strike the observer or be struck by it, its held gun's shots, clip and reload), the round,
the decision ``PHASES``, the observer's turn budget (``TURN_FEATURES``) and the six hexes around it
(free, wall, occupied). ``obs_features()`` lists every feature with its offset and range.
``envs.mano_a_mano.encoding`` (the actions) re-exports these names.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.hexgrid import neighbor
from envs.core.memo import IdentityMemo
from envs.rl import ObsSpec
from envs.rl.features import feature_rows, table_size

from .rules.catalogue import block_memo
from .rules.resolution import health as R_health
from .rules.state import ManoEncounter

__all__ = [
    "MAX_PER_SIDE",
    "SLOTS",
    "HEALTH",
    "SLOT_FEATURES",
    "TURN_FEATURES",
    "PHASES",
    "SLOT_SIZE",
    "OBS",
    "obs_features",
    "observe",
]

_AROUND_MEMO = IdentityMemo(limit=256)
"""per map: the free/wall/occupied features around each hex"""

MAX_PER_SIDE = 4
SLOTS = 2 * MAX_PER_SIDE
"""ego slots: self, then up to 3 allies, then up to 4 enemies"""
HEALTH = ("healthy", "injured", "incapacitated", "incapacitated_by_damage")

# per-slot features, in order (``_slot`` writes them; the rest of a row is zero)
SLOT_FEATURES = (
    ("present", 1),
    ("active", 1),       # not incapacitated
    ("ally", 1),         # on the observer's side
    ("offset", 3),       # dq/14, dr/14, distance/14 from the observer
    ("standing", 1),
    ("health", len(HEALTH)),  # one-hot: healthy, injured, incapacitated, .._by_damage
    ("harm", 3),         # stun, damage, stun + damage, each / stamina
    ("sheet", 3),        # toughness/40, speed/3, running/10
    ("skips", 1),        # forced skips/3
    ("ready", 4),        # counter ready, defense bonus/5, aiming, bow drawn
    ("cover", 2),        # covers the observer, covered by the observer
    ("grapple", 6),      # relation with the observer (none, neutral, mine, its), grappling, ground
    ("defenses", 5),     # melee/30, missile/30, grapple attack/30, grapple defense/40, power/30
    ("weapon", 5),       # best weapon: attack/10, power/30, sharp, blunt, padded
    ("armor", 2),        # best absorption/10, total cover/10 (1 complete)
    ("mount", 2),        # mounted, ridden (spec §5.11)
    ("reach", 3),        # its reach/4, it can strike the observer, the observer can strike it
    ("gun", 4),          # has one, shots left, clip out, reload done (spec §5.6)
    ("padding", 1),
)
# the observer's turn budget (during its own decisions), in order
TURN_FEATURES = (
    ("move_points", 1),  # /10
    ("actions", 1),      # /4
    ("quick_only", 1),
    ("weapon_uses", 1),  # /4
    ("straight_run", 1),  # /7
    ("charge_used", 1),
)
PHASES = ("own_turn", "counter_turn", "grapple_choice", "setup_stance")


SLOT_SIZE = table_size(SLOT_FEATURES)
OBS = ObsSpec([
    *((f"slot{i}", SLOT_SIZE) for i in range(SLOTS)),
    ("round", 1),
    ("phase", len(PHASES)),
    ("turn", table_size(TURN_FEATURES)),
    ("around", 18),      # per direction: free, wall, occupied
])


def obs_features() -> list[tuple[str, int, int, float, float]]:
    """Every observation feature as ``(name, offset, size, low, high)``, in vector order
    (``slot3.offset``, ``phase``, ``turn.move_points``, ``around[2].wall``...)."""
    around = tuple((f"[{d}].{f}", 1) for d in range(6) for f in ("free", "wall", "occupied"))
    rows = feature_rows(OBS, {"slot": SLOT_FEATURES, "turn": TURN_FEATURES, "around": around})
    return [(n.replace("around.[", "around["), o, k, lo, hi) for n, o, k, lo, hi in rows]


def _clip(x: float) -> float:
    return -1.0 if x < -1 else (1.0 if x > 1 else float(x))


def observe(enc: ManoEncounter, combatant: str, slots: list[str | None]) -> np.ndarray:
    """The observation of ``combatant``: filled slot rows and the tail are written into a zero
    vector (empty slots and each row's padding stay zero); ``slots``: the ego slots
    (``ManoEncoding.ego``)."""
    me = enc.by_id[combatant]
    by_id = enc.by_id
    out = np.zeros(OBS.size, np.float32)
    mine = _armed(me)[6]
    for i, cid in enumerate(slots):
        if cid is not None:
            start = i * SLOT_SIZE
            out[start:start + _ROW] = _slot(enc, me, by_id[cid], mine)
    t = enc.stack[-1] if enc.stack else None
    if t is not None and t.actor == combatant:
        if t.choice:
            phase = 3 if t.choice[0].startswith("stance") else 2
        else:
            phase = 1 if t.counter else 0
        turn = (*_PHASES[phase], _clip(t.move_points / 10), _clip(t.actions / 4),
                float(t.quick_only), _clip(sum(t.weapons.values()) / 4),
                _clip(t.straight_hexes / 7), float(t.charge_used))
    else:
        turn = _EMPTY_TURN
    out[_TAIL:_AROUND] = (_clip(enc.round / max(1, enc.round_cap)), *turn)
    out[_AROUND:] = _around(enc.map, me.hex)
    q, r = me.hex
    for g in enc.fighters:  # an occupied neighbour: not free, taken
        k = _DIRECTION_OF.get((g.hex[0] - q, g.hex[1] - r))
        if k is not None:
            out[_AROUND + 3 * k] = 0.0
            out[_AROUND + 3 * k + 2] = 1.0
    return out


def _around(hexmap: Any, h: tuple[int, int]) -> tuple[float, ...]:
    """Per direction (free, wall, occupied) of the hexes around ``h`` with nobody in them; the
    terrain does not change during a fight, so the answer is kept per map (by identity, the map
    kept alive with it)."""
    memo = _AROUND_MEMO.of(hexmap)
    found = memo.get(h)
    if found is None:
        q, r = h
        values: list[float] = []
        for dq, dr in _DIRECTIONS:
            n = (q + dq, r + dr)
            values += (float(hexmap.passable(n)), float(n in hexmap and hexmap.at(n).wall), 0.0)
        found = memo[h] = tuple(values)
    return found


def _static(b: Any) -> tuple[float, ...]:
    """The sheet's part of a slot row (computed once per stat block)."""
    memo = block_memo(b)
    found = memo.get("obs_static")
    if found is None:
        cover = b.total_cover
        found = memo["obs_static"] = (
            _clip(b.toughness / 40), _clip(float(b.speed) / 3), _clip(b.running / 10),
            _clip(b.missile_defense / 30), _clip(b.grapple_attack / 30),
            _clip(b.grapple_defense / 40),
            _clip(b.grapple_power / 30), _clip(b.best_absorption / 10),
            1.0 if cover == "complete" else _clip(cover / 10))
    return found


def _armed(f: Any) -> tuple[Any, ...]:
    """Melee defense, the best weapon's attack, power and sharpness, the reach in hexes of the
    longest striking weapon (RULING R7), and the held gun's item id or ``None`` (spec §5.6), for
    the held items."""
    b = f.block
    key = ("obs_armed", tuple(sorted(f.held.items())))
    memo = block_memo(b)
    found = memo.get(key)
    if found is None:
        weapons = f.weapons().values()
        best = max(weapons, key=lambda s: (s.power * 2 + s.attack), default=None)
        reach = max((1 + s.range_m // 2 if s.range_m else 1 for s in weapons), default=1)
        gun = next((f.held[h] for h in ("right", "left", "both")  # Fighter.gun's order
                    if h in f.held and b.items[f.held[h]].kind == "gun"), None)
        if best is None:
            found = (_clip(f.melee_defense() / 30), 0.0, 0.0, 0.0, 0.0, 0.0, reach, gun)
        else:
            found = (_clip(f.melee_defense() / 30), _clip(best.attack / 10),
                     _clip(best.power / 30),
                     *(float(best.sharpness == s) for s in ("sharp", "blunt", "padded")),
                     reach, gun)
        memo[key] = found
    return found


def _gun_state(enc: ManoEncounter, f: Any,
               item: str | None) -> tuple[float, float, float, float]:
    """Held gun ``item`` (spec §5.6): has one, share of its shots left, clip out, share of the
    reload actions of a muzzle-loader done (RULING R50)."""
    if item is None:
        return _NO_GUN
    shots, turns = f.block.items[item].shots or (0, 0)
    left = enc.shots_left(f, item)
    return (1.0, _clip(left / shots) if shots else 1.0, float(item in f.clip_out),
            _clip(f.reloading.get(item, 0) / turns) if turns else 0.0)


def _slot(enc: ManoEncounter, me: Any, f: Any, mine: int) -> tuple[float, ...]:
    """The first ``_ROW`` values of ``f``'s slot row as ``me`` sees it (``mine``: ``me``'s
    reach)."""
    b = f.block
    fq, fr = f.hex
    mq, mr = me.hex
    dq, dr = fq - mq, fr - mr
    d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2  # hexgrid.distance
    stun, damage = f.stun, f.damage
    health = R_health(stun, damage, b.toughness)
    stamina = max(1, b.stamina)
    melee, atk, power, sharp, blunt, padded, reach, gun = _armed(f)
    grapples = enc.grapples
    relation = _NO_GRAPPLE
    grappling = in_ground = 0.0
    if grapples:
        grapple = grapples.get(frozenset((me.id, f.id)))
        if grapple is not None:
            dom = grapple["dominant"]
            relation = (0.0, float(dom is None), float(dom == me.id), float(dom == f.id))
        for pair, g in grapples.items():
            if f.id in pair:
                grappling = 1.0
                if g["base"] == "ground":
                    in_ground = 1.0
    mounts = enc.mounts
    tough, speed, running, missile, g_att, g_def, g_pow, absorb, cover = _static(b)
    return (
        1.0,
        float(not health.startswith("incapacitated")),
        float(f.side == me.side),
        _clip(dq / 14),
        _clip(dr / 14),
        _clip(d / 14),
        float(f.standing),
        *_HEALTH_ONE_HOT[health],
        min(1.0, stun / stamina),
        min(1.0, damage / stamina),
        min(1.0, (stun + damage) / stamina),  # >= 0
        tough,
        speed,
        running,
        min(1.0, f.forced_skips / 3),
        float(f.counter_ready),
        min(1.0, f.defense_bonus / 5),
        float(f.aiming is not None),
        float(f.bow_drawn),
        float(f.covering == me.id),
        float(me.covering == f.id),
        *relation,
        grappling,
        in_ground,
        melee,
        missile,
        g_att,
        g_def,
        g_pow,
        atk,
        power,
        sharp,
        blunt,
        padded,
        absorb,
        cover,
        float(f.id in mounts),
        float(f.id in mounts.values()) if mounts else 0.0,  # mounted, ridden (§5.11)
        min(1.0, reach / 4),
        float(1 <= d <= reach),
        float(1 <= d <= mine),  # its reach; it / I can strike
        *_gun_state(enc, f, gun),
    )


_ROW = SLOT_SIZE - 1
"""values in a slot row before the padding (``SLOT_FEATURES``)"""
_TAIL = OBS["round"].start
_AROUND = OBS["around"].start
_NO_GUN = (0.0, 0.0, 0.0, 0.0)
_NO_GRAPPLE = (1.0, 0.0, 0.0, 0.0)
_HEALTH_ONE_HOT = {h: tuple(float(h == k) for k in HEALTH) for h in HEALTH}
_PHASES = tuple(tuple(float(p == i) for i in range(4)) for p in range(4))
_EMPTY_TURN = (0.0,) * 10
_DIRECTIONS = tuple(neighbor((0, 0), d) for d in range(6))
_DIRECTION_OF = {step: d for d, step in enumerate(_DIRECTIONS)}
