"""Texture table and dice pools (spec §2.2, §2.3, RULING R3, R18; worked examples §11.1 S10,
S11)."""

from __future__ import annotations

import pytest
from metanoia_kit import ab, blk, c, fight, item, play, unit

from envs.metanoia.rules import catalogue

TABLE = {
    "rampant": [0, 0, 0, 1, 2, 3],
    "volatile": [0, 0, 1, 1, 2, 2],
    "tranquil": [0, 1, 1, 1, 1, 2],
}


def hider(texture: str = "volatile", **kw):
    """A hider in zone 0 with its only enemy far away in zone 2 (Hide is legal, §5.9)."""
    return fight(unit("h", "A", blk(texture, **kw), zone=0), unit("foe", "B", blk(), zone=2))


def test_catalogue_texture_table_matches_spec():
    """§2.2 [S]: the Texture table, successes per face 1..6."""
    assert {k: list(v) for k, v in catalogue().textures.items()} == TABLE


@pytest.mark.parametrize("texture,face", [(t, f) for t in TABLE for f in range(1, 7)])
def test_texture_each_face(texture, face):
    """§2.2 [S], §11.1 S10: one die of ``face`` counts the table's successes (the other die shows
    1, worth 0 for every Texture); Hide turns the total into [Obscured s], nothing at 0 (§5.9)."""
    enc = hider(texture)
    play(enc, [face, 1], "h: hide")
    want = TABLE[texture][face - 1]
    assert c(enc, "h")["statuses"] == ({"obscured": want} if want else {})


@pytest.mark.parametrize("texture", list(TABLE))
def test_texture_faces_one_to_six_sum_to_six(texture):
    """§11.1 S10: faces 1..6 sum to 6 successes for every Texture."""
    enc = hider(texture, motive=2, identity=2)
    play(enc, [1, 2, 3, 4, 5, 6], "h: hide +motive+identity")
    assert c(enc, "h")["statuses"] == {"obscured": 6}


@pytest.mark.parametrize(
    "boosts,dice,strain",
    [("", 2, 6), (" +motive", 5, 5), (" +identity", 5, 5), (" +motive+identity", 7, 4)],
)
def test_pool_size_and_trait_cost(boosts, dice, strain):
    """§2.3 [S], §11.1 S11: pool 2 + M + I capped at 7 (M 3 + I 3 = 8 -> 7); 1 Strain per trait.
    The scripted dice must be used up exactly, so a wrong pool size fails."""
    enc = hider(motive=3, identity=3)
    log = play(enc, [1] * dice, "h: hide" + boosts)
    assert any(f"h rolls {dice}d6 for hide" in line for line in log)
    assert c(enc, "h")["strain"] == strain


def test_rank_zero_trait_cannot_be_invoked():
    """RULING R3: a trait of rank 0 cannot be invoked."""
    enc = hider(motive=0, identity=2)
    labels = {a.label for a in enc.legal_actions()}
    assert "h: hide +identity" in labels
    assert not any("motive" in label for label in labels)


def test_realm_dice_added_after_the_cap():
    """RULING R3 + Rule 1 [S]: 2 + 3 + 3 is capped at 7, then +3 Realm dice = 10."""
    enc = fight(
        unit("big", "A", blk(realm=2, motive=3, identity=3, items=[item("maul", 1, "strike")])),
        unit("t", "B", blk()),
    )
    log = play(enc, [1] * 12, "big: attack strike@maul -> t +motive+identity", "t: react none")
    assert any("big rolls 10d6 (7 base, +3 Realm)" in line for line in log)


def test_exploit_dice_added_after_the_cap():
    """RULING R3, §5.3 #7: Exploit dice come after the cap (7 + 2 stacks spent = 9)."""
    enc = fight(unit("a", "A", blk(motive=3, identity=3, abilities=[ab("exploit", 2)])),
                unit("t", "B", blk(), stacks=2))
    log = play(enc, [1] * 11, "a: attack exploit -> t +motive+identity", "t: react none")
    assert any("a rolls 9d6 (7 base, +2 Exploit)" in line for line in log)


def test_ward_dice_added_after_the_cap():
    """RULING R3, §5.3 #5: Ward R adds R dice to the Reactor's capped pool (7 + 2 = 9)."""
    enc = fight(unit("a", "A", blk(items=[item("club", 1, "strike")])),
                unit("t", "B", blk(motive=3, identity=3, abilities=[ab("ward", 2)])))
    log = play(enc, [1] * 11, "a: attack strike@club -> t", "t: react ward +motive+identity")
    assert any("t rolls 9d6 (7 base, +2 Ward)" in line for line in log)
    assert c(enc, "t")["strain"] == 3  # Ward 1 + two traits


def test_slip_removes_dice_minimum_one():
    """RULING R18: [Slip s] removes s dice from the next roll, minimum 1 die."""
    enc = fight(unit("a", "A", blk(items=[item("club", 1, "strike")]), statuses={"slip": 4}),
                unit("t", "B", blk()))
    log = play(enc, [1, 1, 1], "a: attack strike@club -> t", "t: react none")
    assert any("a rolls 1d6 (2 base, -4 Slip)" in line for line in log)
    assert c(enc, "a")["statuses"] == {}


def test_slip_is_used_by_a_hide_roll():
    """RULING R18: Slip affects the bearer's next roll of any kind, Hide included, then expires."""
    enc = fight(
        unit("h", "A", blk(), zone=0, statuses={"slip": 1}), unit("foe", "B", blk(), zone=2)
    )
    log = play(enc, [6, 6], "h: hide +motive")
    assert any("h rolls 2d6 (3 base, -1 Slip) for hide" in line for line in log)
    assert c(enc, "h")["statuses"] == {"obscured": 4}


def test_slip_on_the_reactor_is_used_by_its_defence():
    """RULING R18: a Reactor's Slip is used by its defence roll."""
    enc = fight(unit("a", "A", blk(items=[item("club", 1, "strike")])),
                unit("t", "B", blk(), statuses={"slip": 1}))
    log = play(enc, [1, 1, 1], "a: attack strike@club -> t", "t: react none")
    assert any("t rolls 1d6 (2 base, -1 Slip) for defence" in line for line in log)
    assert c(enc, "t")["statuses"] == {}
