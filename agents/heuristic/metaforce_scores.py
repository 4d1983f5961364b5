"""The Metaforce heuristic's value of each kind of action (``metaforce.py`` describes the values),
functions of one decision (``metaforce._Decision``: its view, previews, threats and positions),
as the Palladium heuristic keeps its windows and moves in their own modules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core import Action

from .metaforce_tables import _ADV, BY_TYPE

if TYPE_CHECKING:
    from .metaforce import _Decision as Decision

__all__ = ["score", "STATUS_VALUE", "KEEP_W"]

KEEP_W = 0.6  # a Reaction kept for a foe that comes into reach
ALLY_W = 1.5  # an ally's share of HP lost to one's own area spell, against a foe's
EXERT_W = 0.03  # a point of Exert (Tired at 4, spec §7.6)
CHANNEL_W = 0.3  # a casting frame carried on
STATUS_VALUE = {"stun": 0.5, "bleed": 0.25, "burn": 0.25, "slow": 0.15, "knockback": 0.0,
                "grappled": 0.2}


def score(d: Decision, a: Action) -> float:
    k = a.kind
    if k == "deus_ex":
        return 1.0  # survive the killing blow
    if d.v["decision"] == "deus_ex":
        return 0.0  # its pass
    if k == "react":
        return reaction(d, a)
    if k == "convoke":
        return convoke(d)
    if k == "pass" and d.v["decision"] == "reaction":
        return d.position(d.pos, reacting=True) + keep(d)
    args = a.args
    mode = args[-1] if args and args[-1] in ("approach", "retreat") else "hold"
    if k in ("attack", "fire", "throw"):
        return attack(d, a, mode)
    if k == "dash":
        return d.position(d.moved(a.target, mode, 2 * d.speed))
    if k == "pass":
        return d.position(d.moved(a.target, mode, d.speed))
    if k == "cast" and a.target is not None and d.levelled(args[0]):
        return spell(d, args[0], a.target) + d.position(d.moved(a.target, mode, 1))
    if k == "channel":  # keep casting: giving up loses the Exert paid (spec §5.8)
        return CHANNEL_W + d.position(d.moved(a.target, mode, 1))
    at = d.moved(a.target, mode, d.speed)
    if k == "reload":
        return reload(d, args[0]) + d.position(at)
    if k == "reload_fire" and a.target is not None:  # FULL: an expert's reload and shot
        return d.off(args[0], a.target, 1) + d.position(at)
    if k == "prime":
        return prime(d, args[0]) + d.position(at)
    if k == "special":
        return special(d) + d.position(at)
    if k == "grapple":
        assert a.target is not None
        return grapple(d, a.target) + d.position(
            d.moved(a.target, mode, d.speed))
    if k == "maintain":
        return 0.1 + d.position(d.pos)
    if k == "release" and a.target is not None:
        return d.position(d.pos) - 0.5  # a grip given up for nothing (spec §5.9 item 4)
    if k == "escape":
        return escape(d, args[0]) + d.position(d.pos)
    if k == "vigilance":
        return vigilance(d) + d.position(d.pos)
    if k == "withdraw":
        return -50.0  # leaving loses the fight for this combatant
    return d.position(d.pos) - 0.01  # end_turn


def attack(d: Decision, a: Action, mode: str) -> float:
    assert a.target is not None
    wid, tid = a.args[0], a.target
    shots = int(a.args[1]) if a.kind == "fire" else 1
    v = d.off(wid, tid, shots, "meta" in a.boosts)
    if a.kind == "fire" and shots > 1:
        one = d.off(wid, tid, shots - 1)
        if v - one < 0.25 * d.off(wid, tid, 1):
            v = one - 0.01  # the next shot of the ladder adds too little for its round
    if a.kind == "throw":
        v *= 0.6  # the weapon is gone afterwards
    w = d.weapon(wid)
    stop = w["range_squares"] if w else 1  # APPROACH stops once in range (spec §5.1)
    return v + d.position(d.moved(tid, mode, d.speed, stop))


def spell(d: Decision, sid: str, tid: str) -> float:
    """A levelled area spell (spec §5.8, R-60) from the rules' ``preview_area``: the foes' fight
    units minus ``ALLY_W`` times the allies' share of HP lost, spread over its casting frames,
    less ``EXERT_W`` a point of Exert it costs (``costs``), and nothing worth a fall into
    Unconsciousness (spec §7.6: Exert above the limit)."""
    from envs.metaforce.rules.full_spells import costs, spell_of
    from envs.metaforce.rules.preview import preview_area
    c = d.enc.by_id[d.actor]
    exert, frames = costs(c, spell_of(c, sid))
    if c.exert_total + exert > c.profile.exert_limit:
        return -1.0
    v = 0.0
    for h in preview_area(d.enc, d.actor, sid, tid):
        if h.ally:
            hp = max(1, d.cs[h.combatant]["hp"])
            v -= ALLY_W * min(h.expected_damage, hp) / hp
        else:
            v += d.value(h.combatant, h.expected_damage, h.hit)
    return v / frames - EXERT_W * exert


def best_ranged(d: Decision, wid: str) -> float:
    return max((d.off(wid, f["id"]) for f in d.foes), default=0.0)


def reload(d: Decision, wid: str) -> float:
    if d.me["loaded"].get(wid, 0) <= 0:
        return 0.8 * best_ranged(d, wid)
    return 0.05 * best_ranged(d, wid)


def prime(d: Decision, wid: str) -> float:
    return 0.8 * best_ranged(d, wid)


def special(d: Decision) -> float:
    """A Special Attack setup: the next attack carries the weapon's status (spec §5.4)."""
    best = max(d.best.values(), default=0.0)
    status = max((STATUS_VALUE.get(str(s), 0.1) for s in statuses(d)), default=0.1)
    return status * best


def statuses(d: Decision) -> list[str]:
    """The statuses this combatant's weapons carry (by damage type, spec §2.7, R-16; the
    view names no weapon's own status)."""
    return [BY_TYPE.get(w["type"], "") for w in d.me["weapons"]]


def grapple(d: Decision, tid: str) -> float:
    """No preview for a grapple (spec §5.9): an estimate from the view. The grapple bonus
    (the better of STR and AGI plus a grapple Metaphor) is taken as the ToHit of an unarmed
    attack, else 2; a Magnitude of Reflex SD + 10 restrains the target (its only activity
    is Escape): worth the attacks it would make. A Full grapple leaves the target free to hit
    its grappler; it is not worth a frame."""
    t = d.cs[tid]
    if t["state"] != "active" or "grappled" in t["statuses"]:
        return -0.05
    bonus = max((w["tohit"] for w in d.me["weapons"] if w["id"].startswith("unarmed")),
                default=2)
    sd = t["status_defence"].get("reflex", 0)
    hit = sum(_ADV[k] for k in range(1, 13) if k == 12 or k + bonus >= t["evasion"])
    intense = sum(_ADV[k] for k in range(1, 13) if k + bonus >= sd + 10)
    denied = 2 * d.threat.get(tid, 0.0) / d.hp
    return 0.7 * hit * intense * denied - 0.05


def escape(d: Decision, status: str) -> float:
    st = d.me["statuses"].get(status)
    sev = st["severity"] if st else "partial"
    if status == "grappled":
        return {"intense": 1.0, "full": 0.25}.get(sev, 0.1)
    return {"intense": 0.4, "full": 0.25}.get(sev, 0.1)


def vigilance(d: Decision) -> float:
    """A second Reaction for the coming turns of the foes (R-56: the last frame)."""
    near = [f for f in d.foes
            if d.dist(d.pos, f) <= d.reach + f["speed_squares"]]
    return 0.3 * max((d.best[f["id"]] for f in near), default=0.0)


def keep(d: Decision) -> float:
    """Keeping a Reaction: worth an attack on a foe that may come into reach before this
    combatant's turn (W-R1 after each of its frames)."""
    near = [d.best[f["id"]] for f in d.foes
            if d.dist(d.pos, f) <= d.reach + f["speed_squares"]]
    return 0.02 + KEEP_W * max(near, default=0.0)


def convoke(d: Decision) -> float:
    """W-C (FULL): give the tapped mana when the caster's Exert is already up (each convoker
    saves it 2 Exert and the spell a frame); otherwise keep the Reaction (``pass`` scores
    the position)."""
    w = d.v["window"] or {}
    caster = d.cs.get(dict(w.get("info", ())).get("caster", ""))
    here = d.position(d.pos)
    if caster is not None and (caster["tired"] or caster["exert"] >= 2):
        return here + 0.3
    return here - 0.01


def reaction(d: Decision, a: Action) -> float:
    what = a.args[0]
    tid = a.target
    if tid is None:  # react action8 (FULL): the Reaction becomes a whole frame, for 8 MP
        return 0.8 * max(d.best.values(), default=0.0) + d.position(d.pos, True)
    if what in ("attack", "throw"):
        v = d.off(a.args[1], tid, 1, "meta" in a.boosts)
        return (0.6 * v if what == "throw" else v) + d.position(d.pos, True)
    return d.position(d.moved(tid, what, d.speed), True)
