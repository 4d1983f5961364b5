"""``end_invariants`` reads which reasons mean elimination from the encounter itself
(``EncounterBase.elimination_reasons``), so no system's reason names live in eval/."""

from __future__ import annotations

import pytest

from envs.core import Outcome, SideInfo
from envs.mano_a_mano.rules.state import ManoEncounter
from envs.metanoia.rules.state import MetanoiaEncounter
from eval.invariants import end_invariants


class Ended:
    """A finished fight whose loser still has someone standing."""

    def __init__(self, reason: str, reasons: frozenset[str] | None = None) -> None:
        self.options = type("O", (), {"round_limit": 10})()
        self._out = Outcome("A", reason, 3)
        if reasons is not None:
            self.elimination_reasons = reasons

    def outcome(self):
        return self._out

    def current_actor(self):
        return None

    def legal_actions(self):
        return []

    def sides(self):
        return (SideInfo("A", ("a",)), SideInfo("B", ("b",)))

    def is_active(self, cid):
        return True


def test_an_elimination_with_the_loser_standing_breaks_the_invariant():
    with pytest.raises(AssertionError, match="B lost with someone active"):
        end_invariants(Ended("defeat"))  # the standard reasons by default
    with pytest.raises(AssertionError, match="B lost with someone active"):
        end_invariants(Ended("incapacitated", frozenset({"incapacitated"})))
    end_invariants(Ended("incapacitated"))  # not an elimination reason of this encounter
    end_invariants(Ended("race", frozenset({"defeat"})))


def test_each_system_names_its_own_elimination_reasons():
    assert ManoEncounter.elimination_reasons == {"incapacitated", "all_incapacitated"}
    assert MetanoiaEncounter.elimination_reasons == {"defeat", "mutual_defeat"}
