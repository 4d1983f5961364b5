"""A Mano a Mano NPC a competent GM would play (issue 5): it closes distance, strikes where the odds
and the harm are best (combos while healthy, powerful blows on weak defenses), prepares a counter
when an enemy will reach it, grapples when its grapple attack outclasses the defense, and rests when
hurt and out of reach. A rider gets on its war animal and stays there, running it straight at the
enemy to charge; the animal attacks whoever stands next to it (spec §5.11). It reads the whole
state: Mano a Mano hides nothing (spec §3.1, RULING R45).

Scores are expected harm in units of the target's stamina, plus small preferences for position.
The odds, power and absorption of every attack come from the engine's preview
(``ManoEncounter.preview``, rules/preview.py), the numbers the resolution rolls against; the
heuristic calls no private engine member.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from envs.core import Action
from envs.core.hexgrid import distance

from ..base import RulesPolicy

__all__ = ["ManoHeuristic"]


@cache
def p_success(mod: int, difficulty: int) -> float:
    """P(d20 + mod > difficulty), a natural 20 always succeeding (spec §5.1)."""
    faces = sum(1 for d in range(1, 21) if d == 20 or d + mod > difficulty)
    return faces / 20


class ManoHeuristic(RulesPolicy):
    """Rules-level heuristic for ``mano_a_mano`` (see the module docstring)."""

    name = "heuristic"

    def rank(self, enc: Any, actor: str, legal: list[Action]) -> list[float]:
        f = enc.by_id[actor]
        previews = enc.previews(legal)  # the rules' odds, shared parts once a decision
        return [self._score(enc, f, a, p) for a, p in zip(legal, previews, strict=True)]

    # ------------------------------------------------------------------ pieces
    def _harm_value(
        self,
        enc: Any,
        target: Any,
        power: int,
        sharpness: str,
        absorption: int,
        choke: bool = False,
    ) -> float:
        from envs.mano_a_mano.rules import resolution as R

        damage, stun = R.harm(power, sharpness, absorption, choke=choke)
        stamina = max(1, target.block.stamina)
        value = (damage + 0.6 * stun) / stamina
        if not target.incapacitated and target.stun + target.damage + damage + stun >= stamina:
            value += 1.0  # takes it out of the fight
        elif target.incapacitated:
            value = 0.0  # already out of the fight (RULING R54): harm there changes nothing
        return value

    def odds(self, enc: Any, a: Action) -> float:
        """The chance of success this heuristic scores an attack with: the engine's own preview
        (spec §5.1: position, circumstances and rear attacks, darkness, cover, armor avoidance,
        distance); 1 for an action without a roll."""
        p = enc.preview(a)
        return 1.0 if p is None else p.chance

    def _strike_value(self, enc: Any, f: Any, a: Action, p: Any = None) -> float:
        verb = a.args[0]
        p = p or enc.preview(a)  # the engine's own odds: darkness, rear attacks, cover, avoidance
        target = enc.by_id[a.target]
        value = p.chance * self._harm_value(
            enc, target, p.hit_power, p.sharpness, p.absorption
        )
        if verb == "cautious":
            value += 0.05
        return value

    def _missile_value(self, enc: Any, f: Any, a: Action, p: Any = None) -> float:
        p = p or enc.preview(a)  # one preview a decision and action (``odds`` would make another)
        target = enc.by_id[a.target]
        odds = 1.0 if p is None else p.chance
        if a.kind == "throw":  # throwing the weapon away has a cost: score it as 2 worse odds
            odds = p_success(p.modifier - 2, p.difficulty)
        return odds * self._harm_value(enc, target, p.hit_power, p.sharpness, p.absorption)

    def _grapple_value(self, enc: Any, f: Any, a: Action, pv: Any = None) -> float:
        target = enc.by_id[a.target]
        verb = a.args[0]
        pv = pv or enc.preview(a)
        p, absorption, power = pv.chance, pv.absorption, pv.blow_power
        fall = 1 - p_success(target.block.balance_roll_modifier, 8)
        best = target.block.best_absorption  # a fall meets the best absorption (RULING R14)
        if verb == "choke":
            return p * self._harm_value(enc, target, power, "blunt", absorption, choke=True)
        if verb == "wrench":
            return p * self._harm_value(enc, target, power, "blunt", absorption)
        if verb in ("slam", "slam_onto"):
            return p * self._harm_value(enc, target, power, "blunt", best) * 0.8
        if verb == "trip":
            return p * fall * self._harm_value(enc, target, power, "blunt", best)
        if verb == "push":
            return p * fall * self._harm_value(enc, target, power, "blunt", best) * 0.5
        if verb == "hold":  # sets up chokes for a real grappler
            strong = enc.dominant_over(target.id, f.id) or f.block.grapple_attack >= 8
            return 0.25 * p if strong else 0.0
        return 0.05 * p  # disarm

    def _threatened(self, enc: Any, f: Any) -> bool:
        """An active enemy can reach ``f`` on its next turn."""
        return any(
            g.side != f.side
            and not g.incapacitated
            and distance(f.hex, g.hex) <= g.block.running + 1
            for g in enc.fighters
        )

    def _nearest_enemy(self, enc: Any, f: Any, at: Any = None) -> int:
        at = at or f.hex
        return min(
            (distance(at, g.hex) for g in enc.fighters if g.side != f.side and not g.incapacitated),
            default=0,
        )

    def _best_strike_now(self, enc: Any, f: Any) -> float:
        best = 0.0
        for a in enc.legal_actions():
            if a.kind == "strike" and a.actor == f.id:
                best = max(best, self._strike_value(enc, f, a))
        return best

    # ------------------------------------------------------------------ scoring
    def _score(self, enc: Any, f: Any, a: Action, p: Any = None) -> float:
        """``a``'s score; ``p``: its preview, when the caller has it."""
        k = a.kind
        if k == "strike":
            return self._strike_value(enc, f, a, p)
        if k in ("throw", "shoot"):
            return self._missile_value(enc, f, a, p)
        if k == "grapple":
            return self._grapple_value(enc, f, a, p)
        if k == "choose":
            return self._choice(enc, f, a)
        if k == "counter":
            # wait for them only when they can reach us this round but we cannot reach them
            reach_them = self._nearest_enemy(enc, f) <= f.block.running + 1
            if f.health == "healthy" and self._threatened(enc, f) and not reach_them:
                return 0.35
            return -0.5
        if k == "move":
            from envs.core.hexgrid import neighbor

            dest = neighbor(f.hex, int(a.args[0]))
            before, after = self._nearest_enemy(enc, f), self._nearest_enemy(enc, f, dest)
            if f.shooter() is not None:  # a shooter keeps its distance
                return 0.02 * (after - before) if before < 4 else -0.05
            value = 0.1 * (before - after) - (0.2 if after > before else 0.0)
            t = enc.stack[-1]
            if f.id in enc.mounts and after < before and t.straight_dir in (None, int(a.args[0])):
                value += 0.03  # a rider runs its mount straight at them: a charge (spec §5.11)
            return value
        if k == "rest":
            hurt = f.health != "healthy"
            return (
                (0.3 if hurt else 0.0)
                + 0.2 * f.stun / max(1, f.block.toughness)
                - (0.3 if self._adjacent_enemy(enc, f) else 0)
            )
        if k == "stand" or k == "instant_stand":
            return 0.4
        if k == "drop":
            return -1.0
        if k == "draw":
            return 0.6
        if k == "aim":
            if not f.bow_drawn:  # a gun: aim when nobody can reach us first
                return 0.3 if not self._threatened(enc, f) else 0.05
            return 0.3
        if k in ("load", "unload"):
            return self._reload_value(enc, f, k)
        if k == "relax":
            return -1.0
        if k == "ready":
            return 0.5
        if k == "pick_up":
            return 0.2
        if k == "drop_item":
            return self._drop_value(enc, f, a.args[0])
        if k in ("delay", "release"):
            return -0.5
        if k == "cover":
            return 0.05
        if k == "mount":  # a rider fights from its war animal (spec §5.11)
            return 0.6
        if k == "dismount":
            return -1.0
        return 0.0  # end

    def _reload_value(self, enc: Any, f: Any, kind: str) -> float:
        """Guns (spec §5.6): reload an empty gun unless an enemy stands next to us; top up a
        round-by-round gun only when nothing else is worth doing."""
        from envs.mano_a_mano.rules.guns import gun_reload

        _, item = f.gun()
        left = enc.shots_left(f, item)
        if self._adjacent_enemy(enc, f):
            return -0.2
        it = f.block.items[item]
        if (
            gun_reload(it) == "muzzle"
            and it.shots[1] - f.reloading.get(item, 0) >= 2
            and self._nearest_enemy(enc, f) <= 3
        ):
            return 0.0  # turns of reloading with an enemy this close: fight with something else
        if kind == "unload":
            return 0.5 if left == 0 else -1.0
        return 0.5 if left == 0 else 0.01

    def _drop_value(self, enc: Any, f: Any, hand: str) -> float:
        """Drop an empty gun that needs a full turn or more to reload (a muzzle-loader, spec §5.6,
        RULING R50) when an enemy is close and a stowed weapon can take its place; keep anything
        else."""
        from envs.mano_a_mano.rules.guns import gun_reload

        item = f.held[hand]
        it = f.block.items[item]
        if (
            it.kind == "gun"
            and enc.shots_left(f, item) == 0
            and gun_reload(it) == "muzzle"
            and f.stowed
            and self._nearest_enemy(enc, f) <= 3
        ):
            return 0.45  # then "ready" (0.5) the stowed weapon
        return -0.5

    def _adjacent_enemy(self, enc: Any, f: Any) -> bool:
        return any(
            g.side != f.side and not g.incapacitated and distance(f.hex, g.hex) == 1
            for g in enc.fighters
        )

    def _choice(self, enc: Any, f: Any, a: Action) -> float:
        option = a.args[0]
        other = enc.by_id[a.target] if a.target else None
        strong = other is not None and f.block.grapple_attack >= other.block.grapple_attack
        return {
            "hold_dominant": 1.0 if strong or enc.by_id[f.id].block.grapple_attack >= 6 else 0.2,
            "release": 0.5,
            "follow_to_ground": 1.0 if strong else 0.2,
            "let_go": 0.5,
            "keep": 1.0 if strong else 0.2,
            "stance_none": 0.0,
            "stance_evade": 0.3,
            "stance_counter": 0.6 if self._threatened(enc, f) else 0.1,
        }.get(option, 0.0)
