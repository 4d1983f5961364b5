"""Mano a Mano character sheets: stat blocks and the derived combat values of spec §2.3 and §2.6
(the model ``catalogue.py`` loads; the plain records it is built from, templates, items, regions,
are in ``records.py``).

A ``StatBlock`` stores only what a character sheet stores (attributes, abilities, qualities,
held / stowed / worn items); every derived combat value is computed with the formulas of spec §2.3
and the armor model of §2.6:

================  ================================================================================
natural weapon    power ``strength + leverage``; attack ``agility + natural_weapons + offense``;
                  defense ``10 + agility + natural_weapons``
hand weapon       power ``max(item power, wielding hand power)``; attack ``agility + ability +
                  control + offense + hand offense``; defense ``10 + agility + ability +
                  control``
bow / gun         attack ``marksmanship + control + offense`` (R20); power as listed
thrown            modifier ``throwing + agility``; quick range ``max(0, throwing + strength -
                  heft)`` m (R8)
melee defense     best defense of the usable weapons; ``10 + agility`` with none (R48)
missile defense   ``10 + agility``
grapple           attack ``grappling + agility + strength``; defense attack + 10; power best hand
                  (R16)
armor             best absorption of the regions; total cover, complete at 10 or more
================  ================================================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from envs.core.memo import IdentityMemo

from . import rulings
from .records import (
    CARRYING_CAPACITY,
    EncounterDef,
    Item,
    NaturalWeapon,
    Region,
    Template,
    WeaponStats,
    Worn,
)

_SHEET_MEMO = IdentityMemo(limit=4096)


def block_memo(block: Any) -> dict[Any, Any]:
    """The derived values already computed for a frozen stat block (the sheet never changes, so
    they never go stale), kept outside the block (``envs.core.memo.IdentityMemo``)."""
    return _SHEET_MEMO.of(block)


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
            busy: set[str] = set()
            for slot in slots:
                busy.update(
                    {"right": ("right",), "left": ("left",), "both": ("right", "left")}[slot]
                )
            found = block_memo(self)[key] = tuple(
                w
                for w in self.natural_weapons
                if not (w.hand and any(w.name.startswith(b) for b in busy))
            )
        return list(found)

    def natural_stats(self, weapon: NaturalWeapon) -> WeaponStats:
        key = ("natural", weapon.name)
        found = block_memo(self).get(key)
        if found is None:
            power = self.strength + weapon.leverage if self.strength > 0 else 0
            skill = self.ability("natural_weapons")
            found = block_memo(self)[key] = WeaponStats(
                weapon.name,
                power,
                self.agility + skill + weapon.offense + self.inept_penalty("natural_weapons"),
                10 + self.agility + skill,
                weapon.sharpness,
            )
        return found

    def best_natural(self, held: dict[str, str] | None = None) -> WeaponStats | None:
        """The best usable natural weapon (power, then attack)."""
        stats = [self.natural_stats(w) for w in self.free_natural_weapons(held)]
        return max(stats, key=lambda s: (s.power, s.attack, s.defense or 0), default=None)

    def item_stats(self, item_id: str, slot: str | None = None) -> WeaponStats:
        """Derived numbers of ``item_id`` held in ``slot`` (default: where it is held, else the
        right hand)."""
        it = self.items[item_id]
        if slot is None:
            slot = next(
                (s for s, i in self.held.items() if i == item_id),
                "both" if it.two_handed else "right",
            )
        key = ("item", item_id, slot)
        found = block_memo(self).get(key)
        if found is None:
            found = block_memo(self)[key] = self._item_stats(it, slot)
        return found

    def _item_stats(self, it: Item, slot: str) -> WeaponStats:
        hand_power = self.hand_power(slot)
        control, offense, heft = it.control, it.offense, Fraction(it.heft)
        if (
            it.two_handed and slot != "both"
        ):  # spec §2.3, RULING R34: one-handed use of a two-handed weapon
            if control == 0 and offense == 0:
                heft *= rulings.ONE_HANDED_HEFT_FACTOR
            control = offense = 0
        thrown: dict[str, Any] = {}
        if it.throwable:
            throwing = self.ability("throwing")
            thrown = {
                "throw_modifier": throwing + self.agility + self.inept_penalty("throwing"),
                "quick_throw_range_m": max(0, throwing + self.strength - it.heft),
            }  # spec §5.5, R8
        if it.missile:  # spec §2.3, RULING R20: agility is not added to bow and gun attacks
            return WeaponStats(
                it.id,
                it.power,
                self.ability("marksmanship") + control + offense
                + self.inept_penalty("marksmanship"),  # spec §2.8
                None,
                it.sharpness,
                unwieldy=heft > hand_power,
                range_m=it.range_m,
                can_draw=it.kind != "bow" or it.heft < 2 * self.strength,
            )
        skill = self.ability(it.ability or "one_handed")
        inept = self.inept_penalty(it.ability or "one_handed")  # spec §2.8: on the attack roll
        return WeaponStats(
            it.id,
            max(it.power, hand_power),
            self.agility + skill + control + offense + self.hand_offense(slot) + inept,
            10 + self.agility + skill + control,
            it.sharpness,
            unwieldy=heft > hand_power,
            range_m=it.range_m,
            **thrown,
        )

    def melee_defense(self, held: dict[str, str] | None = None) -> int:
        """Best defense of the usable weapons (spec §2.3); ``10 + agility`` with none
        (RULING R48)."""
        held = self.held if held is None else held
        key = ("melee_defense", tuple(sorted(held.items())))
        found = block_memo(self).get(key)
        if found is None:
            defenses = [self.natural_stats(w).defense for w in self.free_natural_weapons(held)]
            defenses += [
                self.item_stats(i, s).defense for s, i in held.items() if not self.items[i].missile
            ]
            found = block_memo(self)[key] = max(
                (d for d in defenses if d is not None), default=10 + self.agility
            )
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
        return max(self.ability("grappling"), self.ability("acrobatics")) + self.inept_penalty(
            "grappling", "acrobatics"
        )

    # ---- armor and load
    @property
    def regions(self) -> tuple[Region, ...]:
        """Natural armor plus worn pieces resolved into non-overlapping regions (spec §2.6)."""
        from .resolution import Piece, resolve_regions

        found = block_memo(self).get("regions")
        if found is None:
            pieces = [
                Piece(w.item, w.region.cover, w.region.absorption, w.inside) for w in self.armor
            ]
            found = block_memo(self)["regions"] = self.template.natural_armor + resolve_regions(
                pieces
            )
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
        """The sheet's held and stowed items plus worn armor (natural weapons and natural armor
        weigh nothing)."""
        return self.mass_with(self.held.values(), self.stowed)

    def mass_with(self, held: Iterable[str], stowed: Iterable[str]) -> float:
        """Carried mass in kg with these held and stowed items, plus worn armor (spec §2.7)."""
        mass = sum(self.items[i].mass_kg for i in (*held, *stowed))
        return mass + sum(w.mass_kg for w in self.armor)

    @property
    def encumbered(self) -> bool:
        """Encumbered with the sheet's items (a fighter's own ``encumbered`` follows what it
        carries)."""
        return self.encumbered_with(self.held.values(), self.stowed)

    def encumbered_with(self, held: Iterable[str], stowed: Iterable[str]) -> bool:
        """Carried mass above the carrying capacity (spec §2.7, §4.5, RULING R26)."""
        key = ("encumbered", tuple(sorted(held)), tuple(sorted(stowed)))
        found = block_memo(self).get(key)
        if found is None:
            found = block_memo(self)[key] = (
                self.mass_with(key[1], key[2]) > self.carrying_capacity_kg
            )
        return found


@dataclass(frozen=True)
class Catalogue:
    templates: dict[str, Template]
    items: dict[str, Item]
    stat_blocks: dict[str, StatBlock]
    encounters: dict[str, EncounterDef]
