"""Mano a Mano strikes and harm (spec §5.4 strikes, reach RULING R7; §8.1 power, §8.2 harm, §8.3
health and incapacitation, RULING R1, R23, R31; §5.7.4 falls, RULING R14).

Plain functions of the encounter (``state.ManoEncounter``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core import Dice
from envs.core.events import Event, OutOfFight

from . import grappling, modifiers, turns
from . import resolution as R
from .events import Harmed, Note, Rolled
from .fighter import Fighter, Turn

if TYPE_CHECKING:
    from .state import ManoEncounter


def strike(
    enc: ManoEncounter,
    f: Fighter,
    t: Turn,
    verb: str,
    weapon: str,
    target: Fighter,
    dice: Dice,
    events: list[Event],
    avoid: str | None = None,
) -> None:
    stats = f.weapons()[weapon]
    charge = turns.charge(t)
    turns.count_action(enc, f, t, quick=verb == "quick", weapon=weapon)
    mod = stats.attack + (5 if verb == "strategic" else 0)
    mod += modifiers.attack_mod(enc, f, target, "striking")
    mod += modifiers.favorable(enc, f, target)
    cost, absorption = modifiers.avoidance(enc, target, avoid)
    coverer, cover_diff = modifiers.coverer(enc, target, f, "striking")
    if coverer is not None:
        diff = cover_diff + cost
    else:
        diff = (
            target.melee_defense()
            + modifiers.defense_mod(enc, target, f, "striking")
            + target.defense_bonus
            + cost
        )
    diff += modifiers.darkness(enc, f, "striking")
    die = dice.roll(20)[0]
    hit = R.success(die, mod, diff)
    events.append(Rolled(f.id, f"{verb} strike ({weapon}) on {target.id}", die, mod, diff, hit))
    if verb == "cautious":  # RULING R3: the bonus is gained hit or miss
        f.defense_bonus = 5
    power = R.attack_power(
        stats.power,
        double=verb == "powerful",
        die=die,
        charge_hexes=charge,
        random_damage=enc.options.random_damage,
        critical_hits=enc.options.critical_hits,
    )
    if hit:
        harm(enc, target, power, stats.sharpness, absorption, events)
    elif coverer is not None:  # spec §6.4: a failed covered attack hits the coverer, no avoidance
        events.append(Note(coverer.id, f"takes the blow meant for {target.id}"))
        harm(enc, coverer, power, stats.sharpness, coverer.block.best_absorption, events)


def harm(
    enc: ManoEncounter,
    target: Fighter,
    power: int,
    sharpness: str,
    absorption: int,
    events: list[Event],
) -> None:
    was = target.incapacitated
    damage, stun = R.harm(power, sharpness, absorption)
    target.damage += damage
    target.stun += stun
    if damage + stun > 0:
        target.aiming = None  # spec §8.2, RULING R31
    events.append(Harmed(target.id, power, absorption, damage, stun, target.health))
    if not was:
        after_harm(enc, target, events)


def fall(enc: ManoEncounter, target: Fighter, power: int, events: list[Event]) -> bool:
    target.standing = False
    events.append(Note(target.id, "falls to the ground"))
    fall_harm(enc, target, power, events)
    return True


def fall_harm(enc: ManoEncounter, target: Fighter, power: int, events: list[Event]) -> None:
    """A fall: blunt, best absorption, at least 2 stun (spec §5.7.4, RULING R14)."""
    was = target.incapacitated
    damage, stun = R.harm(power, "blunt", target.block.best_absorption, fall=True)
    target.damage += damage
    target.stun += stun
    if damage + stun > 0:
        target.aiming = None  # spec §8.2, RULING R31: lost on any damage or stun
    events.append(
        Harmed(target.id, power, target.block.best_absorption, damage, stun, target.health)
    )
    if not was:
        after_harm(enc, target, events)


def after_harm(enc: ManoEncounter, target: Fighter, events: list[Event]) -> None:
    if target.incapacitated:  # RULING R23
        target.standing = False
        target.counter_ready = False
        target.covering = None
        target.aiming = None
        grappling.release_all(enc, target.id)
        events.append(OutOfFight(target.id, target.health.replace("_", " ")))
        turns.check_end(enc, events)
