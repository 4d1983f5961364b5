"""What the Mano a Mano observation tells a policy about reach and guns (encoding.py)."""

from __future__ import annotations

from test_core_turns import do, fight

from envs.core import ScriptedDice
from envs.mano_a_mano.encoding import ENCODING, OBS

REACH, IT_STRIKES_ME, I_STRIKE_IT, HAS_GUN, SHOTS, CLIP_OUT, RELOAD = range(44, 51)


def row(enc, viewer: str, slot: int):
    return OBS.named(ENCODING.observe(enc, viewer))[f"slot{slot}"]


def test_reach_and_who_can_strike_whom():
    """A pike (range 2 m) reaches 2 hexes (RULING R7); Steven's machete and fists reach 1."""
    enc = fight(("steven", "steven", "A", (0, 0)), ("guard", "guard", "B", (2, 0)))
    guard = enc.by_id["guard"]
    guard.held = {"both": "pike"}
    enemy = row(enc, "steven", 4)  # ego slots: 0 = self, 4.. = enemies
    assert enemy[REACH] == 2 / 4
    assert (enemy[IT_STRIKES_ME], enemy[I_STRIKE_IT]) == (
        1.0,
        0.0,
    )  # 2 hexes apart: the pike, not the machete
    me = row(enc, "steven", 0)
    assert (me[REACH], me[IT_STRIKES_ME], me[I_STRIKE_IT]) == (1 / 4, 0.0, 0.0)
    enc.by_id["steven"].hex = (1, 0)
    enemy = row(enc, "steven", 4)
    assert (enemy[IT_STRIKES_ME], enemy[I_STRIKE_IT]) == (1.0, 1.0)


def test_gun_state_follows_shots_clip_and_reload():
    enc = fight(("musketeer", "musketeer", "A", (0, 0)), ("steven", "steven", "B", (5, 0)))
    m = enc.by_id["musketeer"]
    own = row(enc, "musketeer", 0)
    assert list(own[HAS_GUN : RELOAD + 1]) == [1.0, 1.0, 0.0, 0.0]  # a loaded musket (spec §3.6)
    assert list(row(enc, "musketeer", 4)[HAS_GUN : RELOAD + 1]) == [
        0.0,
        0.0,
        0.0,
        0.0,
    ]  # Steven: no gun
    m.shots["musket"] = 0
    m.reloading["musket"] = 3  # 3 of its 9 full-turn reloads done (RULING R50)
    assert list(row(enc, "steven", 4)[HAS_GUN : RELOAD + 1]) == [1.0, 0.0, 0.0, 3 / 9]
    m.held = {"right": "pistol"}
    do(enc, ScriptedDice([], sides=20), "musketeer: unload")
    assert list(row(enc, "musketeer", 0)[HAS_GUN : RELOAD + 1]) == [
        1.0,
        0.0,
        1.0,
        0.0,
    ]  # clip out: no shots
