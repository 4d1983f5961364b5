"""The Palladium Revised heuristic's window choices (agents/heuristic/palladium_revised.py):
the OPPORTUNITY Strike and the DEFENSE options (pass, Parry, Dodge, Multi-Dodge), exact over
the defender's d20, less Stamina, Morale and the turn a Dodge deletes; and the harm scale (a
point of armour, a Wound, the blow that puts one out) the own-turn Strike values share.

Each function takes the decision ``d`` (``palladium_revised._Decision``: the view, the
previews and the value helpers) and changes nothing.
"""

from __future__ import annotations

from typing import Any

from envs.core import Action
from envs.palladium_revised.rules import preview_spell

__all__ = ["KILL", "ARMOUR_W", "WOUND_W", "window", "harm", "defend_option", "later_attacks"]

KILL = 14.0  # bonus HP for the blow that puts a foe out (coma)
ARMOUR_W = 0.45  # a point of armour S.D.C. destroyed (it shields every later blow)
WOUND_W = 3.0  # a Wound inflicted: ~3 ticks before it is closed
MD_LATER = 0.8  # share of a later attack's saving a Multi-Dodge window is credited with
SLOT_MIN = 1.5  # least worth of a turn (a move, a rest) a Dodge deletes


def window(d: Any, a: Action) -> float:
    """The value of ``a`` in the open window (DEFENSE, OPPORTUNITY) for the decision ``d``
    (``palladium_revised._Decision``)."""
    w = d.v["window"]
    if a.kind == "pass":
        return 0.0
    if w["kind"] == "opportunity" and a.kind == "strike":
        return d.strike_value(a.args[0], a.target or "", unaware=True)
    if w["kind"] == "defense":
        return defend_option(d, a, w)
    return 0.0  # a window this heuristic does not know: neutral


def harm(d: Any, layer: str, amount: float, wounds: int) -> float:
    """What ``amount`` of damage on ``layer`` costs the defender, in hit points."""
    if layer == "armour":
        return ARMOUR_W * min(amount, d.me["armor_sdc"])
    out = amount + (WOUND_W * wounds if amount >= 1 else 0.0)
    return out + (KILL if amount >= d.life(d.id) else 0.0)


def defend_option(d: Any, a: Action, w: dict[str, Any]) -> float:
    """spec §6.1: pass, Parry, Dodge or Multi-Dodge against the Strike of window ``w``."""
    me, s0, ranged = d.me, w["s0"], bool(w["ranged"])
    att, wid = w["attacker"], w["weapon"]
    if any(x.id == wid for x in d.arms(att)):
        pv, wounds = d.preview(att, wid, d.id), d.arm(att, wid).wounds
    else:  # a spell strike (FULL, spec §5.9): the spell's own preview; a spell opens no Wounds
        pv, wounds = preview_spell(d.enc, att, wid, d.id), 0
    dmg = pv.expected_damage / max(pv.hit + pv.crit, 1e-9)
    dmg *= 2 if w.get("crit_range") else 1
    ar, armoured = me["ar"], me["armor_sdc"] > 0
    miss_at = 4 if ranged else 1
    body, arm = harm(d, "body", dmg, wounds), harm(d, "armour", dmg, 0)
    passed = arm if armoured and s0 <= ar else body
    f = 2 if a.boosts else 0
    cost = d.morale_cost() if f else 0.0
    if a.kind == "parry":
        pm = d.defense(d.id, s0 - f, False).parry_mitigates
        low = harm(d, "armour" if armoured else "body", 0.25 * dmg, wounds)
        if armoured:
            pa = d.defense(d.id, s0 - ar - 1 - f, False).parry_mitigates
            risk = pm * low + (pa - pm) * arm + (1 - pa) * body
        else:
            risk = pm * low + (1 - pm) * body
        return passed - risk - cost - d.stamina_cost(d.id, 1)
    if a.kind not in ("dodge", "multidodge"):
        return 0.0
    pd = d.defense(d.id, s0 - f, ranged)
    p_miss = pd.dodge_miss
    if armoured:
        pa = d.defense(d.id, s0 - ar + miss_at - f, ranged).dodge_miss
        risk = (pa - p_miss) * arm + (1 - pa) * body
    else:
        risk = (1 - p_miss) * body
    free = me["defending"]
    slot = 0.0 if free else max(SLOT_MIN, d.best_strike())  # the turn it deletes
    if a.kind == "dodge":
        return passed - risk - cost - d.stamina_cost(d.id, 1) - slot
    alt = passed
    if not ranged and me["stamina"] >= 4:
        pm = d.defense(d.id, s0, False).parry_mitigates
        alt = min(passed, pm * harm(d, "armour" if armoured else "body", 0.25 * dmg,
                                    wounds) + (1 - pm) * passed)
    later = later_attacks(d, not free)
    score = passed - risk - cost - d.stamina_cost(d.id, 3) - slot
    score += MD_LATER * later * max(0.0, alt - risk)
    if a.args == ("back",):
        best = max(d.arms(d.id), key=lambda x: d.base(d.id, x))
        score += 0.5 if best.ranged else -0.5  # a shooter falls back, a fighter stays
    return score


def later_attacks(d: Any, spends: bool) -> int:
    """Enemy turns before this combatant's next turn (after the one a Dodge would spend)."""
    cur = tuple(d.v["cursor"])
    rank = {cid: i for i, cid in enumerate(d.v["initiative"])}
    big = len(d.c) + 1

    def key(cid: str, s: int, k: int) -> tuple[int, int, int]:
        return (s, k, rank.get(cid, big))

    mine = sorted(key(d.id, s, k) for s, k, st in d.me["slots"]
                  if st in ("available", "reserved") and key(d.id, s, k) > cur)
    limit = mine[1] if spends and len(mine) > 1 else mine[0] if mine and not spends \
        else (99, 0, 0)
    n = 0
    for f in d.foes:
        if d.best_geo(f, abs(d.c[f]["x"] - d.me["x"])) <= 0:
            continue
        n += sum(1 for s, k, st in d.c[f]["slots"]
                 if st in ("available", "reserved") and cur < key(f, s, k) < limit)
    return n
