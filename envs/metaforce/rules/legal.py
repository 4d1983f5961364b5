"""Legal actions (spec §5.2 preconditions, §6.1 W-R1, §12.5 mask rules): one ``Action`` per
choice, each with a canonical label (grammar in ``labels``).

A frame action is an activity with a movement mode: ``hold`` (no word: act where it stands),
``approach`` (move toward the target first, stop once it is in reach, then act) or ``retreat``
(act first, then move away from the target), spec §4.2, §5.1. A mode is offered only where it
changes something: ``approach`` when the target is not yet in reach, neither when Speed is 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action

from .arms import bow_ready, can_prime, can_reload
from .attack import in_range, range_squares, special_status, stop_squares
from .combatant import Combatant
from .full_combos import combo_actions, legs_busy
from .full_firearms import expert_actions
from .full_focus import support_actions
from .full_meta import can_buy_reaction, conversion_actions, own_turn_actions
from .full_spells import casting_actions, spell_actions
from .full_statuses import filter_actions, slow_no_dash
from .moves import approach_cell, dist, on_edge
from .statuses import breakable, grapple_ok, grip_limit

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["frame_actions", "frame_moves", "reaction_actions", "targets", "refs", "MODES",
           "split_mode"]

MODES = ("approach", "retreat")


def split_mode(args: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """``(args without the mode word, mode)``; ``hold`` when no mode word ends the args."""
    if args and args[-1] in MODES:
        return args[:-1], args[-1]
    return args, "hold"


def targets(enc: MetaforceEncounter, c: Combatant) -> list[Combatant]:
    """Attack targets: enemies still on the field and alive; a downed foe may be attacked
    (spec §8.6). Allies are not offered (``rulings.FRIENDLY_FIRE``)."""
    return [o for o in enc.combatants if o.side != c.side and o.alive and o.present]


def refs(enc: MetaforceEncounter, c: Combatant) -> list[Combatant]:
    """Movement references: active enemies."""
    return [o for o in enc.combatants if o.side != c.side and o.active]


def _aimed(enc: MetaforceEncounter, c: Combatant, kind: str, args: tuple[str, ...],
           t: Combatant, reach: int, stop: int, speed: int, boosts: tuple[str, ...] = ()
           ) -> list[Action]:
    """``kind args -> t`` with each mode that puts ``t`` within ``reach`` squares."""
    out = []
    if dist(c, t) <= reach:
        out.append(Action(c.id, kind, args, t.id, boosts))
        if speed > 0:
            out.append(Action(c.id, kind, args + ("retreat",), t.id, boosts))
    elif speed > 0:
        cell = approach_cell(enc, c, t, speed, stop)
        if dist(c, t, cell) <= reach:
            out.append(Action(c.id, kind, args + ("approach",), t.id, boosts))
    return out


def _moving(c: Combatant, kind: str, args: tuple[str, ...], rs: list[Combatant],
            speed: int) -> list[Action]:
    """``kind args`` held, or with a move relative to each reference."""
    out = [Action(c.id, kind, args)]
    if speed > 0:
        for r in rs:
            if dist(c, r) > 1:
                out.append(Action(c.id, kind, args + ("approach",), r.id))
            out.append(Action(c.id, kind, args + ("retreat",), r.id))
    return out


def frame_moves(enc: MetaforceEncounter, c: Combatant) -> list[Action]:
    """``pass`` held or with a move relative to each reference: a frame's movement alone."""
    return _moving(c, "pass", (), refs(enc, c), c.speed_squares())


def frame_actions(enc: MetaforceEncounter, c: Combatant) -> list[Action]:
    """Every legal choice of ``c`` at the start of one of its frames (spec §5.2, CORE set)."""
    if c.casting is not None:  # spec §5.8: the casting frames follow one another (FULL)
        if c.grappled == "intense":  # Escape is its only activity (the spell is lost)
            return [Action(c.id, "pass"), *(Action(c.id, "escape", (s,)) for s in breakable(c)),
                    Action(c.id, "end_turn")]
        acts = casting_actions(c)
        return filter_actions(enc, c, acts) if c.statuses else acts  # Fear, Charm
    speed = c.speed_squares()
    rs = refs(enc, c)
    acts = _moving(c, "pass", (), rs, speed)
    if c.free_move:  # spec §5.10, WE-20: freed by the frame's Escape, it may still move
        return acts
    if c.grappled == "intense":  # Escape is its only activity
        acts += [Action(c.id, "escape", (s,)) for s in breakable(c)]
        acts.append(Action(c.id, "end_turn"))
        return acts
    if speed > 0 and not c.grappled and not slow_no_dash(c):
        for r in rs:
            if dist(c, r) > 1:
                acts.append(Action(c.id, "dash", ("approach",), r.id))
            acts.append(Action(c.id, "dash", ("retreat",), r.id))
    ts = targets(enc, c)
    meta = c.mu and c.mp >= 4
    for w in c.weapons():
        for t in ts:
            if w.family == "firearm":
                n = min(w.trigger_limit, c.loaded.get(w.id, 0))
                for k in range(1, n + 1):
                    acts += _aimed(enc, c, "fire", (w.id, str(k)), t,
                                   range_squares(enc, c, w), stop_squares(enc, c, w), speed)
                continue
            if w.family == "bow" and not bow_ready(c, w):
                continue
            for boost in ((), ("meta",)) if meta else ((),):
                acts += _aimed(enc, c, "attack", (w.id,), t, range_squares(enc, c, w),
                               stop_squares(enc, c, w), 0 if legs_busy(enc, w) else speed,
                               boost)
            if w.thrown_ft > 0:
                acts += _aimed(enc, c, "throw", (w.id,), t, range_squares(enc, c, w, True),
                               stop_squares(enc, c, w, True), speed)
        if can_reload(c, w):
            acts += _moving(c, "reload", (w.id,), rs, speed)
        if can_prime(c, w):
            acts += _moving(c, "prime", (w.id,), rs, speed)
    if c.special_until < 0 and any(special_status(w, enc.options.full) for w in c.weapons()):
        acts += _moving(c, "special", (), rs, speed)
    grips = c.grips()
    if len(grips) < grip_limit(enc, c) and c.free_hands() >= 1:  # spec §5.9 item 4
        reach = c.reach
        for t in ts:
            if t.active and t.id not in grips and grapple_ok(c, t):
                acts += _aimed(enc, c, "grapple", (), t, reach, reach, speed)
    acts += [Action(c.id, "maintain", (), g) for g in grips]
    acts += [Action(c.id, "release", (), g) for g in grips]  # spec §5.9 item 4: free
    acts += [Action(c.id, "escape", (s,)) for s in breakable(c)]
    if c.profile.frame_combos and enc.options.full:
        acts += combo_actions(enc, c, ts)  # spec §4.4, R-25 (FULL)
    acts += spell_actions(enc, c)
    if c.profile.cantrips or c.effects:
        acts += support_actions(enc, c)  # FULL: Ward, Heal, concentration (spec §7.9)
    if c.frames_left == 1:
        acts.append(Action(c.id, "vigilance"))
    if on_edge(enc, c) and not c.grappled and not c.stunned:
        acts.append(Action(c.id, "withdraw"))
    if enc.options.full and c.mu and "action8_react4" in c.profile.mpowers:  # spec §6.4
        if c.mp >= 8 and not c.a8_used:
            acts.append(Action(c.id, "action8"))
        if c.mp >= 4:
            acts.append(Action(c.id, "react4"))
    acts += safe_actions(enc, c)
    acts += expert_actions(enc, c, speed)  # FULL: an expert's reload-and-shoot frame
    acts += own_turn_actions(enc, c)  # FULL: Initiative Link, Team Work
    acts.append(Action(c.id, "end_turn"))
    if c.statuses and enc.options.full:
        acts = filter_actions(enc, c, acts)  # spec §7.5 Fear, R-39 Charm (FULL)
    return acts


def safe_actions(enc: MetaforceEncounter, c: Combatant) -> list[Action]:
    """FULL's Safe-6 / Assurance-8 (spec §6.4: "activate at any time"): offered in the holder's
    own frames and its W-R1 windows while neither is in force and its MP pay the cost."""
    if not (enc.options.full and c.mu and "safe6_assurance8" in c.profile.mpowers
            and not c.safe):
        return []
    return [Action(c.id, k) for k, cost in (("safe6", 6), ("assurance8", 8)) if c.mp >= cost]


def reaction_actions(enc: MetaforceEncounter, r: Combatant, t: Combatant) -> list[Action]:
    """W-R1 (spec §6.1, §6.2, R-55): a Reaction Attack against the triggering combatant (one
    melee attack, thrown weapon, firearm shot or primed bow shot, or an attack cantrip), FULL's
    Prime and Maintain Grapple, a Reaction Move up to Speed (APPROACH or RETREAT), or ``pass``
    (always last)."""
    if r.reactions <= 0:  # React-4 first (FULL, WE-25): then the window asks again
        buy = [Action(r.id, "react4")] if can_buy_reaction(enc, r) else []
        return [*buy, *safe_actions(enc, r), Action(r.id, "pass")]
    acts: list[Action] = []
    if r.grappled != "intense" and t.alive and t.present:
        meta = r.mu and r.mp >= 4
        for w in r.weapons():
            if w.family == "firearm" and r.loaded.get(w.id, 0) <= 0:
                continue
            if w.family == "bow" and not bow_ready(r, w):
                continue
            if in_range(enc, r, w, t):
                boosts = ((), ("meta",)) if meta and w.family != "firearm" else ((),)
                acts += [Action(r.id, "react", ("attack", w.id), t.id, b) for b in boosts]
            if w.thrown_ft > 0 and in_range(enc, r, w, t, thrown=True):
                acts.append(Action(r.id, "react", ("throw", w.id), t.id))
    if enc.options.full and r.grappled != "intense":  # spec §6.2, §12.3: Prime and Maintain
        # Grapple as Reactions; held at Intense, Escape is its only activity (R-37, §7.5)
        acts += [Action(r.id, "react", ("prime", w.id)) for w in r.weapons() if can_prime(r, w)]
        acts += [Action(r.id, "react", ("maintain",), g) for g in r.grips()]
        acts += conversion_actions(enc, r)  # Action-8: the Reaction becomes a frame
    if r.speed_squares() > 0 and t.present:
        if dist(r, t) > 1:
            acts.append(Action(r.id, "react", ("approach",), t.id))
        acts.append(Action(r.id, "react", ("retreat",), t.id))
    acts += safe_actions(enc, r)  # free, outside its turn: the window asks again (spec §6.4)
    acts.append(Action(r.id, "pass"))
    if r.statuses and enc.options.full:
        acts = filter_actions(enc, r, acts, frame=False)  # spec §7.5, R-39 (FULL)
    return acts
