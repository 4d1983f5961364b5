"""Mano a Mano character sheets: templates, items, regions, stat blocks and the derived combat
values of spec §2.3 and §2.6 (the model ``catalogue.py`` loads).

A ``StatBlock`` stores only what a character sheet stores (attributes, abilities, qualities,
held / stowed / worn items); every derived combat value is computed with the formulas of spec §2.3
and the armor model of §2.6:

================  ================================================================================
natural weapon    power ``strength + leverage``; attack ``agility + natural_weapons + offense``;
                  defense ``10 + agility + natural_weapons``
hand weapon       power ``max(item power, wielding hand power)``; attack ``agility + ability +
                  control + offense + hand offense``; defense ``10 + agility + ability +
                  control``
bow / gun         attack ``marksmanship + control + offense`` (R20); power as listed
thrown            modifier ``throwing + agility``; quick range ``max(0, throwing + strength -
                  heft)`` m (R8)
melee defense     best defense of the usable weapons; ``10 + agility`` with none (R48)
missile defense   ``10 + agility``
grapple           attack ``grappling + agility + strength``; defense attack + 10; power best hand
                  (R16)
armor             best absorption of the regions; total cover, complete at 10 or more
================  ================================================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from . import rulings

DATA = Path(__file__).resolve().parent.parent / "data"
SHARPNESS = ("sharp", "blunt", "padded")
ITEM_KINDS = ("hand", "thrown", "bow", "gun", "armor")
ABILITIES = ("natural_weapons", "one_handed", "two_handed", "grappling", "throwing", "marksmanship",
             "acrobatics", "stealth", "detection", "climbing", "riding", "animal_handling",
             "driving", "navigation", "piloting", "tactics", "combat_engineering", "craftsmanship")
QUALITIES = ("inept", "unintelligent", "blind", "sudden_regeneration", "hourly_regeneration",
             "daily_regeneration", "perfect_regeneration", "mechanical", "parachuting", "flying",
             "gliding", "soaring", "deaf", "dumb", "mute", "no_natural_weapons",
             "single_natural_weapon")
SPEEDS = (Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3))
HELD_SLOTS = ("right", "left", "both")
SURPRISE_MODES = ("none", "side_A", "side_B", "roll")
MOUNT_KINDS = ("war",)  # spec §5.11: a trained war animal (untrained: rulings.NO_ANIMAL_HANDLING)

# spec §2.7: carrying capacity (kg) by strength 0..50
CARRYING_CAPACITY = (0, 1, 2, 5, 10, 15, 20, 30, 50, 65, 80, 100, 120, 150, 200, 250, 300, 400, 500,
                     600, 800, 1000, 1200, 1500, 1800, 2100, 2500, 3000, 4000, 5000, 6000, 7500,
                     9000, 10000, 12000, 15000, 20000, 25000, 30000, 35000, 40000, 45000, 50000,
                     55000, 60000, 65000, 70000, 75000, 80000, 90000, 100000)


@dataclass(frozen=True, slots=True)
class NaturalWeapon:
    name: str
    hand: bool
    leverage: int = 0
    offense: int = 0
    sharpness: str = "blunt"
    unlisted: bool = False


@dataclass(frozen=True, slots=True)
class Region:
    """One non-overlapping armor region (spec §2.6); ``cover`` is ``None`` when complete."""

    cover: int | None
    absorption: int

    @property
    def complete(self) -> bool:
        return self.cover is None


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    kind: str
    cp: int
    mass_kg: float
    ability: str | None = None
    heft: int = 0
    power: int = 0
    sharpness: str = "blunt"
    control: int = 0
    offense: int = 0
    two_handed: bool = False
    throwable: bool = False
    range_m: int = 0
    shots: tuple[int, int] | None = None
    hands_to_draw: int = 0
    cover: int | None = None
    absorption: int = 0
    source: str = "seed"
    reload: str | None = None
    """guns: ``"clip"`` or ``"round"`` (spec §5.6, RULING R50; see guns.gun_reload)"""

    @property
    def missile(self) -> bool:
        return self.kind in ("bow", "gun")


@dataclass(frozen=True, slots=True)
class Template:
    id: str
    mass_kg: float
    length_m: float
    cp: int
    speed: Fraction
    agility: int
    strength: int
    toughness: int
    running: int
    abilities: dict[str, int]
    qualities: frozenset[str]
    natural_weapons: tuple[NaturalWeapon, ...]
    natural_armor: tuple[Region, ...]


@dataclass(frozen=True, slots=True)
class Worn:
    """A worn armor piece as fitted to its wearer (mass and numbers may differ from the list)."""

    item: str
    mass_kg: float
    region: Region
    inside: str | None = None
    """the worn piece this one lies entirely within (layering, spec §2.6)"""


@dataclass(frozen=True, slots=True)
class WeaponStats:
    """Derived numbers of one weapon in one character's hands (spec §2.3)."""

    name: str
    power: int
    attack: int
    defense: int | None
    sharpness: str
    unwieldy: bool = False
    throw_modifier: int | None = None
    quick_throw_range_m: int | None = None
    range_m: int = 0
    can_draw: bool | None = None


_MEMO: dict[int, tuple[Any, dict[Any, Any]]] = {}


def block_memo(block: Any) -> dict[Any, Any]:
    """The derived values already computed for a frozen stat block (the sheet never changes, so
    they never go stale), kept here, outside the block: keyed by the block's identity, the block
    kept alive with them so that identity is never reused."""
    entry = _MEMO.get(id(block))
    if entry is None or entry[0] is not block:
        if len(_MEMO) > 4096:  # many edited blocks in one process (tests, balance sweeps)
            _MEMO.clear()
        entry = _MEMO[id(block)] = (block, {})
    return entry[1]


@dataclass(frozen=True)
class StatBlock:
    """A combatant's sheet (spec §13); derived values are computed, never stored."""

    id: str
    name: str
    template: Template
    cp: int
    mass_kg: float
    speed: Fraction
    agility: int
    strength: int
    toughness: int
    running: int
    abilities: dict[str, int]
    qualities: frozenset[str]
    held: dict[str, str]
    stowed: tuple[str, ...]
    armor: tuple[Worn, ...]
    bow_drawn: bool = False
    source: str = "seed"
    items: dict[str, Item] = field(default_factory=dict, repr=False)
    mount: str | None = None
    """``"war"``: an animal that can be ridden and fights on its own (spec §5.11); else ``None``"""

    # ---- attributes
    @property
    def stamina(self) -> int:
        return 2 * self.toughness

    def ability(self, name: str) -> int:
        return self.abilities.get(name, 0)

    @property
    def natural_weapons(self) -> tuple[NaturalWeapon, ...]:
        return self.template.natural_weapons

    def hand_power(self, slot: str) -> int:
        """Power of the hand(s) in ``slot`` (right / left / both): strength + leverage."""
        hands = [w for w in self.natural_weapons if w.hand]
        names = {"right": ("right",), "left": ("left",), "both": ("right", "left")}[slot]
        chosen = [w for w in hands if any(w.name.startswith(n) for n in names)] or hands
        return self.strength + max((w.leverage for w in chosen), default=0)

    def hand_offense(self, slot: str) -> int:
        hands = [w for w in self.natural_weapons if w.hand]
        names = {"right": ("right",), "left": ("left",), "both": ("right", "left")}[slot]
        chosen = [w for w in hands if any(w.name.startswith(n) for n in names)] or hands
        return max((w.offense for w in chosen), default=0)

    # ---- weapons
    def free_natural_weapons(self, held: dict[str, str] | None = None) -> list[NaturalWeapon]:
        """Natural weapons not occupied by held items (a held item occupies its hand(s)); ``held``
        defaults to the sheet's."""
        slots = tuple(sorted(self.held if held is None else held))
        key = ("free", slots)
        found = block_memo(self).get(key)
        if found is None:
            busy: set[str] = set()
            for slot in slots:
                busy.update(
                    {"right": ("right",), "left": ("left",), "both": ("right", "left")}[slot]
                )
            found = block_memo(self)[key] = tuple(
                w
                for w in self.natural_weapons
                if not (w.hand and any(w.name.startswith(b) for b in busy))
            )
        return list(found)

    def natural_stats(self, weapon: NaturalWeapon) -> WeaponStats:
        key = ("natural", weapon.name)
        found = block_memo(self).get(key)
        if found is None:
            power = self.strength + weapon.leverage if self.strength > 0 else 0
            skill = self.ability("natural_weapons")
            found = block_memo(self)[key] = WeaponStats(
                weapon.name,
                power,
                self.agility + skill + weapon.offense,
                10 + self.agility + skill,
                weapon.sharpness,
            )
        return found

    def best_natural(self, held: dict[str, str] | None = None) -> WeaponStats | None:
        """The best usable natural weapon (power, then attack)."""
        stats = [self.natural_stats(w) for w in self.free_natural_weapons(held)]
        return max(stats, key=lambda s: (s.power, s.attack, s.defense or 0), default=None)

    def item_stats(self, item_id: str, slot: str | None = None) -> WeaponStats:
        """Derived numbers of ``item_id`` held in ``slot`` (default: where it is held, else the
        right hand)."""
        it = self.items[item_id]
        if slot is None:
            slot = next(
                (s for s, i in self.held.items() if i == item_id),
                "both" if it.two_handed else "right",
            )
        key = ("item", item_id, slot)
        found = block_memo(self).get(key)
        if found is None:
            found = block_memo(self)[key] = self._item_stats(it, slot)
        return found

    def _item_stats(self, it: Item, slot: str) -> WeaponStats:
        hand_power = self.hand_power(slot)
        control, offense, heft = it.control, it.offense, Fraction(it.heft)
        if (
            it.two_handed and slot != "both"
        ):  # spec §2.3, RULING R34: one-handed use of a two-handed weapon
            if control == 0 and offense == 0:
                heft *= rulings.ONE_HANDED_HEFT_FACTOR
            control = offense = 0
        thrown: dict[str, Any] = {}
        if it.throwable:
            throwing = self.ability("throwing")
            thrown = {
                "throw_modifier": throwing + self.agility,
                "quick_throw_range_m": max(0, throwing + self.strength - it.heft),
            }  # spec §5.5, R8
        if it.missile:  # spec §2.3, RULING R20: agility is not added to bow and gun attacks
            return WeaponStats(
                it.id,
                it.power,
                self.ability("marksmanship") + control + offense,
                None,
                it.sharpness,
                unwieldy=heft > hand_power,
                range_m=it.range_m,
                can_draw=it.kind != "bow" or it.heft < 2 * self.strength,
            )
        skill = self.ability(it.ability or "one_handed")
        return WeaponStats(
            it.id,
            max(it.power, hand_power),
            self.agility + skill + control + offense + self.hand_offense(slot),
            10 + self.agility + skill + control,
            it.sharpness,
            unwieldy=heft > hand_power,
            range_m=it.range_m,
            **thrown,
        )

    def melee_defense(self, held: dict[str, str] | None = None) -> int:
        """Best defense of the usable weapons (spec §2.3); ``10 + agility`` with none
        (RULING R48)."""
        held = self.held if held is None else held
        key = ("melee_defense", tuple(sorted(held.items())))
        found = block_memo(self).get(key)
        if found is None:
            defenses = [self.natural_stats(w).defense for w in self.free_natural_weapons(held)]
            defenses += [
                self.item_stats(i, s).defense for s, i in held.items() if not self.items[i].missile
            ]
            found = block_memo(self)[key] = max(
                (d for d in defenses if d is not None), default=10 + self.agility
            )
        return found

    @property
    def missile_defense(self) -> int:
        return 10 + self.agility

    # ---- grappling
    @property
    def grapple_attack(self) -> int:
        return self.ability("grappling") + self.agility + self.strength

    @property
    def grapple_defense(self) -> int:
        return self.grapple_attack + 10

    @property
    def grapple_power(self) -> int:
        """Best hand; without hands, the best natural weapon (RULING R16)."""
        hands = [w for w in self.natural_weapons if w.hand]
        if hands:
            return self.strength + max(w.leverage for w in hands)
        return max((self.natural_stats(w).power for w in self.natural_weapons), default=0)

    def inept_penalty(self, *abilities: str) -> int:
        """-4 on a roll for which an inept character has none of ``abilities`` (spec §2.8)."""
        if "inept" in self.qualities and not any(self.ability(a) for a in abilities):
            return rulings.INEPT_PENALTY
        return 0

    @property
    def grapple_roll_modifier(self) -> int:
        return self.grapple_attack + self.inept_penalty("grappling")

    @property
    def balance_roll_modifier(self) -> int:
        """``max(grappling, acrobatics)``, -4 when inept with neither (spec §5.7.2)."""
        return max(self.ability("grappling"), self.ability("acrobatics")) + self.inept_penalty(
            "grappling", "acrobatics"
        )

    # ---- armor and load
    @property
    def regions(self) -> tuple[Region, ...]:
        """Natural armor plus worn pieces resolved into non-overlapping regions (spec §2.6)."""
        from .resolution import Piece, resolve_regions

        found = block_memo(self).get("regions")
        if found is None:
            pieces = [
                Piece(w.item, w.region.cover, w.region.absorption, w.inside) for w in self.armor
            ]
            found = block_memo(self)["regions"] = self.template.natural_armor + resolve_regions(
                pieces
            )
        return found

    @property
    def best_absorption(self) -> int:
        from .resolution import best_absorption

        found = block_memo(self).get("best_absorption")
        if found is None:
            found = block_memo(self)["best_absorption"] = best_absorption(self.regions)
        return found

    @property
    def total_cover(self) -> int | str:
        """Sum of the regions' cover, or ``"complete"`` (spec §2.6)."""
        from .resolution import total_cover

        found = block_memo(self).get("total_cover")
        if found is None:
            found = block_memo(self)["total_cover"] = total_cover(self.regions)
        return found

    @property
    def carrying_capacity_kg(self) -> int:
        return CARRYING_CAPACITY[min(self.strength, len(CARRYING_CAPACITY) - 1)]

    @property
    def carried_kg(self) -> float:
        """The sheet's held and stowed items plus worn armor (natural weapons and natural armor
        weigh nothing)."""
        return self.mass_with(self.held.values(), self.stowed)

    def mass_with(self, held: Iterable[str], stowed: Iterable[str]) -> float:
        """Carried mass in kg with these held and stowed items, plus worn armor (spec §2.7)."""
        mass = sum(self.items[i].mass_kg for i in (*held, *stowed))
        return mass + sum(w.mass_kg for w in self.armor)

    @property
    def encumbered(self) -> bool:
        """Encumbered with the sheet's items (a fighter's own ``encumbered`` follows what it
        carries)."""
        return self.encumbered_with(self.held.values(), self.stowed)

    def encumbered_with(self, held: Iterable[str], stowed: Iterable[str]) -> bool:
        """Carried mass above the carrying capacity (spec §2.7, §4.5, RULING R26)."""
        key = ("encumbered", tuple(sorted(held)), tuple(sorted(stowed)))
        found = block_memo(self).get(key)
        if found is None:
            found = block_memo(self)[key] = (
                self.mass_with(key[1], key[2]) > self.carrying_capacity_kg
            )
        return found


@dataclass(frozen=True, slots=True)
class EncounterDef:
    id: str
    sides: dict[str, tuple[str, ...]]
    placement: Any
    surprise_mode: str
    mounted: dict[str, str] = field(default_factory=dict)
    """rider -> mount at the start (spec §5.11; FULL rules only)"""


@dataclass(frozen=True)
class Catalogue:
    templates: dict[str, Template]
    items: dict[str, Item]
    stat_blocks: dict[str, StatBlock]
    encounters: dict[str, EncounterDef]
