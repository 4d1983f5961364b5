"""A toy game on the generic env ("race to 3 points" with a reaction phase): the tests exercise
``CombatAECEnv`` and the SB3 adapter on it, and ``arena bench`` times it to show what the env itself
costs per step with next to no rules behind it.

The toy system, in full:

* Sides ``red`` and ``blue`` (1 or 2 combatants each, 2 hit points each). Initiative: one d6 per
  side at the start, higher side first (ties: red); turns then alternate sides in roster order.
* On its turn a combatant may ``pass``, ``score`` (d6 >= 4: +1 point) or ``attack -> enemy``.
* An attack opens a reaction: the defender decides ``react none`` or ``react block`` (costs 1
  point, legal only with a point). Then the attacker rolls d6 (>= 3 hits); a blocking defender rolls
  d6 (>= 4 cancels the hit). A hit costs 1 hit point; at 0 the defender is out of the fight.
* A side wins when one of its combatants reaches 3 points (``race``) or every enemy is out
  (``defeat``); after ``max_rounds`` rounds the fight is a draw (``round_cap``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.core import (
    Action,
    ActionTaken,
    Dice,
    EncounterEnded,
    Event,
    IllegalActionError,
    Outcome,
    OutOfFight,
    RoundStarted,
    SideInfo,
    TurnStarted,
    parse_label,
)

from .base_env import CombatAECEnv, env_factory
from .layout import ActionLayout, Block
from .observation import ObsSpec, ego_order

# ---------------------------------------------------------------------------- the toy rules


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    who: str
    what: str
    face: int
    success: bool

    def __str__(self) -> str:
        return f"{self.who} rolls {self.what}: d6={self.face} ({'success' if self.success else 'fail'})"


@dataclass(frozen=True, slots=True)
class Scored(Event):
    who: str
    points: int

    def __str__(self) -> str:
        return f"{self.who} scores ({self.points} points)"


@dataclass(frozen=True, slots=True)
class Wounded(Event):
    who: str
    hp: int

    def __str__(self) -> str:
        return f"{self.who} is hit ({self.hp} hp left)"


DUEL = (("red", ("ann",)), ("blue", ("bob",)))
TWO_VS_TWO = (("red", ("ann", "amy")), ("blue", ("bob", "ben")))


class RaceEncounter:
    """The toy encounter (see the module docstring); implements ``envs.core.Encounter``."""

    system = "toy"

    def __init__(self, rosters=DUEL, *, dice: Dice | None = None, hp: int = 2, target: int = 3, max_rounds: int = 6) -> None:
        self._sides = tuple(SideInfo(side, tuple(members)) for side, members in rosters)
        self._side_of = {cid: info.side for info in self._sides for cid in info.members}
        self.points = dict.fromkeys(self._side_of, 0)
        self.hp = dict.fromkeys(self._side_of, hp)
        self.max_hp, self.target, self.max_rounds = hp, target, max_rounds
        columns = [info.members for info in self._sides]
        self.start_events: list[Event] = []
        if dice is not None:
            red, blue = dice.roll(6, 2)
            self.start_events.append(Rolled(self._sides[0].side, "initiative", red, red >= blue))
            self.start_events.append(Rolled(self._sides[1].side, "initiative", blue, blue > red))
            if blue > red:
                columns.reverse()
        self.order = [c for row in itertools.zip_longest(*columns) for c in row if c is not None]
        self._round, self.turn = 1, 0
        self.pending: tuple[str, str] | None = None
        self._outcome: Outcome | None = None
        self.start_events += [RoundStarted(1), TurnStarted(1, self.order[0])]

    # -- protocol
    def sides(self) -> tuple[SideInfo, ...]:
        return self._sides

    def side_of(self, combatant: str) -> str:
        return self._side_of[combatant]

    def is_active(self, combatant: str) -> bool:
        return self.hp[combatant] > 0

    @property
    def round(self) -> int:
        return self._round

    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def current_actor(self) -> str | None:
        if self._outcome is not None:
            return None
        return self.pending[1] if self.pending else self.order[self.turn]

    def legal_actions(self) -> list[Action]:
        if self._outcome is not None:
            return []
        if self.pending:
            d = self.pending[1]
            acts = [Action(d, "react", ("none",))]
            return acts + [Action(d, "react", ("block",))] if self.points[d] else acts
        a = self.order[self.turn]
        foes = [c for info in self._sides if info.side != self._side_of[a] for c in info.members if self.is_active(c)]
        return [Action(a, "pass"), Action(a, "score")] + [Action(a, "attack", target=f) for f in foes]

    def apply(self, action: Action, dice: Dice) -> list[Event]:
        if action not in self.legal_actions():
            raise IllegalActionError(f"round {self._round}: {action.label} is not legal")
        events: list[Event] = [ActionTaken(action.label)]
        actor = action.actor
        if action.kind == "attack":
            self.pending = (actor, action.target)
            return events
        if action.kind == "score":
            face = dice.roll(6)[0]
            events.append(Rolled(actor, "score", face, face >= 4))
            if face >= 4:
                self.points[actor] += 1
                events.append(Scored(actor, self.points[actor]))
                if self.points[actor] >= self.target:
                    return events + self._end(self._side_of[actor], "race")
        elif action.kind == "react":
            attacker, defender = self.pending
            self.pending = None
            face = dice.roll(6)[0]
            hit = face >= 3
            events.append(Rolled(attacker, "attack", face, hit))
            if action.args == ("block",):
                self.points[defender] -= 1
                if hit:
                    b = dice.roll(6)[0]
                    events.append(Rolled(defender, "block", b, b >= 4))
                    hit = b < 4
            if hit:
                self.hp[defender] -= 1
                events.append(Wounded(defender, self.hp[defender]))
                if self.hp[defender] == 0:
                    events.append(OutOfFight(defender, "defeated"))
                    side = self._side_of[defender]
                    if not any(self.is_active(c) for c in self._side_of if self._side_of[c] == side):
                        return events + self._end(self._side_of[attacker], "defeat")
            actor = attacker
        return events + self._end_turn()

    def _end_turn(self) -> list[Event]:
        events: list[Event] = []
        while True:
            self.turn += 1
            if self.turn == len(self.order):
                self.turn = 0
                if self._round == self.max_rounds:
                    return self._end(None, "round_cap")
                self._round += 1
                events.append(RoundStarted(self._round))
            if self.is_active(self.order[self.turn]):
                return events + [TurnStarted(self._round, self.order[self.turn])]

    def _end(self, winner: str | None, reason: str) -> list[Event]:
        self._outcome = Outcome(winner, reason, self._round)
        return [EncounterEnded(winner, reason, self._round)]

    def clone(self) -> RaceEncounter:
        return RaceEncounter.from_snapshot(self.snapshot())

    def snapshot(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "sides": [[i.side, list(i.members)] for i in self._sides],
            "points": dict(self.points),
            "hp": dict(self.hp),
            "rules": [self.max_hp, self.target, self.max_rounds],
            "order": list(self.order),
            "round": self._round,
            "turn": self.turn,
            "pending": list(self.pending) if self.pending else None,
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> RaceEncounter:
        hp, target, max_rounds = data["rules"]
        enc = cls(tuple((s, tuple(m)) for s, m in data["sides"]), hp=hp, target=target, max_rounds=max_rounds)
        enc.points, enc.hp, enc.order = dict(data["points"]), dict(data["hp"]), list(data["order"])
        enc._round, enc.turn = data["round"], data["turn"]
        enc.pending = tuple(data["pending"]) if data["pending"] else None
        enc._outcome = Outcome(**data["outcome"]) if data["outcome"] else None
        enc.start_events = []
        return enc

    def parse_action(self, label: str) -> Action:
        return parse_label(label)

    def view(self, actor: str) -> RaceEncounter:
        return self  # no hidden information in the toy


def toy_from_situation(data: dict[str, Any], source: str, dice: Dice) -> RaceEncounter:
    """Situation fields: ``points`` and ``hp`` overrides by combatant, ``round``, ``max_rounds``."""
    enc = RaceEncounter(dice=dice, max_rounds=data.get("max_rounds", 6))
    for cid, value in data.get("points", {}).items():
        enc.points[cid] = value
    for cid, value in data.get("hp", {}).items():
        enc.hp[cid] = value
    enc._round = data.get("round", 1)
    return enc


# ---------------------------------------------------------------------------- the toy encoding


class ToyEncoding:
    """Spaces and Action <-> index mapping of the toy system."""

    name = "toy_race_v0"
    max_per_side = 2
    layout = ActionLayout(
        [Block("pass"), Block("score"), Block("attack", (("enemy", 2),)), Block("react", (("block", 2),))]
    )
    obs_spec = ObsSpec([("self", 3), ("allies", 3), ("enemies", 6), ("round", 1, 0.0, 1.0), ("phase", 2, 0.0, 1.0)])
    REACTIONS = ("none", "block")

    def encode_action(self, enc: RaceEncounter, combatant: str, action: Action) -> int:
        if action.kind == "attack":
            return self.layout.index("attack", ego_order(enc, combatant, 2)[2].index(action.target))
        if action.kind == "react":
            return self.layout.index("react", self.REACTIONS.index(action.args[0]))
        return self.layout.index(action.kind)

    def decode_action(self, enc: RaceEncounter, combatant: str, index: int) -> Action:
        block, coords = self.layout.coords(index)
        if block == "attack":
            target = ego_order(enc, combatant, 2)[2][coords["enemy"]]
            if target is None:
                raise ValueError(f"enemy slot {coords['enemy']} is empty")
            return Action(combatant, "attack", target=target)
        if block == "react":
            return Action(combatant, "react", (self.REACTIONS[coords["block"]],))
        return Action(combatant, block)

    def observe(self, enc: RaceEncounter, combatant: str) -> np.ndarray:
        vec = self.obs_spec.new()
        views = self.obs_spec.named(vec)
        me, allies, enemies = ego_order(enc, combatant, 2)
        for piece, ids in (("self", [me]), ("allies", allies), ("enemies", enemies)):
            for k, cid in enumerate(ids):
                if cid is not None:
                    views[piece][3 * k : 3 * k + 3] = (1.0, enc.points[cid] / enc.target, enc.hp[cid] / enc.max_hp)
        views["round"][0] = enc.round / enc.max_rounds
        views["phase"][0 if enc.pending is None else 1] = 1.0
        return vec


ENCODING = ToyEncoding()


class raw_env(CombatAECEnv):
    """The toy system's AEC env, written the way a system env module writes its ``raw_env``."""

    def __init__(self, rosters=DUEL, max_rounds: int = 6, render_mode: str | None = None, shaping=None) -> None:
        super().__init__(
            ENCODING,
            lambda dice, options: RaceEncounter(rosters, dice=dice, max_rounds=max_rounds),
            from_situation=toy_from_situation,
            render_mode=render_mode,
            shaping=shaping,
        )


env = env_factory(raw_env)


__all__ = ["RaceEncounter", "ToyEncoding", "ENCODING", "raw_env", "env", "toy_from_situation", "DUEL",
           "TWO_VS_TWO", "Rolled", "Scored", "Wounded"]
