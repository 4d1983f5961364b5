"""Metaforce FULL M-Powers with forced dice (spec §3.3, §4.6, §6.2, §6.4; §12.3): Initiative
Link, Team Work, Action-8 turning a Reaction into a frame. CORE offers none of them."""

from __future__ import annotations

from dataclasses import replace

from test_metaforce_kit import act, cat, fight, labels, texts

from envs.metaforce.describe import describe
from envs.metaforce.rules import CORE, FULL, MetaforceEncounter, Weapon
from envs.metaforce.rules.describe import describe as rules_describe


def powers(bid: str, *names: str, cid: str | None = None, **kw):
    return cat(bid, cid, mpowers=frozenset(names), **kw)


def test_initiative_link_moves_a_later_ally_right_after_its_user_once_an_encounter():
    enc = fight((powers("fighter", "initiative_link"), "a", (0, 0)), (cat("bandit"), "b", (0, 5)),
                (cat("wizard"), "a", (2, 0)), (cat("bandit", "bandit_2"), "b", (3, 5)),
                order=["fighter", "bandit", "bandit_2", "wizard"], aware=False, options=FULL)
    assert "fighter: link -> wizard" in labels(enc)
    ev = act(enc, "fighter: link -> wizard", [])
    assert texts(ev)[1:] == ["fighter uses initiative link (wizard acts next)",
                         "initiative order now fighter, wizard, bandit, bandit_2"]
    assert enc.order == ["fighter", "wizard", "bandit", "bandit_2"]
    assert enc.current_actor() == "fighter" and enc.by_id["fighter"].frame == 1  # free
    assert not any(x.startswith("fighter: link") for x in labels(enc))  # once an encounter
    act(enc, "fighter: end_turn", [])
    assert enc.current_actor() == "wizard"
    snap = MetaforceEncounter.from_snapshot(enc.snapshot())
    assert snap.link_used and snap.order == enc.order
    core = fight((powers("fighter", "initiative_link"), "a", (0, 0)),
                 (cat("bandit"), "b", (0, 5)), (cat("wizard"), "a", (2, 0)),
                 order=["fighter", "bandit", "wizard"], aware=False, options=CORE)
    assert not any(x.startswith("fighter: link") for x in labels(core))


def test_initiative_link_is_not_offered_for_the_ally_already_next():
    enc = fight((powers("fighter", "initiative_link"), "a", (0, 0)),
                (cat("wizard"), "a", (2, 0)), (cat("bandit"), "b", (0, 5)),
                order=["fighter", "wizard", "bandit"], aware=False, options=FULL)
    assert not any(x.startswith("fighter: link") for x in labels(enc))


def test_team_work_gives_an_ally_a_frame_at_once_then_the_user_resumes():
    enc = fight((powers("fighter", "team_work"), "a", (0, 0)), (cat("wizard"), "a", (1, 0)),
                (cat("bandit", hp_max=100), "b", (1, 3)), order=["fighter", "wizard", "bandit"],
                options=FULL)
    ev = act(enc, "fighter: team_work -> wizard", [])
    assert texts(ev)[1:] == ["fighter uses team work (wizard takes a frame)"]
    assert enc.current_actor() == "wizard" and enc.decision == "frame"
    got = labels(enc)
    assert "wizard: attack fire_bolt -> bandit" in got and "wizard: end_turn" not in got
    assert not any(x.split()[1] in ("vigilance", "cast", "tap_mana", "safe6") for x in got)
    # Fire Bolt (Advantage): (7, 2) keep 7 + 8 = 15 > D 6, direct; d8 4: 8 fire damage
    ev = act(enc, "wizard: attack fire_bolt -> bandit", ["d12=7", "d12=2", "d8=4"])
    assert texts(ev)[1] == "wizard: a frame outside its turn"
    assert enc.by_id["bandit"].hp == 92
    assert enc.current_actor() == "bandit" and enc.decision == "reaction"  # W-R1 vs the wizard
    ev = act(enc, "bandit: pass", [])
    assert "fighter: frame 2" in texts(ev)
    f, w = enc.by_id["fighter"], enc.by_id["wizard"]
    assert (f.frames_left, w.frames_left, w.frame) == (1, 0, 0)
    assert not any("team_work" in x for x in labels(enc))  # once a round
    core = fight((powers("fighter", "team_work"), "a", (0, 0)), (cat("wizard"), "a", (1, 0)),
                 (cat("bandit"), "b", (1, 3)), order=["fighter", "wizard", "bandit"],
                 options=CORE)
    assert not any("team_work" in x for x in labels(core))


def test_team_work_resets_at_the_start_of_the_users_turn():
    enc = fight((powers("fighter", "team_work"), "a", (0, 0)), (cat("wizard"), "a", (1, 0)),
                (cat("bandit"), "b", (9, 9)), order=["fighter", "wizard", "bandit"],
                aware=False, options=FULL)
    act(enc, "fighter: team_work -> wizard", [])
    act(enc, "wizard: pass", [])
    act(enc, "fighter: end_turn", [])
    act(enc, "wizard: end_turn", [])
    act(enc, "bandit: end_turn", [])
    assert "fighter: team_work -> wizard" in labels(enc)


def test_action8_turns_a_reaction_into_a_whole_frame_then_the_queue_goes_on():
    enc = fight((cat("bandit"), "b", (0, 3)), (powers("fighter", "action8_react4"), "a", (0, 0)),
                (cat("wizard"), "a", (3, 0)), order=["bandit", "fighter", "wizard"],
                options=FULL)
    ev = act(enc, "bandit: pass approach -> fighter", [])
    assert enc.current_actor() == "fighter" and "fighter: react action8" in labels(enc)
    ev = act(enc, "fighter: react action8", [])
    assert "fighter uses action8 for 8 MP (the Reaction becomes a frame)" in texts(ev)
    f = enc.by_id["fighter"]
    assert (f.mp, f.reactions, f.a8_used, enc.current_actor()) == (7, 0, True, "fighter")
    got = labels(enc)
    assert "fighter: attack warhammer -> bandit" in got and "fighter: end_turn" not in got
    # the warhammer (Advantage): (9, 3) keep 9 + 8 = 17 > D 6, direct; d6 2: 10 blunt
    ev = act(enc, "fighter: attack warhammer -> bandit", ["d12=9", "d12=3", "d6=2"])
    assert enc.by_id["bandit"].hp == 26
    # the Bandit holds no Reaction in its own turn: the put-off W-R1 queue goes on
    assert enc.current_actor() == "wizard" and enc.decision == "reaction"
    act(enc, "wizard: pass", [])
    assert enc.current_actor() == "bandit" and enc.decision == "frame"
    assert enc.by_id["bandit"].frame == 2
    act(enc, "bandit: end_turn", [])
    assert enc.current_actor() == "fighter" and not f.a8_used  # the limit resets (MP 7 now)
    core = fight((cat("bandit"), "b", (0, 3)), (powers("fighter", "action8_react4"), "a", (0, 0)),
                 order=["bandit", "fighter"], options=CORE)
    act(core, "bandit: pass approach -> fighter", [])
    assert "fighter: react action8" not in labels(core)


def test_the_new_labels_encode_in_the_blocks_appended_last_and_read_in_words():
    from envs.metaforce.describe import describe
    from envs.metaforce.encoding import ENCODING, LAYOUT
    enc = fight((powers("fighter", "team_work"), "a", (0, 0)), (cat("wizard"), "a", (1, 0)),
                (cat("bandit"), "b", (1, 3)), order=["fighter", "wizard", "bandit"],
                options=FULL)
    a = enc.parse_action("fighter: team_work -> wizard")
    start = LAYOUT.strides("ally")[0]
    assert ENCODING.encode_action(enc, "fighter", a) == start  # kind 0, ally slot 1
    assert ENCODING.decode_action(enc, "fighter", start) == a
    link = enc.parse_action("fighter: link -> wizard")
    assert ENCODING.encode_action(enc, "fighter", link) == start + 3
    assert describe(a, enc) == "Team Work: the Wizard takes a frame now (costs this frame)"
    enc = fight((cat("bandit"), "b", (0, 3)), (powers("fighter", "action8_react4"), "a", (0, 0)),
                order=["bandit", "fighter"], options=FULL)
    act(enc, "bandit: pass approach -> fighter", [])
    conv = enc.parse_action("fighter: react action8")
    i = ENCODING.encode_action(enc, "fighter", conv)
    assert i == LAYOUT.strides("power")[0] and ENCODING.decode_action(enc, "fighter", i) == conv
    assert describe(conv, enc) == "react: use Action-8, the Reaction becomes a whole frame (8 MP)"


STICK = Weapon("stick", "melee", "str", 0, 1, 4, "blunt")  # ToHit +0, 1 + d4, not proficient


def test_fudge_nudge_raises_a_die_to_12_for_1_2_3_mp_and_it_crits():  # WE-29
    enc = fight((powers("fighter", "fudge_nudge"), "a", (0, 0)),
                (cat("bandit", hp_max=100), "b", (0, 1)), aware=False, options=FULL)
    act(enc, "fighter: attack warhammer -> bandit", ["d12=9", "d12=3"])  # Advantage: 9 kept
    assert enc.decision == "fudge"
    assert labels(enc) == ["fighter: fudge 1", "fighter: fudge 2", "fighter: pass"]
    assert dict(enc.window.info)["costs"] == {"1": 1, "2": 1}
    act(enc, "fighter: fudge 1", [])
    assert dict(enc.window.info)["costs"] == {"1": 2, "2": 1}
    act(enc, "fighter: fudge 1", [])
    ev = act(enc, "fighter: fudge 1", [])  # the die is 12 now: no more nudges of it
    assert labels(enc) == ["fighter: fudge 2", "fighter: pass"]
    # (12, 3): a critical, V max(5, 3) = 5 on damage: (8 + d6 2 + 5) x 2 = 30
    act(enc, "fighter: pass", ["d6=2"])
    assert enc.decision == "fudge" and dict(enc.window.info)["die"] == "damage"  # the d6 next
    ev = act(enc, "fighter: pass", [])
    assert [t for t in texts(ev) if "fudge" in t] == []  # the nudges were reported as made
    assert "fighter attacks bandit with warhammer: d12 12/3 (S +2) ToHit 20 vs E 6 D 6: " \
           "direct, critical V 5" in texts(ev)
    assert enc.by_id["bandit"].hp == 70 and enc.by_id["fighter"].mp == 15 - (1 + 2 + 3)


def test_the_fudge_window_has_a_state_key_and_the_heuristic_decides_in_it():
    """The window's info holds a mapping (the costs): the state key still hashes, the legal
    actions are kept by it, and the heuristic chooses there as it scores."""
    from agents.heuristic.metaforce import MetaforceHeuristic
    enc = fight((powers("fighter", "fudge_nudge"), "a", (0, 0)),
                (cat("bandit", hp_max=100), "b", (0, 1)), aware=False, options=FULL)
    act(enc, "fighter: attack warhammer -> bandit", ["d12=9", "d12=3"])
    assert enc.decision == "fudge" and hash(enc.state_key()) == hash(enc.clone().state_key())
    h = MetaforceHeuristic(seed=0)
    legal = enc.legal_actions()
    scores = h.rank(enc, "fighter", legal)
    assert h.choose(enc) == legal[scores.index(max(scores))] == h.choose(enc)


def test_fudge_nudge_of_two_dice_once_each_costs_one_each():
    enc = fight((powers("fighter", "fudge_nudge"), "a", (0, 0)),
                (cat("bandit", hp_max=100), "b", (0, 1)), aware=False, options=FULL)
    act(enc, "fighter: attack warhammer -> bandit", ["d12=4", "d12=3"])
    act(enc, "fighter: fudge 2", [])
    ev = act(enc, "fighter: fudge 1", [])
    assert "fighter uses fudge nudge for 1 MP (d12 1 now 5)" in texts(ev)
    act(enc, "fighter: pass", ["d6=1"])  # (5, 4): 5 + 8 = 13, direct
    act(enc, "fighter: pass", [])  # the damage die's window (spec §6.4): d6 1 stays, 9 damage
    assert (enc.by_id["fighter"].mp, enc.by_id["bandit"].hp) == (13, 91)
    core = fight((powers("fighter", "fudge_nudge"), "a", (0, 0)), (cat("bandit"), "b", (0, 1)),
                 aware=False, options=CORE)
    act(core, "fighter: attack warhammer -> bandit", ["d12=4", "d12=3", "d6=1"])  # no window


def test_fudge_nudge_on_a_one_die_critical_nudges_its_explosion_md12_and_so_v():
    """spec §6.4 on a Meta die (ENGINE ruling): +1 on its result, so V + 1, 1 then 2 MP; a d12
    nudged to 12 draws its md12 at once (dice order item 2) and that can be nudged next."""
    enc = fight((powers("fighter", "fudge_nudge", weapons=(STICK,)), "a", (0, 0)),
                (cat("bandit", hp_max=100), "b", (0, 1)), options=FULL)
    act(enc, "fighter: attack stick -> bandit", ["d12=11"])  # one die: Normal
    assert labels(enc) == ["fighter: fudge 1", "fighter: pass"]
    act(enc, "fighter: fudge 1", ["d12=3"])  # 12: the md12 shows 3, V = max(3, 5) = 5
    assert dict(enc.window.info)["v"] == 5 and dict(enc.window.info)["costs"] == {"2": 1}
    assert describe(enc.legal_actions()[0], enc) == "Fudge Nudge: +1 on the critical's V (1 MP)"
    act(enc, "fighter: fudge 2", [])
    ev = act(enc, "fighter: fudge 2", [])
    assert "fighter uses fudge nudge for 2 MP (V md12 now 7)" in texts(ev)
    ev = act(enc, "fighter: pass", ["d4=4"])  # (1 + 4 + V 7) x 2 = 24; a d4 4 has no window
    assert "fighter attacks bandit with stick: d12 12/3 (S +0) ToHit 12 vs E 6 D 6: " \
           "direct, critical V 7" in texts(ev)
    assert (enc.by_id["bandit"].hp, enc.by_id["fighter"].mp) == (100 - 24, 15 - 1 - 1 - 2)


def test_fudge_nudge_on_the_penetration_die_escalates_and_gets_past_immunity_x():
    """spec §6.4 "any of the user's own rolls": the Penetration die (dice order item 4) has its
    own window after the damage die's; each nudge of it costs 1, 2, 3 MP; P - I decides."""
    pick = replace(STICK, id="pick", pen_die=6)
    enc = fight((powers("fighter", "fudge_nudge", weapons=(pick,)), "a", (0, 0)),
                (cat("bandit", hp_max=100, immunities=frozenset({"physical"}),
                     immunity_x={"physical": 3}), "b", (0, 1)), aware=False, options=FULL)
    act(enc, "fighter: attack pick -> bandit", ["d12=9", "d12=3"])
    # ToHit 9 > D 6: direct; the d4 shows its maximum (no window for it), the d6 shows 2
    act(enc, "fighter: pass", ["d4=4", "d6=2"])
    assert dict(enc.window.info)["die"] == "penetration"
    nudge = enc.legal_actions()[0]
    assert describe(nudge, enc) == "Fudge Nudge: +1 on the penetration die (1 MP)"
    assert rules_describe(nudge, enc) == "Fudge Nudge: +1 on the penetration die"
    ev = []
    for cost in (1, 2, 3):
        assert dict(enc.window.info)["costs"] == {"1": cost}
        ev = act(enc, "fighter: fudge 1", [])
    assert "fighter uses fudge nudge for 3 MP (d6 (penetration) now 5)" in texts(ev)
    act(enc, "fighter: pass", [])  # P 5 - I 3: 2 of the 5 damage
    assert (enc.by_id["fighter"].mp, enc.by_id["bandit"].hp) == (9, 98)


def test_force_fate_costs_the_change_plus_earlier_uses():  # WE-30
    f = powers("fighter", "force_fate", weapons=(STICK,))
    enc = fight((f, "a", (0, 0)), (cat("bandit", hp_max=100), "b", (0, 1)), aware=False,
                options=FULL)
    act(enc, "fighter: attack stick -> bandit", ["d12=1", "d12=1"])  # ToHit 1 vs E 6 D 6
    assert labels(enc) == ["fighter: force_fate deflected", "fighter: force_fate direct",
                           "fighter: pass"]
    assert dict(enc.window.info)["costs"] == {"deflected": 5, "direct": 6}
    ev = act(enc, "fighter: force_fate deflected", ["d4=1"])  # +5: ToHit 6, deflected
    assert "fighter uses force fate for 5 MP (ToHit 1 -> 6)" in texts(ev)
    assert any("ToHit 6 vs E 6 D 6: deflected" in t for t in texts(ev))
    assert (enc.by_id["fighter"].mp, enc.by_id["fighter"].ff_uses) == (10, 1)
    act(enc, "fighter: attack stick -> bandit", ["d12=1", "d12=1"])
    assert dict(enc.window.info)["costs"] == {"deflected": 6, "direct": 7}  # second use: +1


def test_a_defender_forces_fate_down_to_a_miss():
    enc = fight((cat("bandit"), "b", (0, 1)), (powers("fighter", "force_fate"), "a", (0, 0)),
                aware=False, options=FULL)
    act(enc, "bandit: attack mace -> fighter", ["d12=8", "d12=2"])  # 13 > D 10: direct
    act(enc, "fighter: pass", [])  # W-I2: no Meta-Die
    assert labels(enc) == ["fighter: force_fate miss", "fighter: force_fate deflected",
                           "fighter: pass"]
    ev = act(enc, "fighter: force_fate miss", [])  # -8 costs 8 (WE-30)
    assert "fighter uses force fate for 8 MP (ToHit 13 -> 5)" in texts(ev)
    assert any("ToHit 5 vs E 6 D 10: miss" in t for t in texts(ev))
    assert enc.by_id["fighter"].mp == 7 and enc.by_id["fighter"].hp == 54


def test_magic_effect_adds_up_to_level_mp_to_a_criticals_v():
    enc = fight((powers("fighter", "magic_effect", level=3), "a", (0, 0)),
                (cat("bandit", hp_max=100), "b", (0, 1)), aware=False, options=FULL)
    act(enc, "fighter: attack warhammer -> bandit", ["d12=12", "d12=7"])  # V 7
    assert labels(enc) == ["fighter: magic_effect 1", "fighter: magic_effect 2",
                           "fighter: magic_effect 3", "fighter: pass"]
    ev = act(enc, "fighter: magic_effect 3", ["d6=2"])
    assert "fighter uses magic effect for 3 MP (V 7 -> 10)" in texts(ev)
    assert enc.by_id["bandit"].hp == 100 - (8 + 2 + 10) * 2 and enc.by_id["fighter"].mp == 12


def test_hype_effect_copies_a_die_at_its_maximum_once():  # WE-28
    enc = fight((powers("fighter", "hype_effect"), "a", (0, 0)),
                (cat("bandit", hp_max=100), "b", (0, 1)), aware=False, options=FULL)
    ev = act(enc, "fighter: attack warhammer -> bandit", ["d12=9", "d12=3", "d6=6", "d6=6"])
    assert texts(ev).count("fighter's d6 hypes: a copy adds 6 to damage") == 1  # no copy of it
    assert enc.by_id["bandit"].hp == 100 - (8 + 6 + 6)
    f = powers("fighter", "hype_effect", weapons=(STICK,))
    enc = fight((f, "a", (0, 0)), (cat("bandit", hp_max=100), "b", (0, 1)), aware=False,
                options=FULL)
    enc.by_id["fighter"].mp = 9  # md8
    # ToHit 1; md8 raw 8 -> 8, its copy md8 raw 2 -> 3: +11, direct; the Meta-Die costs 8
    ev = act(enc, "fighter: attack stick -> bandit +meta", ["d12=1", "d12=1", "d8=8", "d8=2",
                                                                 "d4=1"])
    assert "fighter's d8 hypes: a copy adds 3 to tohit" in texts(ev)
    assert "fighter creates a Meta-Die md8 11: pays 8 MP" in texts(ev)
    assert any("ToHit 12 vs E 6 D 6: direct" in t for t in texts(ev))
    assert enc.by_id["fighter"].mp == 1


def test_a_big_creature_adds_size_dice_to_its_v_in_full_only():  # R-29, WE-06
    for options, hp in ((CORE, 500 - (4 + 2 + 5) * 4 * 2), (FULL, 500 - (4 + 2 + 21) * 4 * 2)):
        enc = fight((cat("hill_giant"), "b", (0, 1)), (cat("bandit", hp_max=500), "a", (0, 0)),
                    aware=False, options=options)
        extra = ["d12=1", "d12=6", "d12=4"] if options is FULL else []  # md12: 5, 6, 5
        ev = act(enc, "hill_giant: attack great_club -> bandit",
                 ["d12=12", "d12=4", *extra, "d6=2"])
        assert enc.by_id["bandit"].hp == hp
    assert "hill_giant rolls Size dice for its V (5/6/5): V 21" in texts(ev)


def _golem_shot(options, ap: bool):
    gun = replace(cat("detective").weapon("revolver"), armour_piercing=ap)
    det = cat("detective", weapons=(gun,))
    enc = fight((det, "a", (0, 0)), (cat("stone_golem"), "b", (0, 4)), aware=True,
                options=options, order=["detective", "stone_golem"])
    ev = act(enc, "detective: fire revolver 1 -> stone_golem", ["d12=1", "d12=1", "d6=1"])
    return enc.by_id["stone_golem"].hp, texts(ev)


def test_armour_piercing_rounds_ignore_bullet_resistance_in_full():
    # ToHit 1 + 8 = 9 vs E 6 D 10; 12 + 1 = 13 piercing against innate Resistance 3
    hp, ev = _golem_shot(FULL, ap=True)  # direct: 13 // 2 - 3 = 3
    assert hp == 132 - 3 and any("ToHit 9 vs E 6 D 10: direct" in t for t in ev)
    hp, ev = _golem_shot(FULL, ap=False)  # bullet-resistant: deflected, 13 // 2 // 2 - 3 - 3
    assert hp == 132 and any("ToHit 9 vs E 6 D 10: deflected" in t for t in ev)
    hp, _ = _golem_shot(CORE, ap=True)
    assert hp == 132


def test_an_expert_shooter_reloads_and_fires_one_shot_in_a_frame():
    det = cat("detective", expertise=frozenset({"end", "per"}))
    enc = fight((det, "a", (0, 0)), (cat("bandit", hp_max=100), "b", (0, 4)), aware=False,
                options=FULL)
    d = enc.by_id["detective"]
    d.loaded["revolver"], d.fired["revolver"] = 0, True
    assert "detective: reload_fire revolver -> bandit" in labels(enc)
    assert "detective: reload_fire revolver -> bandit" not in labels(fight(
        (cat("detective"), "a", (0, 0)), (cat("bandit"), "b", (0, 4)), aware=False,
        options=FULL))  # proficient only: no shot in the reload frame
    ev = act(enc, "detective: reload_fire revolver -> bandit", ["d12=5", "d12=1", "d6=1"])
    assert texts(ev)[1:4] == ["detective unloaded revolver: 0 loaded, 12 in reserve",
                              "detective reloaded revolver: 6 loaded, 6 in reserve",
                              "detective attacks bandit with revolver: d12 5/1 (S +2) ToHit 13 "
                              "vs E 6 D 6: direct"]
    assert "detective's Expertise puts V 1 on damage" in texts(ev)  # PER expert, Level 1 (§2.4.2)
    assert d.loaded["revolver"] == 5 and enc.by_id["bandit"].hp == 100 - 14
    d.speedloaders["revolver"], d.loaded["revolver"] = 0, 0  # 3 a frame; an expert loads 6
    act(enc, "detective: reload revolver", [])
    assert d.loaded["revolver"] == 6 and d.reserve["revolver"] == 0


def test_the_view_names_the_guest_and_the_once_per_limits():
    enc = fight((powers("fighter", "team_work"), "a", (0, 0)), (cat("wizard"), "a", (1, 0)),
                (cat("bandit"), "b", (9, 9)), order=["fighter", "wizard", "bandit"],
                aware=False, options=FULL)
    act(enc, "fighter: team_work -> wizard", [])
    v = enc.view("wizard")
    assert (v["guest"], v["initiative_link_used"], v["current_actor"]) == ("wizard", False,
                                                                           "wizard")
    me = next(c for c in v["combatants"] if c["id"] == "fighter")
    assert (me["team_work_used"], me["force_fate_uses"]) == (True, 0)


def test_team_work_needs_an_awake_ally():
    def duo():
        return fight((powers("fighter", "team_work"), "a", (0, 0)), (cat("wizard"), "a", (1, 0)),
                     (cat("bandit", hp_max=100), "b", (1, 3)),
                     order=["fighter", "wizard", "bandit"], options=FULL)

    assert "fighter: team_work -> wizard" in labels(duo())
    enc = duo()
    w = enc.by_id["wizard"]
    w.statuses["sleep"] = (w.sd("mind") + 1, 0, "bandit")  # Sleep at Full: no frames (§7.5)
    assert w.asleep and "fighter: team_work -> wizard" not in labels(enc)


def test_an_escape_in_a_guest_frame_still_moves_then_the_user_resumes():
    enc = fight((powers("fighter", "team_work"), "a", (0, 0)), (cat("wizard"), "a", (5, 5)),
                (cat("bandit", hp_max=100), "b", (6, 5)), order=["fighter", "wizard", "bandit"],
                options=FULL)
    w, b = enc.by_id["wizard"], enc.by_id["bandit"]
    w.statuses["grappled"] = (3, 0, "bandit")
    b.grappling = "wizard"
    act(enc, "fighter: team_work -> wizard", [])
    assert enc.current_actor() == "wizard"
    ev = act(enc, "wizard: escape grappled", ["d12=10", "d12=9", "d6=2"])
    assert "wizard: grappled ended (magnitude 0)" in texts(ev)
    # spec §5.10: freed, it may still use the guest frame's movement (§4.6: then back)
    assert labels(enc) == ["wizard: pass", "wizard: pass retreat -> bandit"]
    act(enc, "wizard: pass retreat -> bandit", [])
    assert enc.current_actor() in ("bandit", "fighter")  # W-R1 for the bandit, or the user
    assert not w.free_move
