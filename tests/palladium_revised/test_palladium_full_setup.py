"""Palladium Revised FULL setup, beings without P.E., Escape, Morale -> S.E. and the hazard
modules with forced dice (spec §2.1, §3.5, §5.1 rows 16 and 19, §8.9; R39, R43, R48, R53), and
random legal play of every preset under FULL (and with the hazard flags) keeping the state
invariants, with clone and snapshot continuing identically."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from envs.core.dice import ScriptedDice, SeededDice
from envs.core.flow import Ctx, ReplayDice
from envs.palladium_revised import rules as R
from envs.palladium_revised.invariants import state_invariants
from envs.palladium_revised.rules.catalogue import stat_blocks
from envs.palladium_revised.rules.events import AmbushDetection, DefenseRolled, StrikeRolled
from envs.palladium_revised.rules.full_setup import fall, merge
from envs.palladium_revised.rules.full_state import stamina_cost
from envs.palladium_revised.rules.options import FULL
from envs.palladium_revised.rules.profile import profile_of
from envs.palladium_revised.rules.setup import build
from envs.palladium_revised.rules.state import PalladiumEncounter

BLOCKS = stat_blocks()
SELL = profile_of(BLOCKS["sellsword"])
DUEL = profile_of(BLOCKS["duelist"])
OGRE = profile_of(BLOCKS["ogre_brute"])


def make(rows, faces, options=FULL, **kw):
    dice = ScriptedDice(faces)
    enc = build(rows, options, dice=dice, **kw)
    dice.check_exhausted()
    return enc


def play(enc, label, faces=()):
    dice = ScriptedDice(list(faces))
    ev = enc.apply(enc.parse_action(label), dice)
    dice.check_exhausted()
    return ev


def labels(enc):
    return [a.label for a in enc.legal_actions()]


def test_an_ambush_surprises_those_who_miss_the_detection_roll():
    # detection d100 for s then d (perception 30 - 25 = 5), then initiative s, d, o
    enc = make([("s", "A", SELL, 80), ("d", "A", DUEL, 80), ("o", "B", OGRE, 84)],
               ["d100=5", "d100=6", "d20=1", "d20=1", "d20=15"], ambush="B")
    det = [e for e in enc.start_events if isinstance(e, AmbushDetection)]
    assert [(e.combatant, e.detected) for e in det] == [("s", True), ("d", False)]
    d = enc.by_id["d"]
    assert d.fx.surprised and d.slot_state[0] == "lost"
    assert enc.current_actor() == "o"
    ev = play(enc, "o: strike great_club -> d", ["d20=10", "d6=5", "d6=5"])
    assert not any(isinstance(e, DefenseRolled) for e in ev)  # Unaware: no defence window
    assert any(isinstance(e, StrikeRolled) for e in ev)
    assert enc.current_actor() == "s" and enc.second == 1


def test_no_ambush_under_core():
    enc = make([("s", "A", SELL, 80), ("o", "B", OGRE, 84)], ["d20=1", "d20=15"], R.CORE,
               ambush="B")
    assert not any(isinstance(e, AmbushDetection) for e in enc.start_events)


def test_escape_at_the_home_edge_takes_the_combatant_out_and_ends_the_fight():
    enc = make([("s", "A", SELL, 0), ("d", "B", DUEL, 120)], ["d20=15", "d20=1"])
    assert "s: escape" in labels(enc)
    play(enc, "s: escape")
    s = enc.by_id["s"]
    assert s.state == "out" and not s.alive and enc.is_over()
    assert enc.outcome().winner == "B"


def test_escape_needs_the_home_edge_and_no_enemy_zone():
    enc = make([("s", "A", SELL, 1), ("d", "B", DUEL, 120)], ["d20=15", "d20=1"])
    assert "s: escape" not in labels(enc)
    enc = make([("s", "A", SELL, 0), ("d", "B", DUEL, 3)], ["d20=15", "d20=1"])
    assert "s: escape" not in labels(enc)


def test_morale_to_se_restores_five_percent_of_the_pool():
    psy = replace(SELL, se_max=40)
    enc = make([("s", "A", psy, 80), ("d", "B", DUEL, 120)], ["d20=15", "d20=1"],
               overrides={"s": {"se": 10}})
    play(enc, "s: morale_to_se")
    s = enc.by_id["s"]
    assert (s.fx.se, s.morale) == (12, 23) and "s: morale_to_se" not in labels(enc)


def test_a_being_without_pe_pays_no_stamina_and_is_destroyed_at_zero_sdc():
    golem = replace(SELL, has_pe=False)
    enc = make([("g", "A", golem, 80), ("d", "B", DUEL, 84)], ["d20=1", "d20=15"],
               overrides={"g": {"sdc": 3}})
    g = enc.by_id["g"]
    assert g.fx.no_pe and stamina_cost(g, 3) == 0
    play(enc, "d: strike short_sword -> g", ["d20=15"])
    play(enc, "g: dodge", ["d20=1", "d8=6"])  # S1 = 19 - 3 = 16 > AR 12: 6 to the body
    assert g.stamina == 32 and g.state == "dead"  # no Stamina paid; S.D.C. 0 destroys it


def _ctx(faces):
    return Ctx(ReplayDice([], ScriptedDice(faces)), [])


def test_a_fall_checks_balance_and_halves_the_damage_on_a_success():
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 120)], ["d20=15", "d20=1"])
    s = enc.by_id["s"]
    ev: list = []
    # 20 ft, balance 40: need 40 - 15 = 25; d100 20 succeeds; 4D8 = 20, halved to 10
    assert fall(enc, _ctx(["d100=20", "d8=5", "d8=5", "d8=5", "d8=5"]), ev, s, 20, 40) == 10
    assert s.sdc == 40 and s.armor_sdc == 40 - 5


def test_merging_deals_fifteen_percent_per_ar_point_and_ten_wounds():
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 120)], ["d20=15", "d20=1"])
    s = enc.by_id["s"]
    assert merge(enc, [], s, 1) == 15 * (50 + 28) // 100
    assert (s.sdc, s.wounds) == (50 - 11, 10)


def test_swimming_halves_melee_damage_and_costs_stamina_to_move():
    opts = replace(FULL, in_water=True)
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 84)], ["d20=15", "d20=1"], opts)
    play(enc, "s: strike long_sword -> d", ["d20=12"])  # 15, the body
    play(enc, "d: pass", ["d6=4", "d6=5"])  # (4 + 5 + 3) x 50% = 6
    assert enc.by_id["d"].sdc == 35 - 6
    play(enc, "d: step away -> s")
    assert enc.by_id["d"].stamina == 28 - 1


GAMES = 6


def _game(name: str, seed: int, opts: object) -> PalladiumEncounter:
    enc = R.new_encounter(name, opts, SeededDice(seed))
    rng, dice = random.Random(seed), SeededDice(seed + 10_000)
    state_invariants(enc)
    steps = 0
    while not enc.is_over():
        a = rng.choice(enc.legal_actions())
        if steps % 40 == 0:
            twin = PalladiumEncounter.from_snapshot(enc.snapshot())
            clone = enc.clone()
            d1, d2, d3 = SeededDice(steps), SeededDice(steps), SeededDice(steps)
            ev = [str(e) for e in enc.apply(a, d1)]
            assert [str(e) for e in twin.apply(a, d2)] == ev
            assert [str(e) for e in clone.apply(a, d3)] == ev
        else:
            enc.apply(a, dice)
        state_invariants(enc)
        steps += 1
        assert steps < 5_000
    return enc


@pytest.mark.parametrize("name", R.encounter_names())
def test_random_full_play_keeps_the_invariants(name: str):
    for seed in range(GAMES):
        opts = [FULL, replace(FULL, in_water=True), replace(FULL, no_air=True)][seed % 3]
        enc = _game(name, seed, opts)
        assert enc.outcome() is not None
