"""FULL critical tables (spec §8.5, §7.5, R55-R57, R63): Affliction and Stuns (Affliction
spells and stun effects) and Healing Effects (Restoration spells), with the conditions they
create. The d100 is rolled before the damage or heal dice (Resistance Pierce and Burst Heal
change the pipeline: ``pre_*``); the other results apply after, their sub-dice then."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.events import Event
from envs.core.flow import Ctx

from . import content
from .combatant import Combatant
from .damage import remove_wounds
from .events import ConditionChanged, CritRolled, PoolChanged
from .full_effects import lose_stamina, restore
from .rolls import d

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["AFFLICTION", "HEALING", "table_row", "affliction_result", "healing_result",
           "dispel_one", "DISPEL_ORDER", "roll_table"]

AFFLICTION = ((25, "lung_crush"), (35, "head_wound"), (43, "stamina_exhaust"),
              (51, "soul_exhaust"), (59, "resistance_pierce"), (67, "brow_cut"),
              (80, "racing_heart"), (90, "exposure"), (100, "vital_blow"))
HEALING = ((25, "empowered_body"), (35, "consuming_healing"), (43, "focused_healing"),
           (51, "recovery"), (59, "aura_of_recovery"), (67, "healing_dispel"),
           (80, "enduring_heal"), (90, "burst_heal"), (100, "revitalization"))
# spec §8.5: (highest d100 of the row, result).

BROKEN_RESISTANCE_SECONDS, EXPOSURE_SECONDS, VITAL_BLOW_SECONDS = 3, 5, 15
BLOOD_VISION_RANGED_SECONDS, FOCUSED_SECONDS, ENDURING_SECONDS = 7, 5, 15

DISPEL_ORDER = ("prone", "ignite", "stunned", "numbing", "lung_crush", "blood_vision",
                "concussion", "dazed", "vital_blow", "soaked", "taunt", "distract",
                "broken_resistance", "exposure", "heartbeat", "racing_heart", "internal_bleeding",
                "depression", "exhausted")
# R55, spec §6.5: Healing Dispel removes the dispellable debuff with the highest total
# Combat-Roll penalty; ENGINE: ties (and debuffs with no Combat-Roll penalty) in this order.
# The crit-table debuffs Concussion and Dazed (Mental) and Internal Bleeding (Physical) are
# dispellable (spec §7.5 marks none of them otherwise); Crippled limbs are not offered (the
# maxima they took, R59, have no rule for coming back). Depression (Mental, -5% to every Combat
# Roll a stack) and Exhaustion (spec §7.1: "dispellable, but re-applied by the next state
# check") are candidates too: the next state check derives them again.
ON_COMBATANT = frozenset({"concussion", "dazed", "internal_bleeding", "depression", "exhausted"})
"""debuffs counted on the combatant itself, not in its FULL effects"""


def table_row(table: tuple[tuple[int, str], ...], roll: int) -> str:
    for top, name in table:
        if roll <= top:
            return name
    raise ValueError(roll)


def _cond(ev: list[Event], c: Combatant, name: str, value: int) -> None:
    ev.append(ConditionChanged(c.id, name, value))


def affliction_result(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], t: Combatant,
                      name: str) -> None:
    """spec §8.5 Affliction and Stuns, applied after the effect (``name`` from the d100
    rolled before it; Resistance Pierce's +50% was applied by the caller)."""
    if not t.alive:
        return
    fx, now = t.fx, enc.t_abs
    if name == "lung_crush":
        fx.lung_crush, fx.lung_healed = fx.lung_crush + 1, 0
        _cond(ev, t, "lung_crush", fx.lung_crush)
        lose_stamina(ev, t, d(ctx.dice, 6), "lung crush", enc, ctx)
    elif name == "head_wound":
        t.concussion += 1
        _cond(ev, t, "concussion", t.concussion)
    elif name == "stamina_exhaust":
        lose_stamina(ev, t, sum(ctx.dice.roll(8, 2)), "stamina exhaust", enc, ctx)
    elif name == "soul_exhaust":
        ee = min(fx.ee, sum(ctx.dice.roll(6, 2)))
        fx.ee -= ee
        ev.append(PoolChanged(t.id, "ee", -ee, fx.ee, "soul exhaust"))
        m = d(ctx.dice, 4)
        if t.profile.morale_max > 0:  # R43: a being without M.E. has no Morale to lose
            t.morale -= m
            ev.append(PoolChanged(t.id, "morale", -m, t.morale, "soul exhaust"))
    elif name == "resistance_pierce":
        fx.broken_resistance = now + BROKEN_RESISTANCE_SECONDS
        _cond(ev, t, "broken_resistance", 1)
    elif name == "brow_cut":
        fx.blood_vision += 1
        fx.bv_ranged = (*fx.bv_ranged, now + BLOOD_VISION_RANGED_SECONDS)
        _cond(ev, t, "blood_vision", fx.blood_vision)
    elif name == "racing_heart":
        fx.racing_heart, fx.rh_healed = fx.racing_heart + 1, 0
        _cond(ev, t, "racing_heart", fx.racing_heart)
    elif name == "exposure":
        fx.exposure = now + EXPOSURE_SECONDS
        _cond(ev, t, "exposure", 1)
    else:  # vital blow
        fx.vital_blow = (*fx.vital_blow, now + VITAL_BLOW_SECONDS)
        _cond(ev, t, "vital_blow", len(fx.vital_blow))
        lose_stamina(ev, t, d(ctx.dice, 4), "vital blow", enc, ctx)


def _penalty(t: Combatant, name: str) -> int:
    """The debuff's summed percent penalty over the seven Combat Rolls (spec §7.6)."""
    fx = t.fx
    return {"prone": 300 * fx.prone, "ignite": 175 * (fx.ignite is not None),
            "stunned": 35 * len(fx.stunned), "numbing": 30 * len(fx.numbing),
            "lung_crush": 15 * fx.lung_crush, "blood_vision": 10 * fx.blood_vision,
            "concussion": 35 * t.concussion, "dazed": 30 * t.dazed,  # all rolls -5%; SP, Init
            "depression": 35 * t.depression,  # -5% on each of the seven a stack
            }.get(name, 0)


def _present(t: Combatant, name: str) -> bool:
    v = getattr(t, name) if name in ON_COMBATANT else getattr(t.fx, name)
    return bool(v) if not isinstance(v, tuple) else len(v) > 0


def dispel_one(enc: PalladiumEncounter, ev: list[Event], t: Combatant) -> str | None:
    """R55, spec §6.5: remove one dispellable debuff (see ``DISPEL_ORDER``)."""
    have = [n for n in DISPEL_ORDER if _present(t, n)]
    if not have:
        return None
    best = max(have, key=lambda n: (_penalty(t, n), -have.index(n)))
    empty = {"prone": False, "lung_crush": 0, "blood_vision": 0, "racing_heart": 0,
             "numbing": (), "soaked": (), "stunned": (), "vital_blow": ()}
    if best in ON_COMBATANT:
        setattr(t, best, False if best == "exhausted" else 0)
    else:
        setattr(t.fx, best, empty.get(best))
    if best == "blood_vision":
        t.fx.bv_ranged = ()
    _cond(ev, t, best, 0)
    return best


def healing_result(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], caster: Combatant,
                   t: Combatant, name: str, heal: int) -> None:
    """spec §8.5 Healing Effects, after the heal (Burst Heal was applied by the caller)."""
    if not t.alive:
        return
    fx, now = t.fx, enc.t_abs
    if name == "empowered_body":
        fx.empowered = (content.empowered_body_shield(t.sdc_max),
                        now + content.EMPOWERED_BODY_DURATION_S)
        _cond(ev, t, "empowered", fx.empowered[0])
    elif name == "consuming_healing":  # R56: dispels nothing by default
        remove_wounds(ev, t, sum(ctx.dice.roll(6, 2)), "consuming healing")
    elif name == "focused_healing":
        fx.focused = ((fx.focused[0] if fx.focused else 0) + 1, now + FOCUSED_SECONDS)
        _cond(ev, t, "focused", fx.focused[0])
    elif name == "recovery":
        fx.recovery += 1
        _cond(ev, t, "recovery", fx.recovery)
    elif name == "aura_of_recovery":  # R57
        for o in enc.combatants:
            if o.id != t.id and o.id != caster.id and o.side == caster.side \
                    and o.alive and o.dist(t) <= 50:
                restore(enc, ev, o, heal * 25 // 100, "aura of recovery")
    elif name == "healing_dispel":
        dispel_one(enc, ev, t)
    elif name == "enduring_heal":  # R63: at least 1 per tick
        fx.enduring = (max(1, heal * 5 // 100), now, now + ENDURING_SECONDS)
        _cond(ev, t, "enduring", fx.enduring[0])
    elif name == "revitalization":
        remove_wounds(ev, t, t.wounds * 25 // 100, "revitalization")
        gain = min(sum(ctx.dice.roll(6, 2)), t.profile.stamina_max - t.stamina)
        if not fx.no_pe and gain > 0:
            t.stamina += gain
            ev.append(PoolChanged(t.id, "stamina", gain, t.stamina, "revitalization"))


def roll_table(ctx: Ctx, ev: list[Event], t: Combatant,
               table: tuple[tuple[int, str], ...]) -> str:
    """The d100 of a table, before the effect dice (spec §8.5)."""
    r = d(ctx.dice, 100)
    name = table_row(table, r)
    ev.append(CritRolled(t.id, r, name))
    return name

