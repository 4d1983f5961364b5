"""Movement on the battle line (spec §5.3, §6.2; R21, R23, R24, R25): destinations of the four
modes, the foot-by-foot path with no passing, opportunity Strikes for every Zone layer left,
opposed Maneuver contests for Zone entry, and the Multi-Dodge BACK move (§6.1, R9)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .combatant import Combatant
from .events import Moved, OpportunityOffered, ZoneContest
from .profile import Arm, band, band_table
from .rolls import combat_roll

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["MODES", "destination", "destinations", "move", "move_back", "reaches",
           "opportunity_weapons"]

MODES = ("engage", "close", "edge", "away")
# spec §5.3: ENGAGE / CLOSE / EDGE / AWAY relative to a reference T.


def _clamp(enc: PalladiumEncounter, x: int) -> int:
    return max(0, min(enc.options.arena_length, x))


def _side_of(enc: PalladiumEncounter, c: Combatant, t: Combatant) -> int:
    """-1 when ``c`` is on T's low side, +1 on its high side; equal x: the home edge (§3.2)."""
    if c.x != t.x:
        return -1 if c.x < t.x else 1
    return enc.home[c.side]


def destination(enc: PalladiumEncounter, c: Combatant, mode: str, t: Combatant,
                allowance: int) -> int:
    """spec §5.3: the destination of a move of ``mode`` relative to ``t`` (computed once)."""
    side = _side_of(enc, c, t)
    if mode == "away":
        return _clamp(enc, c.x + side * allowance)
    if mode == "engage":
        want = c.profile.zoc_radius
    elif mode == "close":
        want = c.profile.radii[1]
    else:
        want = t.profile.zoc_radius + 1
    return _clamp(enc, t.x + side * want)


def destinations(enc: PalladiumEncounter, c: Combatant, t: Combatant,
                 allowance: int) -> tuple[int, int, int, int]:
    """``destination`` of each mode in ``MODES`` order (the side of T found once)."""
    side = _side_of(enc, c, t)
    top = enc.options.arena_length
    engage, close = t.x + side * c.profile.zoc_radius, t.x + side * c.profile.radii[1]
    edge, away = t.x + side * (t.profile.zoc_radius + 1), c.x + side * allowance
    return (max(0, min(top, engage)), max(0, min(top, close)), max(0, min(top, edge)),
            max(0, min(top, away)))


def reaches(w: Arm, wielder: Combatant, dist: int) -> bool:
    """spec §2.6, R45: a melee weapon strikes at ``dist`` if its band is within the reach, and
    in the Grappling layer only if it is short; a ranged one within ``inc x max_inc``."""
    if w.ranged:
        return dist <= w.max_range
    b = band(wielder.profile.radii, dist)
    return b <= w.reach and (b > 1 or w.short)


def opportunity_weapons(e: Combatant, dist: int) -> list[Arm]:
    """spec §6.2: E's melee weapons that reach the mover at ``dist``."""
    return [w for w in e.profile.melee if reaches(w, e, dist)]


def _enemies(enc: PalladiumEncounter, c: Combatant) -> list[Combatant]:
    return [e for e in enc.in_order() if e.side != c.side and e.active]


def _opportunity(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], e: Combatant,
                 c: Combatant, dist: int) -> None:
    """spec §6.2, §5.2.3, R24: E may Strike the mover (Unaware) with a weapon that reaches."""
    if not enc.options.opportunity_strikes:
        return
    if e.fx.surprised:  # FULL, spec §6.2: surprised enemies get no opportunity Strike
        return
    ws = [w for w in opportunity_weapons(e, dist) if w.hands == 1 or not e.fx.prone]
    opts = [Action(e.id, "strike", (w.id,), c.id) for w in ws]
    if enc.options.spells:  # FULL: 1-Action attack spells at the mover
        from .full_actions import opportunity_casts
        opts += opportunity_casts(enc, e, c, dist)
    if not opts:
        return
    opts.append(Action(e.id, "pass"))
    ev.append(OpportunityOffered(e.id, c.id, dist))
    a = ctx.ask(e.id, "opportunity", opts, {"mover": c.id, "distance": dist})
    if a.kind == "cast":  # FULL: pays its E.E. (no Action), the mover is Unaware
        from .full_spells import pay_cast, resolve_cast, spell_of
        e.resting, e.rest_seconds = False, 0
        sp = spell_of(a.args[0])
        if pay_cast(enc, ctx, ev, e, sp, c.id):
            resolve_cast(enc, ctx, ev, e, sp, c, opportunity=True)
        return
    if a.kind != "strike":
        return
    from .strike import strike
    e.resting, e.rest_seconds = False, 0
    strike(enc, ctx, ev, e, e.profile.weapon(a.args[0]), c, opportunity=True, dist=dist)


def _contest(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
             e: Combatant) -> int:
    """spec §5.3, R23: opposed Maneuver (mover's d20 first; a pending Morale boost adds +2),
    ``ceil(margin / 5)`` layers, ties and losses 0."""
    flat = 0
    if c.boost_pending:
        flat, c.boost_pending = rulings.MORALE_PRE_ROLL, False
    mc = combat_roll(ctx.dice, c, "maneuver", c.profile.maneuver, flat=flat).total
    rolled = not (e.fx.prone or e.fx.surprised)  # FULL, R23: no roll for a Prone/surprised one
    me = combat_roll(ctx.dice, e, "maneuver", e.profile.maneuver).total if rolled else 0
    if enc.options.post_roll:  # FULL, spec §6.4
        from .full_morale import post_roll_contest
        mc, me = post_roll_contest(enc, ctx, ev, c, mc, e, me, "maneuver", rolled)
    margin = mc - me
    per = rulings.ENTRY_MARGIN_PER_LAYER
    layers = -(-margin // per) if margin > 0 else 0
    ev.append(ZoneContest(c.id, e.id, mc, me, layers))
    return layers


def _quiet_test(zones: list[tuple[Combatant, tuple[int, ...], int]]) -> Any:
    """``quiet(p)``: no enemy stands at ``p`` and a foot from ``p`` (either way) changes no
    enemy's band, so ``move`` has nothing to check there. A band changes between distances
    ``d`` and ``d + 1`` only at ``d = r`` for a radius ``r``, so the feet to check are each
    enemy's ``x``, ``x +- r`` and ``x +- (r + 1)``."""
    loud: set[int] = set()
    for e, _, _ in zones:
        ex = e.x
        loud.add(ex)
        for r in e.profile.radii:
            loud.update((ex + r, ex - r, ex + r + 1, ex - r - 1))
    return lambda p: p not in loud


def move(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, dest: int,
         allowance: int, kind: str) -> None:
    """spec §5.3 ``move(c, dest, allowance, kind)``, foot by foot (enemies in initiative
    order): no passing (a), opportunity Strikes when a layer is left (b), entry contests (c)."""
    start = c.x
    step_dir = 1 if dest > start else -1
    moved = 0
    checks: dict[str, list[int]] = {}  # enemy -> [allowed, used]
    why = "arrived"
    # each enemy's band of a distance read from its table (``band_table``; 5 beyond it)
    zones = [(e, band_table(e.profile.radii), e.profile.zoc_band) for e in _enemies(enc, c)]
    contests = enc.options.zone_entry_contests
    quiet = _quiet_test(zones)
    while c.x != dest and moved < allowance:
        p = c.x
        if quiet(p):  # nothing happens on these feet: walk them at once
            while p != dest and moved < allowance and quiet(p):
                p += step_dir
                moved += 1
            c.x = p
            continue
        q = p + step_dir
        foes = [z for z in zones if z[0].active]
        if p != start:
            blocked = False
            for e, _, _ in foes:
                if e.x == p:
                    blocked = True
                    break
            if blocked:
                why = "blocked"
                break
        for e, tab, zb in foes:
            dp, dq = abs(p - e.x), abs(q - e.x)
            bp = tab[dp] if dp < len(tab) else 5
            if bp <= zb and (tab[dq] if dq < len(tab) else 5) > bp and e.active:
                _opportunity(enc, ctx, ev, e, c, dp)
                if not c.active or enc.is_over():
                    why = "fell"
                    break
        if why == "fell":
            break
        if contests:
            for e, tab, zb in zones:
                if not e.active:
                    continue
                dp, dq = abs(p - e.x), abs(q - e.x)
                bp = tab[dp] if dp < len(tab) else 5
                bq = tab[dq] if dq < len(tab) else 5
                if bq < bp and bq <= zb:
                    if e.id not in checks:
                        checks[e.id] = [_contest(enc, ctx, ev, c, e), 0]
                    if checks[e.id][1] + 1 > checks[e.id][0]:
                        why = "zone"
                        break
                    checks[e.id][1] += 1
            if why == "zone":
                break
        c.x = q
        moved += 1
        quiet = _quiet_test(zones)  # the foot may have changed the fight: look again
    else:
        if c.x != dest:
            why = "allowance"
    if kind == "step":
        c.step_budget -= moved
    ev.append(Moved(c.id, kind, start, c.x, why))


def move_back(enc: PalladiumEncounter, ev: list[Event], t: Combatant, a: Combatant) -> None:
    """spec §5.2 step 13, §6.1, R9: after the first attack resolves, a MULTIDODGE_BACK defender
    moves directly away from the attacker by ``floor(eff_PM / 2)`` ft: no Zone checks, no
    opportunity Strikes, never beyond an enemy's coordinate, clamped to [0, L]."""
    if not t.active:
        return
    side = _side_of(enc, t, a)
    dest = _clamp(enc, t.x + side * (t.eff_pm() // rulings.MULTIDODGE_BACK_DIVISOR))
    start = t.x
    why = "arrived"
    while t.x != dest:
        if t.x != start and any(e.x == t.x for e in _enemies(enc, t)):
            why = "blocked"
            break
        t.x += side
    ev.append(Moved(t.id, "multidodge_back", start, t.x, why))
