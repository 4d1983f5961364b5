"""Conditions (envs/core/conditions.py): durations on clocks, stacking rules, ladders, snapshots.

Sizebound spec §4.8, §7.1-7.3; Metaforce spec §7.1, §7.5; Palladium Revised spec §1.4.4, §2.9, §7.
"""

from __future__ import annotations

import doctest
import json
from enum import IntEnum

import pytest

from envs.core import conditions
from envs.core.conditions import (
    Condition,
    ConditionDef,
    ConditionSet,
    ConditionTable,
    Stacking,
    UnknownCondition,
    ladder,
)


class Action(IntEnum):
    JARRED = 1
    STAGGERED = 2
    STUNNED = 3
    PARALYZED = 4
    UNCONSCIOUS = 5


class Fatigue(IntEnum):
    WINDED = 1
    TIRED = 2
    LETHARGIC = 3
    DISABLED = 4


class Fear(IntEnum):
    AFRAID = 1
    PANICKED = 2
    TERRIFIED = 3


SLOTS = 2  # two team turns a round: the Sizebound clock "slot" = (round - 1) * SLOTS + slot


def sizebound_table() -> ConditionTable:
    """Sizebound §7.2/7.3 ladders, durations on the slot clock (§4.8), Unnerved(n) instances."""
    return ConditionTable([
        *ladder("action", Action, clock="slot",
                caps={Action.PARALYZED: SLOTS, Action.UNCONSCIOUS: SLOTS}),
        *ladder("fatigue", Fatigue, clock="slot", nexts={Fatigue.DISABLED: "unconscious"}),
        *ladder("fear", Fear, clock="slot", tops=[Fear.PANICKED],
                nexts={Fear.TERRIFIED: "unconscious"}),
        ConditionDef("unnerved", Stacking.STACK, "slot", stack_same_source=False,
                     bounds=(-10, 5)),
        ConditionDef("prone", Stacking.REPLACE, "slot"),
    ])


def palladium_table() -> ConditionTable:
    """Palladium §7.3: per-stack timers in Seconds; §2.9 same-name rule; Focused Healing refresh."""
    return ConditionTable([
        ConditionDef("numbing", Stacking.STACK, "second", 7, max_stacks=15,
                     stack_other_source=False),
        ConditionDef("ignite", Stacking.REPLACE, "second", 5),
        ConditionDef("focused_healing", Stacking.STACK, "second", 5, refresh=True),
        ConditionDef("ward", Stacking.KEEP_HIGHER, "second", 15),
    ])


def metaforce_table() -> ConditionTable:
    """Metaforce §7.1 magnitudes (keep the higher; lingering ones add), §7.5 Stun N in frames."""
    return ConditionTable([
        ConditionDef("poison", Stacking.KEEP_HIGHER, "round"),
        ConditionDef("acid_burn", Stacking.ADD, "round"),
        ConditionDef("stun", Stacking.EXTEND, "frame"),
    ])


def names(s: ConditionSet) -> list[str]:
    return [c.name for c in s]


def test_doctests():
    assert doctest.testmod(conditions).failed == 0


def test_ladder_records_from_an_int_enum():
    rows = {d.name: d for d in sizebound_table()}
    assert rows["jarred"].escalates_to == "staggered" and rows["jarred"].rung == 1
    assert rows["paralyzed"].escalation_cap == SLOTS
    assert rows["unconscious"].escalates_to is None  # the top of the action ladder
    assert rows["panicked"].escalates_to is None  # Sizebound §7.1: no named next step
    assert rows["disabled"].escalates_to == "unconscious"  # off the fatigue ladder


def test_the_action_ladder_escalates_at_the_effective_rung():
    """Sizebound §7.1: Jarred + Jarred gives Staggered; Staggered + Staggered gives Stunned."""
    s = ConditionSet(sizebound_table())
    first = s.add("jarred", now=1, duration=4)
    assert (names(s), s.rung("action"), first.escalated) == (["jarred"], 1, False)
    second = s.add("jarred", now=2, duration=4)
    assert second.escalated and [c.name for c in second.added] == ["staggered"]
    assert names(s) == ["jarred", "staggered"] and s.rung("action") == 2
    assert s.instances("staggered")[0].expires_at == 6  # as long as the new application
    s.add("jarred", now=2, duration=4)  # a lower rung is stored, no immediate effect
    assert names(s) == ["jarred", "staggered", "jarred"] and s.rung("action") == 2
    s.add("staggered", now=3, duration=6)
    assert s.rung("action") == 3 and s.instances("stunned")[0].expires_at == 9


def test_escalation_is_capped_and_the_top_adds_another_instance():
    """Sizebound §7.2: Paralyzed and Unconscious from escalation last at most 1 round."""
    s = ConditionSet(sizebound_table())
    s.add("stunned", now=1, duration=10)
    s.add("stunned", now=1, duration=10)
    para = s.instances("paralyzed")
    assert len(para) == 1 and para[0].expires_at == 1 + SLOTS
    s.add("paralyzed", now=2, duration=10)
    assert s.rung("action") == 5 and s.instances("unconscious")[0].expires_at == 2 + SLOTS
    s.add("unconscious", now=2, duration=6)  # the top: another instance of the same rung
    assert [c.expires_at for c in s.instances("unconscious")] == [4, 8]


def test_a_forever_application_escalates_into_the_capped_step():
    s = ConditionSet(sizebound_table())
    s.add("stunned", forever=True)
    s.add("stunned", now=3, forever=True)
    assert s.instances("stunned")[0].expires_at is None
    assert s.instances("paralyzed")[0].expires_at == 3 + SLOTS


def test_when_the_higher_rung_expires_the_stored_lower_one_takes_over():
    s = ConditionSet(sizebound_table())
    s.add("jarred", now=0, duration=2)
    s.add("jarred", now=0, duration=2)  # staggered until 2
    s.add("jarred", now=1, duration=5)  # stored: jarred until 6
    assert s.rung("action") == 2
    gone = s.tick("slot", 2)
    assert [c.name for c in gone] == ["jarred", "staggered"]
    assert s.rung("action") == 1 and s.instances("jarred")[0].expires_at == 6


def test_escalation_off_a_ladder_and_a_top_with_no_next_step():
    """Sizebound §7.3: Disabled + Disabled gives Unconscious; Panicked + Panicked stays Panicked."""
    s = ConditionSet(sizebound_table())
    s.add("disabled", now=0, duration=8)
    result = s.add("disabled", now=0, duration=8)
    assert [c.name for c in result.added] == ["unconscious"] and s.rung("action") == 5
    assert s.rung("fatigue") == 4
    s.add("panicked", now=0)
    s.add("panicked", now=0)
    assert s.stacks("panicked") == 2 and s.rung("fear") == 2 and "terrified" not in s


def test_unnerved_instances_add_up_clamped_and_one_source_does_not_stack_with_itself():
    """Sizebound §7.1/§7.2: Unnerved(n) instances add, total in [-10, +5]; same source replaces."""
    s = ConditionSet(sizebound_table())
    s.add("unnerved", value=-4, source="roar_a", now=0, duration=4)
    s.add("unnerved", value=-4, source="roar_b", now=0, duration=4)
    assert s.value("unnerved") == -8 and s.stacks("unnerved") == 2
    again = s.add("unnerved", value=-3, source="roar_a", now=1, duration=4)
    assert [c.value for c in again.removed] == [-4]
    assert s.value("unnerved") == -7
    s.add("unnerved", value=-6, source="curse", now=1)
    assert s.value("unnerved") == -10  # -13, clamped
    s.clear()
    s.add("unnerved", value=9, source="bless")
    assert s.value("unnerved") == 5


def test_sizebound_n_rounds_expire_at_the_start_of_the_same_slot_n_rounds_later():
    """Sizebound §4.8: applied in slot 2 of round 1 for 1 round: ends at the start of slot 2 of
    round 2 (clock = (round - 1) * 2 + slot)."""
    s = ConditionSet(sizebound_table())
    s.add("jarred", now=2, duration=1 * SLOTS)
    assert s.tick("slot", 3) == () and "jarred" in s  # round 2, slot 1
    assert [c.name for c in s.tick("slot", 4)] == ["jarred"] and len(s) == 0


def test_palladium_numbing_stacks_keep_their_own_timers_up_to_fifteen():
    """Palladium §7.3.2 and R6: each stack 7 s with its own timer, at most 15; §1.4.4: a stack
    applied in Second t is active until the end of Second t + 7."""
    s = ConditionSet(palladium_table())
    for t in range(1, 18):
        s.add("numbing", now=t, source="frost")
    assert s.stacks("numbing") == 15
    assert [c.applied_at for c in s.instances("numbing")][:2] == [3, 4]  # the oldest went first
    assert s.tick("second", 9) == ()
    assert [c.applied_at for c in s.tick("second", 11)] == [3, 4]
    assert s.tick("round", 99) == ()  # another clock


def test_palladium_same_name_debuff_from_another_controller_replaces():
    """Palladium §2.9: same controller and stackable adds stacks; otherwise the new replaces."""
    s = ConditionSet(palladium_table())
    s.add("numbing", now=1, source="a")
    s.add("numbing", now=2, source="a")
    result = s.add("numbing", now=3, source="b")
    assert len(result.removed) == 2 and [c.source for c in s] == ["b"]
    s.add("ignite", now=3, source="a", value=4)
    s.add("ignite", now=4, source="a", value=2)
    assert [(c.value, c.expires_at) for c in s.instances("ignite")] == [(2, 9)]


def test_a_refreshing_stack_gives_every_stack_the_new_timer():
    """Palladium §7.5 Focused Healing: unlimited stacks, a new stack refreshes all."""
    s = ConditionSet(palladium_table())
    s.add("focused_healing", now=1)
    s.add("focused_healing", now=4)
    assert [c.expires_at for c in s.instances("focused_healing")] == [9, 9]
    assert [c.applied_at for c in s.instances("focused_healing")] == [1, 4]
    assert len(s.tick("second", 9)) == 2


def test_keep_higher_ties_to_the_new_one():
    """Metaforce §7.1 re-application and Palladium §2.9 buffs (ties: the new one)."""
    s = ConditionSet(metaforce_table())
    s.add("poison", value=9, source="a")
    assert s.add("poison", value=7, source="b").added == ()
    assert [(c.value, c.source) for c in s] == [(9, "a")]
    s.add("poison", value=9, source="c")
    assert [(c.value, c.source) for c in s] == [(9, "c")]


def test_lingering_magnitudes_add_and_stun_keeps_the_larger_remainder():
    """Metaforce §7.1 (R-17) lingering statuses add; §7.5 (R-14) Stun: the larger of the two."""
    s = ConditionSet(metaforce_table())
    s.add("acid_burn", value=6)
    s.add("acid_burn", value=5)
    assert s.value("acid_burn") == 11 and s.stacks("acid_burn") == 1
    s.add("stun", now=10, duration=2, value=2)
    s.add("stun", now=11, duration=1, value=1)
    assert [(c.value, c.expires_at) for c in s.instances("stun")] == [(2, 12)]
    s.add("stun", now=11, duration=3, value=3)
    assert [(c.value, c.expires_at) for c in s.instances("stun")] == [(3, 14)]
    assert [c.name for c in s.tick("frame", 14)] == ["stun"]


def test_remove_by_source_and_clear():
    s = ConditionSet(sizebound_table())
    s.add("unnerved", value=-1, source="a")
    s.add("unnerved", value=-2, source="b")
    s.add("prone")
    assert [c.source for c in s.remove("unnerved", source="a")] == ["a"]
    assert s.value("unnerved") == -2
    assert len(s.clear()) == 2 and len(s) == 0


def test_snapshot_round_trip_is_json_and_copies_are_independent():
    s = ConditionSet(sizebound_table())
    s.add("jarred", now=1, duration=2)
    s.add("jarred", now=1, duration=2)
    s.add("unnerved", value=-3, source="roar")
    data = json.loads(json.dumps(s.to_dict()))
    back = ConditionSet.from_dict(data, sizebound_table())
    assert list(back) == list(s) and back.rung("action") == 2
    assert data[1] == {"name": "staggered", "value": 0, "source": "", "applied_at": 1,
                       "expires_at": 3, "clock": "slot"}
    twin = s.copy()
    twin.add("prone")
    assert "prone" in twin and "prone" not in s


def test_unknown_names_list_the_known_ones_and_bad_tables_fail():
    s = ConditionSet(metaforce_table())
    known = r"unknown condition 'poisn' \(known: acid_burn, poison, stun\)"
    with pytest.raises(UnknownCondition, match=known):
        s.add("poisn")
    with pytest.raises(UnknownCondition):
        ConditionSet.from_dict([{"name": "nope"}], metaforce_table())
    with pytest.raises(ValueError, match="defined twice"):
        ConditionTable([ConditionDef("a"), ConditionDef("a")])
    with pytest.raises(ValueError, match="escalates to unknown 'b'"):
        ConditionTable([ConditionDef("a", Stacking.LADDER, ladder="x", rung=1, escalates_to="b")])
    with pytest.raises(ValueError, match="needs a ladder"):
        ConditionDef("a", Stacking.LADDER)
    assert Condition("x").to_dict()["expires_at"] is None
