"""Metaforce's encoding (envs/metaforce/encoding.py, observation.py): exact indices of labels,
the round trip and the mask over seeded random play of every preset, observation bounds, the
map planes and the shaping."""

from __future__ import annotations

import random

import numpy as np
import pytest

from envs.core import Action, SeededDice
from envs.metaforce import rules as R
from envs.metaforce.encoding import ENCODING, LAYOUT
from envs.metaforce.env import SHAPING
from envs.metaforce.observation import OBS, PLANES, RADIUS, SIDE, obs_features
from envs.metaforce.rules.events import DamageDealt, StateChanged
from envs.rl import legal_index_map, mask_from_legal


def _party(rules: str = "core"):
    return R.new_encounter("party_3v3", rules, SeededDice(0))


def _until(enc, decision: str, seed: int = 0):
    """Seeded random play until a decision of that kind (the test fails if none comes)."""
    rng, dice = random.Random(seed), SeededDice(seed)
    for _ in range(2000):
        if enc.decision == decision:
            return enc
        assert enc.outcome() is None, f"no {decision} decision before the end"
        enc.apply(rng.choice(enc.legal_actions()), dice)
    raise AssertionError(f"no {decision} decision in 2000 steps")


def test_the_layout_has_577_indices_and_the_observation_1652_floats():
    assert LAYOUT.size == 577 and ENCODING.name == "metaforce_v0"
    assert OBS.size == 1652 and ENCODING.max_per_side == 4
    names = [n for n, *_ in obs_features()]
    assert names[0] == "context.round" and "slot7.odds" in names and names[-1] == "map.self"
    assert [b.name for b in LAYOUT.blocks] == ["frame", "still", "attack", "throw", "fire",
                                               "gear", "window", "react", "aimed", "cast",
                                               "break", "ally", "power", "reload_fire"]


@pytest.mark.parametrize(("label", "index"), [
    ("fighter: pass", 0),
    ("fighter: pass approach -> bandit", 1),        # bandit: the first enemy slot
    ("fighter: pass retreat -> wolf", 8),           # wolf: the third, (0*4 + 2)*3 + 2
    ("fighter: special", 12),
    ("fighter: dash approach -> bandit_2", 28),     # (2*4 + 1)*3 + 1
    ("fighter: grapple -> wolf", 42),
    ("fighter: maintain -> bandit", 48),
    ("fighter: vigilance", 72),
    ("fighter: withdraw", 73),
    ("fighter: end_turn", 74),
    ("fighter: action8", 77),
    ("wizard: assurance8", 80),
    ("fighter: escape grappled", 75),
    ("fighter: escape burn", 76),
    ("fighter: attack warhammer -> bandit", 82),
    ("fighter: attack unarmed retreat -> wolf +meta", 82 + ((1 * 2 + 1) * 4 + 2) * 3 + 2),
    ("wizard: attack shocking_grasp approach -> bandit_2", 82 + (2 * 4 + 1) * 3 + 1),
    ("wizard: attack unarmed -> bandit", 82 + (2 * 2 * 4) * 3),  # the third weapon slot
    ("fighter: throw unarmed -> bandit", 178 + (1 * 4 + 0) * 3),
    ("detective: fire revolver 1 -> bandit", 226),
    ("detective: fire revolver 2 retreat -> bandit_2", 226 + ((0 * 3 + 1) * 4 + 1) * 3 + 2),
    ("detective: reload revolver", 370),
    ("detective: reload revolver approach -> wolf", 370 + 2 * 3 + 1),
    ("detective: prime revolver", 370 + 48),
    ("bandit: attack mace -> detective", 82 + 2 * 3),  # seen from side b: detective is third
])
def test_frame_labels_have_exact_indices_and_decode_back(label, index):
    enc = _party()
    a = enc.parse_action(label)
    assert ENCODING.encode_action(enc, a.actor, a) == index
    assert ENCODING.decode_action(enc, a.actor, index) == a


def test_window_labels_have_exact_indices_and_decode_back():
    enc = _until(_party(), "reaction")
    me, trigger = enc.current_actor(), enc.trigger
    weapons = [w.id for w in enc.by_id[me].profile.weapons]
    foes = ENCODING.ego(enc, me)[1][4:]  # the enemy slots
    cases = [(Action(me, "pass"), 466), (Action(me, "react", ("approach",), trigger), 467),
             (Action(me, "react", ("retreat",), trigger), 468), (Action(me, "deus_ex"), 469),
             (Action(me, "dodge"), 470), (Action(me, "crash_out"), 471),
             (Action(me, "crit", ("tohit",)), 472), (Action(me, "crit", ("size",)), 475),
             (Action(me, "meta_die"), 476),
             (Action(me, "react", ("attack", weapons[0]), trigger), 477),
             (Action(me, "react", ("attack", weapons[-1]), trigger, ("meta",)),
              477 + 4 + len(weapons) - 1),
             (Action(me, "react", ("throw", weapons[0]), trigger), 485),
             (Action(me, "react", ("prime", weapons[0])), 489),
             (Action(me, "react", ("maintain",), foes[0]), 493),
             (Action(me, "finish", (), foes[1]), 497 + 1)]
    for a, index in cases:
        assert ENCODING.encode_action(enc, me, a) == index, a.label
        assert ENCODING.decode_action(enc, me, index) == a, a.label
    # in a frame, index 453's pass is the window's decline only: the frame's pass is index 0
    frame = _party()
    assert ENCODING.decode_action(frame, "fighter", 0) == Action("fighter", "pass")


def test_an_ally_target_or_a_fifth_weapon_has_no_index():
    enc = _party()
    with pytest.raises(ValueError, match="ally"):
        ENCODING.encode_action(enc, "fighter", Action("fighter", "pass", ("approach",), "wizard"))
    with pytest.raises(ValueError, match="more than 3 shots"):
        ENCODING.encode_action(enc, "detective",
                               Action("detective", "fire", ("revolver", "4"), "bandit"))


@pytest.mark.parametrize("name", R.encounter_names())
@pytest.mark.parametrize("rules", ["core", "full"])
def test_random_play_round_trips_masks_exactly_and_keeps_the_observation_in_bounds(name, rules):
    rng = random.Random(7)
    decisions = 0
    for seed in range(2):
        enc = R.new_encounter(name, rules, SeededDice(seed))
        dice = SeededDice(seed + 50)
        while enc.outcome() is None and decisions < 400:
            actor = enc.current_actor()
            legal = enc.legal_actions()
            index = legal_index_map(ENCODING, enc, actor)
            assert len(index) == len(legal)  # every legal action on its own index
            for i, a in index.items():
                assert ENCODING.decode_action(enc, actor, i) == a
            mask = mask_from_legal(ENCODING, enc, actor)
            assert mask.sum() == len(legal) and set(np.flatnonzero(mask)) == set(index)
            snap = enc.snapshot()
            for c in enc.combatants:
                v = ENCODING.observe(enc, c.id)
                assert v.shape == (OBS.size,) and v.dtype == np.float32
                assert (v >= OBS.low).all() and (v <= OBS.high).all(), c.id
            assert enc.snapshot() == snap  # observing changes nothing
            enc.apply(rng.choice(legal), dice)
            decisions += 1
    assert decisions > 20


def _obs(enc, cid):
    return OBS.named(ENCODING.observe(enc, cid))


def test_the_observation_reads_the_context_self_and_slots():
    enc = _party()
    view = _obs(enc, "fighter")
    ctx = view["context"]
    assert ctx[0] == pytest.approx(1 / 20)  # round 1 of 20
    assert list(ctx[1:4]) == [1, 0, 0] and list(ctx[4:8]) == [1, 0, 0, 0]  # frame 1, frame
    slf = view["self"]
    assert slf[0] == 1.0 and slf[1] == pytest.approx(0.54)  # 54/54 HP, 54/100
    assert view["slot1"][0] == 1.0 and view["slot1"][1] == 1.0  # the wizard: present, ally
    assert view["slot4"][0] == 1.0 and view["slot4"][1] == 0.0  # the bandit: an enemy
    assert not view["slot3"].any()  # no third ally: an empty slot


def test_the_map_planes_show_the_giants_whole_footprint_and_the_edge():
    enc = R.from_situation({
        "system": "metaforce", "encounter": "giant_boss", "options": "core",
        "combatants": [{"id": "fighter", "at": [5, 5]}, {"id": "hill_giant", "at": [7, 4]}]})
    planes = _obs(enc, "fighter")["map"].reshape(len(PLANES), SIDE, SIDE)
    wall, enemy, me = planes[0], planes[PLANES.index("enemy")], planes[PLANES.index("self")]
    assert me[RADIUS, RADIUS] == 1.0 and me.sum() == 1.0
    assert enemy.sum() == 16  # 4 x 4 squares
    # the giant's south-west square (7, 4) is 2 east and 1 south of the fighter at (5, 5)
    assert enemy[RADIUS + 1, RADIUS + 2] == 1.0 and enemy[RADIUS - 2, RADIUS + 5] == 1.0
    assert wall[RADIUS, 0] == 1.0 and wall[RADIUS, 1] == 0.0  # x = -1 is off the map


def test_the_shaping_follows_spec_12_6_and_is_off_by_default():
    enc = _party()
    shape = SHAPING(1.0)
    ev = [DamageDealt("bandit", "fighter", 20, 20, 16, "blunt"),
          StateChanged("wolf", "dead", -3)]
    terms = shape(enc, ev, "fighter")
    foes = 36 + 36 + 26
    party = 54 + 24 + 24
    assert terms["fighter"]["harm"] == pytest.approx(0.5 * 20 / foes)
    assert terms["fighter"]["removed"] == pytest.approx(0.1)
    assert terms["bandit"]["harm"] == pytest.approx(-0.5 * 20 / foes)
    assert terms["wolf"]["deaths"] == pytest.approx(-0.25)
    assert "harm" in terms["wizard"] and party > 0
    assert shape(enc, [], "fighter") == {}
    from envs.metaforce.env import raw_env
    assert raw_env()._shaping is None


def test_the_last_observation_after_the_round_limit():
    enc = R.from_situation({
        "system": "metaforce", "encounter": "duel_fighter_brawler", "options": "core",
        "order": ["fighter", "odonghe_brawler"], "actor": "fighter", "round": 20})
    dice = SeededDice(0)
    while enc.outcome() is None:
        enc.apply(Action(str(enc.current_actor()), "end_turn"), dice)
    assert enc.outcome().winner is None  # a draw at the limit
    for cid in ("fighter", "odonghe_brawler"):
        v = OBS.named(ENCODING.observe(enc, cid))
        assert v["context"][0] == 1.0 and not v["context"][1:4].any()  # round 20/20, no frame


def test_the_observation_names_every_status_the_engine_inflicts():
    from envs.metaforce.observation import STATUSES
    from envs.metaforce.rules.full_statuses import FULL_STATUSES
    from envs.metaforce.rules.rulings import CORE_STATUSES

    assert set(CORE_STATUSES) | set(FULL_STATUSES) == set(STATUSES)


def _coven():
    """Two Wizards with Ward, Heal and an Unbroken cantrip (FULL, spec §7.9, §13.4), both
    holding tapped mana (Convoke, W-C), against two Bandits."""
    from dataclasses import replace

    from envs.core.squaregrid import SquareGrid
    from envs.metaforce.rules import FULL, build, profile_of, stat_blocks
    from envs.metaforce.rules.profile import Cantrip
    cs = (Cantrip("ward", "ward", 5, concentration="loose", tension=4),
          Cantrip("hex", "ward", 5, concentration="unbroken"))
    heal = Cantrip("heal", "heal", 5)
    wiz = profile_of(stat_blocks()["wizard"])
    rows = [("w", "a", replace(wiz, id="w", cantrips=cs), (0, 0), True),
            ("w2", "a", replace(wiz, id="w2", cantrips=(heal, cs[0])), (1, 0), True),
            ("b", "b", replace(profile_of(stat_blocks()["bandit"]), id="b"), (0, 5), True),
            ("b2", "b", replace(profile_of(stat_blocks()["bandit"]), id="b2"), (1, 5), True)]
    enc = build(rows, SquareGrid(8, 8), FULL, "coven", SeededDice(0), ["w", "b", "w2", "b2"])
    for cid in ("w", "w2"):
        enc.by_id[cid].mana_until = 1
    return enc


def test_full_spell_activities_share_the_window_block_in_a_frame():
    enc = _coven()
    assert enc.decision == "frame" and enc.current_actor() == "w"
    cases = [("w: cast ward -> w", 466), ("w: cast ward -> w2", 467),
             ("w: cast hex -> w2", 466 + 4 + 1)]
    for label, index in cases:
        a = enc.parse_action(label)
        assert ENCODING.encode_action(enc, "w", a) == index, label
        assert ENCODING.decode_action(enc, "w", index) == a, label
    assert ENCODING.decode_action(enc, "w", 466 + 8) == Action("w", "concentrate")
    assert ENCODING.decode_action(enc, "w", 466 + 9) == Action("w", "release", ("ward",))
    assert ENCODING.decode_action(enc, "w", 466 + 10) == Action("w", "release", ("hex",))


def test_random_play_with_casters_round_trips_masks_exactly():
    decisions, seen = 0, set()
    for seed in range(12):
        enc, rng, dice = _coven(), random.Random(seed), SeededDice(seed)
        if seed % 2:
            enc.apply(enc.parse_action("w: cast fireball -> b"), dice)  # W-C for w2
        elif seed % 3 == 2:  # Ward and hex held: the hex needs the Active concentration
            w = enc.by_id["w"]
            w.effects, w.tension = [("ward", "loose", 4, "w", 0), ("hex", "unbroken", 0, "w", 0)], 4
            enc._legal = None
        while enc.outcome() is None and decisions < 300 * (seed + 1):
            actor = enc.current_actor()
            legal = enc.legal_actions()
            seen.add(enc.decision)
            seen.update(a.kind for a in legal)
            index = legal_index_map(ENCODING, enc, actor)
            assert len(index) == len(legal)
            for i, a in index.items():
                assert ENCODING.decode_action(enc, actor, i) == a
            for c in enc.combatants:
                v = ENCODING.observe(enc, c.id)
                assert (v >= OBS.low).all() and (v <= OBS.high).all(), c.id
            enc.apply(rng.choice(legal), dice)
            decisions += 1
    assert {"convoke", "concentrate", "release", "cast"} <= seen


def test_a_grip_let_go_shares_the_power_block_in_a_frame():
    # spec §5.9 item 4: ``release -> <grappled>`` is free; in a frame decision the ``power``
    # block's first indices name it by enemy slot (its own actions are windows only)
    from envs.core.dice import ScriptedDice
    from envs.core.squaregrid import SquareGrid
    from envs.metaforce.rules import CORE, build, profile_of, stat_blocks
    blocks = stat_blocks()
    rows = [("br", "a", profile_of(blocks["odonghe_brawler"]), (2, 2), False),
            ("b", "b", profile_of(blocks["bandit"]), (3, 2), False),
            ("b2", "b", profile_of(blocks["bandit"]), (3, 3), False)]
    enc = build(rows, SquareGrid(10, 10), CORE, "grip", SeededDice(0), ["br", "b", "b2"])
    enc.apply(enc.parse_action("br: grapple -> b2"), ScriptedDice(["d12=11", "d12=6"]))
    assert enc.decision == "frame" and enc.current_actor() == "br"
    a = enc.parse_action("br: release -> b2")
    assert a in enc.legal_actions()
    start = LAYOUT.strides("power")[0]
    assert ENCODING.encode_action(enc, "br", a) == start + 1  # b2: the second enemy slot
    assert ENCODING.decode_action(enc, "br", start + 1) == a
    mask = mask_from_legal(ENCODING, enc, "br")
    assert mask[start + 1] and not mask[start] and not mask[start + 2]
    enc.apply(a, ScriptedDice([]))
    assert not enc.by_id["br"].grips() and "grappled" not in enc.by_id["b2"].statuses
    assert enc.by_id["br"].frames_left == 1  # free: the frame is still there
