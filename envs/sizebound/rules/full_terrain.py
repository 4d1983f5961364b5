"""FULL terrain (spec §3.2 FULL, §5.2.18 Swim, §7.2 Wet, §7.4 drowning, §8.3 Magma and Water,
WE-27, WE-33): deep water and magma cells of the map (a situation's ``map.water`` and
``map.magma``; ``map.shallow_water`` is difficult terrain, spec §5.2.18).

Rulings this module makes where the spec leaves the engine a choice:

* A creature is **in** water when any cell of its footprint is deep water, and **submerged**
  (in magma, or drowning) only when every cell is, and it is on the ground (``z == 0``; a flyer
  or levitator above the cell is not in it).
* Swimming (spec §5.2.3 "a Move uses the lowest of the speeds chosen for it", §5.2.18): each
  step that ends in deep water is a space swum; once it swims, what is left of the Move is
  capped by its Swim speed (``floor(Walk / 3)`` without one, WE-27; twice that under Run) less
  the spaces already swum this turn.
* Water makes a creature Wet (spec §7.2 "gained from: water"): on entering deep water, and on
  taking Water damage. Wet is immune to Ignited, so the fire goes out.
* Drowning (spec §7.4): a creature submerged in deep water that cannot swim (Swim speed 0, or
  Paralyzed or worse, Terrified, Petrified, Rooted) starts Suffocating at round 1, checked at
  the start of every team turn and after each of its steps; it ends when it leaves the water or
  can swim again. Creatures that do not breathe (``no_breath``) are immune.
* Magma (spec §8.3, WE-33): full submersion, when the creature enters magma and again at the
  start of each of its turns while still in it: Magma Immunity 0; Magma Resistance 25% of Max
  HP; Fire Immunity 50% (Magma damage); Fire Resistance only: death at the end of its turn if
  still submerged; no protection: instant death. The strongest protection applies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.squaregrid import footprint

from .events import ConditionChanged
from .full_conditions import body_locked

if TYPE_CHECKING:
    from .fighter import Fighter
    from .state import SizeboundEncounter

__all__ = ["KINDS", "is_full", "kind_cells", "in_water", "submerged", "swim_speed", "can_swim",
           "entered", "turn_start", "turn_end", "water_hit", "magma_hit", "MAGMA_SHARE", "covered"]

KINDS = ("water", "magma", "fire")
"""the terrain kinds of ``enc.terrain`` (cell -> kind); shallow water is a difficult cell; a
``fire`` cell is a fire space (spec §7.2 Ignited; ``full_areas`` puts fires out)"""
MAGMA_SHARE = {"magma_resist": 25, "fire_immune": 50}  # spec §8.3: % of Max HP
DROWN = "drowning"  # the ``fx`` flag of a Suffocating that water causes
DOOM = "magma_doom"  # the ``fx`` flag: dies at the end of its turn if still submerged


def is_full(enc: SizeboundEncounter) -> bool:
    return enc.options.version == "full" and bool(enc.terrain)


def kind_cells(enc: SizeboundEncounter, f: Fighter) -> list[str]:
    return [enc.terrain.get(c, "") for c in footprint(f.pos, f.n)]


def in_water(enc: SizeboundEncounter, f: Fighter) -> bool:
    return f.z == 0 and "water" in kind_cells(enc, f)


def submerged(enc: SizeboundEncounter, f: Fighter, kind: str) -> bool:
    return f.z == 0 and all(k == kind for k in kind_cells(enc, f))


def swim_speed(f: Fighter) -> int:
    """spec §5.2.18, WE-27: the Swim speed, else ``floor(Walk / 3)``."""
    from .full_motion import speed
    return speed(f, "swim")


def can_swim(f: Fighter) -> bool:
    return swim_speed(f) > 0 and f.action_rung < 4 and not body_locked(f) \
        and "rooted" not in f.conds


def _wet(enc: SizeboundEncounter, ev: list[Event], f: Fighter) -> None:
    """spec §7.2 Wet (water); Wet is immune to Ignited, so a fire on it goes out."""
    if not f.alive:
        return
    if "wet" not in f.conds:
        f.conds.add("wet", now=enc.clock, forever=True)
        ev.append(ConditionChanged(f.id, "wet", True))
    if "ignited" in f.conds:
        f.conds.remove("ignited")
        ev.append(ConditionChanged(f.id, "ignited", False))


def _drowning(enc: SizeboundEncounter, ev: list[Event], f: Fighter) -> None:
    """spec §7.4: start or end the Suffocating that water causes."""
    if not f.alive or "no_breath" in f.profile.tags:
        return
    under = submerged(enc, f, "water") and not can_swim(f)
    if under and "suffocating" not in f.conds:
        f.conds.add("suffocating", now=enc.clock, value=1, source="", forever=True)
        f.fx[DROWN] = 1
        ev.append(ConditionChanged(f.id, "suffocating", True))
    elif not under and f.fx.pop(DROWN, 0) and "suffocating" in f.conds:
        f.conds.remove("suffocating")
        ev.append(ConditionChanged(f.id, "suffocating", False))
        if f.conds.remove("unconscious", source="suffocation") and "unconscious" not in f.conds:
            ev.append(ConditionChanged(f.id, "unconscious", False))


def magma_hit(enc: SizeboundEncounter, ev: list[Event], f: Fighter) -> None:
    """spec §8.3 Magma, WE-33: full submersion."""
    from .damage import harm, immune_types, kill
    if not f.alive or not submerged(enc, f, "magma"):
        return
    imm = immune_types(enc, f)
    if "Magma" in imm:
        return
    p = f.profile
    if "Magma" in p.resist:
        share = MAGMA_SHARE["magma_resist"]
    elif "Fire" in imm:
        share = MAGMA_SHARE["fire_immune"]
    elif "Fire" in p.resist:
        f.fx[DOOM] = 1  # death at the end of its turn if still submerged
        return
    else:
        kill(enc, ev, f)
        return
    harm(enc, ev, f, p.max_hp * share // 100, ("Magma",))


def water_hit(enc: SizeboundEncounter, ev: list[Event], f: Fighter,
              dtypes: tuple[str, ...]) -> None:
    """FULL, spec §7.2 Wet, §8.3 Water: a creature hit by Water damage is Wet."""
    if enc.options.version == "full" and "Water" in dtypes:
        _wet(enc, ev, f)


def entered(enc: SizeboundEncounter, ev: list[Event], f: Fighter) -> None:
    """After a step (or a drag): swimming caps the Move, water wets, drowning, magma."""
    if not is_full(enc) or not f.alive:
        return
    if in_water(enc, f):
        _wet(enc, ev, f)
        if f.mode in ("move", "run"):
            swum = f.fx.get("turn:swum", 0) + 1
            f.fx["turn:swum"] = swum
            cap = swim_speed(f) * (2 if f.mode == "run" else 1)
            f.budget = min(f.budget, max(0, cap - swum))
    _drowning(enc, ev, f)
    magma_hit(enc, ev, f)


def turn_start(enc: SizeboundEncounter, ev: list[Event], side: str) -> None:
    """At the start of every team turn: drowning starts or ends for everyone; the active side's
    submerged members take the magma again (spec §8.3)."""
    if not is_full(enc):
        return
    for f in enc.fighters:
        _drowning(enc, ev, f)
        if f.side == side:
            magma_hit(enc, ev, f)


def turn_end(enc: SizeboundEncounter, ev: list[Event], members: list[Fighter]) -> None:
    """spec §8.3 Magma with Fire Resistance only: death at the end of its turn if still
    submerged; spec §7.2: a creature that ends its turn in a fire space becomes Ignited (the
    team turn's end, where the members' turns end; a Wet one is immune)."""
    from .damage import kill
    from .full_conditions import ignite
    if not is_full(enc):
        return
    for f in members:
        if f.fx.pop(DOOM, 0) and f.alive and submerged(enc, f, "magma"):
            kill(enc, ev, f)
        if f.alive and f.z == 0 and "fire" in kind_cells(enc, f):
            ignite(enc, ev, f, source="fire")  # spec §7.2: it ends its turn in a fire space


def covered(enc: SizeboundEncounter, f: Fighter) -> bool:
    """WE-37 (FULL): under cover from the Large Hail when every cell of its block is a roofed
    cell of the map (``map.cover``) and it is on the ground (RULING: a flyer is above the
    roof's shelter)."""
    return bool(enc.cover) and f.z == 0 and all(c in enc.cover for c in footprint(f.pos, f.n))
