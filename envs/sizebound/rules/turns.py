"""Rounds and team turns (spec §4.1-§4.3, §4.7, R-19, R-22): start- and end-of-turn processing,
the round-robin queue of the active side, automatic passes and the round cap."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event, TurnStarted

from . import full_motion, full_sides, full_skills, full_terrain
from .economy import defensive_bonus
from .events import ConditionChanged, ReactionGained, TeamTurnEnded, TeamTurnStarted
from .full_conditions import turn_end, turn_start
from .full_reactions import end_turn, start_turn

if TYPE_CHECKING:
    from envs.core.flow import Ctx

    from .state import SizeboundEncounter

__all__ = ["begin", "advance", "start_at"]


def begin(enc: SizeboundEncounter, ev: list[Event]) -> None:
    """Round 1, slot 0 (spec §3.4): the first side's team turn starts."""
    full_sides.setup(enc)  # FULL: a Host-style pool starts at 3 (spec §9.2)
    _start_team_turn(enc, None, ev)
    _settle(enc, None, ev)


def _tick(enc: SizeboundEncounter, ev: list[Event]) -> None:
    """R-22: expire every condition whose end is this slot's start."""
    now = enc.clock
    for f in enc.fighters:
        for c in f.conds.tick("slot", now):
            if c.name not in f.conds:
                ev.append(ConditionChanged(f.id, c.name, False))


def _start_team_turn(enc: SizeboundEncounter, ctx: Ctx | None, ev: list[Event]) -> None:
    """spec §4.2, for each member in id order (``ctx``: the action's, for the windows of the
    start-of-turn damage; None for a fight's first team turn)."""
    side = enc.order[enc.slot]
    ev.append(TeamTurnStarted(enc.round, enc.slot, side))
    _tick(enc, ev)
    members = sorted((f for f in enc.fighters if f.side == side and f.alive), key=lambda f: f.id)
    # each member's own turn starts with its side's (spec §4.1): the shared event, which tools
    # read (a search rollout is scored at its actor's next turn)
    ev.extend(TurnStarted(enc.round, f.id) for f in members)
    for f in members:
        f.guard = 0
        f.reactions = f.profile.base_reactions
        f.used, f.stun_count, f.minor_used = "", 0, 0
        f.extra_used = []
        f.pool_open, f.pool_general, f.pool_weapon = False, 0, {}
        f.budget, f.mode, f.steps = 0, "none", 0
        f.charge_dir, f.charge_path = None, []
        f.mr = f.profile.mr
        start_turn(f)  # a borrowed Primary
        f.fx = {k: v for k, v in f.fx.items() if not k.startswith("turn:")}
    turn_start(enc, ctx, ev, members)  # spec §4.2 step 3 (FULL)
    full_terrain.turn_start(enc, ev, side)  # FULL: drowning, magma (spec §7.4, §8.3)
    full_sides.turn_start(enc, ev, side)  # FULL: the GM's +1 Reaction at a hazard's turn
    enc.queue = [f.id for f in members if enc.is_active(f.id)]


def _end_team_turn(enc: SizeboundEncounter, ctx: Ctx | None, ev: list[Event]) -> None:
    """spec §4.7."""
    side = enc.order[enc.slot]
    turn_end(enc, ctx, ev, sorted((f for f in enc.fighters if f.side == side and f.alive),
                             key=lambda f: f.id))  # spec §4.7 step 1 (FULL)
    full_terrain.turn_end(enc, ev, [f for f in enc.fighters if f.side == side])  # §8.3 Magma
    full_skills.turn_end(enc, ev, side)  # spec §9.4: an unpaid Concentration ends
    for f in sorted((f for f in enc.fighters if f.side == side and f.alive),
                    key=lambda f: f.id):
        if defensive_bonus(f):
            f.reactions += 1
            ev.append(ReactionGained(f.id, f.reactions))
        f.aim_active = False
        f.turns_ended += 1
        end_turn(f)  # the attack debt is paid
        f.budget, f.mode = 0, "none"
        f.pool_open, f.pool_general, f.pool_weapon = False, 0, {}
    ev.append(TeamTurnEnded(enc.round, side))


def _settle(enc: SizeboundEncounter, ctx: Ctx | None, ev: list[Event]) -> None:
    """Drop members with nothing to do (spec §4.3: only END_TURN left is an automatic pass);
    end team turns and rounds until someone has a decision or the fight is over."""
    full = enc.options.version == "full"
    while enc.outcome() is None:
        while enc.queue:
            f = enc.by_id[enc.queue[0]]
            if f.alive:
                acts = enc.turn_actions(f)
                if len(acts) > 1 or f.fall_turn or full_skills.aura_due(f) \
                        or (full and full_motion.end_due(enc, f)):
                    # a faller's end_turn is a fall step; an Arcane Aura's is its damage;
                    # hail, wind and a clinger's stay roll are rolled at its end of turn
                    enc._legal = acts
                    return
            enc.queue.pop(0)
        _end_team_turn(enc, ctx, ev)
        enc.slot += 1
        if enc.slot >= len(enc.order):
            if enc._check_round_cap(ev):
                return
            enc.slot = 0
            enc._next_round(ev)
        _start_team_turn(enc, ctx, ev)


def advance(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], actor: str,
            ended: bool) -> None:
    """After an own-turn action, inside its procedure (the team turns it ends and starts may
    open windows: an Ignited tick's Block): the actor goes to the back of the queue (R-19), or
    leaves it for good with ``end_turn``; with ``interleave: false`` it keeps acting until it
    ends."""
    if enc.outcome() is not None:
        return
    if enc.queue and enc.queue[0] == actor:
        enc.queue.pop(0)
        if not ended:
            if enc.options.interleave:
                enc.queue.append(actor)
            else:
                enc.queue.insert(0, actor)
    _settle(enc, ctx, ev)


def start_at(enc: SizeboundEncounter) -> list[Event]:
    """Start the team turn of ``enc.slot`` in ``enc.round`` (a situation in progress)."""
    ev: list[Event] = []
    full_sides.setup(enc)  # FULL: a Host-style pool starts at 3 (spec §9.2)
    _start_team_turn(enc, None, ev)
    _settle(enc, None, ev)
    return ev
