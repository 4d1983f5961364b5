"""The Sizebound heuristic's reaction and exertion windows (spec §6.3-§6.5: Declare, Parry,
Dodge, Block, an Exertion Die on a d20 or on damage), functions of one decision
(``sizebound._Decision``), as the Palladium heuristic keeps its windows in their own module."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from envs.core import Action

from .sizebound_odds import STUN, p_over

if TYPE_CHECKING:
    from .sizebound import _Decision as Decision

__all__ = ["window"]


def window(d: Decision, a: Action) -> float:
    w = d.v["window"]
    kind, info = w["kind"], w["info"]
    if a.kind in ("pass", "negate"):
        return 0.0 if a.kind == "pass" else 1.0  # crit negation: always
    if kind in ("parry", "dodge"):
        d.owner.last_total[d.id] = (d.v["round"], d.v["slot"], info.get("total", 0))
    f = WINDOWS.get(kind)
    return f(d, info) if f is not None else -1.0


def hit_damage(d: Decision, attacker: str) -> float:
    return max([d.mean(attacker, w) for w in d.arms(attacker)] + [2.5])


def w_declare(d: Decision, info: dict[str, Any]) -> float:
    attacker = info["attacker"]
    if not info.get("ranged") or d.dist(d.id, attacker) <= 3:
        return -1.0
    near = any(d.dist(d.id, e) <= d.reach(e) + d.profile(e).walk
               for e in d.foes if d.shot(e) <= d.reach(e) + 1)
    if near or d.me["dodge_mod"] >= 8:
        return -1.0
    return 0.5


def w_parry(d: Decision, info: dict[str, Any]) -> float:
    tid, attacker, total = info["target"], info["attacker"], info["total"]
    t = d.c[tid]
    if not t["ally"] or total <= t["defense"]:
        return -1.0
    dmg = hit_damage(d, attacker)
    edge = -1 if d.me["prone"] else 0
    p = p_over(d.me["hit_mod"], total, edge)
    w = d.arms(d.id)[0] if d.arms(d.id) else None
    riposte = 0.0
    if w is not None and w.reach is not None and d.dist(d.id, attacker) <= w.reach:
        a = d.c[attacker]
        riposte = d.worth(attacker, d.mean(d.id, w),
                             p_over(d.me["hit_mod"], a["defense"]))
    value, alt = p * (dmg + riposte), min(d.me["block_guard"], dmg)
    if tid == d.id:  # our own Dodge is still to come
        alt = max(alt, p_over(d.me["dodge_mod"], total, 0, False) * dmg)
    return value - alt if value >= 1.5 else -1.0


def w_dodge(d: Decision, info: dict[str, Any]) -> float:
    if info.get("area"):
        return 1.0 if d.me["dodge_mod"] >= 6 else -1.0
    dmg = hit_damage(d, info["attacker"])
    p = p_over(d.me["dodge_mod"], info["total"], 0, False)
    value = p * dmg
    if d.me["hp"] + d.me["guard"] - dmg <= 0 < d.me["hp"] + d.me["guard"]:
        value += p * STUN
    alt = min(d.me["block_guard"], dmg)
    return value - alt if value >= 1.0 else -1.0


def w_block(d: Decision, info: dict[str, Any]) -> float:
    t = d.c[info["target"]]
    if not t["ally"]:
        return -1.0
    amount, gain = info["amount"], info["guard"]
    saved = min(gain, max(0, amount - t["guard"]))
    left = t["hp"] + t["guard"] - amount
    if left <= 0 < left + saved or left < t["pnr"] <= left + saved:
        return 5.0
    return 1.0 if saved >= 3 or saved >= 0.4 * amount else -1.0


def w_exert_d20(d: Decision, info: dict[str, Any]) -> float:
    dice, roll, total = d.me["dice"], info.get("roll"), info.get("total", 0)
    if "against" in info:  # a contest: the initiator must beat, the defender may tie
        need = info["against"] - total + (1 if d.v["my_turn"] else 0)
    elif roll == "hit":
        defs = {d.c[e]["defense"] for e in d.foes}
        if len(defs) != 1:
            return -1.0
        need = defs.pop() - total + 1
    else:
        last = d.owner.last_total.get(d.id)
        if last is None or last[:2] != (d.v["round"], d.v["slot"]):
            return -1.0
        need = last[2] - total + 1
    if need <= 0 or need > 6:
        return -1.0
    p = (7 - need) / 6
    return 1.0 if (dice >= 2 and p >= 0.5) or (dice >= 1 and p >= 0.8) else -1.0


def w_exert_dmg(d: Decision, info: dict[str, Any]) -> float:
    t = d.c[info["target"]]
    left = t["hp"] + t["guard"] - info["amount"]
    dice = d.me["dice"]
    kill = sum(1 for f in range(1, 7) if left - 2 * f < t["pnr"]) / 6
    stun = sum(1 for f in range(1, 7) if left - 2 * f <= 0) / 6 if left > 0 else 0.0
    if left >= t["pnr"] and (kill >= 1 / 6 or (stun >= 1 / 3 and dice >= 2)
                             or dice >= d.prof.exertion_max):
        return 1.0
    return -1.0  # not worth a die (or dead already)


WINDOWS: dict[str, Callable[[Decision, dict[str, Any]], float]] = {
    "declare": w_declare, "parry": w_parry, "dodge": w_dodge, "block": w_block,
    "exert_d20": w_exert_d20, "exert_dmg": w_exert_dmg}
"""the value of taking a window's action, by window kind (others: -1, keep to pass)"""
