"""Own-turn legal actions and their labels (spec §5.1, §12.3).

Label grammar (``<actor>: <kind> [args] [-> <target>]``)::

    end_turn | step <e|ne|n|nw|w|sw|s|se> | run | stand | aim | recover <hp|mana>
    drop_prone | swap | free_hand | pick_up <item> | drop <item> | break_free -> G | release -> T
    tighten -> T | attack <main|off> -> T | jab <atk|bonus> -> T | trip <atk|move> -> T
    grapple -> T | disarm -> T | cast <skill> [-> T]

Windows (spec §6.3, §6.5): ``drop_prone``, ``parry``, ``dodge``, ``block``, ``spend``,
``negate`` and always ``pass``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core.actions import Action
from envs.core.squaregrid import DIRECTIONS, distance

from . import rulings
from .attack import Strike
from .economy import can_free, can_pay_attack, can_spend, extra_payment, spendable
from .fighter import Fighter
from .full_actions import full_actions, panic_filter
from .full_conditions import body_locked, fear_sources, in_touch, is_full, no_magic
from .full_flee import flee_cost
from .full_lift import lift_actions
from .full_motion import height_ok, motion_actions, step_cost
from .full_move2 import cling_actions, phase_steps
from .full_skills import AURA, aura_actions
from .labels import act
from .passing import step_limit, through
from .procedures import can_fall_prone
from .profile import UNARMED, WeaponProfile
from .space import blockers, can_stop, dist, in_dark, line_of_sight, sees, stop_ok

if TYPE_CHECKING:
    from .state import SizeboundEncounter

DROP_SLOTS = ("both", "main", "off")
"""the hand slots whose item ``drop`` lets fall (Act, spec §5.2.12), in label order"""

__all__ = ["DROP_SLOTS", "turn_actions", "weapon_in", "strike_mode", "step_target",
           "loadout_change", "held_item", "stand_cost", "liftable_items"]


def weapon_in(f: Fighter, slot: str) -> str | None:
    """spec §12.3 weapon slots: main = the ``main``/``both`` item, else the first natural
    weapon; off = the ``off`` item, else the next natural weapon not used as main."""
    nat = list(f.profile.natural)
    main = f.wielded.get("both") or f.wielded.get("main")
    if slot == "main":
        return main or (nat[0] if nat else None)
    off = f.wielded.get("off")
    if off:
        return off
    rest = [w for w in nat if w != main] if main else nat[1:]
    return rest[0] if rest else None


def strike_mode(enc: SizeboundEncounter, a: Fighter, t: Fighter, w: WeaponProfile
                ) -> str | None:
    """``melee`` within reach, ``thrown`` beyond reach within the thrown range, ``ranged`` for
    bows and Thrown-type weapons within range (LoS; not Blinded); else ``None`` (spec §2.5)."""
    d = dist(a, t)
    if w.reach is not None and d <= w.reach:
        return "melee"
    far = w.thrown if w.thrown is not None else w.range
    if far is None or d > far or "blinded" in a.conds or not sees(enc, a, t):
        return None
    return "thrown" if (w.thrown is not None or w.type == "Thrown") else "ranged"


def step_target(enc: SizeboundEncounter, f: Fighter, d: int) -> tuple[int, int] | None:
    dx, dy = DIRECTIONS[d]
    new = (f.x + dx, f.y + dy)
    if not can_stop(enc.grid, f, new, enc.fighters):
        return None
    if enc.heights and not height_ok(enc, f, new):  # spec §3.2 FULL: climb 1 a step
        return None
    return new


def stand_cost(f: Fighter) -> int:
    """RULING R-27: ``floor(Walk/2)`` under Move, ``min(Walk, 3)`` under Run."""
    w = f.profile.walk
    return min(w, 3) if f.mode == "run" else w // 2


def held_item(f: Fighter) -> tuple[str, str] | None:
    """The item Disarm or Free hand takes: off hand first for free_hand; (slot, id)."""
    for slot in ("off", "main", "both"):
        if slot in f.wielded:
            return slot, f.wielded[slot]
    return None


def loadout_change(f: Fighter) -> tuple[list[str], list[tuple[str, str]]]:
    """SWAP_LOADOUT (spec §12.3): (items to stow, (slot, item) to draw)."""
    p = f.profile
    if p.alternate is None:
        return [], []
    start = dict(p.wielded)
    goal = dict(p.alternate) if f.wielded == start else start
    stow = [w for s, w in f.wielded.items() if goal.get(s) != w]
    draw = [(s, w) for s, w in goal.items() if f.wielded.get(s) != w and w in f.stowed + stow]
    return stow, draw


def liftable_items(enc: SizeboundEncounter, f: Fighter) -> list[str]:
    """The distinct item ids on the ground within 1 space of ``f`` that its free hands can lift
    (spec §5.2.11, R-63), in ``enc.items`` order: what ``pick_up`` offers."""
    hands = f.free_hands
    seen: dict[str, None] = {}
    for wid, x, y in enc.items:
        if wid not in seen and distance(f.pos, f.n, (x, y), 1) <= 1 \
                and hands >= (enc.weapon(wid).hands or 1):
            seen[wid] = None
    return list(seen)


def _enemy_ok(enc: SizeboundEncounter, f: Fighter, t: Fighter) -> bool:
    return t is not f and t.alive and (t.side != f.side or enc.options.allow_friendly_fire)


def _can_move(enc: SizeboundEncounter, f: Fighter, cost: int) -> bool:
    if f.mode in ("move", "run"):
        return f.budget >= cost
    return f.mode == "none" and can_spend(f, "M") and f.profile.walk >= cost


_STEP_ARGS = tuple((name,) for name in rulings.DIRECTIONS)
_SKILLS: dict[int, tuple[Any, dict[str, Any]]] = {}
"""per stat block (by identity; the block is kept with its table): skill id -> skill"""


def _skills(p: Any) -> dict[str, Any]:
    """``{s.id: s for s in p.skills}``, built once per stat block (read-only)."""
    got = _SKILLS.get(id(p))
    if got is None or got[0] is not p:
        if len(_SKILLS) > 4096:
            _SKILLS.clear()
        got = _SKILLS[id(p)] = (p, {s.id: s for s in p.skills})
    return got[1]


def turn_actions(enc: SizeboundEncounter, f: Fighter) -> list[Action]:
    out = [act(f.id, "end_turn")]
    if not f.alive or f.unconscious:
        return out
    me = f.id
    grappled = bool(f.grappled_by)
    rooted = "rooted" in f.conds  # spec §7.2 Rooted: no steps, no Run, no standing
    ok = spendable(f)  # what does not change within the decision, read once
    can_m = "M" in ok
    if not grappled and not rooted and f.action_rung < 4 and f.fatigue < 4 \
            and not body_locked(f):  # no steps without a body
        for d in _step_dirs(enc, f, can_m):
            out.append(act(me, "step", _STEP_ARGS[d]))
        if f.mode == "none" and f.steps == 0 and not f.pool_open and not f.tired \
                and can_spend(f, "PM"):
            out.append(act(me, "run"))
        out += motion_actions(enc, f, lambda c: _can_move(enc, f, c))  # FULL §5.2.17-18
        if f.prone and f.fatigue < 4 and _can_move(enc, f, stand_cost(f) if f.mode != "none"
                                                    else f.profile.walk // 2):
            out.append(act(me, "stand"))
    general = can_pay_attack(f)
    if f.aim_round != enc.round and general:
        out.append(act(me, "aim"))
    if f.dice > 0 and can_free(f, body=False):
        if f.hp < f.profile.max_hp:
            out.append(act(me, "recover", ("hp",)))
        if f.mana < f.profile.max_mana:
            out.append(act(me, "recover", ("mana",)))
    react = extra_payment(f, "react") is not None  # FULL's React reads it too
    if react and can_fall_prone(f, enc=enc):
        out.append(act(me, "drop_prone"))
    stow, draw = loadout_change(f)
    if (stow or draw) and extra_payment(f, "item", len(stow) + len(draw)) is not None:
        out.append(act(me, "swap"))
    item_ok = extra_payment(f, "item") is not None
    if held_item(f) is not None and item_ok:
        out.append(act(me, "free_hand"))
    free = can_free(f)
    if free:  # spec §5.2.12 Act (Free): drop a held item into your space
        held = [f.wielded[k] for k in DROP_SLOTS if k in f.wielded]
        for item in dict.fromkeys(held):  # two of one weapon: one label, the main hand's first
            out.append(act(me, "drop", (item,)))
    free_hands = f.free_hands
    if item_ok:
        out += [act(me, "pick_up", (wid,)) for wid in liftable_items(enc, f)]
    for gid in f.grappled_by:
        if general:
            out.append(act(me, "break_free", target=gid))
    if free:
        for tid, hands in f.grips.items():
            out.append(act(me, "release", target=tid))
            if hands == 1 and free_hands >= 1:
                out.append(act(me, "tighten", target=tid))
    two_hand_held = bool(f.grappled_by) and any(
        enc.by_id[g].grips.get(me, 0) >= 2 for g in f.grappled_by
        if not any(c.source == g for c in f.conds.instances("arms_free")))
    skills = _skills(f.profile) if enc.options.skills else {}
    arms = []  # the slots that can pay an attack, with their weapons
    for slot in ("main", "off"):
        wid = weapon_in(f, slot)
        if wid is None:
            continue
        w = f.profile.weapon(wid)
        if two_hand_held and w.hands > 0:
            continue  # spec §5.2.9: a two-handed grip stops hand-held weapon attacks
        if can_pay_attack(f, wid):
            arms.append((slot, w))
    can_b = "B" in ok
    trip_move = f.mode == "none" and can_m
    grab = general and free_hands >= 1
    for t in enc.fighters:
        if not _enemy_ok(enc, f, t):
            continue
        tid = t.id
        d = dist(f, t)
        for slot, w in arms:
            if strike_mode(enc, f, t, w) is not None:
                out.append(act(me, "attack", (slot,), tid))
        # spec §7.2 Incorporeal (FULL): no physical interaction by or with it (Trip, Grapple,
        # Disarm; its blows still land, and it is immune to the physical types)
        touch = in_touch(f, t)
        if d <= 1:
            if general:
                out.append(act(me, "jab", ("atk",), tid))
            if can_b:
                out.append(act(me, "jab", ("bonus",), tid))
            if touch and can_fall_prone(t, enc=enc):
                if general:
                    out.append(act(me, "trip", ("atk",), tid))
                if trip_move:
                    out.append(act(me, "trip", ("move",), tid))
            if touch and grab and tid not in f.grips:
                out.append(act(me, "grapple", target=tid))
            if touch and general and held_item(t) is not None:
                out.append(act(me, "disarm", target=tid))
        bolt = skills.get("arcane_bolt")
        if bolt and general and d <= bolt.range and "blinded" not in f.conds \
                and not (bolt.magical and no_magic(f)) \
                and sees(enc, f, t):
            out.append(act(me, "cast", ("arcane_bolt",), tid))
    burst = skills.get("arcane_burst")
    if burst and "P" in ok and not f.pool_open and not (burst.magical and no_magic(f)):
        for t in enc.fighters:
            if t.alive and distance(f.pos, f.n, t.pos, 1) <= burst.range \
                    and line_of_sight(enc.grid, f.pos, f.n, t.pos, 1) \
                    and (t is f or not in_dark(enc, f, t)):  # §3.2 Darkness: it sees t
                out.append(act(me, "cast", ("arcane_burst",), t.id))
    full = is_full(enc)  # spec §12.1 item 5, §12.2: Mend and Stomp are FULL content
    mend = skills.get("mend") if full else None
    if mend and "B" in ok and not (mend.magical and no_magic(f)):
        for t in enc.fighters:
            if t.alive and dist(f, t) <= 1 and t.hp < t.profile.max_hp:
                out.append(act(me, "cast", ("mend",), t.id))
    stomp = skills.get("stomp") if full else None
    if stomp and "P" in ok and not f.pool_open \
            and f.profile.size_index >= stomp.min_size_index:
        out.append(act(me, "cast", ("stomp",)))
    roar = skills.get("roar")  # Roar's fear is FULL or CORE-optional (options.fear)
    if roar and enc.options.fear and "B" in ok \
            and f.skill_uses.get("roar", 0) < (roar.uses or 1):
        out.append(act(me, "cast", ("roar",)))
    if AURA in skills:
        out += aura_actions(enc, f, skills)  # FULL: spec §5.3, §9.4
    if full:
        out += full_turn_actions(enc, f, general, react, free)
        out = panic_filter(enc, f, out)
    return out


def full_turn_actions(enc: SizeboundEncounter, f: Fighter, general: bool | None = None,
                      react: bool | None = None, free: bool | None = None) -> list[Action]:
    """The FULL own-turn actions; ``general`` (``can_pay_attack(f)``), ``react`` (React's
    Extra payable) and ``free`` (``can_free(f)``): the checks ``turn_actions`` made, passed on
    (``None``: computed here)."""
    if general is None:
        general = can_pay_attack(f)
    return full_actions(enc, f, general, react, free) + lift_actions(enc, f, general) \
        + phase_steps(enc, f) \
        + cling_actions(enc, f)  # spec §5.2.16, §5.2.17, §7.2 Incorporeal


def _step_dirs(enc: SizeboundEncounter, f: Fighter, can_m: bool) -> list[int]:
    """The directions of the legal steps (``_can_move``, ``step_target``, ``_afraid_ok``,
    ``drag_ok``), with the others' places read once for the eight."""
    if f.mode in ("move", "run"):
        limit = f.budget
    elif f.mode == "none" and can_m:
        limit = f.profile.walk
    else:
        return []
    grid = enc.grid
    factor = 2 if f.prone else 1
    rough = bool(grid.difficult)
    others = blockers(f, enc.fighters)
    afraid = bool(fear_sources(f))  # Afraid, Panicked, Terrified (spec §7.1)
    heights = bool(enc.heights)
    dragging = bool(f.grips)
    x, y = f.pos
    flat = None if rough else step_cost(enc, f, factor)  # the same for the eight
    out = []
    for d, (dx, dy) in enumerate(DIRECTIONS):
        cost = flat if flat is not None else step_cost(enc, f, grid.step_cost(f.pos, d, f.n,
                                                                             factor))
        if limit < cost:
            continue
        new = (x + dx, y + dy)
        if stop_ok(grid, f, new, others):
            if (not heights or height_ok(enc, f, new)) \
                    and (not afraid or _afraid_ok(enc, f, new)) \
                    and (not dragging or enc.drag_ok(f, d, new)):
                out.append(d)
        elif through(enc, f, d, step_limit(enc, f), others) is not None:  # §5.0.5: past allies
            out.append(d)
        elif flee_cost(enc, f, d, step_limit(enc, f)) is not None:  # §8.11 (FULL): off the map
            out.append(d)
    return out


def _afraid_ok(enc: SizeboundEncounter, f: Fighter, new: tuple[int, int]) -> bool:
    """spec §7.2 Afraid: no step that reduces the distance to the fear source."""
    for source in fear_sources(f):  # Afraid, Panicked, Terrified (spec §7.1)
        src = enc.by_id.get(source)
        if src is not None and src.alive and dist(f, src, new) < dist(f, src):
            return False
    return True


UNARMED_STRIKE = Strike(UNARMED, False, "jab")
