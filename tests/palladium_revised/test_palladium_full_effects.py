"""Palladium Revised FULL common effects with forced dice (spec §5.7, §5.8, §7.3): Ignite from a
Fire Bolt with its ticks and Extinguish, Soaked turning into Numbing with the Soaked Stamina
cost, Knockdown and Prone (Stand up, the Prone limits, the Prone parry mitigation), Power Draw,
and that none of it is offered under CORE."""

from __future__ import annotations

from envs.core.dice import ScriptedDice
from envs.palladium_revised.rules.catalogue import stat_blocks
from envs.palladium_revised.rules.events import (
    ConditionChanged,
    ContestRolled,
    DamageDealt,
    StrikeResolved,
)
from envs.palladium_revised.rules.options import CORE, FULL
from envs.palladium_revised.rules.profile import profile_of
from envs.palladium_revised.rules.rolls import roll_pct
from envs.palladium_revised.rules.setup import build

BLOCKS = stat_blocks()
SELL = profile_of(BLOCKS["sellsword"])
DUEL = profile_of(BLOCKS["duelist"])
MAGE = profile_of(BLOCKS["battle_mage"])


def make(rows, faces, options=FULL, **kw):
    dice = ScriptedDice(faces)
    enc = build(rows, options, dice=dice, **kw)
    dice.check_exhausted()
    return enc


def play(enc, label, faces=()):
    dice = ScriptedDice(list(faces))
    ev = enc.apply(enc.parse_action(label), dice)
    dice.check_exhausted()
    return ev


def labels(enc):
    return [a.label for a in enc.legal_actions()]


def mage_vs_sell(x=120):
    """Mage (A) at 80 first (d20 15 + 1 = 16), sellsword (B) at ``x`` (d20 1 + 2 = 3)."""
    return make([("m", "A", MAGE, 80), ("s", "B", SELL, x)], ["d20=15", "d20=1"])


def test_fire_bolt_ignites_ticks_each_second_and_extinguish_takes_two_seconds_off():
    enc = mage_vs_sell()
    play(enc, "m: cast fire_bolt -> s", ["d20=15"])  # Spell Power 15 + 3 = 18
    assert enc.decision == "defense"
    assert "s: parry" not in labels(enc) and "s: dodge" in labels(enc)  # R62: no parry
    play(enc, "s: pass", ["d6=4", "d6=5"])  # 9 fire damage to the body (18 > AR 12)
    s, m = enc.by_id["s"], enc.by_id["m"]
    assert (s.sdc, m.fx.ee) == (41, 45)
    assert s.fx.ignite == ("m", 1, 6)  # tick max(1, floor(10% x 9)) = 1, until Second 1 + 5
    assert roll_pct(s, "strike") == -25
    assert enc.current_actor() == "s" and "s: extinguish" in labels(enc)
    ev = play(enc, "s: wait")  # Seconds 2, 3, 4, 5 tick before its Second-5 turn
    fire = [e for e in ev if isinstance(e, DamageDealt) and e.layer == "fire"]
    assert [e.amount for e in fire] == [1, 1, 1, 1] and s.sdc == 37
    assert (enc.second, enc.current_actor()) == (5, "s")
    play(enc, "s: extinguish")  # until 6 - 2 = 4 <= now (5): gone at once
    assert s.fx.ignite is None and s.sdc == 37 and enc.second == 7
    assert roll_pct(s, "strike") == 0


def test_soaked_costs_half_again_stamina_and_turns_into_numbing_stacks():
    enc = mage_vs_sell(x=105)
    play(enc, "m: cast drench -> s", ["d20=15"])
    play(enc, "s: pass")
    s = enc.by_id["s"]
    assert [c for c, _ in s.fx.soaked] == ["m", "m"] and s.sdc == 50  # no damage
    assert s.eff_pm() == 12 * 90 // 100
    play(enc, "s: wait")
    play(enc, "s: wait")  # its Second-5 turn
    assert enc.current_actor() == "m" and enc.second == 7
    play(enc, "m: cast frost_lance -> s", ["d20=15"])  # 18
    ev = play(enc, "s: dodge", ["d20=2", "d6=3"])  # D = 2 + 2 = 4: S1 = 14, a body hit
    assert s.stamina == 30  # the 1-Stamina dodge costs ceil(1.5) = 2 while Soaked
    cond = [(e.condition, e.value) for e in ev if isinstance(e, ConditionChanged)]
    assert cond == [("soaked", 0), ("numbing", 3), ("numbing", 0)]  # 1 + 1 per Soaked stack
    # the dodge took its Second-10 slot: the clock runs to Second 15; the three stacks of
    # Second 7 tick 1 cold each at Seconds 9, 11 and 13 and expire at the end of Second 14
    ticks = [e.amount for e in ev if isinstance(e, DamageDealt) and e.layer == "cold"]
    assert ticks == [3, 3, 3] and s.sdc == 50 - 3 - 9 and enc.second == 15


def test_knockdown_makes_prone_and_stand_up_limits_the_rest_of_the_turn():
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 82)], ["d20=15", "d20=1"])
    assert "s: knockdown -> d" in labels(enc)
    ev = play(enc, "s: knockdown -> d", ["d20=12", "d20=4"])  # 14 vs 9
    kd = next(e for e in ev if isinstance(e, ContestRolled))
    assert (kd.actor_total, kd.target_total, kd.success) == (14, 9, True)
    d = enc.by_id["d"]
    assert d.fx.prone and enc.current_actor() == "d"
    got = labels(enc)
    assert "d: stand" in got and not any(x.startswith(("d: move", "d: step")) for x in got)
    assert "d: strike short_sword -> s" in got and "d: knockdown -> s" not in got
    assert roll_pct(d, "strike") == -200 and roll_pct(d, "dodge") == -100
    play(enc, "d: stand")
    got = labels(enc)
    assert not d.fx.prone and "d: stand" not in got
    assert not any(x.startswith(("d: move", "d: strike", "d: knockdown")) for x in got)
    assert any(x.startswith("d: step") for x in got)  # a Step is still allowed


def test_a_prone_defender_parries_with_only_fifty_percent_mitigation():
    enc = make([("s", "A", SELL, 80), ("d", "B", DUEL, 82)], ["d20=15", "d20=1"])
    play(enc, "s: knockdown -> d", ["d20=12", "d20=4"])
    play(enc, "d: wait")
    assert (enc.second, enc.current_actor()) == (4, "d")
    play(enc, "d: wait")
    assert (enc.second, enc.current_actor()) == (5, "s")
    play(enc, "s: strike long_sword -> d", ["d20=10"])
    ev = play(enc, "d: parry", ["d20=12", "d6=4", "d6=5"])  # P = 17 > S0 9: mitigated
    res = next(e for e in ev if isinstance(e, StrikeResolved))
    assert (res.mitigated, res.layer) == (True, "armour")
    # S0 = floor(13 x 75%) (one band closer); damage (4 + 5 + 3) x (100 - 25 - 50)% = 3 to
    # the armour (at the standing 75% mitigation it would be 0)
    assert enc.by_id["d"].armor_sdc == 17


def test_power_draw_restores_ee_each_second_and_blocks_every_combat_roll():
    enc = make([("m", "A", MAGE, 80), ("s", "B", SELL, 120)], ["d20=15", "d20=1"],
               overrides={"m": {"ee": 40}})
    m = enc.by_id["m"]
    play(enc, "m: power_draw 3")
    assert m.stamina == 21 and m.fx.power_draw == (3, 1, 4)
    assert roll_pct(m, "spell_power") == -100 and roll_pct(m, "initiative") == -100
    play(enc, "s: wait")  # Seconds 2, 3, 4: +3 E.E. each
    assert m.fx.ee == 49 and m.fx.power_draw is None
    assert "m: drop power_draw" not in labels(enc)


def test_core_offers_none_of_the_full_actions():
    enc = make([("m", "A", MAGE, 80), ("s", "B", SELL, 82)], ["d20=15", "d20=1"], CORE)
    kinds = {a.kind for a in enc.legal_actions()}
    assert kinds.isdisjoint({"cast", "power_draw", "taunt", "distract", "knockdown", "stand",
                             "extinguish", "escape", "morale_to_se"})
    full = make([("m", "A", MAGE, 80), ("s", "B", SELL, 82)], ["d20=15", "d20=1"])
    assert {"cast", "taunt", "distract", "knockdown"} <= {a.kind for a in full.legal_actions()}


def test_the_view_carries_the_full_conditions_and_pools():
    enc = mage_vs_sell()
    play(enc, "m: cast fire_bolt -> s", ["d20=15"])
    play(enc, "s: pass", ["d6=4", "d6=5"])
    rows = {r["id"]: r for r in enc.view("s")["combatants"]}
    assert rows["s"]["conditions"]["ignite"] == 6  # until the end of Second 6, now Second 1
    assert (rows["m"]["ee"], rows["m"]["ee_max"], rows["m"]["shields"]) == (45, 50, 0)
    assert rows["m"]["spells"][0] == "fire_bolt"
    assert {"numbing", "soaked", "stunned", "prone", "taunt", "taunt_by", "distract",
            "lung_crush", "ward", "empowered_body"} <= set(rows["s"]["conditions"])
