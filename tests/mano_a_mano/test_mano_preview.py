"""The engine's attack preview (issue item 6): the numbers the resolution rolls against, with
forced dice, and the heuristic scoring with those very odds (darkness and rear attacks included).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_rule_details import fighter, situation

from agents.heuristic.mano_a_mano import ManoHeuristic
from envs.core import ScriptedDice
from envs.mano_a_mano.rules import preview as P
from envs.mano_a_mano.rules.events import Rolled

HEURISTIC = Path(__file__).resolve().parents[2] / "agents" / "heuristic" / "mano_a_mano.py"
ONE_ROLL = ("strike", "throw", "shoot")
ONE_ROLL_GRAPPLES = ("hold", "wrench", "choke", "disarm")


def test_the_heuristic_calls_no_private_engine_member():
    """No ``enc._x`` and no ``._x`` on a rules object (only the heuristic's own ``self._x``)."""
    found = []
    for n, line in enumerate(HEURISTIC.read_text().splitlines(), 1):
        for m in re.finditer(r"(\w+)\s*\)?\._[A-Za-z]", line):
            if m.group(1) != "self":
                found.append(f"{n}: {line.strip()}")
    assert found == []


def _behind(options, **state):
    """``b`` strikes ``c`` from behind: ``c`` faces ``a`` (its nearest enemy, first in the roster),
    ``b`` stands off the opposite hex side (spec §3.2, RULING R9)."""
    return situation(fighter("a", "A", (1, 0), "steven"),
                     fighter("b", "A", (-1, 0), "steven", **state),
                     fighter("c", "B", (0, 0), "clone"), actor="b", options=options)


def _rolled_attacks(enc):
    for a in enc.legal_actions():
        if a.kind in ONE_ROLL or (a.kind == "grapple" and a.args[0] in ONE_ROLL_GRAPPLES):
            yield a


def _check_against_forced_dice(enc):
    """For every one-roll attack: each of the 20 faces, forced, rolls against the preview's
    modifier and difficulty, and the share of successes is its chance (and the heuristic's)."""
    heuristic = ManoHeuristic()
    checked = 0
    for a in _rolled_attacks(enc):
        p = enc.preview(a)
        wins = 0
        for die in range(1, 21):
            events = enc.clone().apply(a, ScriptedDice([die], sides=20))
            roll = next(e for e in events if isinstance(e, Rolled))
            assert (roll.modifier, roll.difficulty) == (p.modifier, p.difficulty), a.label
            wins += roll.success
        assert p.chance == wins / 20 == heuristic.odds(enc, a), a.label
        checked += 1
    return checked


@pytest.mark.parametrize("darkness", ["normal", "very_dim", "total"])
@pytest.mark.parametrize("rear", [False, True])
def test_preview_is_what_the_roll_uses(darkness, rear):
    enc = _behind({"full": True, "darkness": darkness, "rear_attack_favorable": rear})
    assert _check_against_forced_dice(enc) >= 8


def test_darkness_and_the_rear_bonus_are_in_the_odds():
    """Steven's machete from behind in total darkness: +2 favorable (RULING R9, R40) and +4
    striking difficulty (spec §5.1); the heuristic sees both."""
    plain = _behind({"full": True})
    dark = _behind({"full": True, "darkness": "total", "rear_attack_favorable": True})
    label = "b: strike quick machete -> c"
    a = plain.parse_action(label)
    p0, p1 = plain.preview(a), dark.preview(a)
    assert (p0.part("circumstance"), p0.part("darkness")) == (0, 0)
    assert (p1.part("circumstance"), p1.part("darkness")) == (2, 4)
    assert (p1.modifier, p1.difficulty) == (p0.modifier + 2, p0.difficulty + 4)
    h = ManoHeuristic()
    assert h.odds(dark, a) == P.chance(p0.modifier + 2, p0.difficulty + 4)
    assert h.odds(dark, a) < h.odds(plain, a)
    events = dark.apply(a, ScriptedDice([10], sides=20))
    roll = next(e for e in events if isinstance(e, Rolled))
    assert (roll.modifier, roll.difficulty) == (p1.modifier, p1.difficulty)


def test_cover_armor_avoidance_and_throws_in_the_preview():
    """A covered target (spec §6.4): the coverer's difficulty replaces the defense; throws, pistol
    shots and strikes at it all roll against the preview (forced dice)."""
    held = {"right": "knife", "left": "pistol"}
    enc = situation(fighter("k", "A", (0, 0), "steven", held=held),
                    fighter("c", "B", (1, 0), "clone"),
                    fighter("g", "B", (2, 0), "guard", covering="c"), actor="k")
    attacks = [a for a in _rolled_attacks(enc) if a.target == "c" and a.kind != "grapple"]
    assert {a.kind for a in attacks} == {"strike", "throw", "shoot"}  # cover is not for grapples
    for a in attacks:
        p = enc.preview(a)
        assert p.coverer == "g" and p.part("cover") > 0 and p.part("defense") == 0, a.label
    assert _check_against_forced_dice(enc) >= 6


def test_expected_harm_sums_the_faces():
    enc = _behind({"full": True})
    a = enc.parse_action("b: strike powerful machete -> c")
    p = enc.preview(a)
    damage, stun = p.expected_harm()
    hits = sum(1 for d in range(1, 21) if d == 20 or d + p.modifier > p.difficulty)
    assert damage == pytest.approx(hits / 20 * max(0, p.hit_power - p.absorption))
    assert stun == 0 and p.sharpness == "sharp" and not p.quick and p.weapon == "machete"


def test_previews_of_a_decision_equal_each_actions_own_preview():
    """``enc.previews(legal)`` shares the parts that do not depend on verb or weapon; the answers
    are exactly each action's ``preview``, at every decision of seeded random games."""
    import numpy as np

    from envs.core import SeededDice
    from envs.mano_a_mano.rules import encounter_names, new_encounter, parse_options

    checked = 0
    for seed, name in enumerate(encounter_names()):
        dice = SeededDice(seed)
        enc = new_encounter(name, parse_options("full"), dice)
        rng = np.random.default_rng(seed)
        for _ in range(60):
            if enc.is_over():
                break
            legal = enc.legal_actions()
            assert enc.previews(legal) == [enc.preview(a) for a in legal]
            checked += sum(a.kind == "strike" for a in legal)
            enc.apply(legal[int(rng.integers(len(legal)))], dice)
    assert checked > 100
