"""FULL M-Powers that change who acts (spec §3.3, §4.5, §4.6, §6.2, §6.4; §12.3): Initiative
Link (a free own-turn activity: a later ally moves to act right after its user), Team Work (a
frame of its user: an ally takes one Action Frame at once, R-40) and Action-8 turning a W-R1
Reaction into a whole frame.

An ally's Team Work frame and a converted Reaction are **guest frames**: ``enc.guest`` names the
combatant to decide, outside its own turn. A guest frame offers the activities of an own frame
except those of the turn itself (``GUEST_EXCLUDED``: End turn, Vigilance, the free M-Powers,
Team Work, Initiative Link) and casting (a spell's frames follow one another in its owner's
turn, spec §5.8); it spends no frame of the guest's, is no own frame (Safe-6 counts own frames,
R-44) and opens W-R1 for the guest's opponents like any frame. A W-R1 queue interrupted by a
conversion is kept in ``enc.resume`` and asked on after the guest frame and its own window.
CORE offers none of this.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event

from .combatant import Combatant
from .events import GuestFrame, InitiativeLinked, MPowerUsed, ReactionsChanged

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["own_turn_actions", "guest_actions", "conversion_actions", "link", "team_work",
           "convert", "take_guest", "hold", "META_FREE", "META_FRAME", "GUEST_EXCLUDED",
           "A8_COST", "R4_COST", "can_buy_reaction", "buy_reaction"]

META_FREE = ("link",)
"""free own-turn activities of this module (spec §5.2 #20): they spend no frame"""
META_FRAME = ("team_work",)
"""frame activities of this module (spec §5.2 #19)"""
GUEST_EXCLUDED = frozenset(("end_turn", "vigilance", "action8", "react4", "safe6", "assurance8",
                            "team_work", "link", "cast", "channel", "tap_mana",
                            "concentrate", "release"))
"""ENGINE: what a guest frame does not offer (the turn's own activities and casting)"""
A8_COST = 8  # spec §6.4 Action-8
R4_COST = 4  # spec §6.4 React-4


def _has(enc: MetaforceEncounter, c: Combatant, power: str) -> bool:
    return enc.options.full and c.mu and power in c.profile.mpowers


def _can_guest(c: Combatant) -> bool:
    """An ally fit for a Team Work frame: active, awake (spec §4.5, §7.5: the Asleep take no
    frames), not Stunned, not casting (ENGINE)."""
    return c.active and not c.stunned and not c.asleep and c.casting is None


def own_turn_actions(enc: MetaforceEncounter, c: Combatant) -> list[Action]:
    """``link -> <ally>`` (spec §5.2 #20: once in the whole encounter, whoever uses it; an ally
    later in the order, not already next) and ``team_work -> <ally>`` (#19: once a round per
    user, R-40; an active ally)."""
    if enc.guest is not None or enc.order[enc.turn] != c.id:
        return []
    acts: list[Action] = []
    if _has(enc, c, "initiative_link") and not enc.link_used:
        for cid in enc.order[enc.turn + 2:]:
            o = enc.by_id[cid]
            if o.side == c.side and o.active:
                acts.append(Action(c.id, "link", (), cid))
    if _has(enc, c, "team_work") and not c.tw_used:
        acts += [Action(c.id, "team_work", (), o.id) for o in enc.combatants
                 if o.side == c.side and o is not c and _can_guest(o)]
    return acts


def guest_actions(enc: MetaforceEncounter, c: Combatant) -> list[Action]:
    """The choices of a guest frame (the module docstring)."""
    from .legal import frame_actions
    return [a for a in frame_actions(enc, c) if a.kind not in GUEST_EXCLUDED]


def conversion_actions(enc: MetaforceEncounter, r: Combatant) -> list[Action]:
    """W-R1 (spec §6.1, §6.2): an Action-8 holder with 8 MP, not yet used this round, may turn
    its Reaction into a whole frame (``react action8``)."""
    if _has(enc, r, "action8_react4") and r.mp >= A8_COST and not r.a8_used \
            and r.casting is None and enc.guest is None:
        return [Action(r.id, "react", ("action8",))]
    return []


def can_buy_reaction(enc: MetaforceEncounter, r: Combatant) -> bool:
    """React-4 at any time (spec §4.5, §6.4, WE-25): a holder out of Reactions at a W-R1 window
    may buy one for 4 MP, if nothing else keeps it from reacting (Stun, Sleep, casting)."""
    return (_has(enc, r, "action8_react4") and r.mp >= R4_COST and r.reactions <= 0
            and r.active and not r.stunned and not r.no_react and r.casting is None
            and not r.asleep)


def buy_reaction(ev: list[Event], r: Combatant) -> None:
    """React-4 in a W-R1 window: one Reaction at once, for 4 MP (the window stays open)."""
    r.mp -= R4_COST
    r.reactions += 1
    ev.append(MPowerUsed(r.id, "react4", R4_COST, "+1 Reaction"))
    ev.append(ReactionsChanged(r.id, r.reactions))


def link(enc: MetaforceEncounter, ev: list[Event], c: Combatant, a: Action) -> None:
    """Initiative Link (spec §3.3, §6.4): a permanent reorder, the ally right after its user."""
    assert a.target is not None
    order = [cid for cid in enc.order if cid != a.target]
    order.insert(order.index(c.id) + 1, a.target)
    enc.order = order  # a new list: the copies of a window's replay share the old one
    enc.link_used = True
    ev.append(MPowerUsed(c.id, "initiative_link", 0, f"{a.target} acts next"))
    ev.append(InitiativeLinked(c.id, a.target, tuple(order)))


def team_work(enc: MetaforceEncounter, ev: list[Event], c: Combatant, a: Action) -> bool:
    """Team Work (spec §4.6, §6.4, R-40): the user's frame goes to an ally, who takes one frame
    at once; the user's frame itself opens no W-R1 window (the ally's does). Returns False."""
    assert a.target is not None
    c.tw_used = True
    enc.guest = a.target
    ev.append(MPowerUsed(c.id, "team_work", 0, f"{a.target} takes a frame"))
    return False


def convert(enc: MetaforceEncounter, ev: list[Event], r: Combatant) -> None:
    """Action-8 conversion (spec §6.2, §6.4): the Reaction becomes a whole frame for 8 MP; the
    rest of the W-R1 queue waits for it."""
    r.reactions -= 1
    ev.append(ReactionsChanged(r.id, r.reactions))
    r.mp -= A8_COST
    r.a8_used = True
    ev.append(MPowerUsed(r.id, "action8", A8_COST, "the Reaction becomes a frame"))
    if enc.reactors and enc.trigger is not None:
        enc.resume = ((enc.trigger, tuple(enc.reactors)), *enc.resume)
    enc.reactors = []
    enc.guest = r.id


def take_guest(enc: MetaforceEncounter, ev: list[Event], c: Combatant) -> bool:
    """If ``c`` is the guest deciding now: its frame begins (the guest is cleared), or goes on
    with the movement an Escape left it (``free_move``, spec §5.10)."""
    if enc.guest != c.id:
        return False
    enc.guest = None
    c.acted = True  # a frame taken outside its turn is acting
    if not c.free_move:
        c.escaped = []
        ev.append(GuestFrame(c.id))
    return True


def hold(enc: MetaforceEncounter) -> str:
    """For ``turns.advance`` once the W-R1 queue is empty: ``guest`` (a guest decides now),
    ``resumed`` (an interrupted queue is back) or ``""``."""
    if enc.guest is not None:
        if _can_guest(enc.by_id[enc.guest]):
            return "guest"
        enc.guest = None
    if enc.resume:
        (trigger, queue), *rest = enc.resume
        enc.resume = tuple(rest)
        enc.trigger, enc.reactors = trigger, list(queue)
        return "resumed"
    return ""

