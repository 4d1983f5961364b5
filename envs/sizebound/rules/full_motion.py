"""FULL motion (spec §3.2 FULL, §5.2.17, §5.2.18, §8.8, R-47, R-79, §1.3 weather, WE-37):
the other move speeds, heights and ``rise``/``descend``, falling with the DEFAULT fall table,
the R-FALL window (``wall_cling``, ``drop_prone``, ``pass``), Wall Cling and Dive, and the
weather's effects on flyers and the Large Hail.

A creature's ``z`` is its height above the ground under it (0 on the ground); ``ground`` is
that ground's height (``enc.heights``, a situation's ``map.heights``). Everything here is off
unless ``options.elevation`` (weather: ``options.weather``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx
from envs.core.squaregrid import DIRECTIONS, footprint

from .damage import deal, resist_vuln
from .economy import can_spend
from .fighter import Fighter
from .full_geometry import ground
from .labels import act

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["SPEEDS", "speed", "can_hover", "move_speed", "step_cost", "height_ok", "settle",
           "end_due", "winded_flight",
           "motion_actions", "resolve_motion", "after_action", "fall_distance", "fall_dice",
           "start_falling", "read_state", "Fell", "Landed", "Clung", "Climbed", "Pushed"]

SPEEDS = ("fly", "levitate", "leap", "swim", "burrow")
"""§5.2.18: the move speeds besides Walk a situation's ``state.speeds`` may give."""
FALL_FIRST, FALL_GROWTH, DIVE = 4, 2, 4  # §8.8, R-47: 4, 6, 8 ... a turn; a Dive falls 4
FALL_DICE_CAP = 20  # at most 20d6
CLING_DC, CLING_STEP = 20, 2  # §5.2.17: Nimble >= 20, +2 each further attempt
AERIAL_DIFFICULT = frozenset({"heavy_rain", "hail", "large_hail", "hurricane"})
FLY_PENALTY = {"heavy_wind": 1, "wind_storm": 1}  # WE-37: Fly -1
PUSH = {"wind_storm": 3, "hurricane": 5}  # WE-37: airborne creatures pushed downwind (east)
HAIL = (1, 4)  # WE-37: Large Hail, 1d4 Bludgeoning at the start and the end of each turn


@dataclass(frozen=True, slots=True)
class Climbed(Event):
    actor: str
    z: int

    def __str__(self) -> str:
        return f"{self.actor} is now at height {self.z}"


@dataclass(frozen=True, slots=True)
class Fell(Event):
    actor: str
    spaces: int
    z: int
    fallen: int

    def __str__(self) -> str:
        return (f"{self.actor} falls {self.spaces} (height {self.z}, "
                f"{self.fallen} fallen so far)")


@dataclass(frozen=True, slots=True)
class Landed(Event):
    actor: str
    height: int
    dice: int

    def __str__(self) -> str:
        return f"{self.actor} lands after falling {self.height} ({self.dice}d6 Fall)"


@dataclass(frozen=True, slots=True)
class Clung(Event):
    actor: str
    success: bool

    def __str__(self) -> str:
        return f"{self.actor} {'clings to the wall' if self.success else 'fails to cling'}"


@dataclass(frozen=True, slots=True)
class Pushed(Event):
    actor: str
    spaces: int
    x: int

    def __str__(self) -> str:
        return f"the wind pushes {self.actor} {self.spaces} east to x {self.x}"


# ---------------------------------------------------------------------- speeds (§5.2.18)
def speed(f: Fighter, kind: str) -> int:
    """A move speed in spaces: Walk from the stat block, the others from ``state.speeds``; with
    no Swim speed Walk swims at ``floor(Walk / 3)`` (WE-27); no Fly while Tired (§7.2)."""
    if kind == "walk":
        return f.profile.walk
    if "incorporeal" in f.conds:  # §7.2: every Move Speed becomes Levitate
        return max([f.profile.walk, *f.speeds.values()]) if kind == "levitate" else 0
    if kind == "fly" and f.tired:  # §7.2 Tired: it cannot Fly (a flyer without Levitate falls)
        return 0
    got = f.speeds.get(kind, 0)
    if kind == "swim" and not got:
        return f.profile.walk // 3
    return got


def can_hover(f: Fighter) -> bool:
    """§5.2.18, §8.8: a Fly or Levitate speed keeps a creature up (not while Unconscious)."""
    if "incorporeal" in f.conds:
        return True  # §7.2, §5.2.18: Levitate only, which does not fall
    return (speed(f, "fly") > 0 or speed(f, "levitate") > 0) and not f.unconscious


def move_speed(enc: SizeboundEncounter, f: Fighter, air: bool = False) -> int:
    """The budget a Move opens with: Walk on the ground; in the air (or taking off, ``air``)
    Fly (else Levitate), less the wind's penalty (WE-37)."""
    if not enc.options.elevation or not (f.z or air) or not can_hover(f):
        return f.profile.walk
    fly = speed(f, "fly")
    if fly:
        return max(0, fly - FLY_PENALTY.get(enc.options.weather, 0))
    return speed(f, "levitate")


def step_cost(enc: SizeboundEncounter, f: Fighter, base: int) -> int:
    """An airborne flyer ignores ground difficult terrain (cost 1) but pays 2 in aerial
    difficult terrain (Heavy Rain, Hail, Large Hail, Hurricane Force, §5.2.18); a levitator
    (no Fly speed) and an Incorporeal creature ignore both (§7.2, §5.2.18)."""
    if "incorporeal" in f.conds and enc.options.version == "full":
        return 2 if f.prone else 1
    if not enc.options.elevation or f.z == 0 or not can_hover(f):
        return base
    # Fly suffers aerial difficult terrain; Levitate ignores every difficult terrain (§5.2.18)
    cost = 2 if speed(f, "fly") and enc.options.weather in AERIAL_DIFFICULT else 1
    return cost * (2 if f.prone else 1)


def height_ok(enc: SizeboundEncounter, f: Fighter, new: tuple[int, int]) -> bool:
    """A walker climbs at most 1 level in a step (§5.2.18 inclines); a flyer must be above the
    new ground."""
    if not enc.heights:
        return True
    return ground(enc, new, f.n) <= f.ground + f.z + (0 if f.z else 1)


def settle(enc: SizeboundEncounter, ctx: Ctx | None, ev: list[Event], f: Fighter) -> None:
    """After a move: keep the altitude over the new ground; a walker off a ledge higher than 1
    starts to fall (§8.8)."""
    new = ground(enc, f.pos, f.n)
    alt = f.ground + f.z
    f.ground, f.z = new, max(0, alt - new)
    if f.cling and not _wall_near(enc, f):
        f.cling = 0  # it left the wall
    if f.z and not can_hover(f) and not f.fall_turn and not f.cling:
        if f.z <= 1:
            f.z = 0  # a one-level step down
        elif ctx is not None:
            start_falling(enc, ctx, ev, f)


# ---------------------------------------------------------------------- own-turn actions
def _wall_near(enc: SizeboundEncounter, f: Fighter) -> bool:
    """§5.2.17: a wall cell, or ground rising to the creature's height, next to its block."""
    alt = f.ground + f.z
    mine = set(footprint(f.pos, f.n))
    for x, y in mine:
        for dx, dy in DIRECTIONS:
            c = (x + dx, y + dy)
            if c in mine:
                continue
            if c in enc.grid.walls or enc.heights.get(c, 0) > alt:
                return True
    return False


def _floor_near(enc: SizeboundEncounter, f: Fighter) -> bool:
    """§5.2.17: ground level with the creature's height next to its block (a floor it could
    stand on: no wall to cling to there)."""
    alt = f.ground + f.z
    mine = set(footprint(f.pos, f.n))
    return any((x + dx, y + dy) not in mine and (x + dx, y + dy) not in enc.grid.walls
               and enc.heights.get((x + dx, y + dy), 0) == alt
               for x, y in mine for dx, dy in DIRECTIONS)


def can_cling(enc: SizeboundEncounter, f: Fighter) -> bool:
    """§5.2.17: gravity (in the air), a wall next to it, no floor next to it, a free hand."""
    return f.z > 0 and _wall_near(enc, f) and not _floor_near(enc, f) and f.free_hands >= 1 \
        and not f.unconscious


def motion_actions(enc: SizeboundEncounter, f: Fighter, can_move: Any) -> list[Action]:
    """``rise``/``descend`` (one level, 1 movement, flyers and levitators) and ``dive`` (a Move
    action while falling) for ``legal.turn_actions``; ``can_move(cost)`` is its budget check."""
    if not enc.options.elevation or f.grappled_by:
        return []
    out = []
    if can_hover(f) and f.action_rung < 4:
        cost = step_cost(enc, f, 1) if f.z else 1
        if can_move(cost) and not f.tired:
            out.append(act(f.id, "rise"))
            if f.z > 0:
                out.append(act(f.id, "descend"))
    if f.fall_turn and f.mode == "none" and can_spend(f, "M"):  # spec §4.6 limits M too
        out.append(act(f.id, "dive"))
    return out


def winded_flight(enc: SizeboundEncounter, ev: list[Event], f: Fighter, air: bool = False
                  ) -> None:
    """spec §7.2 Winded: a Winded creature that Flies (rises, descends, or steps in the air
    with a Fly speed; ``air``: rising or descending) becomes Tired for 1 round."""
    from .fighter import FatigueRung
    from .procedures import add_condition
    if enc.options.elevation and (air or f.z > 0) and speed(f, "fly") > 0 \
            and f.fatigue == FatigueRung.WINDED:
        add_condition(enc, ev, f, "tired", rounds=1)


def resolve_motion(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter,
                   kind: str) -> None:
    from .economy import spend
    from .resolve import _open_move
    if kind == "dive":  # §5.2.17: a Move action; fall 4 spaces at once
        spend(f, "M")
        f.mode = "dive"
        _fall(enc, ctx, ev, f, DIVE)
        return
    if f.mode == "none":
        _open_move(ev, f, move_speed(enc, f, air=True))
    winded_flight(enc, ev, f, air=True)
    cost = step_cost(enc, f, 1) if f.z else 1
    f.budget -= cost
    f.z += 1 if kind == "rise" else -1
    ev.append(Climbed(f.id, f.z))


# ---------------------------------------------------------------------- falling (§8.8)
def fall_distance(turn: int) -> int:
    """R-47: the spaces of one fall step in the k-th turn of falling: 4, 6, 8, ..."""
    return FALL_FIRST + FALL_GROWTH * (turn - 1)


def fall_dice(f: Fighter, height: int) -> int:
    """R-47 DEFAULT: ``floor(h / 2)`` d6, at most 20; Leap cuts h by ``floor(Leap / 2)``;
    Petrified or Frozen doubles it (§8.8)."""
    h = max(0, height - speed(f, "leap") // 2)
    if "petrified" in f.conds or "frozen" in f.conds:
        h *= 2
    return min(FALL_DICE_CAP, h // 2)


FALL_REACTED = "fall:reacted"
"""``Fighter.fx`` key: the faller has reacted in this instance of falling (spec §6.2, R-11)"""


def start_falling(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> None:
    from .procedures import add_condition
    f.fall_turn, f.fallen = 1, 0
    f.fx.pop(FALL_REACTED, None)  # a new instance of falling (spec §6.2, R-11)
    add_condition(enc, ev, f, "falling")
    _fall_window(enc, ctx, ev, f)


def _fall_window(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> None:
    """R-FALL (§6.3): the faller may try a Wall Cling (a Reaction) or React (drop prone), once
    an instance of falling (spec §6.2, R-11: one reaction per creature per triggering action)."""
    from .attack import can_react, spend_reaction
    from .procedures import can_fall_prone
    if f.fx.get(FALL_REACTED):
        return
    opts = []
    if can_cling(enc, f) and can_react(f):
        opts.append(act(f.id, "wall_cling"))
    if can_fall_prone(f, air=True, enc=enc) and can_react(f):  # §6.4.4: React in R-FALL
        opts.append(act(f.id, "drop_prone"))
    if not opts or not f.fall_turn:
        return
    a = ctx.ask(f.id, "fall", opts + [act(f.id, "pass")], {"z": f.z, "fallen": f.fallen})
    if a.kind != "pass":
        f.fx[FALL_REACTED] = 1
    if a.kind == "wall_cling":
        from .full_move2 import cling
        spend_reaction(f)
        cling(enc, ctx, ev, f)  # the damage so far, minimized, at once
    elif a.kind == "drop_prone":
        from .procedures import make_prone
        spend_reaction(f)
        make_prone(enc, ctx, ev, f, on_purpose=True, air=True)


def _stop(enc: SizeboundEncounter, ev: list[Event], f: Fighter) -> None:
    from .events import ConditionChanged
    f.fall_turn = 0
    f.fx.pop(FALL_REACTED, None)
    f.fx.pop("cling_tries", None)  # a landing, or a cling, ends this fall's attempts
    if "falling" in f.conds:
        f.conds.remove("falling")
        ev.append(ConditionChanged(f.id, "falling", False))


def _fall(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, spaces: int) -> None:
    """One fall step: down ``spaces`` or to the ground; landing deals the fall dice (Fall damage
    sets Guard to 0 first, so Block is useless, §6.4.3)."""
    drop = min(spaces, f.z)
    f.z -= drop
    f.fallen += drop
    ev.append(Fell(f.id, drop, f.z, f.fallen))
    if f.z == 0:
        n = fall_dice(f, f.fallen)
        ev.append(Landed(f.id, f.fallen, n))
        _stop(enc, ev, f)
        f.fallen = 0
        if n:
            if not resist_vuln(enc, f, ("Fall",))[0]:  # spec §8.2 D2: Guard untouched if immune
                f.guard = 0
            deal(enc, ctx, ev, dealer=None, target=f, dice_n=n, dice_sides=6, flat=0,
                 dtypes=("Fall",))


def after_action(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter,
                 ended: bool) -> None:
    """§8.8: a faller falls f spaces right after its first action of the turn (or at the end
    of the turn if it took none) and f more at the end of its turn (its ``end_turn``); each
    step opens R-FALL first. Large Hail hits at the start and the end of each turn (WE-37)."""
    if ended and f.alive:
        from .full_move2 import hail_start
        hail_start(enc, ctx, ev, f)  # WE-37: the start-of-turn hail, if not rolled yet
        _weather_end(enc, ctx, ev, f)
    if not enc.options.elevation:
        return
    if f.fall_turn and f.alive:
        steps = (2 if f.fall_steps == 0 else 1) if ended else (1 if not f.fall_steps else 0)
        for _ in range(steps):
            if not f.fall_turn:
                break
            _fall_window(enc, ctx, ev, f)
            if f.fall_turn:
                _fall(enc, ctx, ev, f, fall_distance(f.fall_turn))
            f.fall_steps += 1
        if ended and f.fall_turn:
            f.fall_turn += 1
    if ended:
        f.fall_steps = 0
        from .full_move2 import stay_roll
        stay_roll(enc, ctx, ev, f)  # §5.2.17: the clinger's roll to stay


def end_due(enc: SizeboundEncounter, f: Fighter) -> bool:
    """Does ``f``'s end of turn roll dice (Large Hail, a wind push while airborne, a clinger's
    stay roll; WE-37, §5.2.17)? Then its turn is not passed automatically (spec §4.3): its
    ``end_turn`` is a decision, as a faller's is."""
    w = enc.options.weather
    return w == "large_hail" or (bool(f.z) and PUSH.get(w, 0) > f.mr) \
        or (bool(f.cling) and not f.fall_turn)


def _weather_end(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> None:
    """WE-37 at the end of the creature's turn: Large Hail deals 1d4 Bludgeoning (no stat,
    Block allowed; not under cover, ``full_terrain.covered``); Wind Storm and Hurricane Force push
    an airborne creature 3 or 5 spaces downwind (east), each MR point cancelling one."""
    from .full_conditions import petrified
    from .full_terrain import covered
    w = enc.options.weather
    if petrified(f):  # spec §7.2 Petrified/Frozen: immune to weather (hail, wind)
        return
    if w == "large_hail" and not covered(enc, f):
        deal(enc, ctx, ev, dealer=None, target=f, dice_n=HAIL[0], dice_sides=HAIL[1], flat=0,
             dtypes=("Bludgeoning",))
    push = PUSH.get(w, 0) - f.mr
    if push <= 0 or not f.z or not f.alive:
        return
    from .space import can_stop
    moved = 0
    while moved < push and can_stop(enc.grid, f, (f.x + 1, f.y), enc.fighters):
        f.x += 1
        moved += 1
    if moved:
        ev.append(Pushed(f.id, moved, f.x))
        settle(enc, ctx, ev, f)


def read_state(enc: SizeboundEncounter, f: Fighter, st: Any) -> None:
    """A situation's ``state.z`` and ``state.speeds`` (a mapping of SPEEDS to spaces)."""
    if st.has("speeds"):
        sp = st.sub("speeds")
        for k in SPEEDS:
            if sp.has(k):
                f.speeds[k] = sp.integer(k, lo=0)
        sp.done()
    f.ground = ground(enc, f.pos, f.n)
    if st.has("z"):
        f.z = st.integer("z", lo=0)
        if f.z and not can_hover(f) and not _wall_near(enc, f):
            f.fall_turn = 1
            f.conds.add("falling", now=enc.clock, forever=True)
