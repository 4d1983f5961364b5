"""One ``Discrete(n)`` action space made of named blocks (STYLE C9, C10).

A block is a name and a tuple of named axes with sizes; its indices are the mixed-radix numbers of
its coordinates, first axis most significant, and blocks follow each other in declaration order::

    LAYOUT = ActionLayout([
        Block("recover"),
        Block("move", (("dir", 2), ("pool", 4))),
        Block("engage", (("option", 8), ("target", 8), ("mode", 2), ("pool", 4))),
    ])
    LAYOUT.index("engage", 1, 4, 0, 3)   # 9 + ((1*8 + 4)*2 + 0)*4 + 3 == 108
    LAYOUT.coords(108)  # ("engage", {"option": 1, "target": 4, "mode": 0, "pool": 3})
    LAYOUT.strides("engage")            # (9, (64, 8, 4, 1)): start and place value of each axis
    print(LAYOUT.describe())            # the table below
    # index   block    axes                         formula
    # 0       recover  -                            0
    # 1..8    move     dir(2) x pool(4)             1 + dir*4 + pool
    # 9..520  engage   option(8) x target(8) x ...  9 + ((option*8 + target)*2 + mode)*4 + pool

The layout knows nothing about the game. Mapping an ``Action`` to ``(block, coords)`` needs game
context (which enemy is in slot 2?), so each system supplies a ``SystemEncoding`` that does it;
``legal_index_map`` then turns ``legal_actions()`` into ``{index: Action}``, the only source of the
mask.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from envs.core import Action, Encounter

from .observation import ObsSpec, _table

__all__ = [
    "Block",
    "ActionLayout",
    "SystemEncoding",
    "EncodingError",
    "legal_index_map",
    "mask_from_legal",
]


class EncodingError(RuntimeError):
    """A system encoding broke its contract (two legal actions on one index, an action with no
    index...)."""


@dataclass(frozen=True, slots=True)
class Block:
    """A named run of action indices: the product of its axes.

    Attributes:
        name: block name, unique in the layout (``engage``).
        axes: ``(axis name, size)`` pairs, first axis most significant; empty for a single index.
    """

    name: str
    axes: tuple[tuple[str, int], ...] = ()

    @property
    def size(self) -> int:
        n = 1
        for _, k in self.axes:
            n *= k
        return n


class ActionLayout:
    """Named blocks laid end to end as one ``Discrete(size)`` space.

    Args:
        blocks: the blocks in index order.

    Raises:
        ValueError: on no blocks, a repeated block name, a repeated axis name in a block, or an
            axis size below 1.
    """

    def __init__(self, blocks: Iterable[Block]) -> None:
        self.blocks: tuple[Block, ...] = tuple(blocks)
        if not self.blocks:
            raise ValueError("an action layout needs at least one block")
        self._by_name: dict[str, tuple[int, tuple[int, ...], Block]] = {}
        self._starts: list[int] = []
        offset = 0
        for block in self.blocks:
            if block.name in self._by_name:
                raise ValueError(f"action block {block.name!r} is declared twice")
            axis_names = [a for a, _ in block.axes]
            if len(set(axis_names)) != len(axis_names):
                raise ValueError(f"action block {block.name!r}: axis names repeat: {axis_names}")
            for axis, k in block.axes:
                if not isinstance(k, int) or isinstance(k, bool) or k < 1:
                    raise ValueError(
                        f"action block {block.name!r}: axis {axis!r} size must be an integer >= 1, "
                        f"got {k!r}"
                    )
            self._by_name[block.name] = (offset, tuple(k for _, k in block.axes), block)
            self._starts.append(offset)
            offset += block.size
        self.size: int = offset

    def __len__(self) -> int:
        return self.size

    def block(self, name: str) -> Block:
        """The block called ``name``."""
        return self._lookup(name)[2]

    def offset(self, name: str) -> int:
        """First index of block ``name``."""
        return self._lookup(name)[0]

    def range(self, name: str) -> range:
        """All indices of block ``name``."""
        start, _, block = self._lookup(name)
        return range(start, start + block.size)

    def strides(self, name: str) -> tuple[int, tuple[int, ...]]:
        """First index of block ``name`` and the place value of each axis, in axis order:
        ``index(name, *c) == start + sum(c[k] * place[k])``. An encoder that must be fast (it
        encodes every legal action at every step) computes indices from these instead of
        writing the radix arithmetic by hand."""
        start, sizes, _ = self._lookup(name)
        place = [1] * len(sizes)
        for k in range(len(sizes) - 2, -1, -1):
            place[k] = place[k + 1] * sizes[k + 1]
        return start, tuple(place)

    def index(self, block: str, *coords: int) -> int:
        """The action index of ``block`` at ``coords`` (one int per axis, in axis order).

        Raises:
            KeyError: for an unknown block.
            IndexError: for a wrong number of coordinates or one outside its axis.
        """
        start, sizes, b = self._lookup(block)
        if len(coords) != len(sizes):
            raise IndexError(
                f"block {block!r} has {len(sizes)} axes {[a for a, _ in b.axes]}, got "
                f"{len(coords)} coordinates"
            )
        i = 0
        for c, k in zip(coords, sizes, strict=True):
            if not 0 <= c < k:
                raise IndexError(
                    f"block {block!r}: coordinate {c} outside 0..{k - 1} {_axis_hint(b, coords)}"
                )
            i = i * k + c
        return start + i

    def coords(self, index: int) -> tuple[str, dict[str, int]]:
        """The block name and axis coordinates of ``index`` (inverse of ``index``).

        Raises:
            IndexError: if ``index`` is outside ``0..size-1``.
        """
        if not 0 <= index < self.size:
            raise IndexError(f"action index {index} outside 0..{self.size - 1}")
        block = self.blocks[bisect_right(self._starts, index) - 1]
        start, sizes, _ = self._by_name[block.name]
        rest = index - start
        values = [0] * len(sizes)
        for k in range(len(sizes) - 1, -1, -1):
            rest, values[k] = divmod(rest, sizes[k])
        return block.name, {axis: v for (axis, _), v in zip(block.axes, values, strict=True)}

    def label(self, index: int) -> str:
        """Short text of an index: ``engage(option=1, target=4, mode=0, pool=3)``."""
        name, coords = self.coords(index)
        if not coords:
            return name
        return f"{name}(" + ", ".join(f"{a}={v}" for a, v in coords.items()) + ")"

    def mask(self, indices: Iterable[int]) -> np.ndarray:
        """An int8 0/1 vector of length ``size`` with ones at ``indices``.

        Raises:
            IndexError: if an index is outside the layout.
        """
        m = np.zeros(self.size, np.int8)
        idx = np.fromiter(indices, np.int64)
        if idx.size:
            if idx.min() < 0 or idx.max() >= self.size:
                bad = idx[(idx < 0) | (idx >= self.size)][0]
                raise IndexError(f"action index {bad} outside 0..{self.size - 1}")
            m[idx] = 1
        return m

    def describe(self) -> str:
        """An ASCII table of the layout: index range, block, axes and index formula."""
        rows = [("index", "block", "axes", "formula")]
        for block in self.blocks:
            start = self.offset(block.name)
            span = str(start) if block.size == 1 else f"{start}..{start + block.size - 1}"
            axes = " x ".join(f"{a}({k})" for a, k in block.axes) or "-"
            rows.append((span, block.name, axes, _formula(start, block)))
        return _table(rows, f"ActionLayout: Discrete({self.size})")

    def _lookup(self, name: str) -> tuple[int, tuple[int, ...], Block]:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(
                f"no action block {name!r} (blocks: {', '.join(self._by_name)})"
            ) from None

    def __repr__(self) -> str:
        return f"ActionLayout({[b.name for b in self.blocks]}, size={self.size})"


def _axis_hint(block: Block, coords: tuple[int, ...]) -> str:
    """Coordinates named by axis, for error messages."""
    return "(" + ", ".join(f"{a}={c}" for (a, _), c in zip(block.axes, coords, strict=True)) + ")"


def _formula(start: int, block: Block) -> str:
    """Index formula of a block, e.g. ``9 + ((option*8 + target)*2 + mode)*4 + pool``."""
    if not block.axes:
        return str(start)
    expr = block.axes[0][0]
    for axis, k in block.axes[1:]:
        if " + " in expr:
            expr = f"({expr})"
        expr = f"{expr}*{k} + {axis}"
    return expr if start == 0 else f"{start} + {expr}"


@runtime_checkable
class SystemEncoding(Protocol):
    """What a system supplies to the generic env: its spaces and the Action <-> index mapping.

    Attributes:
        name: env name with version, ``metadata["name"]`` (``metanoia_v1``).
        layout: the action layout (``Discrete(layout.size)``).
        obs_spec: the observation layout (``Box(obs_spec.size)``).
        max_per_side: the fixed roster limit per side the observation is sized for.
    """

    name: str
    layout: ActionLayout
    obs_spec: ObsSpec
    max_per_side: int

    def encode_action(self, enc: Encounter, combatant: str, action: Action) -> int:
        """Index of ``action`` taken by ``combatant`` in ``enc`` (raise ``KeyError``/``ValueError``
        if none)."""
        ...

    def decode_action(self, enc: Encounter, combatant: str, index: int) -> Action:
        """The ``Action`` that ``index`` means for ``combatant`` in ``enc`` (legal or not)."""
        ...

    def observe(self, enc: Encounter, combatant: str) -> np.ndarray:
        """``combatant``'s float32 observation vector of shape ``(obs_spec.size,)`` (from
        ``enc.view``)."""
        ...


def legal_index_map(encoding: SystemEncoding, enc: Encounter, combatant: str) -> dict[int, Action]:
    """Encode every legal action of the deciding ``combatant``: ``{index: Action}``.

    Args:
        encoding: the system's encoding.
        enc: the encounter; ``combatant`` must be its ``current_actor()``.
        combatant: the deciding combatant's id.

    Returns:
        One entry per legal action, in ``legal_actions()`` order.

    Raises:
        EncodingError: if the rules offer no legal action, an action has no index or one outside
            the layout, or two legal actions share an index.
    """
    actions = enc.legal_actions()
    if not actions:
        raise EncodingError(f"round {enc.round}: the rules offer {combatant!r} no legal action")
    size = encoding.layout.size
    batch = getattr(encoding, "encode_actions", None)  # optional fast path: context computed once
    if batch is not None:
        try:
            indices = batch(enc, combatant, actions)
        except (KeyError, ValueError, IndexError):
            indices = None  # fall back to one by one, which names the faulty action
    else:
        indices = None
    if indices is not None and len(indices) == len(actions) and None not in indices:
        fast = dict(zip(indices, actions, strict=True))
        if len(fast) == len(actions) and 0 <= min(fast) and max(fast) < size:
            return fast  # every index distinct and inside the layout; else the loop names the fault
    encode = encoding.encode_action
    out: dict[int, Action] = {}
    for n, action in enumerate(actions):
        try:
            i = indices[n] if indices is not None else encode(enc, combatant, action)
        except (KeyError, ValueError, IndexError) as e:
            raise EncodingError(
                f"{encoding.name}: legal action {action.label!r} has no index ({e})"
            ) from e
        if i is None or not 0 <= i < size:
            raise EncodingError(
                f"{encoding.name}: legal action {action.label!r} encodes to {i!r}, outside "
                f"0..{size - 1}"
            )
        other = out.get(i)
        if other is not None:
            raise EncodingError(
                f"{encoding.name}: legal actions {other.label!r} and {action.label!r} both encode "
                "to "
                f"index {i} ({encoding.layout.label(i)})"
            )
        out[i] = action
    return out


def mask_from_legal(encoding: SystemEncoding, enc: Encounter, combatant: str) -> np.ndarray:
    """The int8 action mask of the deciding ``combatant``, from ``legal_actions()`` only."""
    return encoding.layout.mask(legal_index_map(encoding, enc, combatant))
