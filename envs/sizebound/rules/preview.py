"""Public previews and the player's view (DESIGN.md: agents never call private members and
never re-derive odds): chance to hit, expected damage, who is in reach."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from envs.core.d20 import Edge, chance
from envs.core.squaregrid import DIRECTIONS

from . import rulings
from .attack import Strike, dodge_bonus, hit_terms
from .full_flee import flee_cost
from .legal import step_target, strike_mode, weapon_in
from .passing import step_limit, through
from .procedures import edge
from .space import blockers, dist

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["AttackPreview", "preview_attack", "preview_step", "in_reach", "public_view"]


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """``attack <slot> -> target`` before reactions: P(hit Defense), P(crit), expected damage
    (crit-weighted, before Guard and reactions), and the mode (melee, thrown, ranged)."""

    hit: float
    crit: float
    expected_damage: float
    mode: str


def preview_attack(enc: SizeboundEncounter, actor: str, slot: str, target: str
                   ) -> AttackPreview | None:
    a, t = enc.by_id[actor], enc.by_id[target]
    wid = weapon_in(a, slot) if slot in ("main", "off") else "unarmed"
    if wid is None:
        return None
    w = a.profile.weapon(wid)
    mode = strike_mode(enc, a, t, w)
    if mode is None:
        return None
    mod, adv, dis = hit_terms(enc, a, t, Strike(w, mode != "melee", wid))
    e = edge(adv, dis + int(a.lethargic))
    sure = min(w.crit) if w.crit else None
    hit, crit, exp = _odds(mod + a.unnerved, t.profile.defense, e, sure,
                           w.mean_dice + a.mod(w.stat))
    return AttackPreview(hit, crit, exp, mode)


def preview_step(enc: SizeboundEncounter, actor: str, direction: str
                 ) -> tuple[int, int] | None:
    """Where the legal ``step <direction>`` leaves ``actor``'s anchor: the next cell, the far
    side of a passage through allies (spec §5.0.5), or ``None`` when the step flees off the map
    (spec §8.11, FULL)."""
    f = enc.by_id[actor]
    d = rulings.DIRECTIONS.index(direction)
    dx, dy = DIRECTIONS[d]
    x, y, n = f.x + dx, f.y + dy, f.n
    if 0 <= x and x + n <= enc.grid.width and 0 <= y and y + n <= enc.grid.height and not any(
            o.alive and o is not f and o.x < x + n and x < o.x + o.n and o.y < y + n
            and y < o.y + o.n for o in enc.fighters):
        return (x, y)  # nobody there: the plain step (when it is legal)
    new = step_target(enc, f, d)
    if new is not None:
        return new
    if flee_cost(enc, f, d) is not None:
        return None
    passage = through(enc, f, d, step_limit(enc, f), blockers(f, enc.fighters))
    return passage[0][-1] if passage is not None else None


@lru_cache(maxsize=4096)
def _odds(mod: int, defense: int, e: Edge, sure: int | None, base: float
          ) -> tuple[float, float, float]:
    """(P(hit), P(crit), expected damage) of one attack roll, exact in fractions (the same few
    numbers recur all fight, so they are computed once)."""
    p_hit = chance(mod, defense, e, fumble=1, sure=sure)
    p_crit = Fraction(0)
    if sure:
        p_crit = Fraction(21 - sure, 20)
        if e > 0:
            p_crit = 1 - (1 - p_crit) ** 2
        elif e < 0:
            p_crit = p_crit ** 2
    mean = Fraction(base).limit_denominator()
    exp = float((p_hit - p_crit) * mean + p_crit * 2 * mean)
    return float(p_hit), float(p_crit), max(0.0, exp)


def in_reach(enc: SizeboundEncounter, actor: str) -> dict[str, list[str]]:
    """Weapon slot -> the enemies that slot can attack now (reach, range, sight)."""
    a = enc.by_id[actor]
    out: dict[str, list[str]] = {}
    for slot in ("main", "off"):
        wid = weapon_in(a, slot)
        if wid is None:
            continue
        w = a.profile.weapon(wid)
        out[slot] = [t.id for t in enc.fighters if t.alive and t.side != a.side
                     and strike_mode(enc, a, t, w) is not None]
    out["jab"] = [t.id for t in enc.fighters if t.alive and t.side != a.side and dist(a, t) <= 1]
    return out


def public_view(enc: SizeboundEncounter, actor: str) -> dict[str, Any]:
    """Everything a player at the table knows (Sizebound has no hidden information): the
    snapshot's public parts plus derived numbers per combatant and the pending window."""
    me = enc.by_id[actor]
    people = {}
    for f in enc.fighters:
        p = f.profile
        mods = f.mods()  # athletics, nimble and arcana as the Fighter's properties read them
        people[f.id] = {
            "side": f.side, "ally": f.side == me.side, "alive": f.alive, "x": f.x, "y": f.y,
            "n": f.n, "size": p.size, "level": p.level, "hp": f.hp, "max_hp": p.max_hp,
            "pnr": p.pnr, "mana": f.mana, "max_mana": p.max_mana, "guard": f.guard,
            "dice": f.dice, "reactions": f.reactions, "defense": p.defense,
            "hit_mod": p.level + p.attacks, "dodge_mod": dodge_bonus(enc, f),
            "athletics": mods["might"] + p.attacks + p.sn,
            "nimble": mods["skill"] + p.attacks + 16 - p.sn,
            "arcana": mods["magic"] + p.mana_scaling,
            "block_guard": f.block_guard(), "conditions": sorted({c.name for c in f.conds}),
            "unnerved": f.unnerved, "action_rung": f.action_rung, "fatigue_rung": f.fatigue,
            "prone": f.prone, "grips": dict(f.grips), "grappled_by": list(f.grappled_by),
            "wielded": dict(f.wielded), "stowed": list(f.stowed),
            "used": f.used, "pool_open": f.pool_open, "general_attacks": f.pool_general,
            "weapon_attacks": dict(f.pool_weapon), "budget": f.budget, "move_mode": f.mode,
            "aim_active": f.aim_active, "distance": dist(me, f), "z": f.z,
        }
    return {
        "viewer": actor, "round": enc.round, "round_cap": enc.round_cap, "slot": enc.slot,
        "active_side": enc.active_side, "my_turn": me.side == enc.active_side,
        "window": None if enc.window is None else enc.window.to_dict(),
        "grid": enc.grid.to_dict(), "items": [list(i) for i in enc.items],
        "combatants": people, "in_reach": in_reach(enc, actor) if me.alive else {},
    }
