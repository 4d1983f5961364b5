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
    with pytest.raises(DiceExhausted, match="asked for 3 more d6 after 0 dice, but the script has 2 left"):
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
