"""Resolving a Metanoia decision (spec §5.1, §5.9-§5.13; RULINGS R5, R12, R20, R21, R25, R33,
R37).

``resolve_decision`` dispatches on the phase: a turn action (``turn_action``), a reaction, an
intercept or a challenge (``opposed.py``). Recover, Withdraw, Hide, Sense, Guard and Support are
resolved here; hostile Engages, Marks and Moves go through ``opposed.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.dice import Dice
from envs.core.events import Event, OutOfFight

from . import rulings
from .catalogue import Option
from .effects import pay, reveal, roll
from .events import (
    CheckResult,
    ConvictionsChanged,
    Healed,
    StacksChanged,
    StatusChanged,
    Stayed,
    StrainChanged,
)
from .fighters import Fighter, option_named
from .opposed import challenge, declare_hostile, declare_move, intercept, react
from .turns import end_turn

if TYPE_CHECKING:
    from .state import MetanoiaEncounter


def resolve_decision(enc: MetanoiaEncounter, a: Action, dice: Dice, events: list[Event]) -> None:
    """Carry out the legal decision ``a`` and advance to the next one."""
    phase = enc.phase
    if phase == "turn":
        turn_action(enc, a, dice, events)
    elif phase == "react":
        react(enc, a, dice, events)
    elif phase == "intercept":
        intercept(enc, a, events)
    else:
        challenge(enc, a, events)


def turn_action(enc: MetanoiaEncounter, a: Action, dice: Dice, events: list[Event]) -> None:
    c = enc.by_id[a.actor]
    kind = a.kind
    if kind == "recover":  # spec §5.12, RULING R5
        gain = min(rulings.RECOVER_STRAIN, c.block.strain_max - c.strain)
        c.strain += gain
        events.append(StrainChanged(c.id, gain, c.strain, "recover"))
    elif kind == "withdraw":  # RULING R37
        c.fled = True
        events.append(OutOfFight(c.id, "fled"))
    elif kind == "move":
        if declare_move(enc, c, int(a.args[0]), a.boosts, dice, events):
            return
    elif kind == "hide":  # spec §5.9, RULING R20
        pay(c, len(a.boosts), None, None, events, "hide")
        s = roll(enc, c, a.boosts, None, None, 0, dice, events, "hide")
        total = s + c.block.stealthy
        if total > 0 and total > c.statuses.get("obscured", 0):
            c.statuses["obscured"] = total
            events.append(StatusChanged(c.id, "obscured", total, "hides"))
        elif total <= 0:
            events.append(Stayed(c.id, "fails to hide: 0 successes"))
    elif kind == "sense":  # spec §5.10, RULING R21
        assert a.target is not None
        t = enc.by_id[a.target]
        pay(c, len(a.boosts), None, None, events, "sense")
        s = roll(enc, c, a.boosts, None, None, 0, dice, events, f"sense {t.id}")
        rank = t.concealment
        events.append(CheckResult(c.id, f"sensing {t.id}", s, rank, s >= rank))
        if s >= rank:
            reveal(t, f"sensed by {c.id}", events)
    elif kind == "guard":  # RULING R25
        c.guarding = a.target
    elif kind == "support":  # RULING R12
        assert a.target is not None
        o = option_named(c.block, a.args[0])
        assert o is not None
        support(c, o, enc.by_id[a.target], events)
    else:  # attack / condition / argue / mark: spec §5.2
        assert a.target is not None
        option = None if kind == "mark" else option_named(c.block, a.args[0])
        declare_hostile(enc, c, kind, option, enc.by_id[a.target], a.boosts, events)
        return
    end_turn(enc, events)


def support(c: Fighter, o: Option, t: Fighter, events: list[Event]) -> None:
    """RULING R12: unopposed Rank 0, automatic; invoked rank, no Realm, no resistance."""
    pay(c, 0, o, t, events, o.keyword)
    kw, rank = o.keyword, o.rank
    if kw == "mend":  # RULING R33
        low = min(s for _, s in t.injuries)
        idx = max(i for i, (_, s) in enumerate(t.injuries) if s == low)
        name, sev = t.injuries[idx]
        spend = min(t.stacks, max(0, sev - rank))
        if spend:
            t.stacks -= spend
            events.append(StacksChanged(t.id, -spend, t.stacks, f"{c.id}'s Mend"))
        after = sev - rank - spend
        if after <= 0:
            del t.injuries[idx]
        else:
            t.injuries[idx] = (name, after)
        events.append(Healed(t.id, name, sev, max(0, after)))
    elif kw == "clear":  # spec §5.3 #10 [S purpose]
        n = min(rank, t.stacks)
        t.stacks -= n
        events.append(StacksChanged(t.id, -n, t.stacks, f"{c.id}'s Clear"))
    elif kw == "rally":
        assert t.block.conv_max is not None and t.conv is not None
        n = min(rank, t.block.conv_max - t.conv)
        t.conv += n
        events.append(ConvictionsChanged(t.id, n, t.conv))
    elif kw == "hidden":
        if rank > t.statuses.get("hidden", 0):
            t.statuses["hidden"] = rank
        events.append(StatusChanged(t.id, "hidden", t.statuses["hidden"], f"{c.id}'s Hidden"))
