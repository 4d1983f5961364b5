"""Metaforce observation (spec §12.4, adapted): the named feature tables and ``observe``.

Float32, every value in [-1, 1]. Metaforce hides nothing (spec §12.4: fully observable apart
from future dice; ``public_view`` shows every combatant whole), so the features are read from
the same state the public view is built from, without building its dicts:

* ``context`` (``CONTEXT_FEATURES``): the round, the turn owner's frame, the decision one-hot
  (frame, W-R1 reaction, W-I5 Deus Ex, FULL's Dodge, Crash Out, Finishing
  Touch and critical allocation, any other window), the deciding combatant's and the
  W-R1 trigger's ego slots, and for a Deus Ex window the HP the blow leaves;
* ``self`` (``SELF_FEATURES``): HP, MP and the Meta-Die, Exert, the action economy, defences,
  statuses, position and size, and each weapon slot (``WEAPON_FEATURES``);
* ``slot1`` .. ``slot7`` (``SLOT_FEATURES``): the other combatants by ego slot (allies, then
  enemies): state, HP, geometry, reach both ways, defences, resistances against my first
  weapon, statuses, economy and a cheap measure of my odds (the margin of my best ToHit over
  their Evasion and Deflection; the engine's exact ``preview_attack`` costs milliseconds, too
  slow for every observation);
* ``map``: egocentric ``SIDE x SIDE`` planes (``PLANES``: wall or off the map, difficult,
  allies, enemies, self), centred on the observer's anchor, row-major from the north-west.

``obs_features()`` lists every feature with its offset and range (``arena layout metaforce
--obs``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.rl import ObsSpec
from envs.rl.features import feature_rows, table_size
from envs.rl.gridplanes import terrain_planes

from .rules.attack import range_squares, special_status
from .rules.damage import resistance_x
from .rules.moves import dist, on_edge

__all__ = ["MAX_PER_SIDE", "SLOTS", "WEAPON_SLOTS", "DECISIONS", "STATUSES", "STATES",
           "FAMILIES", "CONTEXT_FEATURES", "SELF_FEATURES", "SLOT_FEATURES", "WEAPON_FEATURES",
           "PLANES", "RADIUS", "SIDE", "OBS", "obs_features", "observe"]

MAX_PER_SIDE = 4
SLOTS = 2 * MAX_PER_SIDE
"""ego slots: self, then up to 3 allies, then up to 4 enemies (``giant_boss`` has 4 heroes)"""
WEAPON_SLOTS = 4
"""attack slots of a stat block, in its weapon order (the Wizard has 3: two cantrips, unarmed)"""
DECISIONS = ("frame", "reaction", "deus_ex", "dodge", "crash_out", "finishing_touch", "crit",
             "other")
STATUSES = ("bleed", "burn", "knockback", "stun", "grappled", "slow", "poison", "acid_burn",
            "fear", "charm", "sleep", "deafened")
"""the statuses of spec §7 the features name, by the engine's names (CORE inflicts the first
five; the others are FULL's, ``rules.full_statuses.FULL_STATUSES``)"""
SEVERITIES = ("partial", "full", "intense")
STATES = ("active", "incapacitated", "unconscious", "dead", "retreated")
FAMILIES = ("melee", "natural", "thrown", "bow", "firearm", "cantrip")
RADIUS = 6
SIDE = 2 * RADIUS + 1
PLANES = ("wall", "difficult", "ally", "enemy", "self")
"""``wall``: a wall or off the map; ``ally``/``enemy``/``self``: the footprint cells of each
combatant still on the field (the dead lie where they fell and are not drawn)"""

CONTEXT_FEATURES = (
    ("round", 1),          # round / round limit
    ("frame", 3),          # one-hot: the turn owner's frame 1, 2, 3 (none before the first)
    ("decision", len(DECISIONS)),
    ("actor", SLOTS),      # one-hot ego slot of the deciding combatant
    ("deciding", 1), ("my_turn", 1),  # I decide; the turn owner is me
    ("trigger", SLOTS),    # one-hot ego slot of the W-R1 trigger
    ("window_hp", 1),      # Deus Ex: the HP the blow leaves, / Max HP
)
STATUS_FEATURES = tuple((s, len(SEVERITIES) + 1) for s in STATUSES)
"""per status: severity one-hot (partial, full, intense) and magnitude / 30"""
WEAPON_FEATURES = (
    ("present", 1), ("in_hand", 1), ("family", len(FAMILIES)),
    ("tohit", 1),          # / 15
    ("damage", 1),         # mean damage before defences / 30
    ("range", 1),          # squares / 40
    ("ammo", 3),           # loaded / capacity, reserve / 30, primed (bow)
    ("thrown", 1), ("special", 1),  # may be thrown; has a CORE Special Attack status
)
SELF_FEATURES = (
    ("hp", 3),             # HP / Max HP, HP / 100, below 0
    ("mp", 5),             # MP / Max MP, MP / 24, Max MP / 24, Meta-Die affordable, MU
    ("protected", 1),
    ("exert", 4),          # Exert / L, Tension / 10, Tired, Exhausted
    ("economy", 6),        # frames left / 3, Reactions / 3, Vigilance, no Reaction (Stun),
                           # aware, acted
    ("defence", 5),        # E / 20, D / 20, Status Defence body, reflex, mind / 20
    ("stun_frames", 1),    # frames to lose / 3
    ("special", 1), ("grappling", 1), ("deus_ex_uses", 1),  # / 3
    *STATUS_FEATURES,
    ("position", 6),       # x / W, y / H, Size / 8, side N / 4, speed squares / 12, on an edge
    *((f"weapon{k}", table_size(WEAPON_FEATURES)) for k in range(WEAPON_SLOTS)),
)
SLOT_FEATURES = (
    ("present", 1), ("ally", 1), ("state", len(STATES)),
    ("mu", 1), ("protected", 1),
    ("hp", 3),             # HP / Max HP, Max HP / 300, below 0
    ("mp", 1),             # / 24
    ("offset", 3),         # dx, dy, distance in squares, / 20 (y to the north)
    ("my_reach", WEAPON_SLOTS),  # my weapon k reaches it now
    ("their_reach", 1),    # one of its weapons reaches me now
    ("defence", 5),        # E / 20, D / 20, Status Defence body, reflex, mind / 20
    ("size", 3),           # Size / 8, side N / 4, speed squares / 12
    ("resist", 3),         # against my first weapon's type: Resistance X / 10, immune, Weak / 10
    *STATUS_FEATURES,
    ("stun_frames", 1), ("grapple", 2),  # / 3; grappled by me, grappling me
    ("economy", 3),        # Reactions / 3, frames left / 3, initiative place - mine, / 8
    ("offence", 2),        # its best ToHit / 15, its best mean damage / 50
    ("odds", 2),           # my best ToHit (any weapon) - its E, - its D, / 20
)
SELF_SIZE = table_size(SELF_FEATURES)
SLOT_SIZE = table_size(SLOT_FEATURES)
OBS = ObsSpec([
    ("context", table_size(CONTEXT_FEATURES)),
    ("self", SELF_SIZE),
    *((f"slot{i}", SLOT_SIZE) for i in range(1, SLOTS)),
    ("map", len(PLANES) * SIDE * SIDE),
])
_MAP = OBS["map"].start
_EMPTY_SLOT = [0.0] * SLOT_SIZE
_EMPTY_WEAPON = [0.0] * table_size(WEAPON_FEATURES)


def obs_features() -> list[tuple[str, int, int, float, float]]:
    """Every observation feature as ``(name, offset, size, low, high)``, in vector order."""
    planes = tuple((p, SIDE * SIDE) for p in PLANES)
    return feature_rows(OBS, {"context": CONTEXT_FEATURES, "self": SELF_FEATURES,
                              "slot": SLOT_FEATURES, "map": planes})


def _hot(i: int, n: int) -> list[float]:
    out = [0.0] * n
    if 0 <= i < n:
        out[i] = 1.0
    return out


_FAMILY_HOT = {f: _hot(i, len(FAMILIES)) for i, f in enumerate(FAMILIES)}
_STATE_HOT = {s: _hot(i, len(STATES)) for i, s in enumerate(STATES)}
_SEV_HOT = {s: _hot(i, len(SEVERITIES)) for i, s in enumerate(SEVERITIES)}
_NO_STATUS = [0.0] * table_size(STATUS_FEATURES)


def _statuses(c: Any) -> list[float]:
    if not c.statuses:
        return list(_NO_STATUS)
    out: list[float] = []
    for s in STATUSES:
        if s in c.statuses:
            out += _SEV_HOT.get(c.status_severity(s), [0.0] * len(SEVERITIES))
            out.append(c.statuses[s][0] / 30)
        else:
            out += [0.0, 0.0, 0.0, 0.0]
    return out


def _defence(c: Any) -> list[float]:
    sd = c.profile.status_defence
    return [c.evasion() / 20, c.deflection() / 20, sd.get("body", 0) / 20,
            sd.get("reflex", 0) / 20, sd.get("mind", 0) / 20]


def _mean(w: Any) -> float:
    return w.damage_base + (w.bonus_die + 1) / 2 if w.bonus_die else float(w.damage_base)


def _weapon(enc: Any, c: Any, w: Any) -> list[float]:
    fam = w.family
    cap = w.capacity
    return [1.0, float(w.id not in c.gone), *_FAMILY_HOT.get(fam, _hot(-1, len(FAMILIES))),
            w.tohit / 15, _mean(w) / 30, range_squares(enc, c, w) / 40,
            c.loaded.get(w.id, 0) / cap if cap else 0.0, c.reserve.get(w.id, 0) / 30,
            float(bool(c.primed.get(w.id))), float(w.thrown_ft > 0),
            float(special_status(w) is not None)]


def _context(enc: Any, me: Any, index: dict[str, int]) -> list[float]:
    decision = enc.decision
    actor = enc.current_actor()
    turn = enc.turn
    owner = enc.by_id[enc.order[turn]] if 0 <= turn < len(enc.order) else None  # none at the end
    out = [enc.round / max(1, enc.options.max_rounds),
           *_hot(owner.frame - 1 if owner is not None else -1, 3),
           *_hot(DECISIONS.index(decision) if decision in DECISIONS else len(DECISIONS) - 1,
                len(DECISIONS)),
           *_hot(index.get(actor, -1) if actor is not None else -1, SLOTS),
           float(actor == me.id), float(owner is me),
           *_hot(index.get(enc.trigger, -1) if decision == "reaction" else -1, SLOTS)]
    w = enc.window
    hp = 0.0
    if w is not None and w.kind == "deus_ex" and w.actor == me.id:
        hp = dict(w.info).get("hp", me.hp) / max(1, me.profile.hp_max)
    out.append(hp)
    return out


def _self(enc: Any, me: Any) -> list[float]:
    p = me.profile
    g = enc.grid
    out = [me.hp / max(1, p.hp_max), me.hp / 100, float(me.hp < 0),
           me.mp / max(1, me.mp_max), me.mp / 24, me.mp_max / 24,
           float(me.mu and me.mp >= 4), float(me.mu), float(p.protected),
           me.exert_total / max(1, p.exert_limit), me.tension / 10, float(me.tired),
           float(me.exhausted), me.frames_left / 3, me.reactions / 3, float(me.vigilance),
           float(me.no_react), float(me.aware), float(me.acted), *_defence(me), me.stun / 3,
           float(me.special_until >= 0), float(me.grappling is not None),
           me.deus_ex_uses / 3, *_statuses(me),
           me.x / max(1, g.width), me.y / max(1, g.height), p.size / 8, me.n / 4,
           me.speed_squares() / 12, float(on_edge(enc, me))]
    ws = p.weapons
    for k in range(WEAPON_SLOTS):
        out += _weapon(enc, me, ws[k]) if k < len(ws) else _EMPTY_WEAPON
    return out


_STATIC: dict[Any, Any] = {}
"""``_resist`` and ``_arms`` by the ids of what they read (profiles, weapons and options are
frozen; each entry keeps them, so an id reused by a new object is not mistaken for it)"""


def _resist(t: Any, w: Any) -> list[float]:
    if w is None:
        return [0.0, 0.0, 0.0]
    p = t.profile
    key = ("resist", id(p), id(w))
    got = _STATIC.get(key)
    if got is None or got[0] is not p or got[1] is not w:
        if len(_STATIC) > 4096:
            _STATIC.clear()
        got = _STATIC[key] = (p, w, _resist_of(p, w))
    return got[2]


def _resist_of(p: Any, w: Any) -> list[float]:
    key = w.damage_type
    try:
        x = resistance_x(p, key, w.family == "firearm")
    except (TypeError, ValueError):
        x = None
    weak = p.weaknesses.get(key, 0)
    return [(x or 0) / 10 if isinstance(x, int) else 0.5, float(key in p.immunities),
            (weak if isinstance(weak, int) else 5) / 10]


def _arms(enc: Any, c: Any) -> tuple[list[int], int, float, int]:
    """``c``'s weapons in hand: the range in squares per slot (-1: empty or thrown away), the
    best ToHit, the best mean damage (times the Size multiplier from Size 2) and the longest
    range."""
    p, opts = c.profile, enc.options
    key = ("arms", id(p), id(opts), tuple(c.gone))
    got = _STATIC.get(key)
    if got is None or got[0] is not p or got[1] is not opts:
        if len(_STATIC) > 4096:
            _STATIC.clear()
        got = _STATIC[key] = (p, opts, _arms_of(enc, c))
    return got[2]


def _arms_of(enc: Any, c: Any) -> tuple[list[int], int, float, int]:
    ranges = [-1] * WEAPON_SLOTS
    best, harm, far = 0, 0.0, -1
    gone = c.gone
    for k, w in enumerate(c.profile.weapons):
        if w.id in gone:
            continue
        r = range_squares(enc, c, w)
        if k < WEAPON_SLOTS:
            ranges[k] = r
        best, harm, far = max(best, w.tohit), max(harm, _mean(w)), max(far, r)
    size = c.profile.size
    return ranges, best, harm * (size if size >= 2 else 1.0), far


def _slot(me: Any, o: Any, place: dict[str, int], arms: dict[str, Any],
          resist: list[float]) -> list[float]:
    p = o.profile
    ally = o.side == me.side
    d = dist(me, o)
    my_ranges, my_best, _, _ = arms[me.id]
    _, best, harm, far = arms[o.id]
    if ally or not o.present:
        reach = [0.0] * WEAPON_SLOTS
    else:
        reach = [float(0 <= d <= r) for r in my_ranges]
    e, df = o.evasion(), o.deflection()
    return [1.0, float(ally), *_STATE_HOT.get(o.state, _hot(-1, len(STATES))),
            float(o.mu), float(p.protected), o.hp / max(1, p.hp_max), p.hp_max / 300,
            float(o.hp < 0), o.mp / 24, (o.x - me.x) / 20, (o.y - me.y) / 20, d / 20, *reach,
            float(not ally and o.active and d <= far), *_defence(o), p.size / 8, o.n / 4,
            o.speed_squares() / 12, *resist, *_statuses(o), o.stun / 3,
            float(me.holds(o.id)), float(o.holds(me.id)),
            o.reactions / 3, o.frames_left / 3,
            (place.get(o.id, 0) - place.get(me.id, 0)) / 8, best / 15, harm / 50,
            0.0 if ally else (my_best + 6.5 - e) / 20, 0.0 if ally else (my_best + 6.5 - df) / 20]


def _map(enc: Any, me: Any, out: np.ndarray) -> None:
    """The planes, written into ``out`` (zeros on entry)."""
    grid = enc.grid
    plane = SIDE * SIDE
    top = grid.height - 1 - me.y
    window = terrain_planes(grid, RADIUS)[:, top:top + SIDE, me.x:me.x + SIDE]
    out[: 2 * plane] = window.reshape(-1)
    ox, oy = me.x - RADIUS, me.y + RADIUS  # the north-west corner
    for c in enc.combatants:
        if not c.alive or not c.present:
            continue
        k = 4 if c is me else (2 if c.side == me.side else 3)
        base = k * plane
        for dx in range(c.n):
            col = c.x + dx - ox
            if not 0 <= col < SIDE:
                continue
            for dy in range(c.n):
                row = oy - c.y - dy
                if 0 <= row < SIDE:
                    out[base + row * SIDE + col] = 1.0


def observe(enc: Any, combatant: str, slots: list[str | None]) -> np.ndarray:
    """The observation of ``combatant``; ``slots``: its ego slots (``MetaforceEncounter``
    roster through ``ego_order``)."""
    me = enc.by_id[combatant]
    index = {c: i for i, c in enumerate(slots) if c is not None}
    place = {c: i for i, c in enumerate(enc.order)}
    row = _context(enc, me, index) + _self(enc, me)
    arms = {c.id: _arms(enc, c) for c in enc.combatants}
    ws = me.profile.weapons
    first = ws[0] if ws else None
    for cid in slots[1:]:
        if cid is None:
            row += _EMPTY_SLOT
            continue
        o = enc.by_id[cid]
        resist = _resist(o, first) if o.side != me.side else [0.0, 0.0, 0.0]
        row += _slot(me, o, place, arms, resist)
    vec = OBS.new()
    vec[:_MAP] = row
    np.minimum(vec[:_MAP], 1.0, out=vec[:_MAP])
    np.maximum(vec[:_MAP], -1.0, out=vec[:_MAP])
    _map(enc, me, vec[_MAP:])
    return vec
