"""Sizebound's grid rules on top of the shared square grid (spec §3.2, §3.3, §5.0.5, R-27 to R-29,
R-53, R-65).

The shared ``envs.core.squaregrid`` knows cells, N x N blocks, Chebyshev distance, supercover
line of sight and movement costs. This module adds what only Sizebound has: **fractional
footprints** (Miniscule to Stocky take 0 to 0.5 of one cell, several share a cell while the sum
stays <= 1.0 and all are allies, R-29), the rule that a Large or bigger creature shares none of
its cells, hostile cells that cannot be entered, allied cells that may be crossed but not always
stopped in, and weapon reach and range.

A creature on the map is a ``Body``: its id, its side, its anchor (the covered cell with the
smallest x and y, §3.3) and its footprint (a ``SizeRow`` or the footprint number of §2.1).
Distances are in spaces; creatures sharing a space are at distance 0 (§3.2).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from envs.core import squaregrid
from envs.core.squaregrid import DIRECTIONS, Cell, SquareGrid

from .content import SizeRow

__all__ = [
    "Body", "Step", "block_side", "share", "covered", "distance", "adjacent", "within_reach",
    "line_of_sight", "in_range", "attack_mode", "occupants", "can_enter", "can_stop",
    "placement_problem", "step", "steps", "reachable", "PRONE_FACTOR",
]

PRONE_FACTOR = 2  # crawling costs 2 budget per space (x2 again on difficult ground, §5.0.5)


def _fp(footprint: SizeRow | Fraction | int | float) -> Fraction:
    if isinstance(footprint, SizeRow):
        value = footprint.footprint
    else:  # a float such as 0.2 means the decimal 0.2, not its binary approximation
        value = Fraction(str(footprint)) if isinstance(footprint, float) else Fraction(footprint)
    if value < 0 or value >= 1 and value.denominator != 1:
        raise ValueError(f"a footprint is a fraction below 1 or a whole N >= 1, got {footprint}")
    return value


def block_side(footprint: SizeRow | Fraction | int | float) -> int:
    """Cells along one side of what the creature covers: N for an N x N block, 1 for a fractional
    footprint (it sits inside one cell, §2.1)."""
    fp = _fp(footprint)
    return 1 if fp < 1 else int(fp)


def share(footprint: SizeRow | Fraction | int | float) -> Fraction:
    """The part of a cell's capacity of 1.0 it uses: the fraction itself below 1, the whole cell
    for a block (R-29)."""
    fp = _fp(footprint)
    return fp if fp < 1 else Fraction(1)


def covered(anchor: Cell, footprint: SizeRow | Fraction | int | float) -> list[Cell]:
    """The cells a creature covers from its anchor: its one cell if fractional, else the block
    ``x..x+N-1, y..y+N-1`` (§3.3)."""
    return squaregrid.footprint(anchor, block_side(footprint))


@dataclass(frozen=True, slots=True)
class Body:
    """A creature on the map: ``id``, ``side`` (its team), ``anchor`` and ``footprint``."""

    id: str
    side: str
    anchor: Cell
    footprint: Fraction

    def __post_init__(self) -> None:
        object.__setattr__(self, "footprint", _fp(self.footprint))
        object.__setattr__(self, "anchor", (int(self.anchor[0]), int(self.anchor[1])))

    @classmethod
    def of(cls, id: str, side: str, anchor: Cell, size: SizeRow | Fraction | int | float) -> Body:
        return cls(id, side, anchor, _fp(size))

    @property
    def n(self) -> int:
        """Cells along one side (1 for fractional footprints)."""
        return block_side(self.footprint)

    @property
    def fractional(self) -> bool:
        return self.footprint < 1

    @property
    def share(self) -> Fraction:
        return share(self.footprint)

    @property
    def cells(self) -> list[Cell]:
        return squaregrid.footprint(self.anchor, self.n)

    def at(self, anchor: Cell) -> Body:
        """The same creature moved to ``anchor``."""
        return Body(self.id, self.side, anchor, self.footprint)


def distance(a: Body, b: Body) -> int:
    """The least Chebyshev distance between a cell of one and a cell of the other; 0 when they
    share a space (§3.2, R-28)."""
    return squaregrid.distance(a.anchor, a.n, b.anchor, b.n)


def adjacent(a: Body, b: Body) -> bool:
    """Distance <= 1 (§3.2, R-28)."""
    return distance(a, b) <= 1


def within_reach(a: Body, b: Body, reach: int = 1) -> bool:
    """``b`` is within ``a``'s melee reach (1 = adjacent, R-28)."""
    return distance(a, b) <= reach


def line_of_sight(grid: SquareGrid, a: Body, b: Body) -> bool:
    """Some line from the centre of a cell of ``a`` to the centre of a cell of ``b`` crosses no
    wall (supercover); creatures never block sight (§3.2)."""
    return grid.line_of_sight(a.anchor, a.n, b.anchor, b.n)


def in_range(grid: SquareGrid, a: Body, b: Body, range_: int) -> bool:
    """A ranged attack or skill reaches: distance <= ``range_`` and line of sight (R-65)."""
    return distance(a, b) <= range_ and line_of_sight(grid, a, b)


class _Ranged(Protocol):
    @property
    def reach(self) -> int | None: ...
    @property
    def thrown(self) -> int | None: ...
    @property
    def range(self) -> int | None: ...


def attack_mode(grid: SquareGrid, attacker: Body, target: Body, weapon: _Ranged) -> str | None:
    """How ``weapon`` can attack ``target`` now: ``"melee"`` within its reach, ``"thrown"``
    beyond its reach but within its thrown range, ``"ranged"`` within a bow's or thrown
    weapon's range (both with line of sight), ``None`` out of reach (§2.5, R-65)."""
    d = distance(attacker, target)
    if weapon.reach is not None and d <= weapon.reach:
        return "melee"
    if weapon.thrown is not None and d <= weapon.thrown and line_of_sight(grid, attacker, target):
        return "thrown"
    if weapon.range is not None and d <= weapon.range and line_of_sight(grid, attacker, target):
        return "ranged"
    return None


def occupants(bodies: Iterable[Body]) -> dict[Cell, list[Body]]:
    """The creatures covering each cell."""
    out: dict[Cell, list[Body]] = {}
    for b in bodies:
        for c in b.cells:
            out.setdefault(c, []).append(b)
    return out


def _others(mover: Body, bodies: Iterable[Body]) -> list[Body]:
    return [b for b in bodies if b.id != mover.id]


def can_enter(grid: SquareGrid, mover: Body, cell: Cell, others: Iterable[Body]) -> bool:
    """``cell`` is on the map, not a wall and holds no creature hostile to ``mover``; allied
    cells of any size may be crossed (§5.0.5, R-29)."""
    if not grid.passable(cell):
        return False
    return not any(b.side != mover.side and cell in b.cells for b in _others(mover, others))


def _cell_ok(mover: Body, here: list[Body]) -> bool:
    """``mover`` may stay in a cell whose other occupants are ``here`` (R-29, §5.0.5)."""
    if not here:
        return True
    if not mover.fractional:
        return False  # a Large or bigger creature shares none of its cells
    if any(b.side != mover.side or not b.fractional for b in here):
        return False
    return sum((b.share for b in here), mover.share) <= 1


def can_stop(grid: SquareGrid, mover: Body, anchor: Cell, others: Iterable[Body]) -> bool:
    """``mover`` may end its movement with its anchor at ``anchor``: every cell it would cover is
    passable and empty, or holds only allies with fractional footprints whose total, its own
    included, stays <= 1.0 (§5.0.5, R-29)."""
    placed = mover.at(anchor)
    if not all(grid.passable(c) for c in placed.cells):
        return False
    where = occupants(_others(mover, others))
    return all(_cell_ok(placed, where.get(c, [])) for c in placed.cells)


def placement_problem(grid: SquareGrid, bodies: Iterable[Body]) -> tuple[str, str] | None:
    """``(creature id, what is wrong)`` for the first creature placed illegally (off the map, on a
    wall, or sharing a cell against R-29), or ``None`` when the placement is legal (§3.3)."""
    bodies = list(bodies)
    for b in bodies:
        off = [c for c in b.cells if c not in grid]
        if off:
            return b.id, (f"cell {list(off[0])} of its {b.n} x {b.n} footprint at "
                          f"{list(b.anchor)} is off the {grid.width} x {grid.height} map")
        walls = [c for c in b.cells if c in grid.walls]
        if walls:
            return b.id, f"it stands on the wall cell {list(walls[0])}"
    where = occupants(bodies)
    for b in bodies:
        for c in b.cells:
            here = [o for o in where[c] if o.id != b.id]
            if not _cell_ok(b, here):
                names = ", ".join(o.id for o in here)
                return b.id, (f"cell {list(c)} is shared with {names}: only allies whose "
                              "fractional footprints total <= 1.0 share a cell (R-29)")
    return None


@dataclass(frozen=True, slots=True)
class Step:
    """One legal step: its ``direction`` (0..7, ``squaregrid.DIRECTIONS``), the new ``anchor``,
    its movement ``cost`` and whether the mover may stop there (``stop_ok``)."""

    direction: int
    anchor: Cell
    cost: int
    stop_ok: bool


def step(grid: SquareGrid, mover: Body, direction: int, others: Iterable[Body],
         prone: bool = False) -> Step | None:
    """The step of ``mover``'s whole block in ``direction``, or ``None`` if some destination cell
    is off the map, a wall or hostile (§5.0.5). Cost 1, x2 if it enters a difficult cell, x2
    while Prone (R-27); allied cells may be crossed, ``stop_ok`` says whether it may stop."""
    others = list(others)
    dx, dy = DIRECTIONS[direction % 8]
    new = (mover.anchor[0] + dx, mover.anchor[1] + dy)
    if not all(can_enter(grid, mover, c, others) for c in mover.at(new).cells):
        return None
    cost = grid.step_cost(mover.anchor, direction % 8, mover.n, PRONE_FACTOR if prone else 1)
    return Step(direction % 8, new, cost, can_stop(grid, mover, new, others))


def steps(grid: SquareGrid, mover: Body, others: Iterable[Body],
          prone: bool = False) -> list[Step]:
    """Every legal step of ``mover``, by direction."""
    others = list(others)
    found = (step(grid, mover, d, others, prone) for d in range(8))
    return [s for s in found if s is not None]


def reachable(grid: SquareGrid, mover: Body, budget: int, others: Iterable[Body],
              prone: bool = False) -> dict[Cell, int]:
    """Anchors ``mover`` can stop at with ``budget`` movement, and the least cost of each (its
    own anchor at 0), crossing allies but not hostiles (§5.0.5, R-27, R-29, R-53)."""
    rest = _others(mover, others)
    blocked = {c for b in rest if b.side != mover.side for c in b.cells}
    where = occupants(b for b in rest if b.side == mover.side)
    if mover.fractional:
        busy = {c for c, here in where.items() if not _cell_ok(mover.at(c), here)}
    else:
        busy = set(where)
    return grid.reachable(mover.anchor, budget, mover.n, blocked, busy,
                          PRONE_FACTOR if prone else 1)
