"""A Palladium Revised fighter a competent GM would play (docs/rules/palladium_revised.md §4-§9).

Every legal action gets a value in hit points (S.D.C. + H.P.) of harm dealt or kept off:

* Strike: ``preview_strike``, split into body and armour damage by the parry the target is
  likely to make (``preview_defense``), worth more on a hurt or dangerous target, plus a bonus
  for the blow that puts it out (focus fire); Wounds count;
* Step and Full Move: the best blow from a spot less the foes' blows there, by reach and the
  closer-band penalty (a Reach weapon holds a short-weapon foe at its zone edge; shooters keep
  out of reach), with the entry contest that may stop it at a Zone layer and the opportunity
  Strikes of the layers it leaves (``palladium_revised_moves``);
* DEFENSE: the expected harm of pass, Parry, Dodge and Multi-Dodge, exact over the defender's
  d20 (armour layer and mitigation), less Stamina, Morale and the turn a Dodge deletes; a
  Multi-Dodge counts the enemy turns before its own next turn (the windows are
  ``palladium_revised_windows``, which also holds the harm scale shared with the Strikes);
* Closing Wounds against the Wound ticks to come less three Seconds at -100%; Rest when Stamina
  is low and no foe is near; a Morale boost where +2 is worth the point; Continue while the
  commitment's payoff per remaining slot beats the best alternative.

It reads ``view(actor)``, the weapon tables of the stat blocks (``enc.by_id[id].profile``: the
view names weapons only by id) and the public previews; it never changes the encounter. Kinds
it does not know score 0, as ``wait`` does.
"""

from __future__ import annotations

import itertools
from typing import Any

from envs.core import Action, parse_label
from envs.palladium_revised.rules import preview_defense, preview_strike

from ..base import RulesPolicy
from .palladium_revised_moves import HURT_W, band, move_gain, p_layers
from .palladium_revised_windows import ARMOUR_W, KILL, WOUND_W, window

__all__ = ["PalladiumHeuristic", "p_layers"]

WOUND_TICKS = 4.0  # future Wound ticks a Wound removed now would have dealt
MOVE_W = 0.75  # a Full Move's worth: its position gain (the blow comes a turn later)
STEP_MIN = 0.4  # a Step is taken only for at least this much position gain
MORALE_PRICE = 1.2  # one Morale point, while above the Depression marker
STAMINA_PRICE = 0.3  # one Stamina point, plus the Exhaustion/Fatigue steps below
PREVIEW_CACHE = 50_000  # strike previews kept across decisions (cleared past this many)


_GEO: dict[tuple[Any, ...], dict[int, float]] = {}
"""``best_geo`` by distance, per (stat block, which ammunition weapons are empty): it reads
nothing else (the view's radii and damage bonus are the stat block's)"""
_TOKENS: dict[Any, int] = {}
"""a number per distinct stat block (equal ones share it; never reused), for the cache keys"""
_NEXT = itertools.count()


def _token(profile: Any) -> int:
    found = _TOKENS.get(profile)
    if found is None:
        if len(_TOKENS) > 4096:
            _TOKENS.clear()
            _GEO.clear()
        found = _TOKENS[profile] = next(_NEXT)
    return found


class PalladiumHeuristic(RulesPolicy):
    """Rules-level heuristic for ``palladium_revised`` (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.previews: dict[tuple[Any, ...], Any] = {}

    def rank(self, encounter: Any, actor: str, legal: list[Action]) -> list[float]:
        if len(self.previews) > PREVIEW_CACHE:
            self.previews.clear()
        d = _Decision(encounter, actor, self.previews)
        if d.v["window"] is not None:
            return [window(d, a) for a in legal]
        return d.turn(legal)


class _Decision:
    """The shared parts of one decision, computed once."""

    def __init__(self, enc: Any, actor: str, previews: dict[tuple[Any, ...], Any]) -> None:
        self.enc, self.id, self.previews = enc, actor, previews
        self.v = v = enc.view(actor)
        self.c: dict[str, dict[str, Any]] = {r["id"]: r for r in v["combatants"]}
        self.me = me = self.c[actor]
        self.foes = [k for k, r in self.c.items()
                     if r["side"] != me["side"] and r["state"] == "active"]
        self._split: dict[tuple[str, int], tuple[float, float]] = {}
        self._strike: dict[tuple[str, str, int], float] = {}
        self._geo: dict[str, dict[int, float]] = {}  # best_geo (shared across decisions,
        self._pos: dict[int, float] = {}  # ``_GEO``) and pos: each value computed once
        self._prof: dict[str, tuple[Any, int]] = {}  # (profile, token) per combatant
        self._foe_rows: list[tuple[str, int, float, int]] | None = None
        self._tab: dict[str, tuple[int, ...]] = {}  # band tables (``moves.bands``)
        self._reach = -1
        self._foe_blow: float | None = None
        self._best_strike: float | None = None
        self._threat: dict[int, float] = {}
        self._zones: list[tuple[str, int, int, tuple[int, ...]]] | None = None
        self._stops: dict[int, tuple[int, int]] = {}
        self._conds: dict[str, tuple[Any, ...]] = {}
        self._pv: dict[tuple[str, str, str], Any] = {}  # preview and defense per decision
        self._pd: dict[tuple[str, int, bool], Any] = {}

    # ------------------------------------------------------------------ public data
    def arms(self, cid: str) -> tuple[Any, ...]:
        return self.enc.by_id[cid].profile.weapons

    def arm(self, cid: str, wid: str) -> Any:
        return self.enc.by_id[cid].profile.weapon(wid)

    def base(self, cid: str, w: Any) -> float:
        return float(w.mean) + (self.c[cid]["bonuses"]["damage"] if w.ps else 0)

    def geo(self, cid: str, w: Any, d: int) -> float:
        """Rough damage of one blow of ``w`` at distance ``d`` (reach and closer bands)."""
        if w.ranged:
            if w.ammo is not None and self.c[cid]["ammo"].get(w.id, 0) <= 0:
                return 0.0
            return self.base(cid, w) if d <= w.max_range else 0.0
        b = band(self.c[cid]["radii"], d)
        if b > w.reach or (b == 1 and not w.short):
            return 0.0
        f = 1 - 0.25 * (w.reach - b)
        return self.base(cid, w) * f * f

    def profile(self, cid: str) -> tuple[Any, int]:
        """``cid``'s stat block and its cache token (``_token``)."""
        found = self._prof.get(cid)
        if found is None:
            p = self.enc.by_id[cid].profile
            found = self._prof[cid] = (p, _token(p))
        return found

    def conditions(self, cid: str) -> tuple[Any, ...]:
        """The values of ``cid``'s conditions (a cache key part), once per decision."""
        found = self._conds.get(cid)
        if found is None:
            found = self._conds[cid] = tuple(self.c[cid]["conditions"].values())
        return found

    def geo_table(self, cid: str) -> dict[int, float]:
        """``best_geo(cid, d)`` by ``d`` (filled as asked; shared by every decision that sees
        the same stat block with the same ammunition weapons empty)."""
        table = self._geo.get(cid)
        if table is None:
            p, tok = self.profile(cid)
            ammo = self.c[cid]["ammo"]
            out = tuple(w.id for w in p.weapons
                        if w.ranged and w.ammo is not None and ammo.get(w.id, 0) <= 0)
            key = (tok, out)
            table = _GEO.get(key)
            if table is None:
                table = _GEO[key] = {}
            self._geo[cid] = table
        return table

    def best_geo(self, cid: str, d: int) -> float:
        table = self._geo.get(cid)
        if table is None:
            table = self.geo_table(cid)
        best = table.get(d)
        if best is None:
            best = table[d] = max((self.geo(cid, w, d) for w in self.arms(cid)), default=0.0)
        return best

    def life(self, cid: str) -> float:
        r = self.c[cid]
        return max(1.0, r["sdc"] + r["hp"])

    def preview(self, att: str, wid: str, tid: str) -> Any:
        """``preview_strike``, kept across decisions under what it depends on (the band or,
        for a ranged weapon, everyone's place; both sides' conditions, armour, the boost)."""
        mine = (att, wid, tid)  # within one decision the key below is the same
        pv = self._pv.get(mine)
        if pv is not None:
            return pv
        a, t = self.c[att], self.c[tid]
        w = self.arm(att, wid)
        where: Any = band(a["radii"], abs(a["x"] - t["x"]))
        if w.ranged:
            where = (abs(a["x"] - t["x"]), a["ammo"].get(wid),
                     tuple((r["x"], r["state"]) for r in self.v["combatants"]))
        key = (self.profile(att)[1], wid, self.profile(tid)[1], where, a["boost_pending"],
               t["armor_sdc"] > 0, self.conditions(att), self.conditions(tid))
        pv = self.previews.get(key)
        if pv is None:
            pv = self.previews[key] = preview_strike(self.enc, att, wid, tid)
        self._pv[mine] = pv
        return pv

    def defense(self, cid: str, s0: int, ranged: bool) -> Any:
        """``preview_defense`` (its chances only), kept across decisions under the
        defender's conditions."""
        mine = (cid, s0, ranged)
        pd = self._pd.get(mine)
        if pd is not None:
            return pd
        key = (self.profile(cid)[1], s0, ranged, self.conditions(cid))
        pd = self.previews.get(key)
        if pd is None:
            pd = self.previews[key] = preview_defense(self.enc, cid, s0, ranged)
        self._pd[mine] = pd
        return pd

    def stamina_cost(self, cid: str, n: int) -> float:
        """``n`` Stamina, dearer where it crosses into Exhaustion (bonuses x0.75) or
        Fatigue (x0.5)."""
        s, top = self.c[cid]["stamina"], self.c[cid]["stamina_max"]
        return (STAMINA_PRICE * n + (2.5 if 2 * (s - n) <= top < 2 * s else 0.0)
                + (3.0 if 4 * (s - n) <= top < 4 * s else 0.0))

    def morale_cost(self) -> float:
        """One Morale point; dearer below the Depression marker (10% of the maximum)."""
        r = self.me
        return MORALE_PRICE + (3.0 if r["morale"] - 1 < -(-r["morale_max"] // 10) else 0.0)

    # ------------------------------------------------------------------ striking
    def split(self, tid: str, s0: int) -> tuple[float, float]:
        """(body share, armour share) of a melee blow with total ``s0`` that ``tid`` parries."""
        key = (tid, s0)
        if key in self._split:
            return self._split[key]
        t = self.c[tid]
        if t["stamina"] < 1 or t["state"] != "active":
            out = (0.0, 1.0) if t["armor_sdc"] > 0 and s0 <= t["ar"] else (1.0, 0.0)
        else:
            pm = self.defense(tid, s0, False).parry_mitigates
            if t["armor_sdc"] > 0:
                pa = self.defense(tid, s0 - t["ar"] - 1, False).parry_mitigates
                out = (1 - pa, 0.25 * pm + pa - pm)
            else:
                out = (1 - 0.75 * pm, 0.0)
        self._split[key] = out
        return out

    def strike_value(self, wid: str, tid: str, boost: int = 0, unaware: bool = False) -> float:
        key = (wid, tid, boost + (10 if unaware else 0))
        if key in self._strike:
            return self._strike[key]
        w = self.arm(self.id, wid)
        value = -1.0
        reach = self.geo(self.id, w, abs(self.me["x"] - self.c[tid]["x"])) > 0
        pv = self.preview(self.id, wid, tid) if reach else None
        if pv is not None and pv.in_range and pv.expected_damage > 0:
            t = self.c[tid]
            dmg = pv.expected_damage
            if unaware or w.ranged:
                body = pv.expected_body
                armour = dmg - body
            else:
                boost += 2 if self.me["boost_pending"] else 0
                s0 = int((10.5 + self.me["bonuses"]["strike"] + boost)
                         * max(0.0, 1 - 0.25 * pv.closer_bands))
                bf, af = self.split(tid, s0)
                body, armour = dmg * bf, dmg * af
            value = self.worth(tid, body, armour, body / dmg * pv.hit, w.wounds)
            if t["state"] != "active":
                value *= 0.05  # a comatose foe is out of the fight already
        self._strike[key] = value
        return value

    def worth(self, tid: str, body: float, armour: float, p_body: float, wounds: int) -> float:
        """Value of an expected ``body`` and ``armour`` damage on ``tid`` (focus the hurt)."""
        t = self.c[tid]
        life = self.life(tid)
        hurt = 1 - life / max(1, t["sdc_max"] + t["hp_max"])
        value = body * (1 + HURT_W * hurt) + ARMOUR_W * min(armour, t["armor_sdc"])
        value += WOUND_W * p_body * wounds
        if p_body > 0:
            per_hit = body / p_body
            if per_hit >= life:
                value += KILL * p_body
            elif 2 * per_hit >= life:
                value += KILL * p_body * 0.1  # a critical does it
        return value * (1 + 0.02 * self.best_geo(tid, 1))

    def best_strike(self) -> float:
        best = self._best_strike
        if best is None:  # once per decision (rest, defend and every Dodge ask for it)
            best = 0.0
            for t in self.foes:
                for w in self.arms(self.id):
                    best = max(best, self.strike_value(w.id, t))
            self._best_strike = best
        return best

    # ------------------------------------------------------------------ own turn
    def turn(self, legal: list[Action]) -> list[float]:
        main = [self.main(a) if a.kind not in ("step", "morale_boost", "drop") else None
                for a in legal]
        best = max([s for s in main if s is not None], default=0.0)
        out = []
        for a, s in zip(legal, main, strict=True):
            if s is not None:
                out.append(s)
            elif a.kind == "step":
                g = move_gain(self, a, self.me["step_budget"])
                out.append(best + g if g >= STEP_MIN else best - 1.0)
            elif a.kind == "morale_boost":
                out.append(best + self.boost_gain(legal, best))
            else:  # drop: only Closing Wounds is judged (a Ward or Power Draw is kept)
                out.append(best + (self.drop_gain() if a.args == ("closing_wounds",) else -1.0))
        return out

    def main(self, a: Action) -> float:
        k = a.kind
        if k == "strike":
            return self.strike_value(a.args[0], a.target or "")
        if k == "move":
            return MOVE_W * move_gain(self, a, self.me["full_move_ft"])
        if k in ("rest", "defend"):  # no blow to deal: Stamina back, or free dodges to come
            me, hit = self.me, self.best_strike() > 0
            danger = self.threatened(15 // me["actions"])
            if k == "rest":
                return 4.0 * (1 - me["stamina"] / max(1, me["stamina_max"])) - 0.5 * danger - hit
            return -0.5 if hit or me["stamina"] < 2 else 0.05 * danger - 0.2
        if k == "closing_wounds":
            return self.closing_value(int(a.args[0]))
        if k == "continue":
            return self.continue_value()
        return 0.0  # a kind this heuristic does not know: neutral

    def threatened(self, seconds: int) -> float:
        """Expected enemy blows on this combatant in the next ``seconds`` Seconds (once per
        decision and ``seconds``)."""
        found = self._threat.get(seconds)
        if found is None:
            found = self._threat[seconds] = self._threatened(seconds)
        return found

    def _threatened(self, seconds: int) -> float:
        s_now, total = self.v["second"], 0.0
        for f in self.foes:
            r = self.c[f]
            d = abs(r["x"] - self.me["x"])
            reach = max([r["radii"][w.reach - 1] for w in self.arms(f) if not w.ranged] + [2])
            ranged = any(w.ranged and d <= w.max_range for w in self.arms(f))
            if not ranged and d > reach + r["full_move_ft"]:
                continue
            n = sum(1 for s, _, st in r["slots"]
                    if st in ("available", "reserved") and s_now <= s <= s_now + seconds)
            n += sum(1 for s, _, _ in r["slots"] if s <= s_now + seconds - 15)
            total += n * max(self.best_geo(f, min(d, reach)), 1.0)
        return total

    def closing_value(self, x: int) -> float:
        me = self.me
        bleed = me["conditions"].get("internal_bleeding", 0)
        removed = min(me["wounds"], 3 * x * max(0, 100 - 50 * bleed) // 100)
        if removed <= 0 or me["conditions"].get("closing_wounds", 0) >= x:
            return -1.0
        exposure = 0.5 * self.threatened(3)
        waste = 0.3 * max(0, x - -(-me["wounds"] // 3))
        return removed * WOUND_TICKS - self.stamina_cost(self.id, x) - exposure - waste

    def continue_value(self) -> float:
        """The committed action's payoff per slot still to pay (spec §4.7); a commitment it
        cannot judge (a spell) is kept going."""
        me = self.me
        a = parse_label(me["commitment"] or "")
        left = sum(1 for _, _, st in me["slots"] if st == "reserved") + me["carry_over"]
        if a.kind != "strike":
            return 0.5
        return self.strike_value(a.args[0], a.target or "") / max(1, left)

    def boost_gain(self, legal: list[Action], best: float) -> float:
        gain = 0.0
        for a in legal:
            if a.kind == "strike":
                v0 = self.strike_value(a.args[0], a.target or "")
                if v0 >= best - 1e-9 and v0 > 0:
                    gain = max(gain, self.strike_value(a.args[0], a.target or "", 2) - v0)
        return gain - self.morale_cost() if gain > 0 else -1.0

    def drop_gain(self) -> float:
        """Drop Closing Wounds (its -100%) when no Wound is left, or few and a foe is near."""
        me = self.me
        near = any(self.best_geo(self.id, abs(self.c[f]["x"] - me["x"])) > 0 for f in self.foes)
        few = me["wounds"] <= me["conditions"].get("closing_wounds", 0)
        return 0.5 if me["wounds"] == 0 or (near and few) else -1.0
