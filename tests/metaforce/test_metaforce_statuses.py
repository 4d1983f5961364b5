"""Metaforce statuses, saves, grapples and defeat with forced dice (spec §5.4, §5.9, §5.10,
§7, §8.6, §6.4 Deus Ex)."""

from __future__ import annotations

from test_metaforce_kit import act, block, cat, detective, fight, fighter, labels, texts

from envs.metaforce.rules import CORE
from envs.metaforce.rules.combatant import severity

BRAWLER = cat("odonghe_brawler", "brawler")  # Brawl +4 covers unarmed and grapple (+8)


def test_severity_bands():
    assert [severity(m, 5) for m in (0, 3, 5, 14, 15)] == ["ended", "partial", "full", "full",
                                                          "intense"]


def test_an_intense_knockback_pushes_two_squares_and_stuns_for_one_frame():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (0, 1)), aware=False)
    ev = act(enc, "fighter: special", [])
    assert "fighter sets up a Special Attack (knockback)" in texts(ev)
    assert "fighter: special" not in labels(enc)  # one setup at a time
    ev = act(enc, "fighter: attack warhammer -> bandit", ["d12=7", "d12=3", "d6=4", "d10=2"])
    b = enc.by_id["bandit"]
    assert b.hp == 36 - 12
    # M = K 7 + STR die md10 (2 -> 4) + d6 4 + magnitude bonus 6 = 21 >= Reflex SD 4 + 10
    assert "bandit: knockback intense (magnitude 21)" in texts(ev)
    assert "bandit is knocked back 2 sq to 0,3" in texts(ev)
    assert "bandit is stunned for 1 frame(s)" in texts(ev)
    assert "bandit is stunned and loses a frame (0 more)" in texts(ev)  # its turn began
    assert enc.current_actor() == "bandit" and b.frame == 2 and b.frames_left == 1


def test_a_special_setup_lapses_at_the_end_of_the_next_turn():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (0, 5)), aware=False)
    act(enc, "fighter: special", [])
    f = enc.by_id["fighter"]
    act(enc, "fighter: end_turn", [])
    act(enc, "bandit: end_turn", [])
    assert f.special_until >= 0 and "fighter: special" not in labels(enc)  # still pending
    act(enc, "fighter: end_turn", [])  # the end of its next turn
    act(enc, "bandit: end_turn", [])
    assert f.special_until == -1 and "fighter: special" in labels(enc)


def test_bleed_with_a_successful_save_is_halved_and_ticks_at_the_victims_turn():
    enc = fight((detective(), "a", (0, 0)), (block("bandit"), "b", (0, 5)), aware=False)
    act(enc, "detective: special", [])
    ev = act(enc, "detective: fire revolver 1 -> bandit",
             ["d12=6", "d12=2", "d6=5", "d10=7", "d12=9"])
    # M = 6 + PER die md10 7 + d6 5 + 4 = 22 >= Body SD 5; Body save 9 + END 2 >= TN 10: halved
    assert "bandit body save d12 9 = 11 vs TN 10: success" in texts(ev)
    assert "bandit: bleed full (magnitude 11)" in texts(ev)
    # the detective's second frame ends its turn; the bandit's turn starts with the tick
    assert "bandit: bleed (full) ticks for 3" in texts(ev)  # X = d6 average 3
    assert enc.by_id["bandit"].hp == 36 - 17 - 3


def test_a_miraculous_save_shrugs_off_the_status_and_stun_takes_frames():
    enc = fight((detective(), "a", (0, 0)), (block("bandit"), "b", (0, 5)), aware=False)
    act(enc, "detective: special", [])
    ev = act(enc, "detective: fire revolver 1 -> bandit",
             ["d12=6", "d12=2", "d6=5", "d10=7", "d12=12", "d12=8"])
    assert "bandit body save d12 12/8 = 22 vs TN 10: miraculous" in texts(ev)
    assert "bandit: bleed resisted (magnitude 0)" in texts(ev)
    assert "bleed" not in enc.by_id["bandit"].statuses


def test_a_status_below_status_defence_fails_and_immunity_blocks_it():
    golem = block("golem", immunities=frozenset({"status:bleed"}))
    enc = fight((detective(), "a", (0, 0)), (golem, "b", (0, 5)), aware=False)
    act(enc, "detective: special", [])
    ev = act(enc, "detective: fire revolver 1 -> golem", ["d12=6", "d12=2", "d6=5", "d10=7"])
    assert "golem: bleed resisted (magnitude 0)" in texts(ev)


def test_grapple_escape_and_maintain():
    enc = fight((BRAWLER, "a", (0, 0)), (block("bandit"), "b", (0, 1)),
                aware=False)
    ev = act(enc, "brawler: grapple -> bandit", ["d12=5", "d12=9"])
    # ToHit 9 + 8 vs E 6; M = 9 + 8 = 17 >= Reflex SD 4 + 10; no Reflex save (AGI not prof.)
    assert "brawler grapple on bandit: grabbed (magnitude 17)" in texts(ev)
    assert "bandit: grappled intense (magnitude 17)" in texts(ev)
    act(enc, "brawler: end_turn", [])
    assert sorted(labels(enc)) == ["bandit: end_turn", "bandit: escape grappled",
                                   "bandit: pass"]  # Intense: Escape only, Speed 0
    ev = act(enc, "bandit: escape grappled", ["d12=3", "d12=8", "d6=4"])  # 8 + STR md6 4
    assert "bandit: grappled full (magnitude 5)" in texts(ev)
    act(enc, "brawler: pass", [])  # its W-R1 Reaction after the bandit's frame
    assert "bandit: escape grappled" in labels(enc)  # a new frame: one more check
    act(enc, "bandit: escape grappled", ["d12=1", "d12=2", "d6=1"])  # 2 + md6 (1 -> 2)
    assert enc.by_id["bandit"].magnitude("grappled") == 1
    assert enc.by_id["bandit"].grappled == "partial"
    act(enc, "brawler: pass", [])
    ev = act(enc, "brawler: maintain -> bandit", ["d12=10", "d12=4"])
    assert enc.by_id["bandit"].magnitude("grappled") == 18
    assert enc.current_actor() == "brawler"  # Intense again: the bandit can only pass
    act(enc, "brawler: end_turn", [])
    ev = act(enc, "bandit: escape grappled", ["d12=12", "d12=12", "d6=6"])  # 12 + V 12 + 6
    assert "bandit: grappled ended (magnitude 0)" in texts(ev)
    assert enc.by_id["brawler"].grappling is None


def test_full_holds_one_grapple_per_free_hand_and_core_one():
    """spec §5.9 item 4: one grapple per free Manipulate appendage (FULL); CORE: one grapple."""
    from envs.metaforce.invariants import state_invariants
    from envs.metaforce.rules import FULL
    from envs.metaforce.rules.moves import release_grapple
    for options, second in ((FULL, True), (CORE, False)):
        enc = fight((BRAWLER, "a", (0, 0)), (block("bandit"), "b", (0, 1)),
                    (block("bandit_2"), "b", (1, 1)), aware=False, options=options)
        assert enc.by_id["brawler"].free_hands() == 2
        act(enc, "brawler: grapple -> bandit", ["d12=5", "d12=9"])  # M 17: Intense
        assert ("brawler: grapple -> bandit_2" in labels(enc)) is second
        assert "brawler: grapple -> bandit" not in labels(enc)  # held already
    ev = act(enc, "brawler: maintain -> bandit", ["d12=10", "d12=4"])  # CORE: its one grip
    assert "brawler grapple on bandit: held (magnitude 18)" in texts(ev)
    enc = fight((BRAWLER, "a", (0, 0)), (block("bandit"), "b", (0, 1)),
                (block("bandit_2"), "b", (1, 1)), aware=False, options=FULL)
    act(enc, "brawler: grapple -> bandit", ["d12=5", "d12=9"])
    ev = act(enc, "brawler: grapple -> bandit_2", ["d12=5", "d12=9"])  # both hands now
    assert "bandit_2: grappled intense (magnitude 17)" in texts(ev)
    b = enc.by_id["brawler"]
    assert (b.grappling, b.grips()) == ("bandit", ("bandit", "bandit_2"))
    state_invariants(enc)
    assert enc.clone().state_key() == enc.state_key()
    snap = type(enc).from_snapshot(enc.snapshot())
    assert snap.by_id["brawler"].grips() == ("bandit", "bandit_2")
    ev = []
    release_grapple(enc, ev, b, "ended", "bandit")  # the first grip ends: the next one is first
    assert (b.grappling, b.extra_grips) == ("bandit_2", ())
    assert "grappled" not in enc.by_id["bandit"].statuses
    assert "grappled" in enc.by_id["bandit_2"].statuses
    state_invariants(enc)


def test_two_handed_weapons_leave_no_hand_to_grapple_with():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (0, 1)), aware=False)
    assert not any(":" in x and " grapple " in f" {x.split(': ')[1]} " for x in labels(enc))


def test_an_unprotected_npc_dies_at_0_and_a_protected_pc_is_incapacitated():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit", hp_max=5), "b", (0, 1)),
                aware=False)
    ev = act(enc, "fighter: attack warhammer -> bandit", ["d12=7", "d12=3", "d6=1"])
    assert "bandit is dead (HP -4)" in texts(ev) and enc.outcome().winner == "a"
    enc = fight((block("bandit"), "b", (0, 1)), (fighter(), "a", (0, 0)), aware=False)
    enc.by_id["fighter"].hp = 3
    ev = act(enc, "bandit: attack mace -> fighter", ["d12=11", "d12=2", "d6=1"])  # 5 dmg
    assert "fighter is incapacitated (HP -2)" in texts(ev)  # -2 >= -Body 7
    assert enc.outcome().winner == "b"


def test_deus_ex_survives_defeated_and_costs_max_mp():
    enc = fight((block("bandit"), "b", (0, 1)), (fighter(), "a", (0, 0)),
                (block("ally", protected=True), "a", (5, 0)), aware=False)
    f = enc.by_id["fighter"]
    f.hp = 1
    ev = act(enc, "bandit: attack mace -> fighter", ["d12=11", "d12=2", "d6=6"])  # 10: HP -9
    assert enc.current_actor() == "fighter" and enc.decision == "deus_ex"
    assert labels(enc) == ["fighter: deus_ex", "fighter: pass"]
    ev = act(enc, "fighter: deus_ex", [])  # the procedure replays with the same dice
    assert "fighter uses Deus Ex (survive_defeated); Max MP now 14" in texts(ev)
    assert (f.state, f.hp, f.mp, f.mp_max) == ("incapacitated", -7, 1, 14)
    assert not enc.is_over() and enc.current_actor() == "bandit"


def test_refusing_deus_ex_dies_and_negate_cancels_the_lethal_damage():
    enc = fight((block("bandit"), "b", (0, 1)), (fighter(), "a", (0, 0)), aware=False)
    enc.by_id["fighter"].hp = 1
    act(enc, "bandit: attack mace -> fighter", ["d12=11", "d12=2", "d6=6"])
    ev = act(enc, "fighter: pass", [])
    assert "fighter is dead (HP -9)" in texts(ev) and enc.outcome().winner == "b"
    from dataclasses import replace
    enc = fight((block("bandit"), "b", (0, 1)), (fighter(), "a", (0, 0)), aware=False,
                options=replace(CORE, deus_ex_mode="negate"))
    f = enc.by_id["fighter"]
    f.hp = 1
    act(enc, "bandit: attack mace -> fighter", ["d12=11", "d12=2", "d6=6"])
    act(enc, "fighter: deus_ex", [])
    assert (f.state, f.hp, f.mp, f.mp_max) == ("active", 1, 1, 14)


def test_deus_ex_is_not_offered_when_switched_off():
    from dataclasses import replace
    enc = fight((block("bandit"), "b", (0, 1)), (fighter(), "a", (0, 0)), aware=False,
                options=replace(CORE, deus_ex_enabled=False))
    enc.by_id["fighter"].hp = 1
    ev = act(enc, "bandit: attack mace -> fighter", ["d12=11", "d12=2", "d6=6"])
    assert "fighter is dead (HP -9)" in texts(ev)


def test_knockback_against_a_larger_target_is_divided_and_a_stunned_grappler_lets_go():
    giant = block("giant", size=4.0, hp_max=264, space=4)
    enc = fight((fighter(), "a", (0, 0)), (giant, "b", (0, 1)), aware=False)
    act(enc, "fighter: special", [])
    ev = act(enc, "fighter: attack warhammer -> giant", ["d12=7", "d12=3", "d6=4", "d10=2"])
    # M 21 // (4 - 1 + 1) = 5 >= Reflex SD 4: Full, a 5 ft push
    assert "giant: knockback full (magnitude 5)" in texts(ev)
    enc = fight((BRAWLER, "a", (0, 0)), (block("bandit"), "b", (0, 1)), aware=False)
    act(enc, "brawler: grapple -> bandit", ["d12=5", "d12=9"])
    b = enc.by_id["brawler"]
    from envs.metaforce.rules.statuses import stun
    events: list = []
    stun(enc, events, b, 1)
    assert b.grappling is None and "grappled" not in enc.by_id["bandit"].statuses
    assert [str(e) for e in events] == ["brawler is stunned for 1 frame(s)",
                                        "brawler grapple on bandit: ended (magnitude 0)"]
