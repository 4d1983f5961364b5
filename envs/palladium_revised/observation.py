"""Palladium Revised observation (spec §12.5): the named feature tables and ``observe``.

Float32, every value in [-1, 1]. Nothing is hidden (spec §12.3: every total is public once
rolled; ``public_view`` shows every combatant whole), so the features are read straight from the
state the public view is built from, one Python list assigned once:

* ``global`` (``GLOBAL_FEATURES``): the clock (round, Second, ``t_abs``, pass, Seconds to the
  next Wound tick), the decision one-hot (TURN, COMMITTED, DEFENSE, OPPORTUNITY, SAVE,
  POST_ROLL, spec §4.8), who decides and whose turn it is (ego slots), the free actions used
  this turn, the pending attack (attacker, ``S0``, natural, melee or ranged, crit range, the
  weapon's mean damage, and for the defender the engine's ``preview_defense``: Dodge and Parry
  odds, the slot a Dodge costs), the opportunity window (mover, distance) and the post-roll
  block (FULL, zeros until the engine has it);
* ``slot0`` .. ``slot7`` (``SLOT_FEATURES``, ego slots: self, 3 allies, 4 enemies, the action
  layout's target slots): presence, side and state, the battle line (position, offset, distance,
  the band by each one's radii, who is in whose Zone, the radii), weapons reaching both ways,
  S.D.C./H.P./armour/pools, the action economy and the TIMELINE AHEAD (``free`` and
  ``reserved``: its slots still to come in each Second 1..15 of this round), bonuses, reach and
  range, conditions;
* ``weapons`` (``WEAPON_FEATURES`` per weapon slot: first, second, unarmed): the observer's own.

``obs_features()`` lists every feature with its offset and range (``arena layout
palladium_revised --obs``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.rl import ObsSpec
from envs.rl.features import feature_rows, table_size

from .rules import preview_defense
from .rules.movement import reaches
from .rules.profile import band
from .rules.slots import AVAILABLE, RESERVED

__all__ = ["MAX_PER_SIDE", "SLOTS", "PHASES", "GLOBAL_FEATURES", "SLOT_FEATURES",
           "WEAPON_FEATURES", "OBS", "obs_features", "observe"]

MAX_PER_SIDE = 4
SLOTS = 2 * MAX_PER_SIDE
"""ego slots: self, up to 3 allies, up to 4 enemies (``goblin_pack`` has 4 goblins)"""
PHASES = ("turn", "committed", "defense", "opportunity", "save", "post_roll")
STATES = ("active", "coma", "dead")
SECONDS = 15
GLOBAL_FEATURES = (
    ("round", 1),          # round / round limit
    ("second", 1),         # Second / 15
    ("t_abs", 1),          # / 300
    ("pass", 1),           # current pass / 2
    ("wound_tick", 1),     # Seconds until the next Wound tick / 3
    ("phase", len(PHASES)),
    ("deciding", 1),       # I decide
    ("actor", SLOTS),      # ego slot of the one deciding
    ("turn_owner", SLOTS),  # ego slot of the one whose turn is open
    ("free_used", 3),      # step, morale_boost, drop used this turn
    ("attacker", SLOTS),   # DEFENSE: the striker's slot
    ("attack", 5),         # S0 / 30, natural / 20, ranged, natural in crit range, mean dmg / 20
    ("defense_odds", 4),   # (the defender) Dodge makes it miss, Parry mitigates, Dodge costs
                           # the slot in Second / 15, a Dodge can be paid
    ("mover", SLOTS),      # OPPORTUNITY: the mover's slot
    ("opportunity", 1),    # its distance / 60
    ("save", SLOTS + 1),   # FULL SAVE: the slot of the one it is against, the check / 30
    ("post_roll", 4),      # FULL POST_ROLL: own total / 30, opposing total / 30, margin / 10,
                           # it is a Strike's roll
)
SLOT_FEATURES = (
    ("present", 1),
    ("relation", 3),       # self, ally, enemy
    ("state", len(STATES)),
    ("x", 1),              # x / L
    ("home", 1),           # distance to its side's home edge / L
    ("offset", 1),         # its x - my x, / 60
    ("distance", 1),       # / 60
    ("band_mine", 5),      # band of the distance by my radii (G, C, M, R, outside)
    ("band_its", 5),       # by its radii
    ("in_zone", 2),        # it is in my Zone of Control, I am in its
    ("my_reach", 3),       # my weapon slot k reaches it now
    ("its_reach", 1),      # one of its weapons reaches me now
    ("health", 5),         # S.D.C./max, H.P./base, H.P. at or below 0, armour S.D.C./max, AR/20
    ("pools", 4),          # Stamina/max, Morale/max, E.E./max, Wounds / 20
    ("economy", 6),        # free slots left / 15, Seconds to its next slot / 15, initiative
                           # place / 8, reserved / 5, carry-over / 5, committed
    ("free", SECONDS),     # its AVAILABLE slots still to come this round, per Second
    ("reserved", SECONDS),  # its RESERVED slots still to come, per Second
    ("status", 8),         # defending, resting, rest Seconds / 5, Multi-Dodge window, its
                           # total / 30, Step budget / 20, Full Move / 100, Morale boost pending
    ("conditions", 12),    # Closing Wounds X / 5, Exhaustion, Fatigued, Depression / 10,
                           # insanity / 20, Concussion, Dazed, Internal Bleeding (/ 5),
                           # Crippled right leg, left leg, left arm, right arm (/ 5)
    ("full", 24),          # FULL effects: Power Draw X / 5, Ward shield / 20, Empowered Body,
                           # Enduring Heal, Focused Healing, Recovery / 5, Ignite, Numbing / 15,
                           # Soaked / 10, Stunned / 20, Prone, Taunt stacks / 5, taunted by me,
                           # Distract, distracted by me, Lung Crush, Blood Vision, Racing Heart
                           # (/ 5), Heartbeat, Exposure, Broken Resistance, Vital Blow / 5,
                           # surprised, S.E. / max
    ("actions", 1),        # N / 15 (the stat block from here on)
    ("radii", 4),          # its G, C, M, R radii / 20
    ("zoc", 2),            # its Zone of Control radius / 20, band / 4
    ("bonuses", 7),        # init, strike, parry, dodge, maneuver, damage / 10; crit min / 20
    ("arms", 3),           # longest melee reach band / 4, has a ranged weapon, range / 480
)
WEAPON_FEATURES = (
    ("present", 1), ("ranged", 1), ("reach", 1),  # reach band / 4
    ("short", 1), ("damage", 1),  # mean dice / 20
    ("range", 1), ("ammo", 1),    # ft / 480, shots left / 10
    ("cost", 1), ("two_handed", 1),
)
SLOT_SIZE = table_size(SLOT_FEATURES)
WEAPON_SIZE = table_size(WEAPON_FEATURES)
OBS = ObsSpec([
    ("global", table_size(GLOBAL_FEATURES)),
    *((f"slot{i}", SLOT_SIZE) for i in range(SLOTS)),
    ("weapons", 3 * WEAPON_SIZE),
])
_GLOBAL_SIZE = table_size(GLOBAL_FEATURES)
_TAIL = ("actions", "radii", "zoc", "bonuses", "arms")
"""the stat block's part of a slot row (the same for every observation)"""
_ROW_SIZE = SLOT_SIZE - table_size(tuple(f for f in SLOT_FEATURES if f[0] in _TAIL))
_EMPTY_WEAPON = [0.0] * WEAPON_SIZE


def obs_features() -> list[tuple[str, int, int, float, float]]:
    """Every observation feature as ``(name, offset, size, low, high)``, in vector order."""
    weapons = tuple((f"{k}.{f}", n) for k in ("first", "second", "unarmed")
                    for f, n in WEAPON_FEATURES)
    return feature_rows(OBS, {"global": GLOBAL_FEATURES, "slot": SLOT_FEATURES,
                              "weapons": weapons})


def _hot(i: int, n: int) -> list[float]:
    out = [0.0] * n
    if 0 <= i < n:
        out[i] = 1.0
    return out


_PHASE = {p: _hot(i, len(PHASES)) for i, p in enumerate(PHASES)}
_STATE = {s: _hot(i, len(STATES)) for i, s in enumerate(STATES)}
_BAND = {b: _hot(b - 1, 5) for b in range(1, 6)}
_REL = (_hot(0, 3), _hot(1, 3), _hot(2, 3))
_NO_STATE = _hot(-1, len(STATES))


def _global(enc: Any, me: Any, index: dict[str, int]) -> list[float]:
    s = enc.second
    actor = enc.current_actor()
    used = enc.free_used
    w = enc.window
    info = dict(w.info) if w is not None else {}
    kind = enc.decision
    out = [enc.round / max(1, enc.options.max_rounds), s / SECONDS, enc.t_abs / 300,
           enc.pass_no / 2, (3 - s % 3) / 3 if s else 1.0,
           *_PHASE.get(kind, _hot(-1, len(PHASES))), float(actor == me.id),
           *_hot(index.get(actor, -1) if actor is not None else -1, SLOTS),
           *_hot(index.get(enc.turn, -1) if enc.turn is not None else -1, SLOTS),
           float("step" in used), float("morale_boost" in used), float("drop" in used)]
    if kind == "defense":
        a = enc.by_id[info["attacker"]]
        arms = {w.id: w for w in a.profile.weapons}
        weapon = arms.get(info.get("weapon", ""))  # a spell strike names its spell
        out += _hot(index.get(a.id, -1), SLOTS)
        out += [info["s0"] / 30, info.get("nat", 0) / 20, float(bool(info.get("ranged"))),
                float(bool(info.get("crit_range"))),
                float(weapon.mean) / 20 if weapon is not None else 0.0]
        if actor == me.id:
            p = preview_defense(enc, me.id, info["s0"], bool(info.get("ranged")))
            out += [p.dodge_miss, p.parry_mitigates,
                    p.dodge_slot[0] / SECONDS if p.dodge_slot else 0.0, float(p.can_dodge)]
        else:
            out += [0.0] * 4
    else:
        out += [0.0] * (SLOTS + 9)
    if kind == "opportunity":
        out += _hot(index.get(info["mover"], -1), SLOTS)
        out.append(info["distance"] / 60)
    else:
        out += [0.0] * (SLOTS + 1)
    if kind == "save":
        out += _hot(index.get(info.get("against", ""), -1), SLOTS)
        out.append(info.get("check", 0) / 30)
    else:
        out += [0.0] * (SLOTS + 1)
    if kind == "post_roll":
        own = info.get("own", 0)
        other = info.get("other", 0)
        return out + [own / 30, other / 30, (own - other) / 10,
                      float(info.get("roll") == "strike")]
    return out + [0.0, 0.0, 0.0, 0.0]


def _timeline(enc: Any, o: Any, rank: int) -> tuple[list[float], list[float], int, int]:
    """``(free per Second, reserved per Second, free slots left, Seconds to the next slot)``:
    ``o``'s slots of this round still in the future of the cursor (spec §4.3); ``rank``:
    ``enc.init_index(o.id)``."""
    free = [0.0] * SECONDS
    held = [0.0] * SECONDS
    cur = enc.cursor
    left = 0
    nxt = -1
    for (s, k), st in zip(o.slot_at, o.slot_state, strict=True):
        if (st == AVAILABLE or st == RESERVED) and (s, k, rank) > cur:
            if st == AVAILABLE:
                free[s - 1] = min(1.0, free[s - 1] + 0.5)
                left += 1
            else:
                held[s - 1] = min(1.0, held[s - 1] + 0.5)
            if nxt < 0:
                nxt = s - enc.second
    return free, held, left, nxt


_NO_FULL = [0.0] * 24


def _full(fx: Any, me: str, p: Any) -> list[float]:
    taunt, distract = fx.taunt, fx.distract
    return [fx.power_draw[0] / 5 if fx.power_draw else 0.0, fx.ward[0] / 20 if fx.ward else 0.0,
            float(fx.empowered is not None), float(fx.enduring is not None),
            float(fx.focused is not None), fx.recovery / 5, float(fx.ignite is not None),
            len(fx.numbing) / 15, len(fx.soaked) / 10, len(fx.stunned) / 20, float(fx.prone),
            len(taunt[1]) / 5 if taunt else 0.0, float(bool(taunt) and taunt[0] == me),
            float(distract is not None), float(bool(distract) and distract[0] == me),
            fx.lung_crush / 5, fx.blood_vision / 5, fx.racing_heart / 5,
            float(fx.heartbeat is not None), float(fx.exposure is not None),
            float(fx.broken_resistance is not None), len(fx.vital_blow) / 5,
            float(fx.surprised), fx.se / p.se_max if getattr(p, "se_max", 0) else 0.0]


class _Static:
    """What a stat block gives every observation (computed once per ``Profile``): the constant
    tail of a slot row, the band of each distance up to the Reach radius, and per weapon slot
    whether it reaches each of those distances (beyond them only a ranged weapon does)."""

    __slots__ = ("profile", "tail", "bands", "reach", "ranged", "any_reach", "arms", "ammo",
                 "hp_div", "armor_div", "stamina_div", "morale_div", "my_reaches")

    def __init__(self, p: Any) -> None:
        self.profile = p
        self.hp_div, self.armor_div = max(1, p.hp_base), max(1, p.armor_sdc)
        self.stamina_div, self.morale_div = max(1, p.stamina_max), max(1, p.morale_max)
        melee = [w.reach for w in p.weapons if not w.ranged]
        ranged = [w.max_range for w in p.weapons if w.ranged]
        self.tail = np.array([p.actions / SECONDS, *(r / 20 for r in p.radii),
                              p.zoc_radius / 20, p.zoc_band / 4, p.init / 10, p.strike / 10,
                              p.parry / 10, p.dodge / 10, p.maneuver / 10, p.damage / 10,
                              p.crit_min / 20, max(melee, default=0) / 4, float(bool(ranged)),
                              max(ranged, default=0) / 480], dtype=np.float32)
        far = p.radii[3]
        self.bands = [band(p.radii, d) for d in range(far + 1)]
        slots: list[Any] = [None, None, None]
        k = 0
        for w in p.weapons:
            if w.id == "unarmed":
                slots[2] = w
            elif k < 2:
                slots[k] = w
                k += 1
        self.arms: list[float] = []
        self.ammo: list[tuple[int, str]] = []  # (offset in ``arms``, weapon id) of the shots
        for w in slots:
            if w is None:
                self.arms += _EMPTY_WEAPON
                continue
            if w.ammo is not None:
                self.ammo.append((len(self.arms) + 6, w.id))
            self.arms += [1.0, float(w.ranged), w.reach / 4, float(w.short),
                          float(w.mean) / 20, w.max_range / 480, 0.0, w.cost / 2,
                          float(w.hands >= 2)]
        probe: Any = _Probe(p)
        self.reach = [[w is not None and reaches(w, probe, d) for d in range(far + 1)]
                      for w in slots]
        self.ranged = [w.max_range if w is not None and w.ranged else -1 for w in slots]
        self.any_reach = [any(r[d] for r in self.reach) or
                          any(reaches(w, probe, d) for w in p.weapons) for d in range(far + 1)]
        self.my_reaches = [[float(r[d]) for r in self.reach] for d in range(far + 1)]

    def band(self, d: int) -> int:
        return self.bands[d] if d < len(self.bands) else 5

    def my_reach(self, d: int) -> list[float]:
        if d < len(self.bands):
            return self.my_reaches[d]
        return [float(0 <= d <= m) for m in self.ranged]

    def reaches_at(self, d: int) -> bool:
        if d < len(self.bands):
            return self.any_reach[d]
        return any(0 <= d <= m for m in self.ranged) or any(
            w.ranged and d <= w.max_range for w in self.profile.weapons)


class _Probe:
    """A stand-in wielder for ``movement.reaches`` (it reads only the radii)."""

    __slots__ = ("profile",)

    def __init__(self, p: Any) -> None:
        self.profile = p


_STATIC: dict[int, _Static] = {}


def _static(p: Any) -> _Static:
    found = _STATIC.get(id(p))
    if found is None or found.profile is not p:
        if len(_STATIC) > 4096:
            _STATIC.clear()
        found = _STATIC[id(p)] = _Static(p)
    return found


def _slot(enc: Any, me: Any, mine: _Static, o: Any, st: _Static, slot: int, length: int
          ) -> list[float]:
    """The slot row of ``o`` up to its stat block's constant tail (``st.tail``)."""
    p = o.profile
    d = o.x - me.x
    if d < 0:
        d = -d
    rel = 0 if slot == 0 else (1 if o.side == me.side else 2)
    if rel == 2:
        my_reach = mine.my_reach(d)
        its_reach = float(o.active and st.reaches_at(d))
    else:
        my_reach = [0.0, 0.0, 0.0]
        its_reach = 0.0
    bands = mine.bands
    bm = bands[d] if d < len(bands) else 5
    bands = st.bands
    bi = bands[d] if d < len(bands) else 5
    home = o.x if enc.home[o.side] < 0 else length - o.x
    order = enc.order
    placed = o.id in order
    at = order.index(o.id) if placed else -1
    free, held, left, nxt = _timeline(enc, o, at if placed else len(enc.combatants) + 1)
    rank = at if placed else SLOTS
    cw = o.closing[0] if o.closing else 0
    cr = o.crippled
    ee_max = p.ee_max
    fx = getattr(o, "fx", None)
    ee = fx.ee if fx is not None else ee_max
    md = o.multidodge
    active = o.active
    return [
        1.0, *_REL[rel], *_STATE.get(o.state, _NO_STATE),
        o.x / length, home / length, (o.x - me.x) / 60, d / 60, *_BAND[bm], *_BAND[bi],
        float(active and bm <= me.profile.zoc_band and slot != 0),
        float(active and bi <= p.zoc_band and slot != 0),
        *my_reach, its_reach,
        o.sdc / max(1, o.sdc_max), o.hp / st.hp_div, float(o.hp <= 0),
        o.armor_sdc / st.armor_div, p.ar / 20,
        o.stamina / st.stamina_div, o.morale / st.morale_div,
        ee / ee_max if ee_max else 0.0, o.wounds / 20,
        left / SECONDS, nxt / SECONDS if nxt >= 0 else 1.0,
        rank / SLOTS, o.slot_state.count(RESERVED) / 5, o.carry_over / 5,
        float(o.commitment is not None),
        *free, *held,
        float(o.defending), float(o.resting), o.rest_seconds / 5, float(md is not None),
        (md or 0) / 30, o.step_budget / 20, o.full_move_ft() / 100, float(o.boost_pending),
        cw / 5, float(o.exhausted), float(o.fatigued), o.depression / 10, o.insanity / 20,
        o.concussion / 5, o.dazed / 5, o.internal_bleeding / 5,
        cr["leg_right"] / 5, cr["leg_left"] / 5, cr["arm_left"] / 5, cr["arm_right"] / 5,
        *(_NO_FULL if fx is None else _full(fx, me.id, p)),
    ]


def _weapons(me: Any, mine: _Static) -> list[float]:
    """The observer's weapon slots (``mine.arms``), with the shots left of a ranged one."""
    if not mine.ammo:
        return mine.arms
    out = list(mine.arms)
    for at, wid in mine.ammo:
        out[at] = me.ammo.get(wid, 0) / 10
    return out


def observe(enc: Any, combatant: str, ego: tuple[dict[str, int], list[str | None]]
            ) -> np.ndarray:
    """The observation of ``combatant``; ``ego``: its ego slots (``PalladiumEncoding.ego``).
    The vector starts as zeros (an empty slot stays so); each present slot's row is written
    in place, its stat block's tail from the float32 copy made once per ``Profile``."""
    index, slots = ego
    me = enc.by_id[combatant]
    length = max(1, enc.options.arena_length)
    vec = np.zeros(OBS.size, dtype=np.float32)
    vec[:_GLOBAL_SIZE] = _global(enc, me, index)
    mine = _static(me.profile)
    by_id = enc.by_id
    at = _GLOBAL_SIZE
    for i, cid in enumerate(slots):
        if cid is not None:
            o = by_id[cid]
            st = _static(o.profile)
            vec[at:at + _ROW_SIZE] = _slot(enc, me, mine, o, st, i, length)
            vec[at + _ROW_SIZE:at + SLOT_SIZE] = st.tail
        at += SLOT_SIZE
    vec[at:] = _weapons(me, mine)
    np.clip(vec, -1.0, 1.0, out=vec)
    return vec
