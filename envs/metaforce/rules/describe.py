"""Metaforce's actions in a GM's words (the registry's ``describe`` part).

``describe(action, enc)``: ``fighter: attack warhammer approach -> odonghe_brawler`` reads
"close in on the Odonghe Brawler and attack with the warhammer (97% direct, ~13 harm)". The odds
are the engine's public preview (``preview_attack``) from where the two stand now. It only reads
the encounter and never changes it; an unknown kind reads as the label without its actor
(``envs.core.describe``).
"""

from __future__ import annotations

from typing import Any

from envs.core import Action
from envs.core.describe import Words, by_kind, unique_name

from .legal import split_mode
from .preview import preview_attack

__all__ = ["describe", "name_of"]


def name_of(enc: Any, cid: str | None) -> str:
    """``the Fighter`` (the stat block's name, ``[id]`` added when two share it)."""
    if cid is None or cid not in enc.by_id:
        return str(cid)
    names = [_short(c) for c in enc.combatants]
    return "the " + unique_name(_short(enc.by_id[cid]), cid, names)


def _short(c: Any) -> str:
    """``Odonghe Brawler (Body core)`` -> ``Odonghe Brawler``."""
    return (c.profile.name or c.id).split(" (")[0]


def _item(wid: str) -> str:
    return "the " + wid.replace("_", " ")


def _odds(enc: Any, c: Any, wid: str, target: str) -> str:
    try:
        p = preview_attack(enc, c.id, wid, target)
    except (KeyError, ValueError):
        return ""
    return f" ({round(100 * p.hit)}% to hit, {round(100 * p.direct)}% direct, " \
           f"~{p.expected_damage:.0f} harm)"


def _move(enc: Any, a: Action, then: str) -> str:
    """The movement words of a frame action around its activity ``then``."""
    _, mode = split_mode(a.args)
    ref = name_of(enc, a.target)
    if mode == "approach":
        return f"close in and {then}" if then else f"close in on {ref}"
    if mode == "retreat":
        return f"{then}, then fall back" if then else f"fall back from {ref}"
    return then or "hold position"


def _attack(enc: Any, c: Any, a: Action) -> str:
    args, _ = split_mode(a.args)
    wid = args[0]
    meta = " with a Meta-Die ready" if "meta" in a.boosts else ""
    what = f"attack {name_of(enc, a.target)} with {_item(wid)}{meta}" \
           f"{_odds(enc, c, wid, str(a.target))}"
    return _move(enc, a, what) if a.kind != "react" else what


def _fire(enc: Any, c: Any, a: Action) -> str:
    args, _ = split_mode(a.args)
    n = int(args[1])
    shots = "one shot" if n == 1 else f"{n} shots"
    return _move(enc, a, f"fire {shots} of {_item(args[0])} at {name_of(enc, a.target)}"
                         f"{_odds(enc, c, args[0], str(a.target))}")


def _simple(text: str) -> Words:
    def words(enc: Any, c: Any, a: Action) -> str:
        args, _ = split_mode(a.args)
        return _move(enc, a, text.format(*args, target=name_of(enc, a.target)))
    return words


def _react(enc: Any, c: Any, a: Action) -> str:
    what = a.args[0]
    if what == "attack":
        inner = Action(a.actor, "react", a.args[1:], a.target, a.boosts)
        return "react: " + _attack(enc, c, inner)
    if what == "throw":
        return f"react: throw {_item(a.args[1])} at {name_of(enc, a.target)}"
    if what == "prime":
        return f"react: ready an arrow on {_item(a.args[1])}"
    if what == "maintain":
        return f"react: tighten the grip on {name_of(enc, a.target)}"
    if what == "action8":
        return "react: Action-8, the Reaction becomes a whole frame (8 MP)"
    if what == "approach":
        return f"react: move toward {name_of(enc, a.target)}"
    return f"react: move away from {name_of(enc, a.target)}"


def _pass(enc: Any, c: Any, a: Action) -> str:
    if enc.decision == "deus_ex":
        return "accept death"
    if enc.decision == "crit":
        return "let the default policy place V"
    if enc.decision in ("dodge", "crash_out", "finishing_touch", "meta_die", "fudge",
                        "force_fate", "magic_effect", "meta_status"):
        return "do not use it"
    if enc.decision == "reaction":
        return "let it go (keep the Reaction)"
    if c.casting is not None:
        return f"give up casting {_item(c.casting)}"
    return _move(enc, a, "")


def _fudge(enc: Any, a: Action) -> str:
    info = dict(enc.window.info) if enc.window is not None else {}
    if info.get("die"):  # the damage or Penetration die (spec §6.4: any of the user's own rolls)
        return f"Fudge Nudge: +1 on the {info['die']} die"
    if "v" in info and a.args[0] == "2":
        return "Fudge Nudge: +1 on the critical's md12 (V)"
    return f"Fudge Nudge: +1 on d12 number {a.args[0]} of the roll"


def _step(enc: Any, a: Action) -> str:
    """R-24: the 5-ft step of a casting or mana-tapping frame (none when held)."""
    if not a.args or a.args[-1] not in ("approach", "retreat"):
        return ""
    return f", 5 ft {'toward' if a.args[-1] == 'approach' else 'away from'} " \
           f"{name_of(enc, a.target)}"


TABLE: dict[str, Words] = {
    "pass": _pass,
    "dash": _simple("dash"),
    "attack": _attack,
    "fire": _fire,
    "throw": _simple("throw the {0} at {target}"),
    "special": _simple("prepare a Special Attack"),
    "reload": _simple("reload the {0}"),
    "prime": _simple("ready an arrow on the {0}"),
    "grapple": _simple("grab {target}"),
    "maintain": _simple("tighten the grip on {target}"),
    "release": lambda enc, c, a: f"stop concentrating on {_item(a.args[0])}" if a.args
    else f"let go of {name_of(enc, a.target)} (free)",
    "escape": _simple("break free of {0}"),
    "vigilance": lambda enc, c, a: "stay vigilant (2 Reactions, ends the turn)",
    "withdraw": lambda enc, c, a: "withdraw from the fight",
    "end_turn": lambda enc, c, a: f"end the turn ({c.frames_left} frame(s) unused)",
    "react": _react,
    "deus_ex": lambda enc, c, a: f"cheat death with Deus Ex (Max MP -{c.deus_ex_uses + 1})",
    "dodge": lambda enc, c, a: f"dodge (+{c.profile.dodge_bonus} Evasion, costs the Reaction)",
    "crash_out": lambda enc, c, a: "Crash Out: make the attacker save or be stunned",
    "finish": lambda enc, c, a: f"Finishing Touch: drop {name_of(enc, a.target)} to 0 HP",
    "meta_die": lambda enc, c, a: "Create a Meta-Die against the attacker's ToHit (MP = the die, "
                                  "only if it helps)",
    "cast": lambda enc, c, a: f"cast {_item(a.args[0])} at {name_of(enc, a.target)}"
    + _step(enc, a),
    "channel": lambda enc, c, a: f"keep casting {_item(str(c.casting))}" + _step(enc, a),
    "tap_mana": lambda enc, c, a: "tap mana for the next spell" + _step(enc, a),
    "crit": lambda enc, c, a: f"put the critical's V on {' '.join(a.args)}",
    "meta_status": lambda enc, c, a: f"Magic Effect: a Meta-Die as a {_item(a.args[0])} "
                                     "magnitude (MP = its result)",
    "action8": lambda enc, c, a: "Action-8: one more frame this turn (8 MP)",
    "reload_fire": _simple("reload the {0} and shoot {target} once"),
    "link": lambda enc, c, a: f"Initiative Link: {name_of(enc, a.target)} acts right after me "
                              "from now on (once in the encounter)",
    "team_work": lambda enc, c, a: f"Team Work: {name_of(enc, a.target)} takes a frame at once "
                                   "(costs this frame)",
    "fudge": lambda enc, c, a: _fudge(enc, a),
    "force_fate": lambda enc, c, a: f"Force Fate: move the ToHit to a {a.args[0]} result",
    "magic_effect": lambda enc, c, a: f"Magic Effect: add {a.args[0]} MP to the critical's V",
    "react4": lambda enc, c, a: "React-4: one more Reaction after this turn (4 MP)",
    "safe6": lambda enc, c, a: "Safe-6: own dice count at least 6 for two frames (6 MP)",
    "assurance8": lambda enc, c, a: "Assurance-8: own dice count at least 8 for two frames "
                                    "(8 MP)",
}


def _fleeing(enc: Any, a: Action) -> str:
    """spec §7.5 Fear: a held attack of a Feared combatant is followed by its flight."""
    from .full_statuses import AIMED, fear_source
    c = getattr(enc, "by_id", {}).get(a.actor)
    if c is None or not c.statuses or a.kind not in AIMED or split_mode(a.args)[1] != "hold" \
            or enc.decision != "frame":
        return ""
    src = fear_source(enc, c)
    return f", then flee from {name_of(enc, src.id)}" if src is not None else ""


def describe(action: Action, view: Any) -> str:
    """``action`` in plain words (``view``: the live encounter the action is legal in)."""
    return by_kind(TABLE, action, view) + _fleeing(view, action)
