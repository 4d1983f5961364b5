"""Palladium Revised action encoding (spec §12.4, on the engine's label grammar ``rules.labels``).

``Discrete(199)``, the 199 actions of spec §12.4 in named blocks. Target slots are ego slots
(``ego_order``): 0 = self, 1..3 = allies, 4..7 = enemies, each in roster order, the same slots as
the observation's; a slot's side never changes. Weapon slots: 0 = the stat block's first weapon,
1 = its second, 2 = ``unarmed``. Spell slots 0..6: the stat block's spell list. ``arena layout
palladium_revised`` prints the table::

    0          wait       TURN/COMMITTED: Wait; DEFENSE/OPPORTUNITY/SAVE/POST_ROLL: pass
    1          defend     2 rest     3 continue     4 stand (FULL)     5 extinguish (FULL)
    6          morale_boost          7 morale_to_se (FULL)
    8..12      closing_wounds x(5)   X = 1..5
    13..17     power_draw x(5)       FULL, X = 1..5
    18..20     drop effect(3)        closing_wounds, power_draw (FULL), ward (FULL)
    21..28     defense kind(8)       parry, parry +morale, dodge, dodge +morale, multidodge stay,
                                     multidodge back, multidodge stay +morale, back +morale
    29         spend_morale (FULL)   30 escape (FULL)
    31..54     strike target(8) x weapon(3)        (OPPORTUNITY: the mover's slot)
    55..86     move target(8) x mode(4)            Full Move: engage, close, edge, away
    87..118    step target(8) x mode(4)            free Step, the same modes
    119..142   maneuver target(8) x kind(3)        FULL: taunt, distract, knockdown
    143..198   cast target(8) x spell(7)           FULL

Labels of the FULL kinds the engine has no grammar for yet (``stand``, ``extinguish``,
``morale_to_se``, ``power_draw <X>``, ``drop power_draw|ward``, ``spend_morale``, ``escape``,
``taunt|distract|knockdown -> <T>``, ``cast <spell> -> <T>``) encode and decode as written here;
they are never legal until the engine offers them. Every block encodes through the layout's place
values (``ActionLayout.strides``) and decodes through ``ActionLayout.coords``.

The observation (named feature tables, ``obs_features()``) is
``envs.palladium_revised.observation``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.core import Action
from envs.rl import ActionLayout, Block, ego_order

from .observation import MAX_PER_SIDE, OBS, SLOTS, obs_features, observe

__all__ = ["NAME", "LAYOUT", "ENCODING", "PalladiumEncoding", "SINGLES", "DEFENSES", "MODES",
           "MANEUVERS", "WEAPON_SLOTS", "SPELL_SLOTS", "weapon_slot"]

NAME = "palladium_revised_v0"
WEAPON_SLOTS = 3
"""the stat block's first and second weapon, then ``unarmed``"""
SPELL_SLOTS = 7
MODES = ("engage", "close", "edge", "away")
MANEUVERS = ("taunt", "distract", "knockdown")
SINGLES = (("defend", ()), ("rest", ()), ("continue", ()), ("stand", ()), ("extinguish", ()),
           ("morale_boost", ()), ("morale_to_se", ()))
"""indices 1..7 (spec §12.4): actions with neither argument nor target"""
DROPS = ("closing_wounds", "power_draw", "ward")
DEFENSES = (("parry", (), ()), ("parry", (), ("morale",)), ("dodge", (), ()),
            ("dodge", (), ("morale",)), ("multidodge", ("stay",), ()),
            ("multidodge", ("back",), ()), ("multidodge", ("stay",), ("morale",)),
            ("multidodge", ("back",), ("morale",)))
"""indices 21..28 (spec §12.4): ``(kind, args, boosts)``"""

LAYOUT = ActionLayout([
    Block("wait"),
    *(Block(k) for k, _ in SINGLES),
    Block("closing_wounds", (("x", 5),)),
    Block("power_draw", (("x", 5),)),
    Block("drop", (("effect", len(DROPS)),)),
    Block("defense", (("kind", len(DEFENSES)),)),
    Block("spend_morale"),
    Block("escape"),
    Block("strike", (("target", SLOTS), ("weapon", WEAPON_SLOTS))),
    Block("move", (("target", SLOTS), ("mode", len(MODES)))),
    Block("step", (("target", SLOTS), ("mode", len(MODES)))),
    Block("maneuver", (("target", SLOTS), ("kind", len(MANEUVERS)))),
    Block("cast", (("target", SLOTS), ("spell", SPELL_SLOTS))),
])
_ST = {b.name: LAYOUT.strides(b.name) for b in LAYOUT.blocks}
_SINGLE = {k: _ST[k][0] for k, _ in SINGLES}
_SINGLE["pass"] = _SINGLE["wait"] = 0
_SINGLE["spend_morale"] = _ST["spend_morale"][0]
_SINGLE["escape"] = _ST["escape"][0]
_DEFENSE = {d: _ST["defense"][0] + i for i, d in enumerate(DEFENSES)}
_DROP = {e: i for i, e in enumerate(DROPS)}
_MODE = {m: i for i, m in enumerate(MODES)}
_MANEUVER = {m: i for i, m in enumerate(MANEUVERS)}
_TURNS = ("turn", "committed")
_EGO: dict[tuple[Any, str], tuple[dict[str, int], list[str | None]]] = {}
"""ego slots per (roster, combatant): rosters never change during a fight"""


def weapon_slot(profile: Any, wid: str) -> int:
    """The weapon slot of ``wid``: 2 for ``unarmed``, else its place among the others."""
    if wid == "unarmed":
        return WEAPON_SLOTS - 1
    k = [w.id for w in profile.weapons if w.id != "unarmed"].index(wid)
    if k >= WEAPON_SLOTS - 1:
        raise ValueError(f"{NAME}: weapon {wid!r} is the stat block's weapon {k + 1}; the "
                         f"layout has room for {WEAPON_SLOTS - 1} and unarmed")
    return k


def _weapon_id(profile: Any, k: int) -> str:
    if k == WEAPON_SLOTS - 1:
        return "unarmed"
    ids = [w.id for w in profile.weapons if w.id != "unarmed"]
    return ids[k] if k < len(ids) else f"weapon{k}"


def _spells(profile: Any) -> list[str]:
    return [getattr(s, "id", s) for s in getattr(profile, "spells", ())]


class PalladiumEncoding:
    """The ``SystemEncoding`` of Palladium Revised (see the module docstring)."""

    name = NAME
    layout = LAYOUT
    obs_spec = OBS
    max_per_side = MAX_PER_SIDE
    obs_features = staticmethod(obs_features)

    # ------------------------------------------------------------------ slots
    def ego(self, enc: Any, cid: str) -> tuple[dict[str, int], list[str | None]]:
        """``({id: slot}, [id or None per slot])`` seen from ``cid``."""
        key = (enc.sides(), cid)
        found = _EGO.get(key)
        if found is None:
            if len(_EGO) > 20_000:
                _EGO.clear()
            me, allies, enemies = ego_order(enc, cid, MAX_PER_SIDE)
            slots: list[str | None] = [me, *allies, *enemies]
            found = _EGO[key] = ({c: i for i, c in enumerate(slots) if c is not None}, slots)
        return found

    # ------------------------------------------------------------------ actions
    def encode_action(self, enc: Any, combatant: str, a: Action) -> int:
        return self.encode_actions(enc, combatant, (a,))[0]

    def encode_actions(self, enc: Any, combatant: str, actions: Sequence[Action]) -> list[int]:
        """Indices of ``actions`` (all of ``combatant``), slots looked up once."""
        st = _ST
        index, _ = self.ego(enc, combatant)
        profile = enc.by_id[combatant].profile
        out: list[int] = []
        for a in actions:
            k = a.kind
            if a.target is None:
                if not a.args and not a.boosts and k in _SINGLE:
                    out.append(_SINGLE[k])
                elif (k, a.args, a.boosts) in _DEFENSE:
                    out.append(_DEFENSE[(k, a.args, a.boosts)])
                elif k in ("closing_wounds", "power_draw") and len(a.args) == 1:
                    x = int(a.args[0])
                    if not 1 <= x <= 5:
                        raise ValueError(f"{NAME}: {a.label!r}: X is 1..5")
                    out.append(st[k][0] + x - 1)
                elif k == "drop" and len(a.args) == 1:
                    out.append(st["drop"][0] + _DROP[a.args[0]])
                else:
                    raise ValueError(f"{NAME}: no index for action {a.label!r}")
                continue
            t = index[a.target]
            if k == "strike":
                start, (pt, _) = st["strike"]
                out.append(start + t * pt + weapon_slot(profile, a.args[0]))
            elif k in ("move", "step"):
                start, (pt, _) = st[k]
                out.append(start + t * pt + _MODE[a.args[0]])
            elif k in _MANEUVER and not a.args:
                start, (pt, _) = st["maneuver"]
                out.append(start + t * pt + _MANEUVER[k])
            elif k == "cast" and len(a.args) == 1:
                spells = _spells(profile)
                s = spells.index(a.args[0]) if a.args[0] in spells else SPELL_SLOTS
                if s >= SPELL_SLOTS:
                    raise ValueError(f"{NAME}: {a.label!r}: not one of the first "
                                     f"{SPELL_SLOTS} spells of {combatant}")
                start, (pt, _) = st["cast"]
                out.append(start + t * pt + s)
            else:
                raise ValueError(f"{NAME}: no index for action {a.label!r}")
        return out

    def decode_action(self, enc: Any, combatant: str, index: int) -> Action:
        block, c = LAYOUT.coords(index)
        me = combatant
        if block == "wait":
            return Action(me, "wait" if enc.decision in _TURNS else "pass")
        if not c:
            return Action(me, block)
        if block in ("closing_wounds", "power_draw"):
            return Action(me, block, (str(c["x"] + 1),))
        if block == "drop":
            return Action(me, "drop", (DROPS[c["effect"]],))
        if block == "defense":
            kind, args, boosts = DEFENSES[c["kind"]]
            return Action(me, kind, args, None, boosts)
        target = self.ego(enc, combatant)[1][c["target"]] or "nobody"
        profile = enc.by_id[combatant].profile
        if block == "strike":
            return Action(me, "strike", (_weapon_id(profile, c["weapon"]),), target)
        if block in ("move", "step"):
            return Action(me, block, (MODES[c["mode"]],), target)
        if block == "maneuver":
            return Action(me, MANEUVERS[c["kind"]], (), target)
        spells = _spells(profile)
        k = c["spell"]
        return Action(me, "cast", (spells[k] if k < len(spells) else f"spell{k}",), target)

    # ------------------------------------------------------------------ observation
    def observe(self, enc: Any, combatant: str) -> np.ndarray:
        """``combatant``'s observation (``envs.palladium_revised.observation``)."""
        return observe(enc, combatant, self.ego(enc, combatant))


ENCODING = PalladiumEncoding()
