"""Mano a Mano data: body templates, items, combatants and encounters (spec §2, §13).

Loaded once from ``envs/mano_a_mano/data/catalogue.yaml``; bad data fails with a ``DataError``
naming the file, the entry and the field. A ``StatBlock`` stores only what a character sheet
stores (attributes, abilities, qualities, held / stowed / worn items); every derived combat value is
computed with the formulas of spec §2.3 and the armor model of §2.6:

=====================  ==========================================================================
natural weapon         power ``strength + leverage``; attack ``agility + natural_weapons + offense``;
                       defense ``10 + agility + natural_weapons``
hand weapon            power ``max(item power, wielding hand power)``; attack ``agility + ability +
                       control + offense + hand offense``; defense ``10 + agility + ability + control``
bow / gun              attack ``marksmanship + control + offense`` (R20); power as listed
thrown                 modifier ``throwing + agility``; quick range ``max(0, throwing + strength - heft)`` m (R8)
melee defense          best defense of the usable weapons; ``10 + agility`` with none (R48)
missile defense        ``10 + agility``
grapple                attack ``grappling + agility + strength``; defense attack + 10; power best hand (R16)
armor                  best absorption of the regions; total cover, complete at 10 or more
=====================  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from envs.core.data import DataError, Entry, load_yaml

from . import rulings

DATA = Path(__file__).resolve().parent.parent / "data"
SHARPNESS = ("sharp", "blunt", "padded")
ITEM_KINDS = ("hand", "thrown", "bow", "gun", "armor")
ABILITIES = ("natural_weapons", "one_handed", "two_handed", "grappling", "throwing", "marksmanship", "acrobatics",
             "stealth", "detection", "climbing", "riding", "animal_handling", "driving", "navigation", "piloting",
             "tactics", "combat_engineering", "craftsmanship")
QUALITIES = ("inept", "unintelligent", "blind", "sudden_regeneration", "hourly_regeneration", "daily_regeneration",
             "perfect_regeneration", "mechanical", "parachuting", "flying", "gliding", "soaring", "deaf", "dumb",
             "mute", "no_natural_weapons", "single_natural_weapon")
SPEEDS = (Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3))
HELD_SLOTS = ("right", "left", "both")
SURPRISE_MODES = ("none", "side_A", "side_B", "roll")
MOUNT_KINDS = ("war",)  # spec §5.11: a trained war animal (untrained: rulings.NO_ANIMAL_HANDLING)

# spec §2.7: carrying capacity (kg) by strength 0..50
CARRYING_CAPACITY = (0, 1, 2, 5, 10, 15, 20, 30, 50, 65, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600, 800,
                     1000, 1200, 1500, 1800, 2100, 2500, 3000, 4000, 5000, 6000, 7500, 9000, 10000, 12000, 15000,
                     20000, 25000, 30000, 35000, 40000, 45000, 50000, 55000, 60000, 65000, 70000, 75000, 80000,
                     90000, 100000)


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


_MEMO: dict[int, tuple[Any, dict[Any, Any]]] = {}


def block_memo(block: Any) -> dict[Any, Any]:
    """The derived values already computed for a frozen stat block (the sheet never changes, so
    they never go stale), kept here, outside the block: keyed by the block's identity, the block
    kept alive with them so that identity is never reused."""
    entry = _MEMO.get(id(block))
    if entry is None or entry[0] is not block:
        if len(_MEMO) > 4096:  # many edited blocks in one process (tests, balance sweeps)
            _MEMO.clear()
        entry = _MEMO[id(block)] = (block, {})
    return entry[1]


@dataclass(frozen=True)
class StatBlock:
    """A combatant's sheet (spec §13); derived values are computed, never stored."""

    id: str
    name: str
    template: Template
    cp: int
    mass_kg: float
    speed: Fraction
    agility: int
    strength: int
    toughness: int
    running: int
    abilities: dict[str, int]
    qualities: frozenset[str]
    held: dict[str, str]
    stowed: tuple[str, ...]
    armor: tuple[Worn, ...]
    bow_drawn: bool = False
    source: str = "seed"
    items: dict[str, Item] = field(default_factory=dict, repr=False)
    mount: str | None = None
    """``"war"``: an animal that can be ridden and fights on its own (spec §5.11); else ``None``"""

    # ---- attributes
    @property
    def stamina(self) -> int:
        return 2 * self.toughness

    def ability(self, name: str) -> int:
        return self.abilities.get(name, 0)

    @property
    def natural_weapons(self) -> tuple[NaturalWeapon, ...]:
        return self.template.natural_weapons

    def hand_power(self, slot: str) -> int:
        """Power of the hand(s) in ``slot`` (right / left / both): strength + leverage."""
        hands = [w for w in self.natural_weapons if w.hand]
        names = {"right": ("right",), "left": ("left",), "both": ("right", "left")}[slot]
        chosen = [w for w in hands if any(w.name.startswith(n) for n in names)] or hands
        return self.strength + max((w.leverage for w in chosen), default=0)

    def hand_offense(self, slot: str) -> int:
        hands = [w for w in self.natural_weapons if w.hand]
        names = {"right": ("right",), "left": ("left",), "both": ("right", "left")}[slot]
        chosen = [w for w in hands if any(w.name.startswith(n) for n in names)] or hands
        return max((w.offense for w in chosen), default=0)

    # ---- weapons
    def free_natural_weapons(self, held: dict[str, str] | None = None) -> list[NaturalWeapon]:
        """Natural weapons not occupied by held items (a held item occupies its hand(s)); ``held``
        defaults to the sheet's."""
        slots = tuple(sorted(self.held if held is None else held))
        key = ("free", slots)
        found = block_memo(self).get(key)
        if found is None:
            busy = set()
            for slot in slots:
                busy.update({"right": ("right",), "left": ("left",), "both": ("right", "left")}[slot])
            found = block_memo(self)[key] = tuple(
                w for w in self.natural_weapons if not (w.hand and any(w.name.startswith(b) for b in busy)))
        return list(found)

    def natural_stats(self, weapon: NaturalWeapon) -> WeaponStats:
        key = ("natural", weapon.name)
        found = block_memo(self).get(key)
        if found is None:
            power = self.strength + weapon.leverage if self.strength > 0 else 0
            skill = self.ability("natural_weapons")
            found = block_memo(self)[key] = WeaponStats(weapon.name, power, self.agility + skill + weapon.offense,
                                                  10 + self.agility + skill, weapon.sharpness)
        return found

    def best_natural(self, held: dict[str, str] | None = None) -> WeaponStats | None:
        """The best usable natural weapon (power, then attack)."""
        stats = [self.natural_stats(w) for w in self.free_natural_weapons(held)]
        return max(stats, key=lambda s: (s.power, s.attack, s.defense or 0), default=None)

    def item_stats(self, item_id: str, slot: str | None = None) -> WeaponStats:
        """Derived numbers of ``item_id`` held in ``slot`` (default: where it is held, else the right hand)."""
        it = self.items[item_id]
        if slot is None:
            slot = next((s for s, i in self.held.items() if i == item_id), "both" if it.two_handed else "right")
        key = ("item", item_id, slot)
        found = block_memo(self).get(key)
        if found is None:
            found = block_memo(self)[key] = self._item_stats(it, slot)
        return found

    def _item_stats(self, it: Item, slot: str) -> WeaponStats:
        hand_power = self.hand_power(slot)
        control, offense, heft = it.control, it.offense, Fraction(it.heft)
        if it.two_handed and slot != "both":  # spec §2.3, RULING R34: one-handed use of a two-handed weapon
            if control == 0 and offense == 0:
                heft *= rulings.ONE_HANDED_HEFT_FACTOR
            control = offense = 0
        thrown = {}
        if it.throwable:
            throwing = self.ability("throwing")
            thrown = {"throw_modifier": throwing + self.agility,
                      "quick_throw_range_m": max(0, throwing + self.strength - it.heft)}  # spec §5.5, R8
        if it.missile:  # spec §2.3, RULING R20: agility is not added to bow and gun attacks
            return WeaponStats(it.id, it.power, self.ability("marksmanship") + control + offense, None, it.sharpness,
                               unwieldy=heft > hand_power, range_m=it.range_m,
                               can_draw=it.kind != "bow" or it.heft < 2 * self.strength)
        skill = self.ability(it.ability or "one_handed")
        return WeaponStats(it.id, max(it.power, hand_power),
                           self.agility + skill + control + offense + self.hand_offense(slot),
                           10 + self.agility + skill + control, it.sharpness, unwieldy=heft > hand_power,
                           range_m=it.range_m, **thrown)

    def melee_defense(self, held: dict[str, str] | None = None) -> int:
        """Best defense of the usable weapons (spec §2.3); ``10 + agility`` with none (RULING R48)."""
        held = self.held if held is None else held
        key = ("melee_defense", tuple(sorted(held.items())))
        found = block_memo(self).get(key)
        if found is None:
            defenses = [self.natural_stats(w).defense for w in self.free_natural_weapons(held)]
            defenses += [self.item_stats(i, s).defense for s, i in held.items() if not self.items[i].missile]
            found = block_memo(self)[key] = max((d for d in defenses if d is not None), default=10 + self.agility)
        return found

    @property
    def missile_defense(self) -> int:
        return 10 + self.agility

    # ---- grappling
    @property
    def grapple_attack(self) -> int:
        return self.ability("grappling") + self.agility + self.strength

    @property
    def grapple_defense(self) -> int:
        return self.grapple_attack + 10

    @property
    def grapple_power(self) -> int:
        """Best hand; without hands, the best natural weapon (RULING R16)."""
        hands = [w for w in self.natural_weapons if w.hand]
        if hands:
            return self.strength + max(w.leverage for w in hands)
        return max((self.natural_stats(w).power for w in self.natural_weapons), default=0)

    def inept_penalty(self, *abilities: str) -> int:
        """-4 on a roll for which an inept character has none of ``abilities`` (spec §2.8)."""
        if "inept" in self.qualities and not any(self.ability(a) for a in abilities):
            return rulings.INEPT_PENALTY
        return 0

    @property
    def grapple_roll_modifier(self) -> int:
        return self.grapple_attack + self.inept_penalty("grappling")

    @property
    def balance_roll_modifier(self) -> int:
        """``max(grappling, acrobatics)``, -4 when inept with neither (spec §5.7.2)."""
        return max(self.ability("grappling"), self.ability("acrobatics")) + self.inept_penalty("grappling", "acrobatics")

    # ---- armor and load
    @property
    def regions(self) -> tuple[Region, ...]:
        """Natural armor plus worn pieces resolved into non-overlapping regions (spec §2.6)."""
        from .resolution import Piece, resolve_regions

        found = block_memo(self).get("regions")
        if found is None:
            pieces = [Piece(w.item, w.region.cover, w.region.absorption, w.inside) for w in self.armor]
            found = block_memo(self)["regions"] = self.template.natural_armor + resolve_regions(pieces)
        return found

    @property
    def best_absorption(self) -> int:
        from .resolution import best_absorption

        found = block_memo(self).get("best_absorption")
        if found is None:
            found = block_memo(self)["best_absorption"] = best_absorption(self.regions)
        return found

    @property
    def total_cover(self) -> int | str:
        """Sum of the regions' cover, or ``"complete"`` (spec §2.6)."""
        from .resolution import total_cover

        found = block_memo(self).get("total_cover")
        if found is None:
            found = block_memo(self)["total_cover"] = total_cover(self.regions)
        return found

    @property
    def carrying_capacity_kg(self) -> int:
        return CARRYING_CAPACITY[min(self.strength, len(CARRYING_CAPACITY) - 1)]

    @property
    def carried_kg(self) -> float:
        """The sheet's held and stowed items plus worn armor (natural weapons and natural armor weigh
        nothing)."""
        return self.mass_with(self.held.values(), self.stowed)

    def mass_with(self, held: Iterable[str], stowed: Iterable[str]) -> float:
        """Carried mass in kg with these held and stowed items, plus worn armor (spec §2.7)."""
        mass = sum(self.items[i].mass_kg for i in (*held, *stowed))
        return mass + sum(w.mass_kg for w in self.armor)

    @property
    def encumbered(self) -> bool:
        """Encumbered with the sheet's items (a fighter's own ``encumbered`` follows what it carries)."""
        return self.encumbered_with(self.held.values(), self.stowed)

    def encumbered_with(self, held: Iterable[str], stowed: Iterable[str]) -> bool:
        """Carried mass above the carrying capacity (spec §2.7, §4.5, RULING R26)."""
        key = ("encumbered", tuple(sorted(held)), tuple(sorted(stowed)))
        found = block_memo(self).get(key)
        if found is None:
            found = block_memo(self)[key] = self.mass_with(key[1], key[2]) > self.carrying_capacity_kg
        return found


@dataclass(frozen=True, slots=True)
class EncounterDef:
    id: str
    sides: dict[str, tuple[str, ...]]
    placement: Any
    surprise_mode: str
    mounted: dict[str, str] = field(default_factory=dict)
    """rider -> mount at the start (spec §5.11; FULL rules only)"""


@dataclass(frozen=True)
class Catalogue:
    templates: dict[str, Template]
    items: dict[str, Item]
    stat_blocks: dict[str, StatBlock]
    encounters: dict[str, EncounterDef]


# ---------------------------------------------------------------------------------- loading


def _speed(e: Entry, key: str) -> Fraction:
    value = e.req(key, (int, float))
    speed = Fraction(value).limit_denominator(4)
    if speed not in SPEEDS:
        e.fail(key, f"expected one of 1/4, 1/2, 1, 2, 3, got {value!r}")
    return speed


def _abilities(e: Entry) -> dict[str, int]:
    sub = e.sub("abilities", {})
    out = {}
    for name in list(sub.data):
        if name not in ABILITIES:
            sub.fail(name, f"unknown ability; known: {', '.join(ABILITIES)}")
        out[name] = sub.integer(name, lo=0)
    sub.done()
    return out


def _qualities(e: Entry) -> frozenset[str]:
    qs = e.items("qualities", [])
    for q in qs:
        if q not in QUALITIES:
            e.fail("qualities", f"unknown quality {q!r}; known: {', '.join(QUALITIES)}")
    return frozenset(qs)


def _region(e: Entry) -> Region:
    cover = e.req("cover")
    if cover != "complete" and (isinstance(cover, bool) or not isinstance(cover, int) or not 1 <= cover <= 9):
        e.fail("cover", f"expected 1..9 or complete, got {cover!r}")
    return Region(None if cover == "complete" else cover, e.integer("absorption", lo=1))


def _template(tid: str, data: Any, src: str) -> Template:
    e = Entry(data, src, f"templates.{tid}")
    weapons = []
    for i, raw in enumerate(e.items("natural_weapons", [])):
        w = Entry(raw, src, f"templates.{tid}.natural_weapons[{i}]")
        weapons.append(NaturalWeapon(w.req("name", str), w.req("hand", bool), w.integer("leverage", 0),
                                     w.integer("offense", 0, 0, 2), w.choice("sharpness", SHARPNESS, "blunt"),
                                     w.opt("unlisted", False, bool)))
        w.done()
    armor = []
    for i, raw in enumerate(e.items("natural_armor", [])):
        a = Entry(raw, src, f"templates.{tid}.natural_armor[{i}]")
        a.opt("name", None, str)
        armor.append(_region(a))
        a.done()
    for key in ("length_type", "variability", "source", "swimming", "airspeed"):
        e.opt(key)
    t = Template(tid, e.req("mass_kg", (int, float)), e.req("length_m", (int, float)), e.integer("cp", lo=0),
                 _speed(e, "speed"), e.integer("agility"), e.integer("strength", lo=0), e.integer("toughness", lo=0),
                 e.integer("running", lo=0), _abilities(e), _qualities(e), tuple(weapons), tuple(armor))
    e.done()
    return t


def _item(iid: str, data: Any, src: str) -> Item:
    e = Entry(data, src, f"items.{iid}")
    kind = e.choice("kind", ITEM_KINDS)
    shots = e.opt("shots", None, list)
    if shots is not None and (len(shots) != 2 or not all(isinstance(s, int) and s >= 0 for s in shots)):
        e.fail("shots", f"expected [shots, reload turns], got {shots!r}")
    cover = None
    if kind == "armor":
        region = _region(e)
        cover = region.cover
    item = Item(
        iid, kind, e.integer("cp"), e.req("mass_kg", (int, float)),
        ability=e.choice("ability", ABILITIES, None) if kind != "armor" else None,
        heft=e.integer("heft", 0, lo=0), power=e.integer("power", 0, lo=0),
        sharpness=e.choice("sharpness", SHARPNESS, "blunt"), control=e.integer("control", 0, 0, 2),
        offense=e.integer("offense", 0, 0, 2), two_handed=e.opt("two_handed", False, bool),
        throwable=e.opt("throwable", False, bool), range_m=e.integer("range_m", 0, lo=0),
        shots=tuple(shots) if shots else None, hands_to_draw=e.integer("hands_to_draw", 0, 0, 2),
        cover=cover, absorption=e.integer("absorption", 0, lo=0) if kind == "armor" else 0,
        source=e.opt("source", "seed", str), reload=_reload(e, kind, shots),
    )
    e.done()
    return item


def _reload(e: Entry, kind: str, shots: list[int] | None) -> str | None:
    """A gun's ``reload``: clip or round, for reload times under MUZZLE_LOADER_TURNS (RULING R50)."""
    reload = e.choice("reload", rulings.GUN_RELOADS, None)
    if reload is not None and kind != "gun":
        e.fail("reload", "only a gun has a reload (spec §5.6)")
    if reload is not None and (shots is None or shots[1] >= rulings.MUZZLE_LOADER_TURNS):
        turns = rulings.MUZZLE_LOADER_TURNS
        e.fail("reload", f"a gun with a reload time of {turns}+ turns is a muzzle-loader (RULING R50); "
               f"clip or round needs shots: [s, t] with t < {turns}")
    if kind == "gun" and shots is not None and shots[0] < 1:
        e.fail("shots", f"a gun holds at least one shot, got {shots!r}")
    return reload


def _stat_block(data: Any, src: str, index: int | str, templates: dict[str, Template],
                items: dict[str, Item]) -> StatBlock:
    e = Entry(data, src, f"combatants[{index}]" if isinstance(index, int) else index)
    cid = e.req("id", str)
    if isinstance(index, int):
        e.entry = f"combatants.{cid}"
    tid = e.req("template", str)
    if tid not in templates:
        e.fail("template", f"unknown template {tid!r}; known: {', '.join(templates)}")
    template = templates[tid]
    held_e = e.sub("held", {})
    held = {}
    for slot in list(held_e.data):
        if slot not in HELD_SLOTS:
            held_e.fail(slot, f"unknown hand; expected one of {', '.join(HELD_SLOTS)}")
        item = held_e.req(slot, str)
        if item not in items or items[item].kind == "armor":
            held_e.fail(slot, f"unknown weapon {item!r}; known: {', '.join(i for i in items if items[i].kind != 'armor')}")
        held[slot] = item
    held_e.done()
    if "both" in held and len(held) > 1:
        e.fail("held", "an item held in both hands leaves no hand free for another")
    stowed = tuple(e.items("stowed", []))
    for item in stowed:
        if item not in items:
            e.fail("stowed", f"unknown item {item!r}")
    worn = []
    for i, raw in enumerate(e.items("armor", [])):
        a = Entry(raw, src, f"{e.entry}.armor[{i}]")
        name = a.req("item", str)
        if name not in items or items[name].kind != "armor":
            a.fail("item", f"unknown armor {name!r}")
        base = items[name]
        cover = a.opt("cover", "complete" if base.cover is None else base.cover)
        fitted = Entry({"cover": cover, "absorption": a.integer("absorption", base.absorption, lo=1)}, src, a.entry)
        inside = a.opt("inside", None, str)
        if inside is not None and inside not in [w.item for w in worn]:
            a.fail("inside", f"{inside!r} is not a piece worn (and listed) before {name!r}")
        worn.append(Worn(name, a.opt("mass_kg", base.mass_kg, (int, float)), _region(fitted), inside))
        a.done()
    toughness = e.integer("toughness", lo=0)
    stamina = e.integer("stamina", 2 * toughness)
    if stamina != 2 * toughness:
        e.fail("stamina", f"stamina is always 2 x toughness = {2 * toughness} (spec §2.1), got {stamina}")
    block = StatBlock(
        cid, e.req("name", str), template, e.integer("cp", lo=0), e.req("mass_kg", (int, float)), _speed(e, "speed"),
        e.integer("agility"), e.integer("strength", lo=0), toughness, e.integer("running", lo=0), _abilities(e),
        template.qualities | _qualities(e), held, stowed, tuple(worn), e.opt("bow_drawn", False, bool),
        e.opt("source", "seed", str), items, mount=e.choice("mount", MOUNT_KINDS, None),
    )
    e.done()
    return block


def _encounter(data: Any, src: str, index: int, blocks: dict[str, StatBlock]) -> EncounterDef:
    e = Entry(data, src, f"encounters[{index}]")
    eid = e.req("id", str)
    e.entry = f"encounters.{eid}"
    sides_e = e.sub("sides")
    sides = {}
    for side in list(sides_e.data):
        members = sides_e.items(side)
        for m in members:
            if m not in blocks:
                sides_e.fail(side, f"unknown combatant {m!r}; known: {', '.join(blocks)}")
        if not members:
            sides_e.fail(side, "a side needs at least one combatant")
        sides[str(side)] = tuple(members)
    sides_e.done()
    if len(sides) < 2:
        e.fail("sides", "an encounter needs at least two sides")
    surprise = e.choice("surprise_mode", SURPRISE_MODES, "none")
    enc = EncounterDef(eid, sides, e.req("placement"), surprise, _mounted(e, sides, blocks))
    e.done()
    return enc


def _mounted(e: Entry, sides: dict[str, tuple[str, ...]],
             blocks: dict[str, StatBlock]) -> dict[str, str]:
    """``mounted: {rider: mount}``: both on one side, the mount a war animal, each in one pair."""
    mounted = e.opt("mounted", {}, dict)
    side_of = {m: s for s, members in sides.items() for m in members}
    for rider, mount in mounted.items():
        if rider not in side_of or mount not in side_of or side_of[rider] != side_of[mount]:
            e.fail("mounted", f"{rider!r} and {mount!r} must both be on one side of the encounter")
        if blocks[mount].mount is None or blocks[rider].mount is not None:
            e.fail("mounted", f"{rider!r} cannot ride {mount!r}: the mount needs 'mount: war'")
    if len(set(mounted.values())) != len(mounted) or set(mounted) & set(mounted.values()):
        e.fail("mounted", "each mount carries one rider, and a rider is not a mount")
    return dict(mounted)


def parse_stat_block(data: Any, source: str, entry: str, block_id: str,
                     items: dict[str, Item] | None = None) -> StatBlock:
    """One stat block in the catalogue's schema, checked as the catalogue's are (a situation's
    inline combatant); ``id`` defaults to ``block_id``, ``name`` to the id, ``items`` to the
    catalogue's items."""
    cat = catalogue()
    if isinstance(data, dict):
        data = {"id": block_id, "name": block_id, **data}
    return _stat_block(data, source, entry, cat.templates, cat.items if items is None else items)


_SOURCES: dict[int, tuple[StatBlock, dict[str, Any]]] = {}
"""the data an inline stat block was read from, by the block's identity (the block kept alive)"""


def remember_source(block: StatBlock, data: dict[str, Any]) -> None:
    """Keep the plain data ``block`` was read from (a situation's inline combatant and its own
    items), so that a snapshot can carry the block (``inline_source``)."""
    if len(_SOURCES) > 4096:
        _SOURCES.clear()
    _SOURCES[id(block)] = (block, data)


def inline_source(block: StatBlock) -> dict[str, Any] | None:
    """``{"block": data, "items": {id: data}}`` of an inline stat block, ``None`` for others."""
    found = _SOURCES.get(id(block))
    return found[1] if found is not None and found[0] is block else None


def parse_item(item_id: str, data: Any, source: str) -> Item:
    """One item in the catalogue's schema (a situation's own ``items``), checked as the
    catalogue's are."""
    return _item(item_id, data, source)


def load_catalogue(path: str | Path) -> Catalogue:
    """Read and check a catalogue file (see the module docstring)."""
    src = str(path)
    root = Entry(load_yaml(path), src, "catalogue")
    templates = {tid: _template(tid, raw, src) for tid, raw in root.sub("templates").data.items()}
    items = {iid: _item(iid, raw, src) for iid, raw in root.sub("items").data.items()}
    blocks: dict[str, StatBlock] = {}
    for i, raw in enumerate(root.items("combatants")):
        block = _stat_block(raw, src, i, templates, items)
        if block.id in blocks:
            raise DataError(f"{src}: combatants.{block.id}: field 'id': duplicate id")
        blocks[block.id] = block
    encounters = {}
    for i, raw in enumerate(root.items("encounters")):
        enc = _encounter(raw, src, i, blocks)
        if enc.id in encounters:
            raise DataError(f"{src}: encounters.{enc.id}: field 'id': duplicate id")
        encounters[enc.id] = enc
    root.done()
    return Catalogue(templates, items, blocks, encounters)


@cache
def catalogue() -> Catalogue:
    """The shipped catalogue (``data/catalogue.yaml``), loaded once."""
    return load_catalogue(DATA / "catalogue.yaml")


def stat_blocks() -> dict[str, StatBlock]:
    return catalogue().stat_blocks


def encounters() -> dict[str, EncounterDef]:
    return catalogue().encounters
