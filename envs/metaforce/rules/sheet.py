"""Metaforce stat block records (spec §2, §2.6, §2.10, §3, §13): Metaphors, the derived numbers,
stat blocks with the questions the engine asks of them (proficiency, covering Metaphor, saves,
resistances), encounter presets and the catalogue. ``catalogue.py`` reads them from YAML; the
formulas are ``content.py``'s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import content as C
from .records import Armour, Defences, Spell, Weapon, lookup

__all__ = ["Component", "Metaphor", "Grapple", "Derived", "StatBlock", "Member",
           "EncounterSpec", "Catalogue"]


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
    deus_ex_uses: int = 0  # §3.5: persistent per character
    force_fate_uses: int = 0
    frame_combos: tuple[tuple[str, ...], ...] = ()  # spec §4.4, R-25 (FULL): attack ids
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

    # The §13.5 field names, read-only, for readers that take a block or its YAML mapping alike
    @property
    def cores(self) -> Mapping[str, int]:
        return self.derived.cores

    @property
    def hp_max(self) -> int:
        return self.derived.hp_max

    @property
    def mp_max(self) -> int:
        return self.derived.mp_max

    @property
    def evasion(self) -> int:
        return self.derived.evasion

    @property
    def deflection(self) -> int:
        return self.derived.deflection

    @property
    def status_defence(self) -> Mapping[str, int]:
        return self.derived.status_defence

    @property
    def exert_threshold(self) -> int:
        return self.derived.exert_threshold

    @property
    def speed_ft(self) -> int:
        return self.derived.speed_ft

    @property
    def space_squares(self) -> int:
        return self.derived.space_squares

    @property
    def reach_ft(self) -> int:
        return self.derived.reach_ft

    @property
    def initiative_bonus(self) -> int:
        return self.derived.initiative_bonus

    @property
    def resistances(self) -> Mapping[str, int]:
        return self.defences.resistance

    @property
    def immunities(self) -> Mapping[str, int]:
        return self.defences.immunity

    @property
    def absorbs(self) -> Mapping[str, int]:
        return self.defences.absorb

    @property
    def weaknesses(self) -> Mapping[str, int]:
        return self.defences.weakness

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
        innate = lookup(self.defences.resistance, key)
        worn = None if firearm and not self.armour.bullet_resistant else lookup(
            self.armour.resistance, key)
        found = [x for x in (innate, worn) if x is not None]
        return max(found) if found else None

    def immunity(self, key: str) -> int | None:
        return lookup(self.defences.immunity, key)

    def absorb(self, key: str) -> int | None:
        return lookup(self.defences.absorb, key)

    def weakness(self, key: str) -> int | None:
        return lookup(self.defences.weakness, key)


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

