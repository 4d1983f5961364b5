"""Sizebound action encoding (spec §12.3, adapted to the engine's label grammar).

Ego-centric slots: 0 = self, 1..3 = allies in roster order, 4..7 = enemies (every other side) in
roster order (``ego_order``; empty slots are masked). Targets are ego slots. ``arena layout
sizebound`` prints the table::

    0          end           end_turn on the own turn, pass in any window (spec index 0)
    1..8       step          dir(8): n, ne, e, se, s, sw, w, nw (spec indices 1-8)
    9..16      single        kind(8): run, stand, aim, recover hp, recover mana, drop_prone
                             (own turn), swap, free_hand
    17..24     pick_up       item(8): the k-th distinct item id in reach that the free hands
                             can lift, sorted by id
    25..26     drop          hand(2): Act, drop the main (or two-handed) or the off-hand item
    27..66     break_free, release, tighten, grapple, disarm: target(8) each
    67..114    attack, jab, trip: how(2) x target(8) (attack main|off, jab atk|bonus,
                             trip atk|move)
    115..146   cast          skill(4) x target(8): the k-th skill of the stat block
    147..150   cast_self     skill(4): a skill cast without a target (stomp, roar)
    151..156   answer        option(6): drop_prone, parry, dodge, block, spend, negate (windows)
    157..168   full_single   kind(12): FULL own-turn kinds (``FULL_SINGLES``)
    169..216   full_target   kind(6) x target(8): strangle, steal, extinguish, quick_strike,
                             lift, throw
    217..222   full_answer   option(6): quick_draw, dispel, wall_cling, pay, terrified (+1 spare)
    223..246   leap          dir(8) x dist(3): ``leap <dir> <1-3>`` (FULL, spec §5.2.18)
    247..254   swing         target(8): ``swing -> T``, melee with a wielded creature (R-71)
    255..302   throw_to      dir(8) x dist(6): ``throw_to <dir> <1-6>``, the wielded creature
                             thrown at an empty cell (spec §5.1 row 23)
    303..334   cast_dir      skill(4) x dir(8): ``cast <skill> <dir>``, a Line or Cone skill
                             (spec §8.7)

The FULL blocks are laid out ahead of the engine's FULL actions so that the layout (and a policy
trained on it) stays the same while they land; a kind the engine does not offer is never in the
mask. The last four blocks (``leap`` to ``cast_dir``) came later, added at the end. Their
``dir`` coordinate is in ``STEPS`` order.

``pass`` and ``end_turn`` share index 0 (they never meet: ``pass`` is offered only in windows);
``drop_prone`` is ``single`` on the own turn (React as an Extra action, spec §5.2) and
``answer`` in the R-DECLARE window. Every block encodes through the layout's place values
(``ActionLayout.strides``); ``decode_action`` reads the coordinates back with
``ActionLayout.coords``.

The observation (named feature tables, ``obs_features()``) is ``envs.sizebound.observation``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.core import Action
from envs.rl import ActionLayout, Block, EncodingError, ego_order

from .observation import MAX_PER_SIDE, OBS, SLOTS, obs_features, observe
from .rules.labels import act
from .rules.legal import liftable_items

__all__ = ["NAME", "LAYOUT", "ENCODING", "SizeboundEncoding", "STEPS", "SINGLES", "ANSWERS",
           "TARGETED", "PAIRED", "SKILL_SLOTS", "ITEM_SLOTS", "FULL_SINGLES", "FULL_TARGETED",
           "FULL_ANSWERS", "LEAP_DISTANCES", "THROW_DISTANCES"]

NAME = "sizebound_v1"
"""v1: ``pick_up`` holds 8 items (v0 held 4: a fifth item in reach had no index)"""
STEPS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
"""step labels by ``step`` coordinate (the spec's order, clockwise from north)"""
SINGLES = (("run", ()), ("stand", ()), ("aim", ()), ("recover", ("hp",)),
           ("recover", ("mana",)), ("drop_prone", ()), ("swap", ()), ("free_hand", ()))
TARGETED = ("break_free", "release", "tighten", "grapple", "disarm")
PAIRED = {"attack": ("main", "off"), "jab": ("atk", "bonus"), "trip": ("atk", "move")}
ANSWERS = ("drop_prone", "parry", "dodge", "block", "spend", "negate")
SKILL_SLOTS = 4
ITEM_SLOTS = 8
"""``pick_up`` slots: more distinct liftable items within reach at once than any shipped encounter
carries (giant_vs_four drops up to 6 ids); a ninth raises ``EncodingError`` naming the count"""
FULL_SINGLES = (("free_rooted", ()), ("wall_cling", ()), ("dive", ()), ("search", ()),
                ("react", ("eyes",)), ("react", ("ears",)), ("react", ("breath",)),
                ("act", ("eyes",)), ("act", ("ears",)), ("act", ("breath",)), ("rise", ()),
                ("descend", ()))
"""own-turn kinds of the FULL rules (spec §12.2, §5.2.12-5.2.18): Free from Rooted, Wall Cling,
Dive, Search, React (close the eyes, cover the ears, hold the breath) and Act (undo it), and a
flyer's or levitator's change of height"""
FULL_TARGETED = ("strangle", "steal", "extinguish", "quick_strike", "lift", "throw")
"""FULL kinds with a target (spec §5.2.14-5.2.16, §6.4.5): ``strangle -> T``, ``steal -> T``,
``extinguish -> T``, ``quick_strike -> T``, ``lift -> T``, ``throw -> T`` (the lifted one at T)"""
LEAP_DISTANCES = ("1", "2", "3")
"""``leap`` distances by ``dist`` coordinate (FULL ``full_leap``)"""
THROW_DISTANCES = ("1", "2", "3", "4", "5", "6")
"""``throw_to`` distances by ``dist`` coordinate (FULL ``full_wield``)"""
FULL_ANSWERS = ("quick_draw", "dispel", "wall_cling", "pay", "terrified")
"""FULL window answers (spec §6.3): Quick Draw (R-DECLARE), Dispel (R-DISPEL), Wall Cling (R-FALL),
pay for a contested spell (the caster's Dispel decision), become Terrified (a Panicked creature
with no escape)"""

LAYOUT = ActionLayout([
    Block("end"),
    Block("step", (("dir", len(STEPS)),)),
    Block("single", (("kind", len(SINGLES)),)),
    Block("pick_up", (("item", ITEM_SLOTS),)),
    Block("drop", (("hand", 2),)),
    *(Block(k, (("target", SLOTS),)) for k in TARGETED),
    *(Block(k, (("how", 2), ("target", SLOTS))) for k in PAIRED),
    Block("cast", (("skill", SKILL_SLOTS), ("target", SLOTS))),
    Block("cast_self", (("skill", SKILL_SLOTS),)),
    Block("answer", (("option", len(ANSWERS)),)),
    Block("full_single", (("kind", len(FULL_SINGLES)),)),
    Block("full_target", (("kind", len(FULL_TARGETED)), ("target", SLOTS))),
    Block("full_answer", (("option", 6),)),  # one spare
    Block("leap", (("dir", len(STEPS)), ("dist", len(LEAP_DISTANCES)))),
    Block("swing", (("target", SLOTS),)),
    Block("throw_to", (("dir", len(STEPS)), ("dist", len(THROW_DISTANCES)))),
    Block("cast_dir", (("skill", SKILL_SLOTS), ("dir", len(STEPS)))),
])
_STRIDES = {b.name: LAYOUT.strides(b.name) for b in LAYOUT.blocks}
_STEP = {d: i for i, d in enumerate(STEPS)}
_SINGLE = {s: i for i, s in enumerate(SINGLES)}
_ANSWER = {a: i for i, a in enumerate(ANSWERS)}
_FULL_SINGLE = {s: i for i, s in enumerate(FULL_SINGLES)}
_FULL_TARGET = {k: i for i, k in enumerate(FULL_TARGETED)}
_FULL_ANSWER = {a: i for i, a in enumerate(FULL_ANSWERS)}
_EGO: dict[tuple[Any, str], tuple[dict[str, int], list[str | None]]] = {}
"""ego slots per (roster, combatant): rosters never change during a fight"""


class SizeboundEncoding:
    """The ``SystemEncoding`` of Sizebound (see the module docstring)."""

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

    @staticmethod
    def skills(enc: Any, cid: str) -> list[str]:
        """The skill ids of ``cid``'s stat block, in slot order."""
        return [s.id for s in enc.by_id[cid].profile.skills][:SKILL_SLOTS]

    @staticmethod
    def items_in_reach(enc: Any, cid: str) -> list[str]:
        """The distinct item ids on the ground within 1 space of ``cid`` that its free hands can
        lift (what ``pick_up`` offers, spec §5.2.12), sorted: the ``pick_up`` slots."""
        return sorted(str(w) for w in liftable_items(enc, enc.by_id[cid]))

    def _item_slot(self, enc: Any, cid: str, wid: str) -> int:
        items = self.items_in_reach(enc, cid)
        k = items.index(wid)
        if k >= ITEM_SLOTS:
            raise EncodingError(
                f"{cid} has {len(items)} distinct items within reach ({', '.join(items)}); the "
                f"{NAME} action layout addresses {ITEM_SLOTS} (pick_up {wid} has no index)"
            )
        return k

    # ------------------------------------------------------------------ actions
    def encode_action(self, enc: Any, combatant: str, a: Action) -> int:
        return self.encode_actions(enc, combatant, (a,))[0]

    def encode_actions(self, enc: Any, combatant: str, actions: Sequence[Action]) -> list[int]:
        """Indices of ``actions`` (all of ``combatant``), slots looked up once."""
        st = _STRIDES
        index, _ = self.ego(enc, combatant)
        window = enc.window is not None
        skills: list[str] | None = None
        out: list[int] = []
        for a in actions:
            k, args = a.kind, a.args
            if k in ("end_turn", "pass"):
                out.append(st["end"][0])
            elif k in ("leap", "throw_to"):
                start, (k_d, k_k) = st[k]
                dists = LEAP_DISTANCES if k == "leap" else THROW_DISTANCES
                out.append(start + _STEP[args[0]] * k_d + dists.index(args[1]) * k_k)
            elif k == "swing":
                out.append(st["swing"][0] + index[str(a.target)])
            elif k == "cast" and len(args) == 2:
                if skills is None:
                    skills = self.skills(enc, combatant)
                start, (k_s, k_d) = st["cast_dir"]
                out.append(start + skills.index(args[0]) * k_s + _STEP[args[1]] * k_d)
            elif k == "step":
                out.append(st["step"][0] + _STEP[args[0]])
            elif k in _ANSWER and (window or k != "drop_prone"):
                out.append(st["answer"][0] + _ANSWER[k])
            elif k in _FULL_ANSWER and (window or k != "wall_cling"):
                out.append(st["full_answer"][0] + _FULL_ANSWER[k])
            elif (k, args) in _FULL_SINGLE:
                out.append(st["full_single"][0] + _FULL_SINGLE[(k, args)])
            elif k in _FULL_TARGET:
                start, (k_k, k_t) = st["full_target"]
                out.append(start + _FULL_TARGET[k] * k_k + index[str(a.target)] * k_t)
            elif (k, args) in _SINGLE:
                out.append(st["single"][0] + _SINGLE[(k, args)])
            elif k in PAIRED:
                start, (k_h, k_t) = st[k]
                out.append(start + PAIRED[k].index(args[0]) * k_h + index[str(a.target)] * k_t)
            elif k in TARGETED:
                out.append(st[k][0] + index[str(a.target)])
            elif k == "cast":
                if skills is None:
                    skills = self.skills(enc, combatant)
                s = skills.index(args[0])
                if a.target is None:
                    out.append(st["cast_self"][0] + s)
                else:
                    start, (k_s, k_t) = st["cast"]
                    out.append(start + s * k_s + index[a.target] * k_t)
            elif k == "pick_up":
                out.append(st["pick_up"][0] + self._item_slot(enc, combatant, args[0]))
            elif k == "drop":  # hand 0: the main or two-handed item, 1: the off-hand one
                held = enc.by_id[combatant].wielded
                out.append(st["drop"][0] + (held.get("off") == args[0]
                                            and held.get("main") != args[0]))
            else:
                raise ValueError(f"{NAME}: no index for action {a.label!r}")
        return out

    def decode_action(self, enc: Any, combatant: str, index: int) -> Action:
        block, c = LAYOUT.coords(index)
        me = combatant
        target: str | None = None
        if "target" in c:
            target = self.ego(enc, combatant)[1][c["target"]] or "nobody"
        if block == "end":
            return act(me, "pass" if enc.window is not None else "end_turn")
        if block == "step":
            return act(me, "step", (STEPS[c["dir"]],))
        if block == "single":
            kind, args = SINGLES[c["kind"]]
            return act(me, kind, args)
        if block == "pick_up":
            items = self.items_in_reach(enc, combatant)
            k = c["item"]
            return act(me, "pick_up", (items[k] if k < len(items) else f"item{k}",))
        if block == "drop":
            held = enc.by_id[combatant].wielded
            wid = held.get("off") if c["hand"] else held.get("both") or held.get("main")
            return act(me, "drop", (wid or f"hand{c['hand']}",))
        if block in PAIRED:
            return act(me, block, (PAIRED[block][c["how"]],), target)
        if block in TARGETED:
            return act(me, block, (), target)
        if block == "full_single":
            kind, args = FULL_SINGLES[c["kind"]]
            return act(me, kind, args)
        if block == "full_target":
            return act(me, FULL_TARGETED[c["kind"]], (), target)
        if block in ("leap", "throw_to"):
            dists = LEAP_DISTANCES if block == "leap" else THROW_DISTANCES
            return act(me, block, (STEPS[c["dir"]], dists[c["dist"]]))
        if block == "swing":
            return act(me, "swing", (), target)
        if block == "cast_dir":
            skills = self.skills(enc, combatant)
            k = c["skill"]
            return act(me, "cast", (skills[k] if k < len(skills) else f"skill{k}",
                                       STEPS[c["dir"]]))
        if block == "full_answer":
            k = c["option"]
            return act(me, FULL_ANSWERS[k] if k < len(FULL_ANSWERS) else "spare")
        if block in ("cast", "cast_self"):
            skills = self.skills(enc, combatant)
            k = c["skill"]
            return act(me, "cast", (skills[k] if k < len(skills) else f"skill{k}",), target)
        return act(me, ANSWERS[c["option"]])

    # ------------------------------------------------------------------ observation
    def observe(self, enc: Any, combatant: str) -> np.ndarray:
        """``combatant``'s observation (``envs.sizebound.observation``)."""
        return observe(enc, combatant, self.ego(enc, combatant)[1])


ENCODING = SizeboundEncoding()
