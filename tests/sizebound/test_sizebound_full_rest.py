"""Sizebound FULL part E: Magma and Water terrain, Arcane Aura with Concentration, the Host-style
Exertion pool and hazard sides, with forced dice and exact outcomes (off under CORE)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_sizebound_rules import do, labels, texts

from envs.core.data import DataError
from envs.sizebound.invariants import state_invariants
from envs.sizebound.rules.full_sides import HOST_DICE
from envs.sizebound.rules.full_terrain import magma_hit
from envs.sizebound.rules.procedures import add_condition
from envs.sizebound.rules.profile import SkillProfile
from envs.sizebound.rules.situation import from_situation
from envs.sizebound.rules.state import SizeboundEncounter

FQ = {"version": "full", "exertion_control": "off"}
AURA = SkillProfile("arcane_aura", mana=2, dice_n=1, dice_sides=6, stat="none",
                    dtypes=("Arcane",), size=1)


def sit(combatants, options=FQ, states=None, **kw):
    data = {"system": "sizebound", "options": options, "map": {"w": 12, "h": 12},
            "combatants": [{"id": c, "side": s, "stats": b, "at": list(at)}
                           for c, s, b, at in combatants], "round": 1}
    for c in data["combatants"]:
        if c["id"] in (states or {}):
            c["state"] = states[c["id"]]
    data.update(kw)
    data.setdefault("actor", combatants[0][0])
    enc = from_situation(data)
    state_invariants(enc)
    return enc


def duel(options=FQ, duelist=(2, 6), knight=(10, 6), **kw):
    return sit([("duelist", "A", "duelist", duelist), ("knight", "B", "knight", knight)],
               options, **kw)


def conds(enc, cid):
    return sorted({c.name for c in enc.by_id[cid].conds})


# ---------------------------------------------------------------- water (§5.2.18, §7.2, §7.4)
def test_swimming_with_walking_legs_walk_5_swims_1():  # WE-27
    enc = duel(map={"w": 12, "h": 12, "water": [[3, 0, 11, 11]]})
    ev = do(enc, "duelist: step e")
    d = enc.by_id["duelist"]
    assert "duelist is now wet" in texts(ev)
    assert d.budget == 0 and not any(x.startswith("duelist: step") for x in labels(enc))


def test_walk_7_swims_2_and_run_doubles_it():  # WE-27: floor(Walk / 3)
    water = {"w": 12, "h": 12, "water": [[0, 0, 11, 11]]}
    enc = sit([("war_dog", "A", "war_dog", (2, 6)), ("knight", "B", "knight", (10, 6))],
              map=water)
    do(enc, "war_dog: step e")
    assert enc.by_id["war_dog"].budget == 1
    do(enc, "war_dog: step e")
    assert enc.by_id["war_dog"].budget == 0
    enc = sit([("war_dog", "A", "war_dog", (2, 6)), ("knight", "B", "knight", (10, 6))],
              map=water)
    do(enc, "war_dog: run")
    for _ in range(4):
        do(enc, "war_dog: step e")
    assert enc.by_id["war_dog"].pos == (6, 6) and enc.by_id["war_dog"].budget == 0


def test_water_puts_out_a_fire_and_shallow_water_is_difficult():
    enc = duel(map={"w": 12, "h": 12, "water": [[4, 6, 4, 6]], "shallow_water": [[3, 6, 3, 6]]})
    add_condition(enc, [], enc.by_id["duelist"], "ignited")
    ev = do(enc, "duelist: step e")
    assert "duelist steps e to (3, 6) (cost 2)" in texts(ev)  # spec §5.2.18: difficult
    ev = do(enc, "duelist: step e")
    assert texts(ev)[-2:] == ["duelist is now wet", "duelist is no longer ignited"]


def test_water_damage_wets_under_full_only():
    from envs.sizebound.rules.full_terrain import water_hit
    enc = duel()
    ev: list = []
    water_hit(enc, ev, enc.by_id["knight"], ("Water",))
    assert conds(enc, "knight") == ["wet"]
    core = duel({"version": "core", "exertion_control": "off"})
    water_hit(core, [], core.by_id["knight"], ("Water",))
    assert conds(core, "knight") == []


def test_a_creature_that_cannot_swim_drowns_and_breathes_again():  # spec §7.4
    enc = duel(map={"w": 12, "h": 12, "water": [[10, 6, 10, 6]]},
               states={"knight": {"conditions": ["petrified"]}})
    k = enc.by_id["knight"]
    ev = do(enc, "duelist: end_turn")
    assert "knight is now suffocating" in texts(ev) and k.conds.value("suffocating") == 1
    do(enc, "duelist: end_turn")  # B's turn: round 2 (the petrified knight is passed)
    assert k.conds.value("suffocating") == 2
    k.conds.remove("petrified")
    ev = do(enc, "duelist: end_turn")  # B's turn: it can swim, so it breathes
    assert "knight is no longer suffocating" in texts(ev) and "suffocating" not in k.conds


def test_water_needs_full_rules():
    with pytest.raises(DataError, match="map.*water.*FULL"):
        duel({"version": "core"}, map={"w": 12, "h": 12, "water": [[3, 0, 4, 4]]})


def test_terrain_survives_a_snapshot():
    enc = duel(map={"w": 12, "h": 12, "magma": [[5, 5, 5, 5]]}, hazard_sides=["B"])
    twin = SizeboundEncounter.from_snapshot(enc.snapshot())
    assert twin.terrain == {(5, 5): "magma"} and twin.hazards == frozenset({"B"})


# ---------------------------------------------------------------- magma (§8.3, WE-33)
@pytest.mark.parametrize("mods, hp, alive", [
    ({}, 60, False),  # no protection: instant death
    ({"immune": frozenset({"Fire"})}, 30, True),  # 50% of Max HP
    ({"resist": frozenset({"Magma"})}, 45, True),  # 25%
    ({"immune": frozenset({"Magma"})}, 60, True),  # 0
])
def test_magma_submersion(mods, hp, alive):  # WE-33 with Max HP 60
    enc = duel(map={"w": 12, "h": 12, "magma": [[3, 6, 3, 6]]})
    d = enc.by_id["duelist"]
    d.profile = replace(d.profile, max_hp=60, **mods)
    d.hp = 60
    ev = do(enc, "duelist: step e")
    assert d.alive is alive and (not alive or d.hp == hp)
    if not alive:
        assert "duelist dies (60 HP)" in texts(ev)


def test_magma_with_fire_resistance_kills_at_the_end_of_the_turn():  # WE-33
    enc = duel(map={"w": 12, "h": 12, "magma": [[3, 6, 3, 6]]})
    d = enc.by_id["duelist"]
    d.profile = replace(d.profile, resist=frozenset({"Fire"}))
    do(enc, "duelist: step e")
    assert d.alive and d.hp == 48
    ev = do(enc, "duelist: end_turn")
    assert not d.alive and "duelist dies (48 HP)" in texts(ev)


def test_magma_only_when_fully_submerged_and_on_the_ground():
    enc = duel(map={"w": 12, "h": 12, "magma": [[3, 6, 3, 6]]})
    d = enc.by_id["duelist"]
    d.z = 1
    magma_hit(enc, [], d)  # above the magma: not submerged
    assert d.alive and d.hp == 48


# ---------------------------------------------------------------- Arcane Aura (§5.3, §9.4)
def aura_fight(options=FQ, knight=(3, 6)):
    enc = sit([("mage", "A", "mage", (2, 6)), ("knight", "B", "knight", knight)], options)
    m = enc.by_id["mage"]
    m.profile = replace(m.profile, skills=m.profile.skills + (AURA,))
    enc._legal = None
    return enc, m, enc.by_id["knight"]


def test_aura_is_full_only():
    enc, _, _ = aura_fight({"version": "core", "exertion_control": "off"})
    assert "mage: cast arcane_aura" not in labels(enc)


def test_aura_damages_at_the_end_of_each_paid_turn_and_ends_unpaid():
    enc, m, k = aura_fight()
    ev = do(enc, "mage: cast arcane_aura")
    assert m.used == "D" and m.mana == 14 and "concentrating" in m.conds
    assert "mage: cast arcane_aura" not in labels(enc)  # the upkeep is paid once a turn
    ev = do(enc, "mage: end_turn", [4])  # 1d6 Arcane, no stat (the knight has no reaction)
    assert "knight takes 4 Arcane -> 45 HP" in texts(ev) and m.reactions == 0  # D was spent
    do(enc, "knight: end_turn")
    k.reactions = 0  # no Dodge or Block this time
    do(enc, "mage: cast arcane_aura")  # upkeep: D and 2 Mana again
    assert m.mana == 12 and m.used == "D"
    do(enc, "mage: end_turn", [6])
    assert k.hp == 39
    do(enc, "knight: end_turn")
    ev = do(enc, "mage: end_turn")  # not paid: it ends, no damage
    assert "mage is no longer concentrating" in texts(ev) and k.hp == 39


def test_aura_lasts_ten_rounds():  # WE-09 (c)
    enc, m, k = aura_fight(knight=(10, 6))
    m.profile = replace(m.profile, skills=m.profile.skills[:-1] + (replace(AURA, mana=1),))
    for _ in range(10):
        do(enc, "mage: cast arcane_aura")
        do(enc, "mage: end_turn")
        do(enc, "knight: end_turn")
    assert enc.round == 11 and "concentrating" not in m.conds
    assert "mage: cast arcane_aura" in labels(enc)  # it may start again


@pytest.mark.parametrize("face, kept", [(3, False), (4, True)])
def test_concentration_check(face, kept):  # WE-09 (d): Arcana 8, 12 damage
    enc, m, k = aura_fight(knight=(10, 6))
    do(enc, "mage: cast arcane_aura")
    do(enc, "mage: end_turn")
    m.fx["conc_dmg"] = 12  # 7 + 5 taken since the start of its last turn
    ev = do(enc, "knight: end_turn")
    ev = do(enc, "mage: step w", [face])
    want = f"mage {'keeps' if kept else 'loses'} concentration ({face + 8} vs 12 damage)"
    assert want in texts(ev) and ("concentrating" in m.conds) is kept


def test_damage_while_concentrating_is_recorded():
    from envs.sizebound.rules.damage import harm
    enc, m, _ = aura_fight(knight=(10, 6))
    do(enc, "mage: cast arcane_aura")
    harm(enc, [], m, 7, ("Slashing",))
    harm(enc, [], m, 5, ("Slashing",))
    assert m.fx["conc_dmg"] == 12


def test_panicked_cannot_start_the_aura():
    enc, m, k = aura_fight()
    add_condition(enc, [], m, "afraid", source="knight")
    add_condition(enc, [], m, "afraid", source="knight")  # Afraid + Afraid -> Panicked
    enc._legal = None
    assert "panicked" in m.conds and "mage: cast arcane_aura" not in labels(enc)


# ---------------------------------------------------------------- Host pool (§9.2, §6.5)
def host_fight(options=None):
    enc = sit([("g1", "A", "goblin", (2, 6)), ("g2", "A", "goblin", (2, 8)),
               ("knight", "B", "knight", (3, 6))],
              options or {"version": "full", "interleave": False})
    for cid in ("g1", "g2"):
        f = enc.by_id[cid]
        f.profile = replace(f.profile, host_pool=True)
    from envs.sizebound.rules.full_sides import setup
    setup(enc)
    return enc


def test_host_pool_is_shared_one_die_a_window():
    enc = host_fight()
    g1, g2 = enc.by_id["g1"], enc.by_id["g2"]
    assert g1.dice == g2.dice == HOST_DICE
    do(enc, "g1: swap")
    do(enc, "g1: attack main -> knight", [5])  # 5 + 2 = 7 vs Defense 10
    assert labels(enc) == ["g1: spend", "g1: pass"]
    ev = do(enc, "g1: spend", [2])  # +2 -> 9: still a miss, but no second die (Host)
    assert "g1's dagger vs knight: miss (9)" in texts(ev)
    assert enc.by_id["g1"].dice == enc.by_id["g2"].dice == 2


def test_host_pool_regains_up_to_three():
    enc = host_fight()
    g1, g2 = enc.by_id["g1"], enc.by_id["g2"]
    g1.dice = g2.dice = 2
    do(enc, "g1: swap")
    ev = do(enc, "g1: attack main -> knight", [1])  # a natural 1: the side's pool regains one
    assert "g1 regains an Exertion Die (3)" in texts(ev)
    assert enc.by_id["g1"].dice == enc.by_id["g2"].dice == 3
    do(enc, "g1: end_turn")
    g2 = enc.by_id["g2"]
    g2.profile = replace(g2.profile, exertion_max=5)  # a level table pool of 5: still 3 here
    do(enc, "g2: swap")
    do(enc, "g2: attack main -> knight", [1])
    assert enc.by_id["g1"].dice == enc.by_id["g2"].dice == 3


def test_core_keeps_player_pools():
    enc = host_fight({"version": "core", "interleave": False})
    do(enc, "g1: swap")
    do(enc, "g1: attack main -> knight", [5])
    do(enc, "g1: spend", [2])
    assert enc.window is not None and enc.window.kind == "exert_d20"  # a second die may go
    assert enc.by_id["g1"].dice == 2 and enc.by_id["g2"].dice == 3


# ---------------------------------------------------------------- hazard sides (§3.1, §6.1)
def hazard_fight(**opts):
    return sit([("duelist", "A", "duelist", (2, 6)), ("knight", "B", "knight", (9, 6)),
                ("giant", "H", "hill_giant", (5, 1))], {**FQ, **opts},
               hazard_sides=["H"], actor="duelist")


def test_hazard_sides_go_last_and_the_gm_option_gives_a_reaction():  # WE-08
    enc = hazard_fight(hazard_reaction=True)
    assert enc.order == ["A", "B", "H"]
    do(enc, "duelist: end_turn")  # +1 (D unspent): 1
    ev = do(enc, "knight: end_turn")
    assert enc.active_side == "H"
    assert "duelist gains a Reaction at a hazard's turn (2)" in texts(ev)
    assert enc.by_id["knight"].reactions == 2 and enc.by_id["giant"].reactions == 1
    plain = hazard_fight()
    do(plain, "duelist: end_turn")
    do(plain, "knight: end_turn")
    assert plain.by_id["duelist"].reactions == 1


def test_a_hazard_is_not_an_opponent_to_defeat():
    enc = hazard_fight()
    from envs.sizebound.rules.damage import kill
    kill(enc, [], enc.by_id["knight"])
    assert enc.is_over() and enc.outcome().winner == "A"


def test_hazard_sides_need_full():
    with pytest.raises(DataError, match="hazard_sides"):
        hazard_fight(version="core")


# ---------------------------------------------------------------- Unnerved from a situation
@pytest.mark.parametrize("values, total, afraid", [
    ([-2], -2, False), ([-2, -2], -4, True), ([-6, -6], -10, True), ([3, 4], 5, False)])
def test_situation_unnerved_adds_up_and_clamps(values, total, afraid):  # WE-10
    items = [{"value": v} for v in values]  # sources differ: no source, then the knight
    items[-1]["source"] = "knight"
    enc = duel(states={"duelist": {"unnerved": items}})
    d = enc.by_id["duelist"]
    assert d.unnerved == total and ("afraid" in d.conds) is afraid


def test_situation_unnerved_needs_the_fear_option():
    with pytest.raises(DataError, match="unnerved.*fear"):
        duel({"version": "core"}, states={"duelist": {"unnerved": [{"value": -2}]}})
