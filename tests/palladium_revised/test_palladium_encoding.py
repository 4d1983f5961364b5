"""Palladium Revised's encoding (envs/palladium_revised/encoding.py, observation.py): the 199
actions of spec §12.4 on ego slots, exact indices, the round trip and the mask over random play
of every preset, and observations inside their bounds."""

from __future__ import annotations

import random

import numpy as np
import pytest

from envs.core import Action
from envs.core.dice import ScriptedDice, SeededDice
from envs.palladium_revised import rules as R
from envs.palladium_revised.encoding import ENCODING, LAYOUT
from envs.palladium_revised.observation import OBS, obs_features
from envs.palladium_revised.rules.catalogue import stat_blocks
from envs.palladium_revised.rules.options import CORE
from envs.palladium_revised.rules.profile import profile_of
from envs.palladium_revised.rules.setup import build
from envs.rl import legal_index_map

BLOCKS = stat_blocks()


def test_the_layout_has_the_199_actions_of_the_spec():
    assert LAYOUT.size == 199 and ENCODING.name == "palladium_revised_v0"
    assert [LAYOUT.offset(b) for b in ("defense", "spend_morale", "escape", "strike")] == \
        [21, 29, 30, 31]
    assert OBS.size == sum(size for _, _, size, _, _ in obs_features())


def test_exact_indices_of_labels_and_back():
    enc = R.new_encounter("skirmish_2v2", "full", SeededDice(0))
    # mage_1 sees: 0 self, 1 sellsword_1 (ally), 4 guard_1, 5 archer_1 (enemies)
    cases = {
        "mage_1: wait": 0, "mage_1: defend": 1, "mage_1: rest": 2, "mage_1: continue": 3,
        "mage_1: stand": 4, "mage_1: morale_boost": 6, "mage_1: closing_wounds 3": 10,
        "mage_1: power_draw 5": 17, "mage_1: drop closing_wounds": 18, "mage_1: drop ward": 20,
        "mage_1: parry +morale": 22, "mage_1: multidodge back": 26,
        "mage_1: multidodge back +morale": 28, "mage_1: spend_morale": 29, "mage_1: escape": 30,
        "mage_1: strike quarterstaff -> guard_1": 31 + 4 * 3 + 0,
        "mage_1: strike unarmed -> archer_1": 31 + 5 * 3 + 2,
        "mage_1: move engage -> sellsword_1": 55 + 1 * 4 + 0,
        "mage_1: step away -> archer_1": 87 + 5 * 4 + 3,
        "mage_1: taunt -> archer_1": 119 + 5 * 3 + 0,
        "mage_1: knockdown -> guard_1": 119 + 4 * 3 + 2,
        "mage_1: cast fire_bolt -> guard_1": 143 + 4 * 7 + 0,
        "mage_1: cast ward -> mage_1": 143 + 0 * 7 + 6,
    }
    for label, index in cases.items():
        a = enc.parse_action(label)
        assert ENCODING.encode_action(enc, "mage_1", a) == index, label
        if index:  # 0 decodes by the decision: wait at a turn, pass in a window
            assert ENCODING.decode_action(enc, "mage_1", index) == a, label


def test_index_0_is_wait_at_a_turn_and_pass_in_a_window():
    s, d = profile_of(BLOCKS["sellsword"]), profile_of(BLOCKS["duelist"])
    enc = build([("s", "A", s, 80), ("d", "B", d, 85)], CORE,
                dice=ScriptedDice(["d20=15", "d20=1"]))
    assert ENCODING.decode_action(enc, "s", 0) == Action("s", "wait")
    enc.apply(enc.parse_action("s: strike long_sword -> d"), ScriptedDice(["d20=12"]))
    assert enc.decision == "defense"
    assert ENCODING.decode_action(enc, "d", 0) == Action("d", "pass")
    assert ENCODING.encode_action(enc, "d", Action("d", "pass")) == 0


def test_every_decoded_index_is_a_label_of_the_grammar():
    enc = R.new_encounter("skirmish_2v2", "full", SeededDice(0))
    for i in range(LAYOUT.size):
        a = ENCODING.decode_action(enc, "mage_1", i)
        if a.target == "nobody" or any(w.startswith(("weapon", "spell")) for w in a.args):
            continue  # an empty slot
        assert enc.parse_action(a.label) == a, (i, a.label)


@pytest.mark.parametrize("rules", ["core", "full"])
@pytest.mark.parametrize("name", R.encounter_names())
def test_random_play_round_trips_and_the_mask_is_the_legal_actions(name, rules):
    for seed in range(2):
        dice = SeededDice(seed)
        enc = R.new_encounter(name, rules, dice)
        rng = random.Random(seed)
        steps = 0
        while not enc.is_over() and steps < 250:
            actor = enc.current_actor()
            legal = enc.legal_actions()
            m = legal_index_map(ENCODING, enc, actor)
            assert sorted(m.values(), key=str) == sorted(legal, key=str)
            mask = LAYOUT.mask(m)
            assert int(mask.sum()) == len(legal)
            for i, a in m.items():
                assert ENCODING.decode_action(enc, actor, i) == a
            for cid in (actor, enc.combatants[steps % len(enc.combatants)].id):
                v = ENCODING.observe(enc, cid)
                assert v.shape == (OBS.size,) and v.dtype == np.float32
                assert np.isfinite(v).all()
                assert (v >= OBS.low).all() and (v <= OBS.high).all()
            enc.apply(rng.choice(legal), dice)
            steps += 1


def test_observation_reads_the_fight():
    s, d = profile_of(BLOCKS["sellsword"]), profile_of(BLOCKS["duelist"])
    enc = build([("s", "A", s, 80), ("d", "B", d, 120)], CORE,
                dice=ScriptedDice(["d20=15", "d20=1"]))
    v = OBS.named(ENCODING.observe(enc, "s"))
    rows = {name: (off, size) for name, off, size, _, _ in obs_features()}

    def feat(name):
        off, size = rows[name]
        return list(ENCODING.observe(enc, "s")[off:off + size])

    assert feat("global.phase") == [1, 0, 0, 0, 0, 0]
    assert feat("global.deciding") == [1.0]
    assert feat("slot4.present") == [1.0] and feat("slot4.relation") == [0, 0, 1]
    assert feat("slot4.distance") == pytest.approx([40 / 60])
    assert feat("slot4.band_mine") == [0, 0, 0, 0, 1]  # 40 ft is beyond the sellsword's Reach
    assert feat("slot1.present") == [0.0] and feat("slot7.present") == [0.0]
    # the sellsword's Seconds 1, 5, 10, 15: Second 1 is being played, the others are ahead
    free = feat("slot0.free")
    assert [i + 1 for i, x in enumerate(free) if x] == [5, 10, 15]
    # the duelist (5 Actions: 1, 4, 8, 11, 15) still has all of its slots ahead
    assert [i + 1 for i, x in enumerate(feat("slot4.free")) if x] == [1, 4, 8, 11, 15]
    assert v["weapons"][0] == 1.0  # the long sword is there
