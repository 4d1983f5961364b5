"""Random legal play keeps every rules invariant (hypothesis draws the choices and the dice seed).

From every encounter of every system, CORE and FULL: the fight ends within its round cap without an
exception, and after every ``apply``:

* the system's state invariants, from the registry (``envs.get_invariants``: e.g.
  ``envs/mano_a_mano/invariants.py``, one fighter per hex except a rider on its mount);
* the decision invariants and, on every third decision, the encoding invariants
  (``eval.invariants``, the same checks ``arena soak`` makes).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs import SYSTEMS, get_encoding, get_invariants, get_rules
from envs.core import SeededDice
from eval.invariants import (
    decision_invariants,
    encoding_invariants,
    end_invariants,
    step_invariants,
)

RULE_SETS = ("core", "full")
CASES = [(s, e, r) for s in SYSTEMS for e in get_rules(s).encounter_names() for r in RULE_SETS]
IDS = [f"{s}-{e}-{r}" for s, e, r in CASES]
MAX_DECISIONS = 5000  # far above any fight that respects its round cap
ENCODING_EVERY = 3


@pytest.mark.parametrize(("system", "encounter", "rules"), CASES, ids=IDS)
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_the_invariants(
    system: str, encounter: str, rules: str, data, seed: int
):
    R = get_rules(system)
    encoding = get_encoding(system)
    state_invariants = get_invariants(system)
    dice = SeededDice(seed)
    enc = R.new_encounter(encounter, rules, dice)
    state_invariants(enc)
    decisions = 0
    while not enc.is_over():
        assert decisions < MAX_DECISIONS, f"no end after {decisions} decisions (round {enc.round})"
        decision_invariants(enc)
        if decisions % ENCODING_EVERY == 0:
            encoding_invariants(encoding, enc)
        legal = enc.legal_actions()
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="choice")]
        round_before = enc.round
        enc.apply(action, dice)
        step_invariants(enc, round_before)
        state_invariants(enc)
        decisions += 1
    end_invariants(enc)


def _broken_metanoia(enc) -> str:
    f = enc.fighters[0]
    f.strain = f.block.strain_max + 1
    return f"{f.id}: strain {f.strain} outside 0..{f.block.strain_max}"


def _broken_mano(enc) -> str:
    a, b = enc.fighters[0], enc.fighters[1]
    b.hex = a.hex
    return "two fighters in a hex"


def _broken_toy(enc) -> str:
    enc.points["ann"] = 7
    return "ann has 7 points"


@pytest.mark.parametrize(("system", "encounter", "corrupt"), [
    ("metanoia", "duel_seed", _broken_metanoia),
    ("mano_a_mano", "duel_seed", _broken_mano),
    ("toy", "duel", _broken_toy),
])
def test_the_state_invariants_catch_a_broken_state(system: str, encounter: str, corrupt):
    enc = get_rules(system).new_encounter(encounter, "full", SeededDice(0))
    get_invariants(system)(enc)  # a fresh encounter keeps them
    message = corrupt(enc)
    with pytest.raises(AssertionError, match=message):
        get_invariants(system)(enc)


def test_the_label_round_trip_is_skipped_only_when_asked():
    from envs.core.actions import Action

    class Enc:
        round = 1

        def current_actor(self):
            return "a"

        def is_active(self, cid):
            return True

        def legal_actions(self):
            return [Action("a", "wait"), Action("a", "hit", (), "b")]

        def parse_action(self, label):
            raise AssertionError(f"parse_action({label!r}) was called")

    decision_invariants(Enc(), labels=False)  # the cheap checks only
    with pytest.raises(AssertionError, match="parse_action"):
        decision_invariants(Enc(), labels=True)
