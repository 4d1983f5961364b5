"""The system-independent invariants of a fight in progress, checked by the property tests
(``tests/properties/test_invariants.py``) and by ``arena soak`` (``eval.soak``).

* ``decision_invariants(enc)``: the current actor is an active combatant (the out-of-fight never
  act), every legal action is that actor's, ``legal_actions()`` is never empty while the fight is
  on, labels are unique and ``parse_action(label) == action``;
* ``encoding_invariants(encoding, enc)``: the env mask built by the encoding is exactly
  ``{encode(a)}`` over the legal actions, ``decode(encode(a)) == a``, and every observation vector
  lies inside the observation space;
* ``step_invariants(enc, round_before)`` after every ``apply`` and ``end_invariants(enc)`` once the
  fight is over: the round never goes back nor past the cap, the outcome names a side or a draw,
  and a fight lost by elimination leaves no loser active.

A system's own state invariants are the registry's ``invariants`` part (``envs.get_invariants``).
Every check raises ``AssertionError`` with a one-line message.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core import DEFEAT, MUTUAL_DEFEAT
from envs.rl import legal_index_map, mask_from_legal

ELIMINATION_REASONS = frozenset({DEFEAT, MUTUAL_DEFEAT})
"""Outcome reasons that mean the losing sides have no active combatant left, for an encounter that
does not name its own (``EncounterBase.elimination_reasons``: Mano a Mano's are
``incapacitated`` and ``all_incapacitated``). Other reasons (the toy's ``race``) end a fight with
the losers still standing."""

__all__ = [
    "ELIMINATION_REASONS",
    "InvariantChecker",
    "decision_invariants",
    "encoding_invariants",
    "step_invariants",
    "end_invariants",
]


def decision_invariants(enc: Any, *, labels: bool = True) -> None:
    """``labels=False`` skips the ``parse_action`` round trip (the costly part)."""
    actor = enc.current_actor()
    assert actor is not None, f"round {enc.round}: the fight is on but nobody decides"
    out = getattr(enc, "decides_out_of_fight", None)  # a system's exception (Metaforce W-I5)
    assert enc.is_active(actor) or (out is not None and out(actor)), \
        f"round {enc.round}: {actor} is out of the fight but must decide"
    legal = enc.legal_actions()
    assert legal, f"round {enc.round}: no legal action for {actor}"
    names = [a.label for a in legal]
    assert len(set(names)) == len(names), f"duplicate labels: {sorted(names)}"
    for a in legal:
        assert a.actor == actor, f"{a.label} is offered while {actor} decides"
    if labels:
        for a in legal:
            assert enc.parse_action(a.label) == a, f"parse_action({a.label!r}) != the action"


def encoding_invariants(encoding: Any, enc: Any, observers: list[str] | None = None) -> None:
    """``observers``: whose observations to check (default: every member of every side)."""
    actor = enc.current_actor()
    legal = enc.legal_actions()
    index_map = legal_index_map(encoding, enc, actor)  # raises on collisions or missing indices
    assert list(index_map.values()) == legal, (
        "the index map does not list the legal actions in order"
    )
    mask = mask_from_legal(encoding, enc, actor)
    assert set(np.flatnonzero(mask).tolist()) == set(index_map), "the mask is not the legal indices"
    for i, a in index_map.items():
        assert encoding.decode_action(enc, actor, i) == a, f"decode(encode({a.label})) differs"
    spec = encoding.obs_spec
    everyone = [cid for side in enc.sides() for cid in side.members]
    for cid in everyone if observers is None else observers:
        vec = encoding.observe(enc, cid)
        assert vec.shape == (spec.size,) and vec.dtype == np.float32, f"{cid}: observation shape"
        assert np.all(np.isfinite(vec)), f"{cid}: observation not finite"
        outside = np.flatnonzero((vec < spec.low) | (vec > spec.high))
        assert not len(outside), f"{cid}: observation outside its bounds at {outside[:5].tolist()}"


def step_invariants(enc: Any, round_before: int) -> None:
    limit = enc.options.round_limit
    assert round_before <= enc.round <= limit, (
        f"round went {round_before} -> {enc.round} (cap {limit})"
    )


def end_invariants(enc: Any) -> None:
    limit = enc.options.round_limit
    out = enc.outcome()
    assert out is not None and out.round <= limit, f"outcome {out} (cap {limit})"
    assert enc.current_actor() is None and enc.legal_actions() == [], (
        "someone decides after the end"
    )
    sides = {s.side for s in enc.sides()}
    eliminations = getattr(enc, "elimination_reasons", ELIMINATION_REASONS)
    if out.reason == "round_cap":
        assert out.winner is None and out.round == limit, f"round cap outcome {out} (cap {limit})"
    else:
        assert out.winner is None or out.winner in sides, f"winner {out.winner!r} is not a side"
        for s in enc.sides():  # a fight lost by elimination: no loser is active
            if s.side != out.winner and out.reason in eliminations:
                assert not any(enc.is_active(m) for m in s.members), (
                    f"{s.side} lost with someone active"
                )


class InvariantChecker:
    """Every invariant of one system, as a ``check(enc, stage)`` for ``agents.episode.play``.

    ``start``: the state invariants; ``decide``: the decision invariants (and, on every
    ``encoding_every``-th decision, the label round trip and the encoding invariants; 0: the
    round trip on every decision and the encoding never), and a cap of
    ``max_decisions``; ``applied``: the round and the state invariants; ``end``: the outcome.
    ``decisions`` counts the decisions checked so far. ``observers``: how many observations the
    encoding check builds: ``None`` every combatant's; ``k`` the deciding one's and ``k - 1``
    others' in turn (a soak of thousands of games still checks every combatant's view many
    times, at a fraction of the cost: the observations were two thirds of a soak's time).
    """

    def __init__(self, system: str, *, encoding_every: int = 3, max_decisions: int = 5000,
                 observers: int | None = None) -> None:
        from envs import get_encoding, get_invariants

        self.state = get_invariants(system)
        self.encoding = get_encoding(system) if encoding_every else None
        self.encoding_every, self.max_decisions = encoding_every, max_decisions
        self.observers = observers
        self.decisions = 0
        self._round = 0

    def __call__(self, enc: Any, stage: str) -> None:
        if stage == "decide":
            assert self.decisions < self.max_decisions, (
                f"no end after {self.decisions} decisions (round {enc.round})"
            )
            deep = not self.encoding_every or self.decisions % self.encoding_every == 0
            decision_invariants(enc, labels=deep)
            if self.encoding is not None and deep:
                encoding_invariants(self.encoding, enc, self._observers(enc))
            self._round = enc.round
            self.decisions += 1
        elif stage == "applied":
            step_invariants(enc, self._round)
            self.state(enc)
        elif stage == "start":
            self.state(enc)
        elif stage == "end":
            end_invariants(enc)

    def _observers(self, enc: Any) -> list[str] | None:
        if self.observers is None:
            return None
        actor = enc.current_actor()
        others = [cid for side in enc.sides() for cid in side.members if cid != actor]
        start = self.decisions % len(others) if others else 0
        turn = (others[start:] + others[:start])[: max(0, self.observers - 1)]
        return [actor, *turn]
