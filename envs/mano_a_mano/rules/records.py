"""Mano a Mano's sheet records (spec §2.3, §2.6, §13): the vocabularies (abilities, qualities,
speeds, item kinds), the carrying capacity table of spec §2.7, and the frozen records a catalogue
holds besides stat blocks: natural weapons, armor regions, items, templates, worn pieces, derived
weapon numbers and encounter definitions. ``sheet.py`` computes with them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

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


@dataclass(frozen=True, slots=True)
class EncounterDef:
    id: str
    sides: dict[str, tuple[str, ...]]
    placement: Any
    surprise_mode: str
    mounted: dict[str, str] = field(default_factory=dict)
    """rider -> mount at the start (spec §5.11; FULL rules only)"""
