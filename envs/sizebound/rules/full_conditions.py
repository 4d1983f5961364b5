"""The FULL conditions of spec §7.2-§7.4 (off under CORE: only FULL sources apply them, and the
turn hooks run only under the FULL options).

* the fear ladder (spec §7.3): Afraid 1 -> Panicked 2 (no named next step, §7.1) and
  Terrified 3 -> Unconscious; Cardiac Arrest is an instant (``cardiac_arrest``);
* Rooted, Silenced, Mute, Petrified/Frozen, Incorporeal, Ignited, Wet, Drunk and Concentrating
  (a state the Concentration rules of spec §9.4 set with ``start_concentrating``);
* Suffocating (spec §7.4): its value is the suffocation round, its source the strangler
  (``""`` for no air); it advances at the start of each of the victim's turns.

Helper states: ``holding_breath`` (React breath, spec §5.2.12), ``arms_free`` (a strangled
creature's arms until the strangler's next turn, spec §5.2.14) and ``steal_edge`` (the advantage
won by resisting a Steal, spec §5.2.15; its source is the thief).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from envs.core.conditions import ConditionDef, Stacking, ladder
from envs.core.events import Event

from .events import ConditionChanged

if TYPE_CHECKING:
    from envs.core.flow import Ctx

    from .fighter import Fighter
    from .state import SizeboundEncounter

__all__ = ["FearRung", "FEAR", "full_defs", "is_full", "fear_sources", "body_locked",
           "no_decisions", "petrified", "stat_totals", "no_magic", "cond_immunities",
           "cond_resists", "wet_hit", "turn_start", "turn_end", "breath_upkeep", "cardiac_arrest",
           "start_concentrating", "Suffocation", "ignite", "suffocate", "IGNITED_DAMAGE",
           "drunk_shrugs_fear", "in_touch"]

FEAR = "fear"
IGNITED_DAMAGE = 5  # spec §7.2 Ignited: 5 Fire at the start and at the end of each of its turns
CARDIAC_DAMAGE = 50  # spec §7.2 Cardiac Arrest: 50 True damage to a conscious Terrified creature
PETRIFIED = ("petrified", "frozen")
_STONE = frozenset(PETRIFIED)
_LOCKED = frozenset(PETRIFIED + ("terrified",))
SUFFOCATION_PENALTY = {3: (2, 0), 4: (4, 2), 5: (6, 4)}  # spec §7.4: round -> (TM -, TS -)
SUFFOCATION_UNCONSCIOUS, SUFFOCATION_DEATH = 6, 7
SUFFOCATION_NO_MAGIC = 2
DRUNK_TOTALS = (1, -1, 1)  # spec §7.2 Drunk: +1 TM, -1 TS, +1 TMa
DRUNK_HIT = 2  # spec §7.2 Drunk: -2 Hit (attack and Parry rolls)


class FearRung(IntEnum):
    AFRAID = 1
    PANICKED = 2
    TERRIFIED = 3


@dataclass(frozen=True, slots=True)
class Suffocation(Event):
    actor: str
    round: int

    def __str__(self) -> str:
        return f"{self.actor} suffocates: round {self.round}"


def full_defs() -> list[ConditionDef]:
    """The condition records of spec §7.2 that FULL adds (durations on the slot clock)."""
    defs = ladder(FEAR, FearRung, clock="slot", tops=[FearRung.PANICKED],
                  nexts={FearRung.TERRIFIED: "unconscious"})
    names = ("rooted", "silenced", "mute", "petrified", "frozen", "incorporeal", "ignited",
             "wet", "drunk", "concentrating", "suffocating", "holding_breath", "arms_free")
    defs += [ConditionDef(n, Stacking.REPLACE, "slot") for n in names]
    defs.append(ConditionDef("steal_edge", Stacking.STACK, "slot", stack_same_source=False))
    return defs


def is_full(enc: SizeboundEncounter) -> bool:
    return enc.options.version == "full"


def fear_sources(f: Fighter) -> list[str]:
    """spec §7.1: every fear rung up to the effective one applies; the sources of Afraid,
    Panicked and Terrified instances (the creature may not close on any of them)."""
    return [c.source for c in f.conds if c.name in ("afraid", "panicked", "terrified")]


def in_touch(f: Fighter, t: Fighter) -> bool:
    """``f`` and ``t`` can interact physically (spec §7.2 Incorporeal: not if either is; Trip,
    Grapple, Disarm, Steal, Strangle need it; a blow still lands)."""
    return "incorporeal" not in f.conds and "incorporeal" not in t.conds


def petrified(f: Fighter) -> bool:
    return f.conds.any_of(_STONE)


def no_decisions(f: Fighter) -> bool:
    """spec §4.6: an Unconscious (R-15) or Petrified/Frozen creature takes no decisions at all,
    the exertion windows of §6.5 included (Paralyzed and Terrified keep them)."""
    return f.unconscious or f.conds.any_of(_STONE)


def drunk_shrugs_fear(f: Fighter, round_no: int) -> bool:
    """spec §7.2 Drunk: immune to the first fear effect each round; this one spends it."""
    if "drunk" not in f.conds or f.fx.get("drunk_fear") == round_no:
        return False
    f.fx["drunk_fear"] = round_no
    return True


def body_locked(f: Fighter) -> bool:
    """spec §4.6: Terrified (as Paralyzed) and Petrified/Frozen (nothing at all)."""
    return f.conds.any_of(_LOCKED)


def stat_totals(f: Fighter) -> tuple[int, int, int]:
    """The Totals after Suffocating (spec §7.4) and Drunk (spec §7.2)."""
    tm, ts, tma = f.profile.totals
    if "suffocating" in f.conds:
        r = min(f.conds.value("suffocating"), 5)
        dm, ds = SUFFOCATION_PENALTY.get(r, (0, 0))
        tm, ts = tm - dm, ts - ds
    if "drunk" in f.conds:
        tm, ts, tma = tm + DRUNK_TOTALS[0], ts + DRUNK_TOTALS[1], tma + DRUNK_TOTALS[2]
    return tm, ts, tma


def no_magic(f: Fighter) -> bool:
    """Silenced (spec §7.2), or suffocating from round 2 (spec §7.4): no Magical Skills."""
    return "silenced" in f.conds or (
        "suffocating" in f.conds and f.conds.value("suffocating") >= SUFFOCATION_NO_MAGIC)


def cond_immunities(f: Fighter) -> set[str]:
    """spec §7.2 Petrified/Frozen and Incorporeal immunities."""
    out: set[str] = set()
    if petrified(f):
        out |= {"Piercing", "Fire", "Cold", "Poison", "Bleed"}
    if "incorporeal" in f.conds:
        out |= {"Piercing", "Slashing", "Bludgeoning", "Earth"}
    return out


def cond_resists(f: Fighter) -> set[str]:
    return {"Slashing"} if petrified(f) else set()


def wet_hit(ev: list[Event], f: Fighter, dtypes: tuple[str, ...]) -> tuple[bool, bool]:
    """spec §7.2 Wet: the next Fire damage is Resisted, the next Lightning or Cold damage is
    Vulnerable, and Wet ends. Returns (resisted, vulnerable)."""
    if "wet" not in f.conds:
        return False, False
    res = "Fire" in dtypes
    vul = "Lightning" in dtypes or "Cold" in dtypes
    if res or vul:
        f.conds.remove("wet")
        ev.append(ConditionChanged(f.id, "wet", False))
    return res, vul


def ignite(enc: SizeboundEncounter, ev: list[Event], f: Fighter, source: str = "") -> bool:
    """spec §7.2 Ignited (until put out); a Wet creature, and one immune to Fire ("Immunity
    prevents it entirely"; spec §8.4: no ongoing effect of an immune kind; Petrified/Frozen
    included), are not Ignited. Returns whether it took."""
    from .damage import immune_types
    if "wet" in f.conds or not f.alive or "Fire" in immune_types(enc, f):
        return False
    if "ignited" not in f.conds:
        ev.append(ConditionChanged(f.id, "ignited", True))
    f.conds.add("ignited", now=enc.clock, source=source, forever=True)
    return True


def _ignite_tick(enc: SizeboundEncounter, ctx: Ctx | None, ev: list[Event], f: Fighter) -> None:
    """spec §7.2 Ignited: 5 Fire through the §8.2 procedure (a flat 5, no stat, D5; no dealer,
    so no E-DMG), the R-BLOCK window D11 included. ``ctx`` is None only while a fight or a
    situation starts (its first team turns, before any action: nobody can be asked yet): those
    ticks skip D11."""
    from .damage import deal, harm, resist_vuln
    from .full_damage import absorb
    if not (f.alive and "ignited" in f.conds):
        return
    fire = ("Fire",)
    if ctx is not None:
        deal(enc, ctx, ev, dealer=None, target=f, dice_n=0, dice_sides=0, flat=IGNITED_DAMAGE,
             dtypes=fire)
        return
    immune, _, _ = resist_vuln(enc, f, fire)
    if not immune:
        harm(enc, ev, f, absorb(enc, ev, f, IGNITED_DAMAGE, fire), fire)


def suffocate(enc: SizeboundEncounter, ev: list[Event], f: Fighter, rounds: int = 1) -> None:
    """spec §7.4: advance the suffocation round; round 6 Unconscious, round 7 death."""
    from .damage import kill
    c = f.conds.instances("suffocating")[0]
    new = c.value + rounds
    f.conds.remove("suffocating")
    # the instance keeps when it began: R-39's extra contests test it ("started before now")
    f.conds.add("suffocating", now=c.applied_at, value=new, source=c.source, forever=True)
    ev.append(Suffocation(f.id, new))
    if new >= SUFFOCATION_UNCONSCIOUS and not f.conds.instances("unconscious"):
        f.conds.add("unconscious", now=enc.clock, source="suffocation", forever=True)
        ev.append(ConditionChanged(f.id, "unconscious", True))
    if new >= SUFFOCATION_DEATH and f.alive:
        kill(enc, ev, f)


def turn_start(enc: SizeboundEncounter, ctx: Ctx | None, ev: list[Event],
               members: list[Fighter]) -> None:
    """spec §4.2 step 3 (FULL): Ignited deals 5 Fire; Suffocating advances one round."""
    if not is_full(enc):
        return
    for f in members:
        _ignite_tick(enc, ctx, ev, f)
        if f.alive and "suffocating" in f.conds:
            suffocate(enc, ev, f)


def turn_end(enc: SizeboundEncounter, ctx: Ctx | None, ev: list[Event],
             members: list[Fighter]) -> None:
    """spec §4.7 step 1 (FULL): Ignited deals 5 Fire; spec §7.2: a creature that ends its turn
    holding (grappling, lifting) an Ignited creature becomes Ignited (no tick this time, as in
    a fire space)."""
    if not is_full(enc):
        return
    for f in members:
        _ignite_tick(enc, ctx, ev, f)
    for f in members:
        held = [g for g in f.grips if "ignited" in enc.by_id[g].conds]
        if f.alive and held:
            ignite(enc, ev, f, source=held[0])


def breath_upkeep(enc: SizeboundEncounter, ev: list[Event]) -> None:
    """spec §5.2.14, §7.4: a strangled creature breathes again (Suffocating ends, with the
    Unconscious it caused) as soon as the strangler no longer grapples it; Panicked, Terrified
    and Unconscious creatures lose Concentration (spec §9.4)."""
    for f in enc.fighters:
        if not f.alive:
            continue
        for c in f.conds.instances("suffocating"):
            if c.source and c.source not in f.grappled_by:
                f.conds.remove("suffocating")
                ev.append(ConditionChanged(f.id, "suffocating", False))
                if f.conds.remove("unconscious", source="suffocation") \
                        and "unconscious" not in f.conds:
                    ev.append(ConditionChanged(f.id, "unconscious", False))
        if "concentrating" in f.conds and (f.unconscious or "panicked" in f.conds
                                           or "terrified" in f.conds):
            f.conds.remove("concentrating")
            ev.append(ConditionChanged(f.id, "concentrating", False))


def cardiac_arrest(enc: SizeboundEncounter, ev: list[Event], f: Fighter,
                   source: str = "") -> None:
    """spec §7.2 Cardiac Arrest (instant): a conscious Terrified creature takes 50 True damage;
    one with no heart becomes Unconscious instead. No effect otherwise."""
    from .damage import true_damage
    if not f.alive or f.unconscious or "terrified" not in f.conds:
        return
    if "no_heart" in f.profile.tags:
        f.conds.add("unconscious", now=enc.clock, source=source, forever=True)
        ev.append(ConditionChanged(f.id, "unconscious", True))
    else:
        true_damage(enc, ev, f, CARDIAC_DAMAGE)


def start_concentrating(enc: SizeboundEncounter, ev: list[Event], f: Fighter, skill: str,
                        rounds: int = 10) -> bool:
    """spec §9.4: Concentrating on ``skill`` (one at a time, 10 rounds at most); Panicked and
    Terrified creatures cannot Concentrate. Returns whether it started."""
    if "panicked" in f.conds or "terrified" in f.conds or f.unconscious:
        return False
    had = "concentrating" in f.conds
    f.conds.add("concentrating", now=enc.clock, duration=rounds * enc.slots, source=skill)
    if not had:
        ev.append(ConditionChanged(f.id, "concentrating", True))
    return True
