"""Mano a Mano turn flow: the start of the fight (spec §3.3 surprise, RULING R30, R53; §3.4 initial
stances; §3.5 turn order, RULING R10), turns and their upkeep (spec §4.1, §4.7 stun recovery, §4.8,
RULING R3, R35), delays (spec §4.6), movement (spec §4.5, charging RULING R26, R28), the simple
actions of §5.8 (drop, stand, instant stand, rest: RULING R2, R3, R12, R44), the end of a turn and
the end of the fight (RULING R54, the round cap of spec §12.4).

Plain functions of the encounter (``state.ManoEncounter``); ``apply`` calls them."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

from envs.core import Dice
from envs.core.events import Event, RoundStarted, TurnStarted
from envs.core.hexgrid import DIRECTIONS

from . import legal, mounted, rulings
from . import resolution as R
from .events import (
    DefenseBonus,
    FirstTurnRoll,
    LongestReach,
    Moved,
    Note,
    Regenerated,
    Rolled,
    StunRecovered,
    TurnOrder,
)
from .fighter import Fighter, Turn

if TYPE_CHECKING:
    from .state import ManoEncounter

STANCES = ("stance_none", "stance_evade", "stance_counter")
"""the initial stances of spec §3.4 (FULL rules, RULING R53)"""


def begin(enc: ManoEncounter, dice: Dice, surprise_mode: str = "none") -> list[Event]:
    """Surprise (spec §3.3, RULING R30, R53), turn order (spec §3.5, RULING R10), first turn."""
    events: list[Event] = []
    first = None
    sides = list(enc.side_ids)
    if surprise_mode in ("side_A", "side_B"):
        amb = surprise_mode[-1]
        first = amb if ambush(enc, amb, dice, events) else None
    elif surprise_mode == "roll":
        got = [s for s in sides[:2] if ambush(enc, s, dice, events)]
        first = got[0] if len(got) == 1 else None
    surprised = first is not None
    if surprised and enc.full:  # RULING R27: the surprised side starts with weapons stowed
        for f in enc.fighters:
            if f.side != first and f.held:
                f.stowed += list(f.held.values())
                f.held = {}
                f.bow_drawn, f.aiming = False, None  # a stowed bow is not drawn (RULING R32)
                events.append(Note(f.id, "is surprised: weapons stowed"))
    if enc.full and not surprised:  # spec §3.4, §6.5, RULING R53: every character chooses an
        enc.order_pending = True  # initial stance (in roster order), then the roll-off follows
        enc.order = [f.id for f in enc.fighters]  # until then
        enc.stack = [Turn(f.id, choice=STANCES) for f in reversed(enc.fighters)]
    else:
        settle_order(enc, first, dice, events)
        next_turn(enc, events)
    enc.start_events = events
    return events


def settle_order(enc: ManoEncounter, first: str | None, dice: Dice, events: list[Event]) -> None:
    """The turn order (spec §3.5, RULING R10, R53): the side with surprise first, else the side
    with the longest reach (optional ``reach_initiative``), else a roll-off; then sides alternate
    in roster order. Round 1 starts."""
    sides = list(enc.side_ids)
    if first is None and enc.options.reach_initiative:  # spec §3.5, RULING R10
        first = longest_reach(enc, events)
    if first is None:
        first = roll_off(enc, dice, events)
    start = sides.index(first)
    rotated = sides[start:] + sides[:start]
    members = {s: [f.id for f in enc.fighters if f.side == s] for s in rotated}
    order: list[str] = []
    for k in range(max(len(m) for m in members.values())):
        order += [m[k] for m in members.values() if k < len(m)]
    enc.order = order
    enc.order_pending = False
    events.append(TurnOrder(tuple(order)))
    events.append(RoundStarted(enc._round))


def ambush(enc: ManoEncounter, side: str, dice: Dice, events: list[Event]) -> bool:
    ambushers = [f for f in enc.fighters if f.side == side]
    targets = [f for f in enc.fighters if f.side != side]
    roller = min(ambushers, key=lambda f: f.block.ability("stealth"))  # RULING R30
    mod = roller.block.ability("stealth") + roller.block.inept_penalty(
        "stealth"
    )  # spec §2.8: inept -4
    diff = 10 + max(f.block.ability("detection") for f in targets)
    die = dice.roll(20)[0]
    ok = R.success(die, mod, diff)
    events.append(Rolled(roller.id, "surprise", die, mod, diff, ok))
    return ok


def longest_reach(enc: ManoEncounter, events: list[Event]) -> str | None:
    """The side whose member has the strictly greatest melee reach or missile range, in metres
    (reach weapons' range, RULING R7; held bows and guns), or ``None`` on a tie (spec §3.5)."""
    best: dict[str, int] = {}
    for f in enc.fighters:
        reach = max((s.range_m or 0 for s in f.weapons().values()), default=0)
        missile = max(
            (f.block.items[i].range_m or 0 for i in f.held.values() if f.block.items[i].missile),
            default=0,
        )
        best[f.side] = max(best.get(f.side, 0), reach, missile)
    top = max(best.values())
    leaders = [s for s in enc.side_ids if best.get(s) == top]
    if len(leaders) != 1:
        return None
    events.append(LongestReach(leaders[0], top))
    return leaders[0]


def roll_off(enc: ManoEncounter, dice: Dice, events: list[Event]) -> str:
    contenders = list(enc.side_ids)
    while True:  # RULING R53: tied sides re-roll in side order
        rolls = {s: dice.roll(20)[0] for s in contenders}
        for s, r in rolls.items():
            events.append(FirstTurnRoll(s, r))
        top = max(rolls.values())
        contenders = [s for s in contenders if rolls[s] == top]
        if len(contenders) == 1:
            return contenders[0]


def may_delay(enc: ManoEncounter, f: Fighter) -> bool:
    """rulings.DELAY_ONCE_PER_ROUND: once a round, and not while another delayed turn waits."""
    return enc.delayed is None and f.id not in enc.delays_used


def next_turn(enc: ManoEncounter, events: list[Event], restart: str | None = None) -> None:
    """Advance to the next combatant who gets decisions (spec §4.8). ``restart``: a delayer, whose
    turn already started (its start-of-turn upkeep is not repeated when its new slot comes)."""
    enc.delayed = restart if restart is not None else enc.delayed
    while enc._outcome is None:
        enc.turn_idx += 1
        if enc.turn_idx >= len(enc.order):
            if enc._check_round_cap(events):  # spec §12.4: the round cap is a draw
                return
            enc.turn_idx = 0
            enc.delays_used = frozenset()
            enc._next_round(events)
        f = enc.by_id[enc.order[enc.turn_idx]]
        events.append(TurnStarted(enc._round, f.id))
        if enc.delayed == f.id:  # a delayed turn resumes: its upkeep already happened
            enc.delayed = None
            if not f.incapacitated:
                enc.stack = [Turn(f.id, move_points=move_points(enc, f))]
                return
            end_turn(enc, f, active=False, events=events)
            continue
        f.defense_bonus = 0  # RULING R3: rest / cautious / instant stand (and evading) bonuses end
        f.covering = None  # spec §6.4: cover lasts until the coverer's next turn
        if (
            f.counter_ready
        ):  # RULING R35: a lapsed counter was a skipped turn; its recovery happens now
            f.counter_ready = False
            recover(enc, f, events)
        if f.incapacitated:
            end_turn(enc, f, active=False, events=events)
            continue
        if f.forced_skips > 0:
            f.forced_skips -= 1
            events.append(Note(f.id, "skips this turn (speed)"))
            end_turn(enc, f, active=False, events=events)
            continue
        if mounted.mount_rests(enc, f, events):  # rulings.RIDER_USES_MOUNT_MOVEMENT
            end_turn(enc, f, active=False, events=events)
            continue
        enc.stack = [Turn(f.id, move_points=move_points(enc, f))]
        return


def move_points(enc: ManoEncounter, f: Fighter) -> int:
    if f.id in enc.mounts:  # rulings.RIDER_USES_MOUNT_MOVEMENT: the mount's points
        f = enc.by_id[enc.mounts[f.id]]
    run = f.block.running
    return math.ceil(run / 2) if f.encumbered else run  # RULING R26


def recover(enc: ManoEncounter, f: Fighter, events: list[Event]) -> None:
    """Stun recovery (spec §4.7): ceil(stun/2) while incapacitated, else 1."""
    if f.stun <= 0:
        return
    before = f.health
    f.stun -= math.ceil(f.stun / 2) if f.incapacitated else 1
    events.append(StunRecovered(f.id, f.stun, f.health))
    if before.startswith("incapacitated") and not f.incapacitated:
        events.append(Note(f.id, "is no longer incapacitated"))


def end_turn(enc: ManoEncounter, f: Fighter, active: bool, events: list[Event]) -> None:
    recover(enc, f, events)
    if active and f.block.speed < 1:
        f.forced_skips = 1 if f.block.speed == Fraction(1, 2) else 3  # spec §4.1, §4.7


def finish_turn(enc: ManoEncounter, f: Fighter, t: Turn, events: list[Event]) -> None:
    enc.stack.pop()
    # RULING R35: moved, acted (a free action too: a drop or a release, spec §4.1), or countered
    active = t.moved or t.actions > 0 or t.counter or t.declared
    if t.counter and enc._round == 1 and f.id in enc.order[enc.turn_idx + 1 :]:
        active = False  # RULING R47: a "turn 0" counter; its first scheduled turn still comes
    end_turn(enc, f, active=active, events=events)
    after_turn(enc, events)


def after_turn(enc: ManoEncounter, events: list[Event]) -> None:
    """Back to the interrupted attacker (spec §6.1) or on to the next turn."""
    while enc.stack:
        t = enc.stack[-1]
        f = enc.by_id[t.actor]
        if not f.incapacitated and not turn_exhausted(enc, f, t):
            return
        enc.stack.pop()
        end_turn(enc, f, active=True, events=events)
    if enc._outcome is None:
        next_turn(enc, events)


def resume(enc: ManoEncounter, events: list[Event]) -> None:
    """After a choice: finish the acting turn if nothing but END is left."""
    while (
        enc._outcome is None
        and enc.stack
        and enc.stack[-1].choice
        and enc.by_id[enc.stack[-1].actor].incapacitated
    ):
        enc.stack.pop()  # an incapacitated chooser lets go (RULING R23)
    if enc._outcome is None and enc.stack:
        t = enc.stack[-1]
        f = enc.by_id[t.actor]
        if not t.choice and (f.incapacitated or turn_exhausted(enc, f, t)):
            finish_turn(enc, f, t, events)


def turn_exhausted(enc: ManoEncounter, f: Fighter, t: Turn) -> bool:
    """Nothing but END left: end the turn without asking. When it had to list the legal actions
    to know, the list is left in ``enc.probed`` (else ``None``)."""
    enc.probed = None
    if not t.choice and not f.incapacitated:  # cheap sure answers first (same rules as legal.py)
        if not f.bow_drawn and not t.counter and not t.moved and t.actions == 0 and not t.declared:
            return False  # prepare counter is legal
        if legal.open_steps(enc, f, t, enc.grappling(f.id), {g.hex for g in enc.fighters}):
            return False  # a move is legal (moves survive the drawn-bow filter, RULING R32)
    found = enc.probed = enc.legal_actions()
    return all(a.kind == "end" for a in found)


INCAPACITATED = "incapacitated"
"""Mano a Mano's defeat reason: every enemy is incapacitated (RULING R54)."""
ALL_INCAPACITATED = "all_incapacitated"
"""Mano a Mano's mutual defeat: every combatant is incapacitated (a draw)."""


def check_end(enc: ManoEncounter, events: list[Event]) -> bool:
    """RULING R54: the fight stops the moment all sides but one are incapacitated
    (``EncounterBase._check_defeat`` with Mano's reasons). Returns whether it ended."""
    return enc._check_defeat(events, INCAPACITATED, ALL_INCAPACITATED)


def count_action(enc: ManoEncounter, f: Fighter, t: Turn, quick: bool, weapon: str | None) -> None:
    t.actions += 1
    t.quick_only = t.quick_only and quick
    t.acted_while_healthy = f.healthy
    if weapon is not None:
        t.weapons[weapon] += 1
    t.straight_dir, t.straight_hexes = None, 0


def charge(t: Turn) -> int:
    """The straight hexes run right before this striking or grappling attack that earn a charge
    bonus (spec §4.5, RULING R28: more than 5 m, the first attack after each run); 0 when none.
    Call it before ``_count_action``, which ends the run."""
    if t.charge_used or rulings.HEX_METERS * t.straight_hexes <= 5:
        return 0
    t.charge_used = True
    return t.straight_hexes


def move(enc: ManoEncounter, f: Fighter, t: Turn, d: int, events: list[Event]) -> None:
    t.move_points -= 1 if f.standing else 2
    t.moved = True
    (q, r), (dq, dr) = f.hex, DIRECTIONS[d]
    f.hex = (q + dq, r + dr)
    mounted.carry(enc, f)  # spec §5.11: rider and mount move together
    if t.straight_dir == d:
        t.straight_hexes += 1
    else:  # a new straight run: its first attack may charge again (RULING R28)
        t.straight_dir, t.straight_hexes, t.charge_used = d, 1, False
    events.append(Moved(f.id, (q, r), (q + dq, r + dr)))


def simple(enc: ManoEncounter, f: Fighter, t: Turn, kind: str, events: list[Event]) -> None:
    quick = kind in ("drop", "stand")
    count_action(enc, f, t, quick=quick, weapon=None)
    if kind == "drop":
        f.standing = False
        events.append(Note(f.id, "drops to the ground"))
    elif kind == "stand":
        f.standing = True
        events.append(Note(f.id, "stands up"))
    elif kind == "instant_stand":
        f.standing = True
        f.defense_bonus = 5
        events.append(DefenseBonus(f.id, "instant_stand", 5))
    elif kind == "rest":  # spec §5.8, RULING R2/R3/R12
        if f.stun == 0 and "sudden_regeneration" in f.block.qualities:  # spec §2.8, RULING R44
            healed = math.ceil(f.damage / 2)
            f.damage -= healed
            events.append(Regenerated(f.id, healed))
        f.stun = 0
        f.defense_bonus = 5
        events.append(DefenseBonus(f.id, "rest", 5))
