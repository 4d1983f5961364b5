"""Carrying out one decision (spec §4.2, §5, §6.2): a frame action (movement mode + activity) or
a W-R1 Reaction. The turn machinery (``turns``) decides who acts next."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from .arms import fire, fire_bow, prime, reload, throw
from .attack import attack, grapple_attack, special_status, stop_squares
from .combatant import Combatant
from .damage import knock_out
from .events import MPowerUsed, ReactionsChanged, SpecialReady
from .full_combos import combo_attacks, sweep_targets
from .full_firearms import reload_fire
from .full_focus import cast_support, concentrate, release
from .full_spells import begin_cast, channel, interrupt, tap_mana
from .legal import split_mode
from .moves import approach_cell, move_to, release_grapple, retreat_cell
from .profile import Weapon
from .statuses import escape, maintain

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["resolve_frame", "resolve_reaction", "free_action", "FREE"]

FREE = ("action8", "react4", "safe6", "assurance8", "release")
"""Free own-turn activities (spec §5.2 #22, #23, §6.4, FULL): they spend no frame."""


def _move(enc: MetaforceEncounter, ev: list[Event], c: Combatant, mode: str,
          ref: Combatant | None, budget: int, stop: int = 1, how: str | None = None) -> bool:
    """Carry out a movement mode; returns whether ``c`` moved."""
    if mode == "hold" or ref is None or budget <= 0 or not c.active:
        return False
    cell = (approach_cell(enc, c, ref, budget, stop) if mode == "approach"
            else retreat_cell(enc, c, ref, budget))
    if cell == c.pos:
        return False
    move_to(enc, ev, c, cell, how or mode)
    return True


def resolve_frame(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
                  a: Action) -> bool:
    """One Action Frame of ``c`` (spec §4.2). Returns whether it moved or acted (a W-R1
    trigger)."""
    args, mode = split_mode(a.args)
    t = enc.by_id[a.target] if a.target is not None else None
    speed = c.speed_squares()
    kind = a.kind
    if kind == "pass":
        interrupt(ev, c, "given up")
        return _move(enc, ev, c, mode, t, speed)
    if kind == "cast":
        assert a.target is not None
        if any(sp.id == args[0] for sp in c.profile.cantrips):
            cast_support(enc, ctx, ev, c, args[0], a.target)  # Ward, Heal (FULL)
            return True
        step = min(1, speed)  # at most 5 ft in the frame casting begins
        if mode == "approach":
            _move(enc, ev, c, mode, t, step)
        begin_cast(enc, ctx, ev, c, args[0], a.target)
        if mode == "retreat" and not enc.is_over():
            _move(enc, ev, c, mode, t, step)
        return True
    if kind == "combo":  # spec §4.4, R-25 (FULL): several attacks in one frame
        assert t is not None
        for wp, o in combo_attacks(enc, c, int(args[0]), t):
            if o.alive and c.active and not enc.is_over():
                _act(enc, ctx, ev, c, "attack", wp, o, (wp.id, "1"), False, reaction=True)
        return True
    if kind == "concentrate":  # spec §5.2 #21 (FULL)
        concentrate(ev, c)
        return True
    if kind == "channel":  # at most 5 ft while casting; APPROACH first, RETREAT after
        step = min(1, speed)
        if mode == "approach":
            _move(enc, ev, c, mode, t, step)
        channel(enc, ctx, ev, c)
        if mode == "retreat" and not enc.is_over():
            _move(enc, ev, c, mode, t, step)
        return True
    if kind == "tap_mana":  # at most 5 ft while tapping mana
        if mode == "approach":
            _move(enc, ev, c, mode, t, min(1, speed))
        tap_mana(ev, c)
        if mode == "retreat":
            _move(enc, ev, c, mode, t, min(1, speed))
        return True
    if kind == "dash":
        return _move(enc, ev, c, mode, t, 2 * speed, how=f"dash {mode}")
    if kind == "vigilance":
        c.vigilance = True  # it ends the turn
        c.frames_left = 1
        return True
    if kind == "withdraw":
        knock_out(enc, ev, c, "retreated")
        return False
    if kind == "escape":
        interrupt(ev, c, "given up")  # a Restrained caster's Escape ends its spell
        escape(enc, ctx, ev, c, args[0])
        return True
    if kind == "maintain":
        maintain(enc, ctx, ev, c, a.target)
        return True
    w = c.profile.weapon(args[0]) if args and kind in ("attack", "fire", "throw", "reload",
                                                       "prime", "reload_fire") else None
    aims = w is not None and kind in ("attack", "fire", "throw", "reload_fire")
    # spec §5.1 APPROACH: within the activity's reach, or adjacent when it has none (Prime,
    # Reload and the other activities)
    stop = stop_squares(enc, c, w, kind == "throw") if aims and w is not None else 1
    if kind == "grapple":
        stop = c.reach
    if mode == "approach":
        _move(enc, ev, c, mode, t, speed, stop)
    if kind == "attack" and w is not None and w.sweep and enc.options.full:
        assert t is not None  # WE-38: every foe within its reach, in roster order
        for o in sweep_targets(enc, c, w):
            if o.alive and c.active and not enc.is_over():
                _act(enc, ctx, ev, c, kind, w, o, args, "meta" in a.boosts)
    elif kind in ("attack", "fire", "throw", "grapple"):
        assert t is not None
        _act(enc, ctx, ev, c, kind, w, t, args, "meta" in a.boosts)
    elif kind == "reload":
        assert w is not None
        reload(enc, ev, c, w)
    elif kind == "reload_fire":  # FULL: an expert's reload-and-shoot frame (spec §5.6)
        assert w is not None and t is not None
        reload_fire(enc, ctx, ev, c, w, t)
    elif kind == "prime":
        assert w is not None
        prime(ev, c, w)
    elif kind == "special":
        status = next((s for w in c.weapons() if (s := special_status(w, enc.options.full))),
                      "none")
        c.special_until = c.turns + 1  # spec §5.4, R-15: until the end of its next turn
        ev.append(SpecialReady(c.id, status))
    if mode == "retreat" and c.active and not enc.is_over():
        _move(enc, ev, c, mode, t, c.speed_squares())
    return True


def _act(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant, kind: str,
         w: Weapon | None, t: Combatant, args: tuple[str, ...], meta: bool,
         reaction: bool = False) -> None:
    """The activity of an attack-like action (frame or Reaction)."""
    if kind == "grapple":
        grapple_attack(enc, ctx, ev, c, t)
    elif kind == "throw":
        assert w is not None
        throw(enc, ctx, ev, c, w, t)
    elif kind == "fire" or (w is not None and w.family == "firearm"):
        assert w is not None
        fire(enc, ctx, ev, c, w, t, 1 if reaction else int(args[1]))
    elif w is not None and w.family == "bow":
        fire_bow(enc, ctx, ev, c, w, t, meta, reprime=not reaction)
    else:
        assert w is not None
        attack(enc, ctx, ev, c, w, t, meta=meta)


def resolve_reaction(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], r: Combatant,
                     a: Action) -> None:
    """One W-R1 Reaction of ``r`` (spec §6.2): it costs the Reaction."""
    if a.kind == "pass":
        return
    r.reactions -= 1
    ev.append(ReactionsChanged(r.id, r.reactions))
    r.acted = True  # a Reaction taken is acting (the unaware +1 step ends)
    t = enc.by_id[a.target] if a.target is not None else None
    what = a.args[0]
    if what in ("approach", "retreat"):
        _move(enc, ev, r, what, t, r.speed_squares(), how=f"react {what}")
        return
    if what == "prime":
        prime(ev, r, r.profile.weapon(a.args[1]))
        return
    if what == "maintain":
        maintain(enc, ctx, ev, r, a.target)
        return
    assert t is not None
    w = r.profile.weapon(a.args[1])
    _act(enc, ctx, ev, r, "throw" if what == "throw" else "attack", w, t, a.args,
         "meta" in a.boosts, reaction=True)


def free_action(enc: MetaforceEncounter, ev: list[Event], c: Combatant, a: Action,
                outside: bool = False) -> None:
    """Action-8 (8 MP, once a round: +1 frame this turn), React-4 (4 MP: +1 Reaction held
    after this turn), Safe-6 / Assurance-8 (6 / 8 MP), spec §4.6, §6.4, R-44, and Release
    (spec §5.2 #22, §7.7) (FULL); ``release -> <grappled>`` lets a grapple go (spec §5.9 item
    4, CORE too)."""
    if a.kind == "release":
        if a.args:  # spec §5.2 #22: a held effect
            release(ev, c, a.args[0])
        else:  # spec §5.9 item 4: the grappler lets go, for free
            release_grapple(enc, ev, c, "released", a.target)
        return
    if a.kind in ("safe6", "assurance8"):
        floor = 6 if a.kind == "safe6" else 8
        c.mp -= floor
        # this frame and the next own one; outside its turn its next own frame is the
        # first of the two
        c.safe, c.safe_until = floor, c.own_frames + (3 if outside else 2)
        ev.append(MPowerUsed(c.id, a.kind, floor, f"own results below {floor} count as {floor}"))
        return
    if a.kind == "action8":
        c.mp -= 8
        c.a8_used = True
        c.frames_left += 1
        ev.append(MPowerUsed(c.id, "action8", 8, "+1 frame"))
    else:
        c.mp -= 4
        c.bought += 1
        ev.append(MPowerUsed(c.id, "react4", 4, "+1 Reaction"))
