"""Named observation feature tables (issue item 7): a system declares a row of its observation
(one slot, the turn budget...) as ``(feature, size)`` pairs in vector order, and lists every
feature with its offset and range for ``arena layout SYSTEM --obs``::

    SLOT_FEATURES = (("present", 1), ("offset", 3), ("health", 4))
    SLOT_SIZE = table_size(SLOT_FEATURES)                   # 8
    offsets(SLOT_FEATURES)                                  # {"present": 0, "offset": 1, ...}
    feature_rows(OBS, {"slot": SLOT_FEATURES}, prefix=True) # [("slot0.present", 0, 1, -1, 1), ...]
"""

from __future__ import annotations

from collections.abc import Mapping

from .observation import ObsSpec

__all__ = ["FeatureRow", "FeatureTable", "feature_rows", "offsets", "table_size"]

FeatureTable = tuple[tuple[str, int], ...]
"""``(feature, size)`` pairs in vector order"""
FeatureRow = tuple[str, int, int, float, float]
"""``(name, offset, size, low, high)`` of one feature"""


def offsets(table: FeatureTable) -> dict[str, int]:
    """Each feature's offset inside its row."""
    out, at = {}, 0
    for name, n in table:
        out[name] = at
        at += n
    return out


def table_size(table: FeatureTable) -> int:
    """The length of a row of ``table``."""
    return sum(n for _, n in table)


def feature_rows(obs: ObsSpec, tables: Mapping[str, FeatureTable]) -> list[FeatureRow]:
    """Every feature of ``obs`` as ``(name, offset, size, low, high)``, in vector order: a piece
    whose name is in ``tables``, or starts with a key of it followed by digits (``slot3`` for
    ``slot``), is listed feature by feature as ``piece.feature``; any other piece as one row."""
    rows: list[FeatureRow] = []
    for name, size, lo, hi in obs.pieces:
        start = obs[name].start
        table = tables.get(name) or tables.get(name.rstrip("0123456789"))
        if table is None:
            rows.append((name, start, size, lo, hi))
            continue
        rows += [(f"{name}.{f}", start + o, n, lo, hi)
                 for (f, n), o in zip(table, offsets(table).values(), strict=True)]
    return rows
