"""A Metaforce NPC a competent GM would play (spec §4-§9, docs/rules/metaforce.md).

Every legal action gets a value in "fight units" (1.0 = one combatant out of the fight): the harm
it does now plus what its end position means for the coming frames.

* harm: the engine's own preview (``preview_attack``: outcome bands after Evasion and Deflection,
  the target's Resistance, Weakness and Immunity, criticals, Size Damage, the firearm ladder)
  gives the expected damage; it is worth the share of the target's remaining HP it takes, with a
  bonus for a finishing blow, weighted by how dangerous the target is (focus fire);
* firearms fire as many shots of the Trigger Limit ladder as add enough to the volley; an empty
  gun is reloaded, a bow primed (it fires and re-primes in one frame after that);
* Create a Meta-Die (``+meta``) when the band it can lift is worth its MP; Deus Ex always;
* position: each foe's threat is its best preview against this combatant, multiplied by the
  attacks its Speed and reach give it from where this combatant would stand (a Reaction attack
  at once, its next turn later); a ranged combatant keeps its distance, a melee one closes, and
  a weak combatant does not stand in a giant's reach;
* a levelled area spell (FULL): the rules' ``preview_area`` gives each covered creature's
  chance and expected damage from the one roll; the foes' fight units, less 1.5 times the
  allies' share of HP it burns, spread over its casting frames and less its Exert; never a cast
  that would push Exert past the limit; once begun, a spell is carried on (``channel``);
* Special Attack setup while closing, grapples (no preview: estimated from the view), Escape,
  Vigilance, W-R1 Reaction attacks and moves.

It reads ``view(actor)``, the public previews and a weapon's range increment (its stat block);
it never changes the encounter. The shared parts (threats, previews, distances) are computed
once per decision, and a preview is kept across decisions (and rollouts) under what it depends
on, so that a rollout computes only the few it has not met yet.
"""

from __future__ import annotations

from typing import Any

from envs.core import Action
from envs.core.squaregrid import distance
from envs.metaforce.rules import preview_attack
from envs.metaforce.rules.geometry import SQUARE_FT

from ..base import RulesPolicy
from .metaforce_scores import score
from .metaforce_tables import _meta_sides, straight_move

__all__ = ["MetaforceHeuristic"]

PREVIEW_CACHE = 50_000  # previews kept across decisions (cleared when it grows past this)
DECISION_CACHE = 10_000  # choices kept by state across decisions and rollouts (likewise)
TEAM_WORTH = True  # a foe's worth: its harm to the side, not only to this combatant
KILL_BONUS = 0.6  # on top of the share of HP, for taking a foe out
REACT_W = 1.0  # weight of a foe's Reaction attack right after this frame
DANGER_W = 0.45  # weight of the attacks foes get on their next turn
OPP_LAST = DANGER_W  # ... after the last frame (the foes move before it attacks again)
OPP_W = 1.0  # weight of this combatant's own attacks to come
_PASS_WINDOWS = frozenset({"dodge", "meta_die", "crash_out", "finishing_touch", "crit",
                           "meta_status"})
_SCORED = frozenset({"deus_ex", "react", "convoke", "pass", "attack", "fire", "throw", "dash",
                     "reload", "reload_fire", "prime", "special", "grapple", "maintain", "escape",
                     "vigilance", "withdraw"})  # the kinds score() values on their own


class MetaforceHeuristic(RulesPolicy):
    """Rules-level heuristic for ``metaforce`` (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.previews: dict[tuple[Any, ...], Any] = {}
        self.keys: dict[tuple[Any, ...], int] = {}  # a preview key's parts, as numbers
        self.fights: dict[tuple[Any, ...], int] = {}  # (encounter name, rule options) -> a number
        self.decided: dict[tuple[Any, ...], tuple[int, list[int]]] = {}  # choose(), by state
        self.held: dict[int, Any] = {}  # what the keys of ``decided`` name by identity

    def choose(self, enc: Any) -> Action:
        """``RulesPolicy.choose``, without scoring where the answer is known: in a window that
        offers only ``pass`` and actions ``score`` gives ``position - 0.01`` (a Dodge, a
        defender's Meta-Die, Crash Out, Finishing Touch, a critical's use) ``pass`` is the one
        best action; a state met before (``state_key``) has the best actions found then (the
        scores are a function of the state), and ties are broken as ever."""
        legal = enc.legal_actions()
        if enc.decision in _PASS_WINDOWS:
            passes = [a for a in legal if a.kind == "pass"]
            if len(passes) == 1 and not passes[0].args and all(
                    a.kind not in _SCORED for a in legal if a is not passes[0]):
                return passes[0]
        key = enc.state_key()  # a state met before (rollouts meet many): its best actions
        try:
            got = self.decided.get(key)
        except TypeError:  # a state key that cannot be hashed: score as ever
            return super().choose(enc)
        if got is None or got[0] != len(legal):
            scores = [float(x) for x in self.rank(enc, enc.current_actor(), legal)]
            top = max(scores)
            got = (len(legal), [i for i, x in enumerate(scores) if x == top])
            if len(self.decided) > DECISION_CACHE:
                self.decided.clear()
                self.held.clear()
            for part in enc.fixed_parts():  # the key names them by identity
                self.held.setdefault(id(part), part)
            self.decided[key] = got
        best = got[1]
        return legal[int(self.rng.choice(best))] if len(best) > 1 else legal[best[0]]

    def rank(self, enc: Any, actor: str, legal: list[Action]) -> list[float]:
        if enc.decision == "deus_ex":  # score(): Deus Ex 1.0, its pass 0.0 (no view needed)
            return [1.0 if a.kind == "deus_ex" else 0.0 for a in legal]
        if len(self.previews) > PREVIEW_CACHE:
            self.previews.clear()
            self.keys.clear()  # with the previews: a number stands for one key part only
        fight = self.fights.setdefault((enc.name, enc.options), len(self.fights))
        d = _Decision(enc, actor, self.previews, fight, self.keys)
        return [d.score(a) for a in legal]


class _Decision:
    """The shared parts of one decision: the view, threats, distances, previews."""

    def __init__(self, enc: Any, actor: str, previews: dict[tuple[Any, ...], Any],
                 fight: int = -1, keys: dict[tuple[Any, ...], int] | None = None) -> None:
        self.enc = enc
        self.previews = previews
        # the attacker's and the target's parts of a preview key, each numbered once (a short
        # key hashes faster); kept and cleared with ``previews``
        self.keys = {} if keys is None else keys
        # what every preview key of this decision shares: the fight (its name and options, as a
        # number: hashed once) and the first round
        self._base = (fight if fight >= 0 else (enc.name, enc.options), enc.round == 1)
        self._att: dict[tuple[str, str], tuple[int, int]] = {}  # pv(): attacker
        self._tgt: dict[str, int] = {}  # pv(): target
        self._threats: dict[tuple[str, str], float] = {}  # _threat(), per decision
        self.actor = actor
        v = enc.view(actor)
        self.v = v
        self.cs = {c["id"]: c for c in v["combatants"]}
        self.me = me = self.cs[actor]
        self._w: dict[str, dict[str, Any] | None] = {}  # weapon(): the first row of an id
        for w in me["weapons"]:
            self._w.setdefault(w["id"], w)
        self.grid = v["grid"]
        self.foes = [c for c in v["combatants"] if not c["ally"] and c["state"] == "active"]
        self.last = v["decision"] != "frame" or me["frames_left"] <= 1
        self.hp = max(1, me["hp"])
        self.speed = me["speed_squares"]
        self.pos = (me["x"], me["y"])
        self.n = me["space"]
        self._pv: dict[tuple[str, str, str, int], Any] = {}
        self.threat = {f["id"]: self._threat(f, actor) for f in self.foes}
        harm = self.threat
        if TEAM_WORTH:  # how hard each foe hits this side: its best target among us
            team = [c["id"] for c in v["combatants"] if c["ally"] and c["state"] == "active"]
            harm = {f["id"]: max(self._threat(f, x) / max(1, self.cs[x]["hp"]) for x in team)
                    for f in self.foes}
        mean = sum(harm.values()) / max(1, len(harm))
        self.worth = {k: 0.5 + t / max(1e-9, mean) for k, t in harm.items()}
        self._off: dict[Any, float] = {}
        self._at: dict[tuple[Any, ...], tuple[int, int]] = {}  # moved(), per decision
        self._pos: dict[tuple[tuple[int, int], bool], float] = {}  # position(), per decision
        # per foe, what position() reads: (foe, threat, reach, speed, may react, best attack)
        self._near: list[tuple[dict[str, Any], float, int, int, bool, float]] | None = None
        ws = me["weapons"]
        self.reach = max((w["range_squares"] for w in ws), default=1)
        self.best = {f["id"]: self._best_off(f) for f in self.foes}

    # ------------------------------------------------------------------ numbers
    def pv(self, att: str, w: dict[str, Any] | None, tid: str, shot: int = 1) -> Any:
        """``preview_attack``, kept across decisions under everything it depends on (the rule
        options; spec §5.3.1 steps: the range band, Tired/Exhausted, a grapple, the first round;
        the weapon; the target's Evasion, Deflection, Size and block): exact but not cheap.

        The distance enters only as the range band (R-30: the increments a ranged weapon's shot
        crosses, ``attack_steps``) and the attacker's statuses only through a grapple (R-37), so
        a step closer inside the same increment, or a Bleed that ticks, reuses the preview (its
        ``in_range``, which this policy does not read, is that of the first one)."""
        assert w is not None
        mine = (att, w["id"], tid, shot)
        got = self._pv.get(mine)
        if got is not None:  # this decision asked already
            return got
        a, t = self.cs[att], self.cs[tid]
        band = 0
        ak = self._att.get(mine[:2])
        if ak is None:
            ak = self._att[mine[:2]] = (
                self.enc.by_id[att].profile.weapon(w["id"]).range_increment_ft,
                self._number((att, w["id"], w["tohit"], w["damage"], a["size"], a["tired"],
                              a["exhausted"])))
        inc = ak[0]
        if inc > 0:  # spec §5.3.1: the same increment, the same steps
            far = distance((a["x"], a["y"]), a["space"], (t["x"], t["y"]), t["space"])
            band = -(-far * SQUARE_FT // inc)
        g = a["statuses"].get("grappled")
        grip = (g["severity"], g["source"] == tid) if g is not None else None
        tk = self._tgt.get(tid)
        if tk is None:
            tk = self._tgt[tid] = self._number(
                (tid, t["evasion"], t["deflection"], t["size"], t["hp_max"],
                 tuple(t["status_defence"].items()), t["warded"]))
        key = (self._base, ak[1], tk, shot, band, grip)
        got = self.previews.get(key)
        if got is None:
            got = self.previews[key] = preview_attack(self.enc, att, w["id"], tid, shot)
        self._pv[mine] = got
        return got

    def _number(self, part: tuple[Any, ...]) -> int:
        got = self.keys.get(part)
        if got is None:
            got = self.keys[part] = len(self.keys)
        return got

    def _threat(self, f: dict[str, Any], on: str) -> float:
        """Expected damage of ``f``'s best attack on ``on`` (the engine's preview)."""
        key = (f["id"], on)
        got = self._threats.get(key)
        if got is None:
            got = self._threats[key] = self._threat_of(f, on)
        return got

    def _threat_of(self, f: dict[str, Any], on: str) -> float:
        best = 0.0
        for w in f["weapons"]:
            e = self.pv(f["id"], w, on).expected_damage
            if w["family"] == "firearm" and f["loaded"].get(w["id"], 0) <= 0:
                e *= 0.4  # it must reload first
            elif w["family"] == "bow" and not f["bow_ready"].get(w["id"]):
                e *= 0.6
            best = max(best, e)
        return best

    def _foe_reach(self, f: dict[str, Any]) -> int:
        return max((w["range_squares"] for w in f["weapons"]), default=1)

    def value(self, tid: str, e: float, hit: float) -> float:
        """Fight units of ``e`` expected damage (hit chance ``hit``) on ``tid``."""
        t = self.cs[tid]
        if t["state"] != "active":
            return 0.0  # already out of the fight
        hp = max(1, t["hp"])
        out = min(e, hp) / hp
        if hit > 0:
            per_hit = e / hit
            pk = hit * min(1.0, max(0.0, (per_hit - hp) / (0.5 * per_hit) + 0.5))
            out += KILL_BONUS * pk
        return out * self.worth.get(tid, 1.0)

    def harm(self, wid: str, tid: str, shots: int = 1) -> tuple[float, float]:
        """(expected damage, chance of at least one hit) of ``shots`` attacks with ``wid``."""
        e, miss = 0.0, 1.0
        for k in range(1, shots + 1):
            p = self.pv(self.actor, self.weapon(wid), tid, k)
            e += p.expected_damage
            miss *= 1 - p.hit
        return e, 1 - miss

    def levelled(self, sid: str) -> bool:
        """``sid`` is one of this combatant's levelled area spells (not a support cantrip)."""
        return any(sp.id == sid for sp in self.enc.by_id[self.actor].profile.spells)

    def off(self, wid: str, tid: str, shots: int = 1, meta: bool = False) -> float:
        key = (wid, tid, shots, meta)
        got = self._off.get(key)
        if got is None:
            e, hit = self.harm(wid, tid, shots)
            got = self._meta(wid, tid, e, hit) if meta else self.value(tid, e, hit)
            self._off[key] = got
        return got

    def _meta(self, wid: str, tid: str, e: float, hit: float) -> float:
        """Create a Meta-Die (R-41): it may lift a miss or a deflected hit, paid only then."""
        sides = _meta_sides(self.me["mp"])
        p = self.pv(self.actor, self.weapon(wid), tid)
        lift = min(1.0, (sides + 1) / 10)
        per_hit = e / hit if hit > 0 else 0.0
        e2 = e + lift * (p.miss * per_hit + 0.5 * p.deflected * per_hit)
        hit2 = hit + lift * p.miss
        spend = lift * (p.miss + p.deflected) * (sides + 1) / 2
        left = self.me["mp"] - sides
        cost = spend * (0.02 if left >= 1 else 0.06)  # keep 1 MP for Deus Ex when it can
        return self.value(tid, e2, hit2) - cost - 1e-3  # the plain attack when it adds nothing

    def _best_off(self, f: dict[str, Any]) -> float:
        """The best single attack of this combatant on ``f`` (ignoring range)."""
        best = 0.0
        for w in self.me["weapons"]:
            if w["family"] == "firearm" and self.me["reserve"].get(w["id"], 0) <= 0 \
                    and self.me["loaded"].get(w["id"], 0) <= 0:
                continue
            best = max(best, self.off(w["id"], f["id"]))
        return best

    # ------------------------------------------------------------------ positions
    def dist(self, at: tuple[int, int], c: dict[str, Any]) -> int:
        return distance(at, self.n, (c["x"], c["y"]), c["space"])

    def moved(self, ref: str | None, mode: str, squares: int, stop: int = 1) -> tuple[int, int]:
        """Where this combatant would end after ``mode`` relative to ``ref`` (an estimate: a
        straight line, clamped to the grid; the engine's path search may differ a little).
        Remembered for the decision (many actions share a move)."""
        if ref is None or mode == "hold" or squares <= 0:
            return self.pos
        key = (ref, mode, squares, stop)
        got = self._at.get(key)
        if got is None:
            got = self._at[key] = self._moved(ref, mode, squares, stop)
        return got

    def _moved(self, ref: str, mode: str, squares: int, stop: int) -> tuple[int, int]:
        r = self.cs[ref]
        return straight_move(self.pos, self.n, (r["x"], r["y"]), r["space"], mode, squares, stop,
                             self.grid[0], self.grid[1])

    def position(self, at: tuple[int, int], reacting: bool = False) -> float:
        """Fight units of standing at ``at`` after this decision: foes' Reaction attacks at once
        and their attacks next turn (against this combatant's HP), this combatant's chances.
        Remembered for the decision under (``at``, ``reacting``): most actions share an end."""
        key = (at, reacting)
        got = self._pos.get(key)
        if got is None:
            got = self._pos[key] = self._position(at, reacting)
        return got

    def _position(self, at: tuple[int, int], reacting: bool) -> float:
        now = soon = 0.0
        mine = 0.0
        if self._near is None:
            self._near = [(f, self.threat[f["id"]], self._foe_reach(f), f["speed_squares"],
                           f["reactions"] > 0 and f["stun"] == 0, self.best[f["id"]])
                          for f in self.foes]
        n = self.n
        for f, th, reach, s, may_react, best in self._near:
            d = distance(at, n, (f["x"], f["y"]), f["space"])
            if not reacting and may_react and d <= reach:
                now += th
            if d <= reach + s:
                soon += 2 * th
            elif d <= reach + 3 * s:
                soon += th
            if d <= self.reach:
                mine = max(mine, 2 * best)
            elif d <= self.reach + self.speed:
                mine = max(mine, 1.8 * best)
            elif d <= self.reach + 3 * self.speed:
                mine = max(mine, best)
            else:
                mine = max(mine, best * (self.reach + 3 * self.speed) / (2 * d))
        fut = 1.0 if self.last else 0.35
        hp = self.hp
        return (-REACT_W * min(1.0, now / hp) - DANGER_W * fut * min(1.0, soon / hp)
                + OPP_W * (OPP_LAST if self.last else 0.35) * mine)

    # ------------------------------------------------------------------ scoring
    def score(self, a: Action) -> float:
        """Fight units of ``a`` for this decision (``metaforce_scores``)."""
        return score(self, a)

    def weapon(self, wid: str) -> dict[str, Any] | None:
        return self._w.get(wid)

