"""Random legal play keeps every rules invariant (hypothesis draws the choices and the dice seed).

From every encounter of every system, CORE and FULL: the fight ends within its round cap without an
exception, and after every ``apply``:

* state bounds (Mano a Mano): one fighter per hex except a rider on its mount;
* state bounds (Metanoia): Strain in 0..strain_max, stacks in 0..10, Injuries <= slots, Convictions in
  0..conv_max or None for the mindless, status ranks > 0, a full Injury track means out of the fight;
* decisions: the current actor is an active combatant (the out-of-fight never act), every legal
  action is that actor's, ``legal_actions()`` is never empty while the fight is on, labels are
  unique and ``parse_action(label) == action``;
* encoding (on every third decision): the env mask built by the encoding is exactly
  ``{encode(a)}`` over the legal actions, ``decode(encode(a)) == a``, and every observation vector
  lies inside the observation space.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs import SYSTEMS, get_env_module, get_rules
from envs.core import SeededDice
from envs.metanoia.rules import rulings as metanoia_rulings
from envs.rl import legal_index_map, mask_from_legal

RULE_SETS = ("core", "full")
CASES = [(s, e, r) for s in SYSTEMS for e in get_rules(s).encounter_names() for r in RULE_SETS]
IDS = [f"{s}-{e}-{r}" for s, e, r in CASES]
MAX_DECISIONS = 5000  # far above any fight that respects its round cap
ENCODING_EVERY = 3


def metanoia_state_invariants(enc) -> None:
    for f in enc.fighters:
        b = f.block
        who = f"round {enc.round}: {f.id}"
        assert 0 <= f.strain <= b.strain_max, f"{who}: strain {f.strain} outside 0..{b.strain_max}"
        assert 0 <= f.stacks <= metanoia_rulings.STACKS_CAP, f"{who}: stacks {f.stacks}"
        assert len(f.injuries) <= b.injury_slots, f"{who}: {len(f.injuries)} injuries > {b.injury_slots} slots"
        assert all(sev > 0 for _, sev in f.injuries), f"{who}: injury of severity <= 0: {f.injuries}"
        if b.conv_max is None:
            assert f.conv is None, f"{who}: mindless but has convictions {f.conv}"
        else:
            assert 0 <= f.conv <= b.conv_max, f"{who}: conv {f.conv} outside 0..{b.conv_max}"
        assert all(rank > 0 for rank in f.statuses.values()), f"{who}: statuses {f.statuses}"
        if len(f.injuries) >= b.injury_slots:
            assert f.defeated, f"{who}: full injury track but not defeated"
        if f.conv is not None and f.conv <= 0:
            assert f.broken, f"{who}: no convictions left but not broken"
        if f.guarding is not None:
            g = enc.by_id[f.guarding]
            assert g.side == f.side and g is not f, f"{who}: guards {f.guarding}, not an ally"


def mano_a_mano_state_invariants(enc) -> None:
    """No two fighters in one hex (RULING R46) unless the rules allow it: exactly a rider and its
    mount (spec §5.11), both standing and active; nobody on a wall or off the map."""
    riders = enc.mounts
    hexes = [f.hex for f in enc.fighters if f.id not in riders]
    assert len(set(hexes)) == len(hexes), f"round {enc.round}: two fighters in a hex: {sorted(hexes)}"
    assert len(set(riders.values())) == len(riders), f"a mount carries two riders: {riders}"
    for rider, mount in riders.items():
        r, m = enc.by_id[rider], enc.by_id[mount]
        assert r.side == m.side and m.block.mount is not None and rider not in riders.values()
        assert r.hex == m.hex, f"round {enc.round}: {rider} at {r.hex} is not on {mount} at {m.hex}"
        assert r.standing and m.standing and not r.incapacitated and not m.incapacitated
        assert not enc.grappling(rider), f"{rider} grapples while mounted"
    for f in enc.fighters:
        assert enc.map.passable(f.hex), f"{f.id} stands on a wall or off the map at {f.hex}"


STATE_INVARIANTS = {"metanoia": metanoia_state_invariants,
                    "mano_a_mano": mano_a_mano_state_invariants}


def decision_invariants(enc) -> None:
    actor = enc.current_actor()
    assert actor is not None
    assert enc.is_active(actor), f"round {enc.round}: {actor} is out of the fight but must decide"
    legal = enc.legal_actions()
    assert legal, f"round {enc.round}: no legal action for {actor}"
    labels = [a.label for a in legal]
    assert len(set(labels)) == len(labels), f"duplicate labels: {sorted(labels)}"
    for a in legal:
        assert a.actor == actor, f"{a.label} is offered while {actor} decides"
        assert enc.parse_action(a.label) == a, f"parse_action({a.label!r}) != the action"


def encoding_invariants(encoding, enc) -> None:
    actor = enc.current_actor()
    legal = enc.legal_actions()
    index_map = legal_index_map(encoding, enc, actor)  # raises on collisions or missing indices
    assert list(index_map.values()) == legal
    mask = mask_from_legal(encoding, enc, actor)
    assert set(np.flatnonzero(mask).tolist()) == set(index_map)
    for i, a in index_map.items():
        assert encoding.decode_action(enc, actor, i) == a, f"decode(encode({a.label})) differs"
    spec = encoding.obs_spec
    for side in enc.sides():
        for cid in side.members:
            vec = encoding.observe(enc, cid)
            assert vec.shape == (spec.size,) and vec.dtype == np.float32
            assert np.all(np.isfinite(vec))
            assert np.all(vec >= spec.low) and np.all(vec <= spec.high), (
                f"{cid}: observation outside its bounds at {np.flatnonzero((vec < spec.low) | (vec > spec.high))[:5]}"
            )


@pytest.mark.parametrize(("system", "encounter", "rules"), CASES, ids=IDS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_the_invariants(system: str, encounter: str, rules: str, data, seed: int):
    R = get_rules(system)
    encoding = get_env_module(system).ENCODING
    state_invariants = STATE_INVARIANTS.get(system, lambda enc: None)
    dice = SeededDice(seed)
    enc = R.new_encounter(encounter, rules, dice)
    limit = enc.options.round_limit
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
        assert round_before <= enc.round <= limit, f"round went {round_before} -> {enc.round} (cap {limit})"
        state_invariants(enc)
        decisions += 1
    out = enc.outcome()
    assert out is not None and out.round <= limit
    assert enc.current_actor() is None and enc.legal_actions() == []
    sides = {s.side for s in enc.sides()}
    if out.reason == "round_cap":
        assert out.winner is None and out.round == limit
    else:
        assert out.winner is None or out.winner in sides
        losers = [s for s in enc.sides() if s.side != out.winner]
        for s in losers:  # a side loses when none of its combatants is active
            assert not any(enc.is_active(m) for m in s.members), f"{s.side} lost with someone active"
