"""Mano a Mano combat state: the encounter (DESIGN.md "The rules API") and how a catalogue fight
is built (spec §3.2 arena, §13.8 placement).

``ManoEncounter`` holds the state of one fight and answers the public API (``current_actor``,
``legal_actions``, ``apply``, ``clone``, ``snapshot``...). The rules themselves are plain functions
of the encounter, one module per part of the spec:

* ``turns``: surprise, turn order, turns, movement, §5.8 simple actions, end of turn and of fight;
* ``legal``: the legal actions (categories, combo capacity, CORE subset);
* ``modifiers``: position, circumstance, darkness, cover and armor-avoidance numbers;
* ``strikes``: strikes and the harm pipeline; ``missiles``: throws, bows and items; ``guns``;
* ``grappling``; ``mounted``; ``snapshot``: snapshot, restore and clone; ``events``; ``fighter``.

Decisions are ``Action`` labels::

    steven: move 0                      one hex in direction 0..5 (envs.core.hexgrid)
    steven: counter                     prepare a counterattack (first decision of a turn)
    steven: strike powerful machete -> clone
    steven: strike quick right_foot -> clone
    wrestler: grapple push 3 -> guard   also hold, trip, slam, slam_onto, wrench, choke, disarm HAND
    wrestler: choose hold_dominant -> guard   (or release, follow_to_ground, let_go, keep)
    wrestler: release -> guard          free, for a dominant member
    steven: drop | stand | instant_stand | rest | end

A declared attack on a counter-ready target does not resolve: the target takes its counter turn at
once, then the attacker decides again with its remaining movement and combo budget (spec §6.1,
§6.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from envs.core import Action, Dice, parse_label
from envs.core.encounter import EncounterBase, Outcome, SideInfo
from envs.core.events import Event
from envs.core.hexgrid import Hex, HexMap, distance

from . import grappling, guns, legal, missiles, modifiers, mounted, preview, strikes, turns
from . import snapshot as snap
from .catalogue import encounters, stat_blocks
from .events import Delayed, Harmed, Note, Rolled
from .fighter import Fighter, Turn
from .modifiers import facing
from .options import CORE, FULL, ROUND_CAP, RuleOptions, parse_options
from .preview import Preview
from .setup import place
from .turns import STANCES

__all__ = [
    "ARENA_RADIUS",
    "CORE",
    "FULL",
    "ROUND_CAP",
    "STANCES",
    "Fighter",
    "Harmed",
    "ManoEncounter",
    "Note",
    "Rolled",
    "RuleOptions",
    "Turn",
    "facing",
    "new_encounter",
    "parse_options",
    "place",
]

ARENA_RADIUS = 7  # spec §3.2: suggested arena, a hexagon of radius 7


class ManoEncounter(EncounterBase):
    """The mutable state of one Mano a Mano fight (see the module docstring)."""

    system = "mano_a_mano"
    elimination_reasons = frozenset({turns.INCAPACITATED, turns.ALL_INCAPACITATED})  # R54

    def __init__(
        self, fighters: list[Fighter], order: list[str], hexmap: HexMap, options: RuleOptions = FULL
    ) -> None:
        self.options = options
        self._legal: list[Action] | None = None
        """the current decision's legal actions, once listed (dropped by ``apply``)"""
        self._applying = False
        self._legal_next: list[Action] | None = None
        """the next decision's legal actions, when ``apply`` already listed them"""
        self.probed: list[Action] | None = None
        """the legal actions the latest ``turns.turn_exhausted`` listed"""
        self.delayed: str | None = None
        """a delayer whose turn waits for its new slot (spec §4.6)"""
        self.delays_used: frozenset[str] = frozenset()
        """who delayed this round (rulings.DELAY_ONCE_PER_ROUND)"""
        self.order_pending = False
        """initial stances are being chosen; the turn order comes after them (RULING R53)"""
        self.fighters = fighters
        self.by_id = {f.id: f for f in fighters}
        self.order = order
        self.map = hexmap
        self._round = 1
        self.turn_idx = -1
        self.stack: list[Turn] = []
        """the deciding turns: the acting turn, then counters and outcome choices on top"""
        self._outcome: Outcome | None = None
        self.start_events: list[Event] = []
        self.grapples: dict[frozenset[str], dict[str, Any]] = {}
        """spec §5.7.1: {frozenset({x, y}): {"base": "standing" | "ground", "dominant": id}}"""
        self.floor: dict[Hex, list[str]] = {}
        """items lying on the map (disarmed, dropped)"""
        self.follow_hex: Hex | None = None
        """the hex a push vacated, which a dominant pusher follows into (RULING R43)"""
        self.choice_was: dict[str, Any] | None = None
        """the grapple before the attack whose outcome is being chosen (RULING R18)"""
        self.side_ids = tuple(dict.fromkeys(f.side for f in fighters))
        self._sides = tuple(
            SideInfo(s, tuple(f.id for f in fighters if f.side == s)) for s in self.side_ids
        )
        self.roster = tuple((f.id, f.side) for f in fighters)
        """``(id, side)`` of every combatant in roster order; it never changes during a fight"""
        self.rideable = any(f.block.mount is not None for f in fighters)
        """can anybody in this fight be ridden (the roster never changes during a fight)"""
        self.mounts: dict[str, str] = {}
        """rider -> mount (spec §5.11, mounted.py)"""
        self.mount_spent: set[str] = set()
        """mounts whose movement their rider used (rulings.RIDER_USES_MOUNT_MOVEMENT)"""
        self.circumstances: dict[str, str] = {}
        """the scenario's circumstance of attacks by a side or a fighter (id -> ``favorable``,
        ``very_favorable``, ``unfavorable`` or ``hostile``; spec §5.1, §12.2 item 7, RULING R40);
        set by a situation, never changed during a fight"""
        self.floor_guns: dict[str, list[dict[str, Any]]] = {}
        """``"q,r:item"`` -> states of guns lying on the floor (guns.py, GUN_STATE_PER_ITEM)"""

    # ------------------------------------------------------------------ protocol basics
    def sides(self) -> tuple[SideInfo, ...]:
        return self._sides

    def is_active(self, combatant: str) -> bool:
        return not self.by_id[combatant].incapacitated

    @property
    def full(self) -> bool:
        """FULL rules (spec §12.2): initial stances, weapons stowed when surprised, cover, delay."""
        return self.options.full

    def current_actor(self) -> str | None:
        return None if self._outcome or not self.stack else self.stack[-1].actor

    def harm(self) -> dict[str, float]:
        return {f.id: float(f.stun + f.damage) for f in self.fighters}

    def parse_action(self, label: str) -> Action:
        return parse_label(label)

    def occupied(self) -> set[Hex]:
        return {f.hex for f in self.fighters}

    def begin(self, dice: Dice, surprise_mode: str = "none") -> list[Event]:
        """Surprise (spec §3.3), turn order (§3.5) or initial stances, first turn (turns.py)."""
        return turns.begin(self, dice, surprise_mode)

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

    def grapple_weapon(self, f: Fighter) -> str:
        """The weapon a grapple counts as (RULING R11, grappling.py)."""
        return grappling.grapple_weapon(self, f)

    # ------------------------------------------------------------------ public rule queries
    def armor_options(self, target: Fighter) -> list[tuple[str, ...]]:
        """Armor-avoidance arguments an attack on ``target`` may take (spec §2.6, modifiers.py)."""
        return modifiers.armor_options(self, target)

    def avoidance(self, target: Fighter, option: str | None) -> tuple[int, int]:
        """``(difficulty added, absorption left)`` of an avoidance option (modifiers.py)."""
        return modifiers.avoidance(self, target, option)

    def floor_choices(self, h: Hex) -> list[str]:
        """The items in hex ``h`` a fighter can pick up (missiles.py)."""
        return missiles.floor_choices(self, h)

    def facing_of(self, f: Fighter) -> int | None:
        """Cosmetic facing of ``f`` (spec §3.2, RULING R9, modifiers.py)."""
        return modifiers.facing_of(self, f)

    def from_behind(self, attacker: Fighter, target: Fighter) -> bool:
        """Does ``attacker`` stand off one of ``target``'s three rear hex sides (modifiers.py)?"""
        return modifiers.from_behind(self, attacker, target)

    @staticmethod
    def shots_left(f: Fighter, item: str) -> int:
        """Shots left in the gun ``item`` (spec §3.6, guns.py)."""
        return guns.shots_left(f, item)

    def rider_of(self, mount: str) -> str | None:
        """The rider of ``mount``, if it is ridden (mounted.py)."""
        return mounted.rider_of(self, mount)

    def mounted_on(self, rider: str) -> str | None:
        """The mount ``rider`` sits on, if any (mounted.py)."""
        return self.mounts.get(rider)

    def preview(self, action: Action) -> Preview | None:
        """The odds and numbers of an attack before its roll (preview.py); ``None`` for others."""
        return preview.preview(self, action)

    def previews(self, actions: Sequence[Action]) -> list[Preview | None]:
        """``preview`` of each of one decision's actions, shared parts computed once."""
        return preview.previews(self, actions)

    def move_points(self, f: Fighter) -> int:
        """The movement points ``f`` starts a turn with (spec §4.5, RULING R26, turns.py)."""
        return turns.move_points(self, f)

    # ------------------------------------------------------------------ decisions
    def refresh(self) -> None:
        """The state was changed outside ``apply`` (a test or a tool editing it): list the legal
        actions afresh."""
        self._legal = None

    @property
    def listed(self) -> list[Action] | None:
        """The legal actions of this decision as listed and kept (``None`` before the first
        listing); read it, do not change it."""
        return self._legal

    def legal_actions(self) -> list[Action]:
        """Every legal decision of the current actor (legal.py); cached between ``apply`` calls
        (every change of state goes through ``apply``, which drops the cache)."""
        cached = self._legal
        if cached is not None:
            return cached
        found = legal.compute_legal(self)
        if not self._applying:
            self._legal = found
        return found

    def _resolve(self, action: Action, dice: Dice, events: list[Event]) -> None:
        """Carry out a legal action (``EncounterBase.apply`` checked it and put ``ActionTaken``
        first); the legal actions listed on the way become the next decision's list."""
        self._legal, self._applying, self._legal_next = None, True, None
        try:
            self._carry_out(action, dice, events)
            self._cover_upkeep(events)
        finally:
            self._legal, self._applying, self._legal_next = self._legal_next, False, None

    def _cover_upkeep(self, events: list[Event]) -> None:
        """spec §7, §6.4: cover ends at once when the coverer and the covered are no longer
        adjacent (a step back does not restore it)."""
        for g in self.fighters:
            if g.covering is not None and distance(g.hex, self.by_id[g.covering].hex) != 1:
                events.append(Note(g.id, f"no longer covers {g.covering} (not adjacent)"))
                g.covering = None

    def _ended(self) -> None:
        self.stack = []

    def _carry_out(self, action: Action, dice: Dice, events: list[Event]) -> None:
        t = self.stack[-1]
        f = self.by_id[t.actor]
        kind = action.kind
        if kind == "counter":
            f.counter_ready = True
            events.append(Note(f.id, "prepares a counterattack"))
            self.stack.pop()
            turns.after_turn(self, events)
        elif kind == "move":
            turns.move(self, f, t, int(action.args[0]), events)
        elif kind == "end":
            turns.finish_turn(self, f, t, events)
        elif kind == "choose":
            grappling.choose(self, f, t, action.args[0], events)
            if (
                self.order_pending and not self.stack
            ):  # the last initial stance: now the turn order (R53)
                turns.settle_order(self, None, dice, events)
                turns.next_turn(self, events)
            mounted.after_action(
                self, f, action, dice, events
            )  # a mount that went down throws its rider
            turns.resume(self, events)
            return
        elif kind == "delay":
            assert action.target is not None
            self.stack.pop()
            self.order.remove(f.id)
            self.order.insert(self.order.index(action.target) + 1, f.id)
            self.delays_used = self.delays_used | {f.id}
            self.turn_idx -= 1  # the next slot is now the character that came after this one
            events.append(Delayed(f.id, action.target, tuple(self.order)))
            turns.next_turn(self, events, restart=f.id)
            return
        elif kind == "release":
            assert action.target is not None
            t.declared = True  # spec §4.8: past the first decision, even for a free action
            grappling.release(self, f.id, action.target, events)
        elif kind == "cover":
            turns.count_action(self, f, t, quick=False, weapon=None)
            f.covering = action.target
            events.append(Note(f.id, f"covers {action.target} until its next turn"))
        elif kind in ("load", "unload") or (
            kind == "aim" and not f.bow_drawn
        ):  # guns.py (spec §5.6)
            t.declared = True
            guns.gun_action(self, f, t, action, events)
        elif kind in ("draw", "aim", "relax", "ready", "pick_up", "drop_item"):
            t.declared = True  # a free drop too: no counter after it (spec §4.8, §5.3 row 2)
            missiles.item_action(self, f, t, action, events)
        elif kind in ("strike", "grapple", "throw", "shoot"):
            assert action.target is not None
            target = self.by_id[action.target]
            if target.counter_ready:
                target.counter_ready = (
                    False  # spec §6.1, RULING R13: fires once, before the strike resolves
                )
                events.append(Note(target.id, f"counterattacks before {f.id}'s strike"))
                t.declared = True
                self.stack.append(
                    Turn(target.id, counter=True, move_points=turns.move_points(self, target))
                )
                return
            if kind == "strike":
                avoid = action.args[2] if len(action.args) > 2 else None
                strikes.strike(
                    self, f, t, action.args[0], action.args[1], target, dice, events, avoid
                )
            elif kind in ("throw", "shoot"):
                missiles.missile(self, f, t, action, target, dice, events)
            else:
                grappling.grapple_action(self, f, t, action.args, target, dice, events)
        elif kind in ("mount", "dismount"):
            mounted.mount_action(self, f, t, action, events)
        else:
            turns.simple(self, f, t, kind, events)
        mounted.after_action(self, f, action, dice, events)  # spec §5.11, §6.3: stay or fall
        if self._outcome is None and self.stack and self.stack[-1] is t:
            if turns.turn_exhausted(self, f, t):
                turns.finish_turn(self, f, t, events)
            else:  # the state is final: the list the check made (if any) is the next decision's
                self._legal_next = self.probed
        return

    # ------------------------------------------------------------------ views and copies
    def clone(self) -> ManoEncounter:
        """Independent copy for look-ahead (snapshot.py)."""
        return snap.clone(self)

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-able data; ``from_snapshot`` rebuilds it (snapshot.py)."""
        return snap.snapshot(self)

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> ManoEncounter:
        """Rebuild an encounter from ``snapshot()`` data (stat blocks come from the catalogue)."""
        return snap.restore(cls, data)

    def view(self, actor: str) -> dict[str, Any]:
        snap = self.snapshot()  # spec §3.1, RULING R45: nothing is hidden
        snap["viewer"] = actor
        return snap

    def describe(self, viewer: str | None = None) -> list[dict[str, str]]:
        return [snap.describe_row(f) for f in self.fighters]


# ---------------------------------------------------------------------------------- building fights


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
            fighters.append(Fighter(cid, b, side, slot, spots[cid], held=dict(b.held),
                                    stowed=list(b.stowed), bow_drawn=b.bow_drawn))
    opts = parse_options(options)
    enc = ManoEncounter(fighters, [f.id for f in fighters], hexmap, opts)
    if opts.full:  # spec §5.11 (FULL): riders start on their mounts, in the mount's hex
        for rider, mount in e.mounted.items():
            enc.by_id[rider].hex = enc.by_id[mount].hex
            enc.mounts[rider] = mount
    enc.begin(dice, e.surprise_mode)
    return enc
