"""Every registered system's ``describe(action, view)`` (the registry's plain words), in seeded
random games over every encounter under CORE and FULL: at every decision each legal action has a
non-empty one-line description of at most 95 characters that is not just its label, the same when
asked twice, and describing changes neither the snapshot nor the legal actions."""

from __future__ import annotations

import itertools
import random

import pytest

from envs import SYSTEMS, describe_action, get_rules
from envs.core import SeededDice

GAMES = 30
"""random games per system (the encounters under CORE and FULL in turn)"""


@pytest.mark.parametrize("game", range(GAMES))
@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_legal_action_of_random_games_gets_one_line_that_changes_nothing(
    system: str, game: int
):
    R = get_rules(system)
    combos = list(itertools.product(R.encounter_names(), ("core", "full")))
    name, rules = combos[game % len(combos)]
    dice, rng = SeededDice(game), random.Random(game)
    enc = R.new_encounter(name, R.parse_options(rules), dice)
    while not enc.is_over():
        before = enc.snapshot()
        legal = list(enc.legal_actions())
        for a in legal:
            text = describe_action(enc, a)
            assert text and "\n" not in text and len(text) <= 95, (a.label, text)
            assert text != a.label.split(": ", 1)[-1], a.label
            assert describe_action(enc, a) == text
        assert enc.snapshot() == before and enc.legal_actions() == legal
        enc.apply(rng.choice(legal), dice)
