"""EncounterBase (envs/core/encounter.py) and StateFields (envs/core/snapshot.py) on a tiny game.

``Duel``: two sides of one or two combatants; on its turn a combatant may ``hit -> x`` (a d6: 4+
knocks ``x`` out) or ``wait``. Everything generic comes from ``EncounterBase``: the legality check
and its message, the end of the fight, the defeat and round-cap outcomes.
"""

from __future__ import annotations

import pytest

from envs.core import (
    DEFEAT,
    MUTUAL_DEFEAT,
    REASONS,
    ROUND_CAP,
    Action,
    EncounterBase,
    EncounterEnded,
    IllegalActionError,
    OutOfFight,
    ScriptedDice,
    SideInfo,
    StateFields,
    plain,
)
from envs.core.dice import Dice
from envs.core.events import Event


class Options:
    round_limit = 3


class Piece:
    __slots__ = ("id", "side", "up", "marks", "notes", "block")
    FIELDS = StateFields(values=("id", "side", "up"), containers=("marks", "notes"),
                         shared=("block",))

    def __init__(self, cid: str, side: str) -> None:
        self.id, self.side, self.up = cid, side, True
        self.marks: list[tuple[str, int]] = []
        self.notes: dict[str, int] = {}
        self.block = object()


class Duel(EncounterBase):
    system = "duel"

    def __init__(self, *members: tuple[str, str], blast: bool = False) -> None:
        self.options = Options()
        self.pieces = [Piece(cid, side) for cid, side in members]
        self.by_id = {p.id: p for p in self.pieces}
        self._round, self._outcome, self.turn = 1, None, 0
        self.blast = blast  # a hit knocks out both the hitter and its target
        self.ended_hook = 0

    def sides(self) -> tuple[SideInfo, ...]:
        out: dict[str, list[str]] = {}
        for p in self.pieces:
            out.setdefault(p.side, []).append(p.id)
        return tuple(SideInfo(s, tuple(m)) for s, m in out.items())

    def is_active(self, combatant: str) -> bool:
        return self.by_id[combatant].up

    def current_actor(self) -> str | None:
        return None if self._outcome else self.pieces[self.turn].id

    def legal_actions(self) -> list[Action]:
        me = self.pieces[self.turn]
        foes = [p.id for p in self.pieces if p.side != me.side and p.up]
        return [Action(me.id, "wait")] + [Action(me.id, "hit", (), f) for f in foes]

    def _resolve(self, action: Action, dice: Dice, events: list[Event]) -> None:
        if action.kind == "hit" and dice.roll(6, 1)[0] >= 4:
            out = [self.by_id[action.target]] + ([self.by_id[action.actor]] if self.blast else [])
            for p in out:
                p.up = False
                events.append(OutOfFight(p.id, "defeated"))
            if self._check_defeat(events):
                return
        while True:
            self.turn += 1
            if self.turn == len(self.pieces):
                if self._check_round_cap(events):
                    return
                self.turn, self._round = 0, self._round + 1
            if self.pieces[self.turn].up:
                return

    def _ended(self) -> None:
        self.ended_hook += 1


def test_hit_ends_the_fight_with_defeat() -> None:
    d = Duel(("a", "A"), ("b", "B"))
    events = d.apply(Action("a", "hit", (), "b"), ScriptedDice([5]))
    assert [str(e) for e in events] == [
        "> a: hit -> b", "b is defeated and out of the fight",
        "== fight over in round 1: side A wins (defeat) ==",
    ]
    assert d.is_over() and d.outcome().to_dict() == {"winner": "A", "reason": DEFEAT, "round": 1}
    assert d.ended_hook == 1 and not d.outcome().truncated


def test_no_side_left_is_a_mutual_defeat() -> None:
    d = Duel(("a", "A"), ("b", "B"), blast=True)
    events = d.apply(Action("a", "hit", (), "b"), ScriptedDice([6]))
    assert events[-1] == EncounterEnded(None, MUTUAL_DEFEAT, 1)
    assert d.outcome().winner is None


def test_one_side_standing_of_two_members_keeps_fighting() -> None:
    d = Duel(("a", "A"), ("b", "B"), ("c", "B"))
    d.apply(Action("a", "hit", (), "b"), ScriptedDice([4]))
    assert not d.is_over() and d.current_actor() == "c"


def test_round_cap_is_a_draw_at_the_cap() -> None:
    d = Duel(("a", "A"), ("b", "B"))
    for _ in range(5):
        d.apply(d.legal_actions()[0], ScriptedDice([]))
    assert not d.is_over() and d.round == 3 and d.current_actor() == "b"
    events = d.apply(Action("b", "wait"), ScriptedDice([]))
    assert events == [events[0], EncounterEnded(None, ROUND_CAP, 3)]
    assert d.outcome().truncated and d.current_actor() is None
    assert ROUND_CAP in REASONS and DEFEAT in REASONS and MUTUAL_DEFEAT in REASONS


def test_equal_action_that_is_not_the_listed_object_is_accepted() -> None:
    d = Duel(("a", "A"), ("b", "B"))
    events = d.apply(Action("a", "hit", (), "b"), ScriptedDice([1]))
    assert [str(e) for e in events] == ["> a: hit -> b"] and d.current_actor() == "b"


@pytest.mark.parametrize(("action", "message"), [
    (Action("b", "wait"), "round 1: 'b: wait' is not legal now: it is a's decision"),
    (Action("a", "hit", (), "a"),
     "round 1: 'a: hit -> a' is not legal now for a; legal hit: a: hit -> b"),
    (Action("a", "fly"),
     "round 1: 'a: fly' is not legal now for a; no legal fly; legal kinds: hit, wait"),
])
def test_one_illegal_action_message_format(action: Action, message: str) -> None:
    d = Duel(("a", "A"), ("b", "B"))
    with pytest.raises(IllegalActionError) as err:
        d.apply(action, ScriptedDice([]))
    assert str(err.value) == message


def test_illegal_after_the_end() -> None:
    d = Duel(("a", "A"), ("b", "B"))
    d.apply(Action("a", "hit", (), "b"), ScriptedDice([6]))
    over = r"^round 1: 'b: wait' is not legal now: the fight is over$"
    with pytest.raises(IllegalActionError, match=over):
        d.apply(Action("b", "wait"), ScriptedDice([]))


def test_message_lists_at_most_six_labels() -> None:
    d = Duel(("a", "A"), *((f"b{i}", "B") for i in range(8)))
    msg = d.illegal_message(Action("a", "hit", (), "zz"))
    assert msg.endswith("a: hit -> b5 (+2 more)") and msg.count("; a: hit ->") == 5


def test_state_fields_clone_copies_containers_and_shares_the_rest() -> None:
    p = Piece("a", "A")
    p.marks.append(("x", 1))
    p.notes["k"] = 2
    q = Piece.FIELDS.clone(p)
    assert type(q) is Piece and (q.id, q.side, q.up, q.block) == ("a", "A", True, p.block)
    q.marks.append(("y", 2))
    q.notes["k"] = 3
    assert p.marks == [("x", 1)] and p.notes == {"k": 2}


def test_state_fields_dump_and_load_round_trip() -> None:
    p = Piece("a", "A")
    p.up, p.marks, p.notes = False, [("x", 1)], {"k": 2}
    data = Piece.FIELDS.dump(p)
    assert data == {"id": "a", "side": "A", "up": False, "marks": [["x", 1]], "notes": {"k": 2}}
    q = Piece("z", "B")
    Piece.FIELDS.load(q, data)
    assert (q.id, q.side, q.up, q.notes) == ("a", "A", False, {"k": 2})
    assert q.notes is not data["notes"]


def test_state_fields_encode_and_decode() -> None:
    fields = StateFields(values=("id",), containers=("marks",),
                         encode={"marks": lambda v: [{"k": k, "n": n} for k, n in v]},
                         decode={"marks": lambda v: [(d["k"], d["n"]) for d in v]})
    p = Piece("a", "A")
    p.marks = [("x", 1)]
    data = fields.dump(p)
    assert data == {"id": "a", "marks": [{"k": "x", "n": 1}]}
    q = Piece("b", "B")
    fields.load(q, data)
    assert q.marks == [("x", 1)] and q.id == "a"


def test_state_fields_reject_a_field_declared_twice_and_unsaveable_values() -> None:
    with pytest.raises(ValueError, match="fields declared twice: up"):
        StateFields(values=("up",), containers=("up",))
    with pytest.raises(TypeError, match="cannot save object"):
        plain({"x": object()})
    assert plain({"s": {3, 1}, "t": (1, (2,))}) == {"s": [1, 3], "t": [1, [2]]}
