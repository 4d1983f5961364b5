"""Rest between encounters (spec §9.5, §8.3; FULL §12.3: multi-encounter campaigns).

A rest gives **recovery points**, which the resting combatant spends on lost HP, Exert and
lasting status magnitudes (the player's choice: ``split``):

* **Rest Points** (RP): a combatant holds its Level in RP (``Combatant.rp``); a Long Rest
  restores them.
* **Short Rest** (spend ``rp`` RP, at least 1): 10 minutes give ``Level`` points; 30 minutes add
  one die of the END Attribute (its Attribute die, spec §2.3.3, "as if they Exerted"), 60
  minutes two; with END 0 or less each die is 1 point. Spending k RP multiplies the short
  rest's points by k (the original rules: "spending multiple Rest Points on a Short-Rest can
  multiply the amount of healing"). RULING (ENGINE): a rest of 10 to 29 minutes counts as 10,
  30 to 59 as 30, 60 or more as 60; under 10 minutes, or with no RP, gives nothing.
* **Long Rest** (4 to 8 hours): 4 hours give the Body Core value in points, every 2 hours
  beyond the fourth another Body (x3 at most, at 8 hours); each unused RP adds ``Level`` points;
  then RP are back to Level. Under 4 hours gives nothing (and restores no RP).
* **Unmet needs or harsh places** (``harsh``) halve the points (rounded down).

Spending: a point heals 1 HP, times the Size Rating of a Size 2+ creature (spec §8.3; HP only),
up to Max HP; or removes 1 Exert; or lowers a status's magnitude by 1 (at 0 it ends). ``split``
names the amounts in order (``{"hp": 3, "exert": 2, "bleed": 1}``); what it leaves over goes to
HP, then Exert, then the statuses in name order, and what nothing needs is lost. A combatant out
of the fight but alive (incapacitated, unconscious, retreated) whose HP is above 0 and Exert
within its limit after the rest is active again: the rest is between fights. The dead do not
rest. Dice: the END dice, in order, when the rest rolls them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from envs.core.dice import Dice
from envs.core.events import Event

from .checks import roll_rank
from .combatant import ACTIVE, Combatant
from .events import StateChanged, StatusChanged
from .profile import size_mult

__all__ = ["Rested", "Recovered", "short_rest", "long_rest", "short_rest_points",
           "long_rest_points", "spend", "rest_event", "SHORT_STEPS", "LONG_HOURS"]

SHORT_STEPS = ((60, 2), (30, 1), (10, 0))
"""(minutes at least, END dice): spec §9.5"""
LONG_HOURS = (4, 8)
"""a Long Rest counts from 4 hours, one more Body every 2 hours, up to 8 (x3)"""


@dataclass(frozen=True, slots=True)
class Rested(Event):
    combatant: str
    kind: str  # short | long
    length: str  # "30 min" | "6 h"
    points: int
    how: str
    rp: int  # RP left after the rest

    def __str__(self) -> str:
        return (f"{self.combatant} takes a {self.kind} rest ({self.length}): {self.how} = "
                f"{self.points} point(s), {self.rp} RP left")


@dataclass(frozen=True, slots=True)
class Recovered(Event):
    combatant: str
    what: str  # hp | exert
    amount: int
    now: int

    def __str__(self) -> str:
        if self.what == "hp":
            return f"{self.combatant} recovers {self.amount} HP (HP {self.now})"
        return f"{self.combatant} sheds {self.amount} Exert (Exert {self.now})"


def short_rest_points(c: Combatant, minutes: int, rp: int, dice: Dice,
                      harsh: bool = False) -> tuple[int, str]:
    """The points of a short rest of ``minutes`` spending ``rp`` RP (and how they add up)."""
    level = c.profile.level
    if rp < 1 or minutes < SHORT_STEPS[-1][0]:
        return 0, "no rest points spent" if rp < 1 else "under 10 minutes"
    n = next(k for m, k in SHORT_STEPS if minutes >= m)
    end = c.attr("end")
    rolls = [roll_rank(dice, end) if end > 0 else 1 for _ in range(n)]
    each = level + sum(rolls)
    how = f"Level {level}" + "".join(f" + END {r}" for r in rolls)
    total = each * rp
    if rp > 1:
        how = f"({how}) x {rp} RP"
    return _harsh(total, how, harsh)


def long_rest_points(c: Combatant, hours: float, harsh: bool = False) -> tuple[int, str]:
    """The points of a long rest of ``hours`` (the unused RP included)."""
    lo, hi = LONG_HOURS
    if hours < lo:
        return 0, "under 4 hours"
    blocks = 1 + int((min(hours, hi) - lo) // 2)
    body = int(c.profile.cores.get("body", 0))
    level = c.profile.level
    total = body * blocks + c.rp * level
    how = f"Body {body} x {blocks}" + (f" + {c.rp} RP x Level {level}" if c.rp else "")
    return _harsh(total, how, harsh)


def _harsh(total: int, how: str, harsh: bool) -> tuple[int, str]:
    if harsh:
        return total // 2, f"({how}) / 2, harsh"
    return total, how


def short_rest(c: Combatant, minutes: int, dice: Dice, *, rp: int = 1, harsh: bool = False,
               split: Mapping[str, int] | None = None) -> list[Event]:
    """A short rest of ``c`` (the module docstring); the events."""
    _alive(c)
    if rp > c.rp:
        raise ValueError(f"{c.id} holds {c.rp} RP, cannot spend {rp}")
    points, how = short_rest_points(c, minutes, rp, dice, harsh)
    if minutes >= SHORT_STEPS[-1][0]:
        c.rp -= max(0, rp)
    ev: list[Event] = [Rested(c.id, "short", f"{minutes} min", points, how, c.rp)]
    spend(ev, c, points, split)
    return ev


def long_rest(c: Combatant, hours: float, *, harsh: bool = False,
              split: Mapping[str, int] | None = None) -> list[Event]:
    """A long rest of ``c``: its points, then RP back to Level."""
    _alive(c)
    points, how = long_rest_points(c, hours, harsh)
    if hours >= LONG_HOURS[0]:
        c.rp = c.profile.level
    length = f"{hours:g} h"
    ev: list[Event] = [Rested(c.id, "long", length, points, how, c.rp)]
    spend(ev, c, points, split)
    return ev


def _alive(c: Combatant) -> None:
    if c.state == "dead":
        raise ValueError(f"{c.id} is dead: the dead do not rest")


def _need(c: Combatant, what: str) -> int:
    """Points ``what`` can still take."""
    if what == "hp":
        size = c.profile.size
        mult = size_mult(size) if size >= 2 else 1
        return max(0, math.ceil((c.profile.hp_max - c.hp) / mult))
    if what == "exert":
        return c.exert
    return c.magnitude(what)


def spend(ev: list[Event], c: Combatant, points: int,
          split: Mapping[str, int] | None = None) -> None:
    """Spend ``points`` on ``split`` in order, the rest on HP, Exert, then statuses by name."""
    for what in split or {}:
        if what not in ("hp", "exert") and what not in c.statuses:
            raise ValueError(f"{c.id} has no {what!r} to recover (hp, exert, or a status it "
                             f"has: {', '.join(sorted(c.statuses)) or 'none'})")
    plan = [(w, n) for w, n in (split or {}).items()]
    plan += [(w, points) for w in ("hp", "exert", *sorted(c.statuses))]
    for what, want in plan:
        if points <= 0:
            break
        n = min(points, max(0, want), _need(c, what))
        if n <= 0:
            continue
        points -= n
        _apply(ev, c, what, n)
    if c.state != ACTIVE and c.hp > 0 and c.exert_total <= c.profile.exert_limit:
        c.state = ACTIVE  # between fights: up again for the next one
        ev.append(StateChanged(c.id, ACTIVE, c.hp))


def _apply(ev: list[Event], c: Combatant, what: str, n: int) -> None:
    if what == "hp":
        ev.append(Recovered(c.id, "hp", c.heal(n), c.hp))  # x Size (spec §8.3)
    elif what == "exert":
        c.exert -= n
        ev.append(Recovered(c.id, "exert", n, c.exert))
    else:
        m, x, src = c.statuses[what]
        if m - n <= 0:
            del c.statuses[what]
            ev.append(StatusChanged(c.id, what, 0, "ended"))
        else:
            c.statuses[what] = (m - n, x, src)
            ev.append(StatusChanged(c.id, what, m - n, c.status_severity(what)))


def rest_event(by_id: Mapping[str, Combatant], text: str, dice: Dice) -> list[Event]:
    """A case file's or scenario's rest, between fights:
    ``rest short <id> <minutes> [rp <k>] [harsh] [<what> <points> ...]`` or
    ``rest long <id> <hours> [harsh] [<what> <points> ...]`` (``what``: hp, exert or a status);
    a bad text is a ``ValueError`` naming what is wrong."""
    words = text.split()
    usage = ("expected 'rest short <id> <minutes> [rp <k>] [harsh] [hp|exert|<status> <n> ...]' "
             "or 'rest long <id> <hours> [harsh] [...]'")
    if len(words) < 4 or words[0] != "rest" or words[1] not in ("short", "long"):
        raise ValueError(f"{text!r}: {usage}")
    kind, cid = words[1], words[2]
    c = by_id.get(cid)
    if c is None:
        raise ValueError(f"{text!r}: no combatant {cid!r} (have: {', '.join(by_id)})")
    try:
        length = float(words[3])
    except ValueError:
        raise ValueError(f"{text!r}: the length must be a number, got {words[3]!r}") from None
    rp, harsh, split = 1, False, {}
    rest = words[4:]
    i = 0
    while i < len(rest):
        w = rest[i]
        if w == "harsh":
            harsh, i = True, i + 1
            continue
        if i + 1 >= len(rest) or not rest[i + 1].isdigit():
            raise ValueError(f"{text!r}: {w!r} needs a whole number after it; {usage}")
        n = int(rest[i + 1])
        if w == "rp":
            if kind != "short":
                raise ValueError(f"{text!r}: 'rp' is for a short rest (a long rest spends none)")
            rp = n
        else:
            split[w] = n
        i += 2
    if kind == "short":
        if length != int(length):
            raise ValueError(f"{text!r}: a short rest's minutes must be whole, got {words[3]}")
        return short_rest(c, int(length), dice, rp=rp, harsh=harsh, split=split)
    return long_rest(c, length, harsh=harsh, split=split)
