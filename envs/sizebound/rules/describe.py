"""Sizebound's actions in a GM's words (the registry's ``describe`` part).

``describe(action, enc)``: one line per legal action of the live encounter, with the
combatants' display names and the odds from the engine's public previews
(``preview_attack``): ``duelist: attack main -> knight`` reads "attack the Shieldbearer Knight
with the sword (55% to hit, ~6.5 harm)". The engine has no preview of a reaction roll, so a
Parry or Dodge shows the chance of beating the total from the view's published modifiers
(``hit_mod``, ``dodge_mod``, Unnerved; Prone, Tired and Lethargic as the spec has them). It
only reads the encounter (``view``, ``by_id``, ``window``, previews) and never changes it; a
kind it does not know reads as the label without its actor (``envs.core.describe``).
"""

from __future__ import annotations

from typing import Any

from envs.core import Action
from envs.core.d20 import Edge, chance
from envs.core.describe import Words, by_kind, unique_name
from envs.core.squaregrid import DIRECTIONS, distance

from .full_leap import leap_words
from .full_lift import lift_words
from .full_wield import wield_words
from .legal import held_item, loadout_change, stand_cost, weapon_in
from .preview import preview_attack

__all__ = ["describe", "name_of"]

COMPASS = {"n": "north", "ne": "north-east", "e": "east", "se": "south-east", "s": "south",
           "sw": "south-west", "w": "west", "nw": "north-west"}
_DIR_INDEX = {"e": 0, "ne": 1, "n": 2, "nw": 3, "w": 4, "sw": 5, "s": 6, "se": 7}


def name_of(enc: Any, cid: str | None) -> str:
    """``the Shieldbearer Knight`` (the stat block's name, ``[id]`` added when two share it)."""
    if cid is None or cid not in enc.by_id:
        return str(cid)
    names = [f.profile.name for f in enc.by_id.values()]
    return "the " + unique_name(enc.by_id[cid].profile.name, cid, names)


def _item(wid: str) -> str:
    return "the " + wid.replace("_", " ")


def _pct(p: float) -> str:
    return f"{round(100 * p)}%"


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'} left"


def _end(enc: Any, f: Any, a: Action) -> str:
    unused = "".join(x for x in "PDMB" if x not in f.used)
    return f"end the turn (unused: {unused})" if unused else "end the turn"


def _step(enc: Any, f: Any, a: Action) -> str:
    d = _DIR_INDEX[a.args[0]]
    dx, dy = DIRECTIONS[d]
    new = (f.x + dx, f.y + dy)
    cost = enc.grid.step_cost(f.pos, d, f.n, 2 if f.prone else 1)
    budget = f.budget if f.mode in ("move", "run") else f.profile.walk
    foes = [g for g in enc.fighters if g.alive and g.side != f.side]
    words = f"step {COMPASS[a.args[0]]}"
    if foes:
        near = min(foes, key=lambda g: (distance(f.pos, f.n, g.pos, g.n), g.id))
        now, then = distance(f.pos, f.n, near.pos, near.n), distance(new, f.n, near.pos, near.n)
        if then != now:
            words += f" {'toward' if then < now else 'away from'} {name_of(enc, near.id)}"
    opens = ", opens the Move" if f.mode == "none" else ""
    return f"{words} ({cost} of {budget} movement{opens})"


def _weapon_words(enc: Any, f: Any, slot: str, target: str) -> tuple[str, str]:
    wid = weapon_in(f, slot) if slot in ("main", "off") else None
    pv = preview_attack(enc, f.id, slot, target)
    odds = "" if pv is None else f" ({_pct(pv.hit)} to hit, ~{pv.expected_damage:.1f} harm)"
    return ("unarmed" if wid is None else wid), odds


def _attack(enc: Any, f: Any, a: Action) -> str:
    wid, odds = _weapon_words(enc, f, a.args[0], str(a.target))
    pv = preview_attack(enc, f.id, a.args[0], str(a.target))
    who = name_of(enc, a.target)
    if pv is not None and pv.mode == "thrown":
        return f"throw {_item(wid)} at {who}{odds}"
    if pv is not None and pv.mode == "ranged":
        return f"shoot {who} with {_item(wid)}{odds}"
    return f"attack {who} with {_item(wid)}{odds}"


def _jab(enc: Any, f: Any, a: Action) -> str:
    _, odds = _weapon_words(enc, f, "jab", str(a.target))
    how = "as the Bonus action" if a.args[0] == "bonus" else "as an attack"
    return f"jab {name_of(enc, a.target)} {how}{odds}"


def _trip(enc: Any, f: Any, a: Action) -> str:
    how = "with the Move" if a.args[0] == "move" else "as an attack"
    return f"trip {name_of(enc, a.target)} {how} (Athletics contest)"


def _grapple(enc: Any, f: Any, a: Action) -> str:
    return f"grapple {name_of(enc, a.target)} (Athletics contest, {f.free_hands} hands free)"


def _disarm(enc: Any, f: Any, a: Action) -> str:
    t = enc.by_id[a.target]
    wid = next((t.wielded[s] for s in ("both", "main", "off") if s in t.wielded), None)
    what = f" of {_item(wid)}" if wid else ""  # the item resolve takes: main hand first (§5.2.10)
    return f"disarm {name_of(enc, a.target)}{what} (contest)"


def _break_free(enc: Any, f: Any, a: Action) -> str:
    return f"break free from {name_of(enc, a.target)}'s grapple (contest)"


def _release(enc: Any, f: Any, a: Action) -> str:
    return f"let go of {name_of(enc, a.target)}"


def _tighten(enc: Any, f: Any, a: Action) -> str:
    return f"tighten the grip on {name_of(enc, a.target)} (a second hand)"


def _single(enc: Any, f: Any, a: Action) -> str:
    k = a.kind
    if k == "run":
        return f"run (Primary and Move: {2 * f.profile.walk} spaces of movement)"
    if k == "stand":
        cost = stand_cost(f) if f.mode != "none" else f.profile.walk // 2
        return f"stand up ({cost} movement)"
    if k == "aim":
        return "aim: +4 to hit for the rest of the turn"
    if k == "recover":
        what = "HP" if a.args[0] == "hp" else "Mana"
        return f"spend an Exertion Die to recover {what} ({_dice(f.dice)})"
    if k == "swap":
        stow, draw = loadout_change(f)
        parts = [f"stow {', '.join(stow)}"] if stow else []
        parts += [f"draw {', '.join(w for _, w in draw)}"] if draw else []
        return "swap the loadout: " + "; ".join(parts).replace("_", " ")
    if k == "free_hand":
        held = held_item(f)
        return f"free a hand: stow {_item(held[1]) if held else 'nothing'}"
    if k == "pick_up":
        return f"pick up {_item(a.args[0])}"
    if k == "drop":
        return f"drop {_item(a.args[0])} at your feet (Act, Free; a Charge survives it)"
    return "drop prone (React as an Extra action)"


_REACT = {"eyes": ("close your eyes (Blinded; immune to Gaze)", "open your eyes"),
          "ears": ("cover your ears (Deafened; immune to Sonic)", "uncover your ears"),
          "breath": ("hold your breath", "breathe again")}


def _full(enc: Any, f: Any, a: Action) -> str:
    """The FULL kinds of part A (spec §5.1 rows 20-28)."""
    k, who = a.kind, name_of(enc, a.target)
    if k == "react":
        return f"{_REACT[a.args[0]][0]} (React, Extra)"
    if k == "act":
        return f"{_REACT[a.args[0]][1]} (Act, Free)"
    if k == "free_rooted":
        return "free yourself from Rooted (P, or D, or M+B)"
    if k == "search":
        again = "search" in f.extra_used
        return "search again: roll Perception (awareness)" if again \
            else "search the area (Extra; the Host describes it)"
    if k == "terrified":
        return "give in and become Terrified (cornered while Panicked)"
    if k == "extinguish":
        return "put out your flames (Any)" if a.target == f.id else f"put out {who}'s flames (Any)"
    if k == "strangle":
        t = enc.by_id[a.target]
        if any(c.source == f.id for c in t.conds.instances("suffocating")):
            return f"tighten the stranglehold on {who} (Athletics contest: +1 suffocation round)"
        return f"strangle {who} (1 attack: Suffocating round 1)"
    return f"steal a stowed item from {who} (Nimble contest)"


def _cast(enc: Any, f: Any, a: Action) -> str:
    sid = a.args[0]
    skill = f.profile.skill(sid)
    title = sid.replace("_", " ").title()
    cost = f", {skill.mana} Mana of {f.mana}" if skill is not None and skill.mana else ""
    if len(a.args) == 2 and skill is not None:  # FULL: a Line or Cone skill (full_areas)
        dice = f"{skill.dice_n}d{skill.dice_sides}+{f.mod(skill.stat)}"
        size = f"{skill.size} x {skill.width}" if skill.width > 1 else f"{skill.size}"
        return (f"cast {title}, a {skill.shape} of {size} to the {COMPASS[a.args[1]]} "
                f"({dice}, Dodge halves{cost})")
    if a.target is None:
        return f"use {title} around you{cost}"
    onto = "on" if sid == "mend" else "centred on" if skill is not None and skill.size else "at"
    return f"cast {title} {onto} {name_of(enc, a.target)}{cost}"


def _attacker_words(enc: Any, info: dict[str, Any]) -> str:
    who = info.get("attacker")
    weapon = info.get("weapon")
    base = name_of(enc, who) + "'s"
    return f"{base} {str(weapon).replace('_', ' ')}" if weapon else f"{base} attack"


def _beat(mod: int, total: int, edge: int) -> str:
    e = Edge.ADVANTAGE if edge > 0 else Edge.DISADVANTAGE if edge < 0 else Edge.NORMAL
    return f"{_pct(float(chance(mod, total, e, fumble=1)))} to beat {total}"


def _window(enc: Any, f: Any, a: Action) -> str:
    w = enc.window
    info = dict(w.info) if w is not None else {}
    me = enc.view(f.id)["combatants"][f.id]
    k = a.kind
    if k == "drop_prone":
        return f"drop prone against {_attacker_words(enc, info)} (a reaction)"
    if k == "parry":
        mod = me["hit_mod"] + me["unnerved"] - (5 if me["fatigue_rung"] >= 2 else 0)
        edge = -int(me["prone"]) - int(me["fatigue_rung"] >= 3)
        on = info.get("target")
        ally = f" on {name_of(enc, on)}" if on not in (None, f.id) else ""
        return f"parry {_attacker_words(enc, info)}{ally} ({_beat(mod, info['total'], edge)})"
    if k == "dodge":
        if info.get("area"):
            return f"dodge {_attacker_words(enc, info)} (takes off half the Dodge total)"
        mod = me["dodge_mod"] + me["unnerved"]
        edge = -int(me["fatigue_rung"] >= 3)
        return f"dodge {_attacker_words(enc, info)} ({_beat(mod, info['total'], edge)})"
    if k == "block":
        return (f"block: +{info['guard']} Guard for {name_of(enc, info['target'])} "
                f"against {info['amount']} damage")
    if k == "negate":
        return f"spend an Exertion Die to turn the critical hit into a hit ({_dice(f.dice)})"
    if w is not None and w.kind == "exert_dmg":
        return (f"spend an Exertion Die on the damage (+2 x d6 on {info['amount']}, "
                f"{_dice(f.dice)})")
    need = f", needs more than {info['against']}" if "against" in info else ""
    return (f"spend an Exertion Die on this roll (+d6 on {info.get('total')}{need}, "
            f"{_dice(f.dice)})")


def _pass(enc: Any, f: Any, a: Action) -> str:
    w = enc.window
    kind = w.kind if w is not None else ""
    if kind.startswith("exert") or kind == "crit":
        return f"keep the Exertion Dice ({_dice(f.dice)})"
    if kind == "block":
        return "let the damage through without blocking"
    return f"no reaction to {_attacker_words(enc, dict(w.info) if w else {})}"


def _full_b(enc: Any, f: Any, a: Action) -> str:
    """FULL reactions (spec §6.4.5, §6.4.6)."""
    w = enc.window
    info = dict(w.info) if w is not None else {}
    k = a.kind
    if k == "quick_draw":
        return (f"quick draw vs {name_of(enc, info.get('attacker'))}: Nimble contest, "
                "by 4+ strike first, by 8+ the Primary")
    if k == "quick_strike":
        what = "the next turn's Primary" if info.get("borrowed") == "primary" else \
            "1 attack of the next turn"
        return f"strike {name_of(enc, a.target)} first, borrowing {what}"
    if k == "dispel":
        return (f"dispel {name_of(enc, info.get('caster'))}'s {info.get('skill', 'skill')}: "
                "Arcana contest (a reaction)")
    return f"pay {info.get('mana', 8)} Mana so the {info.get('skill', 'skill')} still resolves"


_WORDS: dict[str, Words] = {
    "end_turn": lambda v, f, a: _end(v, f, a), "step": lambda v, f, a: _step(v, f, a),
    "attack": lambda v, f, a: _attack(v, f, a), "jab": lambda v, f, a: _jab(v, f, a),
    "trip": lambda v, f, a: _trip(v, f, a), "grapple": lambda v, f, a: _grapple(v, f, a),
    "disarm": lambda v, f, a: _disarm(v, f, a),
    "break_free": lambda v, f, a: _break_free(v, f, a),
    "release": lambda v, f, a: _release(v, f, a), "tighten": lambda v, f, a: _tighten(v, f, a),
    "cast": lambda v, f, a: _cast(v, f, a), "pass": lambda v, f, a: _pass(v, f, a),
    **{k: (lambda v, f, a: _single(v, f, a))
       for k in ("run", "stand", "aim", "recover", "swap", "free_hand", "pick_up", "drop")},
    **{k: (lambda v, f, a: _window(v, f, a))
       for k in ("parry", "dodge", "block", "spend", "negate")},
    **{k: (lambda v, f, a: _full_b(v, f, a))
       for k in ("quick_draw", "quick_strike", "dispel", "pay")},
    "drop_prone": lambda v, f, a: (_window(v, f, a) if v.window is not None
                                   else _single(v, f, a)),
    "rise": lambda v, f, a: f"fly or levitate one level up (to height {f.z + 1}; 1 movement)",
    "descend": lambda v, f, a: f"fly or levitate one level down (to height {f.z - 1})",
    "dive": lambda v, f, a: f"dive: fall 4 spaces at once (Move action; height {f.z})",
    "wall_cling": lambda v, f, a: (f"cling to the wall: Nimble d20+{f.nimble} needs "
                                   f"{20 + f.cling}+ "
                                   f"({max(0, min(20, 1 + f.nimble - f.cling)) * 5}%); "
                                   "stops the fall"),
    **{k: (lambda v, f, a: _full(v, f, a))
       for k in ("react", "act", "free_rooted", "search", "terrified", "extinguish", "strangle",
                 "steal")},
    **{k: (lambda v, f, a: lift_words(v, f, a, name_of(v, a.target)))
       for k in ("lift", "throw")},  # FULL (spec §5.2.16)
    "leap": lambda v, f, a: leap_words(f, a, COMPASS[a.args[0]], v),  # FULL (spec §5.2.18)
    **{k: (lambda v, f, a: wield_words(v, f, a, name_of(v, a.target),
                                       COMPASS.get(a.args[0], "") if a.args else ""))
       for k in ("swing", "throw_to")},  # FULL (spec §5.2.16, R-71)
}


def describe(action: Action, view: Any) -> str:
    """One line, at most about 90 characters, for a legal ``action`` of the live encounter
    ``view`` (see the module docstring)."""
    words = by_kind(_WORDS, action, view)
    return words if len(words) <= 90 else words[:87] + "..."
