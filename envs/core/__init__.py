"""Shared pure-Python rules toolkit: dice, actions, events, the encounter protocol and its base
class, snapshot/clone by declared fields, data files.

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
from .encounter import (
    DEFEAT,
    MUTUAL_DEFEAT,
    REASONS,
    ROUND_CAP,
    Encounter,
    EncounterBase,
    Outcome,
    SideInfo,
)
from .events import ActionTaken, EncounterEnded, Event, OutOfFight, RoundStarted, TurnStarted
from .snapshot import StateFields, plain

__all__ = [
    "Action", "ActionSyntaxError", "IllegalActionError", "parse_label",
    "DataError", "Entry", "load_yaml",
    "Dice", "DiceError", "DiceExhausted", "LeftoverDice", "ScriptedDice", "SeededDice", "UnexpectedDie",
    "Encounter", "EncounterBase", "Outcome", "SideInfo", "DEFEAT", "MUTUAL_DEFEAT", "ROUND_CAP",
    "REASONS", "StateFields", "plain",
    "ActionTaken", "EncounterEnded", "Event", "OutOfFight", "RoundStarted", "TurnStarted",
]
