"""Resistance, final rank 0, stacks, Fuel, affordability and Exploit (spec §2.4, §5.3, §7.4, §9,
RULING R8, R9, R10, R13, R40)."""

from __future__ import annotations

from metanoia_kit import ab, blk, c, fight, has_in_order, injuries, item, legal, play, resist, unit


def attacker(**kw):
    return blk(
        abilities=[ab("strike", 2, polarity="storm")],
        items=[item("club", 3, "strike", polarity="decay")],
        **kw,
    )


def test_resistance_reduces_matching_polarity():
    """§2.4 [S]: Resistance (P) R reduces a landing keyword of polarity P by R (Strike 2 storm - 1 =
    1)."""
    enc = fight(unit("a", "A", attacker()), unit("t", "B", blk(passives=[resist("storm", 1)])))
    play(enc, [6, 1, 1, 1], "a: attack strike -> t", "t: react none")
    assert injuries(enc, "t") == [("strike", 1)]


def test_resistance_ignores_other_polarities():
    """§2.4 [S]: Resistance names one polarity; the decay club lands its full rank 3."""
    enc = fight(unit("a", "A", attacker()), unit("t", "B", blk(passives=[resist("storm", 2)])))
    play(enc, [6, 1, 1, 1], "a: attack strike@club -> t", "t: react none")
    assert injuries(enc, "t") == [("strike", 3)]


def test_final_rank_zero_lands_nothing_but_stacks_land():
    """RULING R13: final rank 0 lands nothing (no slot), but the margin stacks still land."""
    enc = fight(unit("a", "A", attacker()), unit("t", "B", blk(passives=[resist("storm", 2)])))
    log = play(enc, [6, 6, 1, 1], "a: attack strike -> t", "t: react none")
    assert injuries(enc, "t") == []
    assert c(enc, "t")["stacks"] == 4
    assert any("[Strike] lands nothing on t" in line for line in log)


def test_resistance_above_rank_lands_nothing():
    """§2.4: final = max(0, r - resistance); a Condition at final 0 applies no status (R13)."""
    enc = fight(unit("a", "A", blk(abilities=[ab("pin", 1, polarity="storm")])),
                unit("t", "B", blk(passives=[resist("storm", 3)])))
    play(enc, [6, 1, 1, 1], "a: condition pin -> t", "t: react none")
    assert c(enc, "t")["statuses"] == {} and c(enc, "t")["stacks"] == 2


def test_resistance_zero_argue_removes_no_conviction():
    """RULING R13: an Argue at final rank 0 removes no Conviction and drains no Strain."""
    enc = fight(unit("a", "A", blk(abilities=[ab("demoralize", 1, polarity="will")])),
                unit("t", "B", blk(passives=[resist("will", 1)])))
    play(enc, [6, 1, 1, 1], "a: argue demoralize -> t", "t: react none")
    assert c(enc, "t")["conv"] == 3 and c(enc, "t")["strain"] == 6 and c(enc, "t")["stacks"] == 2


def test_stacks_go_to_the_loser_by_margin():
    """§5.2 step 9 [S]: the loser gains stacks equal to the margin."""
    enc = fight(unit("a", "A", attacker()), unit("t", "B", blk()))
    play(enc, [1, 1, 6, 4], "a: attack strike@club -> t", "t: react none")
    assert c(enc, "a")["stacks"] == 3 and c(enc, "t")["stacks"] == 0


def test_stacks_cap_at_10():
    """RULING R9: at most 10 stacks on one creature; the excess is lost."""
    enc = fight(unit("a", "A", attacker()), unit("t", "B", blk(), stacks=9))
    log = play(enc, [6, 6, 1, 1], "a: attack strike@club -> t", "t: react none")
    assert c(enc, "t")["stacks"] == 10
    assert any("t gains 1 stack (now 10)" in line for line in log)


def test_fuel_pays_from_target_stacks_first():
    """RULING R10: a Fuel keyword's Strain cost is paid from stacks on its target first."""
    enc = fight(unit("a", "A", attacker()), unit("t", "B", blk(), stacks=2))
    log = play(enc, [1, 1, 1, 1], "a: attack strike -> t", "t: react none")
    assert c(enc, "a")["strain"] == 6
    assert c(enc, "t")["stacks"] == 1
    assert any("a pays 1 stack from t (attack)" in line for line in log)


def test_fuel_never_pays_traits():
    """§2.3, RULING R10: Motive/Identity are always paid in Strain, even with stacks to Fuel."""
    enc = fight(unit("a", "A", attacker()), unit("t", "B", blk(), stacks=1))
    play(enc, [1, 1, 1, 1, 1], "a: attack strike -> t +motive", "t: react none")
    assert c(enc, "a")["strain"] == 5 and c(enc, "t")["stacks"] == 0


def test_fuel_only_from_the_keywords_target():
    """RULING R10: stacks on the Actor itself do not Fuel its attack (they sit on the wrong
    creature)."""
    enc = fight(unit("a", "A", attacker(), stacks=3), unit("t", "B", blk()))
    play(enc, [1, 1, 1, 1], "a: attack strike -> t", "t: react none")
    assert c(enc, "a")["strain"] == 5 and c(enc, "a")["stacks"] == 3


def test_non_fuel_keyword_pays_strain():
    """§5.3 #4: Slip has no Fuel clause; its cost is Strain even when the Actor carries stacks."""
    enc = fight(unit("a", "A", attacker(), stacks=3),
                unit("t", "B", blk(abilities=[ab("slip", 2)])))
    play(enc, [1, 1, 1, 1], "a: attack strike@club -> t", "t: react slip")
    assert c(enc, "t")["strain"] == 5 and c(enc, "a")["stacks"] == 3


def test_item_keyword_is_free():
    """§2.4 [S]: item keywords cost 0 Strain."""
    enc = fight(unit("a", "A", attacker()), unit("t", "B", blk()))
    play(enc, [1, 1, 1, 1], "a: attack strike@club -> t", "t: react none")
    assert c(enc, "a")["strain"] == 6


def test_costs_not_refunded_on_a_loss():
    """RULING R8: costs paid at declaration are kept whatever the outcome."""
    enc = fight(unit("a", "A", attacker()), unit("t", "B", blk()))
    play(enc, [1, 1, 1, 6, 6], "a: attack strike -> t +motive", "t: react none")
    assert c(enc, "a")["strain"] == 4 and c(enc, "a")["stacks"] == 4


def test_unaffordable_combination_is_not_legal():
    """RULING R40: Strain >= trait cost + option cost; with 1 Strain the ability Strike (cost 1)
    is legal alone but not with a trait; the free item Strike is legal with one trait."""
    enc = fight(unit("a", "A", attacker(), strain=1), unit("t", "B", blk()))
    labels = legal(enc)
    assert "a: attack strike -> t" in labels
    assert "a: attack strike -> t +motive" not in labels
    assert "a: attack strike@club -> t +motive" in labels
    assert "a: attack strike@club -> t +motive+identity" not in labels


def test_fuel_makes_a_combination_affordable():
    """RULING R40: Fuel-able stacks on the target count toward the option cost."""
    enc = fight(unit("a", "A", attacker(), strain=1), unit("t", "B", blk(), stacks=1))
    assert "a: attack strike -> t +motive" in legal(enc)


def test_unaffordable_reaction_is_not_legal():
    """RULING R40: a Reactor with 2 Strain cannot pay Counter 3 (no stacks on the Actor)."""
    enc = fight(
        unit("a", "A", attacker()), unit("t", "B", blk(abilities=[ab("counter", 3)]), strain=2)
    )
    play(enc, [], "a: attack strike@club -> t", exhaust=False)
    labels = legal(enc)
    assert "t: react counter" not in labels and "t: react none +motive+identity" in labels


def test_reaction_affordable_with_fuel_from_actor():
    """RULING R10/R40: stacks on the Actor Fuel the Reactor's Counter (2 Strain + 1 stack = 3),
    but then not a trait as well."""
    enc = fight(
        unit("a", "A", attacker(), stacks=1),
        unit("t", "B", blk(abilities=[ab("counter", 3)]), strain=2),
    )
    play(enc, [], "a: attack strike@club -> t", exhaust=False)
    labels = legal(enc)
    assert "t: react counter" in labels and "t: react counter +motive" not in labels


def test_exploit_spends_target_stacks_for_dice():
    """§5.3 #7: Exploit removes min(rank, stacks) from the target before the roll and adds that many
    dice; the stacks are gone whatever the result."""
    enc = fight(unit("a", "A", blk(abilities=[ab("exploit", 2)])), unit("t", "B", blk(), stacks=3))
    log = play(enc, [1, 1, 1, 1, 1, 1], "a: attack exploit -> t", "t: react none")
    assert has_in_order(
        log, "t loses 2 stacks (now 1) [a's Exploit]", "a rolls 4d6 (2 base, +2 Exploit)"
    )
    assert c(enc, "t")["stacks"] == 1
    assert c(enc, "a")["strain"] == 6  # Exploit costs 0


def test_exploit_limited_by_available_stacks():
    """§5.3 #7: with 1 stack on the target only 1 extra die."""
    enc = fight(unit("a", "A", blk(abilities=[ab("exploit", 2)])), unit("t", "B", blk(), stacks=1))
    log = play(enc, [1, 1, 1, 1, 1], "a: attack exploit -> t", "t: react none")
    assert any("a rolls 3d6 (2 base, +1 Exploit)" in line for line in log)
    assert c(enc, "t")["stacks"] == 0


def test_exploit_landed_is_an_injury_of_its_rank():
    """§5.3 #7: a landed Exploit fills a slot with severity R; margin stacks land after the
    spend."""
    enc = fight(unit("a", "A", blk(abilities=[ab("exploit", 2)])), unit("t", "B", blk(), stacks=2))
    play(enc, [6, 6, 1, 1, 1, 1], "a: attack exploit -> t", "t: react none")
    assert injuries(enc, "t") == [("exploit", 2)]
    assert c(enc, "t")["stacks"] == 4
