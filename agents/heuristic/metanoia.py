"""Metanoia heuristic: how a competent GM runs a Metanoia fight.

Every legal action gets an expected value in "fight units" (1.0 = taking one enemy out), computed
from the engine's own preview of the action (``enc.preview``: exact chances of the two pools,
what lands, what it costs; envs/metanoia/rules/preview.py), so the odds cannot drift from the rules:

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

It reads ``view(actor)`` for the state (never the hidden zone/statuses of concealed enemies), the
public stat blocks and ``enc.preview(action, reaction, viewer=actor)``; no private engine method.
"""

from __future__ import annotations

from typing import Any

from agents.base import RulesPolicy
from envs.core import Action
from envs.metanoia.rules.preview import Landing, Preview

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
        """Worth of filling ``slots`` of ``target``'s Injury track (+ a bonus if it finishes)."""
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

    def landing_value(self, hit: Landing | None) -> float:
        """Worth of what an option lands (``Preview.lands`` / ``backlash``; None: nothing)."""
        if hit is None or hit.final <= 0:
            return 0.0
        final = hit.final
        if hit.mode == "injury":
            return self.injury_value(hit.target, hit.count)
        if hit.mode == "argue":
            return self.conv_value(hit.target, hit.count) + 0.02 * final
        if hit.keyword == "deteriorating":
            return 0.06 * min(final, 4)
        if hit.keyword == "pin":
            return 0.05 * min(final, 3)
        if hit.keyword == "slip":
            return 0.04 * min(final, 3)
        return 0.0

    def preview(self, a: Action, reaction: Action | None = None) -> Preview:
        """The engine's preview of ``a``, as this combatant may know it."""
        return self.enc.preview(a, reaction, viewer=self.me["id"])

    @staticmethod
    def answer(reactor: str, boosts: tuple[str, ...], opt: Any) -> Action:
        """The reaction ``likely_defence`` expects, as a ``react`` action."""
        return Action(reactor, "react", (opt.name if opt is not None else "none",), None, boosts)

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
            traits = len(a.boosts)
            return (0.35 if not visible else 0.08) - self.strain_cost(traits) + 0.03 * traits
        if k == "move":
            return self.move_value(a)
        if k == "guard":
            ally = self.c[a.target]
            weaker = self.slots_left(str(a.target)) < self.slots_left(me["id"])
            return 0.1 if weaker and ally["injuries"] else 0.01
        if k == "withdraw":
            return -1.0
        return 0.0

    def enemies(self) -> list[dict[str, Any]]:
        return [d for d in self.c.values() if d["side"] != self.me["side"] and d["active"]]

    def hostile_value(self, a: Action) -> float:
        me, t = self.me["id"], str(a.target)
        o = self.option(me, a.args[0])
        extra = min(o.rank, self.c[t]["stacks"]) if o.stacks == "exploit_dice" else 0
        pv = self.preview(a, self.answer(t, *self.likely_defence(t, me)))
        gain = pv.p_actor * self.landing_value(pv.lands)
        risk = pv.p_reactor * self.landing_value(pv.backlash)
        # a small tie-breaker prefers free item options and Exploit on a stacked target
        return gain - risk - self.strain_cost(pv.strain) + 0.01 * extra + 0.001 * o.rank

    def mark_value(self, a: Action) -> float:
        me, t = self.me["id"], str(a.target)
        pv = self.preview(a, self.answer(t, *self.likely_defence(t, me)))
        exploit = any(o.stacks == "exploit_dice" for d in self.c.values()
                      if d["side"] == self.me["side"] for o in self.block(d["id"]).options)
        risk = pv.p_reactor * self.landing_value(pv.backlash)
        return 0.03 + (0.08 if exploit else 0.0) * pv.p_actor - risk - self.strain_cost(pv.strain)

    def support_value(self, a: Action) -> float:
        me, t = self.me["id"], str(a.target)
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
            here_zone = self.me["zone"]
            gap_there = abs(min(visible, key=lambda z: abs(z - to)) - to) if visible else 0
            gap_here = (
                abs(min(visible, key=lambda z: abs(z - here_zone)) - here_zone) if visible else 0
            )
            if visible and gap_there < gap_here:
                v = 0.2
        return v - 0.03 * len(a.boosts)

    # -------------------------------------------------------------- off-turn decisions
    def react_value(self, a: Action) -> float:
        pv = self.preview(a)
        harm = self.landing_value(pv.lands)
        if self.v["pending"]["kind"] == "move":
            harm = 0.05
        gain = self.landing_value(pv.backlash)
        return pv.p_reactor * gain - pv.p_actor * harm - self.strain_cost(pv.strain) * 0.8

    def challenge_value(self, a: Action) -> float:
        if a.args[0] == "no":
            return 0.0
        me, mover = self.me["id"], self.v["pending"]["actor"]
        pv = self.preview(a, self.answer(me, *self.likely_defence(me, mover)))
        return pv.p_reactor * (0.1 + self.landing_value(pv.backlash)) - 0.05 * pv.p_actor - 0.03

    def intercept_value(self, a: Action) -> float:
        if a.args[0] == "no":
            return 0.0
        target = self.v["pending"]["target"]
        return 0.1 if self.slots_left(self.me["id"]) > self.slots_left(target) + 0 else -0.1
