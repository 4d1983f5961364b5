"""FULL statuses with forced dice (spec §7.1, §7.4, §7.5, §5.10, §8.7, R-17, R-39): Poison, Acid
Burn (lingering), Slow, Fear, Charm, Sleep, Deafened, and the "all Charmed" end of combat.

The attacker is the Bandit (§13.1) with its mace's Special Attack status replaced: Advantage,
ToHit K + 5, damage 4 + d6, and under a Special Attack ``M = K + STR die md6 + d6 + 3``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from test_metaforce_kit import act, block, cat, fight, labels, texts

from envs.metaforce.rules import CORE, FULL, MetaforceEncounter
from envs.metaforce.rules.describe import describe
from envs.metaforce.rules.full_statuses import slow_no_dash

OPTS = replace(FULL, unaware_bonus=False)
HIT = ["d12=7", "d12=3", "d6=4", "d6=3"]
"""(7, 3) keeps 7: ToHit 12, direct; 4 + d6 4 = 8 damage; M = 7 + md6 3 + 4 + 3 = 17"""


def armed(cid: str, status: str, **kw: Any) -> Any:
    mace = replace(cat("bandit").weapon("mace"), special_status=status, **kw)
    return block(cid, weapons=(mace,))


def duel(status: str, *more: Any, options: Any = OPTS, target: Any = None) -> Any:
    """``a`` (Bandit, mace carrying ``status``) adjacent to ``b`` (Bandit), ``a`` first."""
    return fight((armed("a", status), "x", (5, 5)), (target or block("b"), "y", (5, 6)), *more,
                 options=options, aware=False)


def hit(enc: Any, status: str, dice: list[str] = HIT, target: str = "b") -> list[str]:
    act(enc, "a: special", [])
    while enc.decision == "reaction":  # a W-R1 window after the setup frame: let it go
        act(enc, f"{enc.current_actor()}: pass", [])
    return texts(act(enc, f"a: attack mace -> {target}", dice))


def test_core_carries_none_of_the_full_statuses():
    enc = duel("fear", options=CORE)
    assert "a: special" not in labels(enc)
    enc = duel("fear")
    assert "a: special" in labels(enc)
    assert "a sets up a Special Attack (fear)" in texts(act(enc, "a: special", []))


def test_slow_intense_halves_speed_forbids_dash_and_ends_after_the_victims_next_turn():
    enc = duel("slow")
    ev = hit(enc, "slow")
    assert "b: slow intense (magnitude 17)" in ev  # 17 >= Reflex SD 4 + 10; no AGI save
    b = enc.by_id["b"]
    assert b.speed_squares() == 1  # 15 ft = 3 squares, halved
    assert not any(x.startswith("b: dash") for x in labels(enc))
    assert "b: escape slow" in labels(enc)
    ev = texts(act(enc, "b: end_turn", []))
    assert "b: slow ended (magnitude 0)" in ev and "slow" not in b.statuses
    assert b.speed_squares() == 3


def test_slow_partial_takes_five_feet_and_full_halves():
    enc = duel("slow")
    b = enc.by_id["b"]
    b.statuses["slow"] = (3, 0, "a")  # < Reflex SD 4: Partial
    assert b.speed_squares() == 2
    b.statuses["slow"] = (9, 0, "a")  # Full
    assert b.speed_squares() == 1 and not slow_no_dash(b)


def test_breaking_slow_with_agi():
    enc = duel("slow")
    hit(enc, "slow")
    ev = texts(act(enc, "b: escape slow", ["d12=9"]))  # AGI 1 flat, not proficient: 10
    assert "b escape:slow: d12 9 = 10" in ev and "b: slow full (magnitude 7)" in ev
    assert "b: escape slow" not in labels(enc)  # one check per frame per status


def test_fear_intense_masks_the_source_forces_the_retreat_and_drains_hp():
    enc = duel("fear")
    ev = hit(enc, "fear")
    assert "b: fear intense (magnitude 17)" in ev  # >= Mind SD 2 + 10; the Bandit has no Mind save
    # its turn began: 17 HP lost within 60 ft of the source
    assert "b is terrified of a and loses 17 HP" in ev
    assert enc.by_id["b"].hp == 36 - 8 - 17
    legal = labels(enc)
    assert not any("-> a" in x and "retreat -> a" not in x for x in legal)
    assert "b: pass" not in legal and "b: special" not in legal  # it has to run
    assert {"b: pass retreat -> a", "b: dash retreat -> a", "b: escape fear",
            "b: end_turn"} <= set(legal)


def test_fear_full_lets_it_attack_another_foe_then_flee():
    c = block("c")
    enc = fight((armed("a", "fear"), "x", (5, 5)), (block("b"), "y", (5, 6)),
                (c, "x", (6, 7)), options=OPTS, aware=False, order=["a", "b", "c"])
    b = enc.by_id["b"]
    b.statuses["fear"] = (5, 0, "a")  # Mind SD 2: Full
    act(enc, "a: end_turn", [])
    legal = labels(enc)
    assert "b: attack mace -> c" in legal and "b: attack mace retreat -> c" not in legal
    assert "b: attack mace -> a" not in legal
    words = describe(enc.parse_action("b: attack mace -> c"), enc)
    assert words.startswith("attack the Bandit [c]") and words.endswith(
        ", then flee from the Bandit [a]")
    ev = texts(act(enc, "b: attack mace -> c", ["d12=2", "d12=1", "d6=1"]))
    assert any(x.startswith("b moves (flee)") for x in ev)
    assert b.y > 6  # farther from a


def test_fear_partial_costs_a_step_on_attacks_at_the_source():
    enc = duel("fear", options=OPTS)
    enc.by_id["a"].statuses["fear"] = (1, 0, "b")  # Mind SD 2: Partial
    ev = texts(act(enc, "a: attack mace -> b", ["d12=7", "d6=4"]))  # S +1 - 1: one die
    assert "a attacks b with mace: d12 7 (S +0) ToHit 12 vs E 6 D 6: direct" in ev


def test_charm_masks_harm_to_the_controllers_side_and_ends_with_the_controller():
    enc = fight((armed("a", "charm"), "x", (5, 5)), (block("b"), "y", (5, 6)),
                (block("c"), "x", (4, 7)), (block("d"), "y", (0, 11)), options=OPTS,
                aware=False, order=["a", "b", "c", "d"])
    ev = hit(enc, "charm")
    assert "b: charm intense (magnitude 17)" in ev
    legal = labels(enc)
    assert not any(x.startswith(("b: attack", "b: grapple")) for x in legal)
    assert "b: escape charm" not in legal  # no Break at Intense
    assert "b: pass retreat -> c" in legal  # moving is no harm
    a = enc.by_id["a"]
    a.hp = 1
    from envs.metaforce.rules.damage import knock_out
    evs: list[Any] = []
    knock_out(enc, evs, a, "incapacitated")
    assert "b: charm ended (magnitude 0)" in texts(evs) and "charm" not in enc.by_id["b"].statuses


def test_charm_full_can_be_broken_with_cha():
    enc = duel("charm", (block("d"), "y", (0, 11)))
    b = enc.by_id["b"]
    b.statuses["charm"] = (6, 0, "a")  # Mind SD 2: Full
    act(enc, "a: end_turn", [])
    assert "b: escape charm" in labels(enc)
    ev = texts(act(enc, "b: escape charm", ["d12=6"]))  # CHA 0: 6
    assert "b: charm ended (magnitude 0)" in ev


def test_every_active_foe_charmed_ends_the_fight():
    enc = duel("charm")
    ev = hit(enc, "charm")
    assert "side x wins" in ev[-1] or any("side x wins" in x for x in ev)
    assert enc.outcome().winner == "x" and enc.outcome().reason == "all_charmed"


def test_sleep_full_loses_frames_has_evasion_0_and_damage_wakes_it():
    enc = duel("sleep")
    # (2, 1) keeps 2: ToHit 7, direct; 4 + 1 = 5; M = 2 + md6 (1 -> 2) + 1 + 3 = 8, Full
    ev = hit(enc, "sleep", ["d12=2", "d12=1", "d6=1", "d6=1"])
    assert "b: sleep full (magnitude 8)" in ev
    assert ev.count("b is asleep and loses a frame") == 2  # its whole turn
    b = enc.by_id["b"]
    assert b.evasion() == 0 and not b.can_react() and enc.is_active("b")
    ev = texts(act(enc, "a: attack mace -> b", ["d12=1", "d12=1", "d6=2"]))
    assert "a attacks b with mace: d12 1/1 (S +1) ToHit 6 vs E 0 D 4: direct" in ev
    assert "b: sleep ended (magnitude 0)" in ev and b.evasion() == 6


def test_sleep_intense_is_not_active_and_ends_a_fight():
    enc = duel("sleep")
    ev = hit(enc, "sleep")
    assert "b: sleep intense (magnitude 17)" in ev
    assert not enc.is_active("b") and enc.outcome().winner == "x"


def test_drowsy_cannot_have_advantage():
    enc = duel("sleep")
    a = enc.by_id["a"]
    a.statuses["sleep"] = (1, 0, "b")  # Partial
    ev = texts(act(enc, "a: attack mace -> b", ["d12=7", "d6=4"]))
    assert "a attacks b with mace: d12 7 (S +0) ToHit 12 vs E 6 D 6: direct" in ev


def test_poison_ticks_and_the_golem_is_immune():
    enc = duel("poison")
    ev = hit(enc, "poison", HIT + ["d12=3"])  # Body save 3 + END 2 = 5 < TN 10
    assert "b body save d12 3 = 5 vs TN 10: failure" in ev
    assert "b: poison intense (magnitude 17)" in ev  # 17 >= Body SD 5 + 10
    assert "b: poison (intense) ticks for 6" in ev  # X = d6 average 3
    assert "b takes 6 poison damage from poison (6 before defences), HP 22" in ev
    golem = cat("stone_golem", "b")
    enc = duel("poison", target=golem)
    ev = hit(enc, "poison", ["d12=12", "d12=7", "d6=4", "d6=3"])
    assert "b: poison resisted (magnitude 0)" in ev


def test_acid_lingers_suppressed_then_adds():
    enc = duel("acid_burn")
    b = enc.by_id["b"]
    # (1, 1): ToHit 6 deflected; M = (1 + 2 + 1 + 3) // 2 = 3 < Body SD 5: Suppressed
    ev = hit(enc, "acid_burn", ["d12=1", "d12=1", "d6=1", "d6=1"])
    assert "b: acid_burn suppressed (magnitude 3)" in ev and b.suppressed == {"acid_burn": 3}
    assert "acid_burn" not in b.statuses
    act(enc, "b: end_turn", [])
    # 17 + the Suppressed 3 = 20 >= 15: Intense; Body save d12 2 fails
    ev = hit(enc, "acid_burn", HIT + ["d12=2"])
    assert "b: acid_burn intense (magnitude 20)" in ev and b.suppressed == {}
    ev = texts(act(enc, "b: pass", []))  # its W-R1 Reaction; then its turn starts
    assert "b: acid_burn (intense) ticks for 6" in ev  # acid damage, X = 3
    assert "b takes 6 acid damage from acid_burn (6 before defences), HP 20" in ev
    act(enc, "b: end_turn", [])
    # a third attempt adds: 20 + 17, halved by a successful save: 20 + 8 = 28
    ev = hit(enc, "acid_burn", HIT + ["d12=9"])
    assert "b: acid_burn intense (magnitude 28)" in ev


def test_deafened_is_held_without_effect():
    enc = duel("deafened")
    ev = hit(enc, "deafened", HIT + ["d12=1"])
    assert "b: deafened intense (magnitude 17)" in ev
    assert enc.by_id["b"].speed_squares() == 3 and enc.by_id["b"].evasion() == 6


def test_the_new_fields_survive_a_snapshot():
    enc = duel("acid_burn")
    hit(enc, "acid_burn", ["d12=1", "d12=1", "d6=1", "d6=1"])
    enc.by_id["b"].lapse["slow"] = 2
    twin = MetaforceEncounter.from_snapshot(enc.snapshot())
    assert twin.by_id["b"].suppressed == {"acid_burn": 3} and twin.by_id["b"].lapse == {"slow": 2}
    assert enc.view("a")["combatants"][1]["suppressed"] == {"acid_burn": 3}
