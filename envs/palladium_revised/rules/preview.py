"""Public previews and the view (DESIGN.md: agents never call private engine members and never
re-derive odds): a Strike's hit chance and expected damage, what a Parry or Dodge would do and
which slot it would cost, the Zone bands between two combatants, and ``public_view`` (spec §12.3:
no hidden information; every total is public once rolled)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any

from . import rulings
from .combatant import Combatant
from .damage import pipeline
from .economy import can_pay_dodge
from .full_state import shields
from .legal import can_strike
from .profile import BAND_NAMES, band
from .rolls import arm_stacks, combat_total, effective_bonus, roll_pct
from .slots import AVAILABLE, future_index
from .strike import strike_pct

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["StrikePreview", "preview_strike", "DefensePreview", "preview_defense",
           "dodge_slot", "zone_bands", "public_view", "describe_rows"]


@dataclass(frozen=True, slots=True)
class StrikePreview:
    """One Strike's odds before any defence (spec §5.2; exact over the d20 and damage dice; the
    crit table is left out).

    Attributes:
        hit: chance the strike total beats the miss threshold.
        crit: chance of a hit with a natural roll in the crit range.
        armour: chance of a hit that lands on the armour layer (S0 <= AR, armour S.D.C. > 0).
        expected_damage: mean final damage (any layer), misses counted as 0.
        expected_body: mean damage to S.D.C./H.P.
        in_range: the weapon reaches the target now.
        closer_bands: ``k`` of spec §5.2.1; into_melee: the §5.2.2 penalty applies.
    """

    hit: float
    crit: float
    armour: float
    expected_damage: float
    expected_body: float
    in_range: bool
    closer_bands: int
    into_melee: bool


@lru_cache(maxsize=256)
def _sum_dist(count: int, sides: int) -> tuple[tuple[int, Fraction], ...]:
    """``(total, chance)`` of ``count`` d``sides`` (exact), once per dice."""
    out: dict[int, Fraction] = {}
    n = Fraction(1, sides ** count)
    for faces in product(range(1, sides + 1), repeat=count):
        out[sum(faces)] = out.get(sum(faces), Fraction(0)) + n
    return tuple(out.items())


_MEANS: dict[tuple[Any, ...], Fraction] = {}


def _mean_damage(w: Any, bonus: int, dm: Any, is_crit: bool, crit_pct: int, em: Any,
                 tm: int) -> Fraction:
    """The exact mean of ``pipeline`` over ``w``'s damage dice (a pure function of these
    numbers, remembered)."""
    key = (w.dice, w.sides, bonus, dm, is_crit, crit_pct, em, tm)
    found = _MEANS.get(key)
    if found is None:
        if len(_MEANS) > 8192:
            _MEANS.clear()
        found = _MEANS[key] = sum((q * pipeline(s + bonus, dm, is_crit, crit_pct, em, tm)
                                   for s, q in _sum_dist(w.dice, w.sides)), Fraction(0))
    return found


def preview_strike(enc: PalladiumEncounter, attacker: str, weapon: str,
                   target: str) -> StrikePreview:
    """The preview of ``attacker``'s Strike with ``weapon`` on ``target`` from where they
    stand (a pending Morale boost counts)."""
    key = ("strike", attacker, weapon, target)
    if key in enc.memo:
        return enc.memo[key]
    a, t = enc.by_id[attacker], enc.by_id[target]
    w = a.profile.weapon(weapon)
    pct, k, melee = strike_pct(enc, a, w, t, a.dist(t))
    pct += roll_pct(a, "strike", w)
    flat = effective_bonus(a, a.profile.strike) + (rulings.MORALE_PRE_ROLL
                                                   if a.boost_pending else 0)
    miss_at = rulings.RANGED_MISS if w.ranged else rulings.MELEE_MISS
    bonus = effective_bonus(a, a.profile.damage) if w.ps else 0
    arm = arm_stacks(a, w)
    dm = a.profile.dmg_mod_pct - enc.options.closer_band_pct * k - 10 * arm
    em = a.profile.end_mod_pct - 5 * arm
    hit = crit = armour = dmg = body = Fraction(0)
    p20 = Fraction(1, 20)
    means: dict[bool, Fraction] = {}  # the mean damage depends on the roll only through a crit
    for nat in range(1, 21):
        s0 = combat_total(nat, flat, pct)
        if s0 <= miss_at:
            continue
        hit += p20
        is_crit = nat >= a.profile.crit_min
        crit += p20 if is_crit else 0
        on_armour = t.armor_sdc > 0 and s0 <= t.profile.ar
        armour += p20 if on_armour else 0
        if is_crit not in means:
            means[is_crit] = _mean_damage(w, bonus, dm, is_crit, a.profile.crit_bonus_pct, em,
                                          -t.profile.resist_physical_pct)
        mean = means[is_crit]
        dmg += p20 * mean
        if not on_armour:
            body += p20 * mean
    out = StrikePreview(float(hit), float(crit), float(armour), float(dmg), float(body),
                        can_strike(a, w, t), k, melee is not None)
    enc.memo[key] = out
    return out


@dataclass(frozen=True, slots=True)
class DefensePreview:
    """What each defence would do against a strike total ``s0`` (spec §6.1).

    Attributes:
        dodge_miss: chance a Dodge (or Multi-Dodge) turns it into a miss.
        parry_mitigates: chance a Parry exceeds ``s0`` (mitigation, 75% off by default).
        dodge_slot: ``(second, pass)`` a Dodge would consume, ``None`` when Defending (free) or
            when no slot is left (then Dodge is not offered).
        can_dodge: a Dodge can be paid now.
    """

    dodge_miss: float
    parry_mitigates: float
    dodge_slot: tuple[int, int] | None
    can_dodge: bool


def dodge_slot(enc: PalladiumEncounter, defender: str) -> tuple[int, int] | None:
    """spec §4.7, R8: the slot a Dodge would consume now (``None``: Defending or none left)."""
    c = enc.by_id[defender]
    if c.defending:
        return None
    i = future_index(c, enc.cursor, enc.init_index(c.id), (AVAILABLE,))
    return None if i is None else c.slot_at[i]


def preview_defense(enc: PalladiumEncounter, defender: str, s0: int,
                    ranged: bool) -> DefensePreview:
    c = enc.by_id[defender]
    miss_at = rulings.RANGED_MISS if ranged else rulings.MELEE_MISS
    dpct, ppct = roll_pct(c, "dodge"), roll_pct(c, "parry")
    db, pb = effective_bonus(c, c.profile.dodge), effective_bonus(c, c.profile.parry)
    miss = Fraction(sum(1 for n in range(1, 21)
                        if max(0, s0 - combat_total(n, db, dpct)) <= miss_at), 20)
    mit = Fraction(sum(1 for n in range(1, 21) if combat_total(n, pb, ppct) > s0), 20)
    return DefensePreview(float(miss), float(mit), dodge_slot(enc, defender),
                          can_pay_dodge(enc, c))


def zone_bands(enc: PalladiumEncounter, a: str, b: str) -> dict[str, Any]:
    """spec §2.5: the distance, its band by each one's radii, and who is in whose Zone."""
    x, y = enc.by_id[a], enc.by_id[b]
    d = x.dist(y)
    ba, bb = band(x.profile.radii, d), band(y.profile.radii, d)
    return {"distance": d, "band_by_a": ba, "band_by_b": bb, "name_by_a": BAND_NAMES[ba],
            "b_in_a_zone": x.active and ba <= x.profile.zoc_band,
            "a_in_b_zone": y.active and bb <= y.profile.zoc_band}


_CRIPPLED_KEYS: dict[str, str] = {}


def _crippled_key(k: str) -> str:
    found = _CRIPPLED_KEYS.get(k)
    if found is None:
        found = _CRIPPLED_KEYS[k] = f"crippled_{k}"
    return found


def _row(enc: PalladiumEncounter, c: Combatant) -> dict[str, Any]:
    p = c.profile
    pm = c.eff_pm()  # once: full_move_ft() is pm * 15 // N
    return {
        "id": c.id, "side": c.side, "state": c.state, "x": c.x, "sdc": c.sdc,
        "sdc_max": c.sdc_max, "hp": c.hp, "hp_max": c.hp_max, "hp_base": p.hp_base,
        "armor": p.armor, "ar": p.ar, "armor_sdc": c.armor_sdc, "armor_sdc_max": p.armor_sdc,
        "stamina": c.stamina, "stamina_max": p.stamina_max, "morale": c.morale,
        "morale_max": p.morale_max, "wounds": c.wounds, "actions": p.actions,
        "slots": [[s, k, st] for (s, k), st in zip(c.slot_at, c.slot_state, strict=True)],
        "initiative": c.initiative, "init_rank": (enc.order.index(c.id)
                                                  if c.id in enc.order else None),
        "commitment": c.commitment, "carry_over": c.carry_over, "defending": c.defending,
        "resting": c.resting, "rest_seconds": c.rest_seconds, "multidodge": c.multidodge,
        "step_budget": c.step_budget, "full_move_ft": pm * 15 // p.actions, "eff_pm": pm,
        "boost_pending": c.boost_pending, "ammo": dict(c.ammo),
        "bonuses": {"init": p.init, "strike": p.strike, "parry": p.parry, "dodge": p.dodge,
                    "maneuver": p.maneuver, "damage": p.damage},
        "crit_min": p.crit_min, "radii": list(p.radii), "zoc_band": p.zoc_band,
        "zoc_radius": p.zoc_radius, "weapons": [w.id for w in p.weapons],
        "conditions": {"closing_wounds": c.closing[0] if c.closing else 0,
                       "exhausted": c.exhausted, "fatigued": c.fatigued,
                       "depression": c.depression, "insanity": c.insanity,
                       "concussion": c.concussion, "dazed": c.dazed,
                       "internal_bleeding": c.internal_bleeding,
                       **{_crippled_key(k): v for k, v in c.crippled.items()},
                       **c.fx.view(enc.t_abs)},  # FULL conditions (full_state.Effects.view)
        "ee": c.fx.ee, "ee_max": p.ee_max, "se": c.fx.se, "se_max": p.se_max,
        "shields": shields(c), "spells": list(p.spells),
    }


def public_view(enc: PalladiumEncounter, actor: str) -> dict[str, Any]:
    """What ``actor`` knows: everything (spec §12.3 has no hidden information)."""
    w = enc.window
    return {
        "system": enc.system, "viewer": actor, "round": enc.round, "second": enc.second,
        "t_abs": enc.t_abs, "decision": enc.decision, "actor": enc.current_actor(),
        "cursor": list(enc.cursor), "initiative": list(enc.order),
        "free_used": list(enc.free_used), "arena_length": enc.options.arena_length,
        "window": None if w is None else {"kind": w.kind, **dict(w.info)},
        "combatants": [_row(enc, c) for c in enc.combatants],
    }


def describe_rows(enc: PalladiumEncounter) -> list[dict[str, str]]:
    rows = []
    for c in enc.combatants:
        cond = [k for k, v in _row(enc, c)["conditions"].items() if v and not k.endswith("_by")]
        rows.append({"id": c.id, "side": c.side, "at": f"{c.x} ft",
                     "sdc": f"{c.sdc}/{c.sdc_max}", "hp": f"{c.hp}/{c.hp_max}",
                     "stamina": f"{c.stamina}/{c.profile.stamina_max}",
                     "state": c.state if not cond else f"{c.state}: {', '.join(cond)}"})
    return rows
