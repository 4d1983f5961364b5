"""The engine's read-only view of one stat block: a ``Profile`` (spec §2.3 derived stats, §2.5
equipment, §13), shared by every clone of a combatant.

The numbers come from the content module's formulas and the catalogue's blocks
(``profile_of``); tests may also build a ``Profile`` directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

__all__ = ["WeaponProfile", "SkillProfile", "Profile", "UNARMED", "modifier", "profile_to_dict",
           "profile_from_dict"]


def modifier(total: int) -> int:
    """spec §2.2, R-02: ``floor(Total / 2) - 5`` (the content module's formula, for temporary
    Totals read at roll time)."""
    return total // 2 - 5


@dataclass(frozen=True, slots=True)
class WeaponProfile:
    """One weapon (spec §2.5): ``reach`` for melee, ``thrown``/``range`` for ranged."""

    id: str
    type: str
    hands: int
    dice_n: int
    dice_sides: int
    stat: str  # might | skill | best_might_skill | magic | none
    dtypes: tuple[str, ...]
    reach: int | None = 1
    thrown: int | None = None
    range: int | None = None
    weapon_attacks: int = 0
    guard: int = 0
    crit: frozenset[int] = frozenset({20})
    natural: bool = False

    @property
    def melee(self) -> bool:
        return self.reach is not None

    @property
    def mean_dice(self) -> float:
        return self.dice_n * (self.dice_sides + 1) / 2


ARSENAL: dict[str, WeaponProfile] = {}
"""Every weapon profile seen, by id (catalogue ids are unique): an item changes hands."""

UNARMED = WeaponProfile("unarmed", "Unarmed", 0, 1, 4, "best_might_skill", ("Bludgeoning",))
"""RULING R-49: every creature can always strike unarmed with Jab's profile (spec §5.2.7)."""


@dataclass(frozen=True, slots=True)
class SkillProfile:
    """One DEFAULT skill (spec §5.3): the numbers the engine reads; effects are keyed by id."""

    id: str
    mana: int = 0
    range: int = 0
    dice_n: int = 0
    dice_sides: int = 0
    stat: str = "none"
    dtypes: tuple[str, ...] = ()
    size: int = 0  # area size
    crit: frozenset[int] = frozenset({20})
    uses: int | None = None  # per encounter
    min_size_index: int = 0
    magical: bool = True
    shape: str = ""  # FULL (full_areas): the area shape, ``line`` or ``cone`` aimed by direction
    cost_actions: str = ""  # the P/D/M/B letters it costs (full_areas reads them)
    cost_attacks: int = 0  # the general attacks it costs
    width: int = 1  # FULL (full_areas): a Line's width (spec §8.7)


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything fixed about one combatant (spec §2.3, §2.5, §2.7)."""

    name: str
    level: int
    size: str
    size_index: int
    sn: int
    footprint: float
    walk: int
    attacks: int
    hands: int
    totals: tuple[int, int, int]  # Might, Skill, Magic Totals
    max_hp: int
    pnr: int
    max_mana: int
    mana_scaling: int
    mr: int
    base_reactions: int
    exertion_max: int
    armoured: bool
    guard_bonus: int
    fall_dice: int
    weapons: dict[str, WeaponProfile] = field(default_factory=dict)
    wielded: tuple[tuple[str, str], ...] = ()  # (slot, weapon id); slot main | off | both
    natural: tuple[str, ...] = ()
    stowed: tuple[str, ...] = ()
    alternate: tuple[tuple[str, str], ...] | None = None
    skills: tuple[SkillProfile, ...] = ()
    tags: frozenset[str] = frozenset()
    resist: frozenset[str] = frozenset()
    vulnerable: frozenset[str] = frozenset()
    immune: frozenset[str] = frozenset()
    host_pool: bool = False
    skill_points: int = 0
    """spec §2.3: ``4 x L + 6`` (not used in combat; shown with the sheet)"""
    block: str = ""
    """the catalogue stat block it was built from (empty for an inline one)"""
    damage_roll_mode: str = "roll"
    """``roll`` or ``average`` (RULING R-61)"""
    absorb: tuple[tuple[str, int], ...] = ()
    """(damage type, percent) absorbed as healing (spec §8.4, FULL)"""

    @property
    def side_n(self) -> int:
        """The block side N (1 for a fractional footprint)."""
        return max(1, int(self.footprint))

    @property
    def defense(self) -> int:
        """spec §2.3: ``L + 9``."""
        return self.level + 9

    def weapon(self, wid: str) -> WeaponProfile:
        """A weapon by id: its own, or one it picked up or took (``ARSENAL``)."""
        if wid == "unarmed":
            return UNARMED
        w = self.weapons.get(wid)
        return w if w is not None else ARSENAL[wid]

    def __post_init__(self) -> None:
        ARSENAL.update(self.weapons)

    def skill(self, sid: str) -> SkillProfile | None:
        for s in self.skills:
            if s.id == sid:
                return s
        return None


def _plain(v: Any) -> Any:
    if isinstance(v, (frozenset, set)):
        return sorted(v)
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def profile_to_dict(p: Profile) -> dict[str, Any]:
    """Plain data for snapshots."""
    out: dict[str, Any] = {}
    for f in fields(p):
        v = getattr(p, f.name)
        if f.name == "weapons":
            v = {k: {g.name: _plain(getattr(w, g.name)) for g in fields(w)} for k, w in v.items()}
        elif f.name == "skills":
            v = [{g.name: _plain(getattr(s, g.name)) for g in fields(s)} for s in v]
        out[f.name] = _plain(v)
    return out


def _weapon(d: dict[str, Any]) -> WeaponProfile:
    return WeaponProfile(**{**d, "dtypes": tuple(d["dtypes"]), "crit": frozenset(d["crit"])})


def _skill(d: dict[str, Any]) -> SkillProfile:
    return SkillProfile(**{**d, "dtypes": tuple(d["dtypes"]), "crit": frozenset(d["crit"])})


def profile_from_dict(d: dict[str, Any]) -> Profile:
    """The inverse of ``profile_to_dict``."""
    pairs = lambda v: tuple((a, b) for a, b in v)  # noqa: E731
    return Profile(**{
        **d, "totals": tuple(d["totals"]),
        "weapons": {k: _weapon(w) for k, w in d["weapons"].items()},
        "wielded": pairs(d["wielded"]), "natural": tuple(d["natural"]),
        "stowed": tuple(d["stowed"]),
        "alternate": None if d["alternate"] is None else pairs(d["alternate"]),
        "skills": tuple(_skill(s) for s in d["skills"]),
        "tags": frozenset(d["tags"]), "resist": frozenset(d["resist"]),
        "vulnerable": frozenset(d["vulnerable"]), "immune": frozenset(d["immune"]),
        "absorb": pairs(d.get("absorb", ())),
    })


def weapon_profile(w: Any) -> WeaponProfile:
    """The engine's view of a catalogue ``Weapon`` (``sheet.Weapon``)."""
    return WeaponProfile(w.id, w.type, w.hands, w.dice.count, w.dice.sides, w.stat,
                         tuple(w.dtype), w.reach, w.thrown, w.range, w.weapon_attacks, w.guard,
                         frozenset(w.crit), w.natural)


def skill_profile(s: Any) -> SkillProfile:
    """The engine's view of a catalogue ``Skill`` (``sheet.Skill``)."""
    dice = s.dice
    req = s.requires_size_at_least
    return SkillProfile(
        s.id, s.mana, s.range if s.range is not None else (s.radius or 0),
        dice.count if dice else 0, dice.sides if dice else 0, s.stat, tuple(s.dtype),
        s.area.size if s.area is not None else 0, frozenset(s.crit) or frozenset({20}),
        s.uses_per_encounter, req.index if req is not None else 0, s.magical,
        s.area.shape if s.area is not None else "", "".join(s.cost_actions), s.cost_attacks,
        s.area.width if s.area is not None else 1)


def profile_of(b: Any) -> Profile:
    """The ``Profile`` of a catalogue ``StatBlock`` (its derived stats come from the content
    module's formulas, spec §2.3)."""
    weapons = {w.id: weapon_profile(w) for w in b.weapons}
    for w in tuple(b.stowed) + tuple(b.natural_weapons):
        weapons[w.id] = weapon_profile(w)
    alt = None
    if b.alternate_loadout is not None:
        alt = tuple(b.alternate_loadout.slots().items())
        for w in b.alternate_loadout.weapons:
            weapons[w.id] = weapon_profile(w)
    mods = b.damage_mods
    return Profile(
        b.name, b.level, b.size.name, b.size.index, b.sn, float(b.footprint), b.walk,
        b.attacks, b.hands, (b.total_might, b.total_skill, b.total_magic), b.max_hp, b.pnr,
        b.max_mana, b.mana_scaling, b.mr, b.base_reactions, b.exertion_max, b.armoured,
        b.armour.guard_bonus, b.size.prone_dice[0], weapons, tuple(b.wielded.slots().items()),
        tuple(w.id for w in b.natural_weapons), tuple(w.id for w in b.stowed), alt,
        tuple(skill_profile(s) for s in b.skills), frozenset(b.tags), frozenset(mods.resist),
        frozenset(mods.vulnerable), frozenset(mods.immune), b.exertion_pool == "host",
        b.skill_points, b.id, damage_roll_mode=b.damage_roll_mode,
        absorb=tuple((t, int(pct)) for t, pct in mods.absorb))
