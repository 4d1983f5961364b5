"""Mano a Mano missiles and items (spec §5.5, §5.6, §5.10) and spec §11.20."""

from __future__ import annotations

from test_core_turns import do, fight, labels

from envs.core import ScriptedDice
from envs.mano_a_mano.rules import strikes


def archer_vs_steven(steven_hex=(8, 0)):
    return fight(("archer", "archer", "A", (0, 0)), ("steven", "steven", "B", steven_hex))


def test_11_20_aimed_arrow_at_range():
    dice = ScriptedDice([3], sides=20)
    enc = archer_vs_steven()
    do(enc, dice, "archer: draw")
    assert "archer: aim" not in labels(enc)  # a second bow use is impossible at speed 1
    do(enc, dice, "archer: end", "steven: end")
    assert {a.kind for a in enc.legal_actions()} <= {
        "move",
        "aim",
        "shoot",
        "relax",
        "drop_item",
        "end",
    }  # R32
    do(enc, dice, "archer: aim", "archer: end", "steven: end")
    events = do(enc, dice, "archer: shoot quick -> steven")
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    assert (roll.modifier, roll.difficulty, roll.success) == (
        9,
        11,
        True,
    )  # 4 + 5 aim; 10 + 1 distance
    s = enc.by_id["steven"]
    assert (s.damage, s.stun, s.health) == (6, 0, "healthy")
    a = enc.by_id["archer"]
    assert not a.bow_drawn and a.aiming is None
    dice.check_exhausted()


def test_11_20_variants_prone_target_and_lost_aim():
    dice = ScriptedDice([3], sides=20)
    enc = archer_vs_steven()
    do(
        enc,
        dice,
        "archer: draw",
        "archer: end",
        "steven: drop",
        "steven: end",
        "archer: aim",
        "archer: end",
        "steven: end",
    )
    events = do(enc, dice, "archer: shoot quick -> steven")
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    assert (roll.difficulty, roll.success) == (
        16,
        False,
    )  # +5 defense against missiles on the ground
    dice = ScriptedDice([3], sides=20)
    enc = archer_vs_steven()
    do(
        enc,
        dice,
        "archer: draw",
        "archer: end",
        "steven: end",
        "archer: aim",
        "archer: end",
        "steven: end",
    )
    archer = enc.by_id["archer"]
    assert archer.aiming == "light_bow"
    strikes.harm(enc, archer, 1, "padded", 0, [])  # 1 stun taken between aiming and shooting
    assert archer.stun == 1 and archer.aiming is None  # the aim is lost (RULING R31)
    events = do(enc, dice, "archer: shoot quick -> steven")
    roll = next(e for e in events if type(e).__name__ == "Rolled")
    assert (roll.modifier, roll.success) == (4, False)  # no +5: 7 <= 11


def test_thrown_spear_ranges_and_landing():
    dice = ScriptedDice([20], sides=20)
    enc = fight(("guard", "guard", "A", (0, 0)), ("steven", "steven", "B", (2, 0)))
    # quick-throw range 1 m: 2 hexes away is 2 m -> too far; powerful throw reaches 2 m
    throws = {a.label for a in enc.legal_actions() if a.kind == "throw"}
    assert (
        "guard: throw quick both -> steven" not in throws
        and "guard: throw powerful both -> steven" in throws
    )
    events = do(enc, dice, "guard: throw powerful both -> steven")
    harmed = next(e for e in events if type(e).__name__ == "Harmed")
    assert harmed.power == 8 and harmed.damage == 8  # 2 x 4, sharp
    assert "spear" not in enc.by_id["guard"].held.values() and enc.floor[(2, 0)] == ["spear"]


def test_ready_a_stowed_knife_and_pick_up_from_the_floor():
    enc = fight(("archer", "archer", "A", (0, 0)), ("clone", "clone", "B", (3, 0)))
    do(enc, ScriptedDice([], sides=20), "archer: ready knife")
    a = enc.by_id["archer"]
    assert a.held == {"left": "light_bow", "right": "knife"} and a.stowed == []
    assert a.block.melee_defense(a.held) == 13  # spec §13.5: 13 once the knife is in hand
    do(enc, ScriptedDice([], sides=20), "archer: drop_item right")
    assert enc.floor[(0, 0)] == ["knife"]


def test_a_bow_can_be_dropped_even_drawn():
    """Dropping a held item is free (spec §5.3 row 34), a drawn bow too (RULING R32 allows it)."""
    enc = archer_vs_steven()
    do(enc, ScriptedDice([], sides=20), "archer: draw")
    assert "archer: drop_item left" in labels(enc)
    do(enc, ScriptedDice([], sides=20), "archer: drop_item left")
    a = enc.by_id["archer"]
    assert "left" not in a.held and not a.bow_drawn and enc.floor[(0, 0)] == ["light_bow"]


def test_only_the_top_two_items_of_a_pile_can_be_picked_up():
    """rulings.PICK_UP_CHOICES: the two distinct items dropped last; the rest once those are
    taken."""
    enc = fight(("archer", "archer", "A", (0, 0)), ("clone", "clone", "B", (3, 0)))
    enc.floor[(0, 0)] = ["spear", "knife", "machete", "knife"]
    assert enc.floor_choices((0, 0)) == ["knife", "machete"]
    assert [a.label for a in enc.legal_actions() if a.kind == "pick_up"] == [
        "archer: pick_up knife 0,0",
        "archer: pick_up machete 0,0",
    ]
    do(enc, ScriptedDice([], sides=20), "archer: pick_up machete 0,0")
    assert enc.floor_choices((0, 0)) == ["knife", "spear"]


def test_a_two_handed_weapon_on_the_floor_needs_two_free_hands():
    """Picking up follows the same hands rule as readying (spec §5.10): Steven, machete in hand,
    cannot take the spear until he drops the machete."""
    enc = fight(("steven", "steven", "A", (0, 0)), ("clone", "clone", "B", (3, 0)))
    enc.floor[(1, 0)] = ["spear"]
    assert "steven: pick_up spear 1,0" not in labels(enc)
    do(enc, ScriptedDice([], sides=20), "steven: drop_item right")
    do(enc, ScriptedDice([], sides=20), "steven: pick_up spear 1,0")
    assert enc.by_id["steven"].held == {"both": "spear"}


def test_11_22_cover():
    for die, hit_guard, hit_archer in ((18, 3, 0), (20, 0, 3), (19, 0, 3)):
        dice = ScriptedDice([die], sides=20)
        enc = fight(
            ("guard", "guard", "A", (0, 0)),
            ("archer", "archer", "A", (1, 0)),
            ("steven", "steven", "B", (2, 0)),
            order=["guard", "steven", "archer"],
        )
        do(enc, dice, "guard: cover -> archer", "guard: end")
        events = do(enc, dice, "steven: strike quick machete -> archer")
        roll = next(e for e in events if type(e).__name__ == "Rolled")
        assert roll.difficulty == 17 + 5  # the Guard's melee defense + 5
        assert (enc.by_id["guard"].damage, enc.by_id["archer"].damage) == (hit_guard, hit_archer), (
            die
        )


def test_initial_stances_and_surprised_weapons_full_rules():
    from envs.core import SeededDice
    from envs.mano_a_mano.rules.state import STANCES, new_encounter

    enc = new_encounter("duel_spear", "full", SeededDice(1))  # no surprise: stances in turn order
    first, second = enc.order
    assert enc.current_actor() == first and {a.args[0] for a in enc.legal_actions()} == set(STANCES)
    do(enc, SeededDice(2), f"{first}: choose stance_evade")
    assert enc.current_actor() == second and enc.by_id[first].defense_bonus == 4
    do(enc, SeededDice(2), f"{second}: choose stance_counter")
    assert enc.by_id[second].counter_ready and enc.current_actor() == first and enc.round == 1
    assert enc.by_id[first].defense_bonus == 0  # evading ends at the start of its first turn
    core = new_encounter("duel_spear", "core", SeededDice(1))
    assert not any(a.kind == "choose" for a in core.legal_actions())
    # surprise: the surprised side's weapons start stowed (RULING R27)
    dice = ScriptedDice([19], sides=20)  # Steven's ambush roll succeeds
    import envs.mano_a_mano.rules.state as S
    from envs.mano_a_mano.rules.catalogue import EncounterDef

    real = S.encounters
    S.encounters = lambda: {
        **real(),
        "ambush": EncounterDef("ambush", {"A": ("steven",), "B": ("guard",)}, "adjacent", "side_A"),
    }
    try:
        enc = new_encounter("ambush", "full", dice)
    finally:
        S.encounters = real
    g = enc.by_id["guard"]
    assert g.held == {} and g.stowed == ["spear"] and enc.current_actor() == "steven"
