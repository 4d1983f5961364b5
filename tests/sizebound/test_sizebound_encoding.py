"""Sizebound's encoding (envs/sizebound/encoding.py, observation.py): exact indices of labels,
the round trip and the mask over seeded random play of all four encounters, observation bounds
and the shaping."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core import Action, SeededDice
from envs.rl import legal_index_map, mask_from_legal
from envs.sizebound import rules as R
from envs.sizebound.encoding import ENCODING, FULL_ANSWERS, LAYOUT
from envs.sizebound.env import SHAPING
from envs.sizebound.observation import OBS, PLANES, RADIUS, SIDE, obs_features
from envs.sizebound.rules.events import Damaged, Died


def _enc(name: str = "duel_blade_vs_shield", rules: str = "full"):
    return R.new_encounter(name, rules, SeededDice(0))


def test_the_layout_has_335_indices_and_the_observation_1521_floats():
    assert LAYOUT.size == 335 and ENCODING.name == "sizebound_v1"
    assert OBS.size == 1521 and ENCODING.max_per_side == 4
    names = [n for n, *_ in obs_features()]
    assert names[0] == "context.round" and "slot7.odds" in names and names[-1] == "map.reach"


@pytest.mark.parametrize(("label", "index"), [
    ("duelist: end_turn", 0),
    ("duelist: step n", 1),
    ("duelist: step e", 3),
    ("duelist: step nw", 8),
    ("duelist: run", 9),
    ("duelist: recover mana", 13),
    ("duelist: free_hand", 16),
    ("duelist: attack main -> knight", 67 + 4),   # the knight: ego slot 4, the first enemy
    ("duelist: attack off -> knight", 67 + 8 + 4),
    ("duelist: jab bonus -> knight", 83 + 8 + 4),
    ("duelist: trip move -> knight", 99 + 8 + 4),
    ("duelist: grapple -> knight", 51 + 4),
    ("duelist: drop sword", 25),
    ("duelist: drop dagger", 26),
])
def test_exact_indices_of_own_turn_labels(label: str, index: int):
    enc = _enc()
    a = enc.parse_action(label)
    assert ENCODING.encode_action(enc, "duelist", a) == index
    assert ENCODING.decode_action(enc, "duelist", index) == a


def test_skills_take_their_slot_in_the_stat_block_and_self_casts_their_own_block():
    enc = _enc("giant_vs_four")
    mage, giant = "mage", "hill_giant"
    assert ENCODING.skills(enc, mage) == ["arcane_bolt", "arcane_burst", "mend"]
    mend = Action(mage, "cast", ("mend",), "knight")  # the knight: mage's ally slot 2
    assert ENCODING.encode_action(enc, mage, mend) == 115 + 2 * 8 + 2
    roar = Action(giant, "cast", ("roar",))
    assert ENCODING.encode_action(enc, giant, roar) == 147 + 1
    assert ENCODING.decode_action(enc, giant, 148) == roar


ITEMS = ("dagger", "greatclub", "greatsword", "quarterstaff", "shield", "sword")


def _items_around_the_captain(wielded: dict[str, str]):
    enc = _enc("giant_vs_four")
    captain = enc.by_id["captain"]
    assert enc.current_actor() == "captain" and captain.pos == (4, 11)
    captain.wielded = dict(wielded)
    # two swords: one id, one slot; every id within 1 space of (4, 11), one two spaces off
    enc.items = [["sword", 3, 10], ["sword", 5, 12], ["shield", 4, 11], ["dagger", 5, 11],
                 ["greatclub", 3, 11], ["greatsword", 5, 10], ["quarterstaff", 4, 12],
                 ["shield", 6, 11]]
    enc._legal = None  # the state changed under the cached legal list
    return enc


def test_pick_up_gives_each_liftable_item_in_reach_its_own_slot():
    """Soak seed 13087 (giant_vs_four, full, random/random): five ids lay within the knight's
    reach and v0's four slots sent the fifth into ``drop``; v1 holds 8."""
    enc = _items_around_the_captain({})  # both hands free: all six ids
    assert ENCODING.items_in_reach(enc, "captain") == list(ITEMS)
    got = {i: a for i, a in legal_index_map(ENCODING, enc, "captain").items()
           if a.kind == "pick_up"}
    assert got == {17 + k: Action("captain", "pick_up", (w,)) for k, w in enumerate(ITEMS)}
    for i, a in got.items():
        assert ENCODING.decode_action(enc, "captain", i) == a
    mask = mask_from_legal(ENCODING, enc, "captain")
    assert mask[17:25].tolist() == [1, 1, 1, 1, 1, 1, 0, 0]


def test_pick_up_slots_skip_what_the_free_hands_cannot_lift():
    enc = _items_around_the_captain({"main": "sword"})  # one free hand: no two-handed item
    one_handed = ["dagger", "shield", "sword"]
    assert ENCODING.items_in_reach(enc, "captain") == one_handed
    picks = [a.args[0] for a in enc.legal_actions() if a.kind == "pick_up"]
    assert sorted(picks) == one_handed
    for w in one_handed:
        i = ENCODING.encode_action(enc, "captain", Action("captain", "pick_up", (w,)))
        assert i == 17 + one_handed.index(w)


def test_more_items_in_reach_than_slots_is_a_named_error(monkeypatch):
    from envs.rl import EncodingError
    from envs.sizebound import encoding as E

    monkeypatch.setattr(E, "ITEM_SLOTS", 3)
    enc = _items_around_the_captain({})
    with pytest.raises(EncodingError, match=r"captain has 6 distinct items within reach .*"
                       r"addresses 3 \(pick_up sword has no index\)"):
        legal_index_map(ENCODING, enc, "captain")


def test_soak_seed_13087_plays_to_the_end_with_every_invariant():
    from eval.soak import GameSpec, soak_game

    decisions, failure = soak_game(
        GameSpec("sizebound", "giant_vs_four", "full", ("random", "random"), 13087))
    assert failure is None and decisions > 57  # it broke after 57 decisions under v0


def _play_to_a_window(enc, dice, kinds):
    rng = np.random.default_rng(0)
    for _ in range(3000):
        if enc.window is not None and enc.window.kind in kinds:
            return True
        legal = enc.legal_actions()
        attacks = [a for a in legal if a.kind in ("attack", "jab")]
        steps = [a for a in legal if a.kind == "step" and a.args[0] in ("e", "w")]
        pick = attacks or steps or legal
        enc.apply(pick[rng.integers(len(pick))], dice)
    return False


def test_window_answers_and_pass_share_index_0_with_end_turn():
    dice = SeededDice(3)
    # fleeing off: the walk east and west below must not step off the map (spec §8.11)
    enc = R.new_encounter("duel_blade_vs_shield", {"version": "full", "fleeing": False}, dice)
    assert _play_to_a_window(enc, dice, ("dodge", "parry", "declare"))
    actor = enc.current_actor()
    got = legal_index_map(ENCODING, enc, actor)
    kinds = {a.kind: i for i, a in got.items()}
    assert kinds["pass"] == 0
    for k, i in kinds.items():
        if k in FULL_ANSWERS:  # the FULL window answers (Quick Draw in R-DECLARE)
            assert i == 217 + FULL_ANSWERS.index(k)
        elif k != "pass":
            assert i == 151 + ("drop_prone", "parry", "dodge", "block", "spend", "negate").index(k)
    assert ENCODING.decode_action(enc, actor, 0) == Action(actor, "pass")


@pytest.mark.parametrize("name", R.encounter_names())
def test_random_play_round_trips_and_the_mask_is_the_legal_actions(name: str):
    for seed in range(3):
        dice = SeededDice(seed)
        enc = R.new_encounter(name, "full" if seed % 2 else "core", dice)
        rng = np.random.default_rng(seed)
        for step in range(400):
            if enc.is_over():
                break
            actor = enc.current_actor()
            legal = enc.legal_actions()
            got = legal_index_map(ENCODING, enc, actor)
            assert list(got.values()) == legal
            assert ENCODING.encode_actions(enc, actor, legal) == list(got)
            mask = mask_from_legal(ENCODING, enc, actor)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(got)
            for i, a in got.items():
                assert ENCODING.decode_action(enc, actor, i) == a
            if step % 5 == 0:
                for side in enc.sides():
                    for cid in side.members:
                        vec = ENCODING.observe(enc, cid)
                        assert vec.shape == (OBS.size,) and vec.dtype == np.float32
                        assert np.all(vec >= OBS.low) and np.all(vec <= OBS.high)
            try:
                enc.apply(legal[rng.integers(len(legal))], dice)
            except KeyError:  # an engine fault outside the encoding (see the report)
                break


def test_the_map_planes_are_centred_on_the_observer():
    enc = _enc("giant_vs_four")
    vec = ENCODING.observe(enc, "knight")  # the knight at (4, 8); the giant at 11..12, 8..9
    planes = OBS.named(vec)["map"].reshape(len(PLANES), SIDE, SIDE)
    me = planes[PLANES.index("self")]
    assert me[RADIUS, RADIUS] == 1 and me.sum() == 1
    allies = planes[PLANES.index("ally")]
    assert allies[RADIUS - 2, RADIUS - 1] == 1  # the duelist at (3, 10): west 1, north 2
    assert planes[PLANES.index("enemy")].sum() == 0  # the giant is 7 cells east: outside
    giant = OBS.named(ENCODING.observe(enc, "hill_giant"))["map"].reshape(len(PLANES), SIDE,
                                                                          SIDE)
    assert giant[PLANES.index("self")].sum() == 4  # its 2 x 2 footprint
    reach = giant[PLANES.index("reach")]  # the greatclub's reach 1 around 11..12 x 8..9
    assert reach.sum() == 16 and reach[RADIUS - 2:RADIUS + 2, RADIUS - 1:RADIUS + 3].all()


def test_sight_stops_at_a_wall_and_reach_follows_the_weapon():
    sit = {"system": "sizebound", "options": "full", "map": {"w": 12, "h": 12,
                                                             "walls": [[6, 0, 6, 11]]},
           "combatants": [{"id": "duelist", "side": "A", "stats": "duelist", "at": [4, 5]},
                          {"id": "goblin", "side": "B", "stats": "goblin", "at": [8, 5]},
                          {"id": "dog", "side": "B", "stats": "war_dog", "at": [4, 8]}],
           "actor": "duelist"}
    enc = R.from_situation(sit)
    vec = ENCODING.observe(enc, "duelist")
    planes = OBS.named(vec)["map"].reshape(len(PLANES), SIDE, SIDE)
    seen = planes[PLANES.index("sight")]  # window x -1..9, y 10..0 (rows from the north)
    assert seen[:, 1:7].all() and seen.sum() == 6 * 11  # x 0..5 seen; x -1 off the map,
    assert not seen[:, 7:].any()  # the wall at x 6 and everything east of it unseen
    reach = planes[PLANES.index("reach")]  # sword and dagger: reach 1, the 3 x 3 block
    assert reach.sum() == 9 and reach[RADIUS - 1:RADIUS + 2, RADIUS - 1:RADIUS + 2].all()
    slots = ENCODING.ego(enc, "duelist")[1]
    sight_at = [n for n, *_ in obs_features()].index("slot1.in_sight")
    offset = obs_features()[sight_at][1]
    row = {cid: i for i, cid in enumerate(slots) if cid}
    base = offset - obs_features()[[n for n, *_ in obs_features()].index("slot1.present")][1]
    for cid, seen_it in (("goblin", 0.0), ("dog", 1.0)):
        start = OBS.named(vec)[f"slot{row[cid]}"]
        assert start[base] == seen_it


def test_the_slot_rows_carry_the_previews_odds():
    enc = _enc("skirmish_2v2")
    vec = ENCODING.observe(enc, "goblin")  # the goblin at (12, 7), the knight at (2, 6)
    row = OBS.named(vec)["slot4"]  # the knight: the goblin's first enemy
    at = {n: o - OBS["slot4"].start for n, o, *_ in obs_features() if n.startswith("slot4.")}
    assert row[at["slot4.present"]] == 1 and row[at["slot4.ally"]] == 0
    assert row[at["slot4.offset"]] == pytest.approx(-10 / 16)
    assert row[at["slot4.offset"] + 1] == pytest.approx(-1 / 16)
    shot = R.preview_attack(enc, "goblin", "main", "knight")
    assert shot is not None and shot.mode == "ranged"
    assert row[at["slot4.reach"]] == 1
    assert row[at["slot4.odds"]] == pytest.approx(shot.hit)
    assert row[at["slot4.odds"] + 1] == pytest.approx(shot.expected_damage / 20)


def test_shaping_rewards_damage_and_kills_over_the_sides_members():
    enc = _enc("party_vs_bear")
    shaping = SHAPING(0.1)
    out = shaping(enc, [Damaged("cave_bear", 19, ("Slashing",), 0, 57)], "duelist")
    assert out["duelist"]["harm"] == pytest.approx(0.1 * 19 / 76)
    assert out["cave_bear"]["harm"] == pytest.approx(-0.1 * 19 / 76)
    out = shaping(enc, [Damaged("mage", 10, ("Slashing",), 0, 38), Died("mage", -30)],
                  "cave_bear")
    assert out["cave_bear"]["harm"] == pytest.approx(0.1 * 10 / 48 / 3)
    assert out["cave_bear"]["kills"] == pytest.approx(0.2 / 3)
    assert "kills" not in out["knight"]
    assert shaping(enc, [], "duelist") == {}
