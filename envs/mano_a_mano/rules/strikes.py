"""Mano a Mano strikes and harm (spec §5.4 strikes, reach RULING R7; §8.1 power, §8.2 harm, §8.3
health and incapacitation, RULING R1, R23, R31; §5.7.4 falls, RULING R14).

Plain functions of the encounter (``state.ManoEncounter``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core import Dice
from envs.core.events import Event, OutOfFight

from . import grappling, preview, turns
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
    p = preview.strike(enc, f, verb, weapon, target, avoid)  # the odds the heuristic sees
    turns.charge(t)  # spends the charge (p.charge_hexes)
    turns.count_action(enc, f, t, quick=p.quick, weapon=weapon)
    mod, diff = p.modifier, p.difficulty
    die = dice.roll(20)[0]
    hit = R.success(die, mod, diff)
    events.append(Rolled(f.id, f"{verb} strike ({weapon}) on {target.id}", die, mod, diff, hit))
    if verb == "cautious":  # RULING R3: the bonus is gained hit or miss
        f.defense_bonus = 5
    power = p.power_at(die)
    if hit:
        harm(enc, target, power, p.sharpness, p.absorption, events)
    elif p.coverer is not None:  # spec §6.4: a failed covered attack hits the coverer, no avoidance
        coverer = enc.by_id[p.coverer]
        events.append(Note(coverer.id, f"takes the blow meant for {target.id}"))
        harm(enc, coverer, power, p.sharpness, coverer.block.best_absorption, events)

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
