"""Firearms, bows and thrown weapons (spec §5.5-§5.7, §5.2 #10, R-32 to R-35, R-60): the
Trigger Limit ladder, rounds, proficiency-based Unload/Reload, One in the Chamber, Prime/Fire."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .attack import Hit, attack, attack_steps
from .combatant import Combatant
from .events import AmmoChanged, BowPrimed, WeaponThrown
from .full_firearms import expert
from .profile import Weapon

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["shot_steps", "fire", "reload_proficient", "can_reload", "reload", "can_prime",
           "prime", "quick_prime", "bow_ready", "fire_bow", "throw", "max_loaded"]


def shot_steps(enc: MetaforceEncounter, a: Combatant, w: Weapon, t: Combatant, shot: int,
               first: int | None = None) -> int:
    """spec §5.5, R-35: each later shot steps down one state from the previous; Auto X shots
    after the first only lose Advantage (``min(S_first, 0)``). ``shot`` counts from 1; ``first``
    the first shot's state when known. Rapid fire's -1 a shot is a step modifier (spec §2.4.3),
    so Expertise's lift and Tired's cap come after it."""
    if first is None:
        first = attack_steps(enc, a, w, t)
    if shot == 1:
        return first
    return min(first, 0) if w.auto else attack_steps(enc, a, w, t, -(shot - 1))


def fire(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant, w: Weapon,
         t: Combatant, shots: int) -> list[Hit]:
    """``shots`` shots at ``t`` in one frame (a Reaction fires one at the normal state)."""
    hits = []
    first = attack_steps(enc, a, w, t)
    for i in range(1, shots + 1):
        if a.loaded.get(w.id, 0) <= 0 or not t.alive or enc.is_over() or not a.active:
            break
        a.loaded[w.id] -= 1
        a.fired[w.id] = True
        if w.per_frame:
            a.unloaded[w.id] = False  # a shot between reload frames: unload again next time
        hits.append(attack(enc, ctx, ev, a, w, t, steps=shot_steps(enc, a, w, t, i, first)))
    ev.append(AmmoChanged(a.id, w.id, "fired", a.loaded.get(w.id, 0), a.reserve.get(w.id, 0)))
    return hits


def reload_proficient(a: Combatant, w: Weapon) -> bool:
    """spec §5.6: a Firearms Metaphor, or one for that gun; or (spec §4.3) an Optimise component
    for Unload/Reload (``activity: reload``), which gives a non-proficient shooter the proficient
    Quickened Unload and Reload."""
    return a.profile.firearm_proficient or w.metaphor or "reload" in a.profile.optimised


def max_loaded(a: Combatant, w: Weapon) -> int:
    return w.capacity + (1 if w.chamber_plus_one else 0)


def _magazine(a: Combatant, w: Weapon) -> bool:
    return w.per_frame == 0 or a.speedloaders.get(w.id, 0) > 0


def can_reload(a: Combatant, w: Weapon) -> bool:
    """spec §5.2 #7: Unload needs rounds or a magazine in the gun, Reload reserve ammo."""
    if w.family != "firearm" or a.reserve.get(w.id, 0) <= 0:
        return False
    if a.unloaded.get(w.id):
        return True
    return a.loaded.get(w.id, 0) < (max_loaded(a, w) if a.fired.get(w.id) else w.capacity)


def reload(enc: MetaforceEncounter, ev: list[Event], a: Combatant, w: Weapon,
           quick: bool = False) -> None:
    """spec §5.6, R-32, R-33: one frame of Unload and/or Reload.

    Magazine weapons: a proficient shooter unloads and reloads in this frame; a non-proficient
    one unloads in one frame and reloads in the next. Rounds left in a removed magazine are lost,
    except one chambered round of a ``chamber_plus_one`` weapon that has fired. Few-at-a-time
    weapons load ``per_frame`` rounds a frame; a non-proficient shooter unloads first (one frame)
    and loads half, rounded up (``rulings.PER_FRAME_UNLOAD_ONLY_UNPROFICIENT``); a speed-loader
    loads like a magazine.
    """
    wid = w.id
    prof = reload_proficient(a, w)
    if _magazine(a, w):
        if not a.unloaded.get(wid):
            held = a.loaded.get(wid, 0)
            keep = 1 if w.chamber_plus_one and a.fired.get(wid) and held >= 1 else 0
            a.loaded[wid] = keep
            a.unloaded[wid] = True
            ev.append(AmmoChanged(a.id, wid, "unloaded", keep, a.reserve[wid]))
            if not prof:
                return
        add = min(w.capacity, a.reserve[wid])  # a chambered round comes on top (§5.6)
        if w.per_frame and a.speedloaders.get(wid, 0) > 0:
            a.speedloaders[wid] -= 1
        a.loaded[wid] += add
        a.reserve[wid] -= add
        a.unloaded[wid] = False
        ev.append(AmmoChanged(a.id, wid, "reloaded", a.loaded[wid], a.reserve[wid]))
        return
    if not prof and not a.unloaded.get(wid) and rulings.PER_FRAME_UNLOAD_ONLY_UNPROFICIENT:
        a.reserve[wid] += a.loaded.get(wid, 0)  # spec §5.6: Unload, 1 frame
        a.loaded[wid] = 0
        a.unloaded[wid] = True
        ev.append(AmmoChanged(a.id, wid, "unloaded", 0, a.reserve[wid]))
        return
    per = w.per_frame if prof else math.ceil(w.per_frame / 2)
    if not quick and expert(enc, a, w):
        per *= 2  # spec §5.6 (FULL): an expert loads twice as fast (``quick``: it shoots too)
    add = min(per, w.capacity - a.loaded[wid], a.reserve[wid])
    a.loaded[wid] += add
    a.reserve[wid] -= add
    ev.append(AmmoChanged(a.id, wid, "reloaded", a.loaded[wid], a.reserve[wid]))
    if a.loaded[wid] >= w.capacity:
        a.unloaded[wid] = False


def can_prime(a: Combatant, w: Weapon) -> bool:
    return w.family == "bow" and not a.primed.get(w.id) and a.arrows.get(w.id, 0) > 0


def quick_prime(a: Combatant, w: Weapon) -> bool:
    """spec §4.3, §5.7: an Optimise: Prime Metaphor component makes Prime Quickened."""
    return w.family == "bow" and "prime" in a.profile.optimised


def bow_ready(a: Combatant, w: Weapon) -> bool:
    """A bow that can shoot now: primed, or primed as it shoots (``quick_prime``, an arrow left).
    RULING (ENGINE, R-34's tempo): still one arrow per bow in a frame or a Reaction; the Quickened
    Prime lets the bow shoot in the frame (or the Reaction) it is primed in, the first one
    included."""
    return bool(a.primed.get(w.id)) or (quick_prime(a, w) and a.arrows.get(w.id, 0) > 0)


def prime(ev: list[Event], a: Combatant, w: Weapon) -> None:
    """spec §5.7: Prime readies an arrow."""
    a.primed[w.id] = True
    a.arrows[w.id] -= 1
    ev.append(BowPrimed(a.id, w.id, a.arrows[w.id]))


def fire_bow(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant, w: Weapon,
             t: Combatant, meta: bool, reprime: bool) -> Hit:
    """spec §5.7, R-34: Fire (Quickened) a primed bow; in a frame, Prime follows as the main
    activity when arrows are left. An unprimed bow is Quick-primed first (``bow_ready``)."""
    if not a.primed.get(w.id):
        assert quick_prime(a, w)
        prime(ev, a, w)  # spec §4.3: Optimise: Prime, Quickened
    a.primed[w.id] = False
    hit = attack(enc, ctx, ev, a, w, t, meta=meta)
    if reprime and a.active and can_prime(a, w):
        prime(ev, a, w)
    return hit


def throw(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant, w: Weapon,
          t: Combatant) -> Hit:
    """spec §5.2 #10, R-60: a thrown weapon attacks and is gone for the rest of the encounter."""
    a.gone.append(w.id)
    ev.append(WeaponThrown(a.id, w.id))
    return attack(enc, ctx, ev, a, w, t, thrown=True)

