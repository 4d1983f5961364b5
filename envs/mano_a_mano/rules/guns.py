"""Mano a Mano guns (spec §5.6 "Guns (FULL)", §3.6, RULING R50, R11, R31).

A gun is an item of kind ``gun`` with ``shots: [s, t]`` (spec §2.4): ``s`` shots before reloading,
``t`` the reload time in turns, and how it reloads (the catalogue's ``reload``, GUN_RELOADS):

* ``clip``: *unload* (quick) takes the clip out, *load* (quick) puts a full one in: ``s`` shots;
* ``round``: each *load* (quick) adds one round, up to ``s``;
* muzzle-loader (``t >= rulings.MUZZLE_LOADER_TURNS``): *load* is a full-turn "other" action (the
  turn's single action, like rest); after ``t`` of them the gun holds ``s`` shots (spec §11.18: a
  musket, 9 reload actions and a turn to fire).

Guns start loaded to full (spec §3.6); ammunition is unlimited (RULING R33). Each shot, aim, load
and unload is a use of the gun (RULING R11). Shots: quick (allowed on the ground and while
grappling), strategic (+5) and cautious (+5 defense), range and distance penalty as for bows; aim
+5 to the next attack with the gun, lost on damage or stun (RULING R31). A loaded gun does not
block other actions. Labels: ``gunner: shoot quick -> steven``, ``gunner: aim``, ``gunner: load``,
``gunner: unload`` (the gun is not named: rulings.SHOT_WEAPON).

State per fighter, keyed by the gun's item id (rulings.GUN_STATE_PER_ITEM): ``shots`` (shots left;
a gun missing from it is full), ``clip_out`` (clip guns whose clip is out) and ``reloading``
(muzzle-loader reload actions done). A dropped or disarmed gun keeps its state on the floor
(``floor_guns``) and gives it to whoever picks it up.

Plain functions of the encounter (``state.ManoEncounter``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core import Action
from envs.core.events import Event

from . import legal, missiles, rulings, turns
from .events import GunLoaded, Note, Reloading

if TYPE_CHECKING:
    from .catalogue import Item
    from .fighter import Fighter, Turn
    from .state import ManoEncounter


def gun_reload(it: Item) -> str | None:
    """How ``it`` reloads: ``"clip"``, ``"round"``, ``"muzzle"`` (RULING R50), or ``None`` for a
    gun without the shots feature (it never runs out)."""
    if it.shots is None:
        return None
    if it.shots[1] >= rulings.MUZZLE_LOADER_TURNS:
        return "muzzle"
    return it.reload or rulings.gun_reload_default(it.shots[0])


def shots_left(f: Fighter, item: str) -> int:
    """Shots left in ``item`` (full when not recorded, spec §3.6); a large number without the
    shots feature."""
    it = f.block.items[item]
    if it.shots is None:
        return 1 << 30
    return f.shots.get(item, it.shots[0])


def gun_actions(enc: ManoEncounter, f: Fighter, t: Turn) -> list[Action]:
    """Aim, shots, load and unload with the held gun (spec §5.3 rows 11-14, 17, 18)."""
    out = [
        Action(f.id, "drop_item", (h,))
        for h, i in sorted(f.held.items())
        if f.block.items[i].missile
    ]  # spec §5.3 row 34: dropping any held item is free, a bow or a gun too
    gun = f.gun()
    if gun is None or f.bow_drawn:  # RULING R32: a drawn bow allows bow actions only
        return out
    hand, item = gun
    it = f.block.items[item]
    stats = f.block.item_stats(item, hand)
    quick_ok = legal.may_act(enc, f, t, quick=True) and legal.capacity_ok(enc, f, t, item, stats)
    strenuous_ok = legal.may_act(enc, f, t, quick=False) and not stats.unwieldy  # GUNS_UNWIELDY
    grappling = enc.grappling(f.id)
    if shots_left(f, item) > 0:
        if quick_ok and not grappling and f.aiming != item:
            out.append(Action(f.id, "aim"))
        out += missiles.shot_actions(
            enc, f, item, it.range_m, quick_ok, strenuous_ok and f.standing and not grappling
        )
    reload = gun_reload(it)
    if reload == "clip":
        if quick_ok:
            out.append(Action(f.id, "load" if item in f.clip_out else "unload"))
    elif reload == "round":
        assert it.shots is not None  # a gun with a reload kind has shots (catalogue check)
        if quick_ok and shots_left(f, item) < it.shots[0]:
            out.append(Action(f.id, "load"))
    elif reload == "muzzle":  # RULING R50: a full-turn "other" action, alone in its turn
        assert it.shots is not None
        if shots_left(f, item) < it.shots[0] and legal.may_act(enc, f, t, quick=False, other=True):
            out.append(Action(f.id, "load"))
    return out


def gun_action(
    enc: ManoEncounter, f: Fighter, t: Turn, action: Action, events: list[Event]
) -> None:
    """Aim, load or unload the held gun."""
    gun = f.gun()
    assert gun is not None  # legal only with a held gun
    _, item = gun
    it = f.block.items[item]
    kind = action.kind
    reload = gun_reload(it)
    muzzle = kind == "load" and reload == "muzzle"
    turns.count_action(enc, f, t, quick=not muzzle, weapon=item)  # a use of the gun (RULING R11)
    if kind == "aim":
        f.aiming = item
        events.append(Note(f.id, f"aims {item}"))
    elif kind == "unload":
        f.shots[item] = 0
        f.clip_out.append(item)
        events.append(Note(f.id, f"unloads {item}: clip out"))
    elif reload == "clip":
        assert it.shots is not None
        f.clip_out.remove(item)
        f.shots[item] = it.shots[0]
        events.append(GunLoaded(f.id, item, it.shots[0], one_round=False))
    elif reload == "round":
        f.shots[item] = shots_left(f, item) + 1
        events.append(GunLoaded(f.id, item, f.shots[item], one_round=True))
    else:  # muzzle-loader: t full-turn reload actions (RULING R50)
        assert it.shots is not None
        s, needed = it.shots
        done = f.reloading.get(item, 0) + 1
        if done >= needed:
            f.reloading.pop(item, None)
            f.shots[item] = s
            events.append(Reloading(f.id, item, done, needed, s))
        else:
            f.reloading[item] = done
            events.append(Reloading(f.id, item, done, needed))


def spend_shot(enc: ManoEncounter, f: Fighter, item: str) -> None:
    """A shot uses one of ``s`` (spec §5.6)."""
    if f.block.items[item].shots is not None:
        f.shots[item] = shots_left(f, item) - 1


def state_out(enc: ManoEncounter, f: Fighter, item: str) -> dict[str, Any] | None:
    """Take the state of ``item`` off ``f`` (it leaves f's hands); ``None`` for a non-gun."""
    if f.block.items[item].kind != "gun":
        return None
    if f.aiming == item:
        f.aiming = None  # the aim goes with the gun out of the hands
    state = {
        "shots": f.shots.pop(item, None),
        "clip_out": item in f.clip_out,
        "reloading": f.reloading.pop(item, 0),
    }
    if item in f.clip_out:
        f.clip_out.remove(item)
    return state


def state_in(enc: ManoEncounter, f: Fighter, item: str, state: dict[str, Any] | None) -> None:
    """Give ``f`` the state of ``item`` it now holds."""
    if state is None:
        return
    if state["shots"] is not None:
        f.shots[item] = state["shots"]
    if state["clip_out"]:
        f.clip_out.append(item)
    if state["reloading"]:
        f.reloading[item] = state["reloading"]


def to_floor(enc: ManoEncounter, f: Fighter, item: str, hex_: tuple[int, int]) -> None:
    state = state_out(enc, f, item)
    if state is not None:
        enc.floor_guns.setdefault(f"{hex_[0]},{hex_[1]}:{item}", []).append(state)


def from_floor(enc: ManoEncounter, f: Fighter, item: str, hex_: tuple[int, int]) -> None:
    key = f"{hex_[0]},{hex_[1]}:{item}"
    states = enc.floor_guns.get(key)
    if states:
        state_in(enc, f, item, states.pop(0))
        if not states:
            del enc.floor_guns[key]


def handed_over(enc: ManoEncounter, frm: Fighter, to: Fighter, item: str) -> None:
    state_in(enc, to, item, state_out(enc, frm, item))


def fields(f: Fighter) -> dict[str, Any]:
    return {
        "shots": dict(sorted(f.shots.items())),
        "clip_out": sorted(f.clip_out),
        "reloading": dict(sorted(f.reloading.items())),
    }


def restore(enc: ManoEncounter, data: dict[str, Any]) -> None:
    for f in enc.fighters:
        c = data["combatants"][f.id]
        f.shots, f.clip_out = dict(c.get("shots", {})), list(c.get("clip_out", []))
        f.reloading = dict(c.get("reloading", {}))
    enc.floor_guns = {k: [dict(s) for s in v] for k, v in data.get("floor_guns", {}).items()}


def situation_gun_state(st: Any, f: Fighter) -> None:
    """A situation's gun state for ``f`` (``st``: the combatant's ``state`` entry): ``shots``
    {gun: shots left, 0..s}, ``clip_out`` [clip gun, ...] (its shots are then 0), ``reloading``
    {muzzle-loader: reload actions done, 0..t-1}. Guns not given are full (spec §3.6)."""
    guns = {i: it for i, it in f.block.items.items() if it.kind == "gun" and it.shots is not None}
    for key in ("shots", "reloading"):
        given = st.opt(key, {}, dict)
        for item, n in given.items():
            if item not in guns or (key == "reloading" and gun_reload(guns[item]) != "muzzle"):
                what = "muzzle-loader" if key == "reloading" else "gun with shots"
                st.fail(key, f"{item!r} is not a {what}; known: {', '.join(sorted(guns))}")
            shots = guns[item].shots
            assert shots is not None  # guns with shots only
            s, t = shots
            top = s if key == "shots" else t - 1
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= top:
                st.fail(key, f"{item}: expected an integer in 0..{top}, got {n!r}")
        getattr(f, key).update(given)
    for item in st.opt("clip_out", [], list):
        if item not in guns or gun_reload(guns[item]) != "clip":
            st.fail("clip_out", f"{item!r} is not a clip gun")
        f.clip_out.append(item)
        f.shots[item] = 0
