"""A Sizebound creature a competent GM would play (issue 13; docs/rules/sizebound.md §4-§9).

Scores are expected HP of harm dealt (or kept off our side), plus bonuses for putting an enemy
at 0 HP (Stunned) or below its Point of No Return (dead). Attacks use the engine's
``preview_attack``, weighted toward the most hurt enemy and the one it can finish, a weapon's
own pool attack first (R-48); contests (Trip, Grapple, Break Free, Disarm) use the exact
d20-against-d20 odds (ties to the defender, R-13) times what winning is worth. It closes to
reach (keeping a reach-2 weapon's distance), shooters keep range and sight out of the enemies'
walk + reach, a weak creature with allies leaves a big hitter's reach, and it Runs when nothing
is reachable this turn. Reactions (Parry, Dodge, Block, dropping prone) and Exertion Dice (crit
negation; a d20 die that likely flips the roll; a damage die that kills or stuns; recovery at
0 HP or low and safe) are spent when their expected saving beats what stays open.

It reads ``view(actor)``, the public stat blocks (``enc.by_id[id].profile``: weapons, walk,
skills, Totals, which the view lacks), ``enc.weapon``, ``enc.grid``, ``enc.options`` and
``preview_attack``; it never changes the encounter.
"""

from __future__ import annotations

from typing import Any

from envs.core import Action
from envs.core.squaregrid import distance
from envs.sizebound.rules.preview import preview_attack, preview_step

from ..base import RulesPolicy
from .sizebound_odds import KILL, STUN, mod_of, p_contest, p_over
from .sizebound_windows import window

__all__ = ["SizeboundHeuristic", "p_contest", "p_over"]

NAMES = ("e", "ne", "n", "nw", "w", "sw", "s", "se")
class SizeboundHeuristic(RulesPolicy):
    """Rules-level heuristic for ``sizebound`` (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.last_total: dict[str, tuple[int, int, int]] = {}  # actor -> (round, slot, total)

    def rank(self, enc: Any, actor: str, legal: list[Action]) -> list[float]:
        d = _Decision(self, enc, actor)
        if d.v["window"] is not None:
            return [d.window(a) for a in legal]
        return [d.turn(a) for a in legal]


class _Decision:
    """The shared parts of one decision, computed once."""

    def __init__(self, owner: SizeboundHeuristic, enc: Any, actor: str) -> None:
        self.owner, self.enc, self.id = owner, enc, actor
        self.v = v = enc.view(actor)
        self.c: dict[str, dict[str, Any]] = v["combatants"]
        self.me = self.c[actor]
        self.prof = self.profile(actor)
        self.foes = [k for k, x in self.c.items() if x["alive"] and not x["ally"]]
        self.friends = [k for k, x in self.c.items() if x["alive"] and x["ally"]]
        self._threat: dict[str, float] = {}
        self._arms: dict[str, list[Any]] = {}
        self._reach: dict[str, int] = {}  # these read the decision's state only: once each
        self._shot: dict[str, int] = {}
        self._place: dict[tuple[int, int], float] = {}
        self._focus: str | None = None

    # ------------------------------------------------------------------ public data
    def profile(self, cid: str) -> Any:
        return self.enc.by_id[cid].profile

    def arms(self, cid: str) -> list[Any]:
        """The weapons of the main and off slots (legal.weapon_in, from public data)."""
        if cid not in self._arms:
            x, p = self.c[cid], self.profile(cid)
            held, nat = x["wielded"], list(p.natural)
            main = held.get("both") or held.get("main") or (nat[0] if nat else None)
            off = held.get("off")
            if off is None:
                rest = [w for w in nat if w != main]
                off = rest[0] if rest else None
            self._arms[cid] = [self.enc.weapon(w) for w in (main, off) if w is not None]
        return self._arms[cid]

    def stat(self, cid: str, stat: str) -> int:
        m, s, g = (mod_of(t) for t in self.profile(cid).totals)
        return {"might": m, "skill": s, "magic": g, "best_might_skill": max(m, s)}.get(stat, 0)

    def mean(self, cid: str, w: Any) -> float:
        return w.mean_dice + self.stat(cid, w.stat)

    def reach(self, cid: str) -> int:
        r = self._reach.get(cid)
        if r is None:
            r = self._reach[cid] = max([w.reach for w in self.arms(cid)
                                        if w.reach is not None] + [1])
        return r

    def shot(self, cid: str) -> int:
        """The longest ranged attack (bow, thrown-type weapon, Arcane Bolt with the mana)."""
        known = self._shot.get(cid)
        if known is not None:
            return known
        best = max([w.range for w in self.arms(cid) if w.range is not None and w.reach is None]
                   + [0])
        bolt = self.profile(cid).skill("arcane_bolt")
        if bolt is not None and self.enc.options.skills and self.c[cid]["mana"] >= bolt.mana:
            best = max(best, bolt.range)
        self._shot[cid] = best
        return best

    def threat(self, cid: str) -> float:
        """Expected damage per turn of ``cid`` against an average defense (10 + level)."""
        if cid not in self._threat:
            x, p = self.c[cid], self.profile(cid)
            p_hit = p_over(x["hit_mod"], 9 + x["level"])
            ws = self.arms(cid)
            dmg = [self.mean(cid, w) for w in ws] or [2.5]
            total = max(dmg) * p.attacks + sum(
                self.mean(cid, w) for w in ws if w.weapon_attacks > 0)
            total += 2.5 + self.stat(cid, "best_might_skill")  # the Bonus-action Jab
            if x["hp"] <= 0:
                total *= 0.4  # HP-Stunned: one action a turn
            self._threat[cid] = p_hit * total
        return self._threat[cid]

    def dist(self, a: str, b: str, at: tuple[int, int] | None = None) -> int:
        x, y = self.c[a], self.c[b]
        return distance(at or (x["x"], x["y"]), x["n"], (y["x"], y["y"]), y["n"])

    def weak(self, cid: str) -> bool:
        x = self.c[cid]
        return x["hp"] <= 0.35 * x["max_hp"]

    def worth(self, tid: str, dmg: float, p: float = 1.0) -> float:
        """Value of ``p`` chance of ``dmg`` (mean) on ``tid``: focus the hurt, finish the weak."""
        t = self.c[tid]
        hp = t["hp"] + t["guard"]
        span = t["max_hp"] - t["pnr"]
        hurt = (t["max_hp"] - t["hp"]) / span
        value = p * dmg * (1 + hurt + 0.03 * self.threat(tid))
        if hp - dmg < t["pnr"]:
            value += p * KILL
        elif hp > 0 >= hp - dmg:
            value += p * STUN
        return value

    # ------------------------------------------------------------------ own turn
    def turn(self, a: Action) -> float:
        fixed = {"end_turn": 0.0, "stand": 3.0, "release": -1.0, "drop_prone": -1.0}
        if a.kind in fixed:
            return fixed[a.kind]
        f = getattr(self, "t_" + a.kind, None)
        return f(a) if f is not None else -1.0

    def t_attack(self, a: Action) -> float:
        tid, slot = _tid(a), a.args[0]
        pv = preview_attack(self.enc, self.id, "jab" if a.kind == "jab" else slot, tid)
        if pv is None or pv.hit <= 0:
            return -1.0
        dmg, t = pv.expected_damage / pv.hit, self.c[tid]
        value = self.worth(tid, dmg, pv.hit)
        if a.kind == "jab":
            return value + (0.2 if slot == "bonus" else -0.2)
        w = self.arms(self.id)[0 if slot == "main" else -1]
        if self.me["weapon_attacks"].get(w.id, 0) > 0:
            value += 0.5  # the weapon's own attack first: the general one stays for the others
        if pv.mode == "thrown" and t["hp"] + t["guard"] - dmg >= t["pnr"]:
            value -= 3.0  # the weapon lands over there: only to finish someone
        return value

    t_jab = t_attack

    def t_cast(self, a: Action) -> float:
        s = self.prof.skill(a.args[0])
        if s is None:
            return -1.0
        over = max(0, s.mana - max(self.me["mana"], 0))
        cost = 3 * over * 1.5  # overdraw: True damage to ourselves
        dmg = s.dice_n * (s.dice_sides + 1) / 2 + self.stat(self.id, s.stat)
        sid, tid = s.id, _tid(a)
        t = self.c.get(tid, self.me)
        if sid == "arcane_bolt":
            p = p_over(self.me["hit_mod"] + (4 if self.me["aim_active"] else 0), t["defense"])
            return self.worth(tid, dmg, p) - cost - 0.3
        if sid == "mend":
            heal = min(dmg, t["max_hp"] - t["hp"])
            return heal * (1.5 if t["hp"] <= 0.5 * t["max_hp"] else 0.4) - cost
        if sid in ("arcane_burst", "stomp"):
            return self.area(sid, tid, dmg, s.size) - cost
        if sid == "roar" and self.enc.options.fear:
            return 1.5 * sum(1 for e in self.foes if self.dist(self.id, e) <= s.range)
        return -1.0

    def area(self, sid: str, centre: str | None, dmg: float, size: int) -> float:
        """Burst: a 3x3 block on ``centre``'s cell; Stomp: everyone within 1 of us."""
        total = 0.0
        for cid in self.foes + self.friends:
            x = self.c[cid]
            cells = [(x["x"] + i, x["y"] + j) for i in range(x["n"]) for j in range(x["n"])]
            if sid == "stomp":
                if not x["ally"] and self.dist(self.id, cid) <= 1:
                    total += self.worth(cid, self.dodged(cid, dmg)) + 1.0
                continue
            c = self.c[centre] if centre else self.me
            r = (size - 1) // 2
            inside = sum(1 for cx, cy in cells if abs(cx - c["x"]) <= r and abs(cy - c["y"]) <= r)
            if not inside:
                continue
            amount = self.dodged(cid, dmg * (2 if inside >= 3 else 1))
            total += -2.0 * amount if x["ally"] else self.worth(cid, amount)
        return total

    def dodged(self, cid: str, amount: float) -> float:
        """Expected area damage after the creature's Dodge (-half its total, R-43)."""
        x = self.c[cid]
        if x["reactions"] <= 0:
            return amount
        return sum(max(0.0, amount - (d + x["dodge_mod"]) // 2) for d in range(1, 21)) / 20

    def t_aim(self, a: Action) -> float:
        """+4 on what is left after paying the general attack it costs (spec §5.2.2)."""
        me, span = self.me, max(self.reach(self.id), self.shot(self.id))
        if not any(self.dist(self.id, e) <= span for e in self.foes):
            return -1.0
        later = [self.mean(self.id, w) for w in self.arms(self.id)
                 if w.weapon_attacks > 0 and me["weapon_attacks"].get(w.id, w.weapon_attacks)]
        general = me["general_attacks"] if me["pool_open"] else self.prof.attacks
        best = max([self.mean(self.id, w) for w in self.arms(self.id)] + [2.5])
        later += [best] * (general - 1)
        if "B" not in me["used"] and any(self.dist(self.id, e) <= 1 for e in self.foes):
            later.append(2.5 + self.stat(self.id, "best_might_skill"))
        return 0.2 * sum(later) - 0.55 * best

    def t_recover(self, a: Action) -> float:
        me = self.me
        if a.args[0] == "mana":
            bolt = self.prof.skill("arcane_bolt")
            return 1.0 if bolt and me["mana"] < bolt.mana and me["dice"] >= 2 else -1.0
        if me["hp"] <= 0:
            return 20.0  # ends the HP Stun: a whole turn of actions back
        safe = not any(self.dist(self.id, e) <= self.reach(e) + self.profile(e).walk
                       for e in self.foes)
        if me["hp"] <= 0.25 * me["max_hp"] or (safe and self.weak(self.id) and me["dice"] >= 2):
            return 1.5
        return -1.0

    def t_pick_up(self, a: Action) -> float:
        mine = {w for _, w in self.prof.wielded} | set(self.prof.stowed)
        return 2.0 if a.args[0] in mine else -0.5

    def t_tighten(self, a: Action) -> float:  # a two-handed grip stops hand-held weapons
        return 2.0 if any(w.hands > 0 for w in self.arms(_tid(a))) else 0.2

    def contest_p(self, tid: str, kind: str) -> float:
        me, t = self.me, self.c[tid]
        if kind == "break_free":
            mine = max(me["athletics"], me["nimble"])
            edge = 1 if t["grips"].get(self.id, 0) >= 2 else 0
            return p_contest(mine, t["athletics"], 0, edge)
        bonus = 4 if kind == "disarm" and "both" in t["wielded"] else 0
        return p_contest(me["athletics"], t["athletics"] + bonus)

    def t_trip(self, a: Action) -> float:
        tid = _tid(a)
        p, fall = self.contest_p(tid, "trip"), 3.5 * self.profile(tid).fall_dice
        follow = sum(0.25 * self.threat(f) for f in self.friends
                     if self.dist(f, tid) <= self.reach(f))
        value = p * (self.worth(tid, fall) * 0.8 + follow + 1.0 + 0.1 * self.threat(tid))
        if a.args[0] == "move":
            if self.weak(self.id) or self.shot(self.id) > self.reach(self.id) + 1:
                return -1.0
            return value - 0.2
        return value - 0.3 - (0.0 if self.c[tid]["hp"] > 0 else 0.5)

    def t_grapple(self, a: Action) -> float:
        tid = _tid(a)
        two = self.me["wielded"] == {} and self.prof.hands >= 2  # then Tighten
        hand_held = any(w.hands > 0 for w in self.arms(tid))
        return self.contest_p(tid, "grapple") * (0.7 * self.threat(tid) if two and hand_held
                                                 else 0.8)

    def t_break_free(self, a: Action) -> float:
        locked = self.c[_tid(a)]["grips"].get(self.id, 0) >= 2 and any(
            w.hands > 0 for w in self.arms(self.id))
        return self.contest_p(_tid(a), "break_free") * (8.0 if locked else 2.0)

    def t_disarm(self, a: Action) -> float:
        p = self.contest_p(_tid(a), "disarm")
        ws = [w for w in self.arms(_tid(a)) if not w.natural and w.hands > 0]
        if not ws:
            return -1.0
        loss = self.mean(_tid(a), ws[0]) - (2.5 + self.stat(_tid(a), "best_might_skill"))
        return p * max(0.0, loss) * 0.8

    def t_run(self, a: Action) -> float:
        if self.weak(self.id) and self.me["hp"] > 0:
            return -1.0
        gaps = [self.dist(self.id, e) - self.reach(self.id) for e in self.foes]
        if self.shot(self.id) > self.reach(self.id) + 1 or min(gaps, default=0) <= self.prof.walk:
            return -1.0  # a shooter, or someone is within a Move: walk and attack instead
        return 3.0

    def t_step(self, a: Action) -> float:
        to = preview_step(self.enc, self.id, a.args[0])
        if to is None:
            return -10.0  # a step off the map flees: a GM's creature holds the field
        return self.place(to) - self.place((self.me["x"], self.me["y"])) - 0.05

    def place(self, at: tuple[int, int]) -> float:
        """How good it is to stand at ``at`` (for this creature; each place worked out once)."""
        known = self._place.get(at)
        if known is None:
            known = self._place[at] = self._place_value(at)
        return known

    def _place_value(self, at: tuple[int, int]) -> float:
        me = self.id
        if not self.foes:
            return 0.0
        weak = self.weak(me) and len(self.friends) > 1  # others can hold the line
        reach, shot = self.reach(me), self.shot(me)
        danger = 0.0
        for e in self.foes:
            d, er = self.dist(me, e, at), self.reach(e)
            danger += self.threat(e) * (1.0 if d <= er else 0.5 if d < self.safe_band(e) else 0)
        if shot > reach + 1:  # a shooter: in range and sight, out of their walk + reach
            best = max(-abs(self.dist(me, e, at) - min(shot, self.safe_band(e)))
                       + (0.0 if self.enc.grid.line_of_sight(at, self.me["n"],
                                                              (self.c[e]["x"], self.c[e]["y"]),
                                                              self.c[e]["n"]) else -4.0)
                       for e in self.foes)
            return best * 0.6 - 0.15 * danger
        focus = self._focus
        if focus is None:  # the same for every place
            focus = self._focus = max(self.foes, key=lambda e: self.worth(e, 6.0)
                                      - 0.6 * self.dist(me, e))
        d = self.dist(me, focus, at)
        value = -max(0, d - reach) + (0.6 if reach > self.reach(focus) and d == reach else 0.0)
        return value - (0.6 if weak else 0.03) * danger

    def safe_band(self, e: str) -> int:
        return self.reach(e) + self.profile(e).walk + 1

    def window(self, a: Action) -> float:
        """The value of ``a`` in a reaction or exertion window (``sizebound_windows``)."""
        return window(self, a)


def _tid(a: Action) -> str:
    return a.target or ""
