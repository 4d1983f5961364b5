"""FULL movement and its damage, part two (spec §8.9, §7.2 Incorporeal, §5.2.17, §5.2.18, WE-30,
WE-37): Momentum crushes, Teleport and Blink collisions, the Incorporeal creature's movement,
Wall Cling's Bonus-action use and stay roll, and the Large Hail at the start of a turn.

RULINGS of this module (the seed leaves them open):

* Momentum and Teleport damage use the DEFAULT fall table (R-47, ``floor(h / 2)`` d6, at most
  20d6) for the height given, without the faller's Leap or Petrified changes (those belong to
  falling, spec §8.8); Teleport damage is at least 1d6 and rolled for each creature involved.
* Mass is not modelled: the "one with less mass" is the one of lower Size Number; on a tie the
  arriving creature is expelled. A wall cell in the way is corporeal and never moves. The
  expelled creature goes to the free cell next to the other's footprint nearest its own place
  (ties: lowest y, then lowest x). Incorporeal creatures are not corporeal (no collision).
* Incorporeal (every Move Speed becomes Levitate, spec §7.2, §5.2.18): it never falls, ignores
  difficult terrain (1 a step, Prone 2), and passes through walls and creatures: a step into a
  cell it may not stop in carries on in the same direction to the first cell where it may,
  paying for every cell crossed (one label, ``step <dir>``; it never rests inside a wall).
* Wall Cling (spec §5.2.17): the Bonus-action ``wall_cling`` is listed while falling next to a
  wall; after a success, at the end of each later turn of the clinger (not the turn it clung)
  it rolls again (Free): 20 + 2 per success so far; a failure lets go and it starts to fall.
  After one success in a round, a later cling that round needs no roll. A success may Leap
  instead (the ``cling_leap`` window, ``leap <dir> <k>``: up to 3 spaces, no movement paid).
* Large Hail at the start of a turn (WE-37): the turn start has no dice in this engine, so the
  start-of-turn 1d4 is rolled just before the creature's first action of the turn (its
  ``end_turn`` included), once a turn; the end-of-turn 1d4 is ``full_motion``'s. A creature
  under cover (``full_terrain.covered``: every cell of its block roofed, ``map.cover``) takes
  neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx
from envs.core.squaregrid import DIRECTIONS

from .damage import deal
from .economy import can_spend, spend
from .events import ConditionChanged, Stepped
from .fighter import Fighter
from .full_conditions import body_locked, fear_sources, is_full
from .full_motion import CLING_DC, CLING_STEP, HAIL, Clung, can_cling, move_speed
from .labels import act
from .space import can_stop, dist

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["table_dice", "crush", "free_crushed", "teleport", "blink_ok", "incorporeal",
           "phase_steps", "phase_target", "phase_step", "cling_actions", "cling",
           "stay_roll", "hail_start", "Teleported", "Expelled"]

TABLE_CAP = 20  # at most 20d6
CLING_TRIES = "cling_tries"  # the Wall Cling attempts of the fall so far (spec §5.2.17)
TELEPORT_FACTOR, TELEPORT_MIN = 3, 1  # spec §8.9: the fall damage for 3 x the distance, >= 1d6
NAMES = ("e", "ne", "n", "nw", "w", "sw", "s", "se")


@dataclass(frozen=True, slots=True)
class Teleported(Event):
    actor: str
    x: int
    y: int
    spaces: int

    def __str__(self) -> str:
        return f"{self.actor} teleports {self.spaces} to ({self.x}, {self.y})"


@dataclass(frozen=True, slots=True)
class Expelled(Event):
    actor: str
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.actor} is expelled to ({self.x}, {self.y})"


def table_dice(height: int) -> int:
    """R-47 DEFAULT: ``floor(h / 2)`` d6 for a height of ``h`` spaces, at most 20."""
    return min(TABLE_CAP, max(0, height) // 2)


# ---------------------------------------------------------------------- Momentum (§8.9)
def crush(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, speed: int,
          source: str = "momentum") -> int:
    """spec §8.9: crushed between two objects, ``f`` takes Crushing damage equal to the fall
    damage for a height of ``speed`` (the fastest crushing object's, in spaces; Crushing zeroes
    Guard first) and is Paralyzed while stuck (until ``free_crushed``). Returns the HP lost."""
    from .procedures import add_condition
    lost = deal(enc, ctx, ev, dealer=None, target=f, dice_n=table_dice(speed), dice_sides=6,
                flat=0, dtypes=("Crushing",))
    if f.alive:
        add_condition(enc, ev, f, "paralyzed", source=source)
    return lost


def free_crushed(enc: SizeboundEncounter, ev: list[Event], f: Fighter,
                 source: str = "momentum") -> None:
    """spec §8.9: only freeing it ends the crush's Paralysis."""
    if f.conds.remove("paralyzed", source=source) and "paralyzed" not in f.conds:
        ev.append(ConditionChanged(f.id, "paralyzed", False))


# ---------------------------------------------------------------------- Teleport (§8.9)
def incorporeal(f: Fighter) -> bool:
    return "incorporeal" in f.conds


def _enterable(enc: SizeboundEncounter, f: Fighter, cell: tuple[int, int]) -> bool:
    """A walker may enter: on the map, no wall, no hostile (allies are crossed, spec §5.0.5)."""
    hostile = [o for o in enc.fighters if o.alive and o is not f and o.side != f.side]
    return can_stop(enc.grid, f, cell, hostile)


def blink_ok(enc: SizeboundEncounter, f: Fighter, dest: tuple[int, int]) -> bool:
    """spec §8.9: Blink may only target cells reachable by walking (a path of steps through
    cells it may enter, whatever its budget)."""
    seen, todo = {f.pos}, [f.pos]
    while todo:
        x, y = todo.pop()
        if (x, y) == dest:
            return True
        for dx, dy in DIRECTIONS:
            c = (x + dx, y + dy)
            if c not in seen and _enterable(enc, f, c):
                seen.add(c)
                todo.append(c)
    return False


def _nearest_free(enc: SizeboundEncounter, who: Fighter, around: Fighter
                  ) -> tuple[int, int] | None:
    """The free cell next to ``around``'s footprint nearest ``who`` (ties: lowest y, x)."""
    others = [o for o in enc.fighters if o is not who]
    best: tuple[int, int, int] | None = None
    for x in range(around.x - who.n, around.x + around.n + 1):
        for y in range(around.y - who.n, around.y + around.n + 1):
            if dist(who, around, (x, y)) != 1 or not can_stop(enc.grid, who, (x, y), others):
                continue
            key = (max(abs(x - who.x), abs(y - who.y)), y, x)
            if best is None or key < best:
                best = key
    return None if best is None else (best[2], best[1])


def teleport(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter,
             dest: tuple[int, int], blink: bool = False) -> bool:
    """spec §8.9, WE-30: move ``f``'s anchor to ``dest`` at once (a Blink only to a cell
    reachable by walking). A corporeal creature already there makes a collision: the one of
    lower SN is expelled to the nearest free adjacent cell, and every creature involved takes
    True damage equal to the fall damage for 3 x the distance teleported (at least 1d6).
    Returns whether it teleported."""
    if blink and not blink_ok(enc, f, dest):
        return False
    spaces = max(abs(dest[0] - f.x), abs(dest[1] - f.y))
    f.x, f.y = dest
    ev.append(Teleported(f.id, f.x, f.y, spaces))
    if incorporeal(f):
        return True
    solid = [o for o in enc.fighters if o is not f and o.alive and not incorporeal(o)]
    if can_stop(enc.grid, f, f.pos, solid):
        return True  # nothing corporeal in the way (an ally's cell with room is shared)
    mine = {(f.x + i, f.y + j) for i in range(f.n) for j in range(f.n)}
    hit = [o for o in solid if mine & {(o.x + i, o.y + j) for i in range(o.n)
                                       for j in range(o.n)}]
    walled = not can_stop(enc.grid, f, f.pos, [])
    if walled or any(o.profile.sn >= f.profile.sn for o in hit):
        losers = [f]  # a wall, or a creature at least as heavy, stays: the arrival is pushed
    else:
        losers = hit
    for o in losers:
        cell = _nearest_free(enc, o, f)
        if cell is not None:
            o.x, o.y = cell
            ev.append(Expelled(o.id, o.x, o.y))
    involved = [f] + hit
    n = max(TELEPORT_MIN, table_dice(TELEPORT_FACTOR * spaces))
    for o in involved:
        if o.alive:
            deal(enc, ctx, ev, dealer=None, target=o, dice_n=n, dice_sides=6, flat=0,
                 dtypes=("True",))
    return True


# ---------------------------------------------------------------------- Incorporeal
def phase_target(enc: SizeboundEncounter, f: Fighter, d: int) -> tuple[tuple[int, int], int] | None:
    """The first cell in direction ``d`` where ``f`` may stop, passing through walls and
    creatures, and the cells crossed to get there (None when it would leave the map)."""
    dx, dy = DIRECTIONS[d]
    for k in range(1, max(enc.grid.width, enc.grid.height) + 1):
        c = (f.x + k * dx, f.y + k * dy)
        if not (0 <= c[0] and c[0] + f.n <= enc.grid.width and 0 <= c[1]
                and c[1] + f.n <= enc.grid.height):
            return None
        if can_stop(enc.grid, f, c, enc.fighters):
            return c, k
    return None


def _limit(f: Fighter) -> int:
    if f.mode in ("move", "run"):
        return f.budget
    return f.profile.walk if f.mode == "none" and can_spend(f, "M") else 0


def phase_steps(enc: SizeboundEncounter, f: Fighter) -> list[Action]:
    """The pass-through steps of an Incorporeal creature (the directions whose next cell it
    may not stop in), for ``legal.full_turn_actions``."""
    if not incorporeal(f) or f.grappled_by or f.grips or "rooted" in f.conds \
            or f.action_rung >= 4 or f.fatigue >= 4 or body_locked(f):
        return []
    from .legal import step_target
    limit = _limit(f)
    out = []
    for d in range(8):
        if step_target(enc, f, d) is not None:
            continue
        got = phase_target(enc, f, d)
        if got is None or got[1] * (2 if f.prone else 1) > limit or not _brave(enc, f, got[0]):
            continue
        out.append(act(f.id, "step", (NAMES[d],)))
    return out


def _brave(enc: SizeboundEncounter, f: Fighter, new: tuple[int, int]) -> bool:
    """spec §7.2 Afraid: no move that reduces the distance to a fear source."""
    for source in fear_sources(f):
        src = enc.by_id.get(source)
        if src is not None and src.alive and dist(f, src, new) < dist(f, src):
            return False
    return True


def phase_step(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, d: int) -> bool:
    """Resolve ``step <dir>`` as a pass-through when the next cell is blocked; returns whether
    it did (else the ordinary step applies)."""
    from .legal import step_target
    from .resolve import _open_move
    if not incorporeal(f) or not is_full(enc) or step_target(enc, f, d) is not None:
        return False
    got = phase_target(enc, f, d)
    assert got is not None
    cell, k = got
    if f.mode == "none":
        _open_move(ev, f, move_speed(enc, f))
    cost = k * (2 if f.prone else 1)
    f.budget -= cost
    f.steps += 1
    f.charge_dir, f.charge_path = None, []
    f.x, f.y = cell
    ev.append(Stepped(f.id, NAMES[d], f.x, f.y, cost))
    from .full_terrain import entered
    entered(enc, ev, f)  # water or magma where it stops (spec §5.2.18, §8.3)
    if enc.options.elevation:
        from .full_motion import settle
        settle(enc, ctx, ev, f)
    return True


# ---------------------------------------------------------------------- Wall Cling (§5.2.17)
def cling_actions(enc: SizeboundEncounter, f: Fighter) -> list[Action]:
    """The Bonus-action ``wall_cling`` of a faller next to a wall (spec §5.1 row 24)."""
    if not enc.options.elevation or not f.fall_turn or not can_cling(enc, f) \
            or not can_spend(f, "B") or f.action_rung >= 4 or body_locked(f):
        return []
    return [act(f.id, "wall_cling")]


def cling(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> bool:
    """One cling attempt (Nimble d20 >= 20 + 2 per attempt so far in this fall, a failed one
    included; free after a success this round): a success stops the fall, takes the damage
    fallen so far minimized (R-79) and makes the next stay roll 2 harder."""
    from .damage import deal, resist_vuln
    from .full_motion import _stop, fall_dice
    from .procedures import exert_d20, roll
    tries = f.fx.get(CLING_TRIES, 0)  # spec §5.2.17: each attempt raises the requirement +2
    if f.fx.get("cling_round") == enc.round:
        ok = True
    else:
        dc = CLING_DC + CLING_STEP * tries
        _, total = roll(ctx, ev, f, "wall_cling", f.nimble)
        total = exert_d20(enc, ctx, ev, f, "wall_cling", total, lambda x: x < dc)  # spec §6.5
        ok = total >= dc
    ev.append(Clung(f.id, ok))
    if not ok:
        f.fx[CLING_TRIES] = tries + 1
        return False
    _stop(enc, ev, f)  # (it forgets the attempts of this fall)
    f.cling = CLING_STEP * (tries + 1)
    f.fx["turn:clung"], f.fx["cling_round"] = 1, enc.round
    n = fall_dice(f, f.fallen)
    if n:  # the fall so far, minimized, through the §8.2 procedure (a Fall immunity
        # stops it; a Vulnerability cancels the minimize)
        if not resist_vuln(enc, f, ("Fall",))[0]:
            f.guard = 0  # spec §8.2 D13: Fall damage ignores Guard
        deal(enc, ctx, ev, dealer=None, target=f, dice_n=n, dice_sides=6, flat=0,
             dtypes=("Fall",), minimize=True)
    f.fallen = 0
    cling_leap(enc, ctx, ev, f)
    return True


def cling_leap(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> None:
    """spec §5.2.17: "On a success you may instead Leap (up to your unspent Leap Speed, Fly
    Speed, or half your unspent Walk Speed)": the ``cling_leap`` window (``pass`` stays on the
    wall). **RULING**: 1 to 3 spaces (the ``leap`` label's range, as the M-spend wall leap), by
    the wall leap's landing rules; it lets go and falls from its height if it lands in the air."""
    from .full_leap import CLING_LEAP, LEAPT, landings, may_leap
    from .full_motion import speed
    if not f.alive or not may_leap(enc, f):
        return
    walk = f.budget if f.mode in ("move", "run") else f.profile.walk if f.mode == "none" else 0
    leap = max(0, speed(f, "leap") - f.fx.get(LEAPT, 0))
    far = min(CLING_LEAP, max(leap, speed(f, "fly"), walk // 2))
    if far < 1:
        return
    lands = landings(enc, f, far)
    opts = [act(f.id, "leap", (NAMES[d], str(k))) for k in range(1, far + 1)
            for d in range(8) if k in lands[d]]
    if not opts:
        return
    a = ctx.ask(f.id, "cling_leap", [*opts, act(f.id, "pass")], {"z": f.z, "far": far})
    if a.kind != "leap":
        return
    from .full_leap import Leapt
    from .full_motion import settle
    from .full_terrain import entered
    d, k = NAMES.index(a.args[0]), int(a.args[1])
    dx, dy = DIRECTIONS[d]
    f.cling = 0
    f.x, f.y = f.x + dx * k, f.y + dy * k
    f.charge_dir, f.charge_path = None, []
    ev.append(Leapt(f.id, a.args[0], f.x, f.y, 0))
    settle(enc, ctx, ev, f)  # in the air: it falls from its height (§8.8)
    entered(enc, ev, f)


def resolve_cling(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> None:
    spend(f, "B")
    cling(enc, ctx, ev, f)


def stay_roll(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> None:
    """spec §5.2.17: at the end of each turn after the one it clung in, a clinger rolls again
    (Free; 20 + 2 per success); a failure lets go: it starts to fall."""
    from .full_motion import start_falling
    from .procedures import exert_d20, roll
    if not f.cling or f.fall_turn or f.fx.get("turn:clung") or not f.alive:
        return
    dc = CLING_DC + f.cling
    _, total = roll(ctx, ev, f, "wall_cling", f.nimble)
    total = exert_d20(enc, ctx, ev, f, "wall_cling", total, lambda x: x < dc)  # spec §6.5 E-D20
    ok = total >= dc
    ev.append(Clung(f.id, ok))
    if ok:
        f.cling += CLING_STEP
        cling_leap(enc, ctx, ev, f)
        return
    f.fx[CLING_TRIES] = f.cling // CLING_STEP + 1  # the next attempt is harder still
    f.cling = 0
    if f.z:
        start_falling(enc, ctx, ev, f)


# ---------------------------------------------------------------------- Large Hail (WE-37)
def hail_start(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> None:
    """WE-37: the start-of-turn 1d4 Bludgeoning of Large Hail (rolled before the first action
    of the turn, once; Block allowed, no stat)."""
    from .full_terrain import covered
    if enc.options.weather != "large_hail" or f.fx.get("turn:hail") or not f.alive:
        return
    from .full_conditions import petrified
    if petrified(f):  # spec §7.2 Petrified/Frozen: immune to weather
        return
    f.fx["turn:hail"] = 1
    if covered(enc, f):  # WE-37: only a creature not under cover
        return
    deal(enc, ctx, ev, dealer=None, target=f, dice_n=HAIL[0], dice_sides=HAIL[1], flat=0,
         dtypes=("Bludgeoning",))
