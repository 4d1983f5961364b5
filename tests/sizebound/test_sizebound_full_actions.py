"""Sizebound FULL part A: the conditions of spec §7.2-§7.4, React/Act, Strangle, Steal and
Search, with forced dice and exact outcomes (off under CORE)."""

from __future__ import annotations

from test_sizebound_rules import QUIET, do, fight, labels, texts

from envs.sizebound.rules.full_conditions import (
    breath_upkeep,
    cardiac_arrest,
    ignite,
    stat_totals,
    suffocate,
)
from envs.sizebound.rules.procedures import add_condition

FQ = {"version": "full", "exertion_control": "off"}


def duel(options=FQ, **kw):
    return fight("duel_blade_vs_shield", options,
                 places={"duelist": (8, 6), "knight": (9, 6)}, **kw)


def cond(enc, cid, name, **kw):
    add_condition(enc, [], enc.by_id[cid], name, **kw)
    enc._legal = None


def test_core_lists_no_full_kind():
    enc = duel(QUIET)
    kinds = {lab.split(": ")[1].split()[0] for lab in labels(enc)}
    assert not kinds & {"react", "act", "search", "strangle", "steal", "extinguish"}


def test_react_eyes_is_a_free_extra_and_act_opens_them():
    enc = duel()
    d = enc.by_id["duelist"]
    assert "duelist: react ears" not in labels(enc)  # no free hand (sword and dagger)
    do(enc, "duelist: react eyes")
    assert "blinded" in d.conds and d.used == ""
    assert "duelist: act eyes" in labels(enc)
    do(enc, "duelist: drop_prone")  # the second React this turn costs one Any: B
    assert d.used == "B"
    do(enc, "duelist: act eyes")
    assert "blinded" not in d.conds


def test_act_never_ends_a_blinded_from_a_skill():
    enc = duel()
    cond(enc, "duelist", "blinded", rounds=1, source="knight")
    assert "duelist: act eyes" not in labels(enc)


def _grappled(enc):
    """The duelist stows the dagger and grapples the knight: 10 + 15 = 25 vs 12 + 2 = 14."""
    do(enc, "duelist: free_hand")
    do(enc, "duelist: grapple -> knight", [15, 2])
    do(enc, "duelist: end_turn")
    do(enc, "knight: end_turn")


def test_strangle_suffocates_and_extra_contests_add_rounds():
    enc = duel()
    _grappled(enc)
    k = enc.by_id["knight"]
    do(enc, "duelist: strangle -> knight")
    assert k.conds.value("suffocating") == 1 and "arms_free" in k.conds
    do(enc, "duelist: end_turn")
    assert k.conds.value("suffocating") == 2  # spec §7.4: one round at its turn's start
    do(enc, "knight: end_turn")
    assert "arms_free" not in k.conds  # until the strangler's next turn begins
    ev = do(enc, "duelist: strangle -> knight", [15, 3])  # 10 + 15 = 25 vs 12 + 3 = 15
    assert "knight suffocates: round 3" in texts(ev)
    assert stat_totals(k) == (13, 12, 10)  # round 3: TM -2
    do(enc, "duelist: end_turn")  # round 4 at the knight's turn: TM -4, TS -2
    assert k.conds.value("suffocating") == 4 and stat_totals(k) == (11, 10, 10)
    do(enc, "knight: end_turn")
    enc.by_id["duelist"].pool_general = 0
    ev = do(enc, "duelist: strangle -> knight", [2, 10])  # 12 vs 22: the knight breaks free
    assert k.grappled_by == [] and "suffocating" not in k.conds
    assert "knight is no longer suffocating" in texts(ev)


def test_strangle_needs_a_breathing_target_no_more_than_one_size_larger():
    enc = duel()
    _grappled(enc)
    assert "duelist: strangle -> knight" in labels(enc)
    enc.by_id["knight"].profile = enc.by_id["knight"].profile.__class__(
        **{**{s: getattr(enc.by_id["knight"].profile, s)
              for s in enc.by_id["knight"].profile.__dataclass_fields__},
           "tags": frozenset({"no_breath"})})
    enc._legal = None
    assert "duelist: strangle -> knight" not in labels(enc)


def test_suffocation_round_six_unconscious_seven_dead_and_breath_ends_it():
    enc = duel()
    _grappled(enc)
    k = enc.by_id["knight"]
    do(enc, "duelist: strangle -> knight")
    ev: list = []
    suffocate(enc, ev, k, 4)
    assert k.conds.value("suffocating") == 5 and not k.unconscious
    suffocate(enc, ev, k)
    assert k.unconscious
    enc.end_grapple(ev, enc.by_id["duelist"], k, "released")
    breath_upkeep(enc, ev)
    assert not k.unconscious and "suffocating" not in k.conds
    k.conds.add("suffocating", value=6, forever=True)
    suffocate(enc, ev, k)
    assert not k.alive


def test_steal_takes_a_stowed_item_or_gives_the_victim_advantage():
    enc = duel()
    do(enc, "duelist: free_hand")  # the dagger is stowed
    do(enc, "duelist: end_turn")
    assert "knight: steal -> duelist" not in labels(enc)  # no free hand
    do(enc, "knight: free_hand")  # stows the shield
    ev = do(enc, "knight: steal -> duelist", [15, 5])  # Nimble 9 + 15 = 24 vs 11 + 5 = 16
    k, d = enc.by_id["knight"], enc.by_id["duelist"]
    assert k.wielded == {"main": "sword", "off": "dagger"} and d.stowed == []
    assert k.used == "P" and "knight: dagger stolen" in texts(ev)


def test_a_resisted_steal_gives_advantage_on_the_first_attack():
    enc = duel()
    do(enc, "duelist: free_hand")
    do(enc, "duelist: end_turn")
    do(enc, "knight: free_hand")
    do(enc, "knight: steal -> duelist", [5, 5])  # 14 vs 16: the duelist keeps it
    d = enc.by_id["duelist"]
    assert any(c.source == "knight" for c in d.conds.instances("steal_edge"))
    do(enc, "knight: end_turn")
    enc.by_id["knight"].reactions = 0
    ev = do(enc, "duelist: attack main -> knight", [3, 12, 4])  # advantage: 12 kept, hit 14
    assert "duelist rolls hit: d20 3/12 -> 12 +2 = 14" in texts(ev)
    assert "steal_edge" not in d.conds


def test_rooted_blocks_steps_and_prone_until_freed_with_move_and_bonus():
    enc = duel()
    cond(enc, "duelist", "rooted", source="knight")
    got = labels(enc)
    assert not any(x.startswith("duelist: step") for x in got) and "duelist: run" not in got
    assert "duelist: drop_prone" not in got
    do(enc, "duelist: free_rooted")
    d = enc.by_id["duelist"]
    assert "rooted" not in d.conds and d.used == "MB"


def test_terrified_cannot_act_and_is_hit_even_on_a_natural_one():
    enc = duel()
    do(enc, "duelist: end_turn")
    cond(enc, "duelist", "terrified", source="knight")
    assert labels(enc)[0] == "knight: end_turn"
    ev = do(enc, "knight: attack main -> duelist", [1, 4])  # no Dodge, still hits
    assert "duelist takes 6 Slashing -> 42 HP" in texts(ev)


def test_a_cornered_panicked_creature_may_become_terrified():
    enc = fight("duel_blade_vs_shield", {**FQ, "fleeing": False},
                places={"duelist": (0, 0), "knight": (1, 1)})
    cond(enc, "duelist", "panicked", source="knight")
    do(enc, "duelist: terrified")
    assert "terrified" in enc.by_id["duelist"].conds


def test_a_panicked_creature_in_a_corner_flees_off_the_map():
    # spec §8.11 (FULL): stepping off the map is fleeing, an escape: no Terrified choice, and the
    # Move must go that way (the off-map steps w, sw and s, and nw, se leave the map too)
    enc = fight("duel_blade_vs_shield", FQ, places={"duelist": (0, 0), "knight": (1, 1)})
    cond(enc, "duelist", "panicked", source="knight")
    assert labels(enc) == ["duelist: end_turn", "duelist: step nw", "duelist: step w",
                           "duelist: step sw", "duelist: step s", "duelist: step se"]
    do(enc, "duelist: step sw")
    assert enc.by_id["duelist"].fled and enc.is_over()


def test_a_panicked_creature_must_move_away():
    enc = duel()
    cond(enc, "duelist", "panicked", source="knight")
    assert labels(enc) == ["duelist: end_turn", "duelist: step nw", "duelist: step w",
                           "duelist: step sw"]


def test_ignited_burns_at_both_turn_edges_and_wet_is_immune():
    enc = duel()
    ev: list = []
    assert ignite(enc, ev, enc.by_id["knight"])
    do(enc, "duelist: end_turn")  # the knight's turn starts: 5 Fire, through the Block window
    assert enc.window.kind == "block" and labels(enc) == ["duelist: block", "duelist: pass"]
    do(enc, "duelist: pass")  # the adjacent duelist may Block for it (the knight has none)
    assert enc.by_id["knight"].hp == 44
    do(enc, "knight: extinguish -> knight")
    assert "ignited" not in enc.by_id["knight"].conds and enc.by_id["knight"].used == "B"
    cond(enc, "duelist", "wet")
    assert not ignite(enc, ev, enc.by_id["duelist"])


def test_a_block_takes_guard_off_the_ignited_tick():
    enc = duel()
    assert ignite(enc, [], enc.by_id["knight"])
    do(enc, "duelist: end_turn")
    ev = texts(do(enc, "duelist: block"))  # spec §8.2 D11: +2 Guard, D13: 5 - 2 = 3 to HP
    k = enc.by_id["knight"]
    assert (k.hp, k.guard, enc.by_id["duelist"].reactions) == (46, 0, 0)
    assert ev[1:] == ["duelist blocks for knight: Guard +2",
                      "knight takes 3 Fire, 2 into Guard -> 46 HP"]
    assert enc.current_actor() == "knight"


def test_petrified_resists_slashing_and_does_nothing():
    enc = duel()
    do(enc, "duelist: end_turn")
    cond(enc, "duelist", "petrified")
    assert labels(enc)[0] == "knight: end_turn"
    ev = do(enc, "knight: attack main -> duelist", [15])  # Resisted: 1d8 minimized 1 + 2
    assert "duelist takes 3 Slashing -> 45 HP" in texts(ev)


def test_cardiac_arrest_hits_a_conscious_terrified_creature():
    enc = duel()
    d = enc.by_id["duelist"]
    cardiac_arrest(enc, [], d)
    assert d.hp == 48
    cond(enc, "duelist", "terrified")
    cardiac_arrest(enc, [], d)
    assert d.hp == -2


def test_drunk_costs_two_hit_and_changes_the_totals():
    enc = duel()
    cond(enc, "duelist", "drunk")
    assert stat_totals(enc.by_id["duelist"]) == (13, 14, 11)
    ev = do(enc, "duelist: attack main -> knight", [10])  # 10 + 2 - 2 = 10: not above 10
    assert "duelist rolls hit: d20 10 -> 10 +0 = 10" in texts(ev)


def test_search_describes_then_rolls_perception_for_awareness():
    enc = duel()
    d = enc.by_id["duelist"]
    do(enc, "duelist: search")
    assert d.used == ""
    do(enc, "duelist: search", [5])  # R-70, WE-31: 5 >= 2 -> 1
    assert d.fx["aware"] == 1 and d.used == "B"
    do(enc, "duelist: search", [1])  # 1 < 2 -> 0
    assert d.fx["aware"] == 0
    do(enc, "duelist: search", [1])  # never below its start
    assert d.fx["aware"] == 0
