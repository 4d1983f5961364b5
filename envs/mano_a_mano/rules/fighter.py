"""Mano a Mano fighter model (spec §2: derived values, §2.3 health, §2.7 carrying; §4.3-§4.4 turn
bookkeeping): ``Fighter`` (one combatant's mutable state over its frozen ``StatBlock``), ``Turn``
(what the deciding combatant has done this turn), ``Can`` and ``Held`` (what the action categories
and the held items allow), and ``act`` (shared immutable ``Action`` values)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from envs.core import Action
from envs.core.hexgrid import Hex
from envs.core.snapshot import StateFields

from . import resolution as R
from .catalogue import StatBlock, block_memo

__all__ = ["Can", "Fighter", "Held", "Turn", "act", "move_actions"]


class Can(NamedTuple):
    """What the action categories and combo capacity allow the decider (spec §4.3, §4.4)."""

    quick: bool
    """a quick action"""
    strenuous: bool
    """a strenuous action"""
    other: bool
    """an "other" action (rest, cover, a muzzle-loader's reload: alone in its turn)"""
    quick_free: bool
    """a quick action that uses no weapon (``quick`` and ``legal.capacity_ok(..., None, None)``)"""


class Held(NamedTuple):
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
    """a bow or gun is held (``guns.gun_actions`` has something to offer)"""


_ACTIONS: dict[tuple[Any, ...], Action] = {}
_MOVES: dict[str, tuple[Action, ...]] = {}


def act(actor: str, kind: str, args: tuple[str, ...] = (), target: str | None = None) -> Action:
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


def move_actions(actor: str) -> tuple[Action, ...]:
    """The six one-hex moves of ``actor`` (``actor: move 0`` .. ``actor: move 5``), shared."""
    moves = _MOVES.get(actor)
    if moves is None:
        moves = _MOVES[actor] = tuple(Action(actor, "move", (str(d),)) for d in range(6))
    return moves


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

    FIELDS: ClassVar[StateFields] = StateFields(
        values=("id", "side", "slot", "hex", "standing", "stun", "damage", "defense_bonus",
                "counter_ready", "forced_skips", "bow_drawn", "aiming", "covering"),
        containers=("held", "stowed", "shots", "clip_out", "reloading"),
        shared=("block",),
        encode={"shots": lambda d: dict(sorted(d.items())), "clip_out": sorted,
                "reloading": lambda d: dict(sorted(d.items()))},
    )
    """Cloned, saved and restored as declared (snapshot.py); the block is saved by id."""
    """muzzle-loader reload actions done per gun (RULING R50)"""

    @property
    def health(self) -> str:
        return R.health(self.stun, self.damage, self.block.toughness)

    @property
    def healthy(self) -> bool:
        """``health == "healthy"``: ``T = stun + damage`` at most toughness (spec §2.3, R1)."""
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
        """``health`` is an incapacitated state: T reaches stamina (spec §8.3, RULING R1)."""
        return self.stun + self.damage >= 2 * self.block.toughness

    def weapons(self) -> dict[str, Any]:
        """Weapon identity (spec §4.4, RULING R11) -> derived stats, for striking. The mapping is
        shared between calls with the same held items: read it, do not change it."""
        b = self.block
        key = ("weapons", tuple(sorted(self.held.items())))
        memo = block_memo(b)
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._weapons()
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

    def bow(self) -> tuple[str, str] | None:
        """``(hand, item)`` of a held bow."""
        items = self.block.items
        return next(((h, i) for h, i in self.held.items() if items[i].kind == "bow"), None)

    def gun(self) -> tuple[str, str] | None:
        """``(hand, item)`` of the held gun that gun actions use (rulings.SHOT_WEAPON)."""
        for hand in ("right", "left", "both"):
            item = self.held.get(hand)
            if item is not None and self.block.items[item].kind == "gun":
                return hand, item
        return None

    def shooter(self) -> tuple[str, str] | None:
        """The weapon a shot or an aim uses: the drawn bow (RULING R32), else the held gun, else
        a held bow; ``None`` without a bow or a gun."""
        bow = self.bow()
        if bow is not None and self.bow_drawn:
            return bow
        gun = self.gun()
        return gun if gun is not None else bow

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
    """the turn is past its first decision (an attack declared that a counter interrupted, spec
    §6.1, or a free action such as a drop): no counter and no delay any more (spec §4.8, §5.3
    rows 2 and 37)"""

    FIELDS: ClassVar[StateFields] = StateFields(
        values=("actor", "counter", "move_points", "moved", "actions", "quick_only",
                "straight_dir", "straight_hexes", "charge_used", "acted_while_healthy", "choice",
                "partner", "declared"),
        containers=("weapons",),
        decode={"weapons": Counter},
    )
    """Cloned, saved and restored as declared (snapshot.py)."""
