"""Metaforce action encoding (spec §12.5, adapted to the engine's label grammar, ``rules.labels``).

Ego-centric slots (``ego_order``): 0 = self, 1..3 = allies, 4..7 = enemies, in roster order.
Every target and movement reference of the engine is an enemy (no friendly fire,
``rulings.FRIENDLY_FIRE``; allies are no movement references), so the ``target`` axis counts the
4 enemy slots only. Weapons are addressed by their slot in the stat block's weapon list
(``weapon`` axis, ``Profile.weapons`` order; a thrown weapon keeps its slot), so one layout
serves every stat block. The move mode axis is ``hold``, ``approach``, ``retreat`` (spec §5.1);
an activity held in place that takes no target uses target 0. ``arena layout metaforce`` prints
the table::

    0..71      frame       kind(6) x target(4) x mode(3): pass, special, dash, grapple, maintain,
                           FULL's channel (the next frame of a spell; while no spell is being
                           cast, its approach and retreat indices are tap_mana approach|retreat
                           -> <enemy>, R-24)
    72..81     still       kind(10): vigilance, withdraw, end_turn, escape grappled, escape burn,
                           and FULL's free M-Powers action8, react4, safe6, assurance8, tap_mana
    82..177    attack      weapon(4) x meta(2) x target(4) x mode(3) (meta: the +meta flag)
    178..225   throw       weapon(4) x target(4) x mode(3)
    226..369   fire        weapon(4) x shots(3) x target(4) x mode(3) (1, 2 or 3 shots)
    370..465   gear        kind(2) x weapon(4) x target(4) x mode(3): reload, prime
    466..476   window      kind(11): pass (decline), react approach, react retreat (the trigger),
                           deus_ex (W-I5; FULL's convoke in a W-C window: the USE of spec
                           §12.5 row 9), FULL's dodge (W-R2), crash_out (W-I3), crit tohit,
                           crit damage, crit magnitude, crit size (the V of a critical), meta_die
                           (W-I2, the defender's Create a Meta-Die); in a frame decision (no
                           window open) FULL's spell activities of ``FRAME_WINDOW``:
                           cast <cantrip 0|1> -> <friend 0..3> (Ward, Heal: ego slots 0..3),
                           concentrate (spec §5.2 #21), release <cantrip 0|1> (#22)
    477..492   react       kind(4) x weapon(4): attack, attack +meta, throw (the trigger is the
                           target), FULL's prime (a Reaction Prime); in a frame decision
                           cast <spell 0|1> approach|retreat -> <enemy 0..3> (R-24: a levelled
                           spell begun with a 5-ft step), spell x mode x target
    493..500   aimed       kind(2) x target(4): FULL's react maintain -> <grappled> and
                           finish -> <target> (W-I4, Finishing Touch); in a frame decision
                           FULL's combo 0|1 -> <target> (``frame_combos``, spec §4.4, R-25)
    501..508   cast        spell(2) x target(4): FULL's levelled area spells (``Profile.spells``)
    509..511   break       kind(3): FULL's escape slow, escape fear, escape charm (Break checks,
                           spec §5.10)
    512..517   ally        kind(2) x ally(3): FULL's team_work -> <ally> (a frame) and
                           link -> <ally> (Initiative Link, free); the ally axis is ego slots 1..3
    518..528   power       kind(11): FULL's react action8 (W-R1: the Reaction becomes a frame),
                           fudge 1, fudge 2 (Fudge Nudge: +1 on the attack roll's first or second
                           d12), force_fate miss|deflected|direct (the band Force Fate moves the
                           ToHit to), magic_effect 1..5 (Magic Effect: MP added to a critical's V);
                           in a frame decision its first 4 are release -> <enemy 0..3> (a grip
                           let go, free, spec §5.9 item 4)
    529..576   reload_fire weapon(4) x target(4) x mode(3): FULL's expert reload-and-shoot frame

``pass`` means two things: held in a frame (``frame`` block, kind pass, hold) and the decline
of a window (any decision but ``frame``: W-R1 reaction, Deus Ex, Dodge..., ``window`` block);
``decode_action`` reads which from ``enc.decision``. The ``window`` block is shared the same
way: its indices are window decisions in a window and the FULL spell activities of
``FRAME_WINDOW`` in a frame (the two are never legal at the same time), and its ``deus_ex``
index is the binary USE of the window open (Deus Ex, Convoke in a W-C window, or the Ward cast
on itself in a W-R2 window). The ``frame`` block is shared too: in a ``crit`` decision its
first indices are FULL's ``crit magnitude <status>`` and in a ``meta_status`` decision FULL's
``meta_status <status>`` (Magic Effect's V on any status, ``rules.full_magic``), index k naming
``MAGIC_STATUSES[k]``; a frame's own actions are never legal there. This keeps the layout's
size, so shipped policies still load. Every
block encodes through the layout's place values (``ActionLayout.strides``) and decodes through
``ActionLayout.coords``.

The observation (named feature tables, ``obs_features()``) is ``envs.metaforce.observation``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.core import Action
from envs.rl import ActionLayout, Block, ego_order

from .observation import MAX_PER_SIDE, OBS, WEAPON_SLOTS, obs_features, observe
from .rules.full_magic import MAGIC_STATUSES

__all__ = ["NAME", "LAYOUT", "ENCODING", "MetaforceEncoding", "MODES", "FRAME_KINDS",
           "FRAME_WINDOW", "USE", "SUPPORT_SLOTS",
           "STILL", "GEAR", "BREAK", "WINDOW", "REACT", "AIMED", "SHOTS", "TARGETS", "ALLY",
           "POWER"]

NAME = "metaforce_v0"
MODES = ("hold", "approach", "retreat")
FRAME_KINDS = ("pass", "special", "dash", "grapple", "maintain", "channel")
"""frame kinds with a target or a movement reference (dash: approach or retreat only;
maintain: hold only; FULL's channel, the next frame of a spell being cast: hold, or a 5-ft
step toward or away from the spell's target)"""
STILL = (("vigilance", ()), ("withdraw", ()), ("end_turn", ()), ("escape", ("grappled",)),
         ("escape", ("burn",)), ("action8", ()), ("react4", ()), ("safe6", ()),
         ("assurance8", ()), ("tap_mana", ()))
"""frame kinds with neither target nor mode (Escape names its status, spec §5.10; the free
M-Power activities of FULL, spec §6.4; FULL's Tap Mana, spec §5.8)"""
GEAR = ("reload", "prime")
BREAK = (("escape", ("slow",)), ("escape", ("fear",)), ("escape", ("charm",)))
"""FULL's Break checks against the FULL statuses (spec §5.10), laid out after every other block"""
WINDOW = (("pass", ()), ("react", ("approach",)), ("react", ("retreat",)), ("deus_ex", ()),
          ("dodge", ()), ("crash_out", ()), ("crit", ("tohit",)), ("crit", ("damage",)),
          ("crit", ("magnitude",)), ("crit", ("size",)), ("meta_die", ()))
"""window decisions without a weapon or a target of their own: decline, the Reaction Moves
(against the trigger), Deus Ex (W-I5), FULL's Dodge (W-R2), Crash Out (W-I3) and the V of a
critical (``crit_policy: agent``), the defender's Create a Meta-Die (W-I2)"""
REACT = ("attack", "attack_meta", "throw", "prime")
AIMED = (("react", ("maintain",)), ("finish", ()))
"""window decisions with a target: FULL's Reaction Maintain Grapple and Finishing Touch"""
ALLY = ("team_work", "link")
"""FULL's M-Powers aimed at an ally (spec §5.2 #19, #20): ego slots 1..3"""
ALLIES = MAX_PER_SIDE - 1
POWER: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("react", ("action8",)), ("fudge", ("1",)), ("fudge", ("2",)),
    ("force_fate", ("miss",)), ("force_fate", ("deflected",)), ("force_fate", ("direct",)),
    *(("magic_effect", (str(k),)) for k in range(1, 6)))
"""FULL's M-Power windows without a target (spec §6.1 W-R1 Action-8, W-I1 Fudge Nudge and Force
Fate, §6.4 Magic Effect)"""
SUPPORT_SLOTS = 2
"""the support cantrips (Ward, Heal: ``Profile.cantrips`` order) the layout has room for"""
FRAME_WINDOW: tuple[tuple[str, int], ...] = (
    *(("cast", k) for k in range(SUPPORT_SLOTS * MAX_PER_SIDE)), ("concentrate", 0),
    *(("release", k) for k in range(SUPPORT_SLOTS)))
"""what the ``window`` block's indices mean in a frame decision (FULL, spec §5.2 #21, #22,
§13.4): ``cast`` cantrip k // 4 on friend slot k % 4 (0: self), ``concentrate``, ``release``
cantrip k"""
assert len(FRAME_WINDOW) == len(WINDOW)
USE = WINDOW.index(("deus_ex", ()))
"""spec §12.5 row 9: the binary accept of the window open (Deus Ex, Convoke)"""
SHOTS = 3
"""the most shots a frame's volley is laid out for (the largest trigger limit of the catalogue)"""
TARGETS = MAX_PER_SIDE
SPELL_SLOTS = 2
"""the levelled area spells of a stat block (``Profile.spells`` order) the layout has room for"""
_NEEDS_TARGET = frozenset(("dash", "grapple", "maintain", "attack", "throw", "fire", "channel"))

LAYOUT = ActionLayout([
    Block("frame", (("kind", len(FRAME_KINDS)), ("target", TARGETS), ("mode", 3))),
    Block("still", (("kind", len(STILL)),)),
    Block("attack", (("weapon", WEAPON_SLOTS), ("meta", 2), ("target", TARGETS), ("mode", 3))),
    Block("throw", (("weapon", WEAPON_SLOTS), ("target", TARGETS), ("mode", 3))),
    Block("fire", (("weapon", WEAPON_SLOTS), ("shots", SHOTS), ("target", TARGETS),
                   ("mode", 3))),
    Block("gear", (("kind", len(GEAR)), ("weapon", WEAPON_SLOTS), ("target", TARGETS),
                   ("mode", 3))),
    Block("window", (("kind", len(WINDOW)),)),
    Block("react", (("kind", len(REACT)), ("weapon", WEAPON_SLOTS))),
    Block("aimed", (("kind", len(AIMED)), ("target", TARGETS))),
    Block("cast", (("spell", SPELL_SLOTS), ("target", TARGETS))),
    Block("break", (("kind", len(BREAK)),)),
    # FULL meta mechanics and firearms (full_meta, full_powers, full_firearms): appended last
    Block("ally", (("kind", len(ALLY)), ("ally", ALLIES))),
    Block("power", (("kind", len(POWER)),)),
    Block("reload_fire", (("weapon", WEAPON_SLOTS), ("target", TARGETS), ("mode", 3))),
])
_ST = {b.name: LAYOUT.strides(b.name) for b in LAYOUT.blocks}
_MODE = {"approach": 1, "retreat": 2}
_FRAME = {k: i for i, k in enumerate(FRAME_KINDS)}
_STILL = {s: i for i, s in enumerate(STILL)}
_GEAR = {k: i for i, k in enumerate(GEAR)}
_WINDOW = {w: i for i, w in enumerate(WINDOW)}
_AIMED = {w: i for i, w in enumerate(AIMED)}
_BREAK: dict[tuple[str, tuple[str, ...]], int] = {b: i for i, b in enumerate(BREAK)}
_ALLY = {k: i for i, k in enumerate(ALLY)}
_POWER = {w: i for i, w in enumerate(POWER)}
_MAGIC = {st: i for i, st in enumerate(MAGIC_STATUSES)}
assert len(MAGIC_STATUSES) <= LAYOUT.blocks[0].size
_EGO: dict[tuple[Any, str], tuple[dict[str, int], list[str | None]]] = {}
"""ego slots per (roster, combatant): rosters never change during a fight"""


def _split(args: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    if args and args[-1] in _MODE:
        return args[:-1], _MODE[args[-1]]
    return args, 0


class MetaforceEncoding:
    """The ``SystemEncoding`` of Metaforce (see the module docstring)."""

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
    def weapon_slots(enc: Any, cid: str) -> list[str]:
        """The weapon ids of ``cid``'s stat block, in slot order."""
        return [w.id for w in enc.by_id[cid].profile.weapons]

    # ------------------------------------------------------------------ actions
    def encode_action(self, enc: Any, combatant: str, a: Action) -> int:
        return self.encode_actions(enc, combatant, (a,))[0]

    def encode_actions(self, enc: Any, combatant: str, actions: Sequence[Action]) -> list[int]:
        """Indices of ``actions`` (all of ``combatant``), slots looked up once."""
        st = _ST
        index, _ = self.ego(enc, combatant)
        window = enc.decision != "frame"
        wslot = {w: i for i, w in enumerate(self.weapon_slots(enc, combatant))}
        out: list[int] = []
        support = [sp.id for sp in enc.by_id[combatant].profile.cantrips]
        for a in actions:
            k = a.kind
            if k == "convoke" or (k == "cast" and enc.decision == "dodge"):
                out.append(st["window"][0] + USE)  # W-C's Convoke; W-R2's Ward on itself
                continue
            if not window and k == "combo":
                start, (pk, _) = st["aimed"]
                n = int(a.args[0])
                if n >= len(AIMED):
                    raise ValueError(f"{NAME}: {a.label!r}: the layout has {len(AIMED)} combos")
                out.append(start + n * pk + index[a.target or ""] - MAX_PER_SIDE)
                continue
            if not window and k == "release" and not a.args:  # a grip let go: ``power``
                t = index[a.target or ""] - MAX_PER_SIDE
                if t < 0:
                    raise ValueError(f"{NAME}: {a.label!r} aims at an ally")
                out.append(st["power"][0] + t)
                continue
            if not window and (k in ("concentrate", "release") or (k == "cast" and a.args
                                                                   and a.args[0] in support)):
                out.append(st["window"][0] + _frame_window(index, support, a))
                continue
            if k in _ALLY:
                start, (pk, _) = st["ally"]
                slot = index.get(a.target or "", 0)
                if not 1 <= slot <= ALLIES:
                    raise ValueError(f"{NAME}: {a.label!r} aims at no ally")
                out.append(start + _ALLY[k] * pk + slot - 1)
                continue
            if (k, a.args) in _POWER:
                out.append(st["power"][0] + _POWER[(k, a.args)])
                continue
            if k == "meta_status" or (k == "crit" and len(a.args) == 2):  # Magic Effect (FULL)
                out.append(st["frame"][0] + _MAGIC[a.args[-1]])
                continue
            args, mode = _split(a.args)
            t = 0
            if a.target is not None:
                t = index[a.target] - MAX_PER_SIDE
                if t < 0:
                    raise ValueError(f"{NAME}: {a.label!r} aims at an ally")
            if mode and not window and k == "tap_mana":  # the ``channel`` indices
                start, (pk, pt, _) = st["frame"]
                out.append(start + _FRAME["channel"] * pk + t * pt + mode)
                continue
            if mode and not window and k == "cast":  # the ``react`` block in a frame
                spells = [sp.id for sp in enc.by_id[combatant].profile.spells]
                k_sp = spells.index(args[0]) if args[0] in spells else SPELL_SLOTS
                if k_sp >= SPELL_SLOTS:
                    raise ValueError(f"{NAME}: {a.label!r}: the layout has {SPELL_SLOTS} "
                                     "spell slots")
                out.append(st["react"][0] + k_sp * 2 * TARGETS + (mode - 1) * TARGETS + t)
                continue
            if window and (k, a.args) in _WINDOW:
                out.append(st["window"][0] + _WINDOW[(k, a.args)])
            elif window and (k, a.args) in _AIMED:
                start, (pk, _) = st["aimed"]
                out.append(start + _AIMED[(k, a.args)] * pk + t)
            elif k in _FRAME:
                start, (pk, pt, _) = st["frame"]
                out.append(start + _FRAME[k] * pk + t * pt + mode)
            elif (k, args) in _STILL:
                out.append(st["still"][0] + _STILL[(k, args)])
            elif (k, args) in _BREAK:
                out.append(st["break"][0] + _BREAK[(k, args)])
            elif k == "attack":
                start, (pw, pm, pt, _) = st["attack"]
                meta = int(a.boosts == ("meta",))
                out.append(start + _slot(wslot, args[0]) * pw + meta * pm + t * pt + mode)
            elif k == "reload_fire":
                start, (pw, pt, _) = st["reload_fire"]
                out.append(start + _slot(wslot, args[0]) * pw + t * pt + mode)
            elif k == "throw":
                start, (pw, pt, _) = st["throw"]
                out.append(start + _slot(wslot, args[0]) * pw + t * pt + mode)
            elif k == "fire":
                shots = int(args[1])
                if not 1 <= shots <= SHOTS:
                    raise ValueError(f"{NAME}: {a.label!r}: more than {SHOTS} shots")
                start, (pw, ps, pt, _) = st["fire"]
                out.append(start + _slot(wslot, args[0]) * pw + (shots - 1) * ps + t * pt + mode)
            elif k in _GEAR:
                start, (pk, pw, pt, _) = st["gear"]
                out.append(start + _GEAR[k] * pk + _slot(wslot, args[0]) * pw + t * pt + mode)
            elif k == "cast":
                start, (ps, _) = st["cast"]
                spells = [sp.id for sp in enc.by_id[combatant].profile.spells]
                k_sp = spells.index(args[0]) if args and args[0] in spells else SPELL_SLOTS
                if k_sp >= SPELL_SLOTS:
                    raise ValueError(f"{NAME}: {a.label!r}: the layout has {SPELL_SLOTS} "
                                     "spell slots")
                out.append(start + k_sp * ps + t)
            elif k == "react" and len(a.args) == 2:
                what = a.args[0]
                start, (pk, _) = st["react"]
                r = (REACT.index(what) if what in ("throw", "prime")
                     else int(a.boosts == ("meta",)))
                out.append(start + r * pk + _slot(wslot, a.args[1]))
            else:
                raise ValueError(f"{NAME}: no index for action {a.label!r}")
        return out

    def decode_action(self, enc: Any, combatant: str, index: int) -> Action:
        block, c = LAYOUT.coords(index)
        me = combatant
        if block == "ally":
            ally = self.ego(enc, combatant)[1][1 + c["ally"]] or "nobody"
            return Action(me, ALLY[c["kind"]], (), ally)
        if block == "power" and enc.decision == "frame":  # a grip let go (spec §5.9 item 4)
            k = c["kind"]
            ego = self.ego(enc, combatant)[1]
            return Action(me, "release", (), (ego[MAX_PER_SIDE + k] if k < TARGETS else None)
                          or "nobody")
        if block == "power":
            kind, args = POWER[c["kind"]]
            return Action(me, kind, args)
        if block == "frame" and enc.decision in ("crit", "meta_status"):  # Magic Effect (FULL)
            k = index - _ST["frame"][0]
            named = MAGIC_STATUSES[k] if k < len(MAGIC_STATUSES) else f"status{k}"
            if enc.decision == "crit":
                return Action(me, "crit", ("magnitude", named))
            return Action(me, "meta_status", (named,))
        target: str | None = None
        if "target" in c:
            target = self.ego(enc, combatant)[1][MAX_PER_SIDE + c["target"]] or "nobody"
        mode = c.get("mode", 0)
        words: tuple[str, ...] = (MODES[mode],) if mode else ()
        weapon = ""
        if "weapon" in c:
            ws = self.weapon_slots(enc, combatant)
            k = c["weapon"]
            weapon = ws[k] if k < len(ws) else f"weapon{k}"
        if block == "frame":
            kind = FRAME_KINDS[c["kind"]]
            if kind == "channel" and mode and enc.decision == "frame" \
                    and enc.by_id[me].casting is None:
                return Action(me, "tap_mana", words, target)  # not casting
            if kind not in _NEEDS_TARGET and not mode:
                target = None
            return Action(me, kind, words, target)
        if block == "still":
            kind, args = STILL[c["kind"]]
            return Action(me, kind, args)
        if block == "attack":
            return Action(me, "attack", (weapon, *words), target, ("meta",) if c["meta"] else ())
        if block == "throw":
            return Action(me, "throw", (weapon, *words), target)
        if block == "reload_fire":
            return Action(me, "reload_fire", (weapon, *words), target)
        if block == "fire":
            return Action(me, "fire", (weapon, str(c["shots"] + 1), *words), target)
        if block == "gear":
            return Action(me, GEAR[c["kind"]], (weapon, *words), target if mode else None)
        trigger = enc.trigger or "nobody"
        if block == "window" and enc.decision == "frame":
            return _frame_window_action(enc, self.ego(enc, combatant)[1], me, c["kind"])
        if block == "window" and c["kind"] == USE and enc.decision == "convoke":
            return Action(me, "convoke")
        if block == "window" and c["kind"] == USE and enc.decision == "dodge":
            ward = next(sp.id for sp in enc.by_id[me].profile.cantrips if sp.resolution == "ward")
            return Action(me, "cast", (ward,), me)  # W-R2: the Ward cast on itself
        if block == "window":
            kind, args = WINDOW[c["kind"]]
            return Action(me, kind, args, trigger if kind == "react" else None)
        if block == "aimed" and enc.decision == "frame":
            return Action(me, "combo", (str(c["kind"]),), target)
        if block == "aimed":
            kind, args = AIMED[c["kind"]]
            return Action(me, kind, args, target)
        if block == "break":
            kind, args = BREAK[c["kind"]]
            return Action(me, kind, args)
        if block == "cast":
            spells = [sp.id for sp in enc.by_id[combatant].profile.spells]
            k = c["spell"]
            return Action(me, "cast", (spells[k] if k < len(spells) else f"spell{k}",), target)
        if enc.decision == "frame":  # a levelled spell begun with a 5-ft step
            k = index - _ST["react"][0]
            k_sp, rest = divmod(k, 2 * TARGETS)
            step, t_slot = divmod(rest, TARGETS)
            spells = [sp.id for sp in enc.by_id[combatant].profile.spells]
            return Action(me, "cast", (spells[k_sp] if k_sp < len(spells) else f"spell{k_sp}",
                                       MODES[1 + step]),
                          self.ego(enc, combatant)[1][MAX_PER_SIDE + t_slot] or "nobody")
        what = REACT[c["kind"]]
        if what == "prime":
            return Action(me, "react", ("prime", weapon))
        if what == "throw":
            return Action(me, "react", ("throw", weapon), trigger)
        return Action(me, "react", ("attack", weapon), trigger,
                      ("meta",) if what == "attack_meta" else ())

    # ------------------------------------------------------------------ observation
    def observe(self, enc: Any, combatant: str) -> np.ndarray:
        """``combatant``'s observation (``envs.metaforce.observation``)."""
        return observe(enc, combatant, self.ego(enc, combatant)[1])


def _frame_window(index: dict[str, int], support: list[str], a: Action) -> int:
    """The ``window`` block offset of a FULL spell activity in a frame (``FRAME_WINDOW``)."""
    if a.kind == "concentrate":
        return FRAME_WINDOW.index(("concentrate", 0))
    k = support.index(a.args[0])
    if k >= SUPPORT_SLOTS:
        raise ValueError(f"{NAME}: {a.label!r}: the layout has {SUPPORT_SLOTS} cantrip slots")
    if a.kind == "release":
        return FRAME_WINDOW.index(("release", k))
    friend = index.get(a.target or "", MAX_PER_SIDE)
    if friend >= MAX_PER_SIDE:
        raise ValueError(f"{NAME}: {a.label!r} aims at no friend")
    return FRAME_WINDOW.index(("cast", k * MAX_PER_SIDE + friend))


def _frame_window_action(enc: Any, slots: list[str | None], me: str, k: int) -> Action:
    kind, n = FRAME_WINDOW[k]
    support = [sp.id for sp in enc.by_id[me].profile.cantrips]
    if kind == "concentrate":
        return Action(me, kind)
    sp = n // MAX_PER_SIDE if kind == "cast" else n
    sid = support[sp] if sp < len(support) else f"cantrip{sp}"
    if kind == "release":
        return Action(me, kind, (sid,))
    return Action(me, "cast", (sid,), slots[n % MAX_PER_SIDE] or "nobody")


def _slot(wslot: dict[str, int], wid: str) -> int:
    k = wslot[wid]
    if k >= WEAPON_SLOTS:
        raise ValueError(f"{NAME}: weapon {wid!r} is in slot {k}; the layout has "
                         f"{WEAPON_SLOTS} weapon slots")
    return k


ENCODING = MetaforceEncoding()
