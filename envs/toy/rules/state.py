"""The toy encounter: state, legal actions and resolution (see ``envs.toy.rules`` for the rules)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

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

__all__ = [
    "ToyOptions",
    "CORE",
    "FULL",
    "RaceEncounter",
    "Rolled",
    "Scored",
    "Wounded",
    "DUEL",
    "TWO_VS_TWO",
]


@dataclass(frozen=True, slots=True)
class ToyOptions:
    """The toy's rule options: the round cap and whether a defender may block."""

    round_limit: int = 6
    blocks: bool = True


CORE = ToyOptions(blocks=False)
FULL = ToyOptions()


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    who: str
    what: str
    face: int
    success: bool

    def __str__(self) -> str:
        result = "success" if self.success else "fail"
        return f"{self.who} rolls {self.what}: d6={self.face} ({result})"


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


Rosters = tuple[tuple[str, tuple[str, ...]], ...]
DUEL: Rosters = (("red", ("ann",)), ("blue", ("bob",)))
TWO_VS_TWO: Rosters = (("red", ("ann", "amy")), ("blue", ("bob", "ben")))


class RaceEncounter:
    """The toy encounter (see ``envs.toy.rules``); implements ``envs.core.Encounter``."""

    system = "toy"

    def __init__(
        self,
        rosters: Rosters = DUEL,
        *,
        dice: Dice | None = None,
        hp: int = 2,
        target: int = 3,
        max_rounds: int = 6,
        blocks: bool = True,
    ) -> None:
        self._sides = tuple(SideInfo(side, tuple(members)) for side, members in rosters)
        self._side_of = {cid: info.side for info in self._sides for cid in info.members}
        self.points = dict.fromkeys(self._side_of, 0)
        self.hp = dict.fromkeys(self._side_of, hp)
        self.max_hp, self.target, self.max_rounds = hp, target, max_rounds
        self.options = ToyOptions(max_rounds, blocks)
        columns = [info.members for info in self._sides]
        self.start_events: list[Event] = []
        if dice is not None:
            first, second = dice.roll(6, 2)
            self.start_events.append(
                Rolled(self._sides[0].side, "initiative", first, first >= second)
            )
            self.start_events.append(
                Rolled(self._sides[1].side, "initiative", second, second > first)
            )
            if second > first:
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
            if self.points[d] and self.options.blocks:
                acts.append(Action(d, "react", ("block",)))
            return acts
        a = self.order[self.turn]
        side = self._side_of[a]
        foes = [
            c
            for info in self._sides
            if info.side != side
            for c in info.members
            if self.is_active(c)
        ]
        return [Action(a, "pass"), Action(a, "score")] + [
            Action(a, "attack", target=f) for f in foes
        ]

    def apply(self, action: Action, dice: Dice) -> list[Event]:
        if action not in self.legal_actions():
            raise IllegalActionError(f"round {self._round}: {action.label} is not legal")
        events: list[Event] = [ActionTaken(action.label)]
        actor = action.actor
        if action.kind == "attack":
            assert action.target is not None
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
            assert self.pending is not None
            attacker, defender = self.pending
            events += self._resolve_attack(
                attacker, defender, dice, block=action.args == ("block",)
            )
            if self._outcome is not None:
                return events
        return events + self._end_turn()

    def _resolve_attack(
        self, attacker: str, defender: str, dice: Dice, *, block: bool
    ) -> list[Event]:
        """The attack roll, the block roll of a blocking defender, the wound (spec of the toy)."""
        self.pending = None
        face = dice.roll(6)[0]
        hit = face >= 3
        events: list[Event] = [Rolled(attacker, "attack", face, hit)]
        if block:
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
        return events

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
            "rules": [self.max_hp, self.target, self.max_rounds, self.options.blocks],
            "order": list(self.order),
            "round": self._round,
            "turn": self.turn,
            "pending": list(self.pending) if self.pending else None,
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> RaceEncounter:
        hp, target, max_rounds, blocks = data["rules"]
        enc = cls(
            tuple((s, tuple(m)) for s, m in data["sides"]),
            hp=hp,
            target=target,
            max_rounds=max_rounds,
            blocks=blocks,
        )
        enc.points, enc.hp, enc.order = dict(data["points"]), dict(data["hp"]), list(data["order"])
        enc._round, enc.turn = data["round"], data["turn"]
        enc.pending = (data["pending"][0], data["pending"][1]) if data["pending"] else None
        enc._outcome = Outcome(**data["outcome"]) if data["outcome"] else None
        enc.start_events = []
        return enc

    def describe(self, viewer: str | None = None) -> list[dict[str, str]]:
        """One row per combatant: id, side, points and hit points (the toy hides nothing)."""
        return [
            {
                "id": cid,
                "side": side,
                "points": str(self.points[cid]),
                "hp": f"{self.hp[cid]}/{self.max_hp}",
            }
            for cid, side in self._side_of.items()
        ]

    def harm(self) -> dict[str, float]:
        """Hit points lost per combatant."""
        return {cid: float(self.max_hp - hp) for cid, hp in self.hp.items()}

    def parse_action(self, label: str) -> Action:
        return parse_label(label)

    def view(self, actor: str) -> dict[str, Any]:
        """What ``actor`` may know: everything (the toy hides nothing), as plain data."""
        return {
            "round": self._round,
            "target": self.target,
            "pending": list(self.pending) if self.pending else None,
            "combatants": {
                cid: {"side": side, "points": self.points[cid], "hp": self.hp[cid]}
                for cid, side in self._side_of.items()
            },
            "viewer": actor,
        }
