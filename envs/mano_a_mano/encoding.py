"""Mano a Mano observation and action encoding (spec §12.3, adapted to the engine's action set).

Ego-centric slots: 0 = self, 1..3 = allies in roster order, 4..7 = enemies in roster order (zero
padded). Targets are ego slots. Weapon slots (RULING R11 identities): 0 the right hand (its item,
else the bare hand), 1 the left hand (likewise), 2..5 the other natural weapons in template order,
then "body". Armor option: 0 none, 1 ``avoid_next``, 2 ``avoid_all`` (the compact layout of spec
§12.3, rule option ``armor_levels: compact``; the deeper ``avoid_N`` of ``any`` have no index).
``arena layout mano_a_mano`` prints the table::

    single     end, counter, rest, drop, stand, instant_stand, draw, aim, relax, dismount,
               load, unload                         (guns, spec §5.6, RULING R50)
    move       dir(6)                               hex directions, clockwise from east
    ready      stowed(2)                            k-th distinct stowed item
    pick_up    where(7) x item(2)                   own hex, then the neighbour in direction
                                                    where-1; item: the top two of the pile
                                                    (ManoEncounter.floor_choices)
    drop_item  hand(3)                              right, left, both
    strike     verb(4) x weapon(6) x target(8) x armor(3)   quick, strategic, cautious, powerful
    throw      verb(3) x hand(3) x target(8) x armor(3)     quick, powerful, heave
    shoot      verb(4) x target(8) x armor(3)       quick, strategic, cautious, draw_and_fire
    push       dir(6) x target(8)
    grapple    verb(6) x target(8) x armor(3)       hold, trip, slam, slam_onto, wrench, choke
    disarm     target(8) x hand(3)
    cover, release, delay, mount   target(8)
    choose     option(8)                            hold_dominant, release, follow_to_ground,
                                                    let_go, keep, stance_none, stance_evade,
                                                    stance_counter

Every block encodes through the layout: ``encode_actions`` names each action's block and
coordinates, and the index is ``start + sum(coordinate * place value)`` (``ActionLayout.strides``);
``decode_action`` reads the coordinates back with ``ActionLayout.coords``.

Observation (float32 in [-1, 1]), as named tables: one ``SLOT_FEATURES`` row per slot (relative
hex offset and distance, stance, health, harm, defenses, best weapon, armor, counter / cover / aim
/ bow, the grapple relation with the observer, mounted / ridden, its reach and whether it can
strike the observer or be struck by it, its held gun's shots, clip and reload), the round, the
decision ``PHASES``, the observer's turn budget (``TURN_FEATURES``) and the six hexes around it
(free, wall, occupied). ``obs_features()`` lists every feature with its offset and range.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core import Action
from envs.core.hexgrid import neighbor
from envs.rl import ActionLayout, Block, ObsSpec, ego_order
from envs.rl.features import feature_rows, table_size

from .rules.catalogue import block_memo
from .rules.resolution import health as R_health
from .rules.state import STANCES, ManoEncounter

_EGO: dict[tuple[Any, str], tuple[dict[str, int], list[str | None]]] = {}
"""ego slots per (roster, combatant): rosters never change during a fight"""
_AROUND_MEMO: dict[int, tuple[Any, dict[tuple[int, int], tuple[float, ...]]]] = {}
"""per map (by identity, kept alive here): the free/wall/occupied features around each hex"""

NAME = "mano_a_mano_v1"
MAX_PER_SIDE = 4
SLOTS = 2 * MAX_PER_SIDE
WEAPON_SLOTS = 6
SINGLES = ("end", "counter", "rest", "drop", "stand", "instant_stand", "draw", "aim", "relax",
           "dismount", "load", "unload")
STRIKES = ("quick", "strategic", "cautious", "powerful")
THROWS = ("quick", "powerful", "heave")
SHOTS = ("quick", "strategic", "cautious", "draw_and_fire")
GRAPPLES = ("hold", "trip", "slam", "slam_onto", "wrench", "choke")
HANDS = ("right", "left", "both")
ARMOR = (None, "avoid_next", "avoid_all")
CHOICES = ("hold_dominant", "release", "follow_to_ground", "let_go", "keep", *STANCES)
HEALTH = ("healthy", "injured", "incapacitated", "incapacitated_by_damage")

LAYOUT = ActionLayout([
    Block("single", (("kind", len(SINGLES)),)),
    Block("move", (("dir", 6),)),
    Block("ready", (("stowed", 2),)),
    Block("pick_up", (("where", 7), ("item", 2))),
    Block("drop_item", (("hand", 3),)),
    Block("strike", (("verb", 4), ("weapon", WEAPON_SLOTS), ("target", SLOTS), ("armor", 3))),
    Block("throw", (("verb", 3), ("hand", 3), ("target", SLOTS), ("armor", 3))),
    Block("shoot", (("verb", 4), ("target", SLOTS), ("armor", 3))),
    Block("push", (("dir", 6), ("target", SLOTS))),
    Block("grapple", (("verb", 6), ("target", SLOTS), ("armor", 3))),
    Block("disarm", (("target", SLOTS), ("hand", 3))),
    Block("cover", (("target", SLOTS),)),
    Block("release", (("target", SLOTS),)),
    Block("delay", (("target", SLOTS),)),
    Block("mount", (("target", SLOTS),)),
    Block("choose", (("option", len(CHOICES)),)),
])

# per-slot features, in order (``ManoEncoding._slot`` writes them; the rest of a row is zero)
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
_STRIDES = {b.name: LAYOUT.strides(b.name) for b in LAYOUT.blocks}


def obs_features() -> list[tuple[str, int, int, float, float]]:
    """Every observation feature as ``(name, offset, size, low, high)``, in vector order
    (``slot3.offset``, ``phase``, ``turn.move_points``, ``around[2].wall``...)."""
    around = tuple((f"[{d}].{f}", 1) for d in range(6) for f in ("free", "wall", "occupied"))
    rows = feature_rows(OBS, {"slot": SLOT_FEATURES, "turn": TURN_FEATURES, "around": around})
    return [(n.replace("around.[", "around["), o, k, lo, hi) for n, o, k, lo, hi in rows]


def _clip(x: float) -> float:
    return -1.0 if x < -1 else (1.0 if x > 1 else float(x))


class ManoEncoding:
    """The ``SystemEncoding`` of Mano a Mano (see the module docstring)."""

    name = NAME
    layout = LAYOUT
    obs_spec = OBS
    max_per_side = MAX_PER_SIDE

    # ------------------------------------------------------------------ slots
    def ego(self, enc: ManoEncounter, cid: str) -> tuple[dict[str, int], list[str | None]]:
        """``({id: slot}, [id or None per slot])`` seen from ``cid``; rosters never change during a
        fight, so the answer is kept per roster (``enc.roster``) and combatant."""
        key = (enc.roster, cid)
        found = _EGO.get(key)
        if found is None:
            if len(_EGO) > 20_000:  # many rosters in one process: start over
                _EGO.clear()
            found = _EGO[key] = self._ego(enc, cid)
        return found

    @staticmethod
    def _ego(enc: ManoEncounter, cid: str) -> tuple[dict[str, int], list[str | None]]:
        me, allies, enemies = ego_order(enc, cid, MAX_PER_SIDE)
        slots: list[str | None] = [me, *allies, *enemies]
        return {c: i for i, c in enumerate(slots) if c is not None}, slots

    @staticmethod
    def weapon_slots(f: Any) -> list[str | None]:
        """Weapon identity per slot (see the module docstring)."""
        held = f.held
        slots: list[str | None] = []
        for hand in ("right", "left"):
            item = held.get(hand) or (held.get("both") if hand == "right" else None)
            if item is not None:
                held_in = hand if hand in held else "both"
                slots.append(None if f.block.items[item].missile else f.weapon_id(held_in))
            elif "both" in held:
                slots.append(None)
            else:
                natural = f.block.natural_weapons
                slots.append(next((w.name for w in natural
                                   if w.hand and w.name.startswith(hand)), None))
        others = [w.name for w in f.block.natural_weapons if not w.hand and not w.unlisted]
        if any(w.unlisted for w in f.block.natural_weapons):
            others.append("body")
        slots += others[: WEAPON_SLOTS - 2]
        return slots + [None] * (WEAPON_SLOTS - len(slots))

    # ------------------------------------------------------------------ actions
    def encode_action(self, enc: ManoEncounter, combatant: str, a: Action) -> int:
        return self.encode_actions(enc, combatant, (a,))[0]

    def encode_actions(self, enc: ManoEncounter, combatant: str, actions: Any) -> list[int]:
        """Indices of ``actions`` (all of ``combatant``), with the ego slots and weapon slots
        looked up once.

        Each kind names its block and coordinates; the index is the layout's
        ``start + sum(coordinate * place value)`` (``ActionLayout.strides``).
        """
        st = _STRIDES
        f = enc.by_id[combatant]
        index, _ = self.ego(enc, combatant)
        weapons = None
        out: list[int] = []
        for a in actions:
            k, args = a.kind, a.args
            if k == "strike":
                if weapons is None:
                    weapons = {w: i for i, w in reversed(list(enumerate(self.weapon_slots(f))))}
                start, (k_v, k_w, k_t, k_a) = st["strike"]
                armor = ARMOR.index(args[2]) if len(args) > 2 else 0
                out.append(start + STRIKES.index(args[0]) * k_v + weapons[args[1]] * k_w
                           + index[a.target] * k_t + armor * k_a)
            elif k == "move":
                out.append(st["move"][0] + int(args[0]))
            elif k in _SINGLE_INDEX:
                out.append(st["single"][0] + _SINGLE_INDEX[k])
            elif k == "grapple":
                verb = args[0]
                if verb == "push":
                    start, (k_d, k_t) = st["push"]
                    out.append(start + int(args[1]) * k_d + index[a.target] * k_t)
                elif verb == "disarm":
                    start, (k_t, k_h) = st["disarm"]
                    out.append(start + index[a.target] * k_t + HANDS.index(args[1]) * k_h)
                else:
                    start, (k_v, k_t, k_a) = st["grapple"]
                    armor = ARMOR.index(args[1]) if len(args) > 1 else 0
                    out.append(start + GRAPPLES.index(verb) * k_v + index[a.target] * k_t
                               + armor * k_a)
            elif k == "throw":
                start, (k_v, k_h, k_t, k_a) = st["throw"]
                armor = ARMOR.index(args[2]) if len(args) > 2 else 0
                out.append(start + THROWS.index(args[0]) * k_v + HANDS.index(args[1]) * k_h
                           + index[a.target] * k_t + armor * k_a)
            elif k == "shoot":
                start, (k_v, k_t, k_a) = st["shoot"]
                armor = ARMOR.index(args[1]) if len(args) > 1 else 0
                out.append(start + SHOTS.index(args[0]) * k_v + index[a.target] * k_t
                           + armor * k_a)
            elif k in ("cover", "release", "delay", "mount"):
                start, (k_t,) = st[k]
                out.append(start + index[a.target] * k_t)
            elif k == "choose":
                out.append(st["choose"][0] + CHOICES.index(args[0]))
            elif k == "ready":
                out.append(st["ready"][0] + sorted(set(f.stowed)).index(args[0]))
            elif k == "pick_up":
                q, r = args[1].split(",")
                hx = (int(q), int(r))
                where = 0 if hx == f.hex else 1 + [neighbor(f.hex, d) for d in range(6)].index(hx)
                start, (k_w, k_i) = st["pick_up"]
                out.append(start + where * k_w + enc.floor_choices(hx).index(args[0]) * k_i)
            elif k == "drop_item":
                out.append(st["drop_item"][0] + HANDS.index(args[0]))
            else:
                raise ValueError(f"{NAME}: no index for action kind {k!r}")
        return out

    def decode_action(self, enc: ManoEncounter, combatant: str, index: int) -> Action:
        block, c = LAYOUT.coords(index)
        f = enc.by_id[combatant]
        _, slots = self.ego(enc, combatant)
        target = slots[c["target"]] or "nobody" if "target" in c else None
        armor = (ARMOR[c["armor"]],) if c.get("armor") else ()
        if block == "single":
            return Action(combatant, SINGLES[c["kind"]])
        if block == "move":
            return Action(combatant, "move", (str(c["dir"]),))
        if block == "ready":
            stowed = sorted(set(f.stowed))
            k = c["stowed"]
            return Action(combatant, "ready", (stowed[k] if k < len(stowed) else f"stowed{k}",))
        if block == "pick_up":
            hx = f.hex if c["where"] == 0 else neighbor(f.hex, c["where"] - 1)
            items = enc.floor_choices(hx)
            item = items[c["item"]] if c["item"] < len(items) else f"item{c['item']}"
            return Action(combatant, "pick_up", (item, f"{hx[0]},{hx[1]}"))
        if block == "drop_item":
            return Action(combatant, "drop_item", (HANDS[c["hand"]],))
        if block == "strike":
            weapon = self.weapon_slots(f)[c["weapon"]] or f"weapon{c['weapon']}"
            return Action(combatant, "strike", (STRIKES[c["verb"]], weapon, *armor), target)
        if block == "throw":
            return Action(combatant, "throw", (THROWS[c["verb"]], HANDS[c["hand"]], *armor), target)
        if block == "shoot":
            return Action(combatant, "shoot", (SHOTS[c["verb"]], *armor), target)
        if block == "push":
            return Action(combatant, "grapple", ("push", str(c["dir"])), target)
        if block == "grapple":
            verb = GRAPPLES[c["verb"]]
            avoids = armor if verb in ("wrench", "choke") else ()
            return Action(combatant, "grapple", (verb, *avoids), target)
        if block == "disarm":
            return Action(combatant, "grapple", ("disarm", HANDS[c["hand"]]), target)
        if block in ("cover", "release", "delay", "mount"):
            return Action(combatant, block, (), target)
        option = CHOICES[c["option"]]
        stack = enc.stack
        partner = stack[-1].partner if stack and stack[-1].actor == combatant else None
        return Action(combatant, "choose", (option,), partner)

    # ------------------------------------------------------------------ observation
    def observe(self, enc: ManoEncounter, combatant: str) -> np.ndarray:
        """The observation of ``combatant``: filled slot rows and the tail are written into a zero
        vector (empty slots and each row's padding stay zero)."""
        me = enc.by_id[combatant]
        _, slots = self.ego(enc, combatant)
        by_id = enc.by_id
        out = np.zeros(OBS.size, np.float32)
        mine = self._armed(me)[6]
        for i, cid in enumerate(slots):
            if cid is not None:
                start = i * SLOT_SIZE
                out[start:start + _ROW] = self._slot(enc, me, by_id[cid], mine)
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
        out[_AROUND:] = self._around(enc.map, me.hex)
        q, r = me.hex
        for g in enc.fighters:  # an occupied neighbour: not free, taken
            k = _DIRECTION_OF.get((g.hex[0] - q, g.hex[1] - r))
            if k is not None:
                out[_AROUND + 3 * k] = 0.0
                out[_AROUND + 3 * k + 2] = 1.0
        return out

    @staticmethod
    def _around(hexmap: Any, h: tuple[int, int]) -> tuple[float, ...]:
        """Per direction (free, wall, occupied) of the hexes around ``h`` with nobody in them; the
        terrain does not change during a fight, so the answer is kept per map (by identity, the map
        kept alive with it)."""
        entry = _AROUND_MEMO.get(id(hexmap))
        if entry is None or entry[0] is not hexmap:
            if len(_AROUND_MEMO) > 256:
                _AROUND_MEMO.clear()
            entry = _AROUND_MEMO[id(hexmap)] = (hexmap, {})
        memo = entry[1]
        found = memo.get(h)
        if found is None:
            q, r = h
            values: list[float] = []
            for dq, dr in _DIRECTIONS:
                n = (q + dq, r + dr)
                values += (float(hexmap.passable(n)), float(n in hexmap and hexmap.at(n).wall), 0.0)
            found = memo[h] = tuple(values)
        return found

    @staticmethod
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

    @staticmethod
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

    @staticmethod
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

    def _slot(self, enc: ManoEncounter, me: Any, f: Any, mine: int) -> tuple[float, ...]:
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
        melee, atk, power, sharp, blunt, padded, reach, gun = self._armed(f)
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
        tough, speed, running, missile, g_att, g_def, g_pow, absorb, cover = self._static(b)
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
            *self._gun_state(enc, f, gun),
        )


_SINGLE_INDEX = {k: i for i, k in enumerate(SINGLES)}
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


ENCODING = ManoEncoding()
