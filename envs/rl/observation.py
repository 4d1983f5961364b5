"""Fixed-size observation vectors built from named pieces, and ego-centric slot order (STYLE C12).

A system declares its observation once as ``(name, size)`` pieces; the flat float32 vector is their
concatenation, and ``named(vec)`` gives writable views by name for encoders, tests and debugging::

    OBS = ObsSpec([("self", 12), ("allies", 3 * 12), ("enemies", 4 * 12), ("round", 1)])
    vec = OBS.new()
    OBS.named(vec)["round"][0] = enc.round / 30

Slots are ordered from the observer's point of view by ``ego_order``: self first, then allies in
roster order, then enemies in roster order, each padded with ``None`` to a fixed count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from envs.core import Encounter

__all__ = ["ObsSpec", "ego_order"]

Piece = tuple[str, int] | tuple[str, int, float, float]


class ObsSpec:
    """The layout of one system's observation vector: named pieces, fixed size.

    Args:
        pieces: ``(name, size)`` or ``(name, size, low, high)`` in vector order. ``low``/``high``
            bound every entry of that piece (they become the ``Box`` bounds of the space).
        low: default lower bound of pieces that name none.
        high: default upper bound of pieces that name none.

    Raises:
        ValueError: on an empty spec, a repeated name, a size below 1 or ``low > high``.
    """

    def __init__(self, pieces: Iterable[Piece], low: float = -1.0, high: float = 1.0) -> None:
        parsed: list[tuple[str, int, float, float]] = []
        for piece in pieces:
            if len(piece) == 2:
                name, size = piece
                lo, hi = low, high
            elif len(piece) == 4:
                name, size, lo, hi = piece
            else:
                raise ValueError(
                    f"observation piece {piece!r}: expected (name, size) or (name, size, low, high)"
                )
            if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                raise ValueError(
                    f"observation piece {name!r}: size must be an integer >= 1, got {size!r}"
                )
            if lo > hi:
                raise ValueError(f"observation piece {name!r}: low {lo} is above high {hi}")
            parsed.append((str(name), size, float(lo), float(hi)))
        if not parsed:
            raise ValueError("an observation needs at least one piece")
        names = [p[0] for p in parsed]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"observation piece names repeat: {', '.join(dupes)}")
        self.pieces: tuple[tuple[str, int, float, float], ...] = tuple(parsed)
        self.slices: dict[str, slice] = {}
        start = 0
        for name, size, _, _ in parsed:
            self.slices[name] = slice(start, start + size)
            start += size
        self.size: int = start
        self.low = np.concatenate([np.full(s, lo, np.float32) for _, s, lo, _ in parsed])
        self.high = np.concatenate([np.full(s, hi, np.float32) for _, s, _, hi in parsed])

    @property
    def names(self) -> tuple[str, ...]:
        """Piece names in vector order."""
        return tuple(self.slices)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, name: str) -> slice:
        """The slice of piece ``name`` in the flat vector."""
        try:
            return self.slices[name]
        except KeyError:
            raise KeyError(
                f"no observation piece {name!r} (pieces: {', '.join(self.slices)})"
            ) from None

    def new(self) -> np.ndarray:
        """A fresh all-zero float32 vector of this size."""
        return np.zeros(self.size, np.float32)

    def named(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """Views (not copies) of ``vec`` by piece name; writing to a view writes to ``vec``.

        Raises:
            ValueError: if ``vec`` does not have this spec's shape.
        """
        if vec.shape != (self.size,):
            raise ValueError(f"observation has shape {vec.shape}, this spec needs ({self.size},)")
        return {name: vec[s] for name, s in self.slices.items()}

    def describe(self) -> str:
        """An ASCII table of the pieces: index range, name, size and bounds."""
        rows = [("index", "piece", "size", "bounds")]
        for name, size, lo, hi in self.pieces:
            s = self.slices[name]
            span = str(s.start) if size == 1 else f"{s.start}..{s.stop - 1}"
            rows.append((span, name, str(size), f"[{lo:g}, {hi:g}]"))
        return _table(rows, f"ObsSpec: {self.size} floats")

    def __repr__(self) -> str:
        inner = ", ".join(f"({n!r}, {s})" for n, s, _, _ in self.pieces)
        return f"ObsSpec([{inner}])"


def ego_order(
    enc: Encounter, combatant: str, max_per_side: int
) -> tuple[str, list[str | None], list[str | None]]:
    """Combatant ids in slot order as ``combatant`` sees the fight.

    Args:
        enc: the encounter.
        combatant: the observer's id.
        max_per_side: the system's fixed roster limit per side.

    Returns:
        ``(self, allies, enemies)``: allies in roster order without the observer, padded with
        ``None`` to ``max_per_side - 1``; enemies (every other side, in side then roster order)
        padded with ``None`` to ``max_per_side``.

    Raises:
        ValueError: if the observer is on no roster, or a roster does not fit the limit.
    """
    own = enc.side_of(combatant)
    allies: list[str | None] = []
    enemies: list[str | None] = []
    found = False
    for info in enc.sides():
        if info.side == own:
            for cid in info.members:
                if cid == combatant:
                    found = True
                else:
                    allies.append(cid)
        else:
            enemies.extend(info.members)
    if not found:
        raise ValueError(f"{combatant!r} is not on the roster of side {own!r}")
    if len(allies) > max_per_side - 1 or len(enemies) > max_per_side:
        raise ValueError(
            f"{combatant!r} sees {len(allies)} allies and {len(enemies)} enemies; "
            f"the observation holds at most {max_per_side - 1} and {max_per_side}"
        )
    allies.extend([None] * (max_per_side - 1 - len(allies)))
    enemies.extend([None] * (max_per_side - len(enemies)))
    return combatant, allies, enemies


def _table(rows: Sequence[Sequence[Any]], title: str) -> str:
    """Left-aligned ASCII table with a title line and a rule under the header."""
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    lines = [title]
    for k, row in enumerate(rows):
        lines.append("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
