"""The spec's worked examples the CORE engine covers (spec §11: WE-n from the original rules,
C-n constructed), with the §13 stat blocks and forced dice."""

from __future__ import annotations

from dataclasses import replace

from test_metaforce_kit import act, cat, fight, labels, texts

from envs.metaforce.rules import CORE


def adjacent(a, b, **kw):
    """``a`` (side a, acting first) at (0, 0), ``b`` (side b) right next to it; no Reactions."""
    return fight((a, "a", (0, 0)), (b, "b", (0, 1)), aware=False, **kw)


def test_c01_melee_then_a_special_attack_with_knockback():
    enc = adjacent(cat("fighter"), cat("bandit"))
    act(enc, "fighter: attack warhammer -> bandit", ["d12=9", "d12=4", "d6=4"])
    assert enc.by_id["bandit"].hp == 24
    act(enc, "fighter: end_turn", [])
    act(enc, "bandit: end_turn", [])  # next turn
    act(enc, "fighter: special", [])
    act(enc, "bandit: pass", [])  # its Reaction after the fighter's frame
    ev = act(enc, "fighter: attack warhammer -> bandit", ["d12=3", "d12=7", "d6=5", "d10=2"])
    b = enc.by_id["bandit"]
    assert b.hp == 11 and "bandit: knockback intense (magnitude 22)" in texts(ev)
    assert b.pos == (0, 3) and b.stunned is False and b.frame == 2  # its lost frame came first


def test_c02_a_revolver_ignores_deflection():
    enc = adjacent(cat("detective"), cat("fighter"))
    act(enc, "detective: fire revolver 2 -> fighter", ["d12=5", "d12=2", "d6=4", "d12=1", "d6=2"])
    assert enc.by_id["fighter"].hp == 24 and enc.by_id["detective"].loaded["revolver"] == 4


def test_c03_a_crit_against_a_larger_target_takes_size_damage():
    enc = adjacent(cat("fighter"), cat("hill_giant"))
    ev = act(enc, "fighter: attack warhammer -> hill_giant", ["d12=12", "d12=9", "d6=3"])
    assert "fighter puts V 9 on size" in texts(ev) and enc.by_id["hill_giant"].hp == 220


def test_c04_the_giant_crits_the_wizard_and_deus_ex_saves_her():
    enc = fight((cat("hill_giant"), "b", (0, 1)), (cat("wizard"), "a", (0, 0)),
                (cat("fighter"), "a", (8, 0)), aware=False)
    act(enc, "hill_giant: attack great_club -> wizard", ["d12=12", "d12=4", "d6=2"])
    w = enc.by_id["wizard"]
    assert w.hp == 24 - 88 and enc.decision == "deus_ex"
    act(enc, "wizard: deus_ex", [])
    assert (w.state, w.hp, w.mp, w.mp_max) == ("incapacitated", -2, 1, 14)


def test_c05_a_bleeding_bite_ticks_at_intense():
    enc = adjacent(cat("wolf"), cat("wizard"))
    act(enc, "wolf: special", [])
    ev = act(enc, "wolf: attack bite -> wizard", ["d12=6", "d12=10", "d6=3", "d8=5"])
    assert "wizard: bleed intense (magnitude 21)" in texts(ev)  # no Body save for the Wizard
    assert "wizard: bleed (intense) ticks for 6" in texts(ev)  # her turn starts
    assert enc.by_id["wizard"].hp == 24 - 7 - 6


def test_c06_grapple_then_escape():
    enc = adjacent(cat("odonghe_brawler"), cat("bandit"))
    ev = act(enc, "odonghe_brawler: grapple -> bandit", ["d12=11", "d12=6"])
    assert "bandit: grappled intense (magnitude 19)" in texts(ev)
    act(enc, "odonghe_brawler: end_turn", [])
    ev = act(enc, "bandit: escape grappled", ["d12=8", "d12=3", "d6=4"])
    b = enc.by_id["bandit"]
    assert b.magnitude("grappled") == 7 and b.grappled == "full" and b.evasion() == 0


def test_c07_the_meta_die_flag_commits_when_the_band_improves():
    enc = adjacent(cat("fighter"), cat("stone_golem"))
    ev = act(enc, "fighter: attack warhammer -> stone_golem +meta",
             ["d12=1", "d12=1", "d12=4", "d6=1"])
    assert "fighter creates a Meta-Die md12 5: pays 5 MP" in texts(ev)
    assert any("ToHit 14 vs E 6 D 10: direct" in t for t in texts(ev))
    assert enc.by_id["fighter"].mp == 10


def test_c09_a_burn_tick_kills_an_unprotected_foe_before_it_acts():
    enc = fight((cat("fighter"), "a", (0, 0)), (cat("bandit"), "b", (0, 5)), aware=False)
    b = enc.by_id["bandit"]
    b.hp, b.statuses["burn"] = 2, (10, 4, "fighter")  # Full against Body SD 5, X 4 (a d8)
    ev = act(enc, "fighter: end_turn", [])
    assert "bandit: burn (full) ticks for 4" in texts(ev) and "bandit is dead (HP -2)" in texts(ev)
    assert enc.outcome().winner == "a"


def test_c10_the_party_wins_when_the_wolf_dies_and_the_bandit_withdraws():
    enc = fight((cat("fighter"), "a", (5, 5)), (cat("wizard"), "a", (5, 7)),
                (cat("wolf"), "b", (5, 6)), (cat("bandit"), "b", (0, 11)), aware=False,
                order=["fighter", "bandit", "wizard", "wolf"])
    enc.by_id["wolf"].hp = 3
    act(enc, "fighter: attack warhammer -> wolf", ["d12=9", "d12=4", "d6=4"])
    act(enc, "fighter: end_turn", [])
    ev = act(enc, "bandit: withdraw", [])
    assert enc.outcome().winner == "a"
    assert [(c.id, c.state) for c in enc.combatants][2:] == [("wolf", "dead"),
                                                             ("bandit", "retreated")]
    assert "== fight over in round 1: side a wins (defeat) ==" in texts(ev)


def test_we10_to_we12_deflected_blows():
    plate = cat("fighter", armour_resistance={"blunt": 4, "slashing": 4, "piercing": 4})
    enc = adjacent(cat("wolf"), plate)
    act(enc, "wolf: attack bite -> fighter", ["d12=2", "d12=1", "d6=5"])  # 8: E 6 <= 8 <= 10
    assert enc.by_id["fighter"].hp == 54  # floor(9 / 4) - 2 x 4 -> 0
    for option, hp in ((False, 54 - 20), (True, 54 - 39)):
        enc = fight((cat("hill_giant"), "b", (0, 1)), (cat("fighter"), "a", (0, 0)),
                    aware=False, options=replace(CORE, deflection_vs_giants=option))
        act(enc, "hill_giant: attack great_club -> fighter", ["d12=2", "d12=1", "d6=6"])
        assert enc.by_id["fighter"].hp == hp  # 40 deflected: 20, or 39 with the option


def test_we23_the_second_deus_ex_costs_two_max_mp():
    enc = fight((cat("hill_giant"), "b", (0, 1)), (cat("wizard", deus_ex_uses=1), "a", (0, 0)),
                (cat("fighter"), "a", (8, 0)), aware=False)
    act(enc, "hill_giant: attack great_club -> wizard", ["d12=12", "d12=4", "d6=2"])
    act(enc, "wizard: deus_ex", [])
    assert enc.by_id["wizard"].mp_max == 13
    enc = fight((cat("hill_giant"), "b", (0, 1)), (cat("wizard"), "a", (0, 0)),
                (cat("fighter"), "a", (8, 0)), aware=False)
    enc.by_id["wizard"].mp = 0
    ev = act(enc, "hill_giant: attack great_club -> wizard", ["d12=12", "d12=4", "d6=2"])
    assert "wizard is dead (HP -64)" in texts(ev)  # with MP 0 the power fails
    assert labels(enc)
