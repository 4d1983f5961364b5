"""Palladium Revised's actions in plain words (the registry's ``describe`` part): one line a GM
reads.

``describe(action, view)`` puts a legal action of ``view`` (the live ``PalladiumEncounter``,
only read) in words, with display names from the stat blocks (``ogre_brute`` -> "the Ogre
Brute"; two of one block read "the Goblin Skirmisher [gob_1]") and the odds of the engine's
public previews (``preview_strike``: chance to hit and the expected damage; ``preview_defense``
and ``dodge_slot``: what a Parry or Dodge does against the pending total and which slot it
costs; ``movement.destination``: where a move ends)::

    sellsword_1: strike long_sword -> ogre_1     strike the Ogre Brute with the long sword (65% to
                                                 hit, ~9.1 dmg)
    duelist_1: dodge                             dodge: 55% to make it miss; costs your slot in
                                                 Second 8, 1 Stamina
    duelist_1: parry                             parry: 40% to beat 14 and take 75% off; costs 1
                                                 Stamina
    duelist_1: multidodge back +morale           multi-dodge, step back, +2 (1 Morale) (60%; holds
                                                 to your turn; Second 8, 3 Sta)
    archer_1: move away -> ogre_1                Full Move to 8 ft (52 ft): fall back from the Ogre
                                                 Brute

A description keeps to ``LIMIT`` characters. An unknown kind (or an action that does not fit the
state) falls back to the label without its actor; describing never raises and never changes the
encounter (the previews are memoised in the encounter's per-decision cache, which every
``apply`` clears).
"""

from __future__ import annotations

from typing import Any

from envs.core import Action
from envs.core.describe import by_kind, unique_name

from .rules import dodge_slot, preview_defense, preview_strike, rulings
from .rules.movement import destination

__all__ = ["LIMIT", "describe", "display_name"]

LIMIT = 90
"""the most characters of a description"""
_MORALE = " +2 (1 Morale)"


def _title(block: str) -> str:
    return " ".join(w.capitalize() for w in block.split("_") if w) or block


def display_name(view: Any, cid: str) -> str:
    """The name a GM says: the stat block's (``the Ogre Brute``), with the id when two
    combatants share it (``the Goblin Skirmisher [gob_1]``)."""
    names = [f"the {_title(c.profile.name)}" for c in view.combatants]
    return unique_name(f"the {_title(view.by_id[cid].profile.name)}", cid, names)


def describe(action: Action, view: Any) -> str:
    """``action`` (legal in the encounter ``view``) in plain words, one line."""
    text = by_kind(_WORDS, action, view)
    return text if len(text) <= LIMIT else text[:LIMIT - 1].rstrip() + "…"


def _weapon(wid: str) -> str:
    return "bare-handed" if wid == "unarmed" else f"with the {wid.replace('_', ' ')}"


def _strike(view: Any, c: Any, a: Action) -> str:
    assert a.target is not None
    p = preview_strike(view, c.id, a.args[0], a.target)
    who = display_name(view, a.target)
    verb = "shoot" if c.profile.weapon(a.args[0]).ranged else "strike"
    head = "opportunity: " if view.decision == "opportunity" else ""
    text = f"{head}{verb} {who} {_weapon(a.args[0])}"
    odds = f" ({p.hit:.0%} to hit, ~{p.expected_damage:.1f} dmg)"
    if len(text + odds) > LIMIT:
        odds = f" ({p.hit:.0%}, ~{p.expected_damage:.1f})"
    return text + odds


_MOVE = {"engage": "face {who} at your reach", "close": "close in tight on {who}",
         "edge": "stop just outside {who}'s reach", "away": "fall back from {who}"}
_ALLY = {"engage": "join {who}", "close": "close up on {who}", "away": "move away from {who}"}


def _move(view: Any, c: Any, a: Action) -> str:
    assert a.target is not None
    t = view.by_id[a.target]
    mode = a.args[0]
    step = a.kind == "step"
    allowance = c.step_budget if step else c.full_move_ft()
    to = destination(view, c, mode, t, allowance)
    far = min(allowance, abs(to - c.x))
    end = c.x + far if to > c.x else c.x - far
    words = _ALLY if t.side == c.side else _MOVE
    what = words[mode].format(who=display_name(view, a.target))
    if step:
        return f"step to {end} ft ({far} of {allowance} ft, free): {what}"
    return f"Full Move to {end} ft ({far} ft): {what}"


def _window(view: Any) -> dict[str, Any]:
    w = view.window
    return dict(w.info) if w is not None else {}


def _odds(view: Any, c: Any, a: Action) -> Any:
    """The engine's ``preview_defense`` against the pending total; ``+morale`` adds 2 to the
    defender's roll, the same as 2 off the strike total for both Dodge and Parry."""
    info = _window(view)
    return preview_defense(view, c.id, info["s0"] - (rulings.MORALE_PRE_ROLL if a.boosts else 0),
                           bool(info["ranged"]))


def _parry(view: Any, c: Any, a: Action) -> str:
    info = _window(view)
    p = _odds(view, c, a)
    boost = _MORALE if a.boosts else ""
    return (f"parry{boost}: {p.parry_mitigates:.0%} to beat {info['s0']} and take "
            f"{c.profile.parry_mitigation_pct}% off; costs {rulings.PARRY_STAMINA} Stamina")


def _cost(view: Any, c: Any) -> str:
    slot = dodge_slot(view, c.id)
    if slot is None:
        return "free, Defending"
    return f"your slot in Second {slot[0]}"


def _dodge(view: Any, c: Any, a: Action) -> str:
    p = _odds(view, c, a)
    boost = _MORALE if a.boosts else ""
    return (f"dodge{boost}: {p.dodge_miss:.0%} to make it miss; costs {_cost(view, c)}, "
            f"{rulings.DODGE_STAMINA} Stamina")


def _multidodge(view: Any, c: Any, a: Action) -> str:
    p = _odds(view, c, a)
    how = "step back" if a.args == ("back",) else "hold ground"
    boost = "," + _MORALE if a.boosts else ""
    cost = _cost(view, c).replace("your slot in ", "")
    return (f"multi-dodge, {how}{boost} ({p.dodge_miss:.0%}; holds to your turn; "
            f"{cost}, {rulings.MULTIDODGE_STAMINA} Sta)")


def _pass(view: Any, c: Any, a: Action) -> str:
    info = _window(view)
    if view.decision == "opportunity":
        return f"let {display_name(view, info['mover'])} go (no opportunity strike)"
    if view.decision == "defense":
        return f"take the blow from {display_name(view, info['attacker'])} ({info['s0']} " \
               "to hit): no defence"
    if view.decision == "save":
        return "keep your Morale: roll the save as it is"
    if view.decision == "post_roll":
        return "keep your Morale: the total stands"
    return "decline"


def _wait(view: Any, c: Any, a: Action) -> str:
    s = view.second
    return f"wait: let your slot in Second {s} go by"


def _defend(view: Any, c: Any, a: Action) -> str:
    return "defend: dodges cost no slot until your next turn (Stamina still paid)"


def _rest(view: Any, c: Any, a: Action) -> str:
    return f"rest: 1D4 Stamina every {view.options.rest_every} Seconds of rest " \
           f"({c.stamina}/{c.profile.stamina_max} now)"


def _continue(view: Any, c: Any, a: Action) -> str:
    what = (c.commitment or "the action").split(": ", 1)[-1]
    return f"continue {what} (spends this slot; {c.reserved_left() - 1} more reserved)"


def _boost(view: Any, c: Any, a: Action) -> str:
    return f"morale boost: +2 to your next roll this turn, 1 Morale ({c.morale} left)"


def _closing(view: Any, c: Any, a: Action) -> str:
    x = int(a.args[0])
    return (f"close wounds: -{x} Wounds a Second for 3 s, {x} Stamina; -100% to rolls "
            f"({c.wounds} Wounds now)")


def _drop(view: Any, c: Any, a: Action) -> str:
    return f"drop {a.args[0].replace('_', ' ')} (free): its penalty to rolls ends now"


def _spend_morale(view: Any, c: Any, a: Action) -> str:
    info = _window(view)
    if view.decision == "save":
        against = display_name(view, info["against"]) if info.get("against") else "it"
        return (f"spend 1 Morale: +2 to your save against {against} "
                f"({c.morale} Morale left)")
    roll = str(info.get("roll", "roll")).replace("_", " ")
    return f"spend 1 Morale: +1 to your {roll} total of {info.get('own', '?')} after the roll"


def _cast(view: Any, c: Any, a: Action) -> str:
    from .rules.catalogue import catalogue
    assert a.target is not None
    sp = catalogue().spells[a.args[0]]
    who = "yourself" if a.target == c.id else display_name(view, a.target)
    acts = "1 Action" if sp.actions == 1 else f"{sp.actions} Actions"
    what = f"cast {sp.id.replace('_', ' ')} on {who}"
    if sp.damage is not None:
        what += f" ({sp.damage.count}d{sp.damage.sides} {sp.type or sp.school})"
    head = "opportunity: " if view.decision == "opportunity" else ""
    return f"{head}{what}: {sp.ee} E.E., {acts} ({c.fx.ee} E.E. left)"


def _aimed(verb: str, why: str) -> Any:
    def words(view: Any, c: Any, a: Action) -> str:
        assert a.target is not None
        return f"{verb} {display_name(view, a.target)}: {why}"
    return words


def _plain_words(text: str) -> Any:
    def words(view: Any, c: Any, a: Action) -> str:
        return text.format(c=c, arg=(a.args[0].replace("_", " ") if a.args else ""))
    return words


_WORDS = {
    "strike": _strike, "move": _move, "step": _move, "parry": _parry, "dodge": _dodge,
    "multidodge": _multidodge, "pass": _pass, "wait": _wait, "defend": _defend, "rest": _rest,
    "continue": _continue, "morale_boost": _boost, "closing_wounds": _closing, "drop": _drop,
    "spend_morale": _spend_morale, "cast": _cast,
    "taunt": _aimed("taunt", "a check against its Save vs Insanity, it must come at you"),
    "distract": _aimed("distract", "a check against its Save vs Insanity; a win distracts it"),
    "knockdown": _aimed("knock down", "opposed Maneuver; a win leaves it Prone"),
    "stand": _plain_words("stand up (free): no strike, Full Move or knockdown this turn"),
    "extinguish": _plain_words("beat out the flames: Ignite burns 2 Seconds shorter"),
    "morale_to_se": _plain_words("spend 1 Morale (free) for 5% of your S.E. "
                                 "({c.morale} Morale left)"),
    "power_draw": _plain_words("power draw: +{arg} E.E. a Second for 3 s, {arg} Stamina; "
                               "-100% to rolls"),
    "escape": _plain_words("escape: leave the fight from your home edge"),
}
