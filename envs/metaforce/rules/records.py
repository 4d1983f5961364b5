"""Metaforce catalogue records (spec §2.6 to §2.10, §5.5 to §5.8, §8.2 to §8.4, §13): frozen
dataclasses for weapons, spells, armour, defensive properties, Metaphors, stat blocks and
encounter presets, and the name tables the loader checks against. ``catalogue.py`` reads them
from YAML; the derived numbers come from ``content.py``."""

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
    "Spell", "Armour", "Component", "Metaphor", "SizeResistance", "Defences", "Grapple",
    "Derived", "StatBlock", "Member", "EncounterSpec", "Catalogue",
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


def default_status(damage_type: str, kind: str = "melee") -> str | None:
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
                "special_status")
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
class Component:
    """A Metaphor component (spec §2.6, R-11): +rank to ``adds`` (damage, magnitude), an
    ``optimise`` of ``activity``, a ``tension`` reduction, or ``other``."""

    name: str
    rank: int
    adds: str
    activity: str | None = None

    @property
    def die(self) -> C.RankDie | None:
        """The component's die by rank (§2.3.3)."""
        return C.rank_die(self.rank)


@dataclass(frozen=True, slots=True)
class Metaphor:
    """spec §2.6, R-11 to R-13. ``covers``: weapon ids (or ``spells``, ``grapple``) a combat
    Metaphor adds its rank to; ``core``: the Status Defence a defensive one adds to."""

    name: str
    rank: int
    kind: str  # combat, status_defence, noncombat
    covers: tuple[str, ...] = ()
    components: tuple[Component, ...] = ()
    core: str | None = None
    reaction_evasion_bonus: int = 0  # Dodge as a Reaction
    casting_attr: str | None = None
    grants_firearm_proficiency: bool = False

    def adds(self, what: str) -> int:
        return sum(c.rank for c in self.components if c.adds == what)


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


def _lookup(table: Mapping[str, int], key: str) -> int | None:
    """The highest value for ``key``, counting ``physical`` for the physical types (§8.2.2)."""
    found = [table[k] for k in (key, "physical" if key in PHYSICAL else "") if k in table]
    return max(found) if found else None


@dataclass(frozen=True, slots=True)
class Grapple:
    attr: str
    bonus: int


@dataclass(frozen=True, slots=True)
class Derived:
    """The §2.5 statistics of a stat block under one set of parameters."""

    cores: Mapping[str, int]
    hp_max: int
    mp_max: int
    evasion: int
    deflection: int
    status_defence: Mapping[str, int]
    exert_threshold: int
    exert_limit: int
    speed_ft: int
    space_squares: int
    reach_ft: int
    initiative_bonus: int
    mpower_slots: int
    immobile: tuple[int, int]  # (E, D) when Immobilised or Incapacitated

    def listed(self) -> dict[str, Any]:
        """The values under their §13.5 keys, as YAML reads them."""
        keys = ("hp_max", "mp_max", "evasion", "deflection", "exert_threshold", "speed_ft",
                "space_squares", "reach_ft", "initiative_bonus")
        return {"cores": dict(self.cores), "status_defence": dict(self.status_defence),
                **{k: getattr(self, k) for k in keys}}


@dataclass(frozen=True, slots=True)
class StatBlock:
    """A combatant (spec §2, §13.5). ``attributes`` by id; ``proficient``/``expertise`` sets of
    Attributes; ``base_hp``/``hplv``/``base_speed_ft`` the creature's own (race, beast) values;
    ``derived`` its §2.5 numbers under the default parameters (``stats(params)`` for others)."""

    id: str
    name: str
    race: str | None
    level: int
    size: Fraction
    protected: bool
    metaforce_user: bool
    aware: bool
    base_hp: int
    hplv: int
    base_speed_ft: int
    attributes: Mapping[str, int]
    proficient: frozenset[str]
    expertise: frozenset[str]
    expertise_take_average: frozenset[str]
    level_bonus_on: frozenset[str]
    armour: Armour
    defences: Defences
    advantage_on_saves_vs: tuple[str, ...]
    metaphors: tuple[Metaphor, ...]
    saves: tuple[str, ...]
    save_features: tuple[str, ...]
    weapons: tuple[Weapon, ...]
    spells: tuple[Spell, ...]
    grapple: Grapple | None
    mpowers: tuple[str, ...]
    deus_ex_uses: int = 0
    derived: Derived = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "derived", self.stats(C.DEFAULT_PARAMS))

    def stats(self, params: C.StatParams) -> Derived:
        """spec §2.5 under ``params``. A block keeps its own ``base_hp``, ``hplv`` and
        ``base_speed_ft`` while the parameter is at its §12.1 default; a parameter set to
        another value replaces it for every block (R-1's alternatives)."""
        d = C.DEFAULT_PARAMS

        def own(key: str, mine: int) -> int:
            value = getattr(params, key)
            return mine if value == getattr(d, key) else value

        cores = C.core_values(self.attributes, params.base_core)
        lv = self.level if params.defense_adds_level else 0
        e, dd = C.evasion_deflection(cores["reflex"], cores["body"], 0,
                                     self.armour.deflection_bonus, params.evasion_floor, lv)
        sd = {c: C.status_defence(cores[c], self.level, self.status_defence_bonus(c))
              for c in C.CORES}
        t = C.exert_threshold(sd["body"], sd["mind"])
        return Derived(
            cores, C.max_hp(cores["body"], self.level, self.size, own("base_hp", self.base_hp),
                            own("hplv", self.hplv)),
            C.max_mp(self.level, self.metaforce_user, params.base_mp, params.mplv), e, dd, sd,
            t, C.exert_limit(t), C.speed_ft(self.size, own("base_speed_ft", self.base_speed_ft)),
            C.space_squares(self.size), C.reach_ft(self.size),
            C.initiative_bonus(cores["reflex"]), C.mpower_slots(self.level) if
            self.metaforce_user else 0,
            C.immobile_defence(cores["body"], self.armour.deflection_bonus, lv))

    def status_defence_bonus(self, core: str) -> int:
        """R-12: +rank of each defensive Metaphor of that core."""
        return sum(m.rank for m in self.metaphors if m.kind == "status_defence"
                   and m.core == core)

    @property
    def dodge_bonus(self) -> int:
        """R-13: the Evasion a Dodge Reaction adds (the best Dodge Metaphor)."""
        return max((m.reaction_evasion_bonus for m in self.metaphors), default=0)

    def covering(self, item: str) -> Metaphor | None:
        """The best combat Metaphor covering a weapon id (or ``spells``, ``grapple``)."""
        found = [m for m in self.metaphors if m.kind == "combat" and item in m.covers]
        return max(found, key=lambda m: m.rank) if found else None

    def covering_rank(self, item: str) -> int:
        m = self.covering(item)
        return m.rank if m else 0

    def expected_tohit(self, w: Weapon) -> int:
        """spec §2.5: Attribute flat + Metaphor rank + equipment."""
        return self.attributes[w.attr] + self.covering_rank(w.id) + w.equipment

    def expected_magnitude_bonus(self, item: str) -> int:
        m = self.covering(item)
        return m.rank + m.adds("magnitude") if m else 0

    def damage_adds(self, item: str) -> int:
        """The flat damage components already in ``damage_base`` (§13.5)."""
        m = self.covering(item)
        return m.adds("damage") if m else 0

    @property
    def casting_attr(self) -> str | None:
        m = self.covering("spells")
        return m.casting_attr if m else None

    def expected_spell_tohit(self) -> int:
        """spec §5.8: casting Attribute flat + magic Metaphor rank."""
        attr = self.casting_attr
        return (self.attributes[attr] if attr else 0) + self.covering_rank("spells")

    def proficient_in(self, attr: str) -> bool:
        return attr in self.proficient or attr in self.expertise

    def proficient_with(self, w: Weapon) -> bool:
        """spec §2.4.1, §5.3.1: the weapon's Attribute, a covering Metaphor, or (firearms) a
        Firearms Metaphor."""
        item = "spells" if w.kind == "spell" else w.id
        return self.proficient_in(w.attr) or self.covering(item) is not None or (
            w.firearm and self.firearm_proficient)

    @property
    def firearm_proficient(self) -> bool:
        """spec §5.6: a Firearms Metaphor (proficient reloading)."""
        return any(m.grants_firearm_proficiency for m in self.metaphors)

    def eligible_saves(self) -> tuple[str, ...]:
        """spec §7.3: cores whose save Attribute is proficient or expert, or a save feature."""
        return tuple(c for c in C.CORES if self.proficient_in(C.SAVE_ATTRIBUTE[c])
                     or c in self.save_features)

    def attacks(self) -> tuple[Weapon, ...]:
        """R-58: the CORE attack cantrips (as weapons, in list order), then the weapons."""
        attr = self.casting_attr or "int"
        return tuple(s.as_weapon(attr) for s in self.spells if s.core_attack) + self.weapons

    def resistance_x(self, key: str, firearm: bool = False) -> int | None:
        """The best Resistance X for a damage type or ``status:<id>``, innate or from armour
        (armour not against firearms unless bullet resistant, R-31); None: no Resistance."""
        innate = _lookup(self.defences.resistance, key)
        worn = None if firearm and not self.armour.bullet_resistant else _lookup(
            self.armour.resistance, key)
        found = [x for x in (innate, worn) if x is not None]
        return max(found) if found else None

    def immunity(self, key: str) -> int | None:
        return _lookup(self.defences.immunity, key)

    def absorb(self, key: str) -> int | None:
        return _lookup(self.defences.absorb, key)

    def weakness(self, key: str) -> int | None:
        return _lookup(self.defences.weakness, key)


@dataclass(frozen=True, slots=True)
class Member:
    """One combatant of a preset: its unique ``name``, team, block and anchor square."""

    name: str
    team: str
    block: StatBlock
    anchor: tuple[int, int]


@dataclass(frozen=True, slots=True)
class EncounterSpec:
    """An encounter preset (spec §3, §13.3)."""

    id: str
    teams: tuple[str, ...]
    members: tuple[Member, ...]
    width: int
    height: int
    min_start_distance_ft: int
    initiative_mode: str

    def team(self, team: str) -> tuple[Member, ...]:
        return tuple(m for m in self.members if m.team == team)


@dataclass(frozen=True, slots=True)
class Catalogue:
    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    spells: dict[str, Spell]
    stat_blocks: dict[str, StatBlock]
    encounters: dict[str, EncounterSpec]
