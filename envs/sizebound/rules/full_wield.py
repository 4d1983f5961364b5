"""FULL: a lifted creature used as a weapon (spec §5.1 row 23, §5.2.16, R-71), beyond
``full_lift``'s ``throw -> T``: ``swing -> T``, a melee attack with the wielded creature, and
``throw_to <dir> <k>``, a throw at an empty cell ``k`` spaces away. Listed by ``full_actions``
under the FULL options only.

RULINGS of this module:

* ``swing -> T`` (1 general attack: the improvised weapon has no weapon attacks of its own): a
  melee attack (reach 1, parryable) with the improvised Hammer, ``1d6 + Might`` Bludgeoning
  (R-71). It gets its own label because the ``attack <main|off>`` slots name items and natural
  weapons (spec §12.3). "Any damage dealt with it is dealt to it as well": the held creature
  takes the damage the target took (Guard included) as Bludgeoning, through its own defences,
  and stays held; if that kills it, the lift ends. No Charge bonus (R-31 reads ``attack``).
* ``throw_to <dir> <k>`` (1 general attack): the landing cell is ``k`` spaces from the edge of
  the thrower's block facing the direction (the start cell of a Line, spec §8.7), within the
  throw range (4 in two hands, 6 in one), on the map, in line of sight, with no creature in
  it and room for the thrown one, and the thrower not Blinded. A cell has no Defense: there is
  no Hit roll. The thrown creature lands there Prone (unintentionally: its size's fall dice),
  then the ground's rules apply (a ledge, water, magma: ``settle``, ``entered``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx
from envs.core.squaregrid import DIRECTIONS, footprint

from . import rulings
from .economy import can_pay_attack, pay_attack
from .events import Damaged
from .fighter import Fighter
from .full_geometry import _start
from .full_lift import WIELDED, Landed, held_weapon, lift_of, lifted_by, throw_range
from .labels import act
from .space import can_stop, dist, line_of_sight

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["WIELD_KINDS", "THROW_DISTANCES", "wield_actions", "resolve_wield", "throw_cell",
           "held"]

WIELD_KINDS = frozenset({"swing", "throw_to"})
THROW_DISTANCES = ("1", "2", "3", "4", "5", "6")  # up to the one-hand range (spec §5.1 row 23)


def held(f: Fighter) -> str | None:
    """The creature ``f`` wields as an improvised weapon (R-71), or None."""
    return next((tid for tid in f.grips if lift_of(f, tid) == WIELDED), None)


def throw_cell(enc: SizeboundEncounter, f: Fighter, h: Fighter, d: int, k: int
               ) -> tuple[int, int] | None:
    """The landing anchor of ``throw_to`` in direction ``d`` at ``k``, or None if not allowed."""
    if k > throw_range(f, h.id):
        return None
    sx, sy = _start(f.pos, f.n, d)
    dx, dy = DIRECTIONS[d]
    cell = (sx + dx * k, sy + dy * k)
    others = [o for o in enc.fighters if o is not h and o is not f]
    mine = set(footprint(cell, h.n))
    if any(mine & set(footprint(o.pos, o.n)) for o in others if o.alive):
        return None  # an empty cell (a creature is ``throw -> T``)
    if not can_stop(enc.grid, h, cell, [f]) or set(footprint(f.pos, f.n)) & mine:
        return None
    if not line_of_sight(enc.grid, f.pos, f.n, cell, h.n):
        return None
    return cell


def wield_actions(enc: SizeboundEncounter, f: Fighter, general: bool | None = None
                 ) -> list[Action]:
    """``swing -> T`` and ``throw_to <dir> <k>`` for ``full_actions``."""
    hid = held(f)
    if hid is None or not (can_pay_attack(f) if general is None else general) \
            or lifted_by(enc, f) is not None:
        return []
    h = enc.by_id[hid]
    if not h.alive:
        return []
    out = []
    for t in enc.fighters:
        if t is f or t is h or not t.alive or dist(f, t) > 1:
            continue
        if t.side == f.side and not enc.options.allow_friendly_fire:
            continue
        out.append(act(f.id, "swing", target=t.id))
    if "blinded" in f.conds:
        return out
    for k_text in THROW_DISTANCES:
        for d, name in enumerate(rulings.DIRECTIONS):
            if throw_cell(enc, f, h, d, int(k_text)) is not None:
                out.append(act(f.id, "throw_to", (name, k_text)))
    return out


def resolve_wield(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], a: Action) -> None:
    f = enc.by_id[a.actor]
    hid = held(f)
    assert hid is not None
    h = enc.by_id[hid]
    pay_attack(f)
    if a.kind == "swing":
        assert a.target is not None
        _swing(enc, ctx, ev, f, h, enc.by_id[a.target])
        return
    d, k = rulings.DIRECTIONS.index(a.args[0]), int(a.args[1])
    cell = throw_cell(enc, f, h, d, k)
    assert cell is not None
    enc.end_grapple(ev, f, h, "thrown")
    del f.fx[f"lift:{hid}"]
    _land(enc, ctx, ev, h, cell)


def _land(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], h: Fighter,
          cell: tuple[int, int]) -> None:
    from .full_terrain import entered
    from .procedures import make_prone
    h.x, h.y = cell
    ev.append(Landed(h.id, h.x, h.y))
    if enc.options.elevation:
        from .full_motion import settle
        settle(enc, ctx, ev, h)
    if h.alive:
        make_prone(enc, ctx, ev, h, on_purpose=False)
    entered(enc, ev, h)


def _swing(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter, h: Fighter,
           t: Fighter) -> None:
    from .attack import Strike, attack
    from .damage import deal
    w = replace(held_weapon(f, h.id), reach=1, range=None)
    start = len(ev)
    attack(enc, ctx, ev, f, t, Strike(w, False, h.id))
    dealt = sum(e.amount + e.absorbed for e in ev[start:]
                if isinstance(e, Damaged) and e.target == t.id)
    if dealt > 0 and h.alive:
        deal(enc, ctx, ev, dealer=None, target=h, dice_n=0, dice_sides=0, flat=dealt,
             dtypes=("Bludgeoning",))
    if not h.alive and h.id in f.grips:
        enc.end_grapple(ev, f, h, "ended")
        f.fx.pop(f"lift:{h.id}", None)


def wield_words(enc: SizeboundEncounter, f: Fighter, a: Action, name: str, where: str) -> str:
    """Plain words for ``describe`` (``name``: the target's name; ``where``: the direction)."""
    hid = held(f)
    might = f.mod("might")
    if a.kind == "swing":
        return f"swing the held {hid} at {name} (melee, 1d6+{might}, it takes the same harm)"
    return f"throw the held {hid} {a.args[1]} {where} (no roll; it lands Prone there)"
