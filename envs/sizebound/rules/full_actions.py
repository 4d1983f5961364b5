"""FULL own-turn actions (spec §5.1 rows 20-28, §5.2.12-§5.2.16), listed only under the FULL
options (``legal.turn_actions`` calls ``full_actions`` and ``panic_filter``):

    react <eyes|ears|breath> | act <eyes|ears|breath> | free_rooted | search | terrified
    strangle -> T | steal -> T | extinguish -> T | lift -> T | throw -> T
    leap <dir> <1-3> (``full_leap``) | swing -> T | throw_to <dir> <1-6> (``full_wield``)
    cast <skill> <dir> (a Line or Cone skill, ``full_areas``)

React is the Extra action of spec §5.2.12 (shared with ``drop_prone``: the first use a turn is
Free), Act undoes it (Free). ``terrified`` is the cornered Panicked creature's choice, offered
as its first decision of the turn (spec §6.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from .economy import (
    any_payments,
    can_free,
    can_pay_attack,
    can_spend,
    extra_payment,
    pay_attack,
    pay_extra,
    spend,
    use_free,
)
from .events import ConditionChanged, ItemMoved
from .fighter import Fighter
from .full_areas import area_skill_actions
from .full_conditions import in_touch, suffocate
from .full_leap import leap_actions
from .full_wield import wield_actions
from .labels import act
from .procedures import add_condition, athletics_bonus, contest, exert_d20, roll
from .space import dist

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["FULL_KINDS", "full_actions", "panic_filter", "resolve_full", "REACTS",
           "FREE_ROOTED_ORDER", "steal_item", "STRANGLE_EXTRA", "awareness"]

REACTS = {"eyes": "blinded", "ears": "deafened", "breath": "holding_breath"}
"""spec §5.2.12: React closes the eyes (self-Blinded), covers the ears (self-Deafened, needs a
free hand) or holds the breath; Act undoes it. The self-inflicted instance has the actor as its
source, so Act never ends a Blinded or Deafened from a skill."""

FREE_ROOTED_ORDER = ("MB", "D", "P")
# spec §4.4, §5.1 row 27: Rooted ends for P, or D, or M+B. The engine pays (like R-62's Any
# order): M+B first (a Rooted creature cannot move anyway), then D, then P; M+B is a
# Multi-Action, so a Stunned creature pays with one action.

STRANGLE_EXTRA = 3  # spec §5.2.14: up to 3 general attacks a turn force extra contests
PERCEPTION_STEP = 2  # a Perception result >= 2 raises awareness by 1, below 2 lowers it
FULL_KINDS = frozenset({"react", "act", "free_rooted", "search", "terrified", "strangle",
                        "steal", "extinguish", "leap", "swing", "throw_to"})


@dataclass(frozen=True, slots=True)
class Searched(Event):
    actor: str
    perception: int | None  # None: the Host's description (the first use a turn)
    awareness: int

    def __str__(self) -> str:
        if self.perception is None:
            return f"{self.actor} searches (the Host describes the area)"
        return f"{self.actor} rolls Perception {self.perception}: awareness {self.awareness}"


def _rooted_payment(f: Fighter) -> str | None:
    for letters in FREE_ROOTED_ORDER:
        if letters == "MB" and f.mode != "none":
            continue
        if letters == "P" and f.pool_open:
            continue
        if can_spend(f, letters):
            return letters
    return None


def steal_item(f: Fighter, t: Fighter) -> str | None:
    """R-77: the first stowed item of ``t`` that fits ``f``'s free hands (the engine picks)."""
    for wid in t.stowed:
        if f.free_hands >= max(1, t.profile.weapon(wid).hands):
            return wid
    return None


def _steal_cost(f: Fighter) -> str | None:
    """R-40: P (pool not opened), or 2 general attacks from an open pool."""
    if f.pool_open:
        return "atk" if f.pool_general >= 2 else None
    return "P" if can_spend(f, "P") else None


def _strangle_ok(f: Fighter, t: Fighter) -> bool:
    """spec §5.2.14: T breathes and is at most 1 size index larger."""
    return "no_breath" not in t.profile.tags and \
        t.profile.size_index <= f.profile.size_index + 1


def _strangling(f: Fighter, t: Fighter) -> bool:
    return any(c.source == f.id for c in t.conds.instances("suffocating"))


def full_actions(enc: SizeboundEncounter, f: Fighter, general: bool | None = None,
                 react: bool | None = None, free: bool | None = None) -> list[Action]:
    """``general``, ``react``, ``free``: ``legal.full_turn_actions``'s checks (``None``:
    computed here)."""
    me = f.id
    out: list[Action] = []
    conds = f.conds
    mine = {what for what, cond in REACTS.items()  # the self-inflicted ones (Act undoes them)
            if cond in conds and any(c.source == me for c in conds.instances(cond))} \
        if len(conds) else set()
    if react is None:
        react = extra_payment(f, "react") is not None
    if react:
        for what in REACTS:
            if what not in mine and (what != "ears" or f.free_hands >= 1):
                out.append(act(me, "react", (what,)))
    if mine and (can_free(f) if free is None else free):
        for what in REACTS:
            if what in mine:
                out.append(act(me, "act", (what,)))
    if "rooted" in f.conds and _rooted_payment(f) is not None:
        out.append(act(me, "free_rooted"))
    if extra_payment(f, "search") is not None:
        out.append(act(me, "search"))
    if "panicked" in f.conds and "terrified" not in f.conds and not f.used \
            and f.stun_count == 0 and f.minor_used == 0 and f.steps == 0 \
            and not _escapes(enc, f):
        out.append(act(me, "terrified"))  # spec §6.6, at the start of its turn
    if general is None:
        general = can_pay_attack(f)
    any_one: bool | None = None  # spec §4.4, WE-05: an Any-cost action once a turn (read
    steal: bool | None = None  # when first needed, as is Steal's cost: both are f's alone)
    ff = enc.options.allow_friendly_fire
    for t in enc.fighters:
        if not t.alive:
            continue
        tid = t.id
        near: bool | None = None
        if "ignited" in t.conds:
            near = dist(f, t) <= 1
            if near:
                if any_one is None:
                    any_one = any_payments(f, 1) is not None \
                        and not f.fx.get("turn:extinguish", 0)
                if any_one:
                    out.append(act(me, "extinguish", target=tid))
        if t is f or t.side == f.side and not ff:
            continue
        if tid in f.grips and general and _strangle_ok(f, t) and "incorporeal" not in f.conds:
            pushes = f.fx.get(f"turn:strangle:{tid}", 0)
            if not _strangling(f, t) or (pushes < STRANGLE_EXTRA and
                                         t.conds.instances("suffocating")[0].applied_at
                                         < enc.clock):
                out.append(act(me, "strangle", target=tid))
        if near is None:
            near = dist(f, t) <= 1
        if near and in_touch(f, t):  # spec §7.2 Incorporeal
            if steal is None:
                steal = _steal_cost(f) is not None
            if steal and steal_item(f, t) is not None:
                out.append(act(me, "steal", target=tid))
    return out + leap_actions(enc, f) + wield_actions(enc, f, general) + area_skill_actions(enc, f)


def _escapes(enc: SizeboundEncounter, f: Fighter) -> list[Action]:
    """The steps that increase the distance to a Panicked creature's fear source."""
    from .legal import step_target
    from .rulings import DIRECTIONS
    srcs = [enc.by_id[c.source] for c in f.conds.instances("panicked")
            if c.source in enc.by_id and enc.by_id[c.source].alive]
    if not srcs or f.grappled_by or "rooted" in f.conds:
        return []
    from .full_flee import flee_cost
    out = []
    for d in range(8):
        new = step_target(enc, f, d)
        if new is not None and all(dist(f, s, new) > dist(f, s) for s in srcs) \
                or new is None and flee_cost(enc, f, d) is not None:
            out.append(act(f.id, "step", (DIRECTIONS[d],)))  # fleeing escapes too (full_flee)
    return out


def panic_filter(enc: SizeboundEncounter, f: Fighter, out: list[Action]) -> list[Action]:
    """spec §7.2 Panicked: while a step can increase the distance to the source and movement
    is left, the creature must spend its Move moving away: only those steps (and end_turn)."""
    if "panicked" not in f.conds or "terrified" in f.conds:
        return out
    away = {a.label for a in _escapes(enc, f)}
    steps = [a for a in out if a.label in away]
    if not steps:
        return out
    return [a for a in out if a.kind == "end_turn"] + steps


def awareness(f: Fighter) -> int:
    """R-70: the Awareness Status counter (Unaware 0 unless a situation set it)."""
    return f.fx.get("aware", 0)


def resolve_full(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], a: Action) -> None:
    f = enc.by_id[a.actor]
    t = enc.by_id[a.target] if a.target is not None else None
    kind = a.kind
    if kind == "react":
        pay_extra(f, "react")
        add_condition(enc, ev, f, REACTS[a.args[0]], source=f.id)
    elif kind == "act":
        use_free(f)
        name = REACTS[a.args[0]]
        f.conds.remove(name, source=f.id)
        if name not in f.conds:
            ev.append(ConditionChanged(f.id, name, False))
    elif kind == "free_rooted":
        letters = _rooted_payment(f)
        assert letters is not None
        spend(f, letters)
        if len(letters) > 1:
            f.stun_count += 1  # a Multi-Action counts as 2 actions
        f.conds.remove("rooted")
        ev.append(ConditionChanged(f.id, "rooted", False))
    elif kind == "terrified":
        use_free(f)
        add_condition(enc, ev, f, "terrified", source=f.id)
    elif kind == "extinguish":
        assert t is not None
        pay = any_payments(f, 1)
        assert pay is not None
        spend(f, pay[0])
        f.fx["turn:extinguish"] = 1  # once a turn (spec §4.4); cleared at the turn's start
        t.conds.remove("ignited")
        ev.append(ConditionChanged(t.id, "ignited", False))
    elif kind == "search":
        _search(enc, ctx, ev, f)
    elif kind == "strangle":
        assert t is not None
        _strangle(enc, ctx, ev, f, t)
    elif kind == "steal":
        assert t is not None
        _steal(enc, ctx, ev, f, t)
    elif kind == "leap":
        from .full_leap import resolve_leap
        resolve_leap(enc, ctx, ev, f, a)
    elif kind in ("swing", "throw_to"):
        from .full_wield import resolve_wield
        resolve_wield(enc, ctx, ev, a)
    else:  # pragma: no cover - full_actions lists only the kinds above
        raise AssertionError(f"unknown FULL kind {kind!r}")


def _search(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> None:
    """spec §5.1 row 28 (Extra), R-70: the first use a turn is the Host's description; a
    further use rolls Perception (``d20 + 0 - Stealth``; no stat block has Stealth, so 0) and
    moves the awareness counter, never below its start."""
    again = "search" in f.extra_used
    pay_extra(f, "search")
    start = f.fx.get("aware_start", 0)
    now = f.fx.get("aware", start)
    if not again:
        ev.append(Searched(f.id, None, now))
        return
    _, total = roll(ctx, ev, f, "perception", 0)
    total = exert_d20(enc, ctx, ev, f, "perception", total,
                      lambda x: x < PERCEPTION_STEP)  # spec §6.5 E-D20: Perception too
    f.fx["aware"] = now + 1 if total >= PERCEPTION_STEP else max(start, now - 1)
    ev.append(Searched(f.id, total, f.fx["aware"]))


def _strangle(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter,
              t: Fighter) -> None:
    """spec §5.2.14, R-39: the first use gives Suffocating round 1 and frees T's arms until
    the strangler's next turn; on a later turn each use is an extra Athletics contest (the
    strangler has advantage with a two-handed grip): a win adds a suffocation round, the
    first loss frees T."""
    pay_attack(f)
    if not _strangling(f, t):
        add_condition(enc, ev, t, "suffocating", value=1, source=f.id)
        start = _next_turn_start(enc, f.side)
        t.conds.add("arms_free", now=enc.clock, duration=start - enc.clock, source=f.id)
        return
    key = f"turn:strangle:{t.id}"
    f.fx[key] = f.fx.get(key, 0) + 1
    two = f.grips.get(t.id, 0) >= 2
    won, _ = contest(enc, ctx, ev, "strangle", f, t, athletics_bonus(f), athletics_bonus(t),
                     i_adv=int(two))
    if not t.alive or not f.alive:
        return
    if won:
        suffocate(enc, ev, t)
    else:
        enc.end_grapple(ev, f, t, "broke_free")


def _next_turn_start(enc: SizeboundEncounter, side: str) -> int:
    """The slot clock at which ``side``'s next team turn starts."""
    s = enc.order.index(side)
    base = (enc.round - 1) * enc.slots
    return base + s if s > enc.slot else base + enc.slots + s


def _steal(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, t: Fighter) -> None:
    """spec §5.2.15, R-40, R-77: Nimble against the target's higher of Nimble and Athletics;
    a win puts the item in the thief's free hand(s); a tie or a loss gives the target
    advantage on its first attack or Grapple roll against the thief before the end of its next
    turn."""
    wid = steal_item(f, t)
    assert wid is not None
    if _steal_cost(f) == "P":
        spend(f, "P")
    else:
        pay_attack(f)
        pay_attack(f)
    won, _ = contest(enc, ctx, ev, "steal", f, t, f.nimble, max(t.nimble, athletics_bonus(t)),
                     i_athletics=False)
    if not t.alive or not f.alive:
        return
    if won:
        from .resolve import _place
        t.stowed.remove(wid)
        f.wielded[_place(f, t.profile.weapon(wid))] = wid
        ev.append(ItemMoved(f.id, wid, "stolen"))
    else:
        add_condition(enc, ev, t, "steal_edge", until_end_of_next_turn=True, source=f.id)

