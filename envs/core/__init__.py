"""Shared pure-Python rules toolkit: dice, actions, events, the encounter protocol, data files.

Standard library only (numpy only inside ``dice.SeededDice``, PyYAML only in ``data``).
"""

from .actions import Action, ActionSyntaxError, IllegalActionError, parse_label
from .data import DataError, Entry, load_yaml
from .dice import (
    Dice,
    DiceError,
    DiceExhausted,
    LeftoverDice,
    ScriptedDice,
    SeededDice,
    UnexpectedDie,
)
from .encounter import Encounter, Outcome, SideInfo
from .events import ActionTaken, EncounterEnded, Event, OutOfFight, RoundStarted, TurnStarted

__all__ = [
    "Action", "ActionSyntaxError", "IllegalActionError", "parse_label",
    "DataError", "Entry", "load_yaml",
    "Dice", "DiceError", "DiceExhausted", "LeftoverDice", "ScriptedDice", "SeededDice", "UnexpectedDie",
    "Encounter", "Outcome", "SideInfo",
    "ActionTaken", "EncounterEnded", "Event", "OutOfFight", "RoundStarted", "TurnStarted",
]
