"""Mano a Mano combat state, CORE rules (spec §12.1): turn order, turns, movement, counters, strikes.

Implements spec §3.3 (surprise, R30/R53), §3.5 (turn order, R10), §4 (turn options, categories, combo
capacity R11, movement and charging R26/R28, end of turn, forced skips for speed below 1), §5.4
strikes (quick / strategic / cautious / powerful, reach R7), §5.8 drop / stand / instant stand / rest
(R2, R3, R12), §6.1 counterattacks (R13, R35) and §8 (harm, health, incapacitation R23, the end of
combat R54), and grappling (spec §5.7, §6.2: hold, push, trip, slam, slam onto, wrench, choke,
disarm; balance and breakfall rolls R49/R15; falls R14; outcome choices R18; pair movement R43;
position modifiers R4/R25). Missiles, armor avoidance, cover, setup stances and the other FULL items
are not here yet (issue 5).

Decisions are ``Action`` labels::

    steven: move 0                      one hex in direction 0..5 (envs.core.hexgrid)
    steven: counter                     prepare a counterattack (first decision of a turn)
    steven: strike powerful machete -> clone
    steven: strike quick right_foot -> clone
    wrestler: grapple push 3 -> guard    also hold, trip, slam, slam_onto, wrench, choke, disarm HAND
    wrestler: choose hold_dominant -> guard   (or release, follow_to_ground, let_go, keep)
    wrestler: release -> guard          free, for a dominant member
    steven: drop | stand | instant_stand | rest | end

A declared attack on a counter-ready target does not resolve: the target takes its counter turn at
once, then the attacker decides again with its remaining movement and combo budget (spec §6.1, §6.6).
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from envs.core import Action, Dice, IllegalActionError, parse_label
from envs.core.encounter import EncounterBase, Outcome, SideInfo
from envs.core.events import (
    ActionTaken,
    EncounterEnded,
    Event,
    OutOfFight,
    RoundStarted,
    TurnStarted,
)
from envs.core.hexgrid import DIRECTIONS, Hex, HexMap, direction_to, distance, neighbor, ring
from envs.core.hexgrid import neighbors as neighbors_of

from . import resolution as R
from . import rulings
from .catalogue import StatBlock, encounters, stat_blocks
from .guns import GunsMixin
from .mounted import MountedMixin
from .options import CORE, FULL, ROUND_CAP, RuleOptions, parse_options  # noqa: F401  (re-exported)

STRIKE_VERBS = ("quick", "strategic", "cautious", "powerful")
CORE_KINDS = frozenset({"end", "counter", "move", "rest", "drop", "stand", "instant_stand", "strike"})
"""the decisions of the CORE rules (spec §12.1 items 5-6; §12.3: block A entries 0-11 and strikes
with armor option 0); grappling, missiles, items, armor avoidance, cover, delay and mounts are FULL"""
STANCES = ("stance_none", "stance_evade", "stance_counter")
ARENA_RADIUS = 7  # spec §3.2: suggested arena, a hexagon of radius 7


# ---------------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    roller: str
    purpose: str
    die: int
    modifier: int
    difficulty: int
    success: bool

    def __str__(self) -> str:
        verdict = "success" if self.success else "failure"
        return f"{self.roller} rolls d20={self.die} {self.modifier:+d} vs {self.difficulty} for {self.purpose}: {verdict}"


@dataclass(frozen=True, slots=True)
class Harmed(Event):
    target: str
    power: int
    absorption: int
    damage: int
    stun: int
    health: str

    def __str__(self) -> str:
        return (f"{self.target} takes power {self.power} - absorption {self.absorption}: {self.damage} damage, "
                f"{self.stun} stun ({self.health})")


@dataclass(frozen=True, slots=True)
class Note(Event):
    """Any other change worth a line (moved, counter triggered, stun recovered, stance...)."""

    who: str
    text: str

    def __str__(self) -> str:
        return f"{self.who} {self.text}"


# ---------------------------------------------------------------------------------- actions


class _Can(NamedTuple):
    """What the action categories and combo capacity allow the deciding combatant (spec §4.3, §4.4)."""

    quick: bool
    """a quick action"""
    strenuous: bool
    """a strenuous action"""
    other: bool
    """an "other" action (rest, cover, a muzzle-loader's reload: alone in its turn)"""
    quick_free: bool
    """a quick action that uses no weapon (``quick`` and ``_capacity_ok(None)``)"""


class _Held(NamedTuple):
    """What a combatant's held items allow, the same whenever it holds the same items."""

    strikes: tuple[tuple[str, Any, int], ...]
    """``(weapon, stats, reach in hexes)`` of every striking weapon (spec §4.4, RULING R7, R11)"""
    longest: int
    """the longest reach of ``strikes``"""
    throws: tuple[tuple[str, str, Any, int, bool], ...]
    """``(hand, item, stats, quick throw range in m, throwable)`` of every held item that can be
    thrown or heaved, in hand order (spec §5.5, RULING R8, R56)"""
    free: tuple[str, ...]
    """free hands (``right``, ``left``)"""
    bow: tuple[str, str] | None
    """``(hand, item)`` of a held bow"""
    missile: bool
    """a bow or gun is held (``_gun_actions`` has something to offer)"""


_ACTIONS: dict[tuple[Any, ...], Action] = {}
_MOVES: dict[str, tuple[Action, ...]] = {}


def _act(actor: str, kind: str, args: tuple[str, ...] = (), target: str | None = None) -> Action:
    """``Action(actor, kind, args, target)``, shared: the legal actions of one state and the next
    are mostly the same values, and an ``Action`` is immutable."""
    key = (actor, kind, args, target)
    found = _ACTIONS.get(key)
    if found is None:
        if len(_ACTIONS) > 200_000:  # many rosters in one process: start over
            _ACTIONS.clear()
            _MOVES.clear()
        found = _ACTIONS[key] = Action(actor, kind, args, target)
    return found


# ---------------------------------------------------------------------------------- state


@dataclass
class Fighter:
    id: str
    block: StatBlock
    side: str
    slot: int
    hex: Hex
    standing: bool = True
    stun: int = 0
    damage: int = 0
    held: dict[str, str] = field(default_factory=dict)
    defense_bonus: int = 0
    counter_ready: bool = False
    forced_skips: int = 0
    stowed: list[str] = field(default_factory=list)
    bow_drawn: bool = False
    aiming: str | None = None
    """the weapon aimed with (+5 to its next attack, RULING R31)"""
    covering: str | None = None
    """the ally this combatant covers until the start of its next turn (spec §6.4, RULING R29)"""
    shots: dict[str, int] = field(default_factory=dict)
    """shots left per gun item id; a gun not listed is full (spec §3.6, guns.py)"""
    clip_out: list[str] = field(default_factory=list)
    """clip guns whose clip is out (RULING R50)"""
    reloading: dict[str, int] = field(default_factory=dict)
    """muzzle-loader reload actions done per gun (RULING R50)"""

    @property
    def health(self) -> str:
        return R.health(self.stun, self.damage, self.block.toughness)

    @property
    def healthy(self) -> bool:
        """``health == "healthy"``: ``T = stun + damage`` at most toughness (spec §2.3, RULING R1)."""
        tough = self.block.toughness
        return self.stun + self.damage <= tough and tough > 0

    @property
    def encumbered(self) -> bool:
        """Carrying more than the carrying capacity now: held and stowed items and worn armor
        (spec §2.7, §7: it ends when items are dropped)."""
        return self.block.encumbered_with(self.held.values(), self.stowed)

    def may_carry(self, item: str) -> bool:
        """Would picking ``item`` up keep the carried mass within 2 x CC (spec §2.7)?"""
        b = self.block
        return b.mass_with((*self.held.values(), item), self.stowed) <= 2 * b.carrying_capacity_kg

    @property
    def incapacitated(self) -> bool:
        """``health`` is one of the incapacitated states: T reaches stamina (spec §8.3, RULING R1)."""
        return self.stun + self.damage >= 2 * self.block.toughness

    def weapons(self) -> dict[str, Any]:
        """Weapon identity (spec §4.4, RULING R11) -> derived stats, for striking. The mapping is
        shared between calls with the same held items: read it, do not change it."""
        b = self.block
        key = ("weapons", tuple(sorted(self.held.items())))
        found = b._memo.get(key)
        if found is None:
            found = b._memo[key] = self._weapons()
        return found

    def _weapons(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        b = self.block
        for w in b.free_natural_weapons(self.held):
            if not w.unlisted:
                out[w.name] = b.natural_stats(w)
        body = [w for w in b.natural_weapons if w.unlisted]
        if body:
            out["body"] = b.natural_stats(body[0])
        for slot, item in self.held.items():
            if not b.items[item].missile:
                out[self.weapon_id(slot)] = b.item_stats(item, slot)
        return out

    def weapon_id(self, hand: str) -> str:
        """The weapon identity of the item held in ``hand`` (spec §4.4, RULING R11: each held hand
        weapon is one weapon): its item id, or ``item@hand`` when the other hand holds the same item
        (two knives are two weapons)."""
        item = self.held[hand]
        other = {"right": "left", "left": "right"}.get(hand)
        if other is not None and self.held.get(other) == item:
            return f"{item}@{hand}"
        return item

    def melee_defense(self) -> int:
        return self.block.melee_defense(self.held)


@dataclass
class Turn:
    """What the deciding combatant has done in its current (or counter) turn."""

    actor: str
    counter: bool = False
    move_points: int = 0
    moved: bool = False
    actions: int = 0
    quick_only: bool = True
    weapons: Counter[str] = field(default_factory=Counter)
    straight_dir: int | None = None
    straight_hexes: int = 0
    charge_used: bool = False
    acted_while_healthy: bool = True
    choice: tuple[str, ...] = ()
    """a grapple outcome decision (spec §6.2): the options, and ``partner`` is the other member"""
    partner: str | None = None
    declared: bool = False
    """an attack was declared and a counter interrupted it (spec §6.1): the turn is past its first
    decision, so no counter and no delay any more (spec §4.8, §5.3 rows 2 and 37)"""


class ManoEncounter(MountedMixin, GunsMixin, EncounterBase):
    """The mutable state of one Mano a Mano fight (see the module docstring)."""

    system = "mano_a_mano"

    def __init__(self, fighters: list[Fighter], order: list[str], hexmap: HexMap, options: RuleOptions = FULL) -> None:
        self.options = options
        self._legal: list[Action] | None = None
        self._applying = False
        self._legal_next: list[Action] | None = None
        """the next decision's legal actions, when ``apply`` already listed them"""
        self._probed: list[Action] | None = None
        """the legal actions the latest ``_turn_exhausted`` listed"""
        self._delayed: str | None = None
        """a delayer whose turn waits for its new slot (spec §4.6)"""
        self._delays_used: frozenset[str] = frozenset()
        """who delayed this round (rulings.DELAY_ONCE_PER_ROUND)"""
        self._order_pending = False
        """initial stances are being chosen; the turn order comes after them (RULING R53)"""
        self.fighters = fighters
        self.by_id = {f.id: f for f in fighters}
        self.order = order
        self.map = hexmap
        self._round = 1
        self.turn_idx = -1
        self.stack: list[Turn] = []
        self._outcome: Outcome | None = None
        self.start_events: list[Event] = []
        self.grapples: dict[frozenset[str], dict[str, Any]] = {}
        """spec §5.7.1: {frozenset({x, y}): {"base": "standing" | "ground", "dominant": id or None}}"""
        self.floor: dict[Hex, list[str]] = {}
        """items lying on the map (disarmed, dropped)"""
        self._pending_follow_hex: Hex | None = None
        self._choice_was: dict[str, Any] | None = None
        self._sides = tuple(dict.fromkeys(f.side for f in fighters))
        self.mounts: dict[str, str] = {}
        """rider -> mount (spec §5.11, mounted.py)"""
        self.mount_spent: set[str] = set()
        self.floor_guns: dict[str, list[dict[str, Any]]] = {}
        """states of guns lying on the floor (guns.py, rulings.GUN_STATE_PER_ITEM)"""

    # ------------------------------------------------------------------ protocol basics
    def sides(self) -> tuple[SideInfo, ...]:
        return tuple(SideInfo(s, tuple(f.id for f in self.fighters if f.side == s)) for s in self._sides)

    def is_active(self, combatant: str) -> bool:
        return not self.by_id[combatant].incapacitated

    @property
    def full(self) -> bool:
        """FULL rules (spec §12.2): initial stances, weapons stowed when surprised, cover, delay."""
        return self.options.full

    @property
    def round_cap(self) -> int:
        return self.options.round_limit

    def current_actor(self) -> str | None:
        return None if self._outcome or not self.stack else self.stack[-1].actor

    def clone(self) -> ManoEncounter:
        """Independent copy for look-ahead: mutable parts copied, stat blocks and the map shared."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.fighters = []
        for f in self.fighters:
            g = copy.copy(f)
            g.held, g.stowed = dict(f.held), list(f.stowed)
            new.fighters.append(g)
        new.by_id = {f.id: f for f in new.fighters}
        new.order = list(self.order)
        new.stack = []
        for t in self.stack:
            u = copy.copy(t)
            u.weapons = Counter(t.weapons)
            new.stack.append(u)
        new.grapples = {k: dict(v) for k, v in self.grapples.items()}
        new.floor = {k: list(v) for k, v in self.floor.items()}
        new.start_events = list(self.start_events)
        new._choice_was = dict(self._choice_was) if self._choice_was else None
        new.mounts, new.mount_spent = dict(self.mounts), set(self.mount_spent)
        self._guns_clone(new)  # guns.py: shots left, clips out, reload actions done
        return new

    def harm(self) -> dict[str, float]:
        return {f.id: float(f.stun + f.damage) for f in self.fighters}

    def parse_action(self, label: str) -> Action:
        return parse_label(label)

    def occupied(self) -> set[Hex]:
        return {f.hex for f in self.fighters}

    # ------------------------------------------------------------------ grapples (spec §5.7.1)
    def grapple(self, a: str, b: str) -> dict[str, Any] | None:
        return self.grapples.get(frozenset((a, b)))

    def grappling(self, cid: str) -> bool:
        return any(cid in pair for pair in self.grapples)

    def dominant_over(self, a: str, b: str) -> bool:
        g = self.grapple(a, b)
        return g is not None and g["dominant"] == a

    def dominant_anywhere(self, cid: str) -> bool:
        return any(g["dominant"] == cid for pair, g in self.grapples.items() if cid in pair)

    def in_ground_grapple(self, cid: str) -> bool:
        return any(g["base"] == "ground" for pair, g in self.grapples.items() if cid in pair)

    def partners(self, cid: str) -> list[str]:
        return sorted(next(iter(pair - {cid})) for pair in self.grapples if cid in pair)

    def _release_all(self, cid: str) -> None:
        for pair in [p for p in self.grapples if cid in p]:
            del self.grapples[pair]

    def _attack_mod(self, a: Fighter, t: Fighter, kind: str) -> int:
        return R.attack_position_mod(self.grappling(a.id), self.dominant_over(a.id, t.id), not a.standing, kind)

    def _defense_mod(self, t: Fighter, a: Fighter, kind: str) -> int:
        return R.defense_position_mod(self.grappling(t.id), self.dominant_over(t.id, a.id),
                                      self.in_ground_grapple(t.id), not t.standing, kind)

    # ------------------------------------------------------------------ setup and turn flow
    def begin(self, dice: Dice, surprise_mode: str = "none") -> list[Event]:
        """Surprise (spec §3.3, RULING R30, R53), turn order (spec §3.5, RULING R10), first turn."""
        events: list[Event] = []
        first = None
        sides = list(self._sides)
        if surprise_mode in ("side_A", "side_B"):
            amb = surprise_mode[-1]
            first = amb if self._ambush(amb, dice, events) else None
        elif surprise_mode == "roll":
            got = [s for s in sides[:2] if self._ambush(s, dice, events)]
            first = got[0] if len(got) == 1 else None
        surprised = first is not None
        if surprised and self.full:  # RULING R27: the surprised side starts with weapons stowed
            for f in self.fighters:
                if f.side != first and f.held:
                    f.stowed += list(f.held.values())
                    f.held = {}
                    f.bow_drawn, f.aiming = False, None  # a stowed bow is not drawn (RULING R32)
                    events.append(Note(f.id, "is surprised: weapons stowed"))
        if self.full and not surprised:  # spec §3.4, §6.5, RULING R53: every character chooses an
            self._order_pending = True    # initial stance (in roster order), then the roll-off follows
            self.order = [f.id for f in self.fighters]  # until then
            self.stack = [Turn(f.id, choice=STANCES) for f in reversed(self.fighters)]
        else:
            self._settle_order(first, dice, events)
            self._next_turn(events)
        self.start_events = events
        return events

    def _settle_order(self, first: str | None, dice: Dice, events: list[Event]) -> None:
        """The turn order (spec §3.5, RULING R10, R53): the side with surprise first, else the side
        with the longest reach (optional ``reach_initiative``), else a roll-off; then sides alternate
        in roster order. Round 1 starts."""
        sides = list(self._sides)
        if first is None and self.options.reach_initiative:  # spec §3.5, RULING R10
            first = self._longest_reach(events)
        if first is None:
            first = self._roll_off(dice, events)
        start = sides.index(first)
        rotated = sides[start:] + sides[:start]
        members = {s: [f.id for f in self.fighters if f.side == s] for s in rotated}
        order: list[str] = []
        for k in range(max(len(m) for m in members.values())):
            order += [m[k] for m in members.values() if k < len(m)]
        self.order = order
        self._order_pending = False
        events.append(Note(order[0], f"acts first; turn order {' > '.join(order)}"))
        events.append(RoundStarted(self._round))

    def _ambush(self, side: str, dice: Dice, events: list[Event]) -> bool:
        ambushers = [f for f in self.fighters if f.side == side]
        targets = [f for f in self.fighters if f.side != side]
        roller = min(ambushers, key=lambda f: f.block.ability("stealth"))  # RULING R30
        mod = roller.block.ability("stealth") + roller.block.inept_penalty("stealth")  # spec §2.8: inept -4
        diff = 10 + max(f.block.ability("detection") for f in targets)
        die = dice.roll(20)[0]
        ok = R.success(die, mod, diff)
        events.append(Rolled(roller.id, "surprise", die, mod, diff, ok))
        return ok

    def _longest_reach(self, events: list[Event]) -> str | None:
        """The side whose member has the strictly greatest melee reach or missile range, in metres
        (reach weapons' range, RULING R7; held bows and guns), or ``None`` on a tie (spec §3.5)."""
        best: dict[str, int] = {}
        for f in self.fighters:
            reach = max((s.range_m or 0 for s in f.weapons().values()), default=0)
            missile = max((f.block.items[i].range_m or 0 for i in f.held.values() if f.block.items[i].missile),
                          default=0)
            best[f.side] = max(best.get(f.side, 0), reach, missile)
        top = max(best.values())
        leaders = [s for s in self._sides if best.get(s) == top]
        if len(leaders) != 1:
            return None
        events.append(Note(f"side {leaders[0]}", f"has the longest reach ({top} m) and goes first"))
        return leaders[0]

    def _roll_off(self, dice: Dice, events: list[Event]) -> str:
        contenders = list(self._sides)
        while True:  # RULING R53: tied sides re-roll in side order
            rolls = {s: dice.roll(20)[0] for s in contenders}
            for s, r in rolls.items():
                events.append(Note(f"side {s}", f"rolls d20={r} for the first turn"))
            top = max(rolls.values())
            contenders = [s for s in contenders if rolls[s] == top]
            if len(contenders) == 1:
                return contenders[0]

    def _may_delay(self, f: Fighter) -> bool:
        """rulings.DELAY_ONCE_PER_ROUND: once a round, and not while another delayed turn waits."""
        return self._delayed is None and f.id not in self._delays_used

    def _next_turn(self, events: list[Event], restart: str | None = None) -> None:
        """Advance to the next combatant who gets decisions (spec §4.8). ``restart``: a delayer, whose
        turn already started (its start-of-turn upkeep is not repeated when its new slot comes)."""
        self._delayed = restart if restart is not None else self._delayed
        while self._outcome is None:
            self.turn_idx += 1
            if self.turn_idx >= len(self.order):
                if self._round >= self.round_cap:  # spec §12.4: the round cap is a draw
                    self._end(None, "round_cap", events)
                    return
                self.turn_idx = 0
                self._round += 1
                self._delays_used = frozenset()
                events.append(RoundStarted(self._round))
            f = self.by_id[self.order[self.turn_idx]]
            events.append(TurnStarted(self._round, f.id))
            if self._delayed == f.id:  # a delayed turn resumes: its upkeep already happened
                self._delayed = None
                if not f.incapacitated:
                    self.stack = [Turn(f.id, move_points=self._move_points(f))]
                    return
                self._end_turn(f, active=False, events=events)
                continue
            f.defense_bonus = 0  # RULING R3: rest / cautious / instant stand bonuses end now (and evading, §3.4)
            f.covering = None  # spec §6.4: cover lasts until the coverer's next turn
            if f.counter_ready:  # RULING R35: a lapsed counter was a skipped turn; its recovery happens now
                f.counter_ready = False
                self._recover(f, events)
            if f.incapacitated:
                self._end_turn(f, active=False, events=events)
                continue
            if f.forced_skips > 0:
                f.forced_skips -= 1
                events.append(Note(f.id, "skips this turn (speed)"))
                self._end_turn(f, active=False, events=events)
                continue
            if self._mount_rests(f, events):  # rulings.RIDER_USES_MOUNT_MOVEMENT
                self._end_turn(f, active=False, events=events)
                continue
            self.stack = [Turn(f.id, move_points=self._move_points(f))]
            return

    def _move_points(self, f: Fighter) -> int:
        if f.id in self.mounts:  # rulings.RIDER_USES_MOUNT_MOVEMENT: the mount's points
            f = self.by_id[self.mounts[f.id]]
        run = f.block.running
        return math.ceil(run / 2) if f.encumbered else run  # RULING R26

    def _recover(self, f: Fighter, events: list[Event]) -> None:
        """Stun recovery (spec §4.7): ceil(stun/2) while incapacitated, else 1."""
        if f.stun <= 0:
            return
        before = f.health
        f.stun -= math.ceil(f.stun / 2) if f.incapacitated else 1
        events.append(Note(f.id, f"recovers stun (now {f.stun}, {f.health})"))
        if before.startswith("incapacitated") and not f.incapacitated:
            events.append(Note(f.id, "is no longer incapacitated"))

    def _end_turn(self, f: Fighter, active: bool, events: list[Event]) -> None:
        self._recover(f, events)
        if active and f.block.speed < 1:
            f.forced_skips = 1 if f.block.speed == Fraction(1, 2) else 3  # spec §4.1, §4.7

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal decision of the current actor; cached between ``apply`` calls (every change
        of state goes through ``apply``, which drops the cache)."""
        cached = self._legal
        if cached is not None:
            return cached
        legal = self._compute_legal()
        if not self._applying:
            self._legal = legal
        return legal

    def _compute_legal(self) -> list[Action]:
        if self._outcome is not None or not self.stack:
            return []
        t = self.stack[-1]
        f = self.by_id[t.actor]
        fid = f.id
        if t.choice:  # spec §6.2: only the outcome choice
            return [_act(fid, "choose", (c,), t.partner) for c in t.choice]
        can = self._can(f, t)
        acts: list[Action] = []
        grapples = self.grapples
        grappling = bool(grapples) and any(fid in pair for pair in grapples)
        if not t.counter and not t.moved and t.actions == 0 and not t.declared:
            acts.append(_act(fid, "counter"))
            if self.full and self._may_delay(f):  # spec §4.6, RULING R10: act right after a later character
                for later in self.order[self.turn_idx + 1:]:
                    if not self.by_id[later].incapacitated:
                        acts.append(_act(fid, "delay", (), later))
        occupied = {g.hex for g in self.fighters}
        steps = self._steps(f, t, grappling, occupied)
        if steps:
            moves = _MOVES.get(fid)
            if moves is None:
                moves = _MOVES[fid] = tuple(Action(fid, "move", (str(d),)) for d in range(6))
            acts += [moves[d] for d in steps]
        if not grappling:  # RULING R19: no drop / stand / instant stand / rest while grappling
            if can.quick_free:
                acts.append(_act(fid, "drop" if f.standing else "stand"))
            if not f.standing and can.strenuous:
                acts.append(_act(fid, "instant_stand"))
            if can.other:
                acts.append(_act(fid, "rest"))
        fhex, side = f.hex, f.side
        if self.full and can.other:  # spec §6.4, RULING R29
            for g in self.fighters:
                if g.side == side and g is not f and distance(fhex, g.hex) == 1:  # a helpless ally too
                    acts.append(_act(fid, "cover", (), g.id))
        foes = [(g, distance(fhex, g.hex)) for g in self.fighters if g.side != side]
        held = self._held_profile(f)
        nearest = min((d for _, d in foes if d >= 1), default=held.longest + 1)
        for weapon, stats, reach in (held.strikes if nearest <= held.longest else ()):
            targets = [g for g, d in foes if 1 <= d <= reach]
            if not targets:
                continue
            verbs = [verb for verb in STRIKE_VERBS if self._verb_ok(f, t, can, grappling, weapon, stats, verb)]
            for target in targets:
                for verb in verbs:
                    for avoid in self.armor_options(target):
                        acts.append(_act(fid, "strike", (verb, weapon, *avoid), target.id))
        if nearest == 1:
            acts += self._grapple_actions(f, t, can, foes, occupied)
        if f.held or f.stowed or self.floor:
            acts += self._missile_actions(f, t, can, foes, held)
        acts = self._mounted_legal(f, t, acts)  # spec §5.11: mount, dismount; no grappling riders
        if f.bow_drawn:  # RULING R32: a drawn bow allows only bow actions, movement, dropping items, end
            acts = [a for a in acts if a.kind in ("move", "aim", "shoot", "relax", "drop_item", "end")]
        if grappling:
            for partner in self.partners(fid):  # spec §5.3 row 35: a dominant member releases for free
                if self.dominant_over(fid, partner):
                    acts.append(_act(fid, "release", (), partner))
        acts.append(_act(fid, "end"))
        if not self.full:  # spec §12.1, §12.3: the CORE actions only, strikes without armor avoidance
            acts = [a for a in acts if a.kind in CORE_KINDS and (a.kind != "strike" or len(a.args) == 2)]
        return acts

    def _can(self, f: Fighter, t: Turn) -> _Can:
        """What the action categories allow ``f`` now (spec §4.3, §4.4): the first action of a turn
        may be anything (strenuous only healthy and unencumbered); further ones only quick, in a
        combo begun while healthy, still healthy (RULING R12: "other" actions stand alone)."""
        if t.actions == 0:
            quick, strenuous, other = True, f.healthy and not f.encumbered, True
        else:
            quick, strenuous, other = t.quick_only and t.acted_while_healthy and f.healthy, False, False
        return _Can(quick, strenuous, other, quick and self._capacity_ok(f, t, None, None))

    def _verb_ok(self, f: Fighter, t: Turn, can: _Can, grappling: bool, weapon: str, stats: Any, verb: str) -> bool:
        """May ``f`` strike with ``weapon`` this way now (spec §4.4, §5.4, RULING R19, R41)?"""
        if verb == "quick":
            return can.quick and self._capacity_ok(f, t, weapon, stats)
        if not can.strenuous or stats.unwieldy or not f.standing:
            return False
        return verb == "powerful" or not grappling  # RULING R19, R41

    @staticmethod
    def _held_profile(f: Fighter) -> _Held:
        """What ``f``'s held items allow (``_Held``), kept per stat block and held items."""
        b = f.block
        key = ("held_profile", tuple(sorted(f.held.items())))
        found = b._memo.get(key)
        if found is None:
            strikes = tuple((w, s, 1 + s.range_m // 2 if s.range_m else 1) for w, s in f.weapons().items())
            throws = []
            for hand, item in sorted(f.held.items()):
                it = b.items[item]
                if it.missile or it.kind == "armor":
                    continue
                stats = b.item_stats(item, hand)
                q = stats.quick_throw_range_m if stats.quick_throw_range_m is not None else max(
                    0, b.ability("throwing") + b.strength - it.heft)
                throws.append((hand, item, stats, q, it.throwable and not stats.unwieldy))
            free = () if "both" in f.held else tuple(h for h in ("right", "left") if h not in f.held)
            found = b._memo[key] = _Held(
                strikes, max((r for *_, r in strikes), default=0), tuple(throws), free,
                next(((h, i) for h, i in f.held.items() if b.items[i].kind == "bow"), None),
                any(b.items[i].missile for i in f.held.values()))
        return found

    # ------------------------------------------------------------------ missiles and items (spec §5.5, §5.6, §5.10)
    def _bow(self, f: Fighter) -> tuple[str, str] | None:
        """``(hand, item)`` of a held bow."""
        return next(((h, i) for h, i in f.held.items() if f.block.items[i].kind == "bow"), None)

    def _free_hands(self, f: Fighter) -> list[str]:
        if "both" in f.held:
            return []
        return [h for h in ("right", "left") if h not in f.held]

    def _missile_targets(self, f: Fighter, max_range_m: int) -> list[Fighter]:
        return [g for g in self.fighters if g.side != f.side and rulings.range_m(distance(f.hex, g.hex)) <= max_range_m]

    def _missile_actions(self, f: Fighter, t: Turn, can: _Can, foes: list[tuple[Fighter, int]],
                         held: _Held) -> list[Action]:
        """Bow actions, throws and heaves, drops, readying and picking up, and the gun's actions
        (spec §5.3, §5.5, §5.6, §5.10); ``foes``: ``(enemy, distance)``."""
        out: list[Action] = []
        fid = f.id
        healthy_ok = can.strenuous
        bow = held.bow
        if bow is not None:
            hand, item = bow
            it = f.block.items[item]
            can_draw = it.heft < 2 * f.block.strength and len(held.free) >= 1
            stats = f.block.item_stats(item, hand)
            quick_ok = can.quick and self._capacity_ok(f, t, item, stats)  # unwieldy: one use (spec §4.4)
            strenuous_ok = healthy_ok and not stats.unwieldy  # RULING R56: only heave is strenuous-and-unwieldy
            if not f.bow_drawn:
                if quick_ok and can_draw:
                    out.append(_act(fid, "draw"))
                if strenuous_ok and can_draw:
                    out += [_act(fid, "shoot", ("draw_and_fire",), g.id) for g in self._missile_targets(f, it.range_m)]
            else:
                grappling = self.grappling(fid)
                if quick_ok and not grappling and f.aiming != item:
                    out.append(_act(fid, "aim"))
                if quick_ok:
                    out.append(_act(fid, "relax"))
                out += self._shots(f, item, it.range_m, quick_ok, strenuous_ok and f.standing and not grappling)
        near_m = rulings.range_m(min((d for _, d in foes), default=0)) if held.throws else 0
        for hand, _item, stats, q, throwable in held.throws:
            quick_ok = can.quick and self._capacity_ok(f, t, f.weapon_id(hand), stats)
            for g, d in (foes if near_m <= 2 * q else ()):  # nobody in throwing range: only the drop
                d_m = rulings.range_m(d)
                for avoid in self.armor_options(g):
                    if throwable:
                        if quick_ok and d_m <= q:
                            out.append(_act(fid, "throw", ("quick", hand, *avoid), g.id))
                        if healthy_ok and f.standing and d_m <= 2 * q:
                            out.append(_act(fid, "throw", ("powerful", hand, *avoid), g.id))
                    if healthy_ok and d_m <= q:  # RULING R56: heave throws any liftable object
                        out.append(_act(fid, "throw", ("heave", hand, *avoid), g.id))
            out.append(_act(fid, "drop_item", (hand,)))  # spec §5.3 row 34: free
        free = held.free
        if free and can.quick_free:
            for item in sorted(set(f.stowed)):
                need = 2 if f.block.items[item].two_handed else 1
                if len(free) >= need:
                    out.append(_act(fid, "ready", (item,)))
            floor, fhex = self.floor, f.hex
            if any(items and distance(h, fhex) <= 1 for h, items in floor.items()):
                for h in [fhex, *(g for g in neighbors_of(fhex))]:
                    for item in (self.floor_choices(h) if floor.get(h) else ()):
                        if (len(free) >= (2 if f.block.items[item].two_handed else 1)  # as for ready (§5.10)
                                and f.may_carry(item)):  # never above 2 x CC (spec §2.7)
                            out.append(_act(fid, "pick_up", (item, f"{h[0]},{h[1]}")))
        if held.missile:
            out += self._gun_actions(f, t)  # guns.py: drops, aim, shots, load, unload (spec §5.6)
        return out

    def floor_choices(self, h: Hex) -> list[str]:
        """The items in hex ``h`` a fighter can pick up: the distinct items on top of the pile,
        most recent first (rulings.PICK_UP_CHOICES)."""
        out: list[str] = []
        for item in reversed(self.floor.get(h, ())):
            if item not in out:
                out.append(item)
                if len(out) == rulings.PICK_UP_CHOICES:
                    break
        return out

    def _shots(self, f: Fighter, item: str, range_m: int, quick_ok: bool, strenuous_ok: bool) -> list[Action]:
        """The shots of a ready bow or gun at every enemy in range (spec §5.3 rows 12-14, §5.6):
        quick, then strategic (not while aiming, RULING R31) and cautious, per armor option."""
        out: list[Action] = []
        for g in self._missile_targets(f, range_m):
            for avoid in self.armor_options(g):
                if quick_ok:
                    out.append(Action(f.id, "shoot", ("quick", *avoid), g.id))
                if strenuous_ok:
                    if f.aiming != item:
                        out.append(Action(f.id, "shoot", ("strategic", *avoid), g.id))
                    out.append(Action(f.id, "shoot", ("cautious", *avoid), g.id))
        return out

    AVOID = ("avoid_next", "avoid_all")

    def armor_options(self, target: Fighter) -> list[tuple[str, ...]]:
        """Armor-avoidance choices (spec §2.6, §12.3): none, down to the next lower absorption level,
        and every avoidable region, each only where the target's regions give it a distinct level."""
        memo = target.block._memo
        found = memo.get("armor_options")
        if found is None:
            levels = R.avoidance_levels(target.block.regions)
            found = memo["armor_options"] = [()] + [(name,) for name in self.AVOID[: len(levels) - 1]]
        return found

    def avoidance(self, target: Fighter, option: str | None) -> tuple[int, int]:
        """``(difficulty added, absorption left)`` of an avoidance option (spec §2.6, RULING R55)."""
        memo = target.block._memo
        found = memo.get(("avoidance", option))
        if found is None:
            regions = target.block.regions
            if option is None:
                found = (0, R.best_absorption(regions))
            else:
                levels = R.avoidance_levels(regions)
                level = levels[1] if option == "avoid_next" else levels[-1]
                found = (R.avoid_cost(regions, level), R.absorb_after(regions, level))
            memo[("avoidance", option)] = found
        return found

    def grapple_weapon(self, f: Fighter) -> str:
        """Grappling counts as the weapon "grapple", or as the single natural weapon (RULING R11)."""
        nat = f.block.natural_weapons
        return "grapple" if len(nat) >= 2 else nat[0].name

    def _grapple_actions(self, f: Fighter, t: Turn, can: _Can, foes: list[tuple[Fighter, int]],
                         occupied: set[Hex]) -> list[Action]:
        """Grappling actions of spec §5.3 rows 19-26 (RULING R19: same base state to start one)."""
        out: list[Action] = []
        fid = f.id
        weapon = self.grapple_weapon(f)
        quick_ok = can.quick and self._capacity_ok(f, t, weapon, None)
        strenuous_ok = can.strenuous
        hexmap = self.map
        for g, d in foes:
            if d != 1:
                continue
            if f.standing != g.standing and self.grapple(fid, g.id) is None:
                continue
            gid = g.id
            if quick_ok:
                out.append(_act(fid, "grapple", ("hold",), gid))
                for d in range(6):  # RULING R43: the target moves 1 hex to a free hex
                    dest = neighbor(g.hex, d)
                    into_wall = self.full and dest in hexmap and hexmap.at(dest).wall  # spec §5.7.3, §5.7.4
                    if into_wall or (hexmap.passable(dest) and dest not in occupied):
                        out.append(_act(fid, "grapple", ("push", str(d)), gid))
            if strenuous_ok:
                if g.standing:
                    out.append(_act(fid, "grapple", ("trip",), gid))
                out.append(_act(fid, "grapple", ("slam",), gid))
                if f.standing:
                    out.append(_act(fid, "grapple", ("slam_onto",), gid))
                for avoid in self.armor_options(g):  # spec §5.7.3: wrench and choke may avoid armor
                    out.append(_act(fid, "grapple", ("wrench", *avoid), gid))
                    out.append(_act(fid, "grapple", ("choke", *avoid), gid))
                for hand in sorted(g.held):
                    out.append(_act(fid, "grapple", ("disarm", hand), gid))
        return out

    def _steps(self, f: Fighter, t: Turn, grappling: bool, occupied: set[Hex]) -> list[int]:
        """The directions ``f`` may walk one hex now (spec §4.5): movement points left (2 a hex on
        the ground), not grappling, a mount that may carry it, a passable and free destination."""
        if grappling or t.move_points < (1 if f.standing else 2) or not self._carrier_ok(f, t):
            return []
        return [d for d, dest in self.map.open_steps(f.hex) if dest not in occupied]

    def _may_act(self, f: Fighter, t: Turn, quick: bool, other: bool = False) -> bool:
        """One flag of ``_can``: an "other", a quick or a strenuous action."""
        can = self._can(f, t)
        return can.other if other else (can.quick if quick else can.strenuous)

    def _capacity_ok(self, f: Fighter, t: Turn, weapon: str | None, stats: Any) -> bool:
        """Combo capacity and per-weapon limits (spec §4.4, RULING R11); ``weapon=None`` for quick
        actions that use no weapon (stand, drop)."""
        memo = f.block._memo
        limits = memo.get("combo")
        if limits is None:
            speed = f.block.speed
            limits = memo["combo"] = (math.ceil(speed), max(1, math.floor(speed)))
        cap, per_speed = limits
        n = t.actions
        if n + 1 > cap:
            used = set(t.weapons)
            if weapon:
                used.add(weapon)
            if not (n + 1 == cap + 1 and len(used) >= 2):
                return False
        if weapon is None:
            return True
        per_weapon = 1 if stats is not None and stats.unwieldy else per_speed
        return t.weapons[weapon] < per_weapon

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action, dice: Dice) -> list[Event]:
        if self._outcome is not None:
            raise IllegalActionError("the fight is over")
        legal = self.legal_actions()
        for a in legal:  # the env passes the very values legal_actions gave (shared by _act)
            if a is action:
                break
        else:
            if action not in legal:
                shown = ", ".join(a.label for a in legal[:8])
                raise IllegalActionError(f"round {self._round}: {action.label!r} is not legal now; legal: {shown} ...")
        self._legal, self._applying, self._legal_next = None, True, None
        try:
            return self._apply(action, dice)
        finally:
            self._legal, self._applying, self._legal_next = self._legal_next, False, None

    def _apply(self, action: Action, dice: Dice) -> list[Event]:
        t = self.stack[-1]
        f = self.by_id[t.actor]
        events: list[Event] = [ActionTaken(action.label)]
        kind = action.kind
        if kind == "counter":
            f.counter_ready = True
            events.append(Note(f.id, "prepares a counterattack"))
            self.stack.pop()
            self._after_turn(events)
        elif kind == "move":
            self._move(f, t, int(action.args[0]), events)
        elif kind == "end":
            self._finish_turn(f, t, events)
        elif kind == "choose":
            self._choose(f, t, action.args[0], events)
            if self._order_pending and not self.stack:  # the last initial stance: now the turn order (R53)
                self._settle_order(None, dice, events)
                self._next_turn(events)
            self._mounted_after(f, action, dice, events)  # a mount that went down throws its rider
            self._resume(events)
            return events
        elif kind == "delay":
            self.stack.pop()
            self.order.remove(f.id)
            self.order.insert(self.order.index(action.target) + 1, f.id)
            self._delays_used = self._delays_used | {f.id}
            self.turn_idx -= 1  # the next slot is now the character that came after this one
            events.append(Note(f.id, f"delays to act after {action.target}; order {' > '.join(self.order)}"))
            self._next_turn(events, restart=f.id)
            return events
        elif kind == "release":
            self._release(f.id, action.target, events)
        elif kind == "cover":
            self._count_action(f, t, quick=False, weapon=None)
            f.covering = action.target
            events.append(Note(f.id, f"covers {action.target} until its next turn"))
        elif kind in ("load", "unload") or (kind == "aim" and not f.bow_drawn):  # guns.py (spec §5.6)
            self._gun_action(f, t, action, events)
        elif kind in ("draw", "aim", "relax", "ready", "pick_up", "drop_item"):
            self._item_action(f, t, action, events)
        elif kind in ("strike", "grapple", "throw", "shoot"):
            target = self.by_id[action.target]
            if target.counter_ready:
                target.counter_ready = False  # spec §6.1, RULING R13: fires once, before the strike resolves
                events.append(Note(target.id, f"counterattacks before {f.id}'s strike"))
                t.declared = True
                self.stack.append(Turn(target.id, counter=True, move_points=self._move_points(target)))
                return events
            if kind == "strike":
                avoid = action.args[2] if len(action.args) > 2 else None
                self._strike(f, t, action.args[0], action.args[1], target, dice, events, avoid)
            elif kind in ("throw", "shoot"):
                self._missile(f, t, action, target, dice, events)
            else:
                self._grapple_action(f, t, action.args, target, dice, events)
        elif kind in ("mount", "dismount"):
            self._mount_action(f, t, action, events)
        else:
            self._simple(f, t, kind, events)
        self._mounted_after(f, action, dice, events)  # spec §5.11, §6.3: stay mounted or fall
        if self._outcome is None and self.stack and self.stack[-1] is t:
            if self._turn_exhausted(f, t):
                self._finish_turn(f, t, events)
            else:  # the state is final: the list the check computed (if it did) is the next decision's
                self._legal_next = self._probed
        return events

    def _resume(self, events: list[Event]) -> None:
        """After a choice: finish the acting turn if nothing but END is left."""
        while self._outcome is None and self.stack and self.stack[-1].choice and self.by_id[self.stack[-1].actor].incapacitated:
            self.stack.pop()  # an incapacitated chooser lets go (RULING R23)
        if self._outcome is None and self.stack:
            t = self.stack[-1]
            f = self.by_id[t.actor]
            if not t.choice and (f.incapacitated or self._turn_exhausted(f, t)):
                self._finish_turn(f, t, events)

    def _turn_exhausted(self, f: Fighter, t: Turn) -> bool:
        """Nothing but END left: end the turn without asking. When it had to list the legal actions
        to know, the list is left in ``_probed`` (else ``None``)."""
        self._probed = None
        if not t.choice and not f.incapacitated:  # cheap sure answers first (same rules as _compute_legal)
            if not f.bow_drawn and not t.counter and not t.moved and t.actions == 0 and not t.declared:
                return False  # prepare counter is legal
            if self._steps(f, t, self.grappling(f.id), {g.hex for g in self.fighters}):
                return False  # a move is legal (moves survive the drawn-bow filter, RULING R32)
        legal = self._probed = self.legal_actions()
        return all(a.kind == "end" for a in legal)

    def _move(self, f: Fighter, t: Turn, d: int, events: list[Event]) -> None:
        t.move_points -= 1 if f.standing else 2
        t.moved = True
        (q, r), (dq, dr) = f.hex, DIRECTIONS[d]
        f.hex = (q + dq, r + dr)
        self._carry(f)  # spec §5.11: rider and mount move together
        if t.straight_dir == d:
            t.straight_hexes += 1
        else:
            t.straight_dir, t.straight_hexes = d, 1
        events.append(Note(f.id, f"moves ({q}, {r}) -> ({q + dq}, {r + dr})"))

    def _simple(self, f: Fighter, t: Turn, kind: str, events: list[Event]) -> None:
        quick = kind in ("drop", "stand")
        self._count_action(f, t, quick=quick, weapon=None)
        if kind == "drop":
            f.standing = False
            events.append(Note(f.id, "drops to the ground"))
        elif kind == "stand":
            f.standing = True
            events.append(Note(f.id, "stands up"))
        elif kind == "instant_stand":
            f.standing = True
            f.defense_bonus = 5
            events.append(Note(f.id, "stands up at once (+5 defense until its next turn)"))
        elif kind == "rest":  # spec §5.8, RULING R2/R3/R12
            if f.stun == 0 and "sudden_regeneration" in f.block.qualities:  # spec §2.8, RULING R44
                healed = math.ceil(f.damage / 2)
                f.damage -= healed
                events.append(Note(f.id, f"regenerates {healed} damage"))
            f.stun = 0
            f.defense_bonus = 5
            events.append(Note(f.id, "rests: stun 0, +5 defense until its next turn"))

    @staticmethod
    def _charge(t: Turn) -> int:
        """The straight hexes run right before this striking or grappling attack that earn a charge
        bonus (spec §4.5, RULING R28: more than 5 m, once a turn); 0 when none. Call it before
        ``_count_action``, which ends the run."""
        if t.charge_used or rulings.HEX_METERS * t.straight_hexes <= 5:
            return 0
        t.charge_used = True
        return t.straight_hexes

    def _count_action(self, f: Fighter, t: Turn, quick: bool, weapon: str | None) -> None:
        t.actions += 1
        t.quick_only = t.quick_only and quick
        t.acted_while_healthy = f.healthy
        if weapon is not None:
            t.weapons[weapon] += 1
        t.straight_dir, t.straight_hexes = None, 0

    def _strike(self, f: Fighter, t: Turn, verb: str, weapon: str, target: Fighter, dice: Dice,
                events: list[Event], avoid: str | None = None) -> None:
        stats = f.weapons()[weapon]
        charge = self._charge(t)
        self._count_action(f, t, quick=verb == "quick", weapon=weapon)
        mod = stats.attack + (5 if verb == "strategic" else 0)
        mod += self._attack_mod(f, target, "striking")
        mod += self._favorable(f, target)
        cost, absorption = self.avoidance(target, avoid)
        coverer, cover_diff = self._coverer(target, f, "striking")
        if coverer is not None:
            diff = cover_diff + cost
        else:
            diff = target.melee_defense() + self._defense_mod(target, f, "striking") + target.defense_bonus + cost
        diff += self._darkness(f, "striking")
        die = dice.roll(20)[0]
        hit = R.success(die, mod, diff)
        events.append(Rolled(f.id, f"{verb} strike ({weapon}) on {target.id}", die, mod, diff, hit))
        if verb == "cautious":  # RULING R3: the bonus is gained hit or miss
            f.defense_bonus = 5
        power = R.attack_power(stats.power, double=verb == "powerful", die=die, charge_hexes=charge,
                               random_damage=self.options.random_damage, critical_hits=self.options.critical_hits)
        if hit:
            self._harm(target, power, stats.sharpness, absorption, events)
        elif coverer is not None:  # spec §6.4: a failed covered attack hits the coverer, no avoidance
            events.append(Note(coverer.id, f"takes the blow meant for {target.id}"))
            self._harm(coverer, power, stats.sharpness, coverer.block.best_absorption, events)

    def _favorable(self, attacker: Fighter, target: Fighter) -> int:
        """The largest favorable circumstance of an attack (spec §5.1, RULING R40): very favorable
        (+4) against the helpless (RULING R23); favorable (+2) from the target's three rear hex
        sides with the optional ``rear_attack_favorable`` (spec §3.2, RULING R9)."""
        found = [4] if target.incapacitated else []
        if self.options.rear_attack_favorable and self.from_behind(attacker, target):
            found.append(2)
        return R.circumstance(found)

    def facing_of(self, f: Fighter) -> int | None:
        """Cosmetic facing (spec §3.2, RULING R9): toward the nearest enemy still in the fight (the
        first in roster order among equals); ``None`` with no enemy or one in the same hex."""
        enemies = [g for g in self.fighters if g.side != f.side and not g.incapacitated]
        if not enemies:
            return None
        nearest = min(enemies, key=lambda g: distance(f.hex, g.hex))
        return None if nearest.hex == f.hex else facing(f.hex, nearest.hex)

    def from_behind(self, attacker: Fighter, target: Fighter) -> bool:
        """Does ``attacker`` stand off one of the three rear hex sides of ``target``'s facing?"""
        face = self.facing_of(target)
        if face is None or attacker.hex == target.hex:
            return False
        return (direction_to(target.hex, attacker.hex) - face) % 6 in (2, 3, 4)

    def _darkness(self, attacker: Fighter, kind: str) -> int:
        """spec §5.1 darkness, added separately (RULING R40); blind attackers ignore it."""
        return R.darkness(self.options.darkness, kind, blind="blind" in attacker.block.qualities)

    def _coverer(self, target: Fighter, attacker: Fighter, kind: str) -> tuple[Fighter | None, int]:
        """The best coverer of ``target`` and its difficulty (spec §6.4, RULING R29), or ``(None, 0)``."""
        best, best_diff = None, 0
        for g in self.fighters:
            if g.covering != target.id or g.incapacitated or distance(g.hex, target.hex) != 1:
                continue
            defense = g.melee_defense() if kind == "striking" else g.block.missile_defense
            diff = defense + self._defense_mod(g, attacker, kind) + g.defense_bonus + 5
            if best is None or diff > best_diff:
                best, best_diff = g, diff
        return best, best_diff

    def _missile(self, f: Fighter, t: Turn, action: Action, target: Fighter, dice: Dice, events: list[Event]) -> None:
        """Thrown attacks and shots (spec §5.5, §5.6)."""
        verb = action.args[0]
        d_m = rulings.range_m(distance(f.hex, target.hex))
        if action.kind == "throw":
            hand = action.args[1]
            avoid = action.args[2] if len(action.args) > 2 else None
            item = f.held[hand]
            it = f.block.items[item]
            stats = f.block.item_stats(item, hand)
            q = max(0, f.block.ability("throwing") + f.block.strength - it.heft)  # RULING R8
            max_range = 2 * q if verb == "powerful" else q
            mod = f.block.ability("throwing") + f.block.agility - (5 if verb == "heave" else 0)
            power_base, sharpness, double, weapon = stats.power, it.sharpness, verb != "quick", f.weapon_id(hand)
            del f.held[hand]
            self.floor.setdefault(target.hex, []).append(item)  # RULING R33: it lands in the target's hex
            quick = verb == "quick"
        else:
            avoid = action.args[1] if len(action.args) > 1 else None
            _, item = self._shooter(f)  # the drawn bow, else the gun (rulings.SHOT_WEAPON)
            it = f.block.items[item]
            stats = f.block.item_stats(item)
            max_range, mod = it.range_m, stats.attack + (5 if verb == "strategic" else 0)
            power_base, sharpness, double, weapon = it.power, it.sharpness, False, item
            quick = verb == "quick"
            if it.kind == "gun":
                self._spend_shot(f, item)  # spec §5.6: a shot uses one of s
            else:
                f.bow_drawn = False  # a shot un-draws the bow
        if f.aiming == item:  # spec §5.6: +5 to the next attack with the aimed weapon, which ends
            mod += 5          # the aim; an attack with another weapon keeps it (RULING R31)
            f.aiming = None
        self._count_action(f, t, quick=quick, weapon=weapon)
        mod += self._attack_mod(f, target, "missile")
        mod += self._favorable(f, target)
        cost, absorption = self.avoidance(target, avoid)
        coverer, cover_diff = self._coverer(target, f, "missile")
        if coverer is not None:
            diff = cover_diff + cost
        else:
            diff = target.block.missile_defense + self._defense_mod(target, f, "missile") + target.defense_bonus + cost
        diff += R.distance_penalty(d_m, max_range) + self._darkness(f, "missile")
        die = dice.roll(20)[0]
        hit = R.success(die, mod, diff)
        events.append(Rolled(f.id, f"{verb} {action.kind} ({weapon}) on {target.id}", die, mod, diff, hit))
        if verb == "cautious":
            f.defense_bonus = 5
        power = R.attack_power(power_base, double=double, die=die, kind="missile",
                               random_damage=self.options.random_damage, critical_hits=self.options.critical_hits)
        if hit:
            self._harm(target, power, sharpness, absorption, events)
        elif coverer is not None:
            events.append(Note(coverer.id, f"takes the shot meant for {target.id}"))
            self._harm(coverer, power, sharpness, coverer.block.best_absorption, events)

    def _item_action(self, f: Fighter, t: Turn, action: Action, events: list[Event]) -> None:
        kind = action.kind
        if kind == "drop_item":  # free: no combo slot, no weapon use
            item = f.held.pop(action.args[0])
            self.floor.setdefault(f.hex, []).append(item)
            self._gun_to_floor(f, item, f.hex)  # rulings.GUN_STATE_PER_ITEM
            if self.block_items(f, item).kind == "bow":
                f.bow_drawn = False
            if f.aiming == item:
                f.aiming = None  # RULING R31: the bow leaves the hands undrawn, as when relaxed
            events.append(Note(f.id, f"drops {item}"))
            return
        bow = self._bow(f)
        if kind in ("draw", "aim", "relax"):
            self._count_action(f, t, quick=True, weapon=bow[1])
            if kind == "draw":
                f.bow_drawn = True
                events.append(Note(f.id, f"draws {bow[1]}"))
            elif kind == "aim":
                f.aiming = bow[1]
                events.append(Note(f.id, f"aims {bow[1]}"))
            else:
                f.bow_drawn = False
                f.aiming = None
                events.append(Note(f.id, f"relaxes {bow[1]}"))
            return
        self._count_action(f, t, quick=True, weapon=None)
        item = action.args[0]
        need = 2 if self.block_items(f, item).two_handed else 1
        hands = self._free_hands(f)
        slot = "both" if need == 2 else hands[0]
        if kind == "ready":
            f.stowed.remove(item)
        else:
            q, r = (int(x) for x in action.args[1].split(","))
            self.floor[(q, r)].remove(item)
            self._gun_from_floor(f, item, (q, r))  # rulings.GUN_STATE_PER_ITEM
        f.held[slot] = item
        events.append(Note(f.id, f"{'readies' if kind == 'ready' else 'picks up'} {item}"))

    @staticmethod
    def block_items(f: Fighter, item: str) -> Any:
        return f.block.items[item]

    # ------------------------------------------------------------------ grappling (spec §5.7, §6.2)
    STRENUOUS_GRAPPLES = frozenset({"trip", "slam", "slam_onto", "wrench", "choke", "disarm"})
    DAMAGING_GRAPPLES = frozenset({"push", "trip", "slam", "slam_onto", "wrench", "choke"})
    """grappling actions with power (spec §5.7.3; push and trip through the fall they cause): they take
    a charge bonus and the optional power rules (spec §8.1, RULING R28, R37)"""

    def _grapple_action(self, f: Fighter, t: Turn, args: tuple[str, ...], target: Fighter, dice: Dice,
                        events: list[Event]) -> None:
        verb = args[0]
        self._pending_follow_hex = None
        charge = self._charge(t) if verb in self.DAMAGING_GRAPPLES else 0
        self._count_action(f, t, quick=verb not in self.STRENUOUS_GRAPPLES, weapon=self.grapple_weapon(f))
        mod = f.block.grapple_roll_modifier + self._attack_mod(f, target, "grappling")
        mod += self._favorable(f, target)
        avoid = args[1] if verb in ("wrench", "choke") and len(args) > 1 else None
        cost, absorption = self.avoidance(target, avoid)
        diff = target.block.grapple_defense + self._defense_mod(target, f, "grappling") + target.defense_bonus + cost
        if verb == "disarm":
            diff += 5  # RULING R5
        diff += self._darkness(f, "grappling")
        die = dice.roll(20)[0]
        ok = R.success(die, mod, diff)
        events.append(Rolled(f.id, f"{verb} on {target.id}", die, mod, diff, ok))
        before = self.grapple(f.id, target.id)
        if not ok:  # spec §6.2, RULING R18: the defender keeps (neutral) or releases
            if not target.incapacitated:  # the helpless hold nothing (RULING R23)
                self._ask(target.id, ("keep", "release"), f.id, events, was=before)
            return
        G = f.block.grapple_power
        if verb in self.DAMAGING_GRAPPLES:  # spec §8.1: G or 2G, optional rules, charge (RULING R28, R37)
            power = R.attack_power(G, double=verb in ("trip", "slam_onto", "wrench", "choke"), die=die,
                                   kind="grappling", charge_hexes=charge,
                                   random_damage=self.options.random_damage, critical_hits=self.options.critical_hits)
        fell = False
        if verb == "push":
            d = int(args[1])
            dest = neighbor(target.hex, d)
            if self.map.at(dest).wall:  # spec §5.7.4: pushed into a wall counts as a fall, in place
                events.append(Note(target.id, f"is pushed into the wall at {dest}"))
                fell = self._fall(target, power, events)
            else:
                vacated = target.hex
                drop_m = max(0.0, self.map.at(vacated).height_m - self.map.at(dest).height_m)
                target.hex = dest
                events.append(Note(target.id, f"is pushed {vacated} -> {target.hex}"))
                self._pending_follow_hex = vacated
                self._break_stretched(events, keep=frozenset((f.id, target.id)))
                if drop_m >= rulings.LEDGE_FALL_M:  # over an edge: a fall whatever the balance
                    events.append(Note(target.id, f"goes over a {drop_m:g} m drop"))
                    fell = self._fall(target, power + int(drop_m), events)
                elif target.standing:  # RULING R57: a fall from a height adds 1 power per metre
                    fell = not self._balance(target, dice, events) and self._fall(target, power + int(drop_m), events)
        elif verb == "trip":
            fell = not self._balance(target, dice, events) and self._fall(target, power, events)
        elif verb in ("slam", "slam_onto"):
            if self._balance(target, dice, events, purpose="breakfall"):
                power = max(0, power - G)  # RULING R15
            target.standing = False
            fell = True
            if power > 0:
                self._fall_harm(target, power, events)
            else:
                events.append(Note(target.id, "breaks the fall and takes nothing"))
            if verb == "slam_onto":
                f.standing = False
        elif verb == "wrench":
            self._harm(target, power, "blunt", absorption, events)
        elif verb == "choke":
            was = target.incapacitated
            damage, stun = R.harm(power, "blunt", absorption, choke=True)
            target.stun += stun
            if stun > 0:
                target.aiming = None  # spec §8.2, RULING R31: lost on any damage or stun
            events.append(Harmed(target.id, power, absorption, 0, stun, target.health))
            if not was:  # out of the fight once (as _harm)
                self._after_harm(target, events)
        elif verb == "disarm":  # RULING R17
            item = target.held.pop(args[1])
            if f.block.items[item].kind == "bow":  # the drawn bow and its aim go with it (RULING R31, R32)
                target.bow_drawn = False
            if target.aiming == item:
                target.aiming = None
            free = [h for h in ("right", "left") if h not in f.held and "both" not in f.held]
            two = f.block.items[item].two_handed
            if len(free) >= (2 if two else 1) and f.may_carry(item):  # into the free hand(s), as for pick up
                f.held["both" if two else free[0]] = item
                self._gun_handed_over(target, f, item)  # rulings.GUN_STATE_PER_ITEM
                events.append(Note(f.id, f"takes {target.id}'s {item}"))
            else:
                self.floor.setdefault(target.hex, []).append(item)
                self._gun_to_floor(target, item, target.hex)
                events.append(Note(target.id, f"drops {item}"))
        if self._outcome is not None or target.incapacitated or f.incapacitated:
            return
        if fell and f.standing:  # spec §6.2: the target went down, the actor still stands
            self._ask(f.id, ("follow_to_ground", "let_go"), target.id, events, was=before)
        else:
            self._ask(f.id, ("hold_dominant", "release"), target.id, events, was=before)

    def _ask(self, who: str, options: tuple[str, ...], partner: str, events: list[Event], was: Any) -> None:
        self._choice_was = dict(was) if was else None
        self.stack.append(Turn(who, choice=options, partner=partner))
        events.append(Note(who, f"chooses: {' or '.join(options)}"))

    def _choose(self, f: Fighter, t: Turn, option: str, events: list[Event]) -> None:
        """Apply a spec §6.2 outcome choice or a spec §3.4 initial stance."""
        self.stack.pop()
        if option in STANCES:
            if option == "stance_evade":
                f.defense_bonus = 4
                events.append(Note(f.id, "starts evading (+4 defense until its first turn)"))
            elif option == "stance_counter":  # RULING R47: a counter prepared on a "turn 0"
                f.counter_ready = True
                events.append(Note(f.id, "starts ready to counter"))
            if not self.stack and not self._order_pending:
                self._next_turn(events)
            return
        other = self.by_id[t.partner]
        pair = frozenset((f.id, other.id))
        base = "ground" if not f.standing and not other.standing else "standing"
        follow_hex = getattr(self, "_pending_follow_hex", None)
        self._pending_follow_hex = None
        if option in ("release", "let_go"):
            self.grapples.pop(pair, None)
            events.append(Note(f.id, f"releases {other.id}"))
        elif option == "hold_dominant":
            self.grapples[pair] = {"base": base, "dominant": f.id}
            events.append(Note(f.id, f"holds {other.id}, dominant ({base})"))
        elif option == "follow_to_ground":
            f.standing = False
            self.grapples[pair] = {"base": "ground", "dominant": f.id}
            events.append(Note(f.id, f"follows {other.id} to the ground, dominant"))
        elif option == "keep":  # RULING R18
            was = self._choice_was
            dominant = f.id if was and was["dominant"] == f.id else None
            self.grapples[pair] = {"base": base, "dominant": dominant}
            events.append(Note(f.id, f"keeps the grapple with {other.id} ({'dominant' if dominant else 'neutral'})"))
        if option in ("hold_dominant", "follow_to_ground") and follow_hex is not None and follow_hex not in self.occupied():
            f.hex = follow_hex  # RULING R43: the pair moves together
            events.append(Note(f.id, f"moves into {follow_hex}"))
        self._break_stretched(events)

    def _break_stretched(self, events: list[Event], keep: frozenset[str] = frozenset()) -> None:
        """Grapples whose members a push left apart end (rulings.GRAPPLES_NEED_ADJACENCY)."""
        for pair in list(self.grapples):
            if pair == keep:
                continue
            a, b = (self.by_id[c] for c in sorted(pair))
            if distance(a.hex, b.hex) != 1:
                del self.grapples[pair]
                events.append(Note(a.id, f"loses the grapple with {b.id}: they are no longer adjacent"))

    def _release(self, a: str, b: str, events: list[Event]) -> None:
        self.grapples.pop(frozenset((a, b)), None)
        events.append(Note(a, f"releases {b}"))

    def _balance(self, target: Fighter, dice: Dice, events: list[Event], purpose: str = "balance") -> bool:
        """Balance or breakfall roll: d20 + max(grappling, acrobatics) > 8 (spec §5.7.2, RULING R49, R52)."""
        die = dice.roll(20)[0]
        mod = target.block.balance_roll_modifier
        ok = R.success(die, mod, 8)
        events.append(Rolled(target.id, purpose, die, mod, 8, ok))
        return ok

    def _fall(self, target: Fighter, power: int, events: list[Event]) -> bool:
        target.standing = False
        events.append(Note(target.id, "falls to the ground"))
        self._fall_harm(target, power, events)
        return True

    def _fall_harm(self, target: Fighter, power: int, events: list[Event]) -> None:
        """A fall: blunt, best absorption, at least 2 stun (spec §5.7.4, RULING R14)."""
        was = target.incapacitated
        damage, stun = R.harm(power, "blunt", target.block.best_absorption, fall=True)
        target.damage += damage
        target.stun += stun
        if damage + stun > 0:
            target.aiming = None  # spec §8.2, RULING R31: lost on any damage or stun
        events.append(Harmed(target.id, power, target.block.best_absorption, damage, stun, target.health))
        if not was:
            self._after_harm(target, events)

    def _harm(self, target: Fighter, power: int, sharpness: str, absorption: int, events: list[Event]) -> None:
        was = target.incapacitated
        damage, stun = R.harm(power, sharpness, absorption)
        target.damage += damage
        target.stun += stun
        if damage + stun > 0:
            target.aiming = None  # spec §8.2, RULING R31
        events.append(Harmed(target.id, power, absorption, damage, stun, target.health))
        if not was:
            self._after_harm(target, events)

    def _after_harm(self, target: Fighter, events: list[Event]) -> None:
        if target.incapacitated:  # RULING R23
            target.standing = False
            target.counter_ready = False
            target.covering = None
            target.aiming = None
            self._release_all(target.id)
            events.append(OutOfFight(target.id, target.health.replace("_", " ")))
            self._check_end(events)

    def _check_end(self, events: list[Event]) -> None:
        """RULING R54: the fight stops the moment all sides but one are incapacitated."""
        standing = [s for s in self._sides if any(not f.incapacitated for f in self.fighters if f.side == s)]
        if len(standing) == 1:
            self._end(standing[0], "incapacitated", events)
        elif not standing:
            self._end(None, "all_incapacitated", events)

    def _end(self, winner: str | None, reason: str, events: list[Event]) -> None:
        self._outcome = Outcome(winner, reason, min(self._round, self.round_cap))
        self.stack = []
        events.append(EncounterEnded(winner, reason, self._outcome.round))

    def _finish_turn(self, f: Fighter, t: Turn, events: list[Event]) -> None:
        self.stack.pop()
        active = t.moved or t.actions > 0 or t.counter  # RULING R35
        if t.counter and self._round == 1 and f.id in self.order[self.turn_idx + 1:]:
            active = False  # RULING R47: a "turn 0" counter; its first scheduled turn still comes
        self._end_turn(f, active=active, events=events)
        self._after_turn(events)

    def _after_turn(self, events: list[Event]) -> None:
        """Back to the interrupted attacker (spec §6.1) or on to the next turn."""
        while self.stack:
            t = self.stack[-1]
            f = self.by_id[t.actor]
            if not f.incapacitated and not self._turn_exhausted(f, t):
                return
            self.stack.pop()
            self._end_turn(f, active=True, events=events)
        if self._outcome is None:
            self._next_turn(events)

    # ------------------------------------------------------------------ views
    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-able data; ``from_snapshot`` rebuilds it exactly."""
        return {
            "system": self.system, "round": self._round, "order": list(self.order), "turn_idx": self.turn_idx,
            "sides": list(self._sides),
            "options": dict(self.options.__dict__),
            "map": self.map.to_dict(),
            "combatants": {f.id: {"block": f.block.id, "side": f.side, "slot": f.slot, "hex": list(f.hex),
                                  "standing": f.standing, "stun": f.stun, "damage": f.damage, "health": f.health,
                                  "held": dict(f.held), "defense_bonus": f.defense_bonus,
                                  "counter_ready": f.counter_ready, "forced_skips": f.forced_skips,
                                  "stowed": list(f.stowed), "bow_drawn": f.bow_drawn, "aiming": f.aiming,
                                  "covering": f.covering, **self._gun_fields(f)} for f in self.fighters},
            "floor_guns": {k: [dict(s) for s in v] for k, v in sorted(self.floor_guns.items())},
            "floor": {f"{h[0]},{h[1]}": list(items) for h, items in sorted(self.floor.items()) if items},
            "stack": [{"actor": t.actor, "counter": t.counter, "move_points": t.move_points, "moved": t.moved,
                       "actions": t.actions, "quick_only": t.quick_only, "weapons": dict(t.weapons),
                       "straight_dir": t.straight_dir, "straight_hexes": t.straight_hexes,
                       "charge_used": t.charge_used, "acted_while_healthy": t.acted_while_healthy,
                       "choice": list(t.choice), "partner": t.partner, "declared": t.declared} for t in self.stack],
            "deciding": [t.actor for t in self.stack],
            "grapples": [{"pair": sorted(p), **g} for p, g in sorted(self.grapples.items(), key=lambda kv: sorted(kv[0]))],
            **self._mounted_snapshot(),  # spec §5.11: rider -> mount, mounts spent
            "pending": {"follow_hex": list(self._pending_follow_hex) if self._pending_follow_hex else None,
                        "choice_was": self._choice_was, "delayed": self._delayed,
                        "delays_used": sorted(self._delays_used), "order_pending": self._order_pending},
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> ManoEncounter:
        """Rebuild an encounter from ``snapshot()`` data (stat blocks come from the catalogue)."""
        blocks = stat_blocks()
        fighters = []
        for cid, c in data["combatants"].items():
            fighters.append(Fighter(cid, blocks[c["block"]], c["side"], c["slot"], tuple(c["hex"]), c["standing"],
                                    c["stun"], c["damage"], dict(c["held"]), c["defense_bonus"], c["counter_ready"],
                                    c["forced_skips"], list(c["stowed"]), c["bow_drawn"], c["aiming"], c["covering"]))
        side_rank = {s: i for i, s in enumerate(data["sides"])}
        fighters.sort(key=lambda f: (side_rank[f.side], f.slot))  # roster order, whatever the key order
        opts = RuleOptions(**data["options"])
        enc = cls(fighters, list(data["order"]), HexMap.from_dict(data["map"]), opts)
        enc._round, enc.turn_idx = data["round"], data["turn_idx"]
        enc.floor = {tuple(int(x) for x in k.split(",")): list(v) for k, v in data["floor"].items()}
        enc.grapples = {frozenset(g["pair"]): {"base": g["base"], "dominant": g["dominant"]} for g in data["grapples"]}
        enc.stack = [Turn(t["actor"], t["counter"], t["move_points"], t["moved"], t["actions"], t["quick_only"],
                          Counter(t["weapons"]), t["straight_dir"], t["straight_hexes"], t["charge_used"],
                          t["acted_while_healthy"], tuple(t["choice"]), t["partner"], t.get("declared", False))
                     for t in data["stack"]]
        pending = data["pending"]
        enc._pending_follow_hex = tuple(pending["follow_hex"]) if pending["follow_hex"] else None
        enc._choice_was = pending["choice_was"]
        enc._delayed = pending["delayed"]
        enc._delays_used = frozenset(pending.get("delays_used", ()))
        enc._order_pending = pending.get("order_pending", False)
        enc._mounted_restore(data)
        enc._guns_restore(data)  # guns.py: shots left, clips out, reload actions done
        out = data["outcome"]
        enc._outcome = Outcome(out["winner"], out["reason"], out["round"]) if out else None
        return enc

    def view(self, actor: str) -> dict[str, Any]:
        snap = self.snapshot()  # spec §3.1, RULING R45: nothing is hidden
        snap["viewer"] = actor
        return snap

    def describe(self, viewer: str | None = None) -> list[dict[str, str]]:
        rows = []
        for f in self.fighters:
            rows.append({"combatant": f.id, "side": f.side, "hex": str(f.hex),
                         "stance": "standing" if f.standing else "on the ground",
                         "stun": str(f.stun), "damage": str(f.damage),
                         "health": f"{f.health.replace('_', ' ')} (T {f.stun + f.damage}/{f.block.toughness}/{f.block.stamina})",
                         "ready": "counter" if f.counter_ready else (f"+{f.defense_bonus} def" if f.defense_bonus else "")})
        return rows


# ---------------------------------------------------------------------------------- building fights


def place(encounter_id: str, sides: dict[str, tuple[str, ...]], placement: Any, hexmap: HexMap,
          shooters: frozenset[str] = frozenset()) -> dict[str, Hex]:
    """Starting hexes (spec §13.8): ``adjacent``, ``{distance_hexes: n}`` (sides n apart, members in a
    column; ``shooters`` two hexes further back, spec §13.8 "archer at the back") or
    ``{ring_radius_hexes: r}`` (side A's first member in the centre, the rest on a ring)."""
    names = list(sides)
    out: dict[str, Hex] = {}
    if placement == "adjacent":
        a, b = sides[names[0]], sides[names[1]]
        for k, cid in enumerate(a):
            out[cid] = (0, k)
        for k, cid in enumerate(b):
            out[cid] = (1, k)
    elif isinstance(placement, dict) and "distance_hexes" in placement:
        n = int(placement["distance_hexes"])
        left = -(n // 2)
        for s, col, back in ((names[0], left, -2), (names[1], left + n, 2)):
            for k, cid in enumerate(sides[s]):
                out[cid] = (col + (back if cid in shooters else 0), k)
    elif isinstance(placement, dict) and "ring_radius_hexes" in placement:
        r = int(placement["ring_radius_hexes"])
        centre = sides[names[0]]
        out[centre[0]] = (0, 0)
        others = [c for s in names for c in sides[s] if c != centre[0]]
        spots = ring((0, 0), r)
        for k, cid in enumerate(others):
            out[cid] = spots[(k * len(spots)) // max(1, len(others))]
    else:
        raise ValueError(f"encounter {encounter_id!r}: unknown placement {placement!r}")
    for cid, h in out.items():
        if h not in hexmap:
            raise ValueError(f"encounter {encounter_id!r}: {cid} starts off the map at {h}")
    return out


def new_encounter(name: str, options: Any, dice: Dice) -> ManoEncounter:
    """Build a catalogue encounter and roll its setup (surprise, turn order)."""
    encs = encounters()
    if name not in encs:
        raise ValueError(f"unknown mano_a_mano encounter {name!r}; known: {', '.join(encs)}")
    e = encs[name]
    blocks = stat_blocks()
    hexmap = HexMap.hexagon(ARENA_RADIUS)
    shooters = frozenset(c for m in e.sides.values() for c in m
                         if any(blocks[c].items[i].missile for i in blocks[c].held.values()))
    spots = place(name, e.sides, e.placement, hexmap, shooters)
    fighters = []
    for side, members in e.sides.items():
        for slot, cid in enumerate(members):
            b = blocks[cid]
            fighters.append(Fighter(cid, b, side, slot, spots[cid], held=dict(b.held), stowed=list(b.stowed),
                                    bow_drawn=b.bow_drawn))
    opts = parse_options(options)
    enc = ManoEncounter(fighters, [f.id for f in fighters], hexmap, opts)
    if opts.full:  # spec §5.11 (FULL): riders start on their mounts, in the mount's hex
        for rider, mount in e.mounted.items():
            enc.by_id[rider].hex = enc.by_id[mount].hex
            enc.mounts[rider] = mount
    enc.begin(dice, e.surprise_mode)
    return enc




def facing(a: Hex, b: Hex) -> int:
    """Cosmetic facing (spec §3.2, RULING R9): the direction from ``a`` toward ``b``."""
    return direction_to(a, b)
