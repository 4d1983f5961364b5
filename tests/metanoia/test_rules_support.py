"""Support keywords: Mend, Clear, Rally, Hidden (spec §5.3 #9-#12, §5.8, RULING R12, R31, R33;
§11.2 X4). Support is automatic: no dice are drawn (every test plays with an empty script)."""

from __future__ import annotations

from metanoia_kit import ab, blk, c, fight, injuries, legal, play, unit


def medic(**kw):
    return blk(
        polarity="verdant",
        abilities=[ab("mend", 2), ab("clear", 2), ab("rally", 2, reach="far"), ab("hidden", 2)],
        **kw,
    )


def medic_situation(ally_zone: int = 1, medic_kw=None, **ally_state):
    return fight(
        unit("medic", "A", medic(**(medic_kw or {}))),
        unit("ally", "A", blk(injury_slots=5), zone=ally_zone, **ally_state),
        unit("foe", "B", blk(), zone=2),
    )


def test_mend_heals_lowest_severity_slot():
    """RULING R33: Mend works on the filled slot with the lowest severity."""
    enc = medic_situation(injuries=[["strike", 3], ["strike", 1], ["counter", 2]])
    play(enc, [], "medic: support mend -> ally")
    assert injuries(enc, "ally") == [("strike", 3), ("counter", 2)]


def test_mend_tie_goes_to_most_recent_slot():
    """RULING R33: among equal severities, the most recently filled slot."""
    enc = medic_situation(injuries=[["strike", 3], ["counter", 3]])
    play(enc, [], "medic: support mend -> ally")
    assert injuries(enc, "ally") == [("strike", 3), ("counter", 1)]


def test_mend_spends_only_needed_stacks():
    """RULING R33, §11.2 X4: s = min(stacks, max(0, severity - R)): severity 3, Mend 2, 5 stacks ->
    1 stack spent, slot emptied."""
    enc = medic_situation(injuries=[["deteriorating", 3]], stacks=5)
    log = play(enc, [], "medic: support mend -> ally")
    assert injuries(enc, "ally") == [] and c(enc, "ally")["stacks"] == 4
    assert any("ally loses 1 stack (now 4) [medic's Mend]" in line for line in log)


def test_mend_spends_no_stacks_when_rank_suffices():
    """RULING R33: no surplus stacks are spent (severity 2 <= Mend 2)."""
    enc = medic_situation(injuries=[["strike", 2]], stacks=3)
    play(enc, [], "medic: support mend -> ally")
    assert injuries(enc, "ally") == [] and c(enc, "ally")["stacks"] == 3


def test_mend_partial_heal():
    """§5.3 #9: severity 6 - (Mend 2 + 1 stack) = 3 remains in the slot."""
    enc = medic_situation(injuries=[["strike", 6]], stacks=1)
    log = play(enc, [], "medic: support mend -> ally")
    assert injuries(enc, "ally") == [("strike", 3)] and c(enc, "ally")["stacks"] == 0
    assert any("ally's [Strike] Injury drops from 6 to 3" in line for line in log)


def test_mend_costs_strain_only():
    """§5.3 #9: Mend costs 1 Strain and never Fuels from stacks."""
    enc = medic_situation(injuries=[["strike", 1]], stacks=3)
    play(enc, [], "medic: support mend -> ally")
    assert c(enc, "medic")["strain"] == 5 and c(enc, "ally")["stacks"] == 3


def test_mend_illegal_without_injury():
    """§5.3 #9: Mend is illegal on a target with no Injury."""
    enc = medic_situation()
    assert not any("mend" in label for label in legal(enc))


def test_mend_close_reach_and_self_target():
    """R12, §3.2: Mend (close) reaches an ally only in the same zone; self is a legal target."""
    enc = medic_situation(ally_zone=0, injuries=[["strike", 1]])
    assert "medic: support mend -> ally" not in legal(enc)
    enc = fight(
        unit("medic", "A", medic(), injuries=[["strike", 1]]), unit("foe", "B", blk(), zone=2)
    )
    play(enc, [], "medic: support mend -> medic")
    assert injuries(enc, "medic") == []


def test_support_has_no_realm_multiplier():
    """RULING R12: support takes effect at its invoked rank, no Realm multiplier (Realm 2 Mend 2
    reduces severity 4 to 2)."""
    enc = fight(
        unit("medic", "A", medic(realm=2)),
        unit("ally", "A", blk(), injuries=[["strike", 4]]),
        unit("foe", "B", blk(), zone=2),
    )
    play(enc, [], "medic: support mend -> ally")
    assert injuries(enc, "ally") == [("strike", 2)]


def test_support_never_targets_enemies():
    """RULING R12: support keywords may target only self or allies."""
    enc = fight(unit("medic", "A", medic(), stacks=1), unit("foe", "B", blk(), zone=1, stacks=3,
                                                              injuries=[["strike", 1]], conv=1))
    assert not any(label.endswith("-> foe") and "support" in label for label in legal(enc))


def test_clear_removes_up_to_rank_stacks():
    """§5.3 #10 [S purpose]: Clear removes up to R stacks from self or an ally."""
    enc = medic_situation(stacks=3)
    play(enc, [], "medic: support clear -> ally")
    assert c(enc, "ally")["stacks"] == 1 and c(enc, "medic")["strain"] == 5


def test_clear_fewer_stacks_than_rank():
    """§5.3 #10: with 1 stack, Clear 2 removes 1."""
    enc = medic_situation(stacks=1)
    play(enc, [], "medic: support clear -> ally")
    assert c(enc, "ally")["stacks"] == 0


def test_clear_illegal_at_zero_stacks():
    """§5.3 #10: Clear is illegal if the target has 0 stacks."""
    assert not any("clear" in label for label in legal(medic_situation()))


def test_rally_restores_up_to_rank_convictions():
    """§5.3 #11: Rally regains up to R lost Convictions (1 -> 3)."""
    enc = medic_situation(conv=1)
    play(enc, [], "medic: support rally -> ally")
    assert c(enc, "ally")["conv"] == 3 and c(enc, "medic")["strain"] == 4


def test_rally_only_up_to_lost():
    """§5.3 #11: Rally 2 with one lost Conviction regains 1."""
    enc = medic_situation(conv=2)
    play(enc, [], "medic: support rally -> ally")
    assert c(enc, "ally")["conv"] == 3


def test_rally_fuels_from_target_stacks():
    """§5.3 #11 (Fuel), RULING R10: Rally's cost 2 is paid from the ally's stacks first."""
    enc = medic_situation(conv=1, stacks=2)
    play(enc, [], "medic: support rally -> ally")
    assert c(enc, "medic")["strain"] == 6 and c(enc, "ally")["stacks"] == 0


def test_rally_far_reach():
    """§5.3 #11: Rally has far reach (ally in another zone)."""
    assert "medic: support rally -> ally" in legal(medic_situation(ally_zone=0, conv=1))


def test_rally_illegal_when_full_or_mindless():
    """§5.3 #11: illegal with no lost Conviction or on a mindless target."""
    assert not any("rally" in label for label in legal(medic_situation()))
    enc = fight(
        unit("medic", "A", medic()),
        unit("ally", "A", blk(convictions="none")),
        unit("foe", "B", blk(), zone=2),
    )
    assert "medic: support rally -> ally" not in legal(enc)


def test_hidden_conceals_an_ally_even_under_enemy_eyes():
    """§5.3 #12: Hidden R gives [Hidden R]; unlike Hide, no enemy-in-zone restriction."""
    enc = fight(
        unit("medic", "A", medic()), unit("ally", "A", blk()), unit("foe", "B", blk(), zone=1)
    )
    play(enc, [], "medic: support hidden -> ally")
    assert c(enc, "ally")["statuses"] == {"hidden": 2} and c(enc, "ally")["concealed"]
    assert c(enc, "medic")["strain"] == 4


def test_support_does_not_end_concealment():
    """§5.8, §7.2: support keywords do not end the user's concealment."""
    enc = fight(
        unit("medic", "A", medic(), statuses={"obscured": 2}),
        unit("ally", "A", blk(), stacks=2),
        unit("foe", "B", blk(), zone=2),
    )
    play(enc, [], "medic: support clear -> ally")
    assert c(enc, "medic")["statuses"] == {"obscured": 2}
