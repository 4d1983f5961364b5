"""Stealthy, Hide, Sense and concealment (spec §5.9, §5.10, §7.2, RULING R19, R20, R21, R31;
§11.2 X3, X7)."""

from __future__ import annotations

from metanoia_kit import ab, blk, c, fight, injuries, item, legal, play, stealthy, unit

from envs.core.dice import ScriptedDice
from envs.metanoia.rules import new_encounter

KNIFE = [item("knife", 1, "strike")]


def test_stealthy_starts_obscured():
    """RULING R31, §3.5: a combatant with Stealthy R starts the encounter with [Obscured R]."""
    enc = new_encounter("duel_seed", "core", ScriptedDice([1, 1, 1, 1]))
    assert c(enc, "shadow_warden")["statuses"] == {"obscured": 1}
    assert c(enc, "rotblade_duelist")["statuses"] == {}


def test_hide_adds_stealthy_rank():
    """RULING R31: a Stealthy hider adds R to its Hide successes (1 + 2 = 3)."""
    enc = fight(
        unit("h", "A", blk(passives=[stealthy(2)]), zone=0, statuses={}),
        unit("foe", "B", blk(), zone=2),
    )
    play(enc, [4, 1], "h: hide")
    assert c(enc, "h")["statuses"] == {"obscured": 3}


def test_hide_zero_gives_no_status():
    """§5.9 [S]/R20: 0 successes (and no Stealthy) gives no status."""
    enc = fight(unit("h", "A", blk(), zone=0), unit("foe", "B", blk(), zone=2))
    log = play(enc, [1, 1], "h: hide")
    assert c(enc, "h")["statuses"] == {}
    assert any("fails to hide" in line for line in log)


def test_rehide_keeps_the_higher_rank():
    """RULING R20/R27: hiding again keeps the higher Obscured rank."""
    enc = fight(
        unit("h", "A", blk(), zone=0, statuses={"obscured": 5}), unit("foe", "B", blk(), zone=2)
    )
    play(enc, [6, 1], "h: hide")
    assert c(enc, "h")["statuses"] == {"obscured": 5}


def test_hide_illegal_with_unconcealed_enemy_in_zone():
    """RULING R20: no Hide with an active, unconcealed enemy in the hider's zone."""
    enc = fight(unit("h", "A", blk()), unit("foe", "B", blk(), zone=1))
    assert not any(" hide" in label for label in legal(enc))


def test_hide_legal_with_concealed_or_defeated_enemy_in_zone():
    """RULING R20: a concealed or out-of-fight enemy in the zone does not bar Hide."""
    enc = fight(unit("h", "A", blk()), unit("foe", "B", blk(), statuses={"obscured": 1}),
                unit("down", "B", blk(), defeated=True))
    assert "h: hide" in legal(enc)


def test_hide_illegal_while_pinned():
    """§5.9, RULING R20: no Hide while Pinned."""
    enc = fight(
        unit("h", "A", blk(), zone=0, statuses={"pinned": 1}), unit("foe", "B", blk(), zone=2)
    )
    assert not any(" hide" in label for label in legal(enc))


def test_sense_meets_rank_reveals():
    """§5.10 [S], RULING R21: successes >= concealment rank ("meet or beat") removes it."""
    enc = fight(
        unit("s", "A", blk(), zone=0), unit("foe", "B", blk(), zone=2, statuses={"obscured": 2})
    )
    log = play(enc, [6, 1], "s: sense -> foe")
    assert c(enc, "foe")["statuses"] == {} and not c(enc, "foe")["concealed"]
    assert any("s succeeds at sensing foe (2 vs rank 2)" in line for line in log)


def test_sense_below_rank_fails():
    """§5.10 [S]: fewer successes than the rank: nothing happens."""
    enc = fight(
        unit("s", "A", blk(), zone=0), unit("foe", "B", blk(), zone=2, statuses={"obscured": 3})
    )
    play(enc, [6, 1], "s: sense -> foe")
    assert c(enc, "foe")["statuses"] == {"obscured": 3}


def test_sense_uses_highest_concealment_and_removes_all():
    """§5.10, RULING R21: rank = max(Obscured, Hidden); success removes every concealment status."""
    enc = fight(unit("s", "A", blk(), zone=0),
                unit("foe", "B", blk(), zone=2, statuses={"obscured": 1, "hidden": 3, "slip": 1}))
    play(enc, [6, 3], "s: sense -> foe")
    assert c(enc, "foe")["statuses"] == {"slip": 1}


def test_sense_needs_a_concealed_enemy():
    """§5.1 #8: Sense is legal only against active, concealed enemies."""
    enc = fight(unit("s", "A", blk(), zone=0), unit("seen", "B", blk(), zone=2),
                unit("hid", "B", blk(), zone=1, statuses={"hidden": 1}))
    senses = {label for label in legal(enc) if "sense" in label}
    assert senses and all(label.startswith("s: sense -> hid") for label in senses)


def test_concealed_enemy_cannot_be_targeted():
    """§7.2, RULING R19: a concealed enemy cannot be the target of an Engage or a Mark."""
    enc = fight(unit("a", "A", blk(items=KNIFE)), unit("foe", "B", blk(), statuses={"obscured": 1}))
    assert not any(label.endswith("-> foe") and "sense" not in label for label in legal(enc))


def test_ambush_bars_reactive_keywords():
    """RULING R19, §11.2 X7: the Reactor of a concealed attacker may not invoke a reactive keyword,
    but may add traits."""
    enc = fight(unit("w", "B", blk(items=KNIFE), statuses={"obscured": 1}),
                unit("t", "A", blk(abilities=[ab("counter", 1), ab("ward", 1)])))
    play(enc, [], "w: attack strike@knife -> t", exhaust=False)
    assert legal(enc) == {"t: react none", "t: react none +motive", "t: react none +identity",
                          "t: react none +motive+identity"}


def test_attacker_revealed_after_ambush_win():
    """§7.2, RULING R19: attacking from concealment ends it after resolution (here the attacker
    wins)."""
    enc = fight(unit("w", "B", blk(items=KNIFE), statuses={"obscured": 1}), unit("t", "A", blk()))
    play(enc, [6, 6, 1, 1], "w: attack strike@knife -> t", "t: react none")
    assert c(enc, "w")["statuses"] == {} and injuries(enc, "t") == [("strike", 1)]


def test_attacker_revealed_after_ambush_loss():
    """§11.2 X7: revealed whatever the result."""
    enc = fight(unit("w", "B", blk(items=KNIFE), statuses={"hidden": 2}), unit("t", "A", blk()))
    play(enc, [1, 1, 6, 6], "w: attack strike@knife -> t", "t: react none")
    assert c(enc, "w")["statuses"] == {} and c(enc, "w")["stacks"] == 4


def test_mark_from_concealment_reveals():
    """§7.2: a Mark against an enemy also ends concealment (and is an ambush)."""
    enc = fight(
        unit("w", "B", blk(), statuses={"obscured": 1}),
        unit("t", "A", blk(abilities=[ab("slip", 1)])),
    )
    play(enc, [], "w: mark -> t", exhaust=False)
    assert "t: react slip" not in legal(enc)
    play(enc, [4, 4, 1, 1], "t: react none")
    assert c(enc, "w")["statuses"] == {} and c(enc, "t")["stacks"] == 2


def test_moving_and_recover_keep_concealment():
    """§7.2: Moving and Recover do not end concealment."""
    enc = fight(unit("h", "A", blk(), statuses={"obscured": 2}), unit("foe", "B", blk()),
                options={"version": "core", "round_limit": 2}, order=["h", "foe"])
    play(enc, [], "h: move 0", "foe: recover", "h: recover")
    assert c(enc, "h")["statuses"] == {"obscured": 2} and c(enc, "h")["zone"] == 0


def test_concealed_mover_cannot_be_challenged():
    """§7.2, RULING R23: enemies cannot challenge a concealed creature's Move; it moves at once and
    pays nothing."""
    enc = fight(unit("h", "A", blk(), statuses={"obscured": 1}), unit("foe", "B", blk()))
    play(enc, [], "h: move 0 +motive")
    assert c(enc, "h")["zone"] == 0 and c(enc, "h")["strain"] == 6


def test_enemies_do_not_see_concealed_zone_or_statuses():
    """§7.2: enemies do not observe a concealed creature's zone or statuses; allies do."""
    enc = fight(unit("h", "A", blk(), statuses={"obscured": 2, "slip": 1}), unit("pal", "A", blk()),
                unit("foe", "B", blk()))
    seen_by_foe = enc.view("foe")["combatants"]["h"]
    assert seen_by_foe["zone"] is None and seen_by_foe["statuses"] == {}
    assert enc.view("pal")["combatants"]["h"]["statuses"] == {"obscured": 2, "slip": 1}
