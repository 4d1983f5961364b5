"""What the engine reads of a stat block (spec §2, §13.5): a frozen ``Profile`` with its
``Weapon`` slots, built once per combatant by ``profile_of``.

``profile_of`` accepts the catalogue's stat block (``catalogue.stat_blocks()``) or a mapping in the
§13.5 loader format: it reads fields by their §13.5 names and takes the derived numbers
(``hp_max``, ``evasion``, ``status_defence``...) as given; the catalogue checks them. In CORE the
level-0 spells with a ``tohit`` take the weapon slots first, in list order (§13.5, R-58).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Weapon", "Profile", "profile_of", "size_mult", "size_step"]

FAMILIES = ("melee", "natural", "thrown", "bow", "firearm", "cantrip")


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

    @property
    def ranged(self) -> bool:
        return self.range_increment_ft > 0

    @property
    def holds_hand(self) -> bool:
        """R-60: unarmed strikes, natural weapons and cantrips take no hand."""
        return self.family not in ("natural", "cantrip") and self.id != "unarmed"


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
    grapple_attr: str = "str"
    grapple_bonus: int = 0
    grapple_proficient: bool = False
    firearm_proficient: bool = False
    save_level_bonus: frozenset[str] = frozenset()
    hands: int = 2
    deus_ex_uses: int = 0
    aware: bool = True
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


def size_mult(size: float) -> float:
    """spec §2.9: the damage (and healing) multiplier ``m_a`` of a Size rating (content.py)."""
    from fractions import Fraction

    from .content import size_row
    return float(size_row(Fraction(size).limit_denominator(16)).damage_mult)


def size_step(size: float) -> int:
    """R-36: the place on the ladder Fine, Diminutive, Tiny, Small, Medium (1), 2, 3, ..."""
    if size >= 1:
        return 4 + int(size) - 1
    step, s = 3, 0.5
    while size < s and step > 0:
        step, s = step - 1, s / 2
    return step


def _get(block: Any, key: str, default: Any = None) -> Any:
    if isinstance(block, Mapping):
        return block.get(key, default)
    return getattr(block, key, default)


def _weapon(w: Any, covered: set[str], prof: frozenset[str], cantrip: bool) -> Weapon:
    wid = str(_get(w, "id"))
    family = "cantrip" if cantrip else str(_get(w, "type", "melee"))
    if family not in FAMILIES:
        family = "melee"
    attr = str(_get(w, "attr", "int" if cantrip else "str"))
    reload = _get(w, "reload_mode", None)
    per_frame = int(_get(reload, "per_frame", 0) or 0) if reload not in (None, "all") else 0
    status = _get(w, "special_status", None)
    ranged = int(_get(w, "range_increment_ft", 0) or 0)
    return Weapon(
        id=wid, family=family, attr=attr, tohit=int(_get(w, "tohit", 0)),
        damage_base=int(_get(w, "damage_base", 0)), bonus_die=int(_get(w, "bonus_die", 0) or 0),
        damage_type=str(_get(w, "damage_type", "blunt")), hands=int(_get(w, "hands", 1) or 0),
        reach_ft=int(_get(w, "reach_ft", 5) or 5), range_increment_ft=ranged,
        thrown_ft=int(_get(w, "thrown_ft", 0) or 0),
        special_status=None if status is None else str(status),
        magnitude_bonus=int(_get(w, "magnitude_bonus", 0) or 0),
        proficient=attr in prof or wid in covered or (cantrip and "spells" in covered),
        metaphor=wid in covered,
        trigger_limit=int(_get(w, "trigger_limit", 1) or 1), auto=bool(_get(w, "auto", False)),
        capacity=int(_get(w, "capacity", 0) or 0),
        chamber_plus_one=bool(_get(w, "chamber_plus_one", False)), per_frame=per_frame,
        speedloaders=int(_get(w, "speedloaders", 0) or 0),
        reserve=int(_get(w, "reserve_rounds", 0) or 0), arrows=int(_get(w, "arrows", 0) or 0))


def profile_of(block: Any, cid: str | None = None, options: Any = None) -> Profile:
    """The engine's ``Profile`` of a stat block (see the module docstring); a catalogue
    ``StatBlock`` has its §2.5 numbers recomputed under ``options`` (R-1's alternatives)."""
    if hasattr(block, "derived") and hasattr(block, "attacks"):
        return _from_block(block, cid, options)
    prof = frozenset(str(a) for a in (_get(block, "proficient", ()) or ()))
    expert = frozenset(str(a) for a in (_get(block, "expertise", ()) or ()))
    metaphors = list(_get(block, "metaphors", ()) or ())
    covered: set[str] = set()
    firearm = False
    for m in metaphors:
        if str(_get(m, "kind", "")) == "combat":
            covered.update(str(c) for c in (_get(m, "covers", ()) or ()))
            firearm = firearm or bool(_get(m, "grants_firearm_proficiency", False))
    weapons = [_weapon(s, covered, prof, True) for s in (_get(block, "spells", ()) or ())
               if int(_get(s, "level", 0) or 0) == 0 and _get(s, "tohit", None) is not None]
    weapons += [_weapon(w, covered, prof, False) for w in (_get(block, "weapons", ()) or ())]
    armour = _get(block, "armour", {}) or {}
    attrs = {str(k): int(v) for k, v in dict(_get(block, "attributes", {}) or {}).items()}
    grapple = _get(block, "grapple", None)
    gattr = str(_get(grapple, "attr", "")) if grapple is not None else ""
    if gattr not in attrs:
        gattr = max(("str", "agi"), key=lambda a: attrs.get(a, 0))
    gbonus = int(_get(grapple, "bonus", attrs.get(gattr, 0))) if grapple is not None \
        else attrs.get(gattr, 0)
    res: dict[str, int] = {}
    for k, v in dict(_get(block, "resistances", {}) or {}).items():
        res[str(k)] = v if isinstance(v, int) and not isinstance(v, bool) else 0  # half: X = 0
    cores = {str(k): int(v) for k, v in dict(_get(block, "cores", {}) or {}).items()}
    return Profile(
        id=cid or str(_get(block, "id")), level=int(_get(block, "level", 1)),
        size=float(_get(block, "size", 1)), protected=bool(_get(block, "protected", False)),
        metaforce_user=bool(_get(block, "metaforce_user", False)), attributes=attrs,
        proficient=prof, expertise=expert, cores=cores, hp_max=int(_get(block, "hp_max")),
        mp_max=int(_get(block, "mp_max", 0) or 0), evasion=int(_get(block, "evasion")),
        deflection=int(_get(block, "deflection")),
        deflection_bonus=int(_get(armour, "deflection_bonus", 0) or 0),
        status_defence={str(k): int(v) for k, v in
                        dict(_get(block, "status_defence", {}) or {}).items()},
        exert_threshold=int(_get(block, "exert_threshold", 0) or 0),
        speed_ft=int(_get(block, "speed_ft", 15)), space=int(_get(block, "space_squares", 1)),
        reach_ft=int(_get(block, "reach_ft", 5)),
        initiative_bonus=int(_get(block, "initiative_bonus", cores.get("reflex", 0))),
        weapons=tuple(weapons), saves=frozenset(str(s) for s in (_get(block, "saves", ()) or ())),
        resistances=res,
        armour_resistance={str(k): int(v) for k, v in
                           dict(_get(armour, "resistance", {}) or {}).items()},
        bullet_resistant=bool(_get(armour, "bullet_resistant", False)),
        weaknesses={str(k): int(v) for k, v in dict(_get(block, "weaknesses", {}) or {}).items()},
        immunities=frozenset(str(i) for i in (_get(block, "immunities", ()) or ())),
        grapple_attr=gattr, grapple_bonus=gbonus,
        grapple_proficient="grapple" in covered or gattr in prof, firearm_proficient=firearm,
        save_level_bonus=frozenset(str(a) for a in (_get(block, "level_bonus_on", ()) or ())),
        deus_ex_uses=int(_get(block, "deus_ex_uses", 0) or 0))


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
        if not inc and w.range_ft and w.kind != "thrown":
            inc = w.range_ft  # a fixed range: one band
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
            reserve=w.reserve_rounds + w.reserve_magazines * (w.capacity or 0)))
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
        armour_resistance=dict(b.armour.resistance), bullet_resistant=b.armour.bullet_resistant,
        weaknesses=dict(df.weakness),
        immunities=frozenset(df.immunity),  # Immunity X matters with Penetration (FULL)
        grapple_attr=gattr, grapple_bonus=gbonus,
        grapple_proficient=b.covering("grapple") is not None or b.proficient_in(gattr),
        firearm_proficient=b.firearm_proficient, save_level_bonus=frozenset(b.level_bonus_on),
        hands=max(0, 2 - b.armour.hands), deus_ex_uses=b.deus_ex_uses, aware=b.aware,
        immobile_deflection=d.immobile[1])


def profile_to_dict(p: Profile) -> dict[str, Any]:
    """``p`` as plain data (for snapshots)."""
    from dataclasses import asdict
    d = asdict(p)
    for k, v in d.items():
        if isinstance(v, frozenset):
            d[k] = sorted(v)
    d["weapons"] = [asdict(w) for w in p.weapons]
    return d


def profile_from_dict(d: Mapping[str, Any]) -> Profile:
    """The inverse of ``profile_to_dict``."""
    sets = {"proficient", "expertise", "saves", "immunities", "save_level_bonus"}
    kw: dict[str, Any] = {k: (frozenset(v) if k in sets else dict(v) if isinstance(v, dict)
                              else v) for k, v in d.items() if k != "weapons"}
    return Profile(weapons=tuple(Weapon(**w) for w in d["weapons"]), **kw)
