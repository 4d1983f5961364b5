"""Scenario events: what a scenario (or a case file's ``{event: ...}`` step) does to a
combatant outside the actions, between decisions, with the rules' own arithmetic:

* ``fall <id> <feet> [balance <pct>]``: the hazard of spec §8.9 (``full_setup.fall``);
* ``restore <id> <n>``: Restore N (spec §8.4, R40: H.P. first, then S.D.C., up to the maxima);
* ``gain <id> <pool> <n>``: Gain N of ``sdc`` or ``hp`` (spec §8.4, R41: the current value and
  the maximum both rise by N);
* ``lose <id> <pool> <NdM[+-K]>``: a loss of ``morale`` or ``stamina`` by a dice expression,
  the amount kept at 0 or more by the Threshold Rule (spec §1.4.2: "lose 1D4 - 2" rolling 1
  loses 0, it does not gain 1);
* ``pay <id> <pool> <n> [<pool> <n> ...]``: an ability's costs (spec §8.3, R33) in ``sdc``,
  ``stamina``, ``morale``, ``ee`` or ``se``: not damage (no armour, no shield, no reduction, no
  Wound, no damage-triggered effect; H.P. never pays an S.D.C. cost); a cost that cannot be
  paid in full (one the mask would have refused) is paid as far as it goes and the ability
  fizzles.

Dice order: a fall as ``full_setup.fall``; ``lose``: the expression's dice. An event is taken
only between decisions (no procedure pending); a bad event text is a ``ValueError`` naming it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from envs.core.dice import Dice, DiceError
from envs.core.events import Event
from envs.core.flow import Ctx, ReplayDice

from .combatant import Combatant
from .content import threshold
from .events import CostFizzled, Gained, PoolChanged
from .sheet import DiceExpr

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["scenario_event", "gain", "lose", "pay", "EVENTS"]

EVENTS = ("fall", "restore", "gain", "lose", "pay")
COST_POOLS = ("sdc", "stamina", "morale", "ee", "se")
_FX_POOLS = ("ee", "se")


def _pool(c: Combatant, pool: str) -> int:
    return int(getattr(c.fx if pool in _FX_POOLS else c, pool))


def _set(c: Combatant, pool: str, value: int) -> None:
    setattr(c.fx if pool in _FX_POOLS else c, pool, value)


def gain(ev: list[Event], c: Combatant, pool: str, n: int) -> None:
    """spec §8.4, R41: Gain N raises the current value and the maximum by N (a later Restore can
    fill the new maximum: 75/100 gains 50 -> 125/150)."""
    top = f"{pool}_max"
    setattr(c, pool, getattr(c, pool) + n)
    setattr(c, top, getattr(c, top) + n)
    ev.append(Gained(c.id, pool, n, getattr(c, pool), getattr(c, top)))


def lose(ev: list[Event], c: Combatant, pool: str, expr: str, dice: Dice,
         enc: PalladiumEncounter | None = None) -> int:
    """spec §1.4.2 Threshold Rule: ``lose NdM + K`` loses ``max(0, roll + K)`` (never a gain);
    Stamina as any Stamina loss (``full_effects.lose_stamina``), Morale may go below 0 (the
    pool, not the amount). Returns the amount the dice took, before any Stamina terms."""
    m = re.fullmatch(r"(\d+d\d+)([+-]\d+)?", expr.lower())
    if m is None:
        raise ValueError(f"expected dice like '1d4-2' or '2d6', got {expr!r}")
    de = DiceExpr.parse(m.group(1))
    loss = int(threshold(sum(dice.roll(de.sides, de.count)) + int(m.group(2) or 0)))
    if pool == "stamina":  # spec §9.1: +25% a Suffocation stack, none without P.E., stops at 0
        from .full_effects import lose_stamina
        lose_stamina(ev, c, loss, f"lose {expr}", enc,
                     Ctx(ReplayDice([], dice), []) if enc is not None else None)
        return loss
    new = _pool(c, pool) - loss
    delta = new - _pool(c, pool)
    _set(c, pool, new)
    ev.append(PoolChanged(c.id, pool, delta, new, f"lose {expr}"))
    return loss


def pay(ev: list[Event], c: Combatant, costs: list[tuple[str, int]], what: str) -> bool:
    """spec §8.3, R33: costs are paid exactly from their own pools (an S.D.C. cost never from
    H.P.), unreduced, triggering nothing; short of any, each is paid as far as it goes and the
    ability fizzles. Returns whether it was paid in full."""
    short = [(p, n) for p, n in costs if _pool(c, p) < n]
    for p, n in costs:
        paid = min(n, _pool(c, p))
        _set(c, p, _pool(c, p) - paid)
        ev.append(PoolChanged(c.id, p, -paid, _pool(c, p), what))
    if short:
        ev.append(CostFizzled(c.id, what, ", ".join(f"{p} {n}" for p, n in short)))
    return not short


def _int(word: str, text: str, lo: int = 0) -> int:
    if not word.lstrip("-").isdigit() or int(word) < lo:
        raise ValueError(f"scenario event {text!r}: expected an integer >= {lo}, got {word!r}")
    return int(word)


def scenario_event(enc: PalladiumEncounter, text: str, dice: Dice) -> list[Event]:
    """Apply one scenario event (see the module docstring) and return its events."""
    words = str(text).split()
    if len(words) < 3 or words[0] not in EVENTS:
        raise ValueError(f"scenario event {text!r}: expected '<{'|'.join(EVENTS)}> <combatant> "
                         "...'")
    kind, cid, rest = words[0], words[1], words[2:]
    c = enc.by_id.get(cid)
    if c is None:
        raise ValueError(f"scenario event {text!r}: unknown combatant {cid!r}; combatants: "
                         f"{', '.join(enc.by_id)}")
    if enc.proc is not None:
        raise ValueError(f"scenario event {text!r}: a decision inside a procedure is pending")
    ev: list[Event] = []
    if kind == "fall":
        from .full_setup import fall
        bal = _int(rest[2], text) if len(rest) == 3 and rest[1] == "balance" else 0
        if len(rest) not in (1, 3) or (len(rest) == 3 and rest[1] != "balance"):
            raise ValueError(f"scenario event {text!r}: expected 'fall <id> <feet> "
                             "[balance <pct>]'")
        fall(enc, Ctx(ReplayDice([], dice), []), ev, c, _int(rest[0], text, 1), bal)
    elif kind == "restore":
        from .full_effects import restore
        restore(enc, ev, c, _int(rest[0], text), "restore")
    elif kind in ("gain", "lose"):
        pools = ("sdc", "hp") if kind == "gain" else ("morale", "stamina")
        if len(rest) != 2 or rest[0] not in pools:
            raise ValueError(f"scenario event {text!r}: expected '{kind} <id> "
                             f"<{'|'.join(pools)}> <amount>'")
        if kind == "gain":
            gain(ev, c, rest[0], _int(rest[1], text))
        else:
            try:
                lose(ev, c, rest[0], rest[1], dice, enc)
            except DiceError:  # the script ran out: the runner's 'dice' problem
                raise
            except ValueError as e:
                raise ValueError(f"scenario event {text!r}: {e}") from None
    else:
        if len(rest) % 2 or any(p not in COST_POOLS for p in rest[::2]):
            raise ValueError(f"scenario event {text!r}: expected 'pay <id> <pool> <n> ...', "
                             f"pools: {', '.join(COST_POOLS)}")
        pay(ev, c, [(p, _int(n, text)) for p, n in zip(rest[::2], rest[1::2], strict=True)],
            "cost")
    if kind in ("gain", "pay"):  # spec §8.7: checked after every change to H.P. or S.D.C.
        from .combatant import COMA
        from .damage import update_health
        from .full_effects import wake
        was = c.state
        update_health(enc, ev, c)
        if was == COMA and c.state != COMA and c.alive:
            wake(enc, c)  # spec §8.4: healed above 0 H.P., it wakes
    enc.check_end(ev)
    enc._legal = None
    return ev
