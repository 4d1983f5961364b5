"""Palladium Revised records: the frozen dataclasses of the content tables and the catalogue
(spec §2, §3.6, §5.9, §13). No rules here and no imports from the rest of the rules package:
``content.py`` fills the tables and computes the derived numbers, ``catalogue.py`` reads the
data file; import these names from either of them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from pathlib import Path

__all__ = [
    "check_int", "ATTRIBUTES", "ATTRIBUTE_NAMES", "Attributes", "BONUS_FIELDS", "Bonuses",
    "G", "C", "M", "R", "FAR", "BANDS", "BAND_NAMES", "ZoneRadii", "DiceExpr", "WEAPON_KINDS",
    "Weapon", "Armour", "DATA", "DAMAGE_TYPES", "SCHOOLS", "RESOLVES", "SAVES", "HANDS",
    "START_POOLS", "Rider", "StackFormula", "SpellBuff", "Spell", "Defaults", "StatBlock",
    "Member", "SideSpec", "EncounterSpec", "Catalogue",
]


def check_int(value: object, what: str, lo: int | None = None) -> int:
    """``value`` if it is an integer (not a bool) >= ``lo``, else one clear ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what}: expected an integer, got {value!r}")
    if lo is not None and value < lo:
        raise ValueError(f"{what}: expected an integer >= {lo}, got {value}")
    return value


ATTRIBUTES: tuple[str, ...] = ("mi", "me", "ma", "ps", "pe", "pp", "pm", "pb")
ATTRIBUTE_NAMES = {"mi": "M.I.", "me": "M.E.", "ma": "M.A.", "ps": "P.S.", "pe": "P.E.",
                   "pp": "P.P.", "pm": "P.M.", "pb": "P.B."}


@dataclass(frozen=True, slots=True)
class Attributes:
    """The eight attributes (spec §2.1); ``None`` = the being has no score in it (R43)."""

    mi: int | None
    me: int | None
    ma: int | None
    ps: int | None
    pe: int | None
    pp: int | None
    pm: int | None
    pb: int | None

    def __post_init__(self) -> None:
        for name in ATTRIBUTES:
            value = getattr(self, name)
            if value is not None:
                check_int(value, f"attribute {ATTRIBUTE_NAMES[name]}", lo=0)

    @property
    def has_pe(self) -> bool:
        """False for a being without P.E.: no Stamina, no H.P. (spec §2.1, R43)."""
        return self.pe is not None

    @property
    def has_me(self) -> bool:
        """False for a being without M.E.: no Morale (spec §2.1)."""
        return self.me is not None



BONUS_FIELDS: tuple[str, ...] = ("init", "strike", "parry", "dodge", "maneuver", "damage",
                                 "spell_power", "taunt", "save_magic", "save_insanity",
                                 "save_coma_pct")


@dataclass(frozen=True, slots=True)
class Bonuses:
    """The flat combat bonuses of spec §2.3 (also used for a training package's part)."""

    init: int = 0
    strike: int = 0
    parry: int = 0
    dodge: int = 0
    maneuver: int = 0
    damage: int = 0
    spell_power: int = 0
    taunt: int = 0
    save_magic: int = 0
    save_insanity: int = 0
    save_coma_pct: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            check_int(getattr(self, f.name), f"bonus {f.name}")

    def __add__(self, other: Bonuses) -> Bonuses:
        return Bonuses(*(getattr(self, k) + getattr(other, k) for k in BONUS_FIELDS))

    def __sub__(self, other: Bonuses) -> Bonuses:
        return Bonuses(*(getattr(self, k) - getattr(other, k) for k in BONUS_FIELDS))

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in BONUS_FIELDS}



G, C, M, R, FAR = 1, 2, 3, 4, 5  # band indices (spec §2.5)
BANDS = {"G": G, "C": C, "M": M, "R": R}
BAND_NAMES = {G: "Grappling", C: "Close", M: "Medium", R: "Reach", FAR: "Far"}



@dataclass(frozen=True, slots=True)
class ZoneRadii:
    """The outer radius in feet of each Zone layer (spec §2.5)."""

    g: int
    c: int
    m: int
    r: int

    def radius(self, band: int) -> int:
        """``r_b`` for band 1..4 (a weapon of reach band b reaches ``r_b`` feet)."""
        if band not in (G, C, M, R):
            raise ValueError(f"band: expected 1..4, got {band!r}")
        return (self.g, self.c, self.m, self.r)[band - 1]

    def band(self, distance: int) -> int:
        """``band_X(d)``: 1 if d <= r_G ... 4 if d <= r_R, else 5 (spec §2.5)."""
        d = check_int(distance, "distance", lo=0)
        return next((b for b, r in enumerate((self.g, self.c, self.m, self.r), 1) if d <= r),
                    FAR)



@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A dice expression ``NdM``."""

    count: int
    sides: int

    @classmethod
    def parse(cls, text: object) -> DiceExpr:
        parts = text.lower().split("d") if isinstance(text, str) else []
        if len(parts) != 2 or not all(p.isdigit() for p in parts) \
                or int(parts[0]) < 1 or int(parts[1]) < 2:
            raise ValueError(f"expected dice like '1d8' or '2d6', got {text!r}")
        return cls(int(parts[0]), int(parts[1]))

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


WEAPON_KINDS = ("blunt", "edged", "piercing")


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon row (spec §2.6). Melee weapons have ``reach`` (a band 1..4); ranged ones
    ``inc`` x ``max_inc`` feet. ``ammo`` None: not counted (melee) or unlimited (bows)."""

    id: str
    damage: DiceExpr
    reach: int | None
    short: bool
    hands: int
    kind: str
    wounds: int
    cost: int
    ps: bool
    inc: int | None = None
    max_inc: int | None = None
    ammo: int | None = None

    @property
    def ranged(self) -> bool:
        return self.reach is None

    @property
    def max_range(self) -> int | None:
        """Longest shot in feet, ``inc x max_inc`` (None for melee weapons)."""
        return None if self.inc is None or self.max_inc is None else self.inc * self.max_inc

    def increment(self, distance: int) -> int:
        """``n_inc = max(1, ceil(d / inc))`` (spec §2.6); no penalty per increment (R45)."""
        if self.inc is None:
            raise ValueError(f"{self.id} is a melee weapon: it has no range increment")
        return max(1, -(-check_int(distance, "distance", lo=0) // self.inc))


@dataclass(frozen=True, slots=True)
class Armour:
    """Worn armour (spec §2.7, R12): AR and its own S.D.C."""

    id: str
    ar: int
    sdc: int



DATA = Path(__file__).resolve().parent.parent / "data"
DAMAGE_TYPES = ("physical", "fire", "cold", "water", "magic")  # spec §2.2 resist_pct, §5.9
SCHOOLS = ("evocation", "affliction", "restoration", "abjuration", "alteration")  # spec §5.9
RESOLVES = ("spell_strike", "save", "crit_only", "none")  # spec §5.9 steps 3-6
SAVES = ("magic", "insanity_stun")  # Save vs Magic; Save vs Insanity (Stun) (spec §1.4.3)
HANDS = ("right", "left")  # spec §2.2 primary_hand
START_POOLS = ("sdc", "hp", "stamina", "morale", "ee", "se", "de", "wounds", "armor_sdc")


@dataclass(frozen=True, slots=True)
class Rider:
    """The effect an Evocation hit adds (spec §5.9): Ignite, Numbing stacks, Soaked stacks."""

    ignite: bool = False
    numbing: int = 0
    soaked: int = 0


@dataclass(frozen=True, slots=True)
class StackFormula:
    """``base + floor(margin / per)`` stacks (spec §5.9 Stunning Hex, R29)."""

    base: int
    per: int

    @classmethod
    def parse(cls, text: object) -> StackFormula:
        words = str(text).replace(" ", "") if isinstance(text, str) else ""
        head, _, tail = words.partition("+floor(margin/")
        if not (head.isdigit() and tail.endswith(")") and tail[:-1].isdigit()
                and int(tail[:-1]) >= 1):
            raise ValueError(f"expected a formula like '1 + floor(margin/2)', got {text!r}")
        return cls(int(head), int(tail[:-1]))

    def stacks(self, margin: int) -> int:
        return self.base + max(0, margin) // self.per

    def __str__(self) -> str:
        return f"{self.base} + floor(margin/{self.per})"


@dataclass(frozen=True, slots=True)
class SpellBuff:
    """A buff a spell grants (spec §5.9 Ward: Damage Shield 10 for 15 s)."""

    name: str
    damage_shield: int
    duration_s: int


@dataclass(frozen=True, slots=True)
class Spell:
    """A DEFAULT spell (spec §5.9, R44). ``range`` is feet or ``"touch"`` (self or an ally
    within the caster's ``r_C``); ``resolve`` is spell_strike, save (``save`` names which),
    crit_only or none."""

    id: str
    school: str
    actions: int
    ee: int
    range: int | str
    resolve: str
    save: str | None
    damage: DiceExpr | None
    type: str | None
    rider: Rider
    armour_ignored: bool
    stunned: StackFormula | None
    heal: DiceExpr | None
    buff: SpellBuff | None

    @property
    def touch(self) -> bool:
        return self.range == "touch"

    @property
    def attack(self) -> bool:
        """Evocation and Affliction spells are attacks (spec §5.9 step 7)."""
        return self.school in ("evocation", "affliction")

    @property
    def crit_table(self) -> str | None:
        """The crit table a critical rolls on (spec §8.5), None if it cannot crit."""
        return {"spell_strike": "evocation", "save": "affliction",
                "crit_only": "healing"}.get(self.resolve)


@dataclass(frozen=True, slots=True)
class Defaults:
    """The ``defaults:`` section (spec §13.4)."""

    parry_mitigation_pct: int = 75  # R11
    crit_bonus_pct: int = 100  # R14
    crit_min: int = 20  # R14
    perception_pct: int = 30  # spec §2.2


@dataclass(frozen=True, slots=True)
class StatBlock:
    """A combatant template (spec §2.2, §13.2). ``training`` is the non-chart part of
    ``bonuses``; ``package`` the DEFAULT package it was built with, if named. The last group
    of fields is computed on load with ``content.py`` and ``geometry.py``: Zone radii, the
    weapon slots (listed weapons, then ``unarmed``, spec §12.4, R45), the Zone of Control, and
    the Full Move and Step budget with no movement modifiers (spec §2.5, §5.3)."""

    id: str
    name: str
    height_ft: Fraction
    level: int
    attributes: Attributes
    package: str | None
    training: Bonuses
    actions: int
    hp_base: int
    sdc_max: int
    stamina_max: int
    morale_max: int
    ee_max: int
    se_max: int
    de_max: int
    bonuses: Bonuses
    crit_min: int
    crit_bonus_pct: int
    parry_mitigation_pct: int
    dmg_mod_pct: int
    end_mod_pct: int
    armor: Armour
    weapons: tuple[Weapon, ...]
    primary_hand: str
    spells: tuple[Spell, ...]
    perception_pct: int
    resist_pct: tuple[tuple[str, int], ...]
    immune_physical_effects: bool
    radii: ZoneRadii
    weapon_slots: tuple[Weapon, ...]
    zoc_band: int
    zoc_radius: int
    full_move_ft: int
    step_budget: int

    @property
    def has_pe(self) -> bool:
        return self.attributes.has_pe

    @property
    def has_me(self) -> bool:
        return self.attributes.has_me

    @property
    def hp_max(self) -> int:
        """``hp_max`` starts equal to ``hp_base`` (spec §2.2)."""
        return self.hp_base

    @property
    def melee_weapons(self) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapon_slots if not w.ranged)

    @property
    def crit_range(self) -> range:
        """The natural d20 faces that are criticals, ``crit_min..20`` (spec §2.4)."""
        return range(self.crit_min, 21)

    def resist(self, damage_type: str) -> int:
        """Its resistance percent to a damage type (spec §2.2), 0 if none listed."""
        return dict(self.resist_pct).get(damage_type, 0)


@dataclass(frozen=True, slots=True)
class Member:
    """One combatant of an encounter: its id, template, side and battle-line position."""

    id: str
    block: StatBlock
    side: str
    x: int


@dataclass(frozen=True, slots=True)
class SideSpec:
    name: str
    members: tuple[Member, ...]


@dataclass(frozen=True, slots=True)
class EncounterSpec:
    """An encounter (spec §3.6, §13.3). ``start_overrides`` holds ``(member id, pool, value)``;
    ``ambush`` the ambushing side or None."""

    id: str
    arena_length: int
    max_rounds: int
    ambush: str | None
    sides: tuple[SideSpec, ...]
    start_overrides: tuple[tuple[str, str, int], ...] = ()

    @property
    def members(self) -> tuple[Member, ...]:
        """Every member in roster order (sides as listed, then members as listed, spec §3.4)."""
        return tuple(m for s in self.sides for m in s.members)

    def member(self, member_id: str) -> Member:
        for m in self.members:
            if m.id == member_id:
                return m
        raise KeyError(f"encounter {self.id} has no combatant {member_id!r}")


@dataclass(frozen=True, slots=True)
class Catalogue:
    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    spells: dict[str, Spell]
    defaults: Defaults
    stat_blocks: dict[str, StatBlock]
    encounters: dict[str, EncounterSpec]


