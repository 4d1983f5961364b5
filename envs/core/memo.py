"""``IdentityMemo``: values derived from an object that never changes (a frozen stat block, a
map), kept outside the object so that rules objects hold no caches (issue 11, item 7).

Keyed by the object's identity, with the object kept alive next to its values so that the
identity is never reused for another object while the entry exists::

    _SHEET = IdentityMemo(limit=4096)
    memo = _SHEET.of(block)          # a dict for this block, the same one on every call
    memo.setdefault("stamina", ...)
"""

from __future__ import annotations

from typing import Any

__all__ = ["IdentityMemo"]


class IdentityMemo:
    """Per-object dicts of derived values; starts over after ``limit`` objects (many short-lived
    objects in one process: tests, balance sweeps)."""

    __slots__ = ("_entries", "limit")

    def __init__(self, limit: int = 4096) -> None:
        self._entries: dict[int, tuple[Any, dict[Any, Any]]] = {}
        self.limit = limit

    def of(self, obj: Any) -> dict[Any, Any]:
        """The memo dict of ``obj`` (made empty on first use)."""
        entries = self._entries
        entry = entries.get(id(obj))
        if entry is None or entry[0] is not obj:
            if len(entries) > self.limit:
                entries.clear()
            entry = entries[id(obj)] = (obj, {})
        return entry[1]

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()
