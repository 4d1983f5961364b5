"""Metanoia heuristic: how a competent GM runs a Metanoia fight.

Every legal action gets an expected value in "fight units" (1.0 = taking one enemy out), computed
from exact success distributions of the two pools (``rules.pools.opposed_odds``):

* focus fire: Injuries and Argues are worth the share of the target's remaining track they fill,
  with a bonus for a finishing blow; the weakest reachable enemy is preferred;
* keywords and stacks: paired ability+item options, Exploit when the target carries stacks, Fuel
  paid from enemy stacks, Deteriorating/Pin as conditions when an Injury cannot land (Resistance);
* realm: pools include Rule 1 dice and Instrument dice; Rule 0 exchanges are certain;
* reactions: Counter when its expected injury outweighs the doubled harm of failing, Ward/Slip or
  plain Motive/Identity otherwise; challenges and intercepts when the odds favour it;
* resources: Motive/Identity only when the extra odds are worth the Strain; Recover when low;
  Mend/Clear/Rally/Hidden for allies who need them; Sense a hidden enemy when nothing else can be
  hit; close the distance when no target is in reach.

It reads ``view(actor)`` for the state (never the hidden zone/statuses of concealed enemies) and
the public stat blocks.
"""

from __future__ import annotations

from typing import Any

from agents.base import RulesPolicy
from envs.core import Action
from envs.metanoia.rules import rulings
from envs.metanoia.rules.pools import opposed_odds, pool_size

STRAIN_VALUE = 0.07  # value of one point of Strain
KILL_BONUS = 1.0


class MetanoiaHeuristic(RulesPolicy):
    name = "heuristic"

    def rank(self, enc: Any, actor: str, legal: list[Action]) -> list[float]:
        v = enc.view(actor)
        ctx = _Ctx(enc, v, actor)
        phase = v["phase"]
        if phase == "react":
            return [ctx.react_value(a) for a in legal]
        if phase == "challenge":
            return [ctx.challenge_value(a) for a in legal]
        if phase == "intercept":
            return [ctx.intercept_value(a) for a in legal]
        return [ctx.turn_value(a) for a in legal]


class _Ctx:
    def __init__(self, enc: Any, view: dict[str, Any], actor: str) -> None:
        self.enc = enc
        self.v = view
        self.c = view["combatants"]
        self.me = self.c[actor]
        self.my_block = enc.by_id[actor].block
        self.instrument = view["options"]["instrument"]

    # -------------------------------------------------------------- helpers
    def block(self, cid: str):
        return self.enc.by_id[cid].block

    def option(self, cid: str, name: str):
        for o in self.block(cid).options:
            if o.name == name:
                return o
        raise KeyError(name)

    def strain_cost(self, spent: int) -> float:
        """Strain spent now; cheap when the pool is full (the turn-start regain would be wasted)."""
        strain, top = self.me["strain"], self.my_block.strain_max
        left = strain - spent
        per_point = STRAIN_VALUE * (0.4 + (top - left) / top)
        return spent * per_point + (0.08 if left < 2 and spent else 0.0)

    def slots_left(self, cid: str) -> int:
        d = self.c[cid]
        return d["injury_slots"] - len(d["injuries"])

    def injury_value(self, target: str, slots: int) -> float:
        """Worth of filling ``slots`` of ``target``'s Injury track (1.0 + bonus when it finishes)."""
        left = self.slots_left(target)
        if left <= 0 or slots <= 0:
            return 0.0
        filled = min(slots, left)
        return filled / max(1, left) + (KILL_BONUS if filled >= left else 0.0)

    def conv_value(self, target: str, loss: int) -> float:
        d = self.c[target]
        if d["conv"] is None or d["conv"] <= 0:
            return 0.0
        lost = min(loss, d["conv"])
        return lost / d["conv"] + (KILL_BONUS if lost >= d["conv"] else 0.0)

    def landing_value(self, o, winner: str, loser: str, mode: str, dbl: int = 1) -> float:
        wb, lb = self.block(winner), self.block(loser)
        mult = rulings.realm_multiplier(wb.realm, lb.realm)
        final = o.rank * mult * (dbl if mode == "condition" else 1) - lb.resistance(o.polarity)
        if final <= 0:
            return 0.0
        if mode == "injury":
            return self.injury_value(loser, mult * dbl)
        if mode == "argue":
            return self.conv_value(loser, mult * dbl) + 0.02 * final
        if o.keyword == "deteriorating":
            return 0.06 * min(final, 4)
        if o.keyword == "pin":
            return 0.05 * min(final, 3)
        if o.keyword == "slip":
            return 0.04 * min(final, 3)
        return 0.0

    def odds(self, actor: str, a_boosts, a_opt, a_extra, reactor: str, r_boosts, r_opt, kind: str) -> tuple[float, float]:
        """(P actor wins, P reactor wins) including Rule 0 and the tie table (spec §5.4, §5.5)."""
        ab, rb = self.block(actor), self.block(reactor)
        gap = ab.realm - rb.realm
        if abs(gap) >= rulings.RULE0_GAP:
            return (1.0, 0.0) if gap > 0 else (0.0, 1.0)
        a_slip = self.c[actor]["statuses"].get("slip", 0)
        r_slip = self.c[reactor]["statuses"].get("slip", 0)
        ward = r_opt.rank if r_opt is not None and r_opt.keyword == "ward" else 0
        na, _ = pool_size(ab, a_boosts, rb, a_opt, a_extra, a_slip, self.instrument)
        nr, _ = pool_size(rb, r_boosts, ab, r_opt, ward, r_slip, self.instrument)
        win, tie, lose = opposed_odds(ab.texture, na, rb.texture, nr)
        if kind in ("condition", "mark", "move"):
            return win + tie, lose
        return win, tie + lose

    def likely_defence(self, reactor: str, attacker: str) -> tuple[tuple[str, ...], Any]:
        """What a sensible Reactor answers with: its affordable traits, Counter if it can pay."""
        d = self.c[reactor]
        b = self.block(reactor)
        strain = d["strain"]
        counter = next((o for o in b.reactive_options if o.keyword == "counter"), None)
        ward = next((o for o in b.reactive_options if o.keyword == "ward"), None)
        opt = None
        if counter is not None and strain >= counter.cost:
            opt, strain = counter, strain - counter.cost
        elif ward is not None and strain >= ward.cost:
            opt, strain = ward, strain - ward.cost
        boosts: tuple[str, ...] = ()
        if strain >= 1 and (b.motive or b.identity):
            boosts = ("motive",) if b.motive >= b.identity else ("identity",)
        return boosts, opt

    # -------------------------------------------------------------- turn
    def turn_value(self, a: Action) -> float:
        k = a.kind
        me = self.me
        if k in ("attack", "condition", "argue"):
            return self.hostile_value(a)
        if k == "mark":
            return self.mark_value(a)
        if k == "support":
            return self.support_value(a)
        if k == "recover":
            missing = self.my_block.strain_max - me["strain"]
            return 0.01 + (0.03 if missing else 0.0) + (0.1 if me["strain"] <= 1 else 0.0)
        if k == "hide":  # concealment: untargetable, and the next attack is an ambush (R19)
            if me["concealed"]:
                return -0.1
            hurt = len(me["injuries"]) / me["injury_slots"]
            weak = max((o.rank for o in self.my_block.options if "Atk" in o.uses), default=0) <= 2
            return 0.12 + 0.1 * hurt + (0.2 if weak else 0.0) - self.strain_cost(len(a.boosts))
        if k == "sense":
            visible = any(not d["concealed"] for d in self.enemies())
            return (0.35 if not visible else 0.08) - self.strain_cost(len(a.boosts)) + 0.03 * len(a.boosts)
        if k == "move":
            return self.move_value(a)
        if k == "guard":
            ally = self.c[a.target]
            return 0.1 if self.slots_left(a.target) < self.slots_left(me["id"]) and ally["injuries"] else 0.01
        if k == "withdraw":
            return -1.0
        return 0.0

    def enemies(self) -> list[dict[str, Any]]:
        return [d for d in self.c.values() if d["side"] != self.me["side"] and d["active"]]

    def hostile_value(self, a: Action) -> float:
        me, t = self.me["id"], a.target
        o = self.option(me, a.args[0])
        mode = {"attack": "injury", "condition": "condition", "argue": "argue"}[a.kind]
        extra = min(o.rank, self.c[t]["stacks"]) if o.stacks == "exploit_dice" else 0
        r_boosts, r_opt = self.likely_defence(t, me)
        if self.me["concealed"]:
            r_opt = None  # ambush: no reactive keyword (RULING R19)
        p_win, p_lose = self.odds(me, a.boosts, o, extra, t, r_boosts, r_opt, a.kind)
        dbl = 2 if r_opt is not None and r_opt.keyword == "counter" else 1
        gain = p_win * self.landing_value(o, me, t, mode, dbl if mode != "condition" else dbl)
        risk = 0.0
        if r_opt is not None and r_opt.keyword == "counter":
            risk = p_lose * self.landing_value(r_opt, t, me, "injury")
        fuel = self.c[t]["stacks"] if o.stacks == "fuel" else 0
        spent = len(a.boosts) + max(0, o.cost - fuel)
        # a small tie-breaker prefers free item options and Exploit on a stacked target
        return gain - risk - self.strain_cost(spent) + 0.01 * extra + 0.001 * o.rank

    def mark_value(self, a: Action) -> float:
        me, t = self.me["id"], a.target
        r_boosts, r_opt = self.likely_defence(t, me)
        p_win, p_lose = self.odds(me, a.boosts, None, 0, t, r_boosts, r_opt, "mark")
        exploit = any(o.stacks == "exploit_dice" for d in self.c.values() if d["side"] == self.me["side"]
                      for o in self.block(d["id"]).options)
        risk = p_lose * (self.landing_value(r_opt, t, me, "injury") if r_opt is not None and r_opt.keyword == "counter" else 0.0)
        return 0.03 + (0.08 if exploit else 0.0) * p_win - risk - self.strain_cost(len(a.boosts))

    def support_value(self, a: Action) -> float:
        me, t = self.me["id"], a.target
        o = self.option(me, a.args[0])
        d = self.c[t]
        fuel = d["stacks"] if o.stacks == "fuel" else 0
        cost = self.strain_cost(max(0, o.cost - fuel))
        if o.keyword == "mend":
            low = min(i["severity"] for i in d["injuries"])
            heals = o.rank + min(d["stacks"], max(0, low - o.rank)) >= low
            left = self.slots_left(t)
            urgency = 1.0 / max(1, left)
            return (0.5 * urgency + 0.1 if heals else 0.05) - cost
        if o.keyword == "clear":
            return 0.03 * min(o.rank, d["stacks"]) - cost
        if o.keyword == "rally":
            lost = d["conv_max"] - d["conv"]
            return 0.25 * min(o.rank, lost) / max(1, d["conv"]) - cost
        if o.keyword == "hidden":
            if d["concealed"]:
                return -0.1
            hurt = 1.0 - self.slots_left(t) / d["injury_slots"]
            return 0.08 + 0.2 * hurt - cost
        return 0.0 - cost

    def reach_targets(self, zone: int) -> int:
        """How many visible enemies this combatant could attack from ``zone``."""
        n = 0
        for d in self.enemies():
            if d["concealed"] or d["zone"] is None:
                continue
            for o in self.my_block.options:
                if "Atk" in o.uses or "Arg" in o.uses or "Cnd" in o.uses:
                    if o.reach == "far" or d["zone"] == zone:
                        n += 1
                        break
        return n

    def move_value(self, a: Action) -> float:
        to = int(a.args[0])
        here = self.reach_targets(self.me["zone"])
        there = self.reach_targets(to)
        v = -0.05
        if here == 0 and there > 0:
            v = 0.3
        elif here == 0:
            visible = [d["zone"] for d in self.enemies() if d["zone"] is not None]
            if visible and abs(min(visible, key=lambda z: abs(z - to)) - to) < abs(min(visible, key=lambda z: abs(z - self.me["zone"])) - self.me["zone"]):
                v = 0.2
        return v - 0.03 * len(a.boosts)

    # -------------------------------------------------------------- off-turn decisions
    def react_value(self, a: Action) -> float:
        p = self.v["pending"]
        me, actor = self.me["id"], p["actor"]
        ro = None if a.args[0] == "none" else self.option(me, a.args[0])
        a_opt = self.option(actor, p["option"]) if p["option"] else None
        a_win, r_win = self.odds(actor, tuple(p["boosts"]), a_opt, p["exploit_dice"], me, a.boosts, ro, p["kind"])
        dbl = 2 if ro is not None and ro.keyword == "counter" else 1
        harm = 0.0
        if a_opt is not None and p["kind"] != "move":
            mode = {"attack": "injury", "condition": "condition", "argue": "argue"}[p["kind"]]
            harm = self.landing_value(a_opt, actor, me, mode, dbl)
        elif p["kind"] == "move":
            harm = 0.05
        gain = 0.0
        if ro is not None and ro.keyword in ("counter", "slip"):
            gain = self.landing_value(ro, me, actor, "injury" if ro.keyword == "counter" else "condition")
        fuel = self.c[actor]["stacks"] if ro is not None and ro.stacks == "fuel" else 0
        spent = len(a.boosts) + (max(0, ro.cost - fuel) if ro is not None else 0)
        return r_win * gain - a_win * harm - self.strain_cost(spent) * 0.8

    def challenge_value(self, a: Action) -> float:
        if a.args[0] == "no":
            return 0.0
        p = self.v["pending"]
        me, mover = self.me["id"], p["actor"]
        boosts, opt = self.likely_defence(me, mover)
        a_win, r_win = self.odds(mover, tuple(p["boosts"]), None, 0, me, boosts, opt, "move")
        gain = r_win * (0.1 + (self.landing_value(opt, me, mover, "injury") if opt is not None and opt.keyword == "counter" else 0.0))
        return gain - 0.05 * a_win - 0.03

    def intercept_value(self, a: Action) -> float:
        if a.args[0] == "no":
            return 0.0
        target = self.v["pending"]["target"]
        return 0.1 if self.slots_left(self.me["id"]) > self.slots_left(target) + 0 else -0.1
