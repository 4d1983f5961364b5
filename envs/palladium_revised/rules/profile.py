"""What the engine reads of a stat block (spec §2): a frozen ``Profile`` with its ``Arm``s
(weapons, spec §2.6) and armour (spec §2.7), built once per combatant from the catalogue's stat
block by ``profile_of``.

The numbers themselves (attribute chart, weapon and armour tables, stat blocks) are the content
modules'; this module only gathers them in the shape the engine uses, plus the Zone radii of
spec §2.5 (``radii``) and the band of a distance (``band``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from typing import Any

__all__ = ["Arm", "Profile", "radii", "band", "band_table", "profile_to_dict",
           "profile_from_dict", "arm_of", "profile_of",
           "BANDS", "BAND_NAMES"]

BANDS = {"G": 1, "C": 2, "M": 3, "R": 4}
BAND_NAMES = {1: "grappling", 2: "close", 3: "medium", 4: "reach", 5: "far"}
# spec §2.5: the four Zone layers by band index; 5 is outside all of them.


@dataclass(frozen=True, slots=True)
class Arm:
    """One weapon as the engine uses it (spec §2.6, R45).

    Attributes:
        id: weapon id (``long_sword``); labels name it.
        dice, sides: damage dice (``2d6`` -> 2, 6).
        reach: longest band a melee weapon strikes (1..4); 0 for a ranged weapon.
        short: may strike in the Grappling layer.
        hands: 1 or 2.
        kind: ``blunt``, ``edged`` or ``piercing``.
        wounds: Wounds added when the hit reaches S.D.C./H.P.
        cost: Actions per attack.
        ps: the P.S. damage bonus applies.
        inc, max_inc: range increment (ft) and number of increments; 0 for melee.
        ammo: shots at the start; ``None`` unlimited (and for melee).
    """

    id: str
    dice: int
    sides: int
    reach: int
    short: bool
    hands: int
    kind: str
    wounds: int
    cost: int
    ps: bool
    inc: int = 0
    max_inc: int = 0
    ammo: int | None = None

    @property
    def ranged(self) -> bool:
        return self.inc > 0

    @property
    def max_range(self) -> int:
        return self.inc * self.max_inc

    @property
    def mean(self) -> Fraction:
        """Mean of the damage dice."""
        return Fraction(self.dice * (self.sides + 1), 2)


@dataclass(frozen=True, slots=True)
class Profile:
    """The stat block of one combatant (spec §2.2-§2.7, §13.2); ``weapons`` lists the stat
    block's weapons in order and ends with ``unarmed`` (always available, R45)."""

    name: str
    actions: int
    hp_base: int
    sdc_max: int
    stamina_max: int
    morale_max: int
    pm: int
    init: int
    strike: int
    parry: int
    dodge: int
    maneuver: int
    damage: int
    weapons: tuple[Arm, ...]
    height_ft: int = 6
    crit_min: int = 20
    crit_bonus_pct: int = 100
    parry_mitigation_pct: int = 75
    dmg_mod_pct: int = 0
    end_mod_pct: int = 0
    armor: str = "none"
    ar: int = 0
    armor_sdc: int = 0
    primary_hand: str = "right"
    resist_physical_pct: int = 0
    ee_max: int = 0
    radii: tuple[int, int, int, int] = (1, 2, 6, 12)
    zoc_band: int = field(default=0, compare=False)
    """spec §2.5: the largest reach band among the melee weapons (at least Close); derived."""
    spells: tuple[str, ...] = ()
    """FULL (spec §5.9, §12.4): the spell ids in the stat block's order (the CAST slots)."""
    spell_power: int = 0
    taunt: int = 0
    save_magic: int = 0
    save_insanity: int = 0
    se_max: int = 0
    has_pe: bool = True
    """spec §2.1, R43: False for a being without P.E. (no Stamina costs, no H.P.)."""
    resist_pct: tuple[tuple[str, int], ...] = ()
    immune_physical_effects: bool = False
    perception_pct: int = 30
    save_coma_pct: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "zoc_band",
                           max([2, *(w.reach for w in self.weapons if not w.ranged)]))

    def weapon(self, wid: str) -> Arm:
        for w in self.weapons:
            if w.id == wid:
                return w
        raise KeyError(wid)

    @property
    def melee(self) -> tuple[Arm, ...]:
        return tuple(w for w in self.weapons if not w.ranged)

    @property
    def zoc_radius(self) -> int:
        return self.radii[self.zoc_band - 1]

    def hand_of(self, w: Arm) -> str:
        """ENGINE (spec §2.2 ``primary_hand``, §7.5): ``right``/``left`` for a one-handed weapon
        (the first one-handed weapon and ``unarmed`` in the primary hand, the second in the
        other), ``both`` for a two-handed one."""
        if w.hands >= 2:
            return "both"
        other = "left" if self.primary_hand == "right" else "right"
        ones = [x.id for x in self.weapons if x.hands == 1 and x.id != "unarmed"]
        if w.id in ones and ones.index(w.id) == 1:
            return other
        return self.primary_hand


def radii(height_ft: int) -> tuple[int, int, int, int]:
    """spec §2.5, R22: ``(r_G, r_C, r_M, r_R)`` for a body of ``height_ft`` feet (the content
    module's ``zone_radii``)."""
    from .content import zone_radii
    r = zone_radii(height_ft)
    return (r.g, r.c, r.m, r.r)


def band(rad: tuple[int, int, int, int], d: int) -> int:
    """spec §2.5 ``band_X(d)``: 1 Grappling .. 4 Reach, 5 outside."""
    for i, r in enumerate(rad):
        if d <= r:
            return i + 1
    return 5


_TABLES: dict[tuple[int, ...], tuple[int, ...]] = {}


def band_table(rad: tuple[int, int, int, int]) -> tuple[int, ...]:
    """``band(rad, d)`` for every ``d`` in ``0..r_R`` (beyond it: 5), once per radii."""
    found = _TABLES.get(rad)
    if found is None:
        if len(_TABLES) > 4096:
            _TABLES.clear()
        found = _TABLES[rad] = tuple(band(rad, d) for d in range(max(rad[3], -1) + 1))
    return found


def profile_to_dict(p: Profile) -> dict[str, Any]:
    return asdict(p)


def profile_from_dict(d: dict[str, Any]) -> Profile:
    arms = tuple(Arm(**w) for w in d["weapons"])
    rest = {k: v for k, v in d.items() if k != "weapons"}
    rest["radii"] = tuple(rest["radii"])
    rest["spells"] = tuple(rest.get("spells", ()))
    rest["resist_pct"] = tuple(tuple(x) for x in rest.get("resist_pct", ()))
    return replace(Profile(**{**rest, "weapons": ()}), weapons=arms)


def arm_of(w: Any) -> Arm:
    """The engine's view of a catalogue weapon (``content.Weapon``, spec §2.6)."""
    return Arm(w.id, w.damage.count, w.damage.sides, w.reach or 0, bool(w.short), w.hands,
               w.kind, w.wounds, w.cost, bool(w.ps), w.inc or 0, w.max_inc or 0,
               w.ammo if w.reach is None else None)


def profile_of(block: Any) -> Profile:
    """The engine's ``Profile`` of a catalogue stat block (``catalogue.StatBlock``, spec §2,
    §13): its weapons in order plus ``unarmed`` (R45), its armour, bonuses and Zone radii."""
    from . import content
    arms = [arm_of(w) for w in block.weapons]
    if not any(a.id == "unarmed" for a in arms):
        arms.append(arm_of(content.UNARMED))
    b, r = block.bonuses, block.radii
    return Profile(
        name=block.id, actions=block.actions, hp_base=block.hp_base, sdc_max=block.sdc_max,
        stamina_max=block.stamina_max, morale_max=block.morale_max,
        pm=block.attributes.pm or 0, init=b.init, strike=b.strike, parry=b.parry,
        dodge=b.dodge, maneuver=b.maneuver, damage=b.damage, weapons=tuple(arms),
        height_ft=int(block.height_ft), crit_min=block.crit_min,
        crit_bonus_pct=block.crit_bonus_pct, parry_mitigation_pct=block.parry_mitigation_pct,
        dmg_mod_pct=block.dmg_mod_pct, end_mod_pct=block.end_mod_pct, armor=block.armor.id,
        ar=block.armor.ar, armor_sdc=block.armor.sdc, primary_hand=block.primary_hand,
        resist_physical_pct=dict(block.resist_pct).get("physical", 0), ee_max=block.ee_max,
        radii=(r.g, r.c, r.m, r.r), spells=tuple(sp.id for sp in block.spells),
        spell_power=b.spell_power, taunt=b.taunt, save_magic=b.save_magic,
        save_insanity=b.save_insanity, se_max=block.se_max, has_pe=block.has_pe,
        resist_pct=tuple(block.resist_pct), immune_physical_effects=block.immune_physical_effects,
        perception_pct=block.perception_pct, save_coma_pct=b.save_coma_pct)
