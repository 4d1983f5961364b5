"""Metaforce presets (spec §13.3) played to the end, situations, the rules-module contract,
the view and the previews."""

from __future__ import annotations

import random

import pytest

from envs import RulesModule
from envs.core.data import DataError
from envs.core.dice import ScriptedDice, SeededDice
from envs.metaforce import rules as R
from envs.metaforce.invariants import state_invariants

PRESETS = ["duel_fighter_brawler", "detective_vs_bandits", "skirmish_2v2", "party_3v3",
           "giant_boss", "golem_puzzle"]


def test_the_rules_module_meets_the_contract():
    assert isinstance(R, RulesModule) and R.SYSTEM == "metaforce"
    assert R.encounter_names() == PRESETS
    assert {"fighter", "wizard", "hill_giant"} <= set(R.stat_blocks())
    with pytest.raises(DataError, match="unknown encounter 'brawl'"):
        R.new_encounter("brawl")


@pytest.mark.parametrize("options", ["core", "full"])
@pytest.mark.parametrize("name", PRESETS)
def test_random_play_of_every_preset_ends_with_the_invariants_holding(name, options):
    rounds = set()
    for seed in range(20):
        enc = R.new_encounter(name, options, SeededDice(seed))
        rng, dice = random.Random(seed), SeededDice(seed + 1000)
        state_invariants(enc)
        for _ in range(4000):
            if enc.is_over():
                break
            acts = enc.legal_actions()
            assert len({a.label for a in acts}) == len(acts), "labels must be unique"
            enc.apply(acts[rng.randrange(len(acts))], dice)
            state_invariants(enc)
        assert enc.is_over() and enc.outcome().round <= 20
        rounds.add(enc.outcome().round)
    assert len(rounds) > 1  # the games differ


def test_presets_use_the_catalogue_numbers_and_the_preset_initiative_mode():
    enc = R.new_encounter("giant_boss", "core", SeededDice(1))
    giant = enc.by_id["hill_giant"]
    assert (giant.hp, giant.n, giant.profile.reach_ft, giant.speed_squares()) == (264, 4, 20, 6)
    wizard = enc.by_id["wizard"].profile
    assert [w.id for w in wizard.weapons][:2] == ["fire_bolt", "shocking_grasp"]
    det = enc.by_id["detective"]
    assert det.loaded["revolver"] == 6 and det.profile.firearm_proficient
    assert R.new_encounter("party_3v3", "full").options.initiative_mode == "alternating"
    assert R.new_encounter("party_3v3", "core").options.initiative_mode == "direct"


@pytest.mark.parametrize("preset, asked, got", [
    ("duel_fighter_brawler", {"initiative_mode": "alternating"}, "alternating"),
    ("party_3v3", {"initiative_mode": "direct"}, "direct"),  # a named mode holds (§3.3)
    ("duel_fighter_brawler", "full", "direct"),
])
def test_a_named_initiative_mode_beats_the_presets_own(preset, asked, got):
    assert R.new_encounter(preset, asked).options.initiative_mode == got


def test_initiative_is_rolled_with_the_given_dice_in_roster_order():
    enc = R.new_encounter("duel_fighter_brawler", "core", ScriptedDice([1, 12]))
    assert enc.order == ["odonghe_brawler", "fighter"]  # 1 + 5 = 6 < 12 + 6 = 18
    assert enc.current_actor() == "odonghe_brawler"


def test_a_situation_sets_positions_state_and_the_actor():
    enc = R.from_situation({
        "system": "metaforce", "encounter": "detective_vs_bandits", "options": "core",
        "order": ["bandit", "bandit_2", "detective"], "actor": "bandit_2", "round": 3,
        "combatants": [
            {"id": "detective", "at": [5, 5], "state": {"hp": 10, "mp": 4}},
            {"id": "bandit", "at": [5, 6], "state": {"statuses": {"bleed": 9}}},
            {"id": "bandit_2", "at": [6, 6],
             "state": {"statuses": {"grappled": 12}, "grappler": "detective"}}]})
    assert (enc.round, enc.current_actor()) == (3, "bandit_2")
    d = enc.by_id["detective"]
    assert (d.hp, d.mp, d.pos, d.grappling) == (10, 4, (5, 5), "bandit_2")
    assert enc.by_id["bandit"].statuses["bleed"][0] == 9
    assert enc.by_id["bandit_2"].grappled == "full"  # 12 >= Reflex SD 4
    state_invariants(enc)


def test_a_situation_with_an_inline_creature():
    enc = R.from_situation({
        "system": "metaforce", "options": "core", "map": {"w": 8, "h": 8},
        "combatants": [
            {"id": "hero", "side": "a", "stats": "fighter", "at": [0, 0]},
            {"id": "rat", "side": "b", "at": [0, 7], "aware": False, "stats": {
                "name": "Rat", "level": 1, "size": 1, "protected": False,
                "metaforce_user": False,
                "attributes": {"str": 0, "end": 0, "agi": 2, "per": 1, "int": 0, "cha": 0},
                "proficient": ["agi"], "saves": ["reflex"], "armour": "none",
                "weapons": [{"id": "bite", "type": "natural", "hands": 0, "attr": "agi",
                             "tohit": 2, "damage_base": 2, "bonus_die": 4,
                             "damage_type": "piercing", "reach_ft": 5}]}}]},
        "inline.yaml", ScriptedDice([5, 5]))
    assert enc.by_id["rat"].reactions == 0 and enc.grid.width == 8
    assert enc.current_actor() == "hero"


@pytest.mark.parametrize("change, message", [
    ({"combatants": [{"id": "detective", "state": {"hp": 99}}]}, "hp"),
    ({"combatants": [{"id": "detective", "state": {"statuses": {"fear": 3}}}]}, "fear"),
    ({"combatants": [{"id": "detective", "at": [40, 0]}]}, "does not fit"),
    ({"combatants": [{"id": "detective", "at": [1, 1]}, {"id": "bandit", "at": [1, 1]}]},
     "shares a square"),
    ({"combatants": [{"id": "detective", "state": {"mood": 3}}]}, "mood"),
])
def test_bad_situations_name_the_file_and_the_field(change, message):
    data = {"system": "metaforce", "encounter": "detective_vs_bandits", **change}
    with pytest.raises(DataError) as e:
        R.from_situation(data, "bad.yaml")
    assert str(e.value).startswith("bad.yaml: ") and message in str(e.value)


def test_the_view_and_the_previews():
    enc = R.new_encounter("duel_fighter_brawler", "core", ScriptedDice([12, 1]))
    v = enc.view("fighter")
    import json
    assert json.loads(json.dumps(v)) == v  # plain data
    assert v["decision"] == "frame" and v["current_actor"] == "fighter"
    me = next(c for c in v["combatants"] if c["id"] == "fighter")
    assert (me["hp"], me["evasion"], me["deflection"], me["mp"]) == (54, 6, 10, 15)
    foe = next(c for c in v["combatants"] if c["id"] == "odonghe_brawler")
    assert foe["ally"] is False and foe["distance"] > 1
    assert R.in_reach(enc, "fighter") == {"warhammer": [], "unarmed": []}
    p = R.preview_attack(enc, "fighter", "warhammer", "odonghe_brawler")
    assert p.steps == 1 and not p.in_range
    assert p.miss == 0 and abs(p.direct - 1) < 1e-9  # +8 vs E 6 / D 8: always direct
    assert abs(p.crit - (1 - (11 / 12) ** 2)) < 1e-9
    q = R.preview_attack(enc, "odonghe_brawler", "unarmed", "fighter")
    assert abs(q.deflected - 1 / 36) < 1e-9  # +8 vs D 10: deflected only when both d12 <= 2
    assert q.expected_damage > 0


def test_describe_puts_every_legal_action_in_plain_words():
    from envs.metaforce.rules.describe import describe
    enc = R.new_encounter("skirmish_2v2", "core", SeededDice(4))
    rng, dice = random.Random(4), SeededDice(5)
    seen = set()
    while not enc.is_over() and len(seen) < 12:
        acts = enc.legal_actions()
        for a in acts:
            text = describe(a, enc)
            assert text and a.actor + ":" not in text
            seen.add(a.kind)
        enc.apply(acts[rng.randrange(len(acts))], dice)
    fighter = R.new_encounter("duel_fighter_brawler", "core", ScriptedDice([12, 1]))
    a = fighter.parse_action("fighter: attack warhammer approach -> odonghe_brawler")
    assert describe(a, fighter).startswith("close in and attack the Odonghe Brawler with the "
                                           "warhammer (100% to hit, 100% direct, ~")


def test_a_situation_without_positions_uses_the_default_deployment():
    data = {"system": "metaforce", "options": "core", "map": {"w": 10, "h": 6}, "combatants": [
        {"id": "hero", "side": "a", "stats": "fighter"},
        {"id": "foe", "side": "b", "stats": "bandit"}]}
    enc = R.from_situation(data, "deploy.yaml", ScriptedDice([5, 5]))
    assert enc.by_id["hero"].pos[0] == 0 and enc.by_id["foe"].pos[0] == 9  # west and east
    data["map"] = {"w": 4, "h": 4}
    with pytest.raises(DataError, match="^deploy.yaml: situation: field 'map'.*30 ft"):
        R.from_situation(data, "deploy.yaml", ScriptedDice([5, 5]))


def test_an_unplaced_member_is_deployed_off_the_squares_of_the_placed_ones():
    # spec §3.2: the bandit's default spot (the east edge's centre, (15, 7)) is the fighter's
    data = {"system": "metaforce", "options": "full", "combatants": [
        {"id": "fighter", "side": "a", "stats": "fighter", "at": [15, 7]},
        {"id": "bandit", "side": "b", "stats": "bandit"}]}
    enc = R.from_situation(data, "mixed.yaml", ScriptedDice([5, 5]))
    assert (enc.by_id["fighter"].pos, enc.by_id["bandit"].pos) == ((15, 7), (15, 6))


@pytest.mark.parametrize("name", ["giant_boss", "party_3v3"])
def test_full_windows_clone_and_snapshot_continue_identically(name):
    import json

    from envs.metaforce.rules import MetaforceEncounter

    def log(enc, seed):
        rng, dice, out = random.Random(seed), SeededDice(seed + 7), []
        while not enc.is_over():
            acts = enc.legal_actions()
            a = acts[rng.randrange(len(acts))]
            out += [a.label] + [str(e) for e in enc.apply(a, dice)]
        return out

    kinds = set()
    for seed in range(24):
        enc = R.new_encounter(name, "full", SeededDice(seed))
        rng, dice = random.Random(seed), SeededDice(seed)
        steps = rng.randrange(10, 120)
        for n in range(2000):  # odd seeds stop inside a FULL window (dodge, meta_die...)
            if enc.is_over() or (n >= steps and (seed % 2 == 0 or enc.decision not in
                                                 ("frame", "reaction"))):
                break
            acts = enc.legal_actions()
            enc.apply(acts[rng.randrange(len(acts))], dice)
        kinds.add(enc.decision)
        if enc.is_over():
            continue
        twin = enc.clone()
        again = MetaforceEncounter.from_snapshot(json.loads(json.dumps(enc.snapshot())))
        assert again.snapshot() == enc.snapshot()
        assert log(enc, seed) == log(twin, seed) == log(again, seed)
    assert kinds - {"frame", "reaction", "over"}, kinds  # some FULL window was cloned
