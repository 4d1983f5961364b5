"""Mano a Mano's actions in plain words (the registry's ``describe`` part): one line a GM reads.

``describe(action, view)`` puts a legal action of ``view`` (the live ``ManoEncounter``, only read)
in words, with the display names of the fighters (``StatBlock.name``; a leading "The" lowercased
inside a sentence; a name two fighters share gets the id: "the Clone [clone_2]") and the odds of
the rules' own preview (``ManoEncounter.preview``: chance to hit, expected harm)::

    steven: move 1                            step around the Clone (south-east)
    steven: strike powerful machete -> clone  strike the Clone with the machete, powerful (60% to
                                              hit, ~6.0 harm)
    steven: strike quick machete avoid_next -> biker
                                              strike Biker with the machete, quick, avoiding the
                                              crash helmet (50% to hit, ~1.5 harm)
    wrestler: grapple push 1 -> guard         push Town Guard 1 hex south-east (65%, balance
                                              roll or fall)
    archer: shoot quick -> steven             shoot Steven with the light bow, quick (70% to hit,
                                              ~4.2 harm)
    mu: load                                  reload the musket: step 1 of 9 (takes the whole
                                              turn)

Directions are compass names of the hex directions (clockwise from east, envs/core/hexgrid.py);
a move is "toward", "away from" or "around" the nearest enemy still in the fight. Armor
avoidance names the pieces avoided ("avoiding the crash helmet"), "all armor", "all but the
leather jacket" or a count. A description stays near ``LIMIT`` characters: the bracketed extras
after the first are left out past it, and armor is counted rather than named past it. An
unknown kind (or an action that does not fit the state) falls back to the label without its
actor; describing never raises and never changes the encounter.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from envs.core import Action
from envs.core.describe import by_kind, unique_name
from envs.core.hexgrid import distance, neighbor

from . import guns
from . import resolution as R
from .modifiers import avoid_depth

if TYPE_CHECKING:
    from .fighter import Fighter
    from .preview import Preview
    from .state import ManoEncounter

__all__ = ["COMPASS", "LIMIT", "describe"]

COMPASS = ("east", "south-east", "south-west", "west", "north-west", "north-east")
"""compass names of hex directions 0..5 (clockwise from east; rows grow southward)"""
LIMIT = 90
"""the length a description keeps to by leaving out its later bracketed extras"""
ROOM = 15
"""what an attack's words keep free for its chance to hit, ``" (100% to hit)"``"""


def describe(action: Action, view: Any) -> str:
    """``action`` (legal in the encounter ``view``) in plain words, one line."""
    return by_kind(_KINDS, action, view)


# ---------------------------------------------------------------------------------- wording helpers


def name(enc: ManoEncounter, fid: str | None) -> str:
    """The display name of ``fid`` inside a sentence: "the Clone", "Town Guard [guard_2]"."""
    if fid is None:
        return "nobody"
    f = enc.by_id[fid]
    text = unique_name(f.block.name, fid, (g.block.name for g in enc.fighters))
    return "the " + text[4:] if text.startswith("The ") else text


def thing(item_id: str) -> str:
    """An item or natural weapon id in words: ``light_bow`` -> "light bow"."""
    return item_id.replace("_", " ")


def weapon_words(f: Fighter, weapon: str) -> str:
    """The weapon a strike uses: "the machete", "the right hand", "the right-hand knife"."""
    item, _, hand = weapon.partition("@")
    return f"the {hand}-hand {thing(item)}" if hand else f"the {thing(item)}"


def pct(p: float) -> str:
    return f"{round(100 * p)}%"


def fit(head: str, extras: list[str]) -> str:
    """``head (extra, extra, ...)``, the extras after the first left out past ``LIMIT``."""
    kept = list(extras)
    while len(kept) > 1 and len(f"{head} ({', '.join(kept)})") > LIMIT:
        kept.pop()
    return f"{head} ({', '.join(kept)})" if kept else head


def nearest_enemy(enc: ManoEncounter, f: Fighter) -> Fighter | None:
    """The nearest enemy still in the fight (the first in roster order among equals)."""
    foes = [g for g in enc.fighters if g.side != f.side and not g.incapacitated]
    return min(foes, key=lambda g: distance(f.hex, g.hex)) if foes else None


def armor_words(enc: ManoEncounter, target: Fighter, option: str | None, room: int = LIMIT) -> str:
    """", avoiding the leather cap" for an armor-avoidance argument (spec §2.6): the worn pieces
    (and natural armor) whose absorption lies above the level the option leaves; "all armor",
    "all but the leather jacket", or a count when naming them would take more than ``room``."""
    if option is None:
        return ""
    block = target.block
    levels = R.avoidance_levels(block.regions)
    level = levels[avoid_depth(option, len(levels) - 1)]
    worn = {w.item: w for w in block.armor}
    avoided: list[str] = []
    kept: list[str] = []
    for w in block.armor:
        outer = worn.get(w.inside) if w.inside else None
        absorption = w.region.absorption + (outer.region.absorption if outer else 0)
        above = not w.region.complete and absorption > level
        (avoided if above else kept).append(f"the {thing(w.item)}")
    for r in block.template.natural_armor:
        above = not r.complete and r.absorption > level
        (avoided if above else kept).append("the natural armor")
    if len(avoided) > 1 and not kept:
        return ", avoiding all armor"
    named = ", avoiding " + " and ".join(avoided or ["the armor"])
    if len(avoided) <= 1 or len(named) <= room:
        return named
    if len(kept) == 1:
        return f", avoiding all but {kept[0]}"
    return f", avoiding {len(avoided)} armor pieces"


def odds(p: Preview, choke: bool = False) -> list[str]:
    """``["55% to hit", "~5.2 harm"]``: the chance, and the expected damage plus stun over the
    twenty faces of the die (a choke: the stun)."""
    damage, stun = p.expected_harm(choke=choke)
    mean, what = (stun, "stun") if choke else (damage + stun, "harm")
    harm = f"~{mean:.1f} {what}" if mean else f"no {what}"
    return [f"{pct(p.chance)} to hit", harm]


def attack_extras(enc: ManoEncounter, p: Preview) -> list[str]:
    """What else a GM should know of an attack: a counter waiting, a coverer, a charge."""
    out = []
    target = enc.by_id[p.target]
    if target.counter_ready:
        out.append(f"{name(enc, target.id)} counters first")
    if p.coverer is not None:
        out.append(f"{name(enc, p.coverer)} covers")
    if p.charge_hexes:
        out.append(f"charging {p.charge_hexes} hexes")
    return out


def preview_of(enc: ManoEncounter, action: Action) -> Preview:
    p = enc.preview(action)
    if p is None:
        raise ValueError(f"no preview for {action.label}")
    return p


# ---------------------------------------------------------------------------------- the kinds


def move(enc: ManoEncounter, f: Fighter, a: Action) -> str:
    d = int(a.args[0])
    compass = COMPASS[d]
    mount = enc.mounted_on(f.id)
    rider = enc.rider_of(f.id)
    verb = f"ride {name(enc, mount)}" if mount else ("step" if f.standing else "crawl")
    foe = nearest_enemy(enc, f)
    if foe is None:
        text = f"{verb} {compass}"
    else:
        before, after = distance(f.hex, foe.hex), distance(neighbor(f.hex, d), foe.hex)
        way = "toward" if after < before else "away from" if after > before else "around"
        text = f"{verb} {way} {name(enc, foe.id)} ({compass})"
    return text + (f", carrying {name(enc, rider)}" if rider else "")


def strike(enc: ManoEncounter, f: Fighter, a: Action) -> str:
    p = preview_of(enc, a)
    verb, weapon = a.args[0], a.args[1]
    head = f"strike {name(enc, a.target)} with {weapon_words(f, weapon)}, {verb}"
    head += armor_words(enc, enc.by_id[p.target], a.args[2] if len(a.args) > 2 else None,
                         LIMIT - ROOM - len(head))
    extras = odds(p) + attack_extras(enc, p)
    if verb == "cautious":
        extras.append("then +5 defense")
    return fit(head, extras)


def grapple(enc: ManoEncounter, f: Fighter, a: Action) -> str:
    p = preview_of(enc, a)
    verb, target = a.args[0], enc.by_id[p.target]
    who = name(enc, target.id)
    chance = pct(p.chance)
    fall = f"a fall of power {p.hit_power}"
    if verb == "hold":
        return fit(f"grab and hold {who}", [f"{chance} to succeed"] + attack_extras(enc, p))
    if verb == "push":
        d = int(a.args[1])
        dest = neighbor(target.hex, d)
        if dest in enc.map and enc.map.at(dest).wall:
            return fit(f"push {who} into the wall to the {COMPASS[d]}", [chance, fall])
        return fit(f"push {who} 1 hex {COMPASS[d]}", [chance, "balance roll or fall"])
    if verb == "trip":
        return fit(f"trip {who}", [chance, f"balance roll or {fall}"])
    if verb == "slam":
        return fit(f"slam {who} to the ground", [chance, fall])
    if verb == "slam_onto":
        return fit(f"slam {who} down and fall on them", [chance, fall])
    if verb == "disarm":
        hand = a.args[1]
        where = "hands" if hand == "both" else f"{hand} hand"
        item = thing(target.held[hand])
        return fit(f"wrest the {item} from {who}'s {where}", [f"{chance} to succeed"])
    head = f"wrench {who}'s limbs" if verb == "wrench" else f"choke {who}"
    option = a.args[1] if len(a.args) > 1 else None
    head += armor_words(enc, target, option, LIMIT - ROOM - len(head))
    if verb == "wrench":
        return fit(head, odds(p) + attack_extras(enc, p))
    if verb == "choke":
        return fit(head, odds(p, choke=True) + attack_extras(enc, p))
    raise ValueError(verb)


def shoot(enc: ManoEncounter, f: Fighter, a: Action) -> str:
    p = preview_of(enc, a)
    verb, who = a.args[0], name(enc, a.target)
    extras = odds(p) + attack_extras(enc, p)
    if verb == "draw_and_fire":
        return fit(f"draw the {thing(p.weapon)} and shoot {who}", extras)
    if verb == "cautious":
        extras.append("then +5 defense")
    head = f"shoot {who} with the {thing(p.weapon)}, {verb}"
    option = a.args[1] if len(a.args) > 1 else None
    return fit(head + armor_words(enc, enc.by_id[p.target], option, LIMIT - ROOM - len(head)),
               extras)


def throw(enc: ManoEncounter, f: Fighter, a: Action) -> str:
    p = preview_of(enc, a)
    verb, hand = a.args[0], a.args[1]
    item, who = thing(f.held[hand]), name(enc, a.target)
    head = f"heave the {item} at {who}" if verb == "heave" else f"throw the {item} at {who}, {verb}"
    option = a.args[2] if len(a.args) > 2 else None
    head += armor_words(enc, enc.by_id[p.target], option, LIMIT - ROOM - len(head))
    return fit(head, odds(p) + attack_extras(enc, p))


def choose(enc: ManoEncounter, f: Fighter, a: Action) -> str:
    option, partner = a.args[0], name(enc, a.target)
    if option == "stance_none":
        return "start the fight in no special stance"
    if option == "stance_evade":
        return "start the fight evading (+4 defense)"
    if option == "stance_counter":
        return "start the fight ready to counterattack"
    if option == "hold_dominant":
        return f"keep hold of {partner}, dominant"
    if option == "follow_to_ground":
        return f"follow {partner} to the ground, dominant"
    if option == "let_go":
        return f"let go of {partner} (they stay down)"
    if option == "keep":
        was = enc.choice_was
        how = "dominant" if was and was.get("dominant") == f.id else "neutral"
        return f"keep the grapple with {partner} ({how})"
    if option == "release":
        t = enc.stack[-1]
        return f"break free of {partner}" if "keep" in t.choice else f"release {partner}"
    raise ValueError(option)


def rest(enc: ManoEncounter, f: Fighter, a: Action) -> str:
    if f.stun == 0 and "sudden_regeneration" in f.block.qualities and f.damage:
        return f"rest: heal {math.ceil(f.damage / 2)} damage, +5 defense until your next turn"
    if f.stun:
        return f"rest: shake off {f.stun} stun, +5 defense until your next turn"
    return "rest: +5 defense until your next turn"


def items(enc: ManoEncounter, f: Fighter, a: Action) -> str:
    kind = a.kind
    if kind == "drop_item":
        hand = a.args[0]
        where = "both hands" if hand == "both" else f"{hand} hand"
        return f"drop the {thing(f.held[hand])} ({where}, free)"
    if kind == "ready":
        return f"ready the stowed {thing(a.args[0])}"
    if kind == "pick_up":
        q, r = (int(x) for x in a.args[1].split(","))
        if (q, r) == f.hex:
            where = "here"
        else:
            d = next(d for d in range(6) if neighbor(f.hex, d) == (q, r))
            where = f"1 hex {COMPASS[d]}"
        return f"pick up the {thing(a.args[0])} ({where})"
    bow = f.bow()
    if kind == "draw":
        assert bow is not None
        return f"draw the {thing(bow[1])}"
    if kind == "relax":
        assert bow is not None
        return f"relax the drawn {thing(bow[1])} (any aim is lost)"
    if kind == "aim":
        held = bow if f.bow_drawn else f.gun()
        assert held is not None
        return f"aim the {thing(held[1])} (+5 to its next attack)"
    raise ValueError(kind)


def gun(enc: ManoEncounter, f: Fighter, a: Action) -> str:
    held = f.gun()
    assert held is not None
    item = held[1]
    it = f.block.items[item]
    if a.kind == "unload":
        return f"take the clip out of the {thing(item)}"
    how = guns.gun_reload(it)
    assert it.shots is not None
    full, turns_needed = it.shots
    if how == "clip":
        return f"load a full clip into the {thing(item)} ({full} shots)"
    if how == "round":
        return f"load a round into the {thing(item)} ({enc.shots_left(f, item) + 1}/{full})"
    done = f.reloading.get(item, 0) + 1
    return f"reload the {thing(item)}: step {done} of {turns_needed} (takes the whole turn)"


_KINDS: dict[str, Callable[[ManoEncounter, Fighter, Action], str]] = {
    "move": move,
    "strike": strike,
    "grapple": grapple,
    "shoot": shoot,
    "throw": throw,
    "choose": choose,
    "rest": rest,
    "drop_item": items,
    "ready": items,
    "pick_up": items,
    "draw": items,
    "relax": items,
    "aim": items,
    "load": gun,
    "unload": gun,
    "counter": lambda enc, f, a: "prepare a counterattack: strike first when next attacked",
    "delay": lambda enc, f, a: f"delay: act right after {name(enc, a.target)} from now on",
    "end": lambda enc, f, a: "end the turn",
    "drop": lambda enc, f, a: "drop to the ground",
    "stand": lambda enc, f, a: "stand up",
    "instant_stand": lambda enc, f, a: "spring to your feet (+5 defense until your next turn)",
    "cover": lambda enc, f, a: (
        f"cover {name(enc, a.target)} until your next turn (attacks on them must pass you)"
    ),
    "release": lambda enc, f, a: f"let go of {name(enc, a.target)} (free)",
    "mount": lambda enc, f, a: f"mount {name(enc, a.target)}",
    "dismount": lambda enc, f, a: f"dismount from {name(enc, enc.mounted_on(f.id))}",
}
"""kind -> ``words(encounter, actor, action)``"""
