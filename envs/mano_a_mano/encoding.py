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

The observation (named feature tables, ``obs_features()``) is ``envs.mano_a_mano.observation``;
its names are re-exported here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core import Action
from envs.core.hexgrid import neighbor
from envs.rl import ActionLayout, Block, ego_order

from .observation import (
    HEALTH,
    MAX_PER_SIDE,
    OBS,
    PHASES,
    SLOT_FEATURES,
    SLOT_SIZE,
    SLOTS,
    TURN_FEATURES,
    obs_features,
    observe,
)
from .rules.state import STANCES, ManoEncounter

__all__ = [
    "NAME",
    "LAYOUT",
    "ENCODING",
    "ManoEncoding",
    "HEALTH",
    "OBS",
    "PHASES",
    "SLOT_FEATURES",
    "SLOT_SIZE",
    "TURN_FEATURES",
    "obs_features",
]

_EGO: dict[tuple[Any, str], tuple[dict[str, int], list[str | None]]] = {}
"""ego slots per (roster, combatant): rosters never change during a fight"""

NAME = "mano_a_mano_v1"
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
_STRIDES = {b.name: LAYOUT.strides(b.name) for b in LAYOUT.blocks}


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
        """``combatant``'s observation (``envs.mano_a_mano.observation``)."""
        return observe(enc, combatant, self.ego(enc, combatant)[1])



_SINGLE_INDEX = {k: i for i, k in enumerate(SINGLES)}
_SINGLE_INDEX = {k: i for i, k in enumerate(SINGLES)}


ENCODING = ManoEncoding()
