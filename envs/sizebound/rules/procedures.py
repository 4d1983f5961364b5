"""Common procedures (spec §5.0): d20 tests with advantage (R-52, ``envs.core.d20``), the E-D20
window, contested rolls with exertion alternation (§5.0.3, R-13), becoming Prone (§2.1 fall
damage), and applying conditions with durations (§4.8, §7.1, R-17, R-22)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.d20 import Edge, d20_test, edge_from_sources
from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .damage import deal
from .events import BecameProne, Boosted, ConditionChanged, ContestResult, Rolled
from .fighter import ACTION, FatigueRung, Fighter
from .full_conditions import no_decisions
from .full_sides import one_die, spend_die
from .full_terrain import in_water

if TYPE_CHECKING:
    from .state import SizeboundEncounter

AUTO_MIN_DICE = 2
"""spec §9.2 (``exertion_control: heuristic``): the pool must hold this many dice for a d20"""

__all__ = ["roll", "exert_d20", "contest", "athletics_bonus", "make_prone", "add_condition",
           "can_fall_prone", "edge", "has_steal_edge", "use_steal_edge"]


def edge(adv: int, dis: int) -> Edge:
    return edge_from_sources(adv, dis)


def roll(ctx: Ctx, ev: list[Event], who: Fighter, what: str, modifier: int,
         adv: int = 0, dis: int = 0) -> tuple[int, int]:
    """spec §5.0.1: one d20 test of ``who`` -> (natural, total); Unnerved(n) adds n to every
    d20, Lethargic gives disadvantage to every d20 (spec §7.2)."""
    if who.lethargic:
        dis += 1
    t = d20_test(ctx.dice, modifier + who.unnerved, edge(adv, dis))
    ev.append(Rolled(who.id, what, tuple(t.faces), t.natural, t.modifier, t.total))
    return t.natural, t.total


def exert_d20(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], who: Fighter, what: str,
              total: int, losing: Callable[[int], bool],
              fails: Callable[[int], bool] | None = None) -> int:
    """E-D20 (spec §6.5): while the roll still loses, the owner may add d6s one at a time.
    ``fails``: what ``exertion_control: heuristic`` tests for "one die could flip the outcome"
    (spec §9.2) where ``losing`` asks on regardless (an attack's Hit, which a later Parry or
    Dodge may have to beat); default ``losing``."""
    fails = fails or losing
    if not enc.exertion_windows:
        return total
    while who.dice > 0 and not no_decisions(who) and losing(total):
        if enc.exertion_auto:  # spec §9.2: one die could flip it, and 2 or more in the pool
            if who.dice < AUTO_MIN_DICE or not fails(total) or fails(total + 6):
                break
        elif ctx.ask(who.id, "exert_d20", [Action(who.id, "spend"), Action(who.id, "pass")],
                     {"roll": what, "total": total}).kind == "pass":
            break
        spend_die(enc, who)
        face = ctx.dice.roll(6)[0]
        total += face
        ev.append(Boosted(who.id, what, face, total))
        if one_die(enc, who):
            break  # spec §6.5: a Host-style pool, 1 die a window (FULL)
    return total


def athletics_bonus(f: Fighter) -> int:
    """Athletics for a roll: the Tired -5 applies (spec §7.2)."""
    return f.athletics - (rulings.TIRED_PENALTY if f.tired else 0)


def contest(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], kind: str, i: Fighter,
            d: Fighter, i_bonus: int, d_bonus: int, *, i_adv: int = 0, d_adv: int = 0,
            i_athletics: bool = True) -> tuple[bool, int]:
    """spec §5.0.3: both roll; the currently losing side (a tie loses for I) may spend dice one
    at a time until it passes; I wins only on ``I > D`` (R-13). Returns (won, margin)."""
    _, ti = roll(ctx, ev, i, kind, i_bonus, adv=i_adv)
    _, td = roll(ctx, ev, d, kind, d_bonus, adv=d_adv)
    spent: set[str] = set()  # spec §6.5: a Host-style pool, 1 die a window (FULL)
    # step 2: the side losing now spends one die at a time until it passes (it may push on
    # past the lead it took, for a margin); then, if the lead changed hands, the other side
    # gets the same chance; this repeats until the side losing passes (a tie loses for I)
    side = i if ti <= td else d
    while enc.exertion_windows:
        losing = (ti <= td) == (side is i)
        if side.dice <= 0 or no_decisions(side) or side.id in spent:
            go = False
        elif enc.exertion_auto:  # spec §9.2: only a die that can flip the result
            flips = ti + 6 > td if side is i else td + 6 >= ti
            go = losing and side.dice >= AUTO_MIN_DICE and flips
        else:
            go = ctx.ask(side.id, "exert_d20", [Action(side.id, "spend"),
                                                Action(side.id, "pass")],
                         {"roll": kind, "total": ti if side is i else td,
                          "against": td if side is i else ti}).kind != "pass"
        if not go:
            loser = i if ti <= td else d
            if loser is side:
                break  # the side losing passed
            side = loser  # the lead changed hands: the other side's chance
            continue
        spend_die(enc, side)
        if one_die(enc, side):
            spent.add(side.id)
        face = ctx.dice.roll(6)[0]
        if side is i:
            ti += face
        else:
            td += face
        ev.append(Boosted(side.id, kind, face, ti if side is i else td))
    won = ti > td
    ev.append(ContestResult(kind, i.id, d.id, ti, td, won))
    # spec §5.0.3 step 4; §7.1: every fatigue rung up to the effective one applies, so a Tired
    # creature keeps Winded's trigger (Tired again escalates; higher rungs store it)
    if i_athletics and i.fatigue >= FatigueRung.WINDED:
        add_condition(enc, ev, i, "tired", rounds=1)
    return won, ti - td


def can_fall_prone(f: Fighter, air: bool = False, enc: SizeboundEncounter | None = None
                   ) -> bool:
    """spec §7.2 Prone: not already Prone, not airborne (height 0, §5.1 row 8; ``air``: the
    React of the R-FALL window, which §6.4.4 offers in the air), not floating in water (FULL
    water cells, read when ``enc`` is given); a conscious Slither creature cannot be Prone."""
    return f.alive and not f.prone and not ("slither" in f.profile.tags and not f.unconscious) \
        and "rooted" not in f.conds and (air or f.z == 0) \
        and not (enc is not None and enc.terrain and in_water(enc, f))  # §7.2: not afloat


def has_steal_edge(a: Fighter, t: Fighter) -> bool:
    """spec §5.2.15: ``a`` resisted a Steal by ``t`` and has not used the advantage yet."""
    return any(c.source == t.id for c in a.conds.instances("steal_edge"))


def use_steal_edge(ev: list[Event], a: Fighter, t: Fighter) -> None:
    if has_steal_edge(a, t):
        a.conds.remove("steal_edge", source=t.id)
        if "steal_edge" not in a.conds:
            ev.append(ConditionChanged(a.id, "steal_edge", False))


def make_prone(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter,
               on_purpose: bool, air: bool = False) -> None:
    """Prone; unintentional falls take the size's fall dice as Fall damage (spec §2.1), and the
    creatures it grapples fall too (spec §5.2.9). ``air``: as in ``can_fall_prone``."""
    if not can_fall_prone(f, air, enc):
        return
    f.conds.add("prone", now=enc.clock, forever=True)
    ev.append(BecameProne(f.id, on_purpose))
    if not on_purpose and f.profile.fall_dice > 0:  # no dealer: no E-DMG; Block is useless
        deal(enc, ctx, ev, dealer=None, target=f, dice_n=f.profile.fall_dice, dice_sides=6,
             flat=0, dtypes=("Fall",))
    if not on_purpose:
        from .full_geometry import prone_burst
        prone_burst(enc, ctx, ev, f)  # spec §2.1, R-80 (FULL)
    for gid in list(f.grips):
        g = enc.by_id[gid]
        if g.alive:
            make_prone(enc, ctx, ev, g, on_purpose=False)


def add_condition(enc: SizeboundEncounter, ev: list[Event], f: Fighter, name: str, *,
                  rounds: int | None = None, until_end_of_next_turn: bool = False,
                  value: int = 0, source: str = "") -> None:
    """Apply a condition (spec §7.1). ``rounds``: "for N rounds" (R-22); the end of the
    bearer's next turn is the start of the slot after it. The HP Stun counts as Stunned for
    escalation (R-17)."""
    if name == "stunned" and f.hp <= 0 and f.conds.rung(ACTION) < 3:
        name, rounds = "paralyzed", 1  # spec §7.3: HP Stun + Stunned -> Paralyzed, max 1 round
        until_end_of_next_turn = False  # (the source's own duration does not hold it longer)
    now = enc.clock
    if until_end_of_next_turn:
        duration: int | None = enc.end_of_next_turn(f.side) - now
    elif rounds is not None:
        duration = rounds * enc.slots
    else:
        duration = None
    before = {c.name for c in f.conds}
    d = f.conds.table[name]
    # spec §7.1: effective rung > r stores the rung-r instance; the HP Stun holds the action
    # rung at 3, so a Jarred or Staggered added at HP 0 or below never escalates
    low = f.hp <= 0 and d.ladder == ACTION and 0 < d.rung < 3
    f.conds.add(name, now=now, duration=duration, value=value, source=source,
                forever=duration is None, escalate=not low)
    for c in sorted({c.name for c in f.conds} - before):
        ev.append(ConditionChanged(f.id, c, True))
    if f.fatigue >= FatigueRung.DISABLED and can_fall_prone(f, enc=enc):  # §7.2: cannot stand
        f.conds.add("prone", now=now, forever=True)
        ev.append(BecameProne(f.id, True))
