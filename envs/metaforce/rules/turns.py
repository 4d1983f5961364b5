"""Rounds, turns and frames (spec §3.3, §4.1, §4.5, §6.3, §8.7): initiative, start and end of
turn, the two Action Frames, lost (stunned) frames, the W-R1 reaction queue after each frame and
the round limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.dice import Dice
from envs.core.events import Event, TurnStarted
from envs.core.flow import Ctx

from . import rulings
from .combatant import Combatant
from .damage import exert_check
from .events import (
    FrameLost,
    FrameSlept,
    FrameStarted,
    InitiativeRolled,
    MPowerUsed,
    ReactionsChanged,
    TurnEnded,
)
from .full_focus import frame_done
from .full_meta import (
    META_FRAME,
    META_FREE,
    buy_reaction,
    can_buy_reaction,
    convert,
    hold,
    link,
    take_guest,
    team_work,
)
from .full_spells import interrupt
from .full_statuses import end_turn, fear_drain, flee
from .legal import frame_moves, reaction_actions
from .resolve import FREE, free_action, resolve_frame, resolve_reaction
from .statuses import dot_ticks

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["roll_initiative", "advance", "step"]


def roll_initiative(cs: list[Combatant], dice: Dice, mode: str,
                    ev: list[Event]) -> list[str]:
    """spec §3.3, R-7: ``d12 + initiative bonus`` (no explosion) in roster order; ties by Reflex,
    then AGI, then a seeded draw (the tied group is shuffled with the dice, Fisher-Yates).
    ``alternating``: the best roller, then the best of the next team (teams by best roll), ...;
    once a team whose pick it is has run out of members, the rest follow in initiative order."""
    rolls = {c.id: dice.roll(12)[0] for c in cs}
    key = {c.id: (rolls[c.id] + c.profile.initiative_bonus, int(c.profile.cores.get("reflex", 0)),
                  c.attr("agi")) for c in cs}
    order = sorted((c.id for c in cs), key=lambda i: key[i], reverse=True)
    out: list[str] = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and key[order[j]] == key[order[i]]:
            j += 1
        group = order[i:j]
        for k in range(len(group) - 1, 0, -1):
            r = dice.roll(k + 1)[0] - 1
            group[k], group[r] = group[r], group[k]
        out += group
        i = j
    if mode == "alternating":
        side = {c.id: c.side for c in cs}
        teams: dict[str, list[str]] = {}
        for cid in out:
            teams.setdefault(side[cid], []).append(cid)
        queues = list(teams.values())
        alt: list[str] = []
        while all(queues):
            for q in queues:
                if not q:
                    break
                alt.append(q.pop(0))
        picked = set(alt)
        out = alt + [cid for cid in out if cid not in picked]
    for place, cid in enumerate(out, 1):
        ev.append(InitiativeRolled(cid, rolls[cid], key[cid][0], place))
    return out


def _start_turn(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant) -> None:
    """spec §4.1 start_of_turn: unused Reactions are lost, DoTs tick (§7.4), Exert over the limit
    knocks out (§7.6)."""
    ev.append(TurnStarted(enc.round, c.id))
    if c.reactions:
        c.reactions = 0
        ev.append(ReactionsChanged(c.id, 0))
    c.no_react = False
    c.vigilance = False
    c.a8_used = False  # spec §6.4: the Action-8 limit resets at the start of the user's turn
    c.tw_used = False  # spec §4.1 step 6: so does Team Work's
    c.turns += 1
    c.acted = True
    c.frames_left, c.frame = rulings.FRAMES_PER_TURN, 0
    dot_ticks(enc, ctx, ev, c)
    if c.statuses:
        fear_drain(enc, ctx, ev, c)  # spec §4.1 item 3, §7.5 (FULL)
    exert_check(enc, ev, c)  # spec §7.6


def _end_turn(enc: MetaforceEncounter, ev: list[Event], c: Combatant) -> None:
    """spec §4.1 end_of_turn: 1 Reaction, +1 after Vigilance (§4.5); a Special Attack setup
    from the previous turn lapses (§5.4)."""
    c.frames_left = 0
    c.aware = True
    if c.special_until >= 0 and c.special_until <= c.turns:
        c.special_until = -1
    if 0 <= c.mana_until <= c.turns:
        c.mana_until = -1  # spec §5.8: unused tapped mana expires
    if c.lapse:
        end_turn(ev, c)  # spec §7.5: Slow ends (FULL)
    if c.active:
        c.reactions = 1 + (1 if c.vigilance else 0) + c.bought  # React-4 (FULL)
    c.bought = 0
    ev.append(TurnEnded(c.id, c.reactions))


def _own_frame(ev: list[Event], c: Combatant) -> None:
    """An own frame begins: Safe-6 / Assurance-8 ends when its user would begin a third own
    frame (R-44)."""
    c.own_frames += 1
    if c.safe and c.own_frames >= c.safe_until:
        ev.append(MPowerUsed(c.id, "safe6" if c.safe == 6 else "assurance8", 0, "ends"))
        c.safe = 0


def advance(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event]) -> None:
    """Run the clock until someone has a decision (or the fight ends): pending W-R1 reactors
    first, then the turn owner's next frame, lost frames, turn ends and round ends."""
    while not enc.is_over():
        while enc.reactors:
            r = enc.by_id[enc.reactors[0]]
            if (r.can_react() or can_buy_reaction(enc, r)) and enc.trigger is not None:
                if len(reaction_actions(enc, r, enc.by_id[enc.trigger])) > 1:
                    return
            enc.reactors.pop(0)
        enc.trigger = None
        held = hold(enc)  # FULL: a guest frame, or a W-R1 queue put off by one
        if held == "guest":
            return
        if held:
            continue
        if enc.turn >= 0 and enc.in_turn:
            c = enc.by_id[enc.order[enc.turn]]
            if c.active and c.frames_left > 0:
                if c.stun > 0:  # the frame is lost
                    _own_frame(ev, c)
                    c.stun -= 1
                    c.frames_left -= 1
                    c.frame += 1
                    ev.append(FrameLost(c.id, c.stun))
                    continue
                if c.statuses and c.asleep:  # spec §7.5: Asleep cannot act (FULL)
                    _own_frame(ev, c)
                    c.frames_left -= 1
                    c.frame += 1
                    ev.append(FrameSlept(c.id))
                    if c.effects:
                        frame_done(ev, c, asleep=True)  # spec §7.9: none while asleep
                    continue
                if not enc.frame_open:
                    _own_frame(ev, c)
                    c.frame += 1
                    c.escaped = []
                    enc.frame_open = True
                    ev.append(FrameStarted(c.id, c.frame))
                return
            _end_turn(enc, ev, c)
            enc.in_turn = False
        enc.turn += 1
        if enc.turn >= len(enc.order):
            if enc._check_round_cap(ev):
                return
            enc.turn = 0
            enc._next_round(ev)
        c = enc.by_id[enc.order[enc.turn]]
        if not c.active:
            continue
        enc.in_turn = True
        _start_turn(enc, ctx, ev, c)


def _freed(enc: MetaforceEncounter, c: Combatant, a: Action) -> bool:
    """An Escape that broke a grapple (or net) and left ``c`` free to move: spec §5.10 says a
    freed combatant may still move in that frame (WE-20), a second decision of the same frame
    (``pass`` with a movement mode, or ``pass`` to stay)."""
    return (a.kind == "escape" and a.args[:1] == ("grappled",) and not c.grappled
            and c.active and not enc.is_over() and c.speed_squares() > 0
            and len(frame_moves(enc, c)) > 1)


def step(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Action | None) -> None:
    """Carry out one decision (``None``: only run the clock, at the start) and advance."""
    if a is not None:
        if enc.reactors and a.actor == enc.reactors[0] and a.kind == "react4":
            buy_reaction(ev, enc.by_id[a.actor])  # WE-25: its window asks again
        elif enc.reactors and a.actor == enc.reactors[0] and a.kind in ("safe6", "assurance8"):
            free_action(enc, ev, enc.by_id[a.actor], a, outside=True)  # asks again (§6.4)
        elif enc.reactors and a.actor == enc.reactors[0]:
            enc.reactors.pop(0)
            r = enc.by_id[a.actor]
            if a.args[:1] == ("action8",):
                convert(enc, ev, r)  # FULL: the Reaction becomes a whole frame
            else:
                resolve_reaction(enc, ctx, ev, r, a)
        else:
            c = enc.by_id[a.actor]
            guest = take_guest(enc, ev, c)  # FULL: a frame outside c's own turn
            enc.frame_open = False
            if a.kind == "end_turn":
                c.frames_left = 0
                interrupt(ev, c, "given up")
                if c.effects:
                    frame_done(ev, c)  # spec §7.9: Unbroken needs this frame
            elif a.kind in FREE:
                free_action(enc, ev, c, a)  # no frame spent, no W-R1 window
                enc.frame_open = True
            elif a.kind in META_FREE:
                link(enc, ev, c, a)  # Initiative Link: no frame spent
                enc.frame_open = True
            else:
                escaped, c.free_move = c.free_move, False
                moved = (team_work(enc, ev, c, a) if a.kind in META_FRAME
                         else resolve_frame(enc, ctx, ev, c, a))
                if c.statuses and flee(enc, ev, c, a):  # spec §7.5 Fear (FULL)
                    moved = True
                if _freed(enc, c, a):  # spec §5.10, WE-20: the frame's movement is still to come
                    c.free_move = True
                    enc.frame_open = True
                    if guest:  # in a guest frame too (spec §4.6): the guest moves, then back
                        enc.guest = c.id
                    enc.check_end(ev)
                    advance(enc, ctx, ev)
                    return
                moved = moved or escaped  # the Escape acted in this frame
                if c.effects:
                    frame_done(ev, c)  # spec §7.9: an Unbroken effect not refreshed ends
                if not guest:
                    c.frames_left = max(0, c.frames_left - 1)
                if moved and c.present and not enc.is_over():
                    enc.trigger = c.id  # W-R1: every opponent with a Reaction may answer
                    enc.reactors = [o for o in enc.order
                                    if enc.by_id[o].side != c.side and enc.by_id[o].active]
        enc.check_end(ev)
    advance(enc, ctx, ev)
