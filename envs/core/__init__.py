"""Shared pure-Python rules toolkit: dice, actions, events, the encounter protocol and its base
class, snapshot/clone by declared fields, data files, and the procedures several specs share
(square grid, kept-die tests, exploding dice, conditions).

Standard library only (numpy only inside ``dice.SeededDice``, PyYAML only in ``data``).
"""

from .actions import Action, ActionSyntaxError, IllegalActionError, parse_label
from .conditions import ConditionDef, ConditionSet, ConditionTable, Stacking
from .d20 import Edge, KeptDieTest, d20_test
from .data import DataError, Entry, load_yaml
from .dice import (
    Dice,
    DiceError,
    DiceExhausted,
    Exploded,
    LeftoverDice,
    ScriptedDice,
    SeededDice,
    UnexpectedDie,
    roll_exploding,
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
from .squaregrid import SquareGrid

__all__ = [
    "Action", "ActionSyntaxError", "IllegalActionError", "parse_label",
    "DataError", "Entry", "load_yaml",
    "Dice", "DiceError", "DiceExhausted", "LeftoverDice", "ScriptedDice", "SeededDice",
    "UnexpectedDie",
    "Encounter", "EncounterBase", "Outcome", "SideInfo", "DEFEAT", "MUTUAL_DEFEAT", "ROUND_CAP",
    "REASONS", "StateFields", "plain",
    "ActionTaken", "EncounterEnded", "Event", "OutOfFight", "RoundStarted", "TurnStarted",
    "ConditionDef", "ConditionSet", "ConditionTable", "Stacking",
    "Edge", "KeptDieTest", "d20_test", "Exploded", "roll_exploding", "SquareGrid",
]
