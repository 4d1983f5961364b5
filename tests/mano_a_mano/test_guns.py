"""Mano a Mano guns (spec §5.6 "Guns (FULL)", §3.6, §11.18, RULING R50, R11, R31), forced d20s."""

from __future__ import annotations

import pytest
import yaml
from test_catalogue_derived import _write
from test_core_turns import do, fight, labels

from envs.core import IllegalActionError, ScriptedDice
from envs.core.data import DataError
from envs.mano_a_mano.rules import catalogue, from_situation, load_catalogue, rulings, strikes
from envs.mano_a_mano.rules.guns import gun_reload
from envs.mano_a_mano.rules.state import ManoEncounter

MASS_CP = (
    (0, 10),
    (0.001, 9),
    (0.002, 8),
    (0.005, 7),
    (0.01, 6),
    (0.02, 5),
    (0.05, 4),
    (0.10, 3),
    (0.20, 2),
    (0.50, 1),
    (1.00, 0),
    (2.00, -1),
    (5, -2),
    (10, -3),
    (20, -4),
    (50, -5),
)  # spec §2.9.6
SHOTS_CP = (None, 0, 5, 10, 12, 14, 16, 17, 18, 19, 20)  # spec §2.9.7, before - 2t


def item_cp(it) -> int:
    """spec §2.9.6 / §2.9.7: the CP of an item built with the feature vocabulary of §2.4."""
    mass = next(cp for top, cp in MASS_CP if it.mass_kg <= top)
    cp = mass - 10 * it.heft + 10 * it.power + it.range_m - (10 if it.two_handed else 0)
    cp += {"sharp": 20, "padded": 5}.get(it.sharpness, 0) + 5 * it.offense + 10 * it.control
    if it.shots is None:
        return cp + 20
    s, t = it.shots
    return cp + SHOTS_CP[min(s, 10)] - 2 * t


def gunner(gun="pistol", steven_hex=(8, 0), shots=None, **more):
    """The Musketeer (marksmanship 4) with ``gun`` in hand, against Steven (missile defense 10)."""
    enc = fight(("musketeer", "musketeer", "A", (0, 0)), ("steven", "steven", "B", steven_hex))
    g = enc.by_id["musketeer"]
    g.held = {"both": gun} if gun == "musket" else {"right": gun}
    if shots is not None:
        g.shots[gun] = shots
    for key, value in more.items():
        setattr(g, key, value)
    return enc, g


def rolled(events):
    return next(e for e in events if type(e).__name__ == "Rolled")


# --------------------------------------------------------------------------------------------- data


def test_constructed_guns_are_priced_by_the_item_cp_formulas():
    items = catalogue().items
    assert (
        items["light_bow"].cp == item_cp(items["light_bow"]) == 198
    )  # the formula checked on the seed
    guns = [it for it in items.values() if it.kind == "gun"]
    assert {it.id for it in guns} >= {"pistol", "revolver", "musket"}
    for it in guns:
        assert it.source == "constructed" and it.cp == item_cp(it), it.id
    assert [gun_reload(items[g]) for g in ("pistol", "revolver", "musket")] == [
        "clip",
        "round",
        "muzzle",
    ]
    assert items["musket"].shots == (1, 9)  # spec §11.18


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["items"]["pistol"].update(reload="belt"),
            "items.pistol: field 'reload': unknown value 'belt'",
        ),
        (
            lambda d: d["items"]["machete"].update(reload="clip"),
            "items.machete: field 'reload': only a gun",
        ),
        (
            lambda d: d["items"]["musket"].update(reload="round"),
            "items.musket: field 'reload': a gun with a reload",
        ),
        (
            lambda d: d["items"]["pistol"].update(shots=[0, 1]),
            "items.pistol: field 'shots': a gun holds at least",
        ),
    ],
)
def test_bad_gun_data_fails_with_one_line(tmp_path, mutate, message):
    path = _write(tmp_path, mutate)
    with pytest.raises(DataError) as info:
        load_catalogue(path)
    assert message in str(info.value) and "\n" not in str(info.value)


# -------------------------------------------------------------------------------------------- shots


def test_pistol_quick_shot_distance_penalty_and_shots_counted():
    enc, g = gunner()  # 8 hexes: d_m = 14, penalty floor(20 x 14 / 50) = 5
    assert g.shots == {} and enc.shots_left(g, "pistol") == 8  # spec §3.6: loaded to full
    events = do(enc, ScriptedDice([12], sides=20), "musketeer: shoot quick -> steven")
    roll = rolled(events)
    assert (roll.modifier, roll.difficulty, roll.success) == (4, 15, True)  # 4 vs 10 + 5
    s = enc.by_id["steven"]
    assert (s.damage, s.stun) == (8, 0)  # power 8 sharp, no absorption
    assert g.shots == {"pistol": 7}
    assert "musketeer: shoot quick -> steven" not in labels(
        enc
    )  # one use of the gun at speed 1 (R11)
    enc, g = gunner()
    roll = rolled(do(enc, ScriptedDice([11], sides=20), "musketeer: shoot quick -> steven"))
    assert (roll.success, enc.by_id["steven"].damage, g.shots) == (
        False,
        0,
        {"pistol": 7},
    )  # 15 vs 15 fails


def test_strategic_and_cautious_shots_range_and_unwieldy_musket():
    enc, g = gunner(steven_hex=(2, 0))  # d_m 2: penalty floor(40 / 50) = 0
    roll = rolled(do(enc, ScriptedDice([6], sides=20), "musketeer: shoot strategic -> steven"))
    assert (roll.modifier, roll.difficulty, roll.success) == (9, 10, True)
    enc, g = gunner(steven_hex=(2, 0))
    do(enc, ScriptedDice([1], sides=20), "musketeer: shoot cautious -> steven")
    assert g.defense_bonus == 5  # gained on a miss too (RULING R3)
    enc, g = gunner(steven_hex=(26, 0))  # 26 hexes: d_m 50 = the pistol's range
    assert "musketeer: shoot quick -> steven" in labels(enc)
    enc, g = gunner(steven_hex=(27, 0))  # 52 m: out of range
    assert not any(a.kind == "shoot" for a in enc.legal_actions())
    enc, g = gunner("musket", steven_hex=(4, 0))  # heft 9 > hand power 4 (rulings.GUNS_UNWIELDY)
    shots = {a.args[0] for a in enc.legal_actions() if a.kind == "shoot"}
    assert shots == {"quick"}


def test_an_empty_gun_masks_shots_and_aim():
    enc, g = gunner(shots=0)
    kinds = {a.kind for a in enc.legal_actions()}
    assert "shoot" not in kinds and "aim" not in kinds and "unload" in kinds and "load" not in kinds
    with pytest.raises(IllegalActionError):
        do(enc, ScriptedDice([10], sides=20), "musketeer: shoot quick -> steven")


def test_quick_shot_on_the_ground_and_while_grappling_but_no_aim_or_strenuous_shot():
    enc, g = gunner(steven_hex=(1, 0))
    g.standing = False
    got = {a.args[0] for a in enc.legal_actions() if a.kind == "shoot"}
    assert got == {"quick"}  # strategic and cautious shots are standing only
    enc, g = gunner(steven_hex=(1, 0))
    enc.grapples[frozenset(("musketeer", "steven"))] = {"base": "standing", "dominant": None}
    kinds = {(a.kind, a.args[0] if a.args else None) for a in enc.legal_actions()}
    assert ("shoot", "quick") in kinds and ("aim", None) not in kinds
    assert ("shoot", "strategic") not in kinds and ("shoot", "cautious") not in kinds


# --------------------------------------------------------------------------- reloading (RULING R50)


def test_clip_pistol_unload_then_load_one_use_of_the_gun_a_turn():
    dice = ScriptedDice([], sides=20)
    enc, g = gunner(shots=0)
    assert "musketeer: load" not in labels(enc)  # the clip is still in
    do(enc, dice, "musketeer: unload")
    assert g.clip_out == ["pistol"] and g.shots == {"pistol": 0}
    assert "musketeer: load" not in labels(
        enc
    )  # a second use of the pistol at speed 1 (RULING R11)
    do(enc, dice, "musketeer: end", "steven: end")
    assert "musketeer: load" in labels(enc) and "musketeer: unload" not in labels(enc)
    do(enc, dice, "musketeer: load")
    assert g.clip_out == [] and enc.shots_left(g, "pistol") == 8
    do(enc, dice, "musketeer: end", "steven: end")
    assert "musketeer: shoot quick -> steven" in labels(enc)


def test_round_by_round_revolver_one_round_a_load_and_a_load_is_a_use_of_the_gun():
    dice = ScriptedDice([], sides=20)
    enc, g = gunner("revolver", steven_hex=(1, 0), shots=4)
    do(enc, dice, "musketeer: load")
    assert g.shots == {"revolver": 5}
    got = labels(enc)
    assert (
        "musketeer: load" not in got and "musketeer: shoot quick -> steven" not in got
    )  # the gun is used
    assert (
        "musketeer: strike quick left_hand -> steven" in got
    )  # a second weapon: S + 1 (spec §4.4)
    do(enc, dice, "musketeer: end", "steven: end", "musketeer: load")
    assert g.shots == {"revolver": 6}
    do(enc, dice, "musketeer: end", "steven: end")
    assert "musketeer: load" not in labels(enc) and "musketeer: unload" not in labels(
        enc
    )  # full; no clip


def test_musket_nine_full_turn_reload_actions_then_a_shot():
    dice = ScriptedDice([15, 15], sides=20)
    enc, g = gunner("musket", steven_hex=(6, 0))  # d_m 10: penalty floor(200 / 100) = 2
    roll = rolled(do(enc, dice, "musketeer: shoot quick -> steven"))
    assert (roll.modifier, roll.difficulty, roll.success) == (4, 12, True)
    assert g.shots == {"musket": 0} and enc.by_id["steven"].damage == 10
    do(enc, dice, "musketeer: end", "steven: end")
    do(enc, dice, "musketeer: drop")  # a quick action first: no full-turn reload this turn
    assert "musketeer: load" not in labels(enc)
    do(
        enc,
        dice,
        "musketeer: end",
        "steven: end",
        "musketeer: stand",
        "musketeer: end",
        "steven: end",
    )
    for k in range(1, 10):
        assert not any(a.kind == "shoot" for a in enc.legal_actions())
        do(enc, dice, f"musketeer: move {3 if k % 2 else 0}")  # moving first is allowed (spec §4.2)
        do(enc, dice, "musketeer: load")
        assert not any(
            a.kind in ("load", "strike", "drop") for a in enc.legal_actions()
        )  # the turn's one action
        assert g.reloading == ({"musket": k} if k < 9 else {})
        do(enc, dice, "musketeer: end", "steven: end")
    assert g.shots == {"musket": 1} and "musketeer: load" not in labels(enc)
    roll = rolled(do(enc, dice, "musketeer: shoot quick -> steven"))
    assert roll.success and enc.by_id["steven"].damage == 20 and g.shots == {"musket": 0}


def test_a_muzzle_loader_reloads_while_injured_as_an_other_action():
    enc, g = gunner("musket", shots=0, stun=8)  # T 8 > toughness 6: injured (RULING R12)
    assert g.health == "injured" and "musketeer: load" in labels(enc)


# --------------------------------------------------------------------------------- aim (RULING R31)


def test_aim_adds_5_to_the_next_gun_shot_and_is_lost_on_harm():
    dice = ScriptedDice([7], sides=20)
    enc, g = gunner()  # difficulty 15 at 8 hexes
    do(enc, dice, "musketeer: aim")
    assert g.aiming == "pistol" and "musketeer: aim" not in labels(enc)
    do(enc, dice, "musketeer: end", "steven: end")
    assert not any(
        a.args[:1] == ("strategic",) for a in enc.legal_actions() if a.kind == "shoot"
    )  # R31
    roll = rolled(do(enc, dice, "musketeer: shoot quick -> steven"))
    assert (roll.modifier, roll.difficulty, roll.success) == (9, 15, True) and g.aiming is None
    dice = ScriptedDice([7], sides=20)
    enc, g = gunner()
    do(enc, dice, "musketeer: aim", "musketeer: end", "steven: end")
    strikes.harm(enc, g, 1, "padded", 0, [])
    roll = rolled(do(enc, dice, "musketeer: shoot quick -> steven"))
    assert (roll.modifier, roll.success) == (4, False)


# ---------------------------------------------------------------------- bows and guns, items, state


def test_a_drawn_bow_takes_the_shot_else_the_gun():
    enc = fight(("archer", "archer", "A", (0, 0)), ("steven", "steven", "B", (8, 0)))
    a = enc.by_id["archer"]
    a.held = {"left": "light_bow", "right": "pistol"}
    a.bow_drawn = True
    kinds = {x.kind for x in enc.legal_actions()}
    assert "load" not in kinds and "unload" not in kinds and "relax" in kinds  # RULING R32
    roll = rolled(do(enc, ScriptedDice([20], sides=20), "archer: shoot quick -> steven"))
    assert "light_bow" in roll.purpose and not a.bow_drawn and a.shots == {}
    enc = fight(("archer", "archer", "A", (0, 0)), ("steven", "steven", "B", (8, 0)))
    a = enc.by_id["archer"]
    a.held = {"left": "light_bow", "right": "pistol"}
    roll = rolled(do(enc, ScriptedDice([20], sides=20), "archer: shoot quick -> steven"))
    assert "pistol" in roll.purpose and a.shots == {"pistol": 7}  # rulings.SHOT_WEAPON
    assert rulings.SHOT_WEAPON == "drawn_bow_else_gun"


def test_a_dropped_gun_keeps_its_state_for_whoever_picks_it_up():
    dice = ScriptedDice([], sides=20)
    enc, g = gunner(shots=3, steven_hex=(1, 0))
    do(enc, dice, "musketeer: drop_item right")
    assert (
        g.shots == {}
        and enc.floor[(0, 0)] == ["pistol"]
        and enc.floor_guns == {"0,0:pistol": [{"shots": 3, "clip_out": False, "reloading": 0}]}
    )
    do(enc, dice, "musketeer: end")
    s = enc.by_id["steven"]
    s.held = {}
    do(enc, dice, "steven: pick_up pistol 0,0")
    assert s.held == {"right": "pistol"} and s.shots == {"pistol": 3} and enc.floor_guns == {}


def test_snapshot_and_clone_carry_the_gun_state():
    enc, g = gunner("musket", shots=0, reloading={"musket": 4})
    g.clip_out.append("pistol")
    g.shots["pistol"] = 0
    enc.floor_guns["1,1:revolver"] = [{"shots": 2, "clip_out": False, "reloading": 0}]
    snap = enc.snapshot()
    assert snap["combatants"]["musketeer"]["shots"] == {"musket": 0, "pistol": 0}
    assert snap["combatants"]["musketeer"]["reloading"] == {"musket": 4}
    back = ManoEncounter.from_snapshot(yaml.safe_load(yaml.safe_dump(snap)))
    assert back.snapshot() == snap
    copy = enc.clone()
    copy.by_id["musketeer"].shots["musket"] = 1
    copy.by_id["musketeer"].reloading.clear()
    copy.floor_guns.clear()
    assert g.shots["musket"] == 0 and g.reloading == {"musket": 4} and enc.floor_guns


def test_a_situation_sets_the_gun_state():
    data = {
        "system": "mano_a_mano",
        "order": ["musketeer", "steven"],
        "actor": "musketeer",
        "combatants": [
            {
                "id": "musketeer",
                "side": "A",
                "state": {
                    "hex": [0, 0],
                    "held": {"right": "pistol"},
                    "shots": {"pistol": 0},
                    "reloading": {"musket": 2},
                },
            },
            {"id": "steven", "side": "B", "state": {"hex": [3, 0]}},
        ],
    }
    enc = from_situation(data)
    g = enc.by_id["musketeer"]
    assert (
        g.shots == {"pistol": 0}
        and g.reloading == {"musket": 2}
        and "musketeer: unload" in labels(enc)
    )
    bad = {
        **data,
        "combatants": [
            {**data["combatants"][0], "state": {"hex": [0, 0], "shots": {"pistol": 9}}},
            data["combatants"][1],
        ],
    }
    with pytest.raises(DataError, match="field 'shots': pistol: expected an integer in 0..8"):
        from_situation(bad)


def test_load_and_unload_encode_through_the_singles():
    from envs.mano_a_mano.encoding import LAYOUT, SINGLES, ManoEncoding

    size = LAYOUT.size
    code = ManoEncoding()
    enc, g = gunner(shots=0)
    for action in enc.legal_actions():
        i = code.encode_action(enc, "musketeer", action)
        assert code.decode_action(enc, "musketeer", i) == action
    assert code.encode_actions(enc, "musketeer", enc.legal_actions()) == [
        code.encode_action(enc, "musketeer", a) for a in enc.legal_actions()
    ]
    assert {"load", "unload"} <= set(SINGLES) and LAYOUT.size == size
