"""Sizebound FULL gaps (spec §12.2): Leap (WE-29), swinging and throwing a wielded creature,
Line and Cone skills, fire spaces put out by Water (WE-34), cover from Large Hail (WE-37) and the
``per_side`` Exertion pool, with forced dice and exact outcomes (off under CORE)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_sizebound_full_rest import FQ, duel, sit
from test_sizebound_rules import do, labels, texts

from envs.core import ScriptedDice
from envs.core.actions import ActionSyntaxError
from envs.core.data import DataError
from envs.sizebound.encoding import ENCODING, LAYOUT
from envs.sizebound.invariants import state_invariants
from envs.sizebound.rules.full_sides import setup
from envs.sizebound.rules.situation import from_situation

WATER_JET = {"magical": True, "cost": {"actions": ["P"]}, "mana": 4, "resolve": "area",
             "area": {"shape": "line", "size": 4}, "dice": "3d6", "stat": "magic",
             "dtype": ["Water"]}
FROST_CONE = {"magical": True, "cost": {"attacks": 1}, "mana": 2, "resolve": "area",
              "area": {"shape": "cone", "size": 2}, "dice": "1d6", "stat": "magic",
              "dtype": ["Cold"]}
CASTER = {"size": "Medium", "level": 1, "totals": {"might": 10, "skill": 12, "magic": 15},
          "scaling_improvements": {"hp": 0, "mana": 0}, "armour": "none",
          "wielded": {"both": "quarterstaff"}, "skills": ["water_jet", "frost_cone"]}


def run(enc, label, faces=()):
    """Apply ``label`` and pass every window it opens, with one script of dice."""
    dice = ScriptedDice(list(faces))
    ev = enc.apply(enc.parse_action(label), dice)
    while enc.window is not None:
        ev += enc.apply(enc.parse_action(f"{enc.window.actor}: pass"), dice)
    state_invariants(enc)
    return ev


def leaps(enc):
    return [x for x in labels(enc) if ": leap " in x]


def roundtrip(enc):
    for a in enc.legal_actions():
        i = ENCODING.encode_action(enc, a.actor, a)
        assert ENCODING.decode_action(enc, a.actor, i) == a


# ---------------------------------------------------------------- Leap (spec §5.2.18, WE-29)
def test_we29_three_walk_buy_one_leap_and_two_walk_are_left():
    enc = duel(map={"w": 12, "h": 12, "difficult": [[3, 6, 3, 6]]})
    assert sorted(leaps(enc)) == sorted(f"duelist: leap {d} 1" for d in
                                        ("e", "ne", "n", "nw", "w", "sw", "s", "se"))
    roundtrip(enc)
    ev = do(enc, "duelist: leap e 1")  # onto a difficult cell: the leap ignores it
    assert texts(ev)[1:] == ["duelist opens a move budget of 5",
                             "duelist leaps e to (3, 6) (cost 3)"]
    d = enc.by_id["duelist"]
    assert d.budget == 2 and d.pos == (3, 6)
    assert leaps(enc) == []  # 2 Walk cannot buy another space
    do(enc, "duelist: step e")
    do(enc, "duelist: step e")
    assert enc.by_id["duelist"].pos == (5, 6) and enc.by_id["duelist"].budget == 0


def test_walk_7_leaps_2_and_a_leap_speed_caps_the_move():
    enc = sit([("dog", "A", "war_dog", (2, 6)), ("knight", "B", "knight", (10, 6))])
    assert "dog: leap e 2" in leaps(enc) and "dog: leap e 3" not in leaps(enc)
    enc = sit([("dog", "A", "war_dog", (2, 6)), ("knight", "B", "knight", (10, 6))],
              states={"dog": {"speeds": {"leap": 2}}})
    assert "dog: leap e 3" not in leaps(enc)
    ev = do(enc, "dog: leap e 2")
    assert "dog leaps e to (4, 6) (cost 2)" in texts(ev)
    assert enc.by_id["dog"].budget == 0  # spec §5.2.3: the lowest speed of the Move (Leap 2)


def test_leap_passes_an_ally_not_a_hostile_and_lands_free():
    enc = sit([("duelist", "A", "duelist", (2, 6)), ("mage", "A", "mage", (3, 6)),
               ("knight", "B", "knight", (2, 7))], states={"duelist": {"speeds": {"leap": 3}}})
    got = leaps(enc)
    assert "duelist: leap e 2" in got  # over the ally
    assert "duelist: leap n 1" not in got and "duelist: leap n 2" not in got  # the knight


def test_tired_cannot_leap_and_a_winded_leaper_tires():
    enc = duel(states={"duelist": {"conditions": ["winded"]}})
    ev = do(enc, "duelist: leap e 1")
    assert "duelist is now tired" in texts(ev)
    assert leaps(enc) == []


def test_leap_is_full_only_and_reads_two_words():
    enc = duel(options={"version": "core", "exertion_control": "off"})
    assert leaps(enc) == []
    enc = duel()
    for bad in ("duelist: leap e", "duelist: leap e 4", "duelist: leap up 1",
                "duelist: leap e 1 -> knight"):
        with pytest.raises(ActionSyntaxError):
            enc.parse_action(bad)


def test_a_clinger_leaps_off_the_wall_for_m_and_falls():
    enc = duel(options={**FQ, "exertion_control": "off"},
               map={"w": 12, "h": 12, "walls": [[1, 0, 1, 11]]},
               states={"duelist": {"z": 4}})
    d = enc.by_id["duelist"]
    d.cling, d.fall_turn = 2, 0
    d.conds.remove("falling")
    enc._legal = None
    assert "duelist: leap e 3" in leaps(enc)
    ev = do(enc, "duelist: leap e 3", faces=[2, 2])
    t = texts(ev)
    assert t[1:3] == ["duelist leaps e to (5, 6) (cost 0)", "duelist is now falling"]
    assert "duelist lands after falling 4 (2d6 Fall)" in t  # no Leap speed to cut it (§8.8)
    assert d.cling == 0 and "M" in d.used and d.mode == "leap" and d.hp == 44


# ---------------------------------------------------------------- a wielded creature
def bear_fight(**kw):
    return sit([("bear", "A", "cave_bear", (5, 5)), ("gob", "B", "goblin", (6, 5)),
                ("knight", "B", "knight", (5, 6))], **kw)


def test_swing_a_wielded_goblin_at_the_knight_both_take_the_harm():
    enc = bear_fight()
    do(enc, "bear: lift -> gob", faces=[])
    assert "bear: swing -> knight" not in labels(enc)  # the attack pool is spent (1 attack)
    enc = bear_fight(states={"bear": {}})
    do(enc, "bear: lift -> gob")
    do(enc, "bear: end_turn")
    do(enc, "gob: end_turn")
    do(enc, "knight: end_turn")
    assert "bear: swing -> knight" in labels(enc) and "bear: swing -> gob" not in labels(enc)
    roundtrip(enc)
    ev = run(enc, "bear: swing -> knight", faces=[15, 4])
    t = texts(ev)
    assert "knight takes 7 Bludgeoning -> 42 HP" in t and "gob takes 7 Bludgeoning -> 40 HP" in t
    assert enc.by_id["bear"].grips == {"gob": 2}  # still held


def test_throw_a_wielded_goblin_into_magma():
    enc = bear_fight(map={"w": 12, "h": 12, "magma": [[8, 5, 8, 5]]})
    do(enc, "bear: lift -> gob")
    do(enc, "bear: end_turn")
    do(enc, "gob: end_turn")
    do(enc, "knight: end_turn")
    got = [x for x in labels(enc) if "throw_to" in x]
    assert "bear: throw_to e 3" in got and "bear: throw_to n 1" not in got  # the knight's
    assert "bear: throw_to e 5" not in got  # two hands: range 4
    ev = do(enc, "bear: throw_to e 3")  # 3 east of the bear (5, 5): (8, 5)
    assert "gob is thrown and lands at 8,5" in texts(ev)
    assert not enc.by_id["gob"].alive  # no protection: instant death (spec §8.3)
    assert enc.by_id["bear"].grips == {}


def test_throw_to_an_empty_cell_lands_prone():
    enc = bear_fight()
    do(enc, "bear: lift -> gob")
    do(enc, "bear: end_turn")
    do(enc, "gob: end_turn")
    do(enc, "knight: end_turn")
    ev = do(enc, "bear: throw_to s 3")
    g = enc.by_id["gob"]
    assert g.pos == (5, 2) and g.prone and g.hp == 47  # Small: no fall dice
    assert "gob falls prone" in texts(ev)


# ---------------------------------------------------------------- Line and Cone (spec §8.7)
def caster_fight(mapping=None, **kw):
    data = {"system": "sizebound", "options": FQ, "map": mapping or {"w": 12, "h": 12},
            "skills": {"water_jet": WATER_JET, "frost_cone": FROST_CONE},
            "combatants": [{"id": "cas", "side": "A", "stats": CASTER, "at": [2, 6]},
                           {"id": "knight", "side": "B", "stats": "knight", "at": [5, 6]},
                           {"id": "dog", "side": "B", "stats": "war_dog", "at": [3, 8]}],
            "round": 1, "actor": "cas", **kw}
    return from_situation(data)


def test_line_skill_hits_along_its_row_and_puts_out_fire():
    enc = caster_fight({"w": 12, "h": 12, "fire": [[3, 6, 6, 6]]})
    assert "cas: cast water_jet e" in labels(enc) and "cas: cast frost_cone ne" in labels(enc)
    roundtrip(enc)
    ev = run(enc, "cas: cast water_jet e", faces=[6, 5, 4])
    t = texts(ev)
    assert "knight takes 17 Water -> 32 HP" in t  # 3d6 15 + Magic 2
    assert enc.by_id["dog"].hp == 45  # not in the line
    assert "the fire at (3, 6) goes out" in t and "the fire at (4, 6) goes out" not in t
    assert enc.terrain.get((3, 6)) is None and enc.terrain[(4, 6)] == "fire"
    assert enc.by_id["cas"].mana == 12


def test_a_wide_line_skill_reaches_beside_its_axis_and_reads_its_width():
    from envs.sizebound.rules.describe import describe
    wide = {**WATER_JET, "area": {"shape": "line", "size": 4, "width": 3}}
    enc = caster_fight(skills={"water_jet": wide, "frost_cone": FROST_CONE}, combatants=[
        {"id": "cas", "side": "A", "stats": CASTER, "at": [2, 6]},
        {"id": "knight", "side": "B", "stats": "knight", "at": [5, 6]},
        {"id": "dog", "side": "B", "stats": "war_dog", "at": [3, 7]}])  # one off the axis
    roundtrip(enc)
    assert describe(enc.parse_action("cas: cast water_jet e"), enc) == \
        "cast Water Jet, a line of 4 x 3 to the east (3d6+2, Dodge halves, 4 Mana of 16)"
    t = texts(run(enc, "cas: cast water_jet e", faces=[6, 5, 4]))
    assert "knight takes 17 Water -> 32 HP" in t and "dog takes 17 Water -> 28 HP" in t


def test_cone_skill_covers_the_quadrant_costs_an_attack():
    enc = caster_fight()
    ev = run(enc, "cas: cast frost_cone ne", faces=[3])
    t = texts(ev)
    assert "dog takes 5 Cold -> 40 HP" in t and enc.by_id["knight"].hp == 49
    assert enc.by_id["cas"].pool_open and "cas: cast frost_cone ne" not in labels(enc)


def test_line_and_cone_skills_are_full_only_and_need_the_label():
    enc = caster_fight(options={"version": "core", "exertion_control": "off"})
    assert not any("water_jet" in x for x in labels(enc))
    with pytest.raises(ActionSyntaxError):
        enc.parse_action("cas: cast water_jet up")


def test_a_situation_skill_with_a_catalogue_id_is_refused():
    with pytest.raises(DataError, match=r"situation\.skills: field 'arcane_bolt'"):
        caster_fight(skills={"arcane_bolt": WATER_JET})


# ---------------------------------------------------------------- fire, cover (WE-34, WE-37)
def test_ending_a_turn_in_a_fire_space_ignites():
    enc = duel(map={"w": 12, "h": 12, "fire": [[3, 6, 3, 6]]})
    do(enc, "duelist: step e")
    ev = do(enc, "duelist: end_turn")
    assert "duelist is now ignited" in texts(ev)


def test_cover_shelters_from_large_hail():
    opts = {**FQ, "weather": "large_hail"}
    enc = duel(options=opts, map={"w": 12, "h": 12, "cover": [[0, 0, 4, 11]]})
    ev = do(enc, "duelist: end_turn")
    assert not any("Bludgeoning" in x for x in texts(ev))
    assert enc.by_id["duelist"].hp == 48
    enc = duel(options=opts)
    ev = do(enc, "duelist: end_turn", faces=[2, 3])
    assert enc.by_id["duelist"].hp == 43


def test_layout_grows_at_the_end_only():
    assert LAYOUT.size == 335
    assert [b.name for b in LAYOUT.blocks][-4:] == ["leap", "swing", "throw_to", "cast_dir"]


# ---------------------------------------------------------------- per-side pool (spec §9.2)
def side_fight(pool):
    return sit([("cap", "A", "captain", (2, 6)), ("duelist", "A", "duelist", (2, 8)),
                ("knight", "B", "knight", (3, 6))],
               {"version": "full", "interleave": False, "exertion_pool": pool})


def test_per_side_pool_is_shared_and_sized_by_the_highest_member():
    enc = side_fight("per_side")
    cap, duelist = enc.by_id["cap"], enc.by_id["duelist"]
    assert cap.dice == duelist.dice == 3
    cap.profile = replace(cap.profile, exertion_max=5)  # a level table pool of 5
    setup(enc)
    assert cap.dice == duelist.dice == 5  # the side's pool: the highest value, full
    cap.hp = 50
    enc._legal = None
    do(enc, "cap: recover hp", [4])  # 4 + L5 = 9 HP, one die of the side's pool
    assert cap.hp == 59 and cap.dice == duelist.dice == 4
    do(enc, "cap: attack main -> knight", [1])  # a natural 1: the side's pool regains one
    assert cap.dice == duelist.dice == 5
    state_invariants(enc)


def test_per_combatant_pools_stay_apart_and_bad_values_are_refused():
    enc = side_fight("per_combatant")
    enc.by_id["cap"].hp = 50
    enc._legal = None
    do(enc, "cap: recover hp", [4])
    assert enc.by_id["cap"].dice == 2 and enc.by_id["duelist"].dice == 3
    with pytest.raises(DataError, match="exertion_pool"):
        side_fight("shared")
