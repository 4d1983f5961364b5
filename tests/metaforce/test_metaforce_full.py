"""Metaforce FULL windows with forced dice (spec §6.1 W-R1 extras, W-R2 Dodge, W-I3 Crash Out,
W-I4 Finishing Touch; §12.3). CORE opens none of them."""

from __future__ import annotations

import pytest
from test_metaforce_kit import act, cat, fight, labels, texts

from envs.metaforce.rules import CORE, FULL, Weapon


def adjacent(a, b, options=FULL, **kw):
    return fight((a, "a", (0, 0)), (b, "b", (0, 1)), options=options, **kw)


def test_dodge_spends_the_reaction_for_evasion_before_the_roll():
    enc = adjacent(cat("bandit"), cat("wizard"))  # the Wizard holds 1 Reaction (aware)
    act(enc, "bandit: attack mace -> wizard", [])  # no dice yet: the Wizard decides first
    assert enc.decision == "dodge" and labels(enc) == ["wizard: dodge", "wizard: pass"]
    ev = act(enc, "wizard: dodge", ["d12=1", "d12=2"])  # 2 + 5 = 7 < E 6 + 3
    assert "wizard uses dodge (+3 Evasion)" in texts(ev)
    assert any("ToHit 7 vs E 9 D 9: miss" in t for t in texts(ev))
    assert enc.by_id["wizard"].reactions == 0
    core = adjacent(cat("bandit"), cat("wizard"), options=CORE)
    act(core, "bandit: attack mace -> wizard", ["d12=1", "d12=2", "d6=1"])  # no window


def test_crash_out_after_a_miss_stuns_the_attacker():
    weak = cat("bandit", weapons=(Weapon("stick", "melee", "str", 0, 1, 4, "blunt"),))
    enc = adjacent(weak, cat("odonghe_brawler"), aware=False)
    act(enc, "bandit: attack stick -> odonghe_brawler", ["d12=2", "d12=3"])  # 3 < E 6
    assert enc.decision == "crash_out" and enc.current_actor() == "odonghe_brawler"
    ev = act(enc, "odonghe_brawler: crash_out", ["d12=9"])  # 9 + AGI 1 < TN 12 + 2 x 2
    assert "odonghe_brawler uses crash out for 3 MP (bandit)" in texts(ev)
    assert "bandit is stunned for 2 frame(s)" in texts(ev)
    assert enc.by_id["odonghe_brawler"].mp == 18 - 3


def test_finishing_touch_drops_a_hurt_target_for_its_hp_in_mp():
    enc = adjacent(cat("detective"), cat("bandit"), aware=False)
    act(enc, "detective: fire revolver 1 -> bandit", ["d12=4", "d12=3", "d6=1"])  # 13: HP 23
    assert enc.decision == "frame"  # 23 HP left > MP 15: no window
    enc = adjacent(cat("detective"), cat("bandit", hp_max=20), aware=False)
    act(enc, "detective: fire revolver 1 -> bandit", ["d12=4", "d12=3", "d6=1"])  # HP 7
    assert labels(enc) == ["detective: finish -> bandit", "detective: pass"]
    ev = act(enc, "detective: finish -> bandit", [])
    assert "detective uses finishing touch for 7 MP (bandit)" in texts(ev)
    assert enc.by_id["bandit"].state == "dead" and enc.by_id["detective"].mp == 8


def test_full_reactions_prime_and_maintain():
    enc = adjacent(cat("odonghe_brawler"), cat("bandit"), aware=False)
    act(enc, "odonghe_brawler: grapple -> bandit", ["d12=11", "d12=6"])
    act(enc, "odonghe_brawler: end_turn", [])
    act(enc, "bandit: escape grappled", ["d12=8", "d12=3", "d6=4"])  # M 19 -> 7
    assert "odonghe_brawler: react maintain -> bandit" in labels(enc)
    ev = act(enc, "odonghe_brawler: react maintain -> bandit", ["d12=9", "d12=2"])
    assert enc.by_id["bandit"].magnitude("grappled") == 17  # C-06 step 3
    assert "odonghe_brawler holds 0 Reaction(s)" in texts(ev)


def test_luck_save_and_exert_to_save_options():
    from dataclasses import replace
    enc = fight((cat("hill_giant"), "b", (0, 1)), (cat("wizard"), "a", (0, 0)),
                (cat("fighter"), "a", (8, 0)), aware=False,
                options=replace(FULL, luck_save_on_death=True))
    # (12, 4): V 5, and the Size 4 giant's three more V dice (R-29, FULL); d6; the Luck Save
    ev = act(enc, "hill_giant: attack great_club -> wizard",
             ["d12=12", "d12=4", "d12=1", "d12=1", "d12=1", "d6=2", "d12=10"])
    assert "wizard luck save d12 10 = 11 vs TN 11: success" in texts(ev)
    w = enc.by_id["wizard"]
    assert (w.state, w.hp) == ("incapacitated", -2) and enc.outcome() is None
    enc = fight((cat("wolf"), "b", (0, 1)), (cat("wizard"), "a", (0, 0)), aware=False,
                options=replace(FULL, exert_to_save=True))
    enc.by_id["wizard"].mp = 0  # no Meta-Die of her own against the bite (W-I2, FULL)
    act(enc, "wolf: special", [])
    ev = act(enc, "wolf: attack bite -> wizard", ["d12=6", "d12=10", "d6=3", "d8=5", "d12=4"])
    assert "wizard exerts 1 (Exert now 1)" in texts(ev)  # no Body save of her own
    assert "wizard body save d12 4 = 5 vs TN 11: failure" in texts(ev)


def test_exert_to_save_over_the_limit_knocks_out_at_once():
    from dataclasses import replace
    enc = fight((cat("wolf"), "b", (0, 1)), (cat("wizard"), "a", (0, 0)), aware=False,
                options=replace(FULL, exert_to_save=True))
    w = enc.by_id["wizard"]
    w.mp = 0  # no Meta-Die of her own against the bite (W-I2, FULL)
    w.exert = w.profile.exert_limit  # 13: Exhausted, at the limit (spec §7.6)
    act(enc, "wolf: special", [])
    ev = act(enc, "wolf: attack bite -> wizard", ["d12=6", "d12=10", "d6=3", "d8=5"])
    assert "wizard exerts 1 (Exert now 14)" in texts(ev)
    assert w.state == "unconscious" and not w.active  # over L: out cold before any Save
    assert not any("body save" in t for t in texts(ev))


def test_the_agent_places_v_under_crit_policy_agent():
    from dataclasses import replace
    enc = adjacent(cat("fighter"), cat("hill_giant"), aware=False,
                   options=replace(FULL, crit_policy="agent"))
    act(enc, "fighter: attack warhammer -> hill_giant", ["d12=12", "d12=9"])
    assert enc.decision == "crit"
    assert labels(enc) == ["fighter: crit tohit", "fighter: crit damage", "fighter: crit magnitude",
                           "fighter: crit size", "fighter: pass"]
    ev = act(enc, "fighter: crit damage", ["d6=3"])
    assert "fighter puts V 9 on damage" in texts(ev)
    assert enc.by_id["hill_giant"].hp == 264 - (11 + 9) * 2  # not the 44 of Size Damage


def test_action8_adds_a_frame_once_a_round_and_react4_buys_reactions():
    enc = adjacent(cat("fighter"), cat("bandit"), aware=False)
    assert "fighter: action8" in labels(enc) and "fighter: react4" in labels(enc)
    ev = act(enc, "fighter: action8", [])
    f = enc.by_id["fighter"]
    assert "fighter uses action8 for 8 MP (+1 frame)" in texts(ev)
    assert (f.frames_left, f.mp, enc.current_actor()) == (3, 7, "fighter")
    assert "fighter: action8" not in labels(enc)  # once a round
    act(enc, "fighter: react4", [])
    act(enc, "fighter: pass", [])
    act(enc, "fighter: pass", [])
    ev = act(enc, "fighter: vigilance", [])  # the third frame is the last
    assert "fighter ends its turn with 3 Reaction(s)" in texts(ev)  # 1 + Vigilance + React-4
    core = adjacent(cat("fighter"), cat("bandit"), aware=False, options=CORE)
    assert not {"fighter: action8", "fighter: react4"} & set(labels(core))


def test_size_resistance_lowers_a_bigger_attackers_multiplier():
    from envs.metaforce.rules.damage import m_a
    enc = adjacent(cat("hill_giant"), cat("stone_golem", size=3.0, space=3,
                                           size_res_sources=1), aware=False)
    giant, golem = enc.by_id["hill_giant"], enc.by_id["stone_golem"]
    assert m_a(enc, giant, golem) == 3  # floor(4 / 2) = 2, raised to 3 (§8.4)
    core = adjacent(cat("hill_giant"), cat("stone_golem", size=3.0, space=3,
                                            size_res_sources=1), aware=False, options=CORE)
    assert m_a(core, core.by_id["hill_giant"], core.by_id["stone_golem"]) == 4  # FULL (§12.3)


def test_the_odonghe_takes_the_average_on_its_endurance_saves_in_full():
    for options, total in ((FULL, 6 + 4 + 2), (CORE, 2 + 3)):  # race traits are FULL
        enc = adjacent(cat("wolf"), cat("odonghe_brawler"), aware=False, options=options)
        act(enc, "wolf: special", [])
        # Bleed M = 10 + AGI md8 5 + 3 + 3 = 21 >= Body SD 13; the save: Advantage (2, 1),
        # END die md8 raw 1 -> 3 (FULL: take average, d12 6 and md8 4, and + Level 2)
        rest = ["d6=3", "d8=5", "d12=2", "d12=1", "d8=1"]
        if options is FULL:  # W-I2 first: the Brawler may Create a Meta-Die (it passes)
            act(enc, "wolf: attack bite -> odonghe_brawler", ["d12=6", "d12=10"])
            ev = act(enc, "odonghe_brawler: pass", rest)
        else:
            ev = act(enc, "wolf: attack bite -> odonghe_brawler", ["d12=6", "d12=10", *rest])
        assert f"odonghe_brawler body save d12 2/1 = {total} vs TN 9: " \
               f"{'success' if total >= 9 else 'failure'}" in texts(ev)


def test_safe6_raises_the_users_dice_for_two_own_frames():
    enc = adjacent(cat("wizard"), cat("bandit", hp_max=100), aware=False)
    ev = act(enc, "wizard: safe6", [])
    w = enc.by_id["wizard"]
    assert (w.mp, w.safe, enc.current_actor(), w.frame) == (9, 6, "wizard", 1)
    assert "wizard: safe6" not in labels(enc)
    # the d12s (1, 2) count as (6, 6); the d4 counts as its maximum, 4: ToHit 14, 4 + 4 damage
    ev = act(enc, "wizard: attack shocking_grasp -> bandit", ["d12=1", "d12=2", "d4=1"])
    assert any("ToHit 14" in t for t in texts(ev)) and enc.by_id["bandit"].hp == 100 - 8
    act(enc, "wizard: attack fire_bolt -> bandit", ["d12=3", "d12=2", "d8=2"])  # (6, 6), d8 6
    assert enc.by_id["bandit"].hp == 92 - 10
    ev = act(enc, "bandit: end_turn", [])
    assert "wizard uses safe6 (ends)" in texts(ev)  # her third own frame begins
    act(enc, "wizard: attack fire_bolt -> bandit", ["d12=3", "d12=2", "d8=2"])
    assert enc.by_id["bandit"].hp == 82 - 6  # 3 + 8 = 11 > D 6; 4 + 2


def test_a_defending_metaforce_user_creates_a_meta_die_against_an_ordinary_attacker():
    enc = adjacent(cat("bandit"), cat("fighter"), aware=False)
    act(enc, "bandit: attack mace -> fighter", ["d12=8", "d12=2"])  # ToHit 13 > D 10: direct
    assert enc.decision == "meta_die" and enc.current_actor() == "fighter"
    ev = act(enc, "fighter: meta_die", ["d12=3", "d6=4"])  # md12 5: 13 - 5 = 8, deflected
    assert "fighter creates a Meta-Die md12 5: pays 5 MP" in texts(ev)
    assert any("ToHit 8 vs E 6 D 10: deflected" in t for t in texts(ev))
    assert enc.by_id["fighter"].mp == 10 and enc.by_id["fighter"].hp == 54 - 4
    mu = adjacent(cat("odonghe_brawler"), cat("fighter"), aware=False)
    act(mu, "odonghe_brawler: attack unarmed -> fighter", ["d12=8", "d12=2", "d6=1"])
    assert mu.decision != "meta_die"  # not against an opposing Metaforce user


def test_an_intense_burn_leaves_a_burn_injury_in_full():
    for options, injured in ((CORE, False), (FULL, True)):
        enc = adjacent(cat("wizard"), cat("bandit", hp_max=100), aware=False, options=options)
        act(enc, "wizard: special", [])
        # Fire Bolt: (6, 2) keep 6 -> 14, direct; d8 4: 8 damage; M = 6 + INT md10 7 + 4 + 4
        # = 21 >= Body SD 5 + 10; the Body save 2 + END 2 fails: Intense
        ev = act(enc, "wizard: attack fire_bolt -> bandit",
                 ["d12=6", "d12=2", "d8=4", "d10=7", "d12=2"])
        b = enc.by_id["bandit"]
        assert b.burn_injury is injured and ("bandit: burn_injury intense (magnitude 21)"
                                             in texts(ev)) is injured
    assert b.hp == 100 - 8 - 8  # its turn began with an Intense tick: 2 x 4
    act(enc, "bandit: end_turn", [])
    act(enc, "wizard: attack fire_bolt -> bandit", ["d12=6", "d12=2", "d8=4"])
    assert b.hp == 84 - 12  # 8 x 1.5


def test_fireball_takes_two_frames_exerts_and_hits_everyone_in_the_area():
    enc = fight((cat("wizard"), "a", (0, 0)), (cat("bandit"), "b", (0, 6)),
                (cat("bandit", "bandit_2"), "b", (1, 7)), (cat("bandit", "far"), "b", (6, 6)),
                aware=False, options=FULL)
    assert "wizard: cast fireball -> bandit" in labels(enc)
    assert "wizard: cast fireball -> bandit" not in labels(fight(
        (cat("wizard"), "a", (0, 0)), (cat("bandit"), "b", (0, 6)), aware=False, options=CORE))
    ev = act(enc, "wizard: cast fireball -> bandit", [])
    w = enc.by_id["wizard"]
    assert "wizard exerts 4 (Exert now 4)" in texts(ev) and w.tired  # T 3 (spec §7.6)
    assert labels(enc) == ["wizard: pass", "wizard: channel -> bandit",
                           "wizard: channel approach -> bandit",
                           "wizard: channel retreat -> bandit", "wizard: end_turn"]
    ev = act(enc, "wizard: channel -> bandit", ["d12=5", "d8=4"])  # Tired: no Advantage
    hp = {c.id: c.hp for c in enc.combatants}
    assert (hp["bandit"], hp["bandit_2"], hp["far"]) == (36 - 14, 36 - 14, 36)
    assert w.casting is None


@pytest.mark.parametrize("mode, cell", [("approach", (0, 1)), ("retreat", (0, 0))])
def test_a_casting_frame_may_step_5_ft_approach_first_retreat_after(mode, cell):
    # spec §4.2, §5.1, R-24: at most 5 ft a frame while casting; APPROACH moves, then acts
    enc = fight((cat("wizard"), "a", (0, 1)), (cat("bandit"), "b", (0, 7)), aware=False,
                options=FULL)
    if mode == "approach":
        enc = fight((cat("wizard"), "a", (0, 0)), (cat("bandit"), "b", (0, 7)), aware=False,
                    options=FULL)
    act(enc, "wizard: cast fireball -> bandit", [])
    ev = texts(act(enc, f"wizard: channel {mode} -> bandit", ["d12=5", "d8=4"]))
    moved = next(i for i, x in enumerate(ev) if x.startswith("wizard moves"))
    hit = next(i for i, x in enumerate(ev) if "fireball" in x and "wizard" in x)
    assert (moved < hit) == (mode == "approach")
    assert ev[moved] == f"wizard moves ({mode}) 1 sq to {cell[0]},{cell[1]}"
    assert enc.by_id["wizard"].pos == cell and enc.by_id["wizard"].casting is None


def test_tapped_mana_halves_the_exert_and_saves_a_frame():
    enc = fight((cat("wizard"), "a", (0, 0)), (cat("bandit"), "b", (0, 6)), aware=False,
                options=FULL)
    act(enc, "wizard: tap_mana", [])
    ev = act(enc, "wizard: cast fireball -> bandit", ["d12=5", "d12=3", "d8=4"])  # 1 frame
    assert "wizard exerts 2 (Exert now 2)" in texts(ev) and enc.by_id["bandit"].hp == 22


def test_a_stun_interrupts_a_spell_and_a_pass_gives_it_up():
    enc = fight((cat("wizard"), "a", (0, 0)), (cat("bandit"), "b", (0, 6)), aware=False,
                options=FULL)
    act(enc, "wizard: cast fireball -> bandit", [])
    ev = act(enc, "wizard: pass", [])
    assert "wizard uses fireball (the spell is lost (given up))" in texts(ev)
    assert enc.by_id["wizard"].exert == 4  # the Exert stays paid
    enc = fight((cat("wizard"), "a", (0, 0)), (cat("bandit"), "b", (0, 6)), aware=False,
                options=FULL)
    act(enc, "wizard: cast fireball -> bandit", [])
    from envs.metaforce.rules.statuses import stun
    events: list = []
    stun(enc, events, enc.by_id["wizard"], 1)
    assert "wizard uses fireball (the spell is lost (stunned))" in [str(e) for e in events]


def _scripted(situation, faces, labels_, poke):
    from envs.core.cases import encounter_from_situation
    from envs.core.dice import ScriptedDice
    dice = ScriptedDice(faces)
    enc = encounter_from_situation(situation, "test", dice)
    poke(enc)
    ev = []
    for label in labels_:
        ev += enc.apply(enc.parse_action(label), dice)
    dice.check_exhausted()
    return enc, [str(e) for e in ev]


def test_fear_and_a_grapple_cost_a_step_on_area_spells_and_maintain_too():
    sit = {"system": "metaforce", "options": {"version": "full", "unaware_bonus": False},
           "map": {"w": 20, "h": 20}, "order": ["w", "b", "b2"], "actor": "w",
           "combatants": [{"id": "w", "side": "heroes", "stats": "wizard", "at": [2, 2],
                           "state": {"tapped_mana": True}},
                          {"id": "b", "side": "foes", "stats": "bandit", "at": [8, 2]},
                          {"id": "b2", "side": "foes", "stats": "bandit", "at": [16, 2]}]}

    def feared(enc):
        enc.by_id["w"].statuses["fear"] = (3, 0, "b")  # Partial Fear of b (spec §7.5)

    # INT proficient: S +1, less the Fear step at its source: one d12 (not two)
    _, ev = _scripted(sit, ["d12=5", "d8=1"], ["w: cast fireball -> b"], feared)
    assert any("fireball: d12 5 (S +0)" in t for t in ev)
    sit["combatants"][0]["state"] = {"tapped_mana": True, "statuses": {"grappled": 12},
                                     "grappler": "b"}
    sit["combatants"][1]["at"] = [3, 2]
    # Immobilised by b, casting at b2: -1 step, as a weapon attack would
    _, ev = _scripted(sit, ["d12=5", "d8=1"], ["w: cast fireball -> b2"], lambda enc: None)
    assert any("fireball: d12 5 (S +0)" in t for t in ev)
    grip = {"system": "metaforce", "options": {"version": "full", "unaware_bonus": False},
            "map": {"w": 10, "h": 10}, "order": ["o", "b"], "actor": "o",
            "combatants": [{"id": "o", "side": "heroes", "stats": "odonghe_brawler", "at": [2, 2]},
                           {"id": "b", "side": "foes", "stats": "bandit", "at": [3, 2],
                            "state": {"statuses": {"grappled": 12}, "grappler": "o"}}]}

    def afraid_of_b(enc):
        enc.by_id["o"].statuses["fear"] = (2, 0, "b")

    _, ev = _scripted(grip, ["d12=5"], ["o: maintain -> b"], afraid_of_b)  # S +1 - 1: one d12
    assert "o maintain: d12 5 = 13" in ev


def test_a_critical_fireball_puts_v_on_its_burn():
    sit = {"system": "metaforce", "options": {"version": "full", "unaware_bonus": False},
           "map": {"w": 20, "h": 20}, "order": ["w", "b"], "actor": "w",
           "combatants": [{"id": "w", "side": "heroes", "stats": "wizard", "at": [2, 2],
                           "state": {"tapped_mana": True}},
                          {"id": "b", "side": "foes", "stats": "bandit", "at": [8, 2]}]}
    enc, ev = _scripted(sit, ["d12=12", "d12=3", "d8=5", "d12=2"], ["w: cast fireball -> b"],
                        lambda enc: None)
    assert "w puts V 5 on magnitude" in ev  # spec §13.4: Burn (on a crit, V to Magnitude)
    assert "b takes 30 fire damage from w (30 before defences), HP 6" in ev  # (10 + 5) x 2
    assert "b: burn intense (magnitude 30)" in ev  # K 12 + INT 4 + d8 5 + 4 + V 5


def test_a_grapple_is_an_attack_roll_with_the_unaware_bonus():
    # spec §5.9 item 1 (an attack roll) with §5.3.1's target steps: R-8's +1 against an unaware
    # target that has not acted (FULL); the brawler's own steps are +1 (Proficient, Expertise)
    got = {}
    for aware in (True, False):
        enc = adjacent(cat("odonghe_brawler"), cat("bandit"), aware=aware)
        ev = act(enc, "odonghe_brawler: grapple -> bandit", ["d12=11", "d12=6"])
        got[aware] = next(t for t in texts(ev) if "attacks bandit with grapple" in t)
    assert "(S +1)" in got[True] and "(S +2)" in got[False]


def test_an_expert_escape_adds_its_level():
    # spec §2.4.2: an activity with an Expertise Attribute gains a Versatile Bonus of the Level;
    # every point of an Escape cuts the magnitude, so it always goes to the total
    left = {}
    for expertise in (frozenset(), frozenset({"str"})):
        bandit = cat("bandit", level=3, expertise=expertise, proficient=frozenset({"str"}))
        enc = adjacent(cat("odonghe_brawler"), bandit)
        act(enc, "odonghe_brawler: grapple -> bandit", ["d12=11", "d12=6"])  # M 19
        act(enc, "odonghe_brawler: end_turn", [])
        act(enc, "bandit: escape grappled", ["d12=8", "d12=3", "d6=4"])
        left[bool(expertise)] = enc.by_id["bandit"].magnitude("grappled")
    assert left == {False: 7, True: 4}  # 19 - 12, and 19 - (12 + Level 3)
