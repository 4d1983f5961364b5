"""FULL Lift and Throw (spec §5.1 rows 22-23, §5.2.16, R-67, R-71): ``lift -> T`` and
``throw -> T``, listed by ``legal.full_turn_actions`` under the FULL options only.

A lift is held as a grip (``grips``/``grappled_by``, spec §5.2.9) marked ``lift:<id>`` in the
lifter's ``fx``: 1 for a consenting rider (``-2 <= d <= +1``), 2 for a creature wielded as an
improvised weapon (``d <= -3``), with ``d = SN_target - SN_lifter``. So the grip machinery
carries it: the lifter's hands are taken, the lifted creature is moved with the lifter's steps
(R-75 placement: it stays next to the lifter; the engine keeps no place on top of a creature),
cannot take steps or stand while held, and the hold ends as a grapple does (spec §5.2.9 list,
``release -> T``). RULINGS of this module (the seed is silent, spec §5.2.16):

* consent (R-71): only an ally consents; a hostile never does (as R-29 reads "consent");
* a lifted creature spends no Movement Resistance on the lifter's steps (it is off the
  ground; R-35 needs a footing) — ``carried`` is the hook ``state.do_step`` asks;
* on its own turn a lifted creature acts as a Grappled one (spec §5.2.9: no steps, attacks as
  normal); a wielded one may Break Free (R-37); a rider gets down with ``break_free -> G``
  uncontested (it consented, nothing holds it against its will), still paying the attack;
* the bonus-Reaction Dodge (target 4+ size indexes smaller): the target decides first, then
  the lifter rolls a melee Hit (A4-A8: a natural 1 or a total not above Defense misses, a
  natural 20 hits) and the Dodge must beat it; no damage either way;
* a throw (1 general attack; the improvised weapon has no weapon attacks) is a ranged attack
  at a creature within 4 (held in two hands) or 6 (one hand), LoS, not Blinded; hit or miss,
  the thrown creature lands in the target's cell if it may stop there, else in the free cell
  next to the target nearest the thrower (ties: lowest y, then lowest x; none: where it is),
  and falls Prone unintentionally (its size's fall dice, spec §2.1); on a hit it takes the
  damage the target took (Guard included) as Bludgeoning ("any damage dealt with it is dealt
  to it as well"), through its own immunities and Guard.

Not modelled: a melee swing with the held creature (the ``attack`` slots read only items and
natural weapons) and a throw at an empty cell (labels name a creature).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from .economy import can_pay_attack, extra_payment, pay_attack, pay_extra
from .events import Damaged
from .fighter import Fighter
from .labels import act
from .profile import UNARMED, WeaponProfile
from .space import can_stop, dist, sees

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["lift_actions", "resolve_lift", "carried", "lift_of", "held_weapon", "throw_range",
           "lift_band", "Lifted", "Landed", "RIDER", "WIELDED", "LIFT_KINDS"]

RIDER, WIELDED = 1, 2  # the ``lift:<id>`` marks: a consenting rider, an improvised weapon
LIFT_KINDS = frozenset({"lift", "throw"})
CONSENT_LOW, CONSENT_HIGH, SIZE_UP = -2, 1, 1  # spec §5.2.16: -2 <= d <= +1 needs consent;
# at most 1 size index up
ITEM_LIFT_SN = 4
"""spec §5.2.11 (FULL): a creature whose SN is 4 or more below the lifter's may be lifted as a
Manipulate Item use (its first use each turn is Free) instead of a general attack"""
TWO_HANDS_AT, DODGE_SIZES = -3, 4  # d = -3 two hands, d <= -4 one; 4+ indexes smaller dodge
RANGE_TWO, RANGE_ONE = 4, 6  # thrown range held in two hands / one hand
IMPROVISED = ("Hammer", 1, 6, "might", ("Bludgeoning",))  # R-71 DEFAULT: 1d6 + Might


@dataclass(frozen=True, slots=True)
class Lifted(Event):
    actor: str
    target: str
    how: str  # rides | wielded | dodged

    def __str__(self) -> str:
        if self.how == "dodged":
            return f"{self.target} slips out of {self.actor}'s lift"
        what = "rides on" if self.how == "rides" else "is wielded by"
        return f"{self.target} {what} {self.actor}"


@dataclass(frozen=True, slots=True)
class Landed(Event):
    actor: str
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.actor} is thrown and lands at {self.x},{self.y}"


def _key(tid: str) -> str:
    return f"lift:{tid}"


def lift_of(f: Fighter, tid: str) -> int:
    """The mark of ``f``'s lift of ``tid`` (RIDER, WIELDED) or 0 when it holds none."""
    return f.fx.get(_key(tid), 0) if tid in f.grips else 0


def carried(holder: Fighter, tid: str) -> bool:
    """Whether ``holder`` carries ``tid`` off the ground (no MR against its steps)."""
    return lift_of(holder, tid) > 0


def lifted_by(enc: SizeboundEncounter, t: Fighter) -> Fighter | None:
    for gid in t.grappled_by:
        g = enc.by_id[gid]
        if carried(g, t.id):
            return g
    return None


def lift_band(f: Fighter, t: Fighter) -> tuple[int, int] | None:
    """(mark, hands) of a lift of ``t`` by ``f``, or None when ``t`` is too large (spec
    §5.2.16, R-67: sizes by index, the bands by Size Number)."""
    if t.profile.size_index > f.profile.size_index + SIZE_UP:
        return None
    d = t.profile.sn - f.profile.sn
    if d > CONSENT_HIGH:  # RULING: the bands stop at +1 (one size index up can be SN +2)
        return None
    if d >= CONSENT_LOW:
        return RIDER, 1
    return WIELDED, 2 if d == TWO_HANDS_AT else 1


def held_weapon(f: Fighter, tid: str) -> WeaponProfile:
    """R-71: the improvised weapon a wielded creature is (Hammer, 1d6 + Might Bludgeoning)."""
    kind, n, sides, stat, dtypes = IMPROVISED
    hands = f.grips.get(tid, 1)
    return WeaponProfile(tid, kind, hands, n, sides, stat, dtypes, reach=None,
                         range=throw_range(f, tid))


def throw_range(f: Fighter, tid: str) -> int:
    return RANGE_TWO if f.grips.get(tid, 1) >= 2 else RANGE_ONE


def _can_lift(enc: SizeboundEncounter, f: Fighter, t: Fighter) -> bool:
    band = lift_band(f, t)
    if band is None or t is f or not t.alive or dist(f, t) > 1 or t.id in f.grips:
        return False
    mark, hands = band
    if mark == RIDER and t.side != f.side:  # consent; a hostile never consents
        return False
    return f.free_hands >= hands and "rooted" not in t.conds and lifted_by(enc, t) is None


def item_lift(f: Fighter, t: Fighter) -> list[str] | None:
    """spec §5.2.11 (FULL): what lifting ``t`` as a Manipulate Item use costs ``f`` now
    (``extra_payment``: ``[]`` when Free), or ``None`` when it cannot be lifted so."""
    return extra_payment(f, "item") if t.profile.sn <= f.profile.sn - ITEM_LIFT_SN else None


def lift_actions(enc: SizeboundEncounter, f: Fighter, general: bool | None = None
                 ) -> list[Action]:
    """``lift -> T`` and ``throw -> T`` for ``legal.full_turn_actions``: a lift costs a
    general attack, or a Manipulate Item use for a creature 4+ SN smaller (``item_lift``)."""
    if lifted_by(enc, f) is not None:
        return []
    general = can_pay_attack(f) if general is None else general
    out = [act(f.id, "lift", target=t.id) for t in enc.fighters
           if _can_lift(enc, f, t) and (general or item_lift(f, t) is not None)]
    held = [tid for tid in f.grips if lift_of(f, tid) == WIELDED]
    if not general or not held or "blinded" in f.conds:
        return out
    reach = throw_range(f, held[0])
    for t in enc.fighters:
        if t is f or not t.alive or t.id in held or dist(f, t) > reach:
            continue
        if t.side == f.side and not enc.options.allow_friendly_fire:
            continue
        if sees(enc, f, t):
            out.append(act(f.id, "throw", target=t.id))
    return out


def resolve_lift(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], a: Action) -> None:
    f = enc.by_id[a.actor]
    assert a.target is not None
    t = enc.by_id[a.target]
    by_item = item_lift(f, t) if a.kind == "lift" else None
    if by_item is not None and (by_item == [] or not can_pay_attack(f)):
        pay_extra(f, "item")  # RULING: as an Item use when that is Free, or the only payment
    else:
        pay_attack(f)
    if a.kind == "lift":
        _lift(enc, ctx, ev, f, t)
    else:
        _throw(enc, ctx, ev, f, t)


def _dodges(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, t: Fighter) -> bool:
    """spec §5.2.16: a target 4+ size indexes smaller has a bonus Reaction to Dodge the Lift;
    the lifter's melee Hit must then hit and beat the Dodge (A4-A8, A10), with no damage."""
    from .attack import Strike, dodge_bonus, hit_terms, regain
    from .procedures import exert_d20, roll
    if f.profile.size_index - t.profile.size_index < DODGE_SIZES or "blinded" in t.conds \
            or "falling" in t.conds:  # spec §6.4.1: no Dodge while Blinded or falling
        return False
    if not _could_react(t):
        return False
    c = ctx.ask(t.id, "dodge", [act(t.id, "dodge"), act(t.id, "pass")],
                {"attacker": f.id, "lift": True})
    if c.kind != "dodge":
        return False
    mod, adv, dis = hit_terms(enc, f, t, Strike(UNARMED, False, "lift"))
    natural, total = roll(ctx, ev, f, "hit", mod, adv, dis)
    if natural == 1:
        regain(enc, ev, f)
        return True
    sure = natural in UNARMED.crit or "terrified" in t.conds
    total = exert_d20(enc, ctx, ev, f, "hit", total, lambda x: True,
                      lambda x: not sure and x <= t.profile.defense)
    if not (sure or total > t.profile.defense):
        return True
    _, dtot = roll(ctx, ev, t, "dodge", dodge_bonus(enc, t))
    dtot = exert_d20(enc, ctx, ev, t, "dodge", dtot, lambda x: x <= total)
    return dtot > total


def _could_react(t: Fighter) -> bool:
    """``can_react`` with one Reaction more (the bonus Reaction of spec §5.2.16)."""
    from .economy import can_react
    t.reactions += 1
    ok = can_react(t)
    t.reactions -= 1
    return ok


def _lift(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, t: Fighter) -> None:
    from .events import GrappleChanged
    band = lift_band(f, t)
    assert band is not None
    mark, hands = band
    if mark == WIELDED and _dodges(enc, ctx, ev, f, t):
        ev.append(Lifted(f.id, t.id, "dodged"))
        return
    if not (f.alive and t.alive):
        return
    f.grips[t.id] = hands
    t.grappled_by.append(f.id)
    f.fx[_key(t.id)] = mark
    ev.append(GrappleChanged(f.id, t.id, "lifted"))
    ev.append(Lifted(f.id, t.id, "rides" if mark == RIDER else "wielded"))


def _throw(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, t: Fighter) -> None:
    from .attack import Strike, attack
    from .damage import deal
    from .procedures import make_prone
    hid = next(tid for tid in f.grips if lift_of(f, tid) == WIELDED)
    h = enc.by_id[hid]
    w = held_weapon(f, hid)
    enc.end_grapple(ev, f, h, "thrown")
    del f.fx[_key(hid)]
    start = len(ev)
    attack(enc, ctx, ev, f, t, Strike(w, True, hid, parryable=False))
    dealt = sum(e.amount + e.absorbed for e in ev[start:]
                if isinstance(e, Damaged) and e.target == t.id)
    if not h.alive:
        return
    cell = _landing(enc, f, h, t)
    if cell != h.pos:
        h.x, h.y = cell
        ev.append(Landed(h.id, h.x, h.y))
        if enc.options.elevation:
            from .full_motion import settle
            settle(enc, ctx, ev, h)
    if dealt > 0:
        deal(enc, ctx, ev, dealer=None, target=h, dice_n=0, dice_sides=0, flat=dealt,
             dtypes=("Bludgeoning",))
    if h.alive:
        make_prone(enc, ctx, ev, h, on_purpose=False)


def _landing(enc: SizeboundEncounter, f: Fighter, h: Fighter, t: Fighter) -> tuple[int, int]:
    """The target's cell if ``h`` may stop there, else the free cell next to the target nearest
    the thrower (ties: lowest y, then lowest x); else where ``h`` is."""
    others = [o for o in enc.fighters if o is not h]
    if can_stop(enc.grid, h, t.pos, others):
        return t.pos
    best: tuple[int, int, int] | None = None
    for x in range(t.x - h.n, t.x + t.n + 1):
        for y in range(t.y - h.n, t.y + t.n + 1):
            if dist(h, t, (x, y)) != 1 or not can_stop(enc.grid, h, (x, y), others):
                continue
            key = (dist(h, f, (x, y)), y, x)
            if best is None or key < best:
                best = key
    return h.pos if best is None else (best[2], best[1])


def lift_words(enc: SizeboundEncounter, f: Fighter, a: Action, name: str) -> str:
    """Plain words for ``describe`` (``name``: the target's display name)."""
    assert a.target is not None
    t = enc.by_id[a.target]
    if a.kind == "throw":
        hid = next(tid for tid in f.grips if lift_of(f, tid) == WIELDED)
        return (f"throw the held {hid} at {name} (ranged, 1d6+{f.mod('might')}, both hurt; "
                f"it lands Prone)")
    band = lift_band(f, t)
    assert band is not None
    if band[0] == RIDER:
        return f"lift {name} onto your shoulders (1 attack, one hand)"
    return (f"lift {name} to wield it (1 attack, {band[1]} hand{'s' if band[1] > 1 else ''}; "
            f"Hammer 1d6+Might)")
