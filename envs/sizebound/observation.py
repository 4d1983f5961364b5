"""Sizebound observation (spec §12.3, adapted): the named feature tables and ``observe``.

Float32, every value in [-1, 1], built from the encounter's view (``enc.view(observer)``), the
stat blocks and the engine's public previews (``preview_attack``):

* ``context`` (``CONTEXT_FEATURES``): the round, whose turn and decision it is, the phase
  one-hot, and for a window the pending event: attacker and target slots, the totals at stake,
  the damage amount, the Guard a Block would add, crit, area and ranged flags;
* ``self`` (``SELF_FEATURES``): level, health, mana, Guard, Exertion Dice, reactions, the
  P/D/M/B flags, the attack pool, movement, Aim, hands, blocked actions, conditions, stats and a
  summary of the main and off weapons;
* ``slot1`` .. ``slot7`` (``SLOT_FEATURES``): the other combatants by ego slot: where they are,
  reach, range, flanking, health, conditions, stats, the grapple relation, Charge readiness and
  the observer's own odds against them;
* ``map``: egocentric 11 x 11 planes (``PLANES``: wall or off the map, difficult, allies,
  enemies, self, items, the cells in sight, the cells in melee reach), centred on the observer's
  anchor, row-major from the north-west.

``obs_features()`` lists every feature with its offset and range (``arena layout sizebound
--obs``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.squaregrid import distance
from envs.rl import ObsSpec
from envs.rl.features import feature_rows, table_size

from .observation_map import PLANES, RADIUS, SIDE, map_planes
from .rules.attack import charge_ready, dodge_bonus
from .rules.economy import spendable
from .rules.legal import weapon_in
from .rules.preview import in_reach, preview_attack
from .rules.space import dist, sees

__all__ = ["MAX_PER_SIDE", "SLOTS", "PHASES", "CONDITION_FEATURES", "CONTEXT_FEATURES",
           "SELF_FEATURES", "SLOT_FEATURES", "PLANES", "RADIUS", "OBS", "obs_features",
           "observe"]

MAX_PER_SIDE = 4
SLOTS = 2 * MAX_PER_SIDE
"""ego slots: self, then up to 3 allies, then up to 4 enemies"""
PHASES = ("own", "declare", "parry", "dodge", "block", "dispel", "fall", "exert_d20",
          "exert_dmg", "crit", "other")
"""spec §12.3: the own-turn action, the reaction windows (R-DISPEL and R-FALL are FULL and not
offered yet), the exertion windows, any other decision"""
MOVE_MODES = ("none", "move", "run", "trip")
"""the movement mode: none yet, Move, Run, or M paid for a Trip (R-34)"""
FULL_CONDITIONS = ("panicked", "terrified", "rooted", "silenced", "mute", "suffocating",
                   "petrified", "incorporeal", "ignited", "wet", "drunk", "falling",
                   "concentrating")
"""the FULL conditions (spec §7.2) the observation flags by name (laid out ahead of the engine's
FULL rules, so that the observation stays the same while they land)"""
CONDITION_FEATURES = (
    ("prone", 1), ("grappled", 1), ("grappling", 1), ("hp_stun", 1),
    ("action_rung", 6),   # one-hot: none, Jarred, Staggered, Stunned, Paralyzed, Unconscious
    ("fatigue_rung", 5),  # one-hot: none, Winded, Tired, Lethargic, Disabled
    ("afraid", 1), ("unnerved", 1), ("blinded", 1), ("deafened", 1),  # unnerved/10
    ("full", len(FULL_CONDITIONS)),  # the FULL conditions of spec §7.2, one flag each
    ("height", 1),        # elevation above the ground, /10 (FULL, spec §3.2)
)
CONTEXT_FEATURES = (
    ("round", 1),         # round / round cap
    ("my_side_turn", 1), ("deciding", 1),
    ("phase", len(PHASES)),
    ("attacker", SLOTS),  # one-hot ego slot of the pending event's attacker (or dealer)
    ("target", SLOTS),    # one-hot ego slot of its target
    ("total", 1),         # the roll's total / 40
    ("against", 1),       # the total it has to beat / 40 (the contest's other side)
    ("margin", 1),        # total - target's Defense, / 20
    ("amount", 1),        # the damage amount / 40
    ("guard_gain", 1),    # the Guard a Block would add / 10
    ("ranged", 1), ("area", 1), ("crit", 1),
    ("roll", 4),          # one-hot the roll being boosted: hit, parry, dodge, other contest
)
WEAPON_FEATURES = ("present", "mean_damage", "reach", "range", "crit_faces", "weapon_attacks")
SELF_FEATURES = (
    ("level", 1),         # /30
    ("hp", 1), ("above_pnr", 1),  # HP / Max HP; (HP - PNR) / (Max HP - PNR)
    ("mana", 1), ("guard", 1), ("dice", 1), ("reactions", 1),  # /max, /10, /8, /3
    ("used", 4),          # P, D, M, B spent this turn
    ("pool", 3),          # open, general attacks left /4, weapon attacks left /4
    ("move", 6),          # mode one-hot (none, move, run, trip), budget /10, MR left /5
    ("aim", 2),           # active, used this round
    ("hands_free", 1),    # /2
    ("blocked", 1),       # unspent P/D/M/B that conditions forbid now, /4
    *CONDITION_FEATURES,
    ("stats", 8),         # hit mod /10, Defense /30, Dodge /20, Athletics, Nimble, Arcana /20,
                          # Block guard /10, size index /10
    ("main", len(WEAPON_FEATURES)),  # mean damage /20, reach /5, range /20, crit faces /5,
    ("off", len(WEAPON_FEATURES)),   # weapon attacks /2
)
SLOT_FEATURES = (
    ("present", 1), ("alive", 1), ("active", 1), ("ally", 1),
    ("offset", 3),        # dx, dy, distance, /16 (y to the north)
    ("adjacent", 1), ("reach", 2),  # in my main / off weapon's reach or range
    ("in_sight", 1),      # I see it (walls and, in FULL, raised ground between, spec §3.2)
    ("flankers", 1),      # my side's other members adjacent to it, /4
    ("hp", 1), ("hp_stun", 1), ("guard", 1), ("reactions", 1),
    *(c for c in CONDITION_FEATURES if c[0] not in ("hp_stun",)),
    ("size", 2),          # size index /10, footprint side N /4
    ("stats", 4),         # Defense /30, Dodge /20, Athletics /20, Nimble /20
    ("mean_damage", 1),   # its main weapon, /20
    ("grapple", 2),       # grappled by me, grappling me
    ("charge", 1),        # my last steps make a Charge on it
    ("odds", 4),          # my main / off attack on it: P(hit), expected damage /20
)

SLOT_SIZE = table_size(SLOT_FEATURES)
OBS = ObsSpec([
    ("context", table_size(CONTEXT_FEATURES)),
    ("self", table_size(SELF_FEATURES)),
    *((f"slot{i}", SLOT_SIZE) for i in range(1, SLOTS)),
    ("map", len(PLANES) * SIDE * SIDE),
])


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


_ACTION_HOT = [_hot(i, 6) for i in range(6)]
_FATIGUE_HOT = [_hot(i, 5) for i in range(5)]
_FULL_SET = frozenset(FULL_CONDITIONS)
_NO_FULL = [0.0] * len(FULL_CONDITIONS)


def _conditions(f: Any, stun: bool) -> tuple[float, ...]:
    """``CONDITION_FEATURES`` of ``f`` (``stun``: with the HP Stun flag, for ``self``); the
    rows are remembered by what they are read from (a row is read-only)."""
    conds = f.conds.names()
    unnerved = f.unnerved if "unnerved" in conds else 0
    key = (conds, bool(f.grappled_by), bool(f.grips), stun and f.hp <= 0, stun, f.action_rung,
           f.fatigue, unnerved, f.z)
    row = _CONDITION_ROWS.get(key)
    if row is None:
        if len(_CONDITION_ROWS) > 20_000:
            _CONDITION_ROWS.clear()
        row = _CONDITION_ROWS[key] = tuple(_condition_row(conds, *key[1:]))
    return row


_CONDITION_ROWS: dict[tuple[Any, ...], tuple[float, ...]] = {}


def _condition_row(conds: frozenset[str], grappled: bool, grips: bool, stunned: bool,
                   stun: bool, rung: int, fatigue: int, unnerved: int, z: int) -> list[float]:
    out = [float("prone" in conds), float(grappled), float(grips)]
    if stun:
        out.append(float(stunned))
    out += _ACTION_HOT[rung] if 0 <= rung < 6 else _hot(rung, 6)
    out += _FATIGUE_HOT[fatigue] if 0 <= fatigue < 5 else _hot(fatigue, 5)
    out += [float("afraid" in conds), unnerved / 10, float("blinded" in conds),
            float("deafened" in conds)]
    out += [float(c in conds) for c in FULL_CONDITIONS] if not _FULL_SET.isdisjoint(conds) \
        else _NO_FULL
    out.append(z / 10)
    return out


def _weapon(f: Any, slot: str, mods: dict[str, int]) -> list[float]:
    wid = weapon_in(f, slot)
    if wid is None:
        return [0.0] * len(WEAPON_FEATURES)
    w = f.profile.weapon(wid)
    far = w.range if w.range is not None else (w.thrown or 0)
    return [1.0, (w.mean_dice + mods[w.stat]) / 20, (w.reach or 0) / 5, far / 20,
            len(w.crit) / 5, w.weapon_attacks / 2]


def _context(enc: Any, me: Any, slots: dict[str, int]) -> list[float]:
    w = enc.window
    out = [enc.round / max(1, enc.round_cap), float(me.side == enc.active_side),
           float(enc.current_actor() == me.id)]
    if w is None:
        out += _hot(0, len(PHASES)) + [0.0] * (2 * SLOTS + 12)
        return out
    kind = w.kind
    out += _hot(PHASES.index(kind) if kind in PHASES else len(PHASES) - 1, len(PHASES))
    info = dict(w.info)
    attacker: Any = info.get("attacker", w.actor if kind == "exert_dmg" else None)
    target: Any = info.get("target", w.actor if kind in ("declare", "dodge", "crit") else None)
    out += _hot(slots.get(attacker, -1), SLOTS) + _hot(slots.get(target, -1), SLOTS)
    total = info.get("total")
    t = enc.by_id.get(target) if target is not None else None
    defense = t.profile.defense if t is not None else None
    roll = info.get("roll")
    out += [(total or 0) / 40, info.get("against", 0) / 40,
            ((total - defense) / 20) if total is not None and defense is not None else 0.0,
            info.get("amount", 0) / 40, info.get("guard", 0) / 10,
            float(bool(info.get("ranged"))), float(bool(info.get("area"))),
            float(kind == "crit")]
    out += _hot({"hit": 0, "parry": 1, "dodge": 2}.get(roll, 3), 4) if roll else [0.0] * 4
    return out


def _self(enc: Any, f: Any) -> list[float]:
    prof = f.profile
    span = max(1, prof.max_hp - prof.pnr)
    used = f.used
    ok = spendable(f)
    blocked = sum(1 for a in "PDMB" if a not in used and a not in ok)
    mods = f.mods()
    out = [prof.level / 30, f.hp / max(1, prof.max_hp), (f.hp - prof.pnr) / span,
           f.mana / max(1, prof.max_mana), f.guard / 10, f.dice / 8,
           f.reactions / 3, *(float(a in used) for a in "PDMB"),
           float(f.pool_open), f.pool_general / 4,
           sum(f.pool_weapon.values()) / 4,
           *_hot(MOVE_MODES.index(f.mode), 4), f.budget / 10,
           f.mr / 5, float(f.aim_active), float(f.aim_round == enc.round),
           f.free_hands / 2, blocked / 4, *_conditions(f, True),
           (prof.level + prof.attacks) / 10, prof.defense / 30, dodge_bonus(enc, f) / 20,
           (mods["might"] + prof.attacks + prof.sn) / 20,
           (mods["skill"] + prof.attacks + 16 - prof.sn) / 20,
           (mods["magic"] + prof.mana_scaling) / 20,
           f.block_guard() / 10, prof.size_index / 10,
           *_weapon(f, "main", mods), *_weapon(f, "off", mods)]
    return out


def _slot(enc: Any, me: Any, g: Any, reach: dict[str, list[str]], flankers: list[Any]
          ) -> list[float]:
    """``SLOT_FEATURES`` of ``g`` seen by ``me``; ``flankers``: the members of ``me``'s side
    but ``me`` that can flank (alive, not Paralyzed or worse), read once per observation."""
    cid = g.id
    prof = g.profile
    ally = g.side == me.side
    gx, gy, gn = g.x, g.y, g.n
    dx, dy, d = gx - me.x, gy - me.y, dist(me, g)
    flank = 0
    for o in flankers:
        if distance(o.pos, o.n, (gx, gy), gn) <= 1:
            flank += 1
    odds: list[float] = []
    live = me.alive and g.alive
    main, off = reach.get("main", ()), reach.get("off", ())
    if live and not ally and (cid in main or cid in off):
        for slot, near in (("main", main), ("off", off)):
            pv = preview_attack(enc, me.id, slot, cid) if cid in near else None
            odds += [0.0, 0.0] if pv is None else [pv.hit, pv.expected_damage / 20]
    else:
        odds = _NO_ODDS
    wid = weapon_in(g, "main")
    mean = 0.0
    mods = g.mods()
    if wid is not None:
        w = prof.weapon(wid)
        mean = (w.mean_dice + mods[w.stat]) / 20
    return [1.0, float(g.alive), float(enc.is_active(cid)), float(ally),
            dx / 16, dy / 16, d / 16, float(d <= 1),
            float(cid in main), float(cid in off),
            float(sees(enc, me, g)),
            flank / 4, g.hp / max(1, prof.max_hp), float(g.hp <= 0),
            g.guard / 10, g.reactions / 3, *_conditions(g, False),
            prof.size_index / 10, gn / 4, prof.defense / 30,
            dodge_bonus(enc, g) / 20, (mods["might"] + prof.attacks + prof.sn) / 20,
            (mods["skill"] + prof.attacks + 16 - prof.sn) / 20, mean,
            float(cid in me.grips), float(me.id in g.grips),
            float(live and charge_ready(enc, me, g)), *odds]


_NO_ODDS = [0.0] * 4


def observe(enc: Any, combatant: str, slots: list[str | None]) -> np.ndarray:
    """The observation of ``combatant``; ``slots``: its ego slots (``SizeboundEncoding.ego``).

    Sizebound has no hidden information (``public_view``): the features are read from the same
    state and public previews the view is built from, without building the view's dicts."""
    me = enc.by_id[combatant]
    index = {c: i for i, c in enumerate(slots) if c is not None}
    vec = OBS.new()
    try:
        enc.active_side  # noqa: B018
    except IndexError:
        if enc.outcome() is None:
            raise
        # the team-turn slot runs past the order once the round cap has ended the fight: the
        # last observation is the round and the map only
        vec[0] = 1.0
        map_planes(enc, me, vec[_MAP:])
        return vec
    reach = in_reach(enc, combatant) if me.alive else {}
    row = _context(enc, me, index) + _self(enc, me)
    side = me.side
    flankers = [o for o in enc.fighters if o.side == side and o is not me and o.alive
                and o.action_rung < 4]
    by_id = enc.by_id
    for cid in slots[1:]:
        row += _slot(enc, me, by_id[cid], reach, flankers) if cid is not None else _EMPTY_SLOT
    vec[:_MAP] = row
    map_planes(enc, me, vec[_MAP:])
    np.minimum(vec, 1.0, out=vec)  # the features are written unclipped, clipped here at once
    np.maximum(vec, -1.0, out=vec)
    return vec


_MAP = OBS["map"].start
"""the offset of the map planes: every part before them is written as one row of floats"""
_EMPTY_SLOT = [0.0] * SLOT_SIZE
