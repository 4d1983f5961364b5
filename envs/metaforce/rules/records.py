"""Metaforce gear records (spec §2.7, §2.8, §5.5 to §5.8, §8.2 to §8.4, §13.4): frozen
dataclasses for weapons, spells, armour and defensive properties, and the name tables (damage
types, statuses, M-Powers) the loader checks against. ``gear.py`` reads them from YAML; the stat
block records are in ``sheet.py``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from . import content as C

__all__ = [
    "DATA", "DAMAGE_TYPES", "PHYSICAL", "RESISTANCE_KEYS", "WEAPON_KINDS", "StatusDef",
    "STATUSES", "default_status", "FREE_MPOWERS", "MPOWERS", "Penetration", "Reload", "Weapon",
    "Spell", "Armour", "SizeResistance", "Defences", "lookup",
]

DATA = Path(__file__).resolve().parent.parent / "data"

# spec §2.8: damage types; "physical" names the first three at once
DAMAGE_TYPES = ("blunt", "slashing", "piercing", "fire", "cold", "electric", "acid", "poison",
                "sonic", "magic", "holy")
PHYSICAL = ("blunt", "slashing", "piercing")
RESISTANCE_KEYS = (*DAMAGE_TYPES, "physical", "disease")  # status:<id> keys are also allowed
WEAPON_KINDS = ("melee", "thrown", "bow", "firearm", "natural")


@dataclass(frozen=True, slots=True)
class StatusDef:
    """A status a weapon, spell or Special Attack can inflict (spec §7.4, §7.5): the core whose
    Status Defence it targets, its save Attribute (None: cannot be saved), damage over time,
    and whether re-applications add (``lingers``, R-17)."""

    core: str
    save_attr: str | None
    dot: bool = False
    lingers: bool = False


STATUSES: Mapping[str, StatusDef] = {
    "poison": StatusDef("body", "end", dot=True),
    "burn": StatusDef("body", "end", dot=True),
    "bleed": StatusDef("body", "end", dot=True),
    "acid_burn": StatusDef("body", "end", dot=True, lingers=True),
    "stun": StatusDef("body", "end"),
    "knockback": StatusDef("reflex", None),  # cannot be saved [Seed]
    "grappled": StatusDef("reflex", "agi"),
    "slow": StatusDef("reflex", "agi"),
    "fear": StatusDef("mind", "cha"),
    "charm": StatusDef("mind", "cha"),
    "sleep": StatusDef("mind", "cha"),
    "deafened": StatusDef("body", "end"),
}

# spec §2.7, R-16: the status a weapon's Special Attack inflicts, by damage type
_STATUS_BY_TYPE = {"blunt": "knockback", "slashing": "bleed", "piercing": "bleed",
                   "fire": "burn", "cold": "slow", "electric": "stun", "acid": "acid_burn",
                   "poison": "poison", "sonic": "deafened"}


def default_status(damage_type: str) -> str | None:
    """R-16: the status "appropriate to the weapon" (None for magic and holy)."""
    return _STATUS_BY_TYPE.get(damage_type)


# spec §6.4: always equipped (no slot), then the selectable ones
FREE_MPOWERS = ("create_meta_die", "deus_ex")
MPOWERS = ("safe6_assurance8", "action8_react4", "finishing_touch", "magic_effect",
           "hype_effect", "fudge_nudge", "force_fate", "crash_out", "initiative_link",
           "team_work")


@dataclass(frozen=True, slots=True)
class Penetration:
    """spec §8.2.2: a fixed number, or a die (ordinary or Meta) rolled once per attack."""

    flat: int = 0
    sides: int = 0
    meta: bool = False

    @classmethod
    def parse(cls, value: Any) -> Penetration:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return cls(flat=value)
        text = str(value).strip().lower()
        meta = text.startswith("md")
        body = text[2:] if meta else text[1:] if text.startswith("d") else ""
        if body.isdigit() and (int(body) in C.META_MINIMUM if meta else int(body) >= 2):
            return cls(sides=int(body), meta=meta)
        raise ValueError(f"expected a number >= 0, dN or mdN, got {value!r}")

    def __str__(self) -> str:
        return str(self.flat) if not self.sides else f"{'md' if self.meta else 'd'}{self.sides}"


@dataclass(frozen=True, slots=True)
class Reload:
    """spec §5.6: ``per_frame`` rounds per Reload frame, or None for ``all`` (a magazine)."""

    per_frame: int | None


@dataclass(frozen=True, slots=True)
class Weapon:
    """One attack a combatant can make (spec §2.7, §5.5, §5.6, §13.5). ``tohit`` is the flat
    attack bonus, ``damage_base`` includes flat damage components, ``bonus_die`` is the sides of
    the bonus die (0: none), ``magnitude_bonus`` the Metaphor rank plus magnitude components.
    Firearms: ``trigger_limit`` shots a frame (``auto``: Auto X, R-35), ``capacity``,
    ``chamber_plus_one``, ``reload``, ``speedloaders``, reserves, ``armour_piercing``."""

    id: str
    name: str
    kind: str  # melee, thrown, bow, firearm, natural; "spell" for a CORE cantrip
    hands: int
    attr: str
    tohit: int
    equipment: int
    damage_base: int
    bonus_die: int
    damage_type: str
    reach_ft: int | None
    range_increment_ft: int | None
    thrown_ft: int | None
    range_ft: int | None
    special_status: str | None
    magnitude_bonus: int
    size_multiplier: int | None = None
    trigger_limit: int | None = None
    auto: bool = False
    capacity: int | None = None
    chamber_plus_one: bool = False
    reload: Reload | None = None
    speedloaders: int = 0
    reserve_rounds: int = 0
    reserve_magazines: int = 0
    armour_piercing: bool = False
    penetration: Penetration | None = None
    ignores_evasion: bool = False  # Magic Missile (§13.4)
    appendages: tuple[str, ...] = ()  # spec §4.4 (FULL): the limbs it occupies (tail, legs...)
    sweep: bool = False  # spec §4.4, WE-38 (FULL): it attacks every foe within its reach
    size_ranks: int = 0  # spec §8.4 (FULL): damage treated as N Sizes larger against bigger foes
    size_ranks_direct: bool = False  # ... only once the hit beats Deflection (a direct hit)

    @property
    def type(self) -> str:
        """The §13.5 name of ``kind``."""
        return self.kind

    @property
    def reload_mode(self) -> str | dict[str, int] | None:
        """The §13.5 form of ``reload``: ``"all"``, ``{"per_frame": n}`` or None."""
        if self.reload is None:
            return None
        return "all" if self.reload.per_frame is None else {"per_frame": self.reload.per_frame}

    @property
    def firearm(self) -> bool:
        return self.kind == "firearm"

    @property
    def bypasses_deflection(self) -> bool:
        """spec §5.3.3, §5.5: firearm projectiles skip Deflection (ToHit >= E is direct)."""
        return self.firearm

    @property
    def ranged(self) -> bool:
        return self.range_increment_ft is not None or self.range_ft is not None

    @property
    def max_range_ft(self) -> int | None:
        """R-30: 3 range increments; else the fixed range; else the reach."""
        if self.range_increment_ft is not None:
            return 3 * self.range_increment_ft
        return self.range_ft if self.range_ft is not None else self.reach_ft


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell (spec §5.8, §13.4). ``tohit`` and ``magnitude_bonus`` belong to a caster (None and
    0 on a template); ``resolution``: attack vs E/D, ignores_evasion (Magic Missile), ward or
    heal."""

    id: str
    name: str
    level: int  # 0: cantrip
    frames: int
    exert: int
    resolution: str
    tohit: int | None
    damage_base: int | None
    bonus_die: int
    damage_type: str | None
    reach_ft: int | None
    range_increment_ft: int | None
    range_ft: int | None
    area_radius_ft: int | None
    special_status: str | None
    magnitude_bonus: int
    concentration: str | None = None  # spec §7.9 (FULL): loose | unbroken (Ward: loose)
    tension: int | None = None  # spec §7.7 (FULL): a channelled spell's Tension before reductions

    @property
    def tapped_exert(self) -> int:
        """spec §5.8: Level L with Tapped Mana costs L Exert (cantrips 0)."""
        return self.level

    @property
    def tapped_frames(self) -> int:
        """spec §5.8: max(1, L - 1) frames with Tapped Mana."""
        return max(1, self.level - 1) if self.level else self.frames

    @property
    def core_attack(self) -> bool:
        """R-58: a single-target damaging cantrip with a ToHit, used as a weapon in CORE."""
        return (self.level == 0 and self.tohit is not None and self.area_radius_ft is None
                and self.damage_base is not None)

    def fields(self) -> dict[str, Any]:
        """The template fields in YAML form (what a caster's copy may omit, §13.4)."""
        keys = ("name", "level", "frames", "exert", "resolution", "damage_base", "bonus_die",
                "damage_type", "reach_ft", "range_increment_ft", "range_ft", "area_radius_ft",
                "special_status", "concentration")
        return {k: getattr(self, k) for k in keys if getattr(self, k) is not None}

    def as_weapon(self, casting_attr: str) -> Weapon:
        """R-58: the cantrip as a weapon (one frame, no Exert, a Reaction Attack too)."""
        assert self.core_attack and self.tohit is not None and self.damage_base is not None
        return Weapon(self.id, self.name, "spell", 0, casting_attr, self.tohit, 0,
                      self.damage_base, self.bonus_die, self.damage_type or "magic",
                      self.reach_ft, self.range_increment_ft, None, self.range_ft,
                      self.special_status, self.magnitude_bonus,
                      ignores_evasion=self.resolution == "ignores_evasion")


@dataclass(frozen=True, slots=True)
class Armour:
    """spec §2.8: a Deflection bonus, Resistance X by type, ``bullet_resistant`` (R-31), and
    the hands it occupies (a shield: 1)."""

    name: str
    deflection_bonus: int
    resistance: Mapping[str, int]
    bullet_resistant: bool
    hands: int = 0


@dataclass(frozen=True, slots=True)
class SizeResistance:
    """spec §8.4: ``sources`` of Size/Crush Resistance (the first halves the attacker's Size,
    rounding down; each further one halves again, rounding up), then Reduction X Sizes."""

    sources: int = 1
    reduction: int = 0

    def attacker_size(self, attacker: Fraction, defender: Fraction) -> Fraction:
        """The attacker's Size used for ``m_a`` against this defender (larger attackers only):
        at least ``max(1, defender)``, at most the attacker's real Size."""
        if attacker <= defender:
            return attacker
        s = Fraction(int(attacker) // 2) if self.sources else attacker
        for _ in range(self.sources - 1):
            s = Fraction(-(-s.numerator // (2 * s.denominator)))
        s -= self.reduction
        return min(attacker, max(Fraction(1), defender, s))


@dataclass(frozen=True, slots=True)
class Defences:
    """Innate defensive properties by damage type or ``status:<id>`` (spec §2.8, §8.2):
    Resistance X (0: plain, halving), Immunity X, Absorb X, Weakness X, and Size Resistance."""

    resistance: Mapping[str, int] = field(default_factory=dict)
    immunity: Mapping[str, int] = field(default_factory=dict)
    absorb: Mapping[str, int] = field(default_factory=dict)
    weakness: Mapping[str, int] = field(default_factory=dict)
    size_resistance: SizeResistance | None = None


def lookup(table: Mapping[str, int], key: str) -> int | None:
    """The highest value for ``key``, counting ``physical`` for the physical types (§8.2.2)."""
    found = [table[k] for k in (key, "physical" if key in PHYSICAL else "") if k in table]
    return max(found) if found else None
