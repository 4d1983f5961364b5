"""Mano a Mano rule options (spec §5.1 darkness, §8.1 optional rules R37, round cap) and their
errors."""

from __future__ import annotations

import pytest
from test_core_turns import do, fight

from envs.core import ScriptedDice
from envs.mano_a_mano.rules.options import CORE, FULL, RuleOptions, parse_options


def duel(**options):
    enc = fight(("steven", "steven", "A", (0, 0)), ("guard", "guard", "B", (1, 0)))
    enc.options = RuleOptions(**options)
    return enc


def test_darkness_adds_to_the_difficulty_separately():
    enc = duel(darkness="total")
    events = do(enc, ScriptedDice([2], sides=20), "steven: strike quick machete -> guard")
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    assert roll.difficulty == 17 + 4  # striking in total darkness


def test_random_damage_and_critical_hits_ruling_r37():
    enc = duel(random_damage=True)
    events = do(enc, ScriptedDice([20], sides=20), "steven: strike powerful machete -> guard")
    assert next(e for e in events if type(e).__name__ == "Harmed").power == 10  # 20 > 12: doubled
    enc = duel(random_damage=True, critical_hits=True)
    events = do(enc, ScriptedDice([20], sides=20), "steven: strike powerful machete -> guard")
    assert next(e for e in events if type(e).__name__ == "Harmed").power == 15  # 3P


def test_parse_options():
    assert parse_options(None) == FULL and parse_options("core") == CORE
    opts = parse_options({"version": "core", "darkness": "very_dim", "round_limit": 10})
    assert (opts.full, opts.darkness, opts.round_limit) == (False, "very_dim", 10)
    for bad, message in [
        ({"darkness": "dusk"}, "darkness must be"),
        ({"speed": 3}, "unknown field 'speed'"),
        ({"round_limit": 0}, "round_limit must be"),
        ("medium", "must be 'core', 'full'"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_options(bad)


def allies_and_foe(order):
    """Steven ``a`` and the Wrestler ``w`` (side A) against the clone ``c``, turns in ``order``."""
    enc = fight(
        ("a", "steven", "A", (0, 0)),
        ("w", "wrestler", "A", (0, 1)),
        ("c", "clone", "B", (5, 0)),
        order=list(order),
    )
    return enc


def test_delay_moves_the_slot_for_good():
    enc = allies_and_foe(["a", "c", "w"])
    assert {x.target for x in enc.legal_actions() if x.kind == "delay"} == {"c", "w"}
    do(enc, ScriptedDice([], sides=20), "a: delay -> w")
    assert enc.order == ["c", "w", "a"] and enc.current_actor() == "c"
    do(enc, ScriptedDice([], sides=20), "c: end", "w: end")
    assert (
        enc.current_actor() == "a"
        and any(x.kind in ("delay", "counter") for x in enc.legal_actions()) is not False
    )
    do(enc, ScriptedDice([], sides=20), "a: end")
    assert enc.round == 2 and enc.current_actor() == "c"  # the new order holds


def test_encounter_placements_follow_spec_13_8():
    from envs.core import SeededDice
    from envs.core.hexgrid import distance
    from envs.mano_a_mano.rules.state import new_encounter

    enc = new_encounter("duel_seed", "core", SeededDice(0))
    assert distance(enc.by_id["steven"].hex, enc.by_id["clone"].hex) == 1
    enc = new_encounter("duel_spear", "core", SeededDice(0))
    assert distance(enc.by_id["steven"].hex, enc.by_id["guard"].hex) == 6
    enc = new_encounter("skirmish_2v2", "core", SeededDice(0))
    def near(cid: str) -> int:
        return min(distance(enc.by_id[cid].hex, enc.by_id[o].hex) for o in ("steven", "wrestler"))

    assert near("guard") == 7 and near("archer") == 9  # the archer at the back
    enc = new_encounter("giant", "core", SeededDice(0))
    assert enc.by_id["elephant"].hex == (0, 0)
    assert all(distance((0, 0), enc.by_id[c].hex) == 5 for c in ("steven", "wrestler"))


def test_delay_once_a_round_and_not_behind_a_waiting_delayer():
    """rulings.DELAY_ONCE_PER_ROUND: two allies cannot delay behind each other for ever."""
    import json

    from envs.mano_a_mano.rules.state import ManoEncounter

    enc = allies_and_foe(["a", "w", "c"])
    dice = ScriptedDice([], sides=20)
    do(enc, dice, "a: delay -> w")
    assert enc.current_actor() == "w"
    assert not any(x.kind == "delay" for x in enc.legal_actions())  # a's delayed turn is waiting
    do(enc, dice, "w: end")
    assert enc.current_actor() == "a"
    assert not any(x.kind == "delay" for x in enc.legal_actions())  # a has delayed this round
    snap = enc.snapshot()
    assert snap["pending"]["delays_used"] == ["a"]
    assert ManoEncounter.from_snapshot(json.loads(json.dumps(snap))).snapshot() == snap
    do(enc, dice, "a: end", "c: end")
    assert enc.round == 2 and enc.current_actor() == "w"
    assert {x.target for x in enc.legal_actions() if x.kind == "delay"} == {"a", "c"}  # a new round
