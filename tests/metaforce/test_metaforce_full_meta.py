"""Metaforce FULL M-Powers with forced dice (spec §3.3, §4.6, §6.2, §6.4; §12.3): Initiative
Link, Team Work, Action-8 turning a Reaction into a frame. CORE offers none of them."""

from __future__ import annotations

from test_metaforce_kit import act, cat, fight, labels, texts

from envs.metaforce.rules import CORE, FULL, MetaforceEncounter


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
