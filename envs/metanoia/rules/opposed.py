"""Metanoia opposed rolls, from declaration to landing (spec §5.2, §5.4-§5.6, §5.11, §6.1;
RULINGS R8, R9, R14, R17-R19, R23, R25, R32, R41).

A hostile Engage or a Mark is declared and paid (``declare_hostile``); a Guarding ally may
intercept it (``intercept``); a Move out of a zone with a seen enemy may be challenged
(``declare_move``, ``challenge``); the Reactor answers (``react``) and ``resolve`` rolls both pools
(Actor first, RULING R8), gives margin stacks to the loser and lands the winner's option.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.dice import Dice
from envs.core.events import Event

from . import rulings
from .catalogue import Option
from .effects import add_stacks, check_out, land, pay, reveal, roll
from .events import CheckResult, Moved, OpposedResolved, StacksChanged, StatusChanged, Stayed
from .fighters import HOSTILE_KINDS, TIE_TO_ACTOR, Fighter, Pending, option_named
from .preview import backlash_mode, rule0_winner, ward_dice
from .turns import end_turn

if TYPE_CHECKING:
    from .state import MetanoiaEncounter


def declare_hostile(enc: MetanoiaEncounter, c: Fighter, kind: str, option: Option | None,
                    target: Fighter, boosts: tuple[str, ...], events: list[Event]) -> None:
    """spec §5.2 steps 1-3: declare, pay (R8, R10), then interception (R25, R41)."""
    p = Pending(kind, c.id, target.id, option, boosts)
    p.ambush = c.concealed  # RULING R19
    pay(c, len(boosts), option, target, events, kind)
    if option is not None and option.stacks == "exploit_dice":  # spec §5.3 #7
        take = min(option.rank, target.stacks)
        if take:
            target.stacks -= take
            p.exploit_dice = take
            events.append(StacksChanged(target.id, -take, target.stacks, f"{c.id}'s Exploit"))
    enc.pending = p
    if enc.options.guard:
        guards = [g for g in (enc.by_id[i] for i in enc.order)
                  if g.guarding == target.id and g.active and g.zone == target.zone
                  and not (kind == "argue" and g.block.conv_max is None)]
        if guards:
            p.candidates = [g.id for g in guards]
            enc.phase = "intercept"
            return
    enc.phase = "react"


def intercept(enc: MetanoiaEncounter, a: Action, events: list[Event]) -> None:
    """RULING R25/R41: the first guard who says yes becomes target and Reactor."""
    p = enc.pending
    assert p is not None
    if a.args[0] == "yes":
        g = enc.by_id[a.actor]
        g.guarding = None
        p.reactor = g.id
        p.candidates = []
        if g.concealed:
            reveal(g, "intercepts", events)
        enc.phase = "react"
        return
    p.candidates.pop(0)
    if not p.candidates:
        enc.phase = "react"


def declare_move(enc: MetanoiaEncounter, c: Fighter, to: int, boosts: tuple[str, ...],
                 dice: Dice, events: list[Event]) -> bool:
    """spec §5.11, RULING R23/R35. Returns True while the Move waits for challenges (or the
    turn already ended on a failed hazard roll)."""
    p = Pending("move", c.id, None, None, boosts)
    p.move_from, p.move_to = c.zone, to
    h = enc.hazards.get(to, 0) if enc.options.hazards else 0
    if h > 0:  # RULING R35: unopposed roll before entering; traits paid once
        pay(c, len(boosts), None, None, events, "move")
        p.paid = True
        s = roll(enc, c, boosts, None, None, 0, dice, events, f"hazard of zone {to}")
        events.append(CheckResult(c.id, f"the hazard of zone {to}", s, h, s >= h))
        if s < h:
            events.append(Stayed(c.id, "hazard roll failed"))
            end_turn(enc, events)
            return True
    if not c.concealed:
        p.candidates = [e for e in enc.order
                        if enc.by_id[e].side != c.side and enc.by_id[e].active
                        and enc.by_id[e].zone == c.zone]
    if p.candidates:
        enc.pending = p
        enc.phase = "challenge"
        return True
    c.zone = to
    events.append(Moved(c.id, p.move_from, to))
    return False


def challenge(enc: MetanoiaEncounter, a: Action, events: list[Event]) -> None:
    """RULING R23: an enemy in the mover's zone may oppose the Move."""
    p = enc.pending
    assert p is not None
    if a.args[0] == "yes":
        ch = enc.by_id[a.actor]
        p.reactor = p.target = ch.id
        p.candidates = []
        if ch.concealed:  # RULING R19/R23
            reveal(ch, "challenges a Move", events)
        if not p.paid:  # RULING R23: the mover pays its traits only when challenged
            pay(enc.by_id[p.actor], len(p.boosts), None, None, events, "challenged move")
            p.paid = True
        enc.phase = "react"
        return
    p.candidates.pop(0)
    if not p.candidates:
        c = enc.by_id[p.actor]
        assert p.move_to is not None and p.move_from is not None
        c.zone = p.move_to
        events.append(Moved(c.id, p.move_from, p.move_to))
        enc.pending = None
        end_turn(enc, events)


def react(enc: MetanoiaEncounter, a: Action, dice: Dice, events: list[Event]) -> None:
    """spec §6.1: the Reactor's answer, paid (R8, R10), then the roll and the end of the turn."""
    p = enc.pending
    assert p is not None
    r = enc.by_id[a.actor]
    ro = None if a.args[0] == "none" else option_named(r.block, a.args[0])
    p.react_option, p.react_boosts = ro, a.boosts
    pay(r, len(a.boosts), ro, enc.by_id[p.actor], events, "reaction")
    resolve(enc, p, dice, events)
    enc.pending = None
    end_turn(enc, events)


def resolve(enc: MetanoiaEncounter, p: Pending, dice: Dice, events: list[Event]) -> None:
    """spec §5.2 steps 5-12."""
    assert p.reactor is not None
    A, R = enc.by_id[p.actor], enc.by_id[p.reactor]
    ro = p.react_option
    top = rule0_winner(A, R)
    if top is not None:  # Rule 0 [S]: no dice, higher wins, no stacks (R14)
        winner, a_s, r_s, margin, how = top, 0, 0, 0, "rule0"
    else:
        a_s = roll(enc, A, p.boosts, R, p.option, p.exploit_dice, dice, events, p.kind,
                   consume_slip=False)
        r_s = roll(enc, R, p.react_boosts, A, ro, ward_dice(ro), dice, events, "defence",
                   consume_slip=False)
        for f in (A, R):  # Slip is used by this roll (RULING R18)
            if "slip" in f.statuses:
                del f.statuses["slip"]
                events.append(StatusChanged(f.id, "slip", 0, "used"))
        if a_s != r_s:
            winner, how = (A if a_s > r_s else R), "roll"
        else:  # spec §5.4: decided by the Actor's declared action only (R32)
            winner, how = (A if p.kind in TIE_TO_ACTOR else R), "tie"
        margin = abs(a_s - r_s)
    loser = R if winner is A else A
    events.append(OpposedResolved(A.id, R.id, a_s, r_s, winner.id, margin, how))
    if margin:  # step 9: margin stacks on the loser (R9 cap)
        add_stacks(loser, margin, "margin", events)
    if winner is A:  # step 10
        if p.kind == "move":
            assert p.move_to is not None and p.move_from is not None
            A.zone = p.move_to
            events.append(Moved(A.id, p.move_from, p.move_to))
        elif p.kind in HOSTILE_KINDS:
            assert p.option is not None
            dbl = rulings.COUNTER_DOUBLES if ro is not None and ro.keyword == "counter" else 1
            mode = "injury" if p.kind == "attack" else p.kind
            land(A, R, p.option, mode, dbl, events)
    else:
        if p.kind == "move":
            events.append(Stayed(A.id, f"{R.id} stops the Move"))
        if ro is not None and ro.keyword in ("counter", "slip"):
            land(R, A, ro, backlash_mode(ro), 1, events)
    if p.ambush and A.concealed:  # step 11, RULING R19
        reveal(A, "attacked from concealment", events)
    check_out(A, events)
    check_out(R, events)
