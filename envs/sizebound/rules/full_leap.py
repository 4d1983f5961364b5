"""FULL Leap (spec §5.2.18, §5.2.17, §8.8, §7.2 Winded/Tired, WE-29): ``leap <dir> <k>``, a
burst of movement of ``k`` spaces (1 to 3) in one of the 8 directions, listed by
``full_actions`` under the FULL ``elevation`` option (the other move speeds).

RULINGS of this module (the seed gives the speeds, not the procedure):

* A leap is part of the Move (it opens M with the Walk budget, as a step does) or of a Run.
  With a Leap speed (a situation's ``state.speeds.leap``) each space leapt costs 1; without
  one, Walk buys it: 3 Walk a space (``conventions.leap_from_walk``, WE-29: Walk 5 leaps 1 and
  still walks 2).
* "A Move action uses the lowest of the speeds chosen for it" (spec §5.2.3): once a creature
  with a Leap speed leaps, what is left of its Move is capped by that speed (twice it under
  Run) less the spaces leapt this turn (as swimming caps it, ``full_terrain``).
* It ignores ground difficult terrain (every space costs the same), not aerial difficult
  terrain (Heavy Rain, Hail, Large Hail, Hurricane Force: every space costs double, spec
  §5.2.18); the cells it passes over
  and the landing cell follow the step rules: on the map, no wall, no hostile in a cell passed
  over (allies are passed, spec §5.0.5), a landing cell it may stop in, ground at most 1 level
  above its own (a leap does not climb), and no landing nearer a fear source (spec §7.2).
* Not while Grappled, Rooted, Prone, lifted, holding a grip (it would drag), Tired (spec §7.2:
  a Tired creature cannot Leap), in the air (a flyer flies), or Paralyzed or worse. A Winded
  leaper becomes Tired for 1 round (spec §7.2), as a runner does.
* A clinger (spec §5.2.17: "a creature that starts its turn on a wall may spend M to Leap 3
  spaces"): with M unspent and no Move opened, it leaps up to 3 spaces for M alone (no Walk
  paid, no budget opened); it lets go of the wall and falls from its height if it lands in
  the air (§8.8, its Leap speed cuts the fall, ``full_motion.fall_dice``).
* A leap breaks a Charge (it is not a run of steps, R-31).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx
from envs.core.squaregrid import DIRECTIONS

from . import rulings
from .conventions import LEAP_WALK_COST, leap_from_walk
from .economy import can_spend, spend
from .events import MoveOpened
from .fighter import FatigueRung, Fighter
from .full_conditions import body_locked, fear_sources
from .full_geometry import ground
from .labels import act
from .space import blockers, can_stop, dist, stop_ok

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["LEAP_DISTANCES", "CLING_LEAP", "leap_actions", "resolve_leap", "leap_cost",
           "leap_path", "landings", "may_leap", "Leapt"]

LEAP_DISTANCES = ("1", "2", "3")  # the label's distances (spec §5.2.17: a wall Leap is 3)
CLING_LEAP = 3  # spec §5.2.17: a clinger may spend M to Leap 3 spaces
LEAPT = "turn:leapt"  # fx: spaces leapt this turn


@dataclass(frozen=True, slots=True)
class Leapt(Event):
    actor: str
    direction: str
    x: int
    y: int
    cost: int

    def __str__(self) -> str:
        return f"{self.actor} leaps {self.direction} to ({self.x}, {self.y}) (cost {self.cost})"


def aerial_weather(enc: SizeboundEncounter) -> bool:
    """The weather makes the air difficult terrain (spec §5.2.18; ``full_motion``)."""
    from .full_motion import AERIAL_DIFFICULT
    return enc.options.weather in AERIAL_DIFFICULT


def _clinging(f: Fighter) -> bool:
    return bool(f.cling) and f.z > 0 and not f.fall_turn


def leap_cost(f: Fighter, k: int, aerial: bool = False) -> int | None:
    """The movement a leap of ``k`` spaces costs now (None: it cannot pay). A clinger's wall
    leap costs M alone (0 budget). ``aerial``: the weather is aerial difficult terrain, which
    a leap does not ignore (spec §5.2.18): every space costs double."""
    if _clinging(f):
        return 0 if f.mode == "none" and can_spend(f, "M") and k <= CLING_LEAP else None
    own = f.speeds.get("leap", 0)
    cost = (k if own else LEAP_WALK_COST * k) * (2 if aerial else 1)
    if own and f.fx.get(LEAPT, 0) + k > own * (2 if f.mode == "run" else 1):
        return None
    if f.mode in ("move", "run"):
        budget = f.budget
    elif f.mode == "none" and can_spend(f, "M"):
        budget = f.profile.walk
    else:
        return None
    if own or aerial:
        return cost if budget >= cost else None
    return cost if leap_from_walk(budget, k) is not None else None


def leap_path(enc: SizeboundEncounter, f: Fighter, d: int, k: int) -> tuple[int, int] | None:
    """The landing anchor of a leap of ``k`` spaces in direction ``d`` (index into
    ``squaregrid.DIRECTIONS``), or None when a cell passed over or the landing is not allowed."""
    dx, dy = DIRECTIONS[d]
    hostile = [o for o in enc.fighters if o.alive and o is not f and o.side != f.side
               and o.id not in f.grappled_by]
    alt = f.ground + f.z
    for i in range(1, k + 1):
        c = (f.x + dx * i, f.y + dy * i)
        last = i == k
        others = [o for o in enc.fighters if o is not f] if last else hostile
        if not can_stop(enc.grid, f, c, others):
            return None
        if enc.heights and ground(enc, c, f.n) > alt + (0 if f.z else 1):
            return None
    land = (f.x + dx * k, f.y + dy * k)
    for source in fear_sources(f):
        src = enc.by_id.get(source)
        if src is not None and src.alive and dist(f, src, land) < dist(f, src):
            return None
    return land


def may_leap(enc: SizeboundEncounter, f: Fighter) -> bool:
    if not enc.options.elevation or not f.alive or f.unconscious:
        return False
    if f.grappled_by or f.grips or "rooted" in f.conds or f.prone or f.tired \
            or "incorporeal" in f.conds:  # spec §7.2: its every Move Speed is Levitate
        return False
    if f.action_rung >= 4 or f.fatigue >= 4 or body_locked(f):
        return False
    return f.z == 0 or _clinging(f)


def leap_actions(enc: SizeboundEncounter, f: Fighter) -> list[Action]:
    """``leap <dir> <k>`` for ``full_actions``."""
    if not may_leap(enc, f):
        return []
    ks = [(k_text, int(k_text)) for k_text in LEAP_DISTANCES
          if leap_cost(f, int(k_text), aerial_weather(enc)) is not None]
    if not ks:
        return []
    lands = landings(enc, f, ks[-1][1])
    return [act(f.id, "leap", (name, k_text)) for k_text, k in ks
            for d, name in enumerate(rulings.DIRECTIONS) if k in lands[d]]


def landings(enc: SizeboundEncounter, f: Fighter, far: int) -> list[set[int]]:
    """``leap_path`` for every direction and every distance up to ``far`` at once: per
    direction, the distances whose leap lands (the others' places read once)."""
    hostile = blockers(f, [o for o in enc.fighters if o.alive and o is not f
                           and o.side != f.side and o.id not in f.grappled_by])
    everyone = blockers(f, [o for o in enc.fighters if o is not f])
    alt = f.ground + f.z + (0 if f.z else 1)
    srcs = [src for src in (enc.by_id.get(s) for s in fear_sources(f))
            if src is not None and src.alive]
    grid, heights = enc.grid, bool(enc.heights)
    out = []
    for dx, dy in DIRECTIONS:
        ok = set()
        for i in range(1, far + 1):
            c = (f.x + dx * i, f.y + dy * i)
            high = heights and ground(enc, c, f.n) > alt
            if not high and stop_ok(grid, f, c, everyone) \
                    and all(dist(f, src, c) >= dist(f, src) for src in srcs):
                ok.add(i)  # it lands here
            if high or not stop_ok(grid, f, c, hostile):
                break  # no leap passes over here
        out.append(ok)
    return out


def resolve_leap(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter,
                 a: Action) -> None:
    from .full_terrain import entered
    from .procedures import add_condition
    d, k = rulings.DIRECTIONS.index(a.args[0]), int(a.args[1])
    cost = leap_cost(f, k, aerial_weather(enc))
    land = leap_path(enc, f, d, k)
    assert cost is not None and land is not None
    if _clinging(f):
        spend(f, "M")
        f.mode = "leap"  # the M is spent, no budget opened
        f.cling = 0
    else:
        if f.mode == "none":
            spend(f, "M")
            f.mode, f.budget = "move", f.profile.walk
            ev.append(MoveOpened(f.id, "move", f.budget))
        f.budget -= cost
        own = f.speeds.get("leap", 0)
        leapt = f.fx.get(LEAPT, 0) + k
        f.fx[LEAPT] = leapt
        if own:  # spec §5.2.3: the lowest of the speeds chosen for the Move
            f.budget = min(f.budget, max(0, own * (2 if f.mode == "run" else 1) - leapt))
    f.steps += 1
    f.charge_dir, f.charge_path = None, []
    f.x, f.y = land
    ev.append(Leapt(f.id, a.args[0], f.x, f.y, cost))
    if f.fatigue == FatigueRung.WINDED:
        add_condition(enc, ev, f, "tired", rounds=1)  # spec §7.2 Winded: it Leaps
    from .full_motion import settle
    settle(enc, ctx, ev, f)  # a ledge or a wall leap: it falls (§8.8)
    entered(enc, ev, f)


def leap_words(f: Fighter, a: Action, where: str, enc: SizeboundEncounter | None = None
               ) -> str:
    """Plain words for ``describe`` (``where``: the direction in words; ``enc``: its weather)."""
    k = int(a.args[1])
    if _clinging(f):
        return f"leap {k} {where} off the wall (Move action; falls from height {f.z})"
    cost = leap_cost(f, k, enc is not None and aerial_weather(enc))
    budget = f.budget if f.mode in ("move", "run") else f.profile.walk
    opens = ", opens the Move" if f.mode == "none" else ""
    return f"leap {k} {where} over any ground ({cost} of {budget} movement{opens})"
