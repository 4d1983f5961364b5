"""Sizebound's sheet model: the records the catalogue is made of (spec §2.3, §2.5, §5.3, §13).

``Weapon``, ``Armour``, ``Skill``, ``StatBlock`` (with its derived values, computed by
``content``), ``Placement`` and ``EncounterSpec``; all frozen. They are read from data by
``catalogue.py``, which re-exports every name here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from envs.core.squaregrid import Cell, SquareGrid

from . import content as C
from .content import SizeRow
from .geometry import Body

__all__ = [
    "DATA", "WEAPON_STATS", "SKILL_STATS", "DAMAGE_TYPES", "TERTIARY_TYPES", "TAGS",
    "TAG_IMMUNITIES", "MAX_EXTRA_IMMUNITIES", "HAND_SLOTS", "EXERTION_POOLS",
    "DAMAGE_ROLL_MODES", "ACTION_LETTERS", "RESOLVES", "AREA_SHAPES", "CRIT_LOWEST",
    "DERIVED_KEYS", "Roll", "Weapon", "Armour", "Area", "ConditionEffect", "Skill", "DamageMods",
    "Loadout", "Defaults", "StatBlock", "Placement", "SideSpec", "EncounterSpec", "Catalogue",
]

DATA = Path(__file__).resolve().parent.parent / "data"
WEAPON_STATS = ("might", "skill", "best_might_skill", "magic")  # §2.5; best: the higher, R-49
SKILL_STATS = (*WEAPON_STATS, "none")
DAMAGE_TYPES = (  # spec §8.3
    "Piercing", "Slashing", "Bludgeoning", "Fall", "Earth", "Crushing", "Water", "Cold", "Fire",
    "Solar", "Lightning", "Magma", "Acid", "Poison", "Bleed", "Sonic", "Divine", "Unholy",
    "Necrotic", "True", "Arcane", "Psychic", "Bronze", "Iron", "Silver", "Lead")
TERTIARY_TYPES = frozenset({"Earth", "Crushing", "Water", "Psychic", "Bronze", "Iron", "Silver",
                            "Lead"})  # spec §8.3 ("Tertiary, or ... when alone" included)
TAGS = ("animal", "humanoid", "undead", "vile", "fae", "shifter", "magical", "spectral",
        "inanimate", "no_blood", "no_breath", "no_heart", "slither",  # spec §2.7, §13.4
        "darkvision")  # RULING: sees in the dark (spec §3.2 Darkness, FULL)
TAG_IMMUNITIES = {"undead": {"Necrotic"}, "inanimate": {"Divine", "Unholy", "Necrotic", "Arcane"},
                  "no_blood": {"Poison", "Bleed"}, "animal": {"Psychic"}}
"""spec §2.7, §8.3: the types a creature type cannot take (no blood: Poison and Bleed; an
animal is not intelligent, so no Psychic, §8.3, §13); they do not count against the two
immunities a stat block may add"""
MAX_EXTRA_IMMUNITIES = 2  # spec §2.7
HAND_SLOTS = ("main", "off", "both")
EXERTION_POOLS = ("player", "host")
DAMAGE_ROLL_MODES = ("roll", "average")
ACTION_LETTERS = ("P", "D", "M", "B")
RESOLVES = ("attack_roll", "area", "heal", "area_end_of_turn", "automatic")  # §5.3
AREA_SHAPES = ("aoe", "self_aoe", "line", "cone")  # §8.7
CRIT_LOWEST = (20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 8, 6, 2)  # §2.5 Critical Chances
DERIVED_KEYS = {  # expected_derived key -> StatBlock attribute (§13.4)
    "max_hp": "max_hp", "pnr": "pnr", "max_mana": "max_mana", "defense": "defense",
    "hit_mod": "hit_mod", "dodge_mod": "dodge_mod", "athletics": "athletics",
    "nimble": "nimble", "arcana": "arcana", "mr": "mr", "reactions": "base_reactions",
    "exertion": "exertion_max", "block_guard": "block_guard", "total_attacks": "total_attacks",
    "walk": "walk", "hp_scaling": "hp_scaling", "mana_scaling": "mana_scaling"}


@dataclass(frozen=True, slots=True)
class Roll:
    """A dice expression ``NdM`` (``count`` dice of ``sides`` faces)."""

    count: int
    sides: int

    @classmethod
    def parse(cls, text: object) -> Roll:
        parts = str(text).lower().split("d") if isinstance(text, str) else []
        if len(parts) != 2 or not all(p.isdigit() for p in parts) \
                or int(parts[0]) < 1 or int(parts[1]) < 2:
            raise ValueError(f"expected dice like '1d8' or '2d6', got {text!r}")
        return cls(int(parts[0]), int(parts[1]))

    @property
    def minimum(self) -> int:  # what Resistance leaves (§8.4)
        return self.count

    @property
    def maximum(self) -> int:  # what Vulnerability gives (§8.4)
        return self.count * self.sides

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon of the DEFAULT table (spec §2.5, R-04). Melee weapons have a ``reach``; bows and
    thrown weapons a ``range``; a melee weapon with a ``thrown`` range may also be thrown."""

    id: str
    name: str
    type: str  # Sword, Pole, Axe, Hammer, Unarmed, Crescent, Shield, Bow, Thrown
    hands: int
    dice: Roll
    stat: str  # one of WEAPON_STATS
    dtype: tuple[str, ...]
    reach: int | None
    thrown: int | None
    range: int | None
    weapon_attacks: int
    guard: int
    crit: frozenset[int]  # natural faces that crit; empty: never
    natural: bool = False

    @property
    def melee(self) -> bool:
        return self.reach is not None


@dataclass(frozen=True, slots=True)
class Armour:
    """An armour of the DEFAULT table (spec §2.5, R-05, R-06)."""

    id: str
    guard_bonus: int
    dodge_bonus: int

    @property
    def armoured(self) -> bool:
        return self.id != "none"


@dataclass(frozen=True, slots=True)
class Area:
    shape: str  # aoe | self_aoe | line | cone (§8.7)
    size: int
    width: int = 1  # a Line's width W (§8.7: "W cells wide (default 1)", WE-18)


@dataclass(frozen=True, slots=True)
class ConditionEffect:
    """A condition a skill applies: ``value`` (e.g. Unnerved -3), ``duration`` (a named edge such
    as ``end_of_target_next_turn``) or ``duration_rounds`` (R-22)."""

    condition: str
    value: int | None = None
    duration: str | None = None
    duration_rounds: int | None = None


@dataclass(frozen=True, slots=True)
class Skill:
    """A skill of the DEFAULT pack (spec §5.3, R-50). ``cost_attacks`` general attacks and/or the
    ``cost_actions`` (P/D/M/B); ``range`` to a target or an area centre (None: self)."""

    id: str
    magical: bool
    cost_attacks: int
    cost_actions: tuple[str, ...]
    concentration: bool
    mana: int
    resolve: str
    range: int | None = None
    self_ok: bool = False
    area: Area | None = None
    radius: int | None = None
    dice: Roll | None = None
    stat: str = "none"
    dtype: tuple[str, ...] = ()
    crit: frozenset[int] = frozenset()
    excludes_self: bool = False
    enemies_only: bool = False
    requires_size_at_least: SizeRow | None = None
    requires_hearing: bool = False
    uses_per_encounter: int | None = None
    on_damage: ConditionEffect | None = None
    apply: ConditionEffect | None = None


@dataclass(frozen=True, slots=True)
class DamageMods:
    """Resistances, Vulnerabilities, Immunities and Absorption percentages (spec §8.4)."""

    resist: frozenset[str] = frozenset()
    vulnerable: frozenset[str] = frozenset()
    immune: frozenset[str] = frozenset()
    absorb: tuple[tuple[str, int], ...] = ()  # (type, percent)


@dataclass(frozen=True, slots=True)
class Loadout:
    """Weapons in hand: ``main`` and/or ``off``, or one two-handed weapon in ``both``."""

    main: Weapon | None = None
    off: Weapon | None = None
    both: Weapon | None = None

    @property
    def weapons(self) -> tuple[Weapon, ...]:
        """In R-78 order: the main-hand (or two-handed) weapon, then the off-hand one."""
        return tuple(w for w in (self.both, self.main, self.off) if w is not None)

    def slots(self) -> dict[str, str]:
        """``{slot: weapon id}`` (the file's form)."""
        return {s: w.id for s in HAND_SLOTS if (w := getattr(self, s)) is not None}

    @property
    def hands_used(self) -> int:
        return (2 if self.both else 0) + (self.main is not None) + (self.off is not None)


@dataclass(frozen=True, slots=True)
class Defaults:
    walk: int = 5
    attacks: int = 1
    mana_scaling: int = 6
    hands: int = 2


@dataclass(frozen=True, slots=True)
class StatBlock:
    """One combatant's sheet (spec §2.3, §13); every derived value is computed by ``content``.

    Modifiers are ``might``, ``skill``, ``magic``; Totals ``total_might``... (R-02)."""

    id: str
    name: str
    size: SizeRow
    level: int
    total_might: int
    total_skill: int
    total_magic: int
    hp_improvements: int
    mana_improvements: int
    armour: Armour
    wielded: Loadout
    stowed: tuple[Weapon, ...] = ()
    natural_weapons: tuple[Weapon, ...] = ()
    alternate_loadout: Loadout | None = None
    skills: tuple[Skill, ...] = ()
    tags: frozenset[str] = frozenset()
    damage_mods: DamageMods = DamageMods()
    exertion_pool: str = "player"
    damage_roll_mode: str = "roll"
    attacks: int = 1
    walk: int = 5
    hands: int = 2
    base_mana_scaling: int = 6  # the file's ``mana_scaling``: before improvements (§2.3)

    @property
    def sn(self) -> int:
        return self.size.sn

    @property
    def footprint(self) -> Fraction:
        return self.size.footprint

    @property
    def might(self) -> int:
        return C.modifier(self.total_might)

    @property
    def skill(self) -> int:
        return C.modifier(self.total_skill)

    @property
    def magic(self) -> int:
        return C.modifier(self.total_magic)

    @property
    def hp_scaling(self) -> int:
        return C.hp_scaling(self.sn, self.hp_improvements)

    @property
    def mana_scaling(self) -> int:
        return C.mana_scaling(self.mana_improvements, self.base_mana_scaling)

    @property
    def max_hp(self) -> int:
        return C.max_hp(self.hp_scaling, self.level)

    @property
    def pnr(self) -> int:
        return C.pnr(self.level)

    @property
    def max_mana(self) -> int:
        return C.max_mana(self.mana_scaling, self.level)

    @property
    def athletics(self) -> int:
        return C.athletics(self.might, self.attacks, self.sn)

    @property
    def nimble(self) -> int:
        return C.nimble(self.skill, self.attacks, self.sn)

    @property
    def arcana(self) -> int:
        return C.arcana(self.magic, self.mana_scaling)

    @property
    def mr(self) -> int:
        return C.movement_resistance(self.sn)

    @property
    def inventory(self) -> int:
        return C.inventory(self.total_might, self.sn)

    @property
    def defense(self) -> int:
        return C.defense(self.level)

    @property
    def hit_mod(self) -> int:
        return C.hit_bonus(self.level, self.attacks)

    @property
    def dodge_mod(self) -> int:
        return C.dodge_bonus(self.level, self.armour.dodge_bonus)

    @property
    def base_reactions(self) -> int:
        return C.base_reactions(self.level)

    @property
    def exertion_max(self) -> int:
        return C.exertion_max(self.level)

    @property
    def skill_points(self) -> int:
        return C.skill_points(self.level)

    @property
    def armoured(self) -> bool:
        return self.armour.armoured

    @property
    def weapons(self) -> tuple[Weapon, ...]:
        """The weapons it attacks with now: wielded (main or two-handed, off), then natural, in
        R-78 order; the always-available unarmed strike is not listed (R-49)."""
        return self.wielded.weapons + self.natural_weapons

    @property
    def weapon_attacks(self) -> int:
        return sum(w.weapon_attacks for w in self.weapons)

    @property
    def total_attacks(self) -> int:
        return C.total_attacks(self.attacks, (w.weapon_attacks for w in self.weapons))

    @property
    def block_guard(self) -> int:
        """Highest Guard among the wielded weapons + the armour's bonus (R-09, R-05)."""
        return C.block_guard((w.guard for w in self.weapons), self.armour.guard_bonus)

    def stat_mod(self, stat: str) -> int:
        """The modifier a weapon's or skill's ``stat`` adds (``best_might_skill``: the higher of
        Might and Skill; ``none``: 0)."""
        if stat == "best_might_skill":
            return max(self.might, self.skill)
        if stat == "none":
            return 0
        if stat not in ("might", "skill", "magic"):
            raise ValueError(f"unknown stat {stat!r}; expected one of {', '.join(SKILL_STATS)}")
        return int(getattr(self, stat))

    def weapon(self, weapon_id: str) -> Weapon | None:
        """A weapon it wields, carries stowed or has by nature, by id."""
        for w in self.weapons + self.stowed:
            if w.id == weapon_id:
                return w
        return None

    def has_skill(self, skill_id: str) -> bool:
        return any(s.id == skill_id for s in self.skills)


@dataclass(frozen=True, slots=True)
class Placement:
    """One combatant of an encounter: its unique ``id`` in the fight, its stat ``block``, its
    ``side`` and its ``anchor`` cell (§3.3)."""

    id: str
    block: StatBlock
    side: str
    anchor: Cell

    @property
    def body(self) -> Body:
        return Body(self.id, self.side, self.anchor, self.block.footprint)


@dataclass(frozen=True, slots=True)
class SideSpec:
    name: str
    members: tuple[Placement, ...]


@dataclass(frozen=True, slots=True)
class EncounterSpec:
    """A ready encounter (spec §13.3): ``sides`` in turn order (``first_side`` first, §3.4), a
    ``width`` x ``height`` map with ``walls`` and ``difficult`` cells (§3.2)."""

    id: str
    sides: tuple[SideSpec, ...]
    width: int
    height: int
    walls: frozenset[Cell]
    difficult: frozenset[Cell]
    first_side: str

    @property
    def side_order(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.sides)

    @property
    def placements(self) -> tuple[Placement, ...]:
        return tuple(p for s in self.sides for p in s.members)

    def lineup(self) -> list[tuple[str, str, StatBlock]]:
        """``(id, side, stat block)`` in roster order (sides in order, members as listed)."""
        return [(p.id, p.side, p.block) for p in self.placements]

    def grid(self) -> SquareGrid:
        return SquareGrid(self.width, self.height, self.walls, self.difficult)


@dataclass(frozen=True, slots=True)
class Catalogue:
    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    skills: dict[str, Skill]
    stat_blocks: dict[str, StatBlock]
    encounters: dict[str, EncounterSpec]
    defaults: Defaults
