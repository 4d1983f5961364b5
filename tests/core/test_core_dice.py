"""envs/core/dice.py: ScriptedDice checks die sizes and exhaustion; SeededDice is deterministic."""

from __future__ import annotations

import pytest

from envs.core.dice import (
    DiceError,
    DiceExhausted,
    LeftoverDice,
    ScriptedDice,
    SeededDice,
    UnexpectedDie,
    roll_exploding,
)


def test_scripted_faces_in_order():
    d = ScriptedDice([5, 3, "d6=4", "2"])
    assert d.roll(6, 2) == (5, 3)
    assert d.roll(6) == (4,)
    assert d.roll(6) == (2,)
    assert d.used == 4 and d.remaining == 0


def test_scripted_die_size_mismatch():
    d = ScriptedDice(["d8=3"])
    with pytest.raises(UnexpectedDie, match="asked for a d6, the script holds d8=3"):
        d.roll(6)


def test_scripted_face_not_on_the_die_asked_for():
    d = ScriptedDice([7])
    with pytest.raises(UnexpectedDie, match="face 7 is not on a d6"):
        d.roll(6)


def test_scripted_face_checked_against_declared_sides_at_construction():
    with pytest.raises(DiceError, match="die 2: face 7 is not on a d6"):
        ScriptedDice([1, 7], sides=6)
    with pytest.raises(DiceError, match="face 4 is not on a d3"):
        ScriptedDice(["d3=4"])


@pytest.mark.parametrize("face", [True, None, 2.5, "x", "d6=", ""])
def test_scripted_rejects_unreadable_faces(face):
    with pytest.raises(DiceError, match="not a die face"):
        ScriptedDice([1, face])


def test_scripted_exhaustion():
    d = ScriptedDice([1, 2])
    with pytest.raises(
        DiceExhausted, match="asked for 3 more d6 after 0 dice, but the script has 2 left"
    ):
        d.roll(6, 3)


def test_scripted_exhaustion_after_use():
    d = ScriptedDice([1])
    d.roll(6)
    with pytest.raises(DiceExhausted, match="after 1 dice"):
        d.roll(6)


def test_scripted_leftovers():
    d = ScriptedDice([1, 2, 3])
    d.roll(6)
    with pytest.raises(LeftoverDice, match=r"2 scripted dice were not used: \[2, 3\]"):
        d.check_exhausted()
    d.roll(6, 2)
    d.check_exhausted()


def test_errors_share_a_base_class():
    assert issubclass(DiceExhausted, DiceError) and issubclass(UnexpectedDie, DiceError)
    assert issubclass(LeftoverDice, DiceError) and issubclass(DiceError, ValueError)


def test_seeded_dice_are_deterministic():
    a, b = SeededDice(7), SeededDice(7)
    rolls_a = [a.roll(6, n) for n in (1, 2, 7, 600, 3)]
    rolls_b = [b.roll(6, n) for n in (1, 2, 7, 600, 3)]
    assert rolls_a == rolls_b
    assert rolls_a != [SeededDice(8).roll(6, n) for n in (1, 2, 7, 600, 3)]


def test_seeded_dice_faces_in_range_and_sizes_independent():
    d = SeededDice(1)
    faces = d.roll(6, 2000)
    assert len(faces) == 2000 and set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(1 <= f <= 20 for f in d.roll(20, 100))


def test_seeded_dice_accept_a_generator():
    import numpy as np

    a = SeededDice(np.random.default_rng(3))
    b = SeededDice(3)
    assert a.roll(6, 10) == b.roll(6, 10)


# --------------------------------------------------------------------------- exploding dice


def test_metaforce_d12_explodes_once_into_a_meta_d12():
    """Metaforce §2.3.1, WE-03: d12 = 12, then md12 raw 12: 12 + 12 (+2) = 26; no third die."""
    dice = ScriptedDice(["d12=12", "d12=12"])
    r = roll_exploding(dice, 12, max_explosions=1, extra_minimum=5)
    dice.check_exhausted()
    assert (r.faces, r.extras, r.explosions, r.total) == ((12, 12), (12,), 1, 24)
    assert r.total + 2 == 26


def test_the_meta_die_floor_raises_a_low_extra_face():
    """Metaforce §2.3.2: md12 raw 3 counts 5."""
    r = roll_exploding(ScriptedDice([12, 3]), 12, max_explosions=1, extra_minimum=5)
    assert (r.faces, r.extras, r.total) == ((12, 3), (5,), 17)
    assert str(r) == "d12 12 explodes: md12 3->5 = 17"


def test_no_explosion_below_the_top_face():
    dice = ScriptedDice([11])
    r = roll_exploding(dice, 12, max_explosions=1, extra_minimum=5)
    dice.check_exhausted()
    assert (r.faces, r.total, r.explosions, str(r)) == ((11,), 11, 0, "d12 11")


@pytest.mark.parametrize(
    "cap, faces", [(0, (6,)), (1, (6, 6)), (2, (6, 6, 6)), (None, (6, 6, 6, 6, 1))])
def test_max_explosions_caps_the_chain(cap, faces):
    dice = ScriptedDice([6, 6, 6, 6, 1])
    r = roll_exploding(dice, 6, max_explosions=cap)
    assert r.faces == faces and dice.remaining == 5 - len(faces)
    assert r.total == sum(faces)


def test_extra_dice_of_another_size_explode_on_their_own_top_face():
    dice = ScriptedDice(["d20=20", "d6=6", "d6=2"])
    r = roll_exploding(dice, 20, max_explosions=None, extra_sides=6)
    dice.check_exhausted()
    assert (r.faces, r.total, r.extra_sides) == ((20, 6, 2), 28, 6)
    with pytest.raises(UnexpectedDie):  # the extra die is a d6, the script says d20
        roll_exploding(ScriptedDice([20, "d20=3"]), 20, max_explosions=1, extra_sides=6)


def test_exploding_with_seeded_dice_is_reproducible():
    a, b = SeededDice(7), SeededDice(7)
    assert [roll_exploding(a, 4, max_explosions=3).faces for _ in range(50)] == [
        roll_exploding(b, 4, max_explosions=3).faces for _ in range(50)]
    rolls = SeededDice(3)
    results = [roll_exploding(rolls, 2, max_explosions=2) for _ in range(200)]
    assert max(r.explosions for r in results) == 2
    assert all(r.faces[:-1] == (2,) * r.explosions for r in results)
