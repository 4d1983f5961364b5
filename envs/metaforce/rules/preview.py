"""Public previews and the view (DESIGN.md: agents never call private engine members and never
re-derive odds): the chance of each outcome band of an attack, its expected damage, who is in
range, and ``public_view`` (everything a player at the table knows; Metaforce hides nothing,
spec §12.4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import content as C
from .arms import bow_ready, shot_steps
from .attack import (
    band,
    crit_use,
    direct_only,
    expertise_use,
    expertise_v,
    in_range,
    range_squares,
)
from .damage import attacker_damage, defend, gear_size, giant_hit, m_a, size_crit_mult
from .full_focus import ward_on
from .moves import dist

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["AttackPreview", "AreaHit", "preview_attack", "preview_area", "in_reach",
           "public_view"]


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """One attack's odds from where the two stand now (spec §5.3; exact over the d12s, the
    explosion md12 and the bonus die; no Meta-Die, no status).

    Attributes:
        miss, deflected, direct: chance of each band (they sum to 1).
        crit: chance of a natural 12.
        expected_damage: mean HP lost by the target after its defences.
        steps: the Advantage state of the roll.
        in_range: the target is within reach or range now.
    """

    miss: float
    deflected: float
    direct: float
    crit: float
    expected_damage: float
    steps: int
    in_range: bool

    @property
    def hit(self) -> float:
        return self.deflected + self.direct


def preview_attack(enc: MetaforceEncounter, attacker: str, weapon: str, target: str,
                   shot: int = 1) -> AttackPreview:
    """The preview of ``attacker``'s attack with ``weapon`` on ``target`` (``shot``: the place
    in a firearm volley, §5.5)."""
    key = ("preview", attacker, weapon, target, shot)
    got = enc.memo.get(key)
    if got is not None:
        return got
    a, t = enc.by_id[attacker], enc.by_id[target]
    w = a.profile.weapon(weapon)
    s = shot_steps(enc, a, w, t, shot)
    penalty = C.ladder_penalty(s)
    e, d = t.evasion(), t.deflection()
    if w.ignores_evasion:
        e = 0  # Magic Missile (§13.4)
    fd = direct_only(w, t)
    ward = ward_on(enc, t)  # §13.4 Ward (FULL)
    faces = range(1, w.bonus_die + 1) if w.bonus_die else [0]
    nb = len(faces)
    bands = {"miss": 0.0, "deflected": 0.0, "direct": 0.0}
    crit = dmg = 0.0
    hits: dict[tuple[int, int, str | None, int], list[tuple[str, int]]] = {}
    xv = expertise_v(a, w.attr)
    from .checks import roll_outcomes
    for q, kept, v in roll_outcomes(s):
        tohit = kept + w.tohit + penalty - ward
        use = "tohit" if v and tohit < e else None
        if use:
            tohit += v
        xrest = xv  # spec §2.4.2, R-52: Expertise's V, to ToHit while the hit needs it
        if xv and tohit < e:
            tohit, xrest = tohit + xv, 0
        got = band(tohit, e, d, fd)
        if v:
            crit += q
        if got == "miss":
            bands["miss"] += q
            continue
        per_face = hits.get((tohit, v, use, xrest))
        if per_face is None:
            per_face = hits[(tohit, v, use, xrest)] = _faces(enc, a, w, t, tohit, v, use,
                                                             faces, xrest)
        for g, lost in per_face:  # the sums in the same order as face by face
            dmg += q / nb * lost
            bands[g] += q / nb
    out = AttackPreview(bands["miss"], bands["deflected"], bands["direct"], crit, dmg, s,
                        in_range(enc, a, w, t))
    enc.memo[key] = out
    return out


def _faces(enc: MetaforceEncounter, a: Any, w: Any, t: Any, tohit: int, v: int,
           use: str | None, faces: Any, xv: int = 0) -> list[tuple[str, int]]:
    """(band, HP lost) of a hit for each bonus-die face, at total ``tohit`` with Versatile
    ``v`` already spent as ``use`` (or not yet) and Expertise's ``xv`` not yet spent: it depends
    on nothing else, so a preview works it out once for every way of reaching that total
    (spec §5.3, §8.1-§8.4)."""
    e, d, fd = t.evasion(), t.deflection(), direct_only(w, t)
    e = 0 if w.ignores_evasion else e  # Magic Missile (§13.4)
    ma, giant = m_a(enc, a, t), giant_hit(enc, a, t)
    out = []
    for f in faces:
        b = w.damage_base + f
        u, th = use, tohit
        if v and u is None:
            u = crit_use(enc, w, a, t, th, v, b, e, d)
            if u == "tohit":
                th += v
        xu = expertise_use(w, t, th, xv, e, d) if xv else None
        th += xv if xu == "tohit" else 0
        g = band(th, e, d, fd)
        bb = b + (v if u == "damage" else 0) + (xv if xu == "damage" else 0)
        sc = size_crit_mult(ma, v, t.profile.size, enc.options.full) if u == "size" else None
        m, sc = gear_size(enc.options.full, w.size_ranks, w.size_ranks_direct, a.profile.size,
                          t.profile.size, g == "direct", ma, sc)  # spec §8.4 size-enhanced gear
        raw = attacker_damage(bb, m, bool(v), sc)
        out.append((g, defend(t.profile, raw, w.damage_type, g == "deflected",
                              w.family == "firearm", giant)))
    return out


@dataclass(frozen=True, slots=True)
class AreaHit:
    """One creature's share of an area spell's preview: ``hit`` (the chance the one roll hits
    it) and ``expected_damage`` (mean HP it loses after its defences)."""

    combatant: str
    ally: bool
    hit: float
    expected_damage: float


def preview_area(enc: MetaforceEncounter, caster: str, spell: str, target: str
                 ) -> tuple[AreaHit, ...]:
    """The odds of ``caster``'s levelled area spell at ``target`` if it resolved now, for every
    creature it covers (spec §5.8, R-60; exact over the d12s, the explosion md12 and the bonus
    die; no Dodge, Meta-Die or status; a critical's V on ToHit while the hit needs it, else on
    damage, as the engine's default)."""
    from .attack import target_steps
    from .checks import net_steps, roll_outcomes
    from .full_spells import area_of, spell_of, spell_tohit
    from .full_statuses import carried
    key = ("area", caster, spell, target)
    got = enc.memo.get(key)
    if got is not None:
        return got
    c, t = enc.by_id[caster], enc.by_id[target]
    sp = spell_of(c, spell)
    s = net_steps(target_steps(enc, c, t), sp.proficient, sp.attr in c.profile.expertise,
                  c.tired, c.exhausted)
    penalty = C.ladder_penalty(s)
    xv = expertise_v(c, sp.attr)
    faces = range(1, sp.bonus_die + 1) if sp.bonus_die else [0]
    rolls = roll_outcomes(s)
    on_mag = sp.special_status is not None and carried(True, sp.special_status)  # §13.4
    out = []
    for o in area_of(enc, c, sp, t):
        e, d = o.evasion(), o.deflection()
        ward, ma = ward_on(enc, o), m_a(enc, c, o)
        hit = dmg = 0.0
        mean: dict[tuple[bool, int, bool], float] = {}  # the bonus die's mean loss, per kind
        for q, kept, v in rolls:  # of hit (few kinds, many roll outcomes)
            tohit, v_hit, x_hit = spell_tohit(kept, v, sp, penalty, ward, e, xv)
            if tohit < e:
                continue
            hit += q
            kind = (tohit <= d, (0 if v_hit or on_mag else v) + (0 if x_hit else xv), bool(v))
            got_mean = mean.get(kind)
            if got_mean is None:
                deflected, extra, crit = kind
                total = 0
                for f in faces:
                    raw = attacker_damage(sp.damage_base + f + extra, ma, crit)
                    lost = defend(o.profile, raw, sp.damage_type, deflected)
                    if o.burn_injury and lost > 0:
                        lost = lost * 3 // 2
                    total += lost
                got_mean = mean[kind] = total / len(faces)
            dmg += q * got_mean
        out.append(AreaHit(o.id, o.side == c.side, hit, dmg))
    got = enc.memo[key] = tuple(out)
    return got


def in_reach(enc: MetaforceEncounter, attacker: str) -> dict[str, list[str]]:
    """Weapon id -> the enemies it reaches from where ``attacker`` stands now."""
    a = enc.by_id[attacker]
    out: dict[str, list[str]] = {}
    for w in a.weapons():
        out[w.id] = [t.id for t in enc.combatants if t.side != a.side and t.alive
                     and t.present and in_range(enc, a, w, t)]
    return out


def _weapons(enc: MetaforceEncounter, c: Any) -> list[dict[str, Any]]:
    """The view's weapon rows of ``c``: they read only its stat block, the weapons it still
    holds (R-60) and the rule options, so they are built once per fight (kept beside the
    movement memo, which clones share) and each view gets copies."""
    key = ("view weapons", c.id, tuple(c.gone) if c.gone else ())
    got = enc.reach_memo.get(key)
    if got is None or got[0] is not c.profile or got[1] is not enc.options:
        rows = [{"id": w.id, "family": w.family, "tohit": w.tohit,
                 "damage": f"{w.damage_base}+d{w.bonus_die}", "type": w.damage_type,
                 "range_squares": range_squares(enc, c, w)} for w in c.weapons()]
        got = enc.reach_memo[key] = (c.profile, enc.options, rows)
    return [dict(r) for r in got[2]]


def _public(enc: MetaforceEncounter, c: Any, me: Any, wards: bool = True) -> dict[str, Any]:
    """``c``'s row of ``me``'s view (``wards``: some combatant holds an effect, so a Ward may
    be on)."""
    p = c.profile
    evasion = c.evasion()
    return {
        "id": c.id, "side": c.side, "ally": c.side == me.side, "state": c.state,
        "hp": c.hp, "hp_max": p.hp_max, "mp": c.mp, "mp_max": c.mp_max,
        "metaforce_user": c.mu, "protected": p.protected, "x": c.x, "y": c.y, "size": p.size,
        "space": c.n, "speed_squares": c.speed_squares(), "evasion": evasion,
        "deflection": c.deflection(evasion), "status_defence": dict(p.status_defence),
        "reactions": c.reactions, "frames_left": c.frames_left, "stun": c.stun,
        "statuses": {k: {"magnitude": v[0], "severity": c.status_severity(k), "source": v[2]}
                     for k, v in c.statuses.items()} if c.statuses else {},
        "suppressed": dict(c.suppressed), "asleep": c.asleep,  # spec §7.1, §7.5 (FULL)
        "grappling": c.grappling, "grips": list(c.grips()),
        "special_pending": c.special_until >= 0,
        "mpowers": sorted(p.mpowers), "safe": c.safe, "action8_used": c.a8_used,
        "dodge_bonus": p.dodge_bonus, "aware": c.aware, "acted": c.acted,
        "team_work_used": c.tw_used, "force_fate_uses": c.ff_uses,  # FULL (full_meta)
        "exert": c.exert_total, "tired": c.tired, "exhausted": c.exhausted,
        "tension": c.tension, "warded": ward_on(enc, c) if wards else 0,
        "tapped_mana": c.mana_until >= 0,
        "effects": [{"effect": e[0], "mode": e[1], "tension": e[2], "holder": e[3]}
                    for e in c.effects] if c.effects else [],  # spec §7.7, §7.9, §13.4 (FULL)
        "loaded": dict(c.loaded), "reserve": dict(c.reserve), "primed": dict(c.primed),
        "bow_ready": {w.id: bow_ready(c, w) for w in c.weapons() if w.family == "bow"},
        "weapons": _weapons(enc, c),
        "distance": dist(me, c) if c is not me else 0,
    }


def public_view(enc: MetaforceEncounter, actor: str) -> dict[str, Any]:
    """What ``actor`` knows: everything on the table (spec §12.4: no hidden information)."""
    me = enc.by_id[actor]
    wards = any(c.effects for c in enc.combatants)  # ward_on() is 0 while nobody holds one
    return {
        "system": "metaforce", "round": enc.round, "max_rounds": enc.options.max_rounds,
        "decision": enc.decision, "current_actor": enc.current_actor(), "me": actor,
        "frame": me.frame, "trigger": enc.trigger, "guest": enc.guest,
        "initiative_link_used": enc.link_used,
        "window": None if enc.window is None else enc.window.to_dict(),
        "grid": [enc.grid.width, enc.grid.height], "initiative": list(enc.order),
        "combatants": [_public(enc, c, me, wards) for c in enc.combatants],
    }
