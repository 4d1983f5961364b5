"""Concentration, Tension and the support cantrips Ward and Heal (spec §7.6, §7.7, §7.9, R-47,
§13.4; FULL).

An **effect** is something a caster keeps going: ``Combatant.effects`` holds one row
``(cantrip id, mode, tension, holder, own frame begun or last refreshed)`` per effect. ``mode``
is the concentration it needs (spec §7.9): ``loose`` (refreshed once a round; Passive concentration
does it at no cost, so it lasts while the caster stays in the fight), ``unbroken`` (refreshed
every own frame) or ``""`` (a channelled ability that needs no concentration). Of the two mental
appendages, Passive concentration holds, at no cost, either the Loose effects or, after its
first frame, one Unbroken effect (spec §7.9: "After its first frame, an effect can be held in
Passive concentration without extra checks"; the seed's Appendage page: "The frame after such an
ability is activated, it can be maintained in the character's Passive/Echoic memory").
RULING (ENGINE, spec §7.9 gives the capacity, not the assignment): with no Loose effect held,
Passive concentration holds the oldest Unbroken effect (``passive_held``); every other Unbroken
effect, and a lone one beside Loose effects ("juggled by spending Active concentration on it
each frame alongside the Loose ones"), needs each own frame after the one it began in to be a
``concentrate`` frame (spec §5.2 #21), or it ends at the end of that frame. Capacity (spec
§7.9): up to 3 Loose effects; one Unbroken effect beside them; two Unbroken effects and nothing
else. ``tension`` (spec §7.7: 10 minus the
Metaphor reductions, at least 1, ``profile.tension_cost``) counts as Exert while the effect
lasts (``Combatant.tension``); ``release <cantrip>`` (#22) ends an effect for free; Exert over
the limit force-releases every Tension source first (spec §7.6, ``damage.exert_check``).

Stun breaks every Unbroken effect; a Stun of 2 or more frames also ends all Loose effects but
the oldest (R-47). An effect ends when its caster leaves the fight.

Ward (spec §13.4): Loose concentration on the caster or an ally within its reach; attacks
against the holder get -2 ToHit and -2 Magnitude (``ward_on``). Casting it again moves it.
Heal: on the caster or an ally within reach that has a Body-affecting status; the status with
the highest magnitude (the first in ``records.STATUSES`` order on a tie: R-60, an automatic
choice) loses ``d12 + casting Attribute`` (a plain d12, the caster's own die), and a
damage-over-time status also heals HP equal to the casting Attribute (x Size, spec §8.3, R-53).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .checks import dice_of
from .combatant import Combatant
from .events import StatusChanged
from .moves import dist
from .profile import Cantrip
from .records import STATUSES

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["support_actions", "cast_support", "concentrate", "release", "end_effects",
           "stunned", "frame_done", "passive_held", "ward_on", "WARD", "LOOSE_MAX", "UNBROKEN_MAX",
           "EffectStarted", "EffectEnded", "HealCast"]


@dataclass(frozen=True, slots=True)
class EffectStarted(Event):
    """A concentration or channelled effect begins (spec §7.7, §7.9, §13.4 Ward; FULL)."""

    combatant: str
    effect: str
    holder: str
    mode: str  # loose | unbroken | "" (channelled only)
    tension: int
    exert: int  # Exert + Tension after it

    def __str__(self) -> str:
        how = f"{self.mode} concentration" if self.mode else "channelled"
        tension = f", Tension {self.tension}, Exert now {self.exert}" if self.tension else ""
        return f"{self.combatant} holds {self.effect} on {self.holder} ({how}{tension})"


@dataclass(frozen=True, slots=True)
class EffectEnded(Event):
    combatant: str
    effect: str
    holder: str
    why: str  # released | stunned | not concentrated on | cast again | over the Exert limit...

    def __str__(self) -> str:
        return f"{self.combatant}'s {self.effect} on {self.holder} ends ({self.why})"


@dataclass(frozen=True, slots=True)
class HealCast(Event):
    """The Heal cantrip (spec §13.4, FULL): ``d12 + casting Attribute`` off one Body status."""

    combatant: str
    target: str
    status: str
    face: int
    total: int
    magnitude: int  # the status magnitude left
    gain: int  # HP healed (a damage-over-time status)
    hp: int

    def __str__(self) -> str:
        hp = f", heals {self.gain}, HP {self.hp}" if self.gain else ""
        return f"{self.combatant} heals {self.target}: d12 {self.face}, {self.total} off " \
               f"{self.status} (magnitude {self.magnitude}){hp}"

WARD = 2
"""spec §13.4: Ward's -2 ToHit and -2 Magnitude against its holder"""
LOOSE_MAX = 3  # spec §7.9: three Loose effects without losing any actions
UNBROKEN_MAX = 2  # spec §7.9: two Unbroken effects take both mental appendages


Effect = tuple[str, str, int, str, int]


def _cantrip(c: Combatant, sid: str) -> Cantrip:
    return next(sp for sp in c.profile.cantrips if sp.id == sid)


def fits(c: Combatant, sp: Cantrip) -> bool:
    """spec §7.9 capacity once ``sp`` is added (a cantrip cast again replaces its effect)."""
    modes = [e[1] for e in c.effects if e[0] != sp.id] + [sp.concentration]
    loose, unbroken = modes.count("loose"), modes.count("unbroken")
    return loose <= LOOSE_MAX and unbroken <= UNBROKEN_MAX and not (unbroken == 2 and loose)


def body_statuses(t: Combatant) -> list[str]:
    """The Body-affecting statuses ``t`` has (spec §13.4 Heal), by magnitude then table order."""
    found = [s for s in STATUSES if s in t.statuses and STATUSES[s].core == "body"]
    return sorted(found, key=lambda s: -t.statuses[s][0])


def support_actions(enc: MetaforceEncounter, c: Combatant) -> list[Action]:
    """``cast ward|heal -> <self or ally>`` (touch: within the cantrip's reach), ``concentrate``
    while an Unbroken effect is held, ``release <cantrip>`` for every effect held."""
    if not enc.options.full:
        return []
    acts: list[Action] = []
    for sp in c.profile.cantrips:
        if sp.concentration and not fits(c, sp):
            continue
        reach = max(1, sp.reach_ft // rulings.SQUARE_FT)
        for t in enc.combatants:
            if t.side != c.side or not t.active or (t is not c and dist(c, t) > reach):
                continue
            if sp.resolution == "heal" and not body_statuses(t):
                continue
            acts.append(Action(c.id, "cast", (sp.id,), t.id))
    if _active_needed(c):
        acts.append(Action(c.id, "concentrate"))
    acts += [Action(c.id, "release", (e[0],)) for e in c.effects]
    return acts


def passive_held(c: Combatant) -> Effect | None:
    """The Unbroken effect Passive concentration holds at no cost (spec §7.9, the module's
    RULING): the oldest one while no Loose effect is held, else none."""
    if any(e[1] == "loose" for e in c.effects):
        return None
    return next((e for e in c.effects if e[1] == "unbroken"), None)


def _active_needed(c: Combatant) -> list[Effect]:
    """The Unbroken effects that need the frame's Active concentration (``concentrate``)."""
    held = passive_held(c)
    return [e for e in c.effects if e[1] == "unbroken" and e is not held]


def _sync(c: Combatant) -> None:
    c.tension = sum(e[2] for e in c.effects)  # spec §7.7: Tension counts as Exert


def _end(ev: list[Event], c: Combatant, keep: list[Effect], why: str) -> None:
    for e in c.effects:
        if e not in keep:
            ev.append(EffectEnded(c.id, e[0], e[3], why))
    c.effects = keep
    _sync(c)


def cast_support(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant, sid: str,
                 target: str) -> None:
    """Cast Ward or Heal (one frame, no Exert, spec §5.8 cantrips)."""
    sp = _cantrip(c, sid)
    t = enc.by_id[target]
    if sp.resolution == "heal":
        _heal(enc, ctx, ev, c, sp, t)
    if not (sp.concentration or sp.tension):
        return
    _end(ev, c, [e for e in c.effects if e[0] != sid], "cast again")
    c.effects.append((sid, sp.concentration, sp.tension, t.id, c.own_frames))
    _sync(c)
    ev.append(EffectStarted(c.id, sid, t.id, sp.concentration, sp.tension, c.exert_total))
    from .damage import exert_check
    exert_check(enc, ev, c)  # spec §7.6: over the limit, Tension is released first


def _heal(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant, sp: Cantrip,
          t: Combatant) -> None:
    found = body_statuses(t)
    if not found:
        return
    status = found[0]
    face = dice_of(ctx.dice, c).roll(12)[0]
    attr = c.attr(sp.attr)
    m, x, src = t.statuses[status]
    left = m - (face + attr)
    gain = 0
    if STATUSES[status].dot and t.hp < t.profile.hp_max:
        gain = t.heal(attr)  # spec §8.3, R-53
    ev.append(HealCast(c.id, t.id, status, face, face + attr, max(0, left), gain, t.hp))
    if left <= 0:
        del t.statuses[status]
        ev.append(StatusChanged(t.id, status, 0, "ended"))
    else:
        t.statuses[status] = (left, x, src)
        ev.append(StatusChanged(t.id, status, left, t.status_severity(status)))


def concentrate(ev: list[Event], c: Combatant) -> None:
    """spec §5.2 #21: the frame's Active concentration refreshes every Unbroken effect."""
    c.effects = [(*e[:4], c.own_frames) if e[1] == "unbroken" else e for e in c.effects]
    # (one held in Passive concentration is refreshed too: that changes nothing)


def release(ev: list[Event], c: Combatant, sid: str) -> None:
    """spec §5.2 #22 (free): the effect ends and its Tension with it."""
    _end(ev, c, [e for e in c.effects if e[0] != sid], "released")


def end_effects(ev: list[Event], c: Combatant, why: str, tension_only: bool = False) -> None:
    """Every effect of ``c`` ends (it left the fight), or every channelled one (spec §7.6:
    force-released over the Exert limit)."""
    if c.effects:
        _end(ev, c, [e for e in c.effects if tension_only and not e[2]], why)


def stunned(ev: list[Event], c: Combatant, frames: int) -> None:
    """spec §7.9, R-47: a Stun breaks every Unbroken effect; one of 2+ frames keeps only the
    oldest Loose effect."""
    if not c.effects or frames <= 0:
        return
    keep = [e for e in c.effects if e[1] != "unbroken"]
    if frames >= 2:
        loose = [e for e in keep if e[1] == "loose"]
        keep = [e for e in keep if e[1] != "loose" or e is loose[0]]
    _end(ev, c, keep, "stunned")


def frame_done(ev: list[Event], c: Combatant, asleep: bool = False) -> None:
    """After an own frame (played, given up by ``end_turn`` or slept): an Unbroken effect that
    needed the frame's Active concentration and was not refreshed in it ends (spec §7.9).
    RULING (ENGINE): an Asleep caster (spec §7.5: cannot act) holds no Unbroken effect in
    Passive concentration either: every one not begun this frame ends."""
    needed = [e for e in c.effects if e[1] == "unbroken"] if asleep else _active_needed(c)
    if needed:
        keep = [e for e in c.effects if e not in needed or e[4] >= c.own_frames]
        if len(keep) < len(c.effects):
            _end(ev, c, keep, "not concentrated on")


def ward_on(enc: MetaforceEncounter, t: Combatant) -> int:
    """spec §13.4: the ToHit and Magnitude taken off attacks on ``t`` by a Ward it holds."""
    if not enc.options.full:
        return 0
    for o in enc.combatants:
        if o.effects and o.active and any(e[3] == t.id and _cantrip(o, e[0]).resolution == "ward"
                                          for e in o.effects):
            return WARD
    return 0
