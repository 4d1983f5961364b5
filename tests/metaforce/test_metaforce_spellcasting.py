"""Metaforce FULL spellcasting with forced dice: Convoke (W-C, spec §5.8, §6.1, R-23, WE-34),
Tension (§7.6, §7.7, WE-35), concentration (§7.9, R-47) and the cantrips Ward, Heal and Magic
Missile (§13.4)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_metaforce_kit import act, cat, fight, labels, texts

from envs.metaforce.encoding import ENCODING
from envs.metaforce.rules import CORE, FULL
from envs.metaforce.rules.full_spells import costs
from envs.metaforce.rules.profile import Cantrip, tension_cost


def wizard(cid: str = "wizard", level: int | None = None, **kw):
    """The Wizard of §13.1; ``level`` makes its Fireball a spell of that level (frames L,
    Exert 2L, spec §5.8)."""
    p = cat("wizard", cid, **kw)
    if level is not None:
        fb = replace(p.spells[0], level=level, frames=level, exert=2 * level)
        p = replace(p, spells=(fb,))
    return p


def coven(level: int | None = None, mana: tuple[str, ...] = ("w2",), third: bool = False,
          options=FULL):
    """The Wizard ``w`` (to act), allies ``w2`` (and ``w3``) of the same magic, a Bandit 30 ft
    off; ``mana`` names who holds tapped mana."""
    members = [(wizard("w", level), "a", (0, 0)), (wizard("w2", level), "a", (1, 0))]
    if third:
        members.append((wizard("w3", level), "a", (2, 0)))
    members.append((cat("bandit"), "b", (0, 6)))
    enc = fight(*members, options=options)
    for cid in mana:
        enc.by_id[cid].mana_until = 1
    return enc


@pytest.mark.parametrize(("level", "mana", "k", "exert", "frames"), [
    (2, False, 0, 4, 2),   # WE-34 row 1
    (2, True, 0, 2, 1),    # row 2
    (1, True, 0, 1, 1),    # row 3
    (3, True, 1, 1, 1),    # row 4: 3 - 2 = 1, max(1, 3 - 1 - 1) = 1
    (3, True, 2, 0, 1),    # not below 0
    (5, True, 1, 3, 3),    # one extra frame off
    (5, True, 2, 1, 3),    # however many convoke
])
def test_spell_costs_follow_the_table_of_spec_5_8(level, mana, k, exert, frames):
    w = fight((wizard("w", level), "a", (0, 0)), (cat("bandit"), "b", (0, 6)),
              options=FULL).by_id["w"]
    w.mana_until = 1 if mana else -1
    assert costs(w, w.profile.spells[0], k) == (exert, frames)


def test_a_convoker_gives_its_mana_for_a_reaction():
    enc = coven(level=3, mana=("w", "w2"))
    ev = act(enc, "w: cast fireball -> bandit", [])
    assert enc.decision == "convoke" and enc.current_actor() == "w2"
    assert labels(enc) == ["w2: convoke", "w2: pass"]
    w2 = enc.by_id["w2"]
    ev = act(enc, "w2: convoke", ["d12=5", "d12=3", "d8=4"])  # one frame: it resolves now
    assert "w2 uses convoke (gives its tapped mana to w)" in texts(ev)
    assert "w exerts 1 (Exert now 1)" in texts(ev)  # WE-34 row 4
    assert w2.reactions == 0 and w2.mana_until == -1 and enc.by_id["w"].mana_until == -1
    assert enc.by_id["bandit"].hp == 36 - 14


def test_a_declined_convoke_costs_nothing():
    enc = coven(level=3, mana=("w", "w2"))
    act(enc, "w: cast fireball -> bandit", [])
    ev = act(enc, "w2: pass", [])
    assert "w exerts 3 (Exert now 3)" in texts(ev)  # L with tapped mana, max(1, 3 - 1) frames
    assert enc.by_id["w"].casting == "fireball" and enc.by_id["w"].cast_left == 1
    assert enc.by_id["w2"].reactions == 1 and enc.by_id["w2"].mana_until == 1


def test_convokers_are_asked_in_initiative_order_and_each_lowers_the_exert_by_2():
    enc = coven(level=5, mana=("w", "w2", "w3"), third=True)
    act(enc, "w: cast fireball -> bandit", [])
    assert enc.current_actor() == "w2"
    act(enc, "w2: convoke", [])
    assert enc.current_actor() == "w3"
    ev = act(enc, "w3: convoke", [])
    assert "w exerts 1 (Exert now 1)" in texts(ev)  # max(0, 5 - 4)
    assert enc.by_id["w"].cast_left == 2  # max(1, 5 - 2) = 3 frames, the first one spent


def test_no_window_without_tapped_mana_a_reaction_or_the_same_magic():
    enc = coven(level=2, mana=("w",))  # w2 holds no mana
    ev = act(enc, "w: cast fireball -> bandit", ["d12=5", "d12=3", "d8=4"])
    assert "w exerts 2 (Exert now 2)" in texts(ev)
    enc = coven(level=2, mana=("w", "w2"))
    enc.by_id["w2"].reactions = 0
    act(enc, "w: cast fireball -> bandit", ["d12=5", "d12=3", "d8=4"])
    assert enc.decision != "convoke" and enc.by_id["w"].exert == 2
    enc = fight((wizard("w", 2), "a", (0, 0)), (replace(wizard("w2", 2), magic="cha"), "a",
                                                         (1, 0)),
                (cat("bandit"), "b", (0, 6)), options=FULL)
    enc.by_id["w2"].mana_until = 1
    ev = act(enc, "w: cast fireball -> bandit", [])
    assert enc.decision != "convoke" and "w exerts 4 (Exert now 4)" in texts(ev)  # Sorcery



def test_convoke_without_the_casters_own_mana_pools_the_convokers():
    enc = coven(level=3, mana=("w2",))
    act(enc, "w: cast fireball -> bandit", [])
    ev = act(enc, "w2: convoke", ["d12=5", "d12=3", "d8=4"])
    assert "w exerts 1 (Exert now 1)" in texts(ev)


def test_the_convoke_window_has_the_use_index_of_spec_12_5():
    enc = coven(level=3, mana=("w", "w2"))
    act(enc, "w: cast fireball -> bandit", [])
    a = enc.parse_action("w2: convoke")
    i = ENCODING.encode_action(enc, "w2", a)
    assert i == 466 + 3 and ENCODING.decode_action(enc, "w2", i) == a
    assert ENCODING.decode_action(enc, "w2", 466) == enc.parse_action("w2: pass")


def test_core_casts_no_levelled_spell_and_opens_no_convoke():
    enc = coven(level=2, mana=("w", "w2"), options=CORE)
    assert not any("fireball" in x for x in labels(enc))


def test_tension_is_10_minus_reductions_at_least_1():
    assert [tension_cost(10, r) for r in (0, 4, 12)] == [10, 6, 1]  # WE-35


# ---------------------------------------------------------------------- Tension, concentration

def caster(cid: str = "wizard", *cantrips: Cantrip, **kw):
    """The Wizard with support cantrips (``Profile.cantrips``)."""
    return replace(wizard(cid, **kw), cantrips=cantrips)


WARD = Cantrip("ward", "ward", 5)
HEAL = Cantrip("heal", "heal", 5)


def loose(cid: str, tension: int = 0) -> Cantrip:
    return Cantrip(cid, "ward", 5, concentration="loose", tension=tension)


def unbroken(cid: str, tension: int = 0) -> Cantrip:
    return Cantrip(cid, "ward", 5, concentration="unbroken", tension=tension)


def party(*cantrips: Cantrip, exert: int = 0):
    """The Wizard (to act) beside the Fighter, a Bandit 30 ft off."""
    enc = fight((caster("wizard", *cantrips), "a", (0, 0)), (cat("fighter"), "a", (1, 0)),
                (cat("bandit"), "b", (0, 6)), options=FULL, aware=False)
    enc.by_id["wizard"].exert = exert
    return enc


def test_a_channelled_effect_adds_its_tension_until_released():
    enc = party(loose("ward", tension=6))
    w = enc.by_id["wizard"]
    assert "wizard: cast ward -> fighter" in labels(enc) and "wizard: cast ward -> wizard" in \
        labels(enc)
    ev = act(enc, "wizard: cast ward -> fighter", [])
    assert "wizard holds ward on fighter (loose concentration, Tension 6, Exert now 6)" in \
        texts(ev)
    assert (w.exert, w.tension, w.exert_total) == (0, 6, 6) and w.tired  # T 3 (§7.6)
    assert "wizard: release ward" in labels(enc)
    ev = act(enc, "wizard: release ward", [])  # free: the frame is still to play
    assert "wizard's ward on fighter ends (released)" in texts(ev)
    assert (w.tension, w.tired, w.frames_left, w.effects) == (0, False, 1, [])


def test_over_the_exert_limit_every_tension_source_is_released_first():
    enc = party(loose("ward", tension=6), exert=10)  # 10 + 6 = 16 > L 13
    ev = act(enc, "wizard: cast ward -> fighter", [])
    w = enc.by_id["wizard"]
    assert "wizard's ward on fighter ends (over the Exert limit)" in texts(ev)
    assert (w.exert_total, w.state) == (10, "active")
    enc = party(loose("ward", tension=6), exert=13)  # Exhausted: 13 + 6 = 19 > 13
    act(enc, "wizard: cast ward -> fighter", [])
    w = enc.by_id["wizard"]
    assert (w.exert_total, w.state, w.effects) == (13, "active", [])


def test_a_levelled_spell_over_the_limit_releases_the_tension_not_the_caster():
    enc = party(loose("ward", tension=6), exert=3)
    act(enc, "wizard: cast ward -> fighter", [])  # 3 + 6 = 9
    enc.by_id["wizard"].exert = 8  # 8 + 6 = 14 > 13 once the Fireball's 4 are paid: 12 + 6
    ev = act(enc, "wizard: cast fireball -> bandit", [])
    w = enc.by_id["wizard"]
    assert "wizard's ward on fighter ends (over the Exert limit)" in texts(ev)
    assert (w.exert_total, w.state) == (12, "active")


def test_exert_still_over_the_limit_after_the_release_knocks_out():
    enc = party(loose("ward", tension=2), exert=10)
    act(enc, "wizard: cast ward -> fighter", [])  # 10 + 2 = 12
    ev = act(enc, "wizard: cast fireball -> bandit", [])  # 14 + 2: release, still 14 > 13
    w = enc.by_id["wizard"]
    assert "wizard's ward on fighter ends (over the Exert limit)" in texts(ev)
    assert (w.exert_total, w.state) == (14, "unconscious")  # C-08


def test_a_lone_unbroken_effect_is_held_in_passive_concentration_after_its_first_frame():
    enc = party(unbroken("hex"))  # spec §7.9: no concentrate frame needed, nor offered
    act(enc, "wizard: cast hex -> fighter", [])
    assert "wizard: concentrate" not in labels(enc)
    ev = act(enc, "wizard: pass", [])
    w = enc.by_id["wizard"]
    assert w.effects[0][:4] == ("hex", "unbroken", 0, "fighter")
    assert not any("on fighter ends" in t for t in texts(ev)) and enc.current_actor() != "wizard"
    enc = party(unbroken("hex"))
    act(enc, "wizard: cast hex -> fighter", [])
    act(enc, "wizard: end_turn", [])
    assert [e[0] for e in enc.by_id["wizard"].effects] == ["hex"]


def test_an_unbroken_effect_beside_a_loose_one_needs_a_concentrate_frame_every_own_frame():
    enc = party(loose("ward"), unbroken("hex"))  # Passive concentration holds the Loose one
    w = enc.by_id["wizard"]
    w.effects = [("ward", "loose", 0, "fighter", 0), ("hex", "unbroken", 0, "fighter", 0)]
    enc._legal = None
    assert "wizard: concentrate" in labels(enc)
    ev = act(enc, "wizard: concentrate", [])
    assert len(w.effects) == 2 and not any("on fighter ends" in t for t in texts(ev))
    ev = act(enc, "wizard: pass", [])
    assert "wizard's hex on fighter ends (not concentrated on)" in texts(ev)
    assert [e[0] for e in w.effects] == ["ward"]


def test_an_asleep_caster_holds_no_unbroken_effect_in_passive_concentration():
    enc = party(unbroken("hex"))
    act(enc, "wizard: cast hex -> fighter", [])
    act(enc, "wizard: end_turn", [])  # the effect is held past its first frame
    enc.by_id["wizard"].statuses["sleep"] = (8, 0, "bandit")  # Mind SD 2: Full, Asleep
    act(enc, "fighter: end_turn", [])
    ev = texts(act(enc, "bandit: end_turn", []))
    slept = ev.index("wizard is asleep and loses a frame")
    assert ev[slept + 1] == "wizard's hex on fighter ends (not concentrated on)"
    assert enc.by_id["wizard"].effects == []


def test_of_two_unbroken_effects_the_newer_needs_the_active_concentration():
    enc = party()
    w = enc.by_id["wizard"]
    w.profile = replace(w.profile, cantrips=(unbroken("u1"), unbroken("u2")))
    w.effects = [("u1", "unbroken", 0, "wizard", 0), ("u2", "unbroken", 0, "fighter", 0)]
    enc._legal = None
    assert "wizard: concentrate" in labels(enc)
    ev = act(enc, "wizard: pass", [])
    assert "wizard's u2 on fighter ends (not concentrated on)" in texts(ev)
    assert [e[0] for e in w.effects] == ["u1"]  # the oldest, in Passive concentration


def test_a_loose_effect_needs_no_frame():
    enc = party(loose("ward"))
    act(enc, "wizard: cast ward -> fighter", [])
    assert "wizard: concentrate" not in labels(enc)
    act(enc, "wizard: pass", [])
    assert enc.by_id["wizard"].effects[0][:4] == ("ward", "loose", 0, "fighter")


def test_capacity_three_loose_one_unbroken_beside_them_or_two_unbroken_alone():
    cs = (loose("l1"), loose("l2"), loose("l3"), loose("l4"), unbroken("u1"), unbroken("u2"))
    enc = party(*cs)
    w = enc.by_id["wizard"]
    w.effects = [(n, "loose", 0, "wizard", 0) for n in ("l1", "l2", "l3")]
    enc._legal = None
    got = {x.split()[2] for x in labels(enc) if " cast " in x}
    assert got == {"l1", "l2", "l3", "u1", "u2", "fireball"}  # no fourth Loose effect
    w.effects.append(("u1", "unbroken", 0, "wizard", 0))
    enc._legal = None
    assert {x.split()[2] for x in labels(enc) if " cast " in x} == {"l1", "l2", "l3", "u1",
                                                                     "fireball"}
    w.effects = [(n, "unbroken", 0, "wizard", 0) for n in ("u1", "u2")]
    enc._legal = None
    assert {x.split()[2] for x in labels(enc) if " cast " in x} == {"u1", "u2", "fireball"}


def test_stun_breaks_unbroken_and_a_long_stun_keeps_one_loose_effect():
    from envs.metaforce.rules.statuses import stun
    enc = party()
    w = enc.by_id["wizard"]
    w.effects = [("l1", "loose", 0, "wizard", 0), ("l2", "loose", 0, "fighter", 0),
                 ("u1", "unbroken", 0, "wizard", 0)]
    w.profile = replace(w.profile, cantrips=(loose("l1"), loose("l2"), unbroken("u1")))
    ev: list = []
    stun(enc, ev, w, 1)
    assert [e[0] for e in w.effects] == ["l1", "l2"]
    assert "wizard's u1 on wizard ends (stunned)" in texts(ev)
    stun(enc, ev, w, 2)
    assert [e[0] for e in w.effects] == ["l1"]


def test_an_effect_ends_when_its_caster_leaves_the_fight():
    from envs.metaforce.rules.damage import knock_out
    enc = party(loose("ward", tension=3))
    act(enc, "wizard: cast ward -> fighter", [])
    w = enc.by_id["wizard"]
    ev: list = []
    knock_out(enc, ev, w, "unconscious")
    assert w.effects == [] and w.tension == 0


# ---------------------------------------------------------------------- Ward, Heal, Magic Missile

def test_ward_takes_2_off_the_tohit_and_the_magnitude_of_attacks_on_its_holder():
    enc = fight((caster("wizard", loose("ward")), "a", (0, 0)), (cat("fighter"), "a", (1, 0)),
                (cat("bandit"), "b", (1, 1)), options=FULL, aware=False)
    act(enc, "wizard: cast ward -> fighter", [])
    act(enc, "wizard: end_turn", [])
    act(enc, "fighter: end_turn", [])
    act(enc, "bandit: special", [])
    while enc.decision == "reaction":
        act(enc, f"{enc.current_actor()}: pass", [])
    # mace +5 with Advantage: 6/2 keeps 6 -> 11 - 2 = 9 vs the Fighter's E 6 D 10: deflected
    # (11 would be direct); d6 3: 4 + 3 = 7, halved by Deflection; Knockback K 6 + STR die 2 +
    # d6 3 + Thuggery 3 = 14, - 2 = 12, halved by Deflection: 6
    act(enc, "bandit: attack mace -> fighter", ["d12=6", "d12=2"])
    assert enc.window is not None and dict(enc.window.info)["tohit"] == 9  # W-I2 (11 unwarded)
    ev = act(enc, "fighter: pass", ["d6=3", "d6=2"])
    assert any("ToHit 9 vs E 6 D 10: deflected" in t for t in texts(ev)), texts(ev)
    assert "fighter: knockback full (magnitude 6)" in texts(ev)  # (14 - 2) halved; 7 unwarded


def test_ward_is_full_only():
    enc = fight((caster("wizard", loose("ward")), "a", (0, 0)), (cat("bandit"), "b", (0, 6)),
                options=CORE, aware=False)
    assert not any("ward" in x for x in labels(enc))


def test_heal_takes_d12_plus_the_casting_attribute_off_a_body_status_and_heals_a_dot():
    enc = party(HEAL)
    f = enc.by_id["fighter"]
    assert not any("heal" in x for x in labels(enc))  # nobody has a Body status
    f.statuses["bleed"] = (15, 3, "bandit")
    f.statuses["burn"] = (4, 4, "bandit")
    f.hp = 40
    enc._legal = None
    assert "wizard: cast heal -> fighter" in labels(enc)
    ev = act(enc, "wizard: cast heal -> fighter", ["d12=5"])  # 5 + INT 4 = 9 off Bleed 15
    assert "wizard heals fighter: d12 5, 9 off bleed (magnitude 6), heals 4, HP 44" in texts(ev)
    assert f.statuses["bleed"] == (6, 3, "bandit") and f.statuses["burn"] == (4, 4, "bandit")
    ev = act(enc, "wizard: cast heal -> fighter", ["d12=12"])  # 16 off Bleed 6: it ends
    assert "wizard heals fighter: d12 12, 16 off bleed (magnitude 0), heals 4, HP 48" in \
        texts(ev) and "bleed" not in f.statuses  # (then the Fighter's Burn ticks)


def test_heal_on_a_status_that_is_no_dot_heals_no_hp():
    enc = party(HEAL)
    f = enc.by_id["fighter"]
    f.statuses["deafened"] = (20, 0, "bandit")
    f.hp = 40
    enc._legal = None
    ev = act(enc, "wizard: cast heal -> fighter", ["d12=3"])
    assert "wizard heals fighter: d12 3, 7 off deafened (magnitude 13)" in texts(ev)
    assert f.hp == 40


def test_heal_reaches_only_touch():
    enc = fight((caster("wizard", HEAL), "a", (0, 0)), (cat("fighter"), "a", (3, 0)),
                (cat("bandit"), "b", (0, 6)), options=FULL, aware=False)
    enc.by_id["fighter"].statuses["bleed"] = (5, 3, "bandit")
    enc._legal = None
    assert "wizard: cast heal -> fighter" not in labels(enc)


def test_magic_missile_ignores_evasion():
    from envs.metaforce.rules import profile_of
    from envs.metaforce.rules.catalogue import stat_block_from_mapping
    mm = profile_of(stat_block_from_mapping(_MM, "test", "mm"))
    assert mm.weapon("magic_missile").ignores_evasion
    w = replace(mm.weapon("magic_missile"), tohit=0)
    enc = fight((replace(mm, weapons=(w,)), "a", (0, 0)), (cat("wolf"), "b", (0, 6)),
                options=FULL, aware=False)
    # d12 3 + 0 = 3 < the Wolf's E 7: a miss for any other attack, deflected here; d4 2
    ev = act(enc, "mage: attack magic_missile -> wolf", ["d12=3", "d12=1", "d4=2"])
    assert any("ToHit 3 vs E 0 D 7: deflected" in t for t in texts(ev))
    ev = act(enc, "mage: attack magic_missile -> wolf", ["d12=9", "d12=1", "d4=2"])
    assert any("ToHit 9 vs E 0 D 7: direct" in t for t in texts(ev))


_MM = {"name": "Mage", "id": "mage", "level": 1, "size": 1, "protected": True,
       "metaforce_user": True,
       "attributes": {"str": 0, "end": 1, "agi": 2, "per": 2, "int": 4, "cha": 1},
       "proficient": ["int"],
       "metaphors": [{"name": "Wizardry", "rank": 4, "kind": "combat", "covers": ["spells"],
                      "casting_attr": "int",
                      "components": [{"name": "Calm", "rank": 2, "adds": "tension"}]}],
       "spells": [{"id": "magic_missile", "tohit": 8, "magnitude_bonus": 4},
                  {"id": "ward", "tension": 10}, {"id": "heal"}]}


def test_an_inline_caster_loads_ward_heal_and_magic_missile():
    from envs.metaforce.rules import profile_of
    from envs.metaforce.rules.catalogue import stat_block_from_mapping
    p = profile_of(stat_block_from_mapping(_MM, "test", "mm"))
    assert [w.id for w in p.weapons][:1] == ["magic_missile"]
    assert p.cantrips == (Cantrip("ward", "ward", 5, "int", "loose", 8),  # 10 - 2 (WE-35)
                          Cantrip("heal", "heal", 5, "int", "", 0))
    assert p.magic == "int"


def test_an_optimise_component_turns_unbroken_into_loose():
    from envs.metaforce.rules import profile_of
    from envs.metaforce.rules.catalogue import stat_block_from_mapping
    data = {**_MM, "spells": [{"id": "aegis", "level": 0, "frames": 1, "exert": 0,
                               "reach_ft": 5, "resolution": "ward",
                               "concentration": "unbroken"}]}
    assert profile_of(stat_block_from_mapping(data, "t", "m")).cantrips[0].concentration == \
        "unbroken"
    meta = dict(_MM["metaphors"][0])
    meta["components"] = [{"name": "Steady", "rank": 2, "adds": "optimise",
                           "activity": "aegis"}]
    data["metaphors"] = [meta]
    assert profile_of(stat_block_from_mapping(data, "t", "m")).cantrips[0].concentration == \
        "loose"


def test_the_heuristic_convokes_for_a_caster_whose_exert_is_up():
    from agents.heuristic.metaforce import MetaforceHeuristic
    h = MetaforceHeuristic(seed=0)
    for exert, want in ((0, "w2: pass"), (4, "w2: convoke")):
        enc = coven(level=3, mana=("w", "w2"))
        enc.by_id["w"].exert = exert
        act(enc, "w: cast fireball -> bandit", [])
        legal = enc.legal_actions()
        scores = h.rank(enc, "w2", legal)
        assert legal[scores.index(max(scores))].label == want


def test_effects_survive_snapshot_and_clone_independently():
    from envs.metaforce.rules.state import MetaforceEncounter
    enc = party(loose("ward", tension=4), unbroken("hex"))
    act(enc, "wizard: cast ward -> fighter", [])
    back = MetaforceEncounter.from_snapshot(enc.snapshot())
    assert back.snapshot() == enc.snapshot()
    assert back.by_id["wizard"].effects == [("ward", "loose", 4, "fighter", 1)]
    twin = enc.clone()
    act(twin, "wizard: cast hex -> wizard", [])
    assert len(twin.by_id["wizard"].effects) == 2 and len(enc.by_id["wizard"].effects) == 1
    assert enc.by_id["wizard"].tension == 4


def test_the_new_activities_read_in_plain_words():
    from envs.metaforce.describe import describe
    enc = coven(level=3, mana=("w", "w2"))
    act(enc, "w: cast fireball -> bandit", [])
    assert describe(enc.parse_action("w2: convoke"), enc) == \
        "Convoke: give my tapped mana to the W (spends the Reaction)"
    enc = party(loose("ward", tension=4), unbroken("hex"))
    assert describe(enc.parse_action("wizard: cast ward -> wizard"), enc) == \
        "cast ward on myself"
    act(enc, "wizard: cast hex -> fighter", [])
    assert describe(enc.parse_action("wizard: concentrate"), enc) == \
        "concentrate: keep the Unbroken effects going"
    assert describe(enc.parse_action("wizard: release hex"), enc) == \
        "release hex (free, ends its Tension)"


@pytest.mark.parametrize("seed", range(6))
def test_random_casters_keep_the_invariants(seed):
    from test_metaforce_kit import play_random
    cs = (loose("ward", tension=4), unbroken("hex", tension=2), HEAL)
    enc = fight((caster("w", *cs, level=1), "a", (0, 0)),
                (caster("w2", *cs, level=1), "a", (1, 0)),
                (cat("bandit"), "b", (0, 4)), (cat("wolf"), "b", (2, 5)), options=FULL)
    for cid in ("w", "w2"):
        enc.by_id[cid].mana_until = 1
    assert play_random(enc, seed) > 0


# ---------------------------------------------------------------- preview_area (spec §5.8, R-60)
def test_the_area_preview_is_exact_over_the_one_roll_for_every_creature_it_covers():
    from envs.metaforce.rules.preview import preview_area
    enc = fight((wizard("w"), "a", (0, 0)), (wizard("w2"), "a", (2, 6)),
                (cat("bandit", "b"), "b", (0, 6)), (cat("bandit", "b2"), "b", (1, 7)),
                (cat("bandit", "far"), "b", (8, 6)), options=FULL)
    got = {h.combatant: h for h in preview_area(enc, "w", "fireball", "b")}
    assert set(got) == {"b", "b2", "w2"}  # within 10 ft of b's square, the ally included
    assert got["w2"].ally and not got["b"].ally
    # Advantage (proficient): ToHit >= 1 + 8 beats E 6 and D 6 on every roll: always direct;
    # a 12 (23 of 144 pairs) doubles 10 + d8 (its V goes to Burn's magnitude, §13.4)
    want = (121 * 14.5 + 23 * 29) / 144
    for cid in ("b", "b2"):
        assert got[cid].hit == pytest.approx(1.0)
        assert got[cid].expected_damage == pytest.approx(want, abs=1e-9)


def test_the_heuristic_throws_a_fireball_into_a_cluster_and_not_onto_its_ally():
    from agents.heuristic.metaforce import MetaforceHeuristic
    enc = fight((wizard("w"), "a", (0, 0)), (cat("bandit", "b"), "b", (0, 6)),
                (cat("bandit", "b2"), "b", (1, 7)), (cat("bandit", "b3"), "b", (1, 5)),
                options=FULL)
    enc.by_id["w"].mana_until = 1  # one frame, 2 Exert
    a = MetaforceHeuristic(seed=0).choose(enc)
    assert (a.kind, a.args[:1]) == ("cast", ("fireball",)), a.label
    ally = fight((wizard("w"), "a", (0, 0)), (cat("fighter", "f"), "a", (0, 5)),
                 (cat("bandit", "b"), "b", (0, 6)), options=FULL)
    ally.by_id["w"].mana_until = 1
    a = MetaforceHeuristic(seed=0).choose(ally)
    assert a.kind != "cast", a.label  # one foe and the Fighter beside it: the fire bolt
