"""Metanoia's actions in plain words (the registry's ``describe`` part): one line a GM reads.

``describe(action, view)`` puts a legal action of ``view`` (the live ``MetanoiaEncounter``, only
read) in words, with the combatants' display names (``StatBlock.name``; a name two combatants
share gets the id: "Gravel Brute [b2]") and the odds of the rules' own preview
(``MetanoiaEncounter.preview``: the chance to win the opposed roll against no reactive keyword,
what lands, the Strain it costs)::

    duelist: attack deteriorating+rot_blade -> warden
        attack Shadow Warden with Deteriorating 2+3 (rot blade) (38% to win, Injury 5, 1 Strain)
    rotblade_duelist: move 0   fall back to your rear zone 0 (Shadow Warden may challenge)
    warden: react counter      counter Rotblade Duelist's Deteriorating with Counter 3 (29% to
                               win, Injury 1 back)
    medic: support mend -> ally
        mend ally's lightest Injury with Mend 2 (1 -> 0, 1 Strain)
    brute: intercept yes       intercept Rotblade Duelist's Deteriorating on Hollow Sentinel:
                               take it yourself

Options read ``Keyword rank`` for an ability, ``Keyword rank (item)`` for an item alone and
``Keyword a+i (item)`` for an ability paired with its item (ranks added, spec §2.4); traits are
``+Motive`` / ``+Identity``. Zones are named from the actor's side (RULING R22, R37): "your rear
zone 0", "the front zone 1" (the middle of three), "the enemy's rear zone 2", else "zone N". A
description stays near ``LIMIT`` characters: the bracketed extras after the first are left out
past it. An unknown kind (or an action that does not fit the state) falls back to the label
without its actor; describing never raises and never changes the encounter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from envs.core.actions import Action
from envs.core.describe import by_kind, unique_name

from .fighters import STATUS_OF, option_named
from .legality import rear

if TYPE_CHECKING:
    from .catalogue import Option
    from .fighters import Fighter
    from .preview import Landing
    from .state import MetanoiaEncounter

__all__ = ["LIMIT", "describe"]

LIMIT = 90
"""the length a description keeps to by leaving out its later bracketed extras"""
WHAT = {"attack": "attack", "condition": "attack", "argue": "argument", "mark": "mark",
        "move": "move"}
"""a pending declaration without an option as a Reactor or a guard reads it"""


def describe(action: Action, view: Any) -> str:
    """``action`` (legal in the encounter ``view``) in plain words, one line."""
    return by_kind(_KINDS, action, view)


# ---------------------------------------------------------------------------------- wording helpers


def name(enc: MetanoiaEncounter, cid: str | None) -> str:
    """The display name of ``cid``: "Shadow Warden", or "Gravel Brute [brute_2]" when shared."""
    if cid is None:
        return "nobody"
    f = enc.by_id[cid]
    return unique_name(f.block.name, cid, (g.block.name for g in enc.fighters))


def option_words(o: Option) -> str:
    """"Deteriorating 2", "Strike 1 (shadow knife)", "Deteriorating 2+3 (rot blade)"."""
    keyword = o.keyword.capitalize()
    if o.item is None:
        return f"{keyword} {o.rank}"
    item = o.item.replace("_", " ")
    if o.origin == "pair":
        return f"{keyword} {o.rank - o.item_rank}+{o.item_rank} ({item})"
    return f"{keyword} {o.rank} ({item})"


def traits(boosts: tuple[str, ...]) -> str:
    """" +Motive", " +Motive+Identity" or ""."""
    return " +" + "+".join(b.capitalize() for b in boosts) if boosts else ""


def pct(p: float) -> str:
    return f"{round(100 * p)}%"


def fit(head: str, extras: list[str]) -> str:
    """``head (extra, extra, ...)``, the extras after the first left out past ``LIMIT``."""
    kept = [e for e in extras if e]
    while len(kept) > 1 and len(f"{head} ({', '.join(kept)})") > LIMIT:
        kept.pop()
    return f"{head} ({', '.join(kept)})" if kept else head


def cost(strain: int, fuel: int = 0) -> str:
    """"2 Strain", "1 Strain + 1 of their stacks", or "" when free."""
    parts = [f"{strain} Strain"] if strain else []
    if fuel:
        parts.append(f"{fuel} of their stack{'s' if fuel > 1 else ''}")
    return " + ".join(parts)


def lands(hit: Landing | None) -> str:
    """What an option lands if its user wins: "Injury 3", "Pinned 2", "-1 Conviction, -2 Strain"
    (spec §5.6), "lands nothing" when Resistance takes the whole rank (RULING R13)."""
    if hit is None:
        return ""
    if hit.final == 0:
        return "lands nothing"
    if hit.mode == "injury":
        return f"Injury {hit.final}" + (f" x{hit.count}" if hit.count > 1 else "")
    if hit.mode == "condition":
        return f"{STATUS_OF.get(hit.keyword, hit.keyword).capitalize()} {hit.final}"
    loss = f"-{hit.count} Conviction{'s' if hit.count > 1 else ''}"
    return loss + (f", -{hit.final} Strain" if hit.keyword == "demoralize" else "")


def zone_words(enc: MetanoiaEncounter, c: Fighter, z: int) -> str:
    """Zone ``z`` as ``c`` sees it (RULING R22, R37)."""
    last = enc.options.zones - 1
    own = rear(enc, c.side)
    if z == own:
        return f"your rear zone {z}"
    if z == last - own:
        return f"the enemy's rear zone {z}"
    if last == 2:
        return f"the front zone {z}"
    return f"zone {z}"


def declared(enc: MetanoiaEncounter) -> str:
    """The pending declaration as the one answering it reads it: "Rotblade Duelist's
    Deteriorating", "Shadow Warden's mark", "Hexbow Skirmisher's move"."""
    pend = enc.pending
    assert pend is not None
    what = pend.option.keyword.capitalize() if pend.option else WHAT.get(pend.kind, pend.kind)
    return f"{name(enc, pend.actor)}'s {what}"


def option_of(c: Fighter, a: Action) -> Option:
    o = option_named(c.block, a.args[0])
    if o is None:
        raise ValueError(a.args[0])
    return o


# ---------------------------------------------------------------------------------- the kinds


def hostile(enc: MetanoiaEncounter, c: Fighter, a: Action) -> str:
    """Attack, condition, argue and mark (spec §5.1 #1-#3, #5)."""
    who = name(enc, a.target)
    p = enc.preview(a)
    if a.kind == "mark":
        head = f"mark {who}{traits(a.boosts)}"
        return fit(head, [f"{pct(p.p_actor)} to win", "margin as stacks on the loser",
                          cost(p.strain)])
    o = option_of(c, a)
    verb = {"attack": "attack {} with", "condition": "afflict {} with",
            "argue": "argue with {} using"}[a.kind]
    head = f"{verb.format(who)} {option_words(o)}{traits(a.boosts)}"
    return fit(head, [f"{pct(p.p_actor)} to win", lands(p.lands), cost(p.strain, p.fuel)])


def move(enc: MetanoiaEncounter, c: Fighter, a: Action) -> str:
    """Move (spec §5.11, RULING R23 challenges, R35 hazards)."""
    z = int(a.args[0])
    toward_enemy = abs(z - rear(enc, c.side)) > abs(c.zone - rear(enc, c.side))
    verb = "advance to" if toward_enemy else "fall back to"
    head = f"{verb} {zone_words(enc, c, z)}{traits(a.boosts)}"
    extras = []
    hazard = enc.hazards.get(z, 0) if enc.options.hazards else 0
    if hazard:
        extras.append(f"hazard {hazard}: {pct(enc.preview(a).p_actor)} to get in")
    watchers = [] if c.concealed else [
        f for f in enc.fighters if f.side != c.side and f.active and f.zone == c.zone
    ]
    if len(watchers) == 1:
        extras.append(f"{name(enc, watchers[0].id)} may challenge")
    elif watchers:
        extras.append(f"{len(watchers)} enemies may challenge")
    return fit(head, extras)


def support(enc: MetanoiaEncounter, c: Fighter, a: Action) -> str:
    """Support keywords (spec §5.3 #9-#12, RULING R12, R33)."""
    o = option_of(c, a)
    assert a.target is not None
    t = enc.by_id[a.target]
    whose = "your" if t is c else f"{name(enc, t.id)}'s"
    who = "yourself" if t is c else name(enc, t.id)
    p = enc.preview(a)
    spend = cost(p.strain, p.fuel)
    kw, rank, words = o.keyword, o.rank, option_words(o)
    if kw == "mend":
        low = min(s for _, s in t.injuries)
        after = max(0, low - rank - min(t.stacks, max(0, low - rank)))
        return fit(f"mend {whose} lightest Injury with {words}", [f"{low} -> {after}", spend])
    if kw == "clear":
        n = min(rank, t.stacks)
        return fit(f"clear {n} stack{'s' if n > 1 else ''} from {who} with {words}", [spend])
    if kw == "rally":
        top, conv = t.block.conv_max, t.conv
        n = min(rank, (top or 0) - (conv or 0))
        back = f"{n} Conviction{'s' if n > 1 else ''} back"
        return fit(f"rally {who} with {words}", [back, spend])
    if kw == "hidden":
        return fit(f"hide {who} with {words}", [f"concealment {rank}", spend])
    return fit(f"support {who} with {words}", [spend])


def react(enc: MetanoiaEncounter, c: Fighter, a: Action) -> str:
    """The Reactor's answer (spec §6.1, RULING R7): its reactive option or none."""
    pend = enc.pending
    assert pend is not None
    what = declared(enc)
    p = enc.preview(a)
    chance = f"{pct(p.p_reactor)} to {'stop it' if pend.kind == 'move' else 'win'}"
    spend = cost(p.strain, p.fuel)
    if a.args[0] == "none":
        verb = "oppose" if pend.kind == "move" else "defend against"
        return fit(f"{verb} {what}{traits(a.boosts)}, no keyword", [chance, spend])
    o = option_of(c, a)
    words = f"{option_words(o)}{traits(a.boosts)}"
    back = lands(p.backlash)
    if o.keyword == "counter":
        return fit(f"counter {what} with {words}", [chance, back and f"{back} back", spend])
    if o.keyword == "slip":
        return fit(f"slip {what} with {words}", [chance, back and f"{back} on them", spend])
    if o.keyword == "ward":
        dice = f"+{o.rank} {'die' if o.rank == 1 else 'dice'}"
        return fit(f"ward off {what} with {words}", [chance, dice, spend])
    return fit(f"answer {what} with {words}", [chance, spend])


def intercept(enc: MetanoiaEncounter, c: Fighter, a: Action) -> str:
    """A Guarding ally's choice (RULING R25, R41)."""
    pend = enc.pending
    assert pend is not None
    what = f"{declared(enc)} on {name(enc, pend.target)}"
    if a.args[0] == "yes":
        return f"intercept {what}: take it yourself"
    return f"let {what} through"


def challenge(enc: MetanoiaEncounter, c: Fighter, a: Action) -> str:
    """An enemy's choice to oppose a Move out of its zone (RULING R23)."""
    pend = enc.pending
    assert pend is not None and pend.move_to is not None
    mover = name(enc, pend.actor)
    where = f"zone {pend.move_to}"
    if a.args[0] == "yes":
        p = enc.preview(a)
        return fit(f"challenge {mover}'s move to {where}", [f"{pct(p.p_reactor)} to stop it"])
    return f"let {mover} move to {where} unopposed"


def recover(enc: MetanoiaEncounter, c: Fighter, a: Action) -> str:
    top = c.block.strain_max
    if c.strain >= top:
        return f"recover (Strain already full, {c.strain}/{top})"
    return f"recover: regain 1 Strain ({c.strain + 1}/{top})"


def hide(enc: MetanoiaEncounter, c: Fighter, a: Action) -> str:
    p = enc.preview(a)
    return fit(f"hide{traits(a.boosts)}", [f"{pct(p.p_actor)} to become Obscured",
                                           cost(p.strain)])


def sense(enc: MetanoiaEncounter, c: Fighter, a: Action) -> str:
    assert a.target is not None
    p = enc.preview(a)
    rank = enc.by_id[a.target].concealment
    head = f"search for the concealed {name(enc, a.target)}{traits(a.boosts)}"
    return fit(head, [f"{pct(p.p_actor)} to reveal them", f"concealment {rank}", cost(p.strain)])


_KINDS: dict[str, Callable[[MetanoiaEncounter, Fighter, Action], str]] = {
    "attack": hostile,
    "condition": hostile,
    "argue": hostile,
    "mark": hostile,
    "move": move,
    "support": support,
    "react": react,
    "intercept": intercept,
    "challenge": challenge,
    "recover": recover,
    "hide": hide,
    "sense": sense,
    "guard": lambda enc, c, a: (
        f"guard {name(enc, a.target)} until your next turn (may take an attack meant for them)"
    ),
    "withdraw": lambda enc, c, a: "withdraw: leave the fight from your rear zone (Fled)",
}
"""kind -> ``words(encounter, actor, action)``"""
