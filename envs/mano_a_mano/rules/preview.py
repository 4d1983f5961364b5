"""Mano a Mano action preview (issue item 6): the odds and the numbers of an attack before it is
rolled, from the same code the resolution uses.

``preview(enc, action)`` answers for a strike (spec §5.4), a throw or a shot (spec §5.5, §5.6) and
a grappling attack (spec §5.7): the d20 modifier and the difficulty with their named parts
(position RULING R4/R25, circumstances and the rear attack RULING R9/R40, darkness spec §5.1,
cover spec §6.4, armor avoidance spec §2.6, distance spec §5.5, disarm RULING R5), the chance of
success (RULING R36: a natural 20 always succeeds), the power, sharpness and absorption of a hit,
the expected harm, and what the action costs (quick or strenuous, the weapon use of RULING R11).
``strikes.strike``, ``missiles.missile`` and ``grappling.grapple_action`` roll against these;
the heuristic scores with them. Nothing here changes the encounter."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from envs.core import Action
from envs.core.hexgrid import distance

from . import modifiers, rulings
from . import resolution as R
from .fighter import Fighter, Turn

if TYPE_CHECKING:
    from .state import ManoEncounter

__all__ = ["Preview", "chance", "preview", "previews"]

STRENUOUS_GRAPPLES = frozenset({"trip", "slam", "slam_onto", "wrench", "choke", "disarm"})
DAMAGING_GRAPPLES = frozenset({"push", "trip", "slam", "slam_onto", "wrench", "choke"})
"""grappling actions with power (spec §5.7.3; push and trip through the fall they cause): they take
a charge bonus and the optional power rules (spec §8.1, RULING R28, R37)"""
DOUBLE_GRAPPLES = frozenset({"trip", "slam_onto", "wrench", "choke"})
"""grappling actions of power 2G (spec §5.7.3)"""


@functools.lru_cache(maxsize=4096)
def chance(modifier: int, difficulty: int) -> float:
    """P(d20 + modifier > difficulty), a natural 20 always succeeding (spec §5.1, RULING R36);
    a pure function of two integers, so its answers are kept."""
    return sum(1 for d in range(1, 21) if R.success(d, modifier, difficulty)) / 20


@dataclass(frozen=True, slots=True)
class Preview:
    """The numbers of one attack before its roll (see the module docstring)."""

    attacker: str
    target: str
    kind: str
    """``striking``, ``missile`` or ``grappling`` (spec §5.1 darkness, §5.2 position tables)"""
    weapon: str
    """the weapon use it counts (RULING R11)"""
    quick: bool
    """a quick action; otherwise strenuous (spec §4.3)"""
    modifier_parts: tuple[tuple[str, int], ...]
    difficulty_parts: tuple[tuple[str, int], ...]
    base_power: int
    double: bool
    """double power (powerful strike, powerful throw or heave, 2G grapples; spec §8.1)"""
    charge_hexes: int
    """straight hexes that earn a charge bonus (spec §4.5, RULING R28); 0 when none"""
    sharpness: str
    absorption: int
    """the target's absorption a hit meets (after armor avoidance, spec §2.6)"""
    coverer: str | None
    """who takes a failed attack instead (spec §6.4), if anybody covers the target"""
    random_damage: bool = False
    critical_hits: bool = False

    @property
    def modifier(self) -> int:
        return sum(v for _, v in self.modifier_parts)

    @property
    def difficulty(self) -> int:
        return sum(v for _, v in self.difficulty_parts)

    @property
    def chance(self) -> float:
        """The chance of success of the d20 roll."""
        return chance(self.modifier, self.difficulty)

    def part(self, name: str) -> int:
        """One named part of the modifier or the difficulty (0 when absent)."""
        return sum(v for k, v in (*self.modifier_parts, *self.difficulty_parts) if k == name)

    def power_at(self, die: int) -> int:
        """The power of a hit rolled ``die`` (spec §8.1, RULING R28, R37)."""
        return R.attack_power(self.base_power, double=self.double, die=die, kind=self.kind,
                              charge_hexes=self.charge_hexes, random_damage=self.random_damage,
                              critical_hits=self.critical_hits)

    @property
    def hit_power(self) -> int:
        """The power of an ordinary hit (a die of 13 to 19: no critical, no random-damage cut)."""
        return self.power_at(13)

    @property
    def blow_power(self) -> int:
        """The power of an ordinary hit before its charge bonus."""
        return self.base_power * (2 if self.double else 1)

    def expected_harm(self, choke: bool = False) -> tuple[float, float]:
        """Expected ``(damage, stun)`` on the target over the 20 faces (misses harm nobody here;
        a covered miss harms the coverer)."""
        damage = stun = 0.0
        mod, diff = self.modifier, self.difficulty
        for die in range(1, 21):
            if R.success(die, mod, diff):
                d, s = R.harm(self.power_at(die), self.sharpness, self.absorption, choke=choke)
                damage, stun = damage + d / 20, stun + s / 20
        return damage, stun


def charge_hexes(t: Turn | None) -> int:
    """The straight hexes an attack now would charge with (spec §4.5, RULING R28: more than 5 m,
    the first attack after each run); ``turns.charge`` spends them."""
    if t is None or t.charge_used or rulings.HEX_METERS * t.straight_hexes <= 5:
        return 0
    return t.straight_hexes


def _defense(enc: ManoEncounter, f: Fighter, target: Fighter, kind: str, own: int,
             avoid: str | None) -> tuple[tuple[tuple[str, int], ...], int, str | None]:
    """Difficulty parts of the defense (cover replaces it, spec §6.4), armor avoidance and
    darkness; the absorption a hit meets; the coverer."""
    cost, absorption = modifiers.avoidance(enc, target, avoid)
    coverer, cover_diff = modifiers.coverer(enc, target, f, kind)
    if coverer is not None:
        parts: list[tuple[str, int]] = [("cover", cover_diff)]
    else:
        parts = [("defense", own), ("position", modifiers.defense_mod(enc, target, f, kind)),
                 ("defense bonus", target.defense_bonus)]
    parts += [("armor avoidance", cost), ("darkness", modifiers.darkness(enc, f, kind)),
              ("circumstance", modifiers.unfavorable(enc, f))]
    return tuple(parts), absorption, coverer.id if coverer is not None else None


def _turn_of(enc: ManoEncounter, f: Fighter) -> Turn | None:
    t = enc.stack[-1] if enc.stack else None
    return t if t is not None and t.actor == f.id else None


def strike(enc: ManoEncounter, f: Fighter, verb: str, weapon: str, target: Fighter,
           avoid: str | None = None, memo: dict[Any, Any] | None = None) -> Preview:
    """A strike (spec §5.4): weapon attack, +5 strategic, position, circumstance. ``memo``: the
    parts that do not depend on the verb or weapon, shared by the previews of one decision
    (``previews``)."""
    if memo is None:
        memo = {}
    weapons = memo.get(("weapons", f.id))
    if weapons is None:
        weapons = memo[("weapons", f.id)] = f.weapons()
    stats = weapons[weapon]
    key: tuple[Any, ...] = ("attack", f.id, target.id)
    found = memo.get(key)
    if found is None:
        found = memo[key] = (modifiers.attack_mod(enc, f, target, "striking"),
                             modifiers.favorable(enc, f, target))
    position, circumstance = found
    mods = (("attack", stats.attack), ("strategic", 5 if verb == "strategic" else 0),
            ("position", position), ("circumstance", circumstance))
    key = ("defense", f.id, target.id, avoid)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _defense(enc, f, target, "striking", target.melee_defense(), avoid)
    diff, absorption, coverer = found
    turn = memo.get(("turn", f.id))
    if turn is None:
        turn = memo[("turn", f.id)] = (charge_hexes(_turn_of(enc, f)),)
    o = enc.options
    return Preview(f.id, target.id, "striking", weapon, verb == "quick", mods, diff, stats.power,
                   verb == "powerful", turn[0], stats.sharpness, absorption, coverer,
                   o.random_damage, o.critical_hits)


def missile(enc: ManoEncounter, f: Fighter, action: Action, target: Fighter) -> Preview:
    """A throw (spec §5.5, RULING R8, R56) or a shot of the drawn bow or the gun (spec §5.6,
    rulings.SHOT_WEAPON): with aim (+5, RULING R31) and the distance penalty."""
    verb = action.args[0]
    if action.kind == "throw":
        hand = action.args[1]
        avoid = action.args[2] if len(action.args) > 2 else None
        item = f.held[hand]
        it = f.block.items[item]
        power = f.block.item_stats(item, hand).power
        q = max(0, f.block.ability("throwing") + f.block.strength - it.heft)  # RULING R8
        max_range = 2 * q if verb == "powerful" else q
        attack = f.block.ability("throwing") + f.block.agility - (5 if verb == "heave" else 0) \
            + f.block.inept_penalty("throwing")  # spec §2.8
        double, weapon = verb != "quick", f.weapon_id(hand)
    else:
        avoid = action.args[1] if len(action.args) > 1 else None
        shooter = f.shooter()
        assert shooter is not None, f"{f.id} holds nothing to shoot"
        item = shooter[1]
        it = f.block.items[item]
        max_range = it.range_m
        attack = f.block.item_stats(item).attack + (5 if verb == "strategic" else 0)
        power, double, weapon = it.power, False, item
    mods = (("attack", attack), ("aim", 5 if f.aiming == item else 0),
            ("position", modifiers.attack_mod(enc, f, target, "missile")),
            ("circumstance", modifiers.favorable(enc, f, target)))
    diff, absorption, coverer = _defense(enc, f, target, "missile", target.block.missile_defense,
                                         avoid)
    d_m = rulings.range_m(distance(f.hex, target.hex))
    diff += (("distance", R.distance_penalty(d_m, max_range)),)
    o = enc.options
    return Preview(f.id, target.id, "missile", weapon, verb == "quick", mods, diff, power, double,
                   0, it.sharpness, absorption, coverer, o.random_damage, o.critical_hits)


def grapple(enc: ManoEncounter, f: Fighter, args: tuple[str, ...], target: Fighter) -> Preview:
    """A grappling attack (spec §5.7.3): grapple roll modifier, position, circumstance; disarm
    +5 (RULING R5); wrench and choke may avoid armor."""
    from .grappling import grapple_weapon

    verb = args[0]
    mods = (("attack", f.block.grapple_roll_modifier),
            ("position", modifiers.attack_mod(enc, f, target, "grappling")),
            ("circumstance", modifiers.favorable(enc, f, target)))
    avoid = args[1] if verb in ("wrench", "choke") and len(args) > 1 else None
    cost, absorption = modifiers.avoidance(enc, target, avoid)
    diff = (("defense", target.block.grapple_defense),
            ("position", modifiers.defense_mod(enc, target, f, "grappling")),
            ("defense bonus", target.defense_bonus), ("armor avoidance", cost),
            ("disarm", 5 if verb == "disarm" else 0),
            ("darkness", modifiers.darkness(enc, f, "grappling")),
            ("circumstance", modifiers.unfavorable(enc, f)))
    charge = charge_hexes(_turn_of(enc, f)) if verb in DAMAGING_GRAPPLES else 0
    o = enc.options
    return Preview(f.id, target.id, "grappling", grapple_weapon(enc, f),
                   verb not in STRENUOUS_GRAPPLES, mods, diff, f.block.grapple_power,
                   verb in DOUBLE_GRAPPLES, charge, "blunt", absorption, None, o.random_damage,
                   o.critical_hits)


def preview(enc: ManoEncounter, action: Action,
            memo: dict[Any, Any] | None = None) -> Preview | None:
    """The preview of ``action`` by its actor, or ``None`` for an action that rolls no attack."""
    kind = action.kind
    if kind not in ("strike", "throw", "shoot", "grapple") or action.target is None:
        return None
    f, target = enc.by_id[action.actor], enc.by_id[action.target]
    if kind == "strike":
        avoid = action.args[2] if len(action.args) > 2 else None
        return strike(enc, f, action.args[0], action.args[1], target, avoid, memo)
    if kind == "grapple":
        return grapple(enc, f, action.args, target)
    return missile(enc, f, action, target)


def previews(enc: ManoEncounter, actions: Sequence[Action]) -> list[Preview | None]:
    """``preview`` of each of one decision's actions (all by the current actor), the parts that do
    not depend on the verb or weapon computed once: what a heuristic scoring every legal action
    calls."""
    memo: dict[Any, Any] = {}
    return [preview(enc, a, memo) for a in actions]
