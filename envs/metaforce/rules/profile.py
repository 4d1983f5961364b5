"""What the engine reads of a stat block (spec §2, §13.5): a frozen ``Profile`` with its
``Weapon`` slots, built once per combatant by ``profile_of`` from the catalogue's ``StatBlock``
(the catalogue loads and checks every number; the formulas are ``content.py``'s). In CORE the
level-0 attack spells take the weapon slots first, in list order (§13.5, R-58).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

__all__ = ["Weapon", "AreaSpell", "Cantrip", "Profile", "profile_of", "size_mult", "size_step"]

FAMILIES = ("melee", "natural", "bow", "firearm", "cantrip")  # a thrown weapon is melee + thrown_ft


@dataclass(frozen=True, slots=True)
class Weapon:
    """One attack slot (spec §2.7; a CORE attack cantrip is one too, R-58)."""

    id: str
    family: str  # melee | natural | bow | firearm | cantrip
    attr: str
    tohit: int
    damage_base: int
    bonus_die: int
    damage_type: str
    hands: int = 1
    reach_ft: int = 5
    range_increment_ft: int = 0  # ranged weapons and ranged cantrips
    thrown_ft: int = 0  # > 0: may be thrown (spec §5.2 #10)
    special_status: str | None = None
    magnitude_bonus: int = 0
    proficient: bool = False  # spec §2.4.1: attribute or covering Metaphor (+1 step)
    metaphor: bool = False  # covered by a combat Metaphor (firearm reload proficiency, §5.6)
    trigger_limit: int = 1
    auto: bool = False
    capacity: int = 0
    chamber_plus_one: bool = False
    per_frame: int = 0  # 0: magazine (Reload: All); n: n rounds per frame
    speedloaders: int = 0
    reserve: int = 0
    arrows: int = 0
    pen_flat: int = 0  # Penetration (spec §8.2.2): a number, or a die rolled after the bonus die
    pen_die: int = 0
    pen_meta: bool = False
    armour_piercing: bool = False  # spec §5.5: ignores bullet resistance (FULL)
    ignores_evasion: bool = False  # Magic Missile (§13.4): at least deflected, direct above D
    appendages: tuple[str, ...] = ()  # spec §4.4 (FULL): legs busy -> no movement (WE-38)
    sweep: bool = False  # spec §4.4, WE-38 (FULL): every foe within reach
    fixed_range: bool = False  # its range is one fixed band, not an increment (§13.4, R-30)
    size_ranks: int = 0  # spec §8.4 (FULL): damage as N Sizes larger against bigger foes
    size_ranks_direct: bool = False  # ... only on a direct hit (it must beat Deflection)

    @property
    def ranged(self) -> bool:
        return self.range_increment_ft > 0

    @property
    def holds_hand(self) -> bool:
        """R-60: unarmed strikes, natural weapons and cantrips take no hand."""
        return self.family not in ("natural", "cantrip") and self.id != "unarmed"


@dataclass(frozen=True, slots=True)
class AreaSpell:
    """A levelled area attack spell (spec §5.8, §13.4 Fireball; FULL)."""

    id: str
    level: int
    frames: int
    exert: int
    tohit: int
    damage_base: int
    bonus_die: int
    damage_type: str
    range_ft: int
    radius_ft: int
    special_status: str | None = None
    magnitude_bonus: int = 0
    proficient: bool = False
    attr: str = "int"


@dataclass(frozen=True, slots=True)
class Cantrip:
    """A FULL support cantrip (spec §13.4 Ward, Heal): aimed at the caster or an ally within
    ``reach_ft``; ``concentration`` (spec §7.9: loose, unbroken, or "") and ``tension`` (spec
    §7.7: the Tension it adds while it lasts after Metaphor reductions, 0: not channelled)."""

    id: str
    resolution: str  # ward | heal
    reach_ft: int
    attr: str = "int"
    concentration: str = ""
    tension: int = 0


@dataclass(frozen=True)
class Profile:
    """A combatant's fixed numbers (spec §2.5, §2.10, §13.5)."""

    id: str
    level: int
    size: float
    protected: bool
    metaforce_user: bool
    attributes: Mapping[str, int]
    proficient: frozenset[str]
    expertise: frozenset[str]
    cores: Mapping[str, int]
    hp_max: int
    mp_max: int
    evasion: int
    deflection: int
    deflection_bonus: int
    status_defence: Mapping[str, int]
    exert_threshold: int
    speed_ft: int
    space: int
    reach_ft: int
    initiative_bonus: int
    weapons: tuple[Weapon, ...]
    saves: frozenset[str] = frozenset()
    resistances: Mapping[str, int] = field(default_factory=dict)
    armour_resistance: Mapping[str, int] = field(default_factory=dict)
    bullet_resistant: bool = False
    weaknesses: Mapping[str, int] = field(default_factory=dict)
    immunities: frozenset[str] = frozenset()
    immunity_x: Mapping[str, int] = field(default_factory=dict)  # Immunity X vs Penetration
    absorbs: Mapping[str, int] = field(default_factory=dict)  # Absorb X
    size_res_sources: int = 0  # Size/Crush Resistance sources (spec §8.4; 0: none)
    size_res_reduction: int = 0  # ... and its Reduction X
    take_average: frozenset[str] = frozenset()  # Attributes whose checks take the average (FULL)
    save_advantage: frozenset[str] = frozenset()  # statuses saved at +1 step (FULL race trait)
    optimised: frozenset[str] = frozenset()  # activities an Optimise component Quickens (§4.3)
    spells: tuple[AreaSpell, ...] = ()  # levelled area spells (FULL)
    cantrips: tuple[Cantrip, ...] = ()  # Ward and Heal (spec §13.4, FULL)
    magic: str = ""  # the casting Attribute of a caster: its kind of magic (spec §5.8 Convoke)
    frame_combos: tuple[tuple[str, ...], ...] = ()  # spec §4.4, R-25 (FULL): attack ids
    grapple_attr: str = "str"
    grapple_bonus: int = 0
    grapple_proficient: bool = False
    firearm_proficient: bool = False
    save_level_bonus: frozenset[str] = frozenset()
    hands: int = 2
    deus_ex_uses: int = 0
    force_fate_uses: int = 0  # spec §3.5: persistent per character (FULL)
    aware: bool = True
    name: str = ""  # the stat block's display name
    mpowers: frozenset[str] = frozenset()  # equipped selectable M-Powers (spec §6.4, FULL)
    dodge_bonus: int = 0  # the Evasion a Dodge Reaction adds (FULL)
    immobile_deflection: int | None = None  # spec §2.5 step 5 (None: Body + armour bonus)

    def attr(self, name: str) -> int:
        return int(self.attributes.get(name, 0))

    @property
    def exert_limit(self) -> int:
        return self.exert_threshold + 10  # L = T + 10

    def weapon(self, wid: str) -> Weapon:
        for w in self.weapons:
            if w.id == wid:
                return w
        raise KeyError(wid)


@lru_cache(maxsize=256)
def size_mult(size: float) -> float:
    """spec §2.9: the damage (and healing) multiplier ``m_a`` of a Size rating (content.py)."""
    from fractions import Fraction

    from .content import size_row
    return float(size_row(Fraction(size).limit_denominator(16)).damage_mult)


@lru_cache(maxsize=256)
def size_step(size: float) -> int:
    """R-36: the place on the ladder Fine, Diminutive, Tiny, Small, Medium (1), 2, 3, ..."""
    if size >= 1:
        return 4 + int(size) - 1
    step, s = 3, 0.5
    while size < s and step > 0:
        step, s = step - 1, s / 2
    return step


def profile_of(block: Any, cid: str | None = None, options: Any = None) -> Profile:
    """The engine's ``Profile`` of a catalogue ``StatBlock`` (``catalogue.stat_blocks()``, or
    ``stat_block_from_mapping`` for an inline one), its §2.5 numbers recomputed under
    ``options`` (R-1's alternatives); ``cid`` names the combatant (default: the block id)."""
    return _from_block(block, cid, options)


_KIND = {"spell": "cantrip", "thrown": "melee"}


def _from_block(b: Any, cid: str | None, options: Any) -> Profile:
    """A catalogue ``StatBlock`` (``catalogue.stat_blocks()``) as a ``Profile``."""
    d = b.derived
    if options is not None:
        from .content import StatParams
        d = b.stats(StatParams.from_options(options))
    weapons = []
    for w in b.attacks():  # CORE attack cantrips first, then the weapons
        item = "spells" if w.kind == "spell" else w.id
        per = w.reload.per_frame if w.reload is not None else None
        inc = w.range_increment_ft or 0
        fixed = not inc and bool(w.range_ft) and w.kind != "thrown"
        if fixed:
            inc = w.range_ft  # a fixed range (Magic Missile's 120 ft, §13.4): one band, no more
        weapons.append(Weapon(
            id=w.id, family=_KIND.get(w.kind, w.kind), attr=w.attr, tohit=w.tohit,
            damage_base=w.damage_base, bonus_die=w.bonus_die, damage_type=w.damage_type,
            hands=w.hands, reach_ft=w.reach_ft or 5, range_increment_ft=inc,
            thrown_ft=w.thrown_ft or (w.range_ft if w.kind == "thrown" else 0) or 0,
            special_status=w.special_status, magnitude_bonus=w.magnitude_bonus,
            proficient=b.proficient_with(w), metaphor=b.covering(item) is not None,
            trigger_limit=w.trigger_limit or 1, auto=w.auto, capacity=w.capacity or 0,
            chamber_plus_one=w.chamber_plus_one, per_frame=per or 0,
            speedloaders=w.speedloaders,
            reserve=w.reserve_rounds + w.reserve_magazines * (w.capacity or 0),
            pen_flat=w.penetration.flat if w.penetration else 0,
            pen_die=w.penetration.sides if w.penetration else 0,
            pen_meta=bool(w.penetration and w.penetration.meta),
            armour_piercing=w.armour_piercing, ignores_evasion=w.ignores_evasion,
            appendages=w.appendages, sweep=w.sweep, fixed_range=fixed, size_ranks=w.size_ranks,
            size_ranks_direct=w.size_ranks_direct))
    g = b.grapple
    gattr = g.attr if g is not None else max(("str", "agi"), key=lambda a: b.attributes[a])
    gbonus = g.bonus if g is not None else b.attributes[gattr] + b.covering_rank("grapple")
    df = b.defences
    return Profile(
        id=cid or b.id, level=b.level, size=float(b.size), protected=b.protected,
        metaforce_user=b.metaforce_user, attributes=dict(b.attributes),
        proficient=frozenset(b.proficient), expertise=frozenset(b.expertise),
        cores=dict(d.cores), hp_max=d.hp_max, mp_max=d.mp_max, evasion=d.evasion,
        deflection=d.deflection, deflection_bonus=b.armour.deflection_bonus,
        status_defence=dict(d.status_defence), exert_threshold=d.exert_threshold,
        speed_ft=d.speed_ft, space=d.space_squares, reach_ft=d.reach_ft,
        initiative_bonus=d.initiative_bonus, weapons=tuple(weapons),
        saves=frozenset(b.eligible_saves()),
        resistances={k: v for k, v in df.resistance.items()},
        armour_resistance=dict(b.armour.resistance),
        # spec §12.3: bullet-resistant armour is FULL (CORE keeps the firearm bypass, §12.2)
        bullet_resistant=b.armour.bullet_resistant and getattr(options, "full", True),
        weaknesses=dict(df.weakness),
        immunities=frozenset(df.immunity), immunity_x=dict(df.immunity),
        absorbs=dict(df.absorb),
        size_res_sources=df.size_resistance.sources if df.size_resistance else 0,
        size_res_reduction=df.size_resistance.reduction if df.size_resistance else 0,
        take_average=frozenset(b.expertise_take_average),
        save_advantage=frozenset(b.advantage_on_saves_vs),
        optimised=frozenset(str(c.activity) for m in b.metaphors for c in m.components
                            if c.adds == "optimise" and c.activity),
        spells=tuple(AreaSpell(
            sp.id, sp.level, sp.frames, sp.exert, sp.tohit or 0, sp.damage_base or 0,
            sp.bonus_die, sp.damage_type or "magic", sp.range_ft or sp.range_increment_ft or 5,
            sp.area_radius_ft or 0, sp.special_status, sp.magnitude_bonus,
            b.covering("spells") is not None or b.proficient_in(b.casting_attr or "int"),
            b.casting_attr or "int")
            for sp in b.spells if sp.level > 0 and sp.resolution == "attack"
            and sp.tohit is not None and sp.damage_base is not None),
        cantrips=tuple(_cantrip(b, sp) for sp in b.spells if sp.resolution in ("ward", "heal")),
        magic=(b.casting_attr or "int") if b.spells else "",
        frame_combos=b.frame_combos,
        grapple_attr=gattr, grapple_bonus=gbonus,
        grapple_proficient=b.covering("grapple") is not None or b.proficient_in(gattr),
        firearm_proficient=b.firearm_proficient, save_level_bonus=frozenset(b.level_bonus_on),
        hands=max(0, 2 - b.armour.hands), deus_ex_uses=b.deus_ex_uses,
        force_fate_uses=b.force_fate_uses, aware=b.aware,
        name=b.name, mpowers=frozenset(b.mpowers) if b.metaforce_user else frozenset(),
        dodge_bonus=b.dodge_bonus, immobile_deflection=d.immobile[1])


TENSION = 10
"""spec §7.7: a channelled ability's default Tension (WE-35)"""


def tension_cost(base: int, reduction: int) -> int:
    """spec §7.7, WE-35: ``base`` (default 10) minus the Metaphor reductions, at least 1."""
    return max(1, base - reduction)


def _cantrip(b: Any, sp: Any) -> Cantrip:
    """A stat block's Ward or Heal: an Optimise component naming it turns Unbroken into Loose
    (spec §7.9); ``tension`` components of its covering Metaphor (for it, or for every spell)
    lower its Tension (spec §7.7)."""
    sid = sp.id
    conc = sp.concentration or ""
    if conc == "unbroken" and any(c.adds == "optimise" and c.activity in (sid, "concentration")
                                  for m in b.metaphors for c in m.components):
        conc = "loose"
    cut = sum(c.rank for m in b.metaphors for c in m.components if c.adds == "tension" and (
        c.activity == sid or c.activity in (None, "spells") and ("spells" in m.covers
                                                                 or sid in m.covers)))
    tension = tension_cost(sp.tension, cut) if sp.tension is not None else 0
    return Cantrip(sp.id, sp.resolution, sp.reach_ft or 5, b.casting_attr or "int", conc,
                   tension)


def profile_to_dict(p: Profile) -> dict[str, Any]:
    """``p`` as plain data (for snapshots)."""
    from dataclasses import asdict
    d = asdict(p)
    for k, v in d.items():
        if isinstance(v, frozenset):
            d[k] = sorted(v)
    d["weapons"] = [asdict(w) for w in p.weapons]
    d["spells"] = [asdict(sp) for sp in p.spells]
    d["cantrips"] = [asdict(sp) for sp in p.cantrips]
    return d


def profile_from_dict(d: Mapping[str, Any]) -> Profile:
    """The inverse of ``profile_to_dict``."""
    sets = {"proficient", "expertise", "saves", "immunities", "save_level_bonus", "mpowers",
            "take_average", "save_advantage", "optimised"}
    kw: dict[str, Any] = {k: (frozenset(v) if k in sets else dict(v) if isinstance(v, dict)
                              else v) for k, v in d.items() if k != "weapons"}
    kw["spells"] = tuple(AreaSpell(**sp) for sp in d.get("spells", ()))
    kw["cantrips"] = tuple(Cantrip(**sp) for sp in d.get("cantrips", ()))
    kw["frame_combos"] = tuple(tuple(x) for x in d.get("frame_combos", ()))
    ws = tuple(Weapon(**{**w, "appendages": tuple(w.get("appendages", ()))})
               for w in d["weapons"])
    return Profile(weapons=ws, **kw)
