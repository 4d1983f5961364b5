"""Own-turn actions (spec §5.2, §5.3): costs (A1) and resolution."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx
from envs.core.squaregrid import footprint

from . import rulings
from .attack import Strike, area_attack, attack, charge_ready
from .conventions import reduce_to
from .damage import true_damage
from .economy import extra_payment, pay_attack, pay_extra, spend, use_free
from .events import (
    Aimed,
    GrappleChanged,
    Healed,
    ItemMoved,
    MoveOpened,
    Recovered,
    SkillUsed,
    StoodUp,
)
from .fighter import FatigueRung, Fighter
from .full_actions import FULL_KINDS, resolve_full
from .full_areas import resolve_area_skill
from .full_conditions import drunk_shrugs_fear
from .full_flee import flee, flee_cost
from .full_lift import LIFT_KINDS, carried, resolve_lift
from .full_motion import move_speed, resolve_motion, winded_flight
from .full_move2 import hail_start, phase_step, resolve_cling
from .full_reactions import dispel
from .full_sides import spend_die
from .full_skills import AURA, cast_aura, turn_check
from .legal import (
    DROP_SLOTS,
    UNARMED_STRIKE,
    held_item,
    loadout_change,
    stand_cost,
    step_target,
    strike_mode,
    weapon_in,
)
from .passing import pass_step, step_limit, through
from .procedures import (
    add_condition,
    athletics_bonus,
    contest,
    has_steal_edge,
    make_prone,
    use_steal_edge,
)
from .profile import WeaponProfile
from .space import blockers, cells, cells_within, dist

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["resolve_turn_action"]

NON_CHARGE = frozenset({"step", "end_turn", "recover", "release", "tighten", "drop", "act"})
"""Free actions and steps keep a Charge alive (RULING R-31)."""


def _open_move(ev: list[Event], f: Fighter, budget: int | None = None) -> None:
    if f.mode == "none":
        spend(f, "M")
        f.mode, f.budget = "move", f.profile.walk if budget is None else budget
        ev.append(MoveOpened(f.id, "move", f.budget))


def _free_extra(f: Fighter, a: Action) -> bool:
    """spec §5.2.6, R-31 "Free actions excepted": the turn's first (Free, §4.4) use of an Extra
    action, Manipulate Item or React, keeps a Charge alive."""
    if a.kind in ("free_hand", "pick_up", "drop_prone"):
        uses = 1
    elif a.kind == "swap":
        stow, draw = loadout_change(f)
        uses = len(stow) + len(draw)
    else:
        return False
    return extra_payment(f, "react" if a.kind == "drop_prone" else "item", uses) == []


def resolve_turn_action(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], a: Action) -> None:
    f = enc.by_id[a.actor]
    if enc.options.version == "full":
        turn_check(enc, ctx, ev, f)  # spec §9.4: the Concentration check of this turn
    kind = a.kind
    charge_target = None
    # spec §5.2.6-§5.2.7, R-49: a Jab is an unarmed attack, so a Charge applies to it too
    if kind in ("attack", "jab") and a.target is not None \
            and charge_ready(enc, f, enc.by_id[a.target]):
        charge_target = a.target
    if kind not in NON_CHARGE and not _free_extra(f, a):
        f.charge_dir, f.charge_path = None, []
    t = enc.by_id[a.target] if a.target is not None else None
    hail_start(enc, ctx, ev, f)  # WE-37 (FULL): Large Hail before the turn's first action
    if not f.alive:
        return
    if kind == "step":
        d = rulings.DIRECTIONS.index(a.args[0])
        winded_flight(enc, ev, f)  # FULL, spec §7.2: a step in the air is flying
        if phase_step(enc, ctx, ev, f, d):  # FULL: an Incorporeal pass-through step
            pass
        elif step_target(enc, f, d) is None:
            limit = step_limit(enc, f)
            cost = flee_cost(enc, f, d, limit)
            if cost is not None:  # spec §8.11 (FULL): off the map, out of the fight
                flee(enc, ctx, ev, f, d, cost)
                return
            passage = through(enc, f, d, limit, blockers(f, enc.fighters))
            assert passage is not None  # spec §5.0.5: a passage through allies
            pass_step(enc, ctx, ev, f, d, passage)
        else:
            enc.do_step(ctx, ev, f, d)
    elif kind == "run":
        spend(f, "PM")
        f.stun_count += 1  # a Multi-Action counts as 2 actions
        f.mode, f.budget = "run", 2 * f.profile.walk
        ev.append(MoveOpened(f.id, "run", f.budget))
        if f.fatigue == FatigueRung.WINDED:
            add_condition(enc, ev, f, "tired", rounds=1)
    elif kind == "stand":
        _open_move(ev, f, move_speed(enc, f))
        cost = stand_cost(f)
        f.budget -= cost
        f.conds.remove("prone")
        ev.append(StoodUp(f.id, cost))
    elif kind == "aim":
        pay_attack(f)
        f.aim_active, f.aim_round = True, enc.round
        ev.append(Aimed(f.id))
    elif kind == "recover":
        use_free(f)
        spend_die(enc, f)  # a Host-style pool is the side's (FULL, spec §9.2)
        gain = ctx.dice.roll(6)[0] + f.profile.level
        if a.args[0] == "hp":
            new = min(f.profile.max_hp, f.hp + gain)
            ev.append(Recovered(f.id, "hp", new - f.hp))
            f.hp = new
        else:
            new = min(f.profile.max_mana, f.mana + gain)
            ev.append(Recovered(f.id, "mana", new - f.mana))
            f.mana = new
    elif kind == "drop_prone":
        pay_extra(f, "react")
        make_prone(enc, ctx, ev, f, on_purpose=True)
    elif kind in ("swap", "free_hand", "pick_up"):
        _items(enc, ev, f, a)
    elif kind == "drop":  # spec §5.2.12 Act (Free): the item falls into the actor's space
        use_free(f)
        slot = next(k for k in DROP_SLOTS if f.wielded.get(k) == a.args[0])
        del f.wielded[slot]
        enc.items.append([a.args[0], f.x, f.y])
        ev.append(ItemMoved(f.id, a.args[0], "dropped"))
    elif kind == "release":
        assert t is not None
        use_free(f)
        enc.end_grapple(ev, f, t, "released")
    elif kind == "tighten":
        assert t is not None
        use_free(f)
        f.grips[t.id] = 2
        ev.append(GrappleChanged(f.id, t.id, "tightened"))
    elif kind == "attack":
        assert t is not None
        wid = weapon_in(f, a.args[0])
        assert wid is not None
        w = f.profile.weapon(wid)
        mode = strike_mode(enc, f, t, w)
        pay_attack(f, wid)
        if mode == "thrown":
            _throw(enc, ev, f, wid, t)
        attack(enc, ctx, ev, f, t, Strike(w, mode != "melee", wid),
               charge=charge_target == t.id)
    elif kind == "jab":
        assert t is not None
        if a.args[0] == "atk":
            pay_attack(f)
        else:
            spend(f, "B")
        attack(enc, ctx, ev, f, t, UNARMED_STRIKE, charge=charge_target == t.id)
    elif kind == "trip":
        assert t is not None
        if a.args[0] == "atk":
            pay_attack(f)
        else:
            spend(f, "M")
            f.mode = "trip"  # paying with M gives no movement budget
        won, _ = contest(enc, ctx, ev, "trip", f, t, athletics_bonus(f), athletics_bonus(t))
        if won:
            make_prone(enc, ctx, ev, t, on_purpose=False)
    elif kind == "grapple":
        assert t is not None
        pay_attack(f)
        edge = has_steal_edge(f, t)  # spec §5.0.2: the first attack or Grapple roll
        use_steal_edge(ev, f, t)
        won, _ = contest(enc, ctx, ev, "grapple", f, t, athletics_bonus(f), athletics_bonus(t),
                         i_adv=int(edge))
        if won and t.alive and f.alive:
            f.grips[t.id] = 1
            f.fx.pop(f"lift:{t.id}", None)  # a grapple, not a lift (full_lift)
            t.grappled_by.append(f.id)
            ev.append(GrappleChanged(f.id, t.id, "grabbed"))
    elif kind == "break_free":
        assert t is not None
        pay_attack(f)
        if carried(t, f.id) and f.side == t.side:  # full_lift: a rider gets down
            enc.end_grapple(ev, t, f, "released")
            return
        mine = max(athletics_bonus(f), f.nimble)
        two = t.grips.get(f.id, 0) >= 2
        won, _ = contest(enc, ctx, ev, "break_free", f, t, mine, athletics_bonus(t),
                         d_adv=int(two), i_athletics=athletics_bonus(f) >= f.nimble)
        if won:
            enc.end_grapple(ev, t, f, "broke_free")
    elif kind == "disarm":
        assert t is not None
        pay_attack(f)
        _disarm(enc, ctx, ev, f, t)
    elif kind == "cast" and len(a.args) == 2:  # FULL: a Line or Cone skill (full_areas)
        resolve_area_skill(enc, ctx, ev, f, a)
    elif kind == "cast":
        _cast(enc, ctx, ev, f, a.args[0], t)
    elif kind in ("rise", "descend", "dive"):  # FULL motion (spec §5.2.17, §5.2.18)
        resolve_motion(enc, ctx, ev, f, kind)
    elif kind == "wall_cling":  # FULL: the Bonus-action cling (spec §5.2.17)
        resolve_cling(enc, ctx, ev, f)
    elif kind in FULL_KINDS:
        resolve_full(enc, ctx, ev, a)
    elif kind in LIFT_KINDS:  # FULL (spec §5.2.16)
        resolve_lift(enc, ctx, ev, a)
    else:  # pragma: no cover - legal_actions() lists only the kinds above
        raise AssertionError(f"unknown action kind {kind!r}")


def _throw(enc: SizeboundEncounter, ev: list[Event], f: Fighter, wid: str, t: Fighter) -> None:
    """spec §2.5: a thrown weapon lands in the target's space, hit or miss."""
    for slot, w in list(f.wielded.items()):
        if w == wid:
            del f.wielded[slot]
            break
    enc.items.append([wid, t.x, t.y])
    ev.append(ItemMoved(f.id, wid, "thrown"))


def _place(f: Fighter, w: WeaponProfile) -> str:
    if w.hands >= 2:
        return "both"
    return "main" if "main" not in f.wielded and "both" not in f.wielded else "off"


def _items(enc: SizeboundEncounter, ev: list[Event], f: Fighter, a: Action,
           free: bool = False) -> None:
    """Manipulate Item (spec §5.2.11): one use per item moved; ``free``: Quick Draw's Free use
    (spec §6.4.5), nothing paid."""
    if a.kind == "swap":
        stow, draw = loadout_change(f)
        if not free:
            pay_extra(f, "item", len(stow) + len(draw))
        for slot, w in list(f.wielded.items()):
            if w in stow:
                del f.wielded[slot]
                f.stowed.append(w)
                ev.append(ItemMoved(f.id, w, "stowed"))
        for slot, w in draw:
            f.stowed.remove(w)
            f.wielded[slot] = w
            ev.append(ItemMoved(f.id, w, "drawn"))
    elif a.kind == "free_hand":
        if not free:
            pay_extra(f, "item")
        held = held_item(f)
        assert held is not None
        del f.wielded[held[0]]
        f.stowed.append(held[1])
        ev.append(ItemMoved(f.id, held[1], "stowed"))
    else:
        if not free:
            pay_extra(f, "item")
        wid = a.args[0]
        near = [it for it in enc.items if it[0] == wid
                and min(dist_cell(c, (it[1], it[2])) for c in cells(f)) <= 1]
        near.sort(key=lambda it: (it[2], it[1]))
        enc.items.remove(near[0])
        f.wielded[_place(f, enc.weapon(wid))] = wid
        ev.append(ItemMoved(f.id, wid, "picked_up"))


def dist_cell(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _disarm(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, t: Fighter) -> None:
    """spec §5.2.10: main hand first; +2 per hand for a 2+-handed grip; win by 5 takes it."""
    slot = next(s for s in ("both", "main", "off") if s in t.wielded)
    wid = t.wielded[slot]
    w = enc.weapon(wid)
    bonus = rulings.DISARM_HAND_BONUS * w.hands if w.hands >= 2 else 0
    won, margin = contest(enc, ctx, ev, "disarm", f, t, athletics_bonus(f),
                          athletics_bonus(t) + bonus)
    if not won or not t.alive:
        return
    del t.wielded[slot]
    if margin >= rulings.DISARM_TAKE_MARGIN and f.free_hands >= max(1, w.hands):
        f.wielded[_place(f, w)] = wid
        ev.append(ItemMoved(f.id, wid, "taken"))
    else:
        enc.items.append([wid, t.x, t.y])
        ev.append(ItemMoved(t.id, wid, "dropped"))


def _pay_mana(enc: SizeboundEncounter, ev: list[Event], f: Fighter, sid: str, cost: int) -> None:
    """spec §9.1, R-16: Mana may go negative; the overdraw costs True damage."""
    m = f.mana
    f.mana = m - cost
    over = 0
    if f.mana < 0:
        over = 3 * (cost - max(m, 0)) if enc.options.mana_overdraw == "excess" else 3 * cost
    ev.append(SkillUsed(f.id, sid, cost, over))
    if over:
        true_damage(enc, ev, f, over)


def _cast(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, sid: str,
          t: Fighter | None) -> None:
    s = f.profile.skill(sid)
    assert s is not None
    if sid == "arcane_bolt":
        assert t is not None
        pay_attack(f)
        done: set[str] = set()  # spec §6.2, R-11: the bolt is one triggering action
        if s.magical and not dispel(enc, ctx, ev, f, sid, t, done):  # FULL, spec §6.4.6
            return
        _pay_mana(enc, ev, f, sid, s.mana)
        w = WeaponProfile(sid, "Skill", 0, s.dice_n, s.dice_sides, s.stat, s.dtypes,
                          reach=None, range=s.range, crit=s.crit)
        if f.alive:
            attack(enc, ctx, ev, f, t, Strike(w, True, sid, parryable=False), reacted=done)
    elif sid in ("arcane_burst", "stomp"):
        spend(f, "P")
        _pay_mana(enc, ev, f, sid, s.mana)
        if not f.alive:  # spec §3.1 "then", WE-32: killed by the overdraw, nothing goes off
            return
        if sid == "arcane_burst":
            assert t is not None
            lo = (s.size - 1) // 2
            area = set(footprint((t.x - lo, t.y - lo), s.size))  # spec §8.7 placed AoE
            area = {c for c in area if c in enc.grid and enc.grid.line_of_sight(t.pos, 1, c, 1)}
            hit = [g for g in enc.fighters if g.alive and set(cells(g)) & area]
        else:  # self-centred AoE: within s.size of any of the source's cells
            hit = [g for g in enc.fighters if g.alive and g.side != f.side
                   and dist(f, g) <= s.size]
        doubled = {g.id for g in hit if len(set(cells(g)) & area) >= 3} \
            if sid == "arcane_burst" else \
            {g.id for g in hit if cells_within(f, g, s.size) >= 3}  # spec §8.7 D8: Stomp too
        hurt = area_attack(enc, ctx, ev, f, hit, doubled, s.dice_n, s.dice_sides,
                           f.mod(s.stat), s.dtypes)
        if sid == "stomp":
            for g in hurt:
                if g.alive:
                    add_condition(enc, ev, g, "jarred", until_end_of_next_turn=True, source=f.id)
    elif sid == "mend":
        assert t is not None
        spend(f, "B")
        if s.magical and not dispel(enc, ctx, ev, f, sid, t):  # FULL, spec §6.4.6
            return
        _pay_mana(enc, ev, f, sid, s.mana)
        if not f.alive:  # spec §3.1 "then", WE-32
            return
        gain = sum(ctx.dice.roll(s.dice_sides, s.dice_n)) + f.mod(s.stat)
        if t.alive:
            new = reduce_to(t.hp + max(0, gain), t.profile.max_hp)  # WE-22
            ev.append(Healed(t.id, new - t.hp, new))
            t.hp = new
    elif sid == AURA:  # FULL, spec §5.3, §9.4
        cast_aura(enc, ctx, ev, f, s)
    elif sid == "roar":
        spend(f, "B")
        f.skill_uses["roar"] = f.skill_uses.get("roar", 0) + 1
        ev.append(SkillUsed(f.id, sid, 0, 0))
        if enc.options.fear:
            for g in enc.fighters:
                if g.alive and g.side != f.side and dist(f, g) <= s.range \
                        and "deafened" not in g.conds and not drunk_shrugs_fear(g, enc.round):
                    before = g.unnerved
                    add_condition(enc, ev, g, "unnerved", rounds=2, value=-3, source=f.id)
                    # spec §7.2 Unnerved: Afraid of the source of the instance that pushed the
                    # total below -2 (already below: no new Afraid, so no Panicked)
                    if g.unnerved < rulings.AFRAID_BELOW <= before:
                        add_condition(enc, ev, g, "afraid", rounds=2, source=f.id)
