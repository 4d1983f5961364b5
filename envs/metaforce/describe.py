"""Metaforce's actions in plain words (the registry's ``describe`` part): one line a GM reads.

``describe(action, view)`` puts a legal action of ``view`` (the live ``MetaforceEncounter``, only
read) in words, with display names made from the combatants' ids (``hill_giant`` -> "the Hill
Giant", ``bandit_2`` -> "Bandit 2"; the engine's ``Profile`` carries no stat-block name) and the
odds of the engine's public preview (``preview_attack``: chance to hit, expected harm after
the target's defences)::

    fighter: attack warhammer -> odonghe_brawler    strike the Odonghe Brawler with the
                                                    warhammer (100% to hit, ~15.6 harm)
    hill_giant: attack great_club -> fighter        strike the Fighter with the great club
                                                    (100% to hit, 83% direct, ~43.0 harm)
    detective: fire revolver 2 -> hill_giant        shoot the Hill Giant twice with the revolver
                                                    (100% to hit, ~42.3 harm)
    detective: reload revolver retreat -> bandit    reload the revolver (5/6 loaded, 12 spare),
                                                    then fall back from the Bandit
    fighter: deus_ex                                use Deus Ex to survive this blow (costs 1
                                                    Max MP)
    fighter: action8                                use Action-8: one more frame this turn (8
                                                    MP, 1 left)

A move mode reads "close in, then ..." or "move toward X, then ..." (``approach``: it moves
first) and "..., then fall back (from X)" (``retreat``: it acts first). A description keeps
to ``LIMIT`` characters (past it the odds read "(55%, ~6.5)"). An unknown kind (or an action
that does not fit the state) falls back to the label without its actor; describing never
raises and never changes the encounter (the previews are memoised in the encounter's
per-decision cache, which every ``apply`` clears).
"""

from __future__ import annotations

from typing import Any

from envs.core import Action
from envs.core.describe import by_kind, unique_name

from .rules import preview_attack

__all__ = ["LIMIT", "describe", "display_name"]

LIMIT = 90
"""the most characters of a description"""
_TIMES = {1: "once", 2: "twice", 3: "three times"}
_ESCAPE = {"grappled": "break free of the grapple", "burn": "put out the flames (Burn)"}
_WEAPON_WORD = {"cantrip": "cast", "firearm": "shoot", "bow": "shoot"}


def display_name(view: Any, cid: str) -> str:
    """The name a GM says: ``hill_giant`` -> ``the Hill Giant``, ``bandit_2`` -> ``Bandit 2``."""
    words = [w.capitalize() if not w.isdigit() else w for w in cid.split("_") if w]
    name = " ".join(words) or cid
    if not words[-1:] or not words[-1].isdigit():
        name = "the " + name
    return unique_name(name, cid, (c.id for c in view.combatants))


def describe(action: Action, view: Any) -> str:
    """``action`` (legal in the encounter ``view``) in plain words, one line."""
    text = by_kind(_WORDS, action, view)
    return text if len(text) <= LIMIT else text[:LIMIT - 1].rstrip() + "…"


def _mode(args: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    if args and args[-1] in ("approach", "retreat"):
        return args[:-1], args[-1]
    return args, "hold"


def _moved(view: Any, text: str, mode: str, ref: str | None) -> str:
    """``text`` with its movement: approach moves first, retreat acts first (spec §4.2,
    §5.1)."""
    if mode == "hold" or ref is None:
        return text
    who = display_name(view, ref)
    if mode == "approach":
        return f"move toward {who}, then {text}"
    return f"{text}, then fall back from {who}"


def _odds(view: Any, actor: str, wid: str, target: str, shots: int = 1) -> tuple[str, str]:
    """`` (55% to hit, 30% direct, ~6.5 harm)`` and its short form `` (55%, ~6.5)``: the first
    shot's chance to hit, of a direct hit (spec §5.3.3: above Deflection, the full damage; said
    only where some hits would be deflected) and the expected harm of all ``shots``."""
    first = preview_attack(view, actor, wid, target)
    harm = first.expected_damage
    for k in range(2, shots + 1):
        harm += preview_attack(view, actor, wid, target, k).expected_damage
    hit, direct = f"{first.hit:.0%}", f"{first.direct:.0%}"
    more = f", {direct} direct" if direct != hit else ""
    return (f" ({hit} to hit{more}, ~{harm:.1f} harm)", f" ({hit}, ~{harm:.1f})")


def _fit(text: str, odds: tuple[str, str]) -> str:
    """``text`` with the long odds, or the short ones past ``LIMIT``."""
    long = text + odds[0]
    return long if len(long) <= LIMIT else text + odds[1]


def _weapon_name(wid: str) -> str:
    return wid.replace("_", " ")


def _with(wid: str) -> str:
    """`` with the warhammer``; ``unarmed`` reads `` bare-handed``."""
    return " bare-handed" if wid == "unarmed" else f" with the {_weapon_name(wid)}"


def _aimed(what: str, mode: str, odds: tuple[str, str]) -> str:
    if mode == "approach":
        return _fit(f"close in, then {what}", odds)
    if mode == "retreat":
        return _fit(f"{what}, then fall back", odds)
    return _fit(what, odds)


def _attack(view: Any, c: Any, a: Action) -> str:
    args, mode = _mode(a.args)
    wid = args[0]
    w = c.profile.weapon(wid)
    assert a.target is not None
    who = display_name(view, a.target)
    if w.family == "cantrip":
        what = f"cast {_weapon_name(wid)} at {who}"
    elif w.family in ("bow", "firearm"):
        what = f"shoot {who}{_with(wid)}"
    elif w.family == "natural":
        what = f"strike {who} with its {_weapon_name(wid)}"
    else:
        what = f"strike {who}{_with(wid)}"
    if a.boosts == ("meta",):
        what += " + Meta Die"
    return _aimed(what, mode, _odds(view, c.id, wid, a.target))


def _fire(view: Any, c: Any, a: Action) -> str:
    args, mode = _mode(a.args)
    wid, shots = args[0], int(args[1])
    assert a.target is not None
    times = _TIMES.get(shots, f"{shots} times")
    what = f"shoot {display_name(view, a.target)} {times}{_with(wid)}"
    return _aimed(what, mode, _odds(view, c.id, wid, a.target, shots))


def _throw(view: Any, c: Any, a: Action) -> str:
    args, mode = _mode(a.args)
    assert a.target is not None
    what = f"throw the {_weapon_name(args[0])} at {display_name(view, a.target)}"
    return _aimed(what, mode, _odds(view, c.id, args[0], a.target))


def _pass(view: Any, c: Any, a: Action) -> str:
    decision = view.decision
    if decision == "reaction":
        return "let it pass: no Reaction now"
    if decision == "deus_ex":
        return "take the blow without Deus Ex"
    if decision in _DECLINE:
        return _DECLINE[decision]
    _, mode = _mode(a.args)
    if mode == "hold":
        return "do nothing this frame"
    who = display_name(view, str(a.target))
    return f"move toward {who}" if mode == "approach" else f"move away from {who}"


def _dash(view: Any, c: Any, a: Action) -> str:
    _, mode = _mode(a.args)
    who = display_name(view, str(a.target))
    where = "toward" if mode == "approach" else "away from"
    return f"dash {where} {who} (twice the Speed, {2 * c.speed_squares() * 5} ft)"


def _special(view: Any, c: Any, a: Action) -> str:
    from .rules.attack import special_status
    status = next((s for s in (special_status(w) for w in c.weapons()) if s), "a status")
    _, mode = _mode(a.args)
    if mode == "hold":
        return f"set up a Special Attack ({status}) for the next attack"
    return _moved(view, f"set up a Special Attack ({status})", mode, a.target)


def _reload(view: Any, c: Any, a: Action) -> str:
    args, mode = _mode(a.args)
    wid = args[0]
    w = c.profile.weapon(wid)
    loaded, reserve = c.loaded.get(wid, 0), c.reserve.get(wid, 0)
    text = f"reload the {_weapon_name(wid)} ({loaded}/{w.capacity} loaded, {reserve} spare)"
    return _moved(view, text, mode, a.target)


def _prime(view: Any, c: Any, a: Action) -> str:
    args, mode = _mode(a.args)
    text = f"nock an arrow on the {_weapon_name(args[0])} ({c.arrows.get(args[0], 0)} left)"
    return _moved(view, text, mode, a.target)


def _grapple(view: Any, c: Any, a: Action) -> str:
    _, mode = _mode(a.args)
    who = display_name(view, str(a.target))
    if mode == "approach":
        return f"close in and grab {who} (grapple)"
    text = f"grab {who} (grapple)"
    return text + ", then pull back" if mode == "retreat" else text


def _maintain(view: Any, c: Any, a: Action) -> str:
    return f"keep hold of {display_name(view, str(a.target))} (maintain the grapple)"


def _escape(view: Any, c: Any, a: Action) -> str:
    status = a.args[0]
    m = c.magnitude(status)
    return f"try to {_ESCAPE.get(status, 'shake off ' + status)} (magnitude {m})"


def _vigilance(view: Any, c: Any, a: Action) -> str:
    return "stay vigilant: end the turn ready to react"


def _withdraw(view: Any, c: Any, a: Action) -> str:
    return "withdraw: leave the battlefield by this edge (out of the fight)"


def _end_turn(view: Any, c: Any, a: Action) -> str:
    return f"end the turn ({c.frames_left} frame{'s' if c.frames_left != 1 else ''} unused)"


def _react(view: Any, c: Any, a: Action) -> str:
    what = a.args[0]
    if what == "prime":
        return f"react: nock an arrow on the {_weapon_name(a.args[1])}"
    if what == "action8":
        return "react: use Action-8, the Reaction becomes a whole frame (8 MP)"
    assert a.target is not None
    who = display_name(view, a.target)
    if what == "maintain":
        return f"react: keep hold of {who} (maintain the grapple)"
    if what == "approach":
        return f"react: move toward {who}"
    if what == "retreat":
        return f"react: move away from {who}"
    wid = a.args[1]
    w = c.profile.weapon(wid)
    if what == "throw":
        verb = f"throw the {_weapon_name(wid)} at {who}"
    elif w.family == "cantrip":
        verb = f"cast {_weapon_name(wid)} at {who}"
    elif w.family == "natural":
        verb = f"strike {who} with its {_weapon_name(wid)}"
    else:
        verb = f"{_WEAPON_WORD.get(w.family, 'strike')} {who}{_with(wid)}"
    if a.boosts == ("meta",):
        verb += " + Meta Die"
    return _fit(f"react: {verb}", _odds(view, c.id, wid, a.target))


def _deus_ex(view: Any, c: Any, a: Action) -> str:
    return f"use Deus Ex to survive this blow (costs {c.deus_ex_uses + 1} Max MP)"


def _info(view: Any) -> dict[str, Any]:
    w = view.window
    return dict(w.info) if w is not None else {}


def _dodge(view: Any, c: Any, a: Action) -> str:
    bonus = _info(view).get("bonus")
    more = f", +{bonus} Evasion" if bonus else ""
    return f"dodge the attack (spends the Reaction{more})"


def _crash_out(view: Any, c: Any, a: Action) -> str:
    info = _info(view)
    who = display_name(view, str(info["attacker"])) if "attacker" in info else "the attacker"
    cost = f" ({info['cost']} MP)" if "cost" in info else ""
    return f"Crash Out against {who}{cost}"


def _finish(view: Any, c: Any, a: Action) -> str:
    cost = _info(view).get("cost")
    return (f"use Finishing Touch on {display_name(view, str(a.target))}"
            + (f" ({cost} MP)" if cost is not None else ""))


def _crit(view: Any, c: Any, a: Action) -> str:
    v = _info(view).get("v")
    what = {"tohit": "ToHit", "damage": "damage", "magnitude": "the status magnitude",
            "size": "Size Damage"}.get(a.args[0], a.args[0])
    if len(a.args) == 2:  # Magic Effect (FULL): any status
        what = f"a {a.args[1].replace('_', ' ')} magnitude (Magic Effect)"
    return f"put the critical's V{f' ({v})' if v is not None else ''} on {what}"


def _meta_status(view: Any, c: Any, a: Action) -> str:
    die = _info(view).get("die")
    return (f"Magic Effect: roll a Meta-Die{f' (d{die})' if die else ''} as a "
            f"{a.args[0].replace('_', ' ')} magnitude (MP = its result)")


def _meta_die(view: Any, c: Any, a: Action) -> str:
    info = _info(view)
    who = display_name(view, str(info["attacker"])) if "attacker" in info else "the attacker"
    die = f" (a d{info['die']}, paid in MP only if it lowers the band)" if "die" in info else ""
    return f"Create a Meta-Die against {who}'s ToHit{die}"


def _cast(view: Any, c: Any, a: Action) -> str:
    if a.target == a.actor:
        return f"cast {a.args[0].replace('_', ' ')} on myself"
    if any(sp.id == a.args[0] for sp in c.profile.cantrips):  # Ward, Heal (FULL)
        return f"cast {a.args[0].replace('_', ' ')} on {display_name(view, str(a.target))}"
    step = ""
    if a.args[-1] in ("approach", "retreat"):  # a 5-ft step as casting begins
        step = f", 5 ft {'toward' if a.args[-1] == 'approach' else 'away from'} the target"
    return f"cast {a.args[0].replace('_', ' ')} at {display_name(view, str(a.target))}{step}"


def _convoke(view: Any, c: Any, a: Action) -> str:
    caster = _info(view).get("caster")
    who = display_name(view, str(caster)) if caster else "the caster"
    return f"Convoke: give my tapped mana to {who} (spends the Reaction)"


def _combo(view: Any, c: Any, a: Action) -> str:
    names = " and ".join(_weapon_name(w) for w in c.profile.frame_combos[int(a.args[0])])
    return f"attack {display_name(view, str(a.target))} with {names} in one frame"


_DECLINE = {"fudge": "leave the dice as they are", "force_fate": "leave the ToHit as it is",
            "magic_effect": "add no MP to the V", "meta_status": "roll no Meta-Die for a status"}


def _team_work(view: Any, c: Any, a: Action) -> str:
    return f"Team Work: {display_name(view, str(a.target))} takes a frame now (costs this frame)"


def _link(view: Any, c: Any, a: Action) -> str:
    return f"Initiative Link: {display_name(view, str(a.target))} acts right after me from now on"


def _fudge(view: Any, c: Any, a: Action) -> str:
    info = _info(view)
    cost = info.get("costs", {}).get(a.args[0])
    what = f"the {info['die']} die" if info.get("die") else "the critical's V" \
        if "v" in info and a.args[0] == "2" else f"d12 number {a.args[0]}"
    return f"Fudge Nudge: +1 on {what}" + (f" ({cost} MP)" if cost else "")


def _force_fate(view: Any, c: Any, a: Action) -> str:
    cost = _info(view).get("costs", {}).get(a.args[0])
    return f"Force Fate: move the ToHit to a {a.args[0]} result" + (
        f" ({cost} MP)" if cost else "")


def _mpower(words: str, cost: int | None = None) -> Any:
    """An M-Power's words; with its MP ``cost``, what the MP pool keeps (1 MP keeps Deus Ex)."""
    if cost is None:
        return lambda view, c, a: words
    return lambda view, c, a: f"{words} ({cost} MP, {c.mp - cost} left)"


_WORDS = {
    "pass": _pass, "dash": _dash, "attack": _attack, "fire": _fire, "throw": _throw,
    "special": _special, "reload": _reload, "prime": _prime, "grapple": _grapple,
    "maintain": _maintain, "escape": _escape, "vigilance": _vigilance, "withdraw": _withdraw,
    "end_turn": _end_turn, "react": _react, "deus_ex": _deus_ex, "dodge": _dodge,
    "crash_out": _crash_out, "finish": _finish, "crit": _crit, "meta_die": _meta_die,
    "meta_status": _meta_status,
    "cast": _cast,
    "channel": lambda view, c, a: "keep casting the spell (its next frame)" + (
        f", stepping 5 ft {'toward' if 'approach' in a.args else 'away from'} the target"
        if a.args else ""),
    "tap_mana": lambda view, c, a: "tap mana for the next spell" + (
        f", 5 ft {'toward' if a.args[0] == 'approach' else 'away from'} "
        f"{display_name(view, str(a.target))}" if a.args else ""),
    "action8": _mpower("use Action-8: one more frame this turn", 8),
    "react4": _mpower("use React-4: one more Reaction", 4),
    "safe6": _mpower("use Safe-6 on the own dice for two frames", 6),
    "assurance8": _mpower("use Assurance-8 on the own dice for two frames", 8),
    "reload_fire": lambda view, c, a: f"reload the {_weapon_name(a.args[0])} and shoot "
                                      f"{display_name(view, str(a.target))} once",
    "team_work": _team_work, "link": _link, "fudge": _fudge, "force_fate": _force_fate,
    "magic_effect": lambda view, c, a: f"Magic Effect: add {a.args[0]} MP to the critical's V",
    "convoke": _convoke, "combo": _combo,
    "concentrate": lambda view, c, a: "concentrate: keep the Unbroken effects going",
    "release": lambda view, c, a: f"release {a.args[0].replace('_', ' ')} (free, ends its "
                                  "Tension)" if a.args else
    f"let go of {display_name(view, str(a.target))} (free, ends the grapple)",
}
