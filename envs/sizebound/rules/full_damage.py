"""FULL damage rules (spec §8.2-§8.4, §8.9, §2.7): average damage (R-61), Absorption, the
creature-type tags, Tertiary types, Magma, Water, Momentum, Teleport and Blink.

Hooks: ``damage.deal`` asks ``average_roll`` at D4 and ``absorb`` at D12; ``damage.immune_types``
and ``resist_vuln`` add ``tag_immunities`` and ``tag_vulnerabilities``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event

from .conventions import absorb_split, reduce_to
from .events import Healed
from .fighter import Fighter
from .sheet import TAG_IMMUNITIES

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["average_roll", "average_of", "tag_immunities", "tag_vulnerabilities", "absorb",
           "TAG_VULNERABLE"]

TAG_VULNERABLE = {"vile": {"Solar"}, "fae": {"Iron"}, "shifter": {"Silver"},
                  "magical": {"Lead"}, "spectral": {"Psychic"}}
"""spec §2.7: the creature types' vulnerabilities (Iron, Silver, Lead: Tertiary types, which
count only this way, spec §8.2 D3)."""


def _full(enc: SizeboundEncounter) -> bool:
    return enc.options.version == "full"


def tag_immunities(enc: SizeboundEncounter, t: Fighter) -> set[str]:
    """FULL, spec §2.7: the immunities of ``t``'s creature-type tags."""
    if not _full(enc):
        return set()
    return set().union(*(TAG_IMMUNITIES.get(tag, set()) for tag in t.profile.tags))


def tag_vulnerabilities(enc: SizeboundEncounter, t: Fighter) -> set[str]:
    """FULL, spec §2.7, §8.3: the tags' vulnerabilities; a Wet creature is Vulnerable to
    Lightning."""
    if not _full(enc):
        return set()
    out = set().union(*(TAG_VULNERABLE.get(tag, set()) for tag in t.profile.tags))
    if "wet" in t.conds:
        out.add("Lightning")
    return out


def absorb(enc: SizeboundEncounter, ev: list[Event], t: Fighter, amount: int,
           dtypes: tuple[str, ...]) -> int:
    """FULL, spec §8.2 D12, §8.4: the highest absorption % among the source's types heals
    ``floor(amount * p / 100)`` (capped at Max HP) instead of harming; returns what is left."""
    if not _full(enc) or amount <= 0 or not t.alive or "True" in dtypes:
        return amount
    p = max((pct for typ, pct in t.profile.absorb if typ in dtypes), default=0)
    amount, healed = absorb_split(amount, p)  # WE-16
    if healed <= 0:
        return amount
    new = reduce_to(t.hp + healed, t.profile.max_hp)  # healing caps at Max HP (WE-22)
    ev.append(Healed(t.id, new - t.hp, new))
    t.hp = new
    return amount


def average_roll(enc: SizeboundEncounter, dealer: Fighter | None) -> bool:
    """spec §8.2 D4, R-61: the dealer chose average damage (its stat block, or the option for
    every dealer)."""
    if enc.options.damage_roll_mode == "average":
        return True
    return dealer is not None and dealer.profile.damage_roll_mode == "average"


def average_of(dice_n: int, dice_sides: int) -> int:
    """R-61, WE-12: an expression ``nDx`` gives ``floor(n * x / 2)`` (3d6 -> 9, 1d8 -> 4)."""
    return dice_n * dice_sides // 2
