"""Snapshot and clone driven by a state class's declared fields (DESIGN.md, "The rules API").

A state class (a combatant, a pending declaration, an encounter) declares its fields once, as a
``StateFields``; ``clone``, ``dump`` and ``load`` then follow that list, so adding a field is one
edit and no positional argument list can drift::

    class Fighter:
        __slots__ = ("id", "block", "strain", "injuries", "statuses")
        FIELDS = StateFields(values=("id", "strain"), containers=("injuries", "statuses"),
                             shared=("block",))

    twin = Fighter.FIELDS.clone(f)          # containers copied one level, the rest shared
    data = Fighter.FIELDS.dump(f)           # values and containers as plain JSON-able data
    Fighter.FIELDS.load(twin, data)         # the inverse, on an existing object

* ``values``: immutable values (numbers, text, ``None``, tuples, frozen dataclasses); shared by a
  clone, dumped as they are (tuples become lists).
* ``containers``: lists, dicts and sets of immutable items; a clone gets its own copy.
* ``shared``: references a clone shares and ``dump`` leaves out (stat blocks, options, caches of
  immutable values); the system saves them in its own way.

``encode`` / ``decode`` (field name -> function) convert a field whose JSON form differs (a list of
pairs saved as mappings, an option saved by name). Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["StateFields", "plain"]

T = TypeVar("T")


def plain(value: Any) -> Any:
    """``value`` as JSON-able data: tuples and sets become lists, mapping keys stay, recursively."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    raise TypeError(f"cannot save {type(value).__name__} as plain data; declare an encoder")


class StateFields:
    """The declared fields of one state class, and the clone / dump / load they drive."""

    __slots__ = ("values", "containers", "shared", "encode", "decode", "_copier")

    def __init__(self, *, values: tuple[str, ...] = (), containers: tuple[str, ...] = (),
                 shared: tuple[str, ...] = (),
                 encode: Mapping[str, Callable[[Any], Any]] | None = None,
                 decode: Mapping[str, Callable[[Any], Any]] | None = None) -> None:
        names = values + containers + shared
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"fields declared twice: {', '.join(dup)}")
        bad = [n for n in names if not n.isidentifier()]
        if bad:
            raise ValueError(f"field names must be identifiers: {', '.join(map(repr, bad))}")
        self.values = values
        self.containers = containers
        self.shared = shared
        self.encode = dict(encode or {})
        self.decode = dict(decode or {})
        self._copier = _compile_copier(values + shared, containers)

    @property
    def saved(self) -> tuple[str, ...]:
        """The fields ``dump`` writes, in declaration order."""
        return self.values + self.containers

    def clone(self, obj: T) -> T:
        """A new object of ``obj``'s class: containers copied one level, the other fields shared."""
        return self._copier(obj)

    def dump(self, obj: Any) -> dict[str, Any]:
        """The saved fields of ``obj`` as plain data (through ``encode`` where declared)."""
        enc = self.encode
        out: dict[str, Any] = {}
        for name in self.saved:
            value = getattr(obj, name)
            out[name] = enc[name](value) if name in enc else plain(value)
        return out

    def load(self, obj: Any, data: Mapping[str, Any],
             decode: Mapping[str, Callable[[Any], Any]] | None = None) -> None:
        """Set the saved fields of ``obj`` from ``dump`` data (through ``decode`` where declared;
        ``decode`` given here adds decoders that need context, e.g. the block an option is in).

        A container comes back as the type the JSON gives (list or dict) unless a decoder says
        otherwise; a value that was a tuple comes back as a tuple.
        """
        dec = {**self.decode, **decode} if decode else self.decode
        for name in self.saved:
            value = data[name]
            if name in dec:
                value = dec[name](value)
            elif name in self.values and isinstance(value, list):
                value = _tuples(value)
            elif isinstance(value, (list, dict)):
                value = value.copy()
            setattr(obj, name, value)


def _compile_copier(by_ref: tuple[str, ...], containers: tuple[str, ...]) -> Callable[[Any], Any]:
    """A straight-line copy function for these fields (as ``dataclasses`` builds ``__init__``):
    clones are on the look-ahead hot path, a loop of ``getattr``/``setattr`` is twice as slow."""
    lines = ["def clone(obj):", "    new = _new(type(obj))"]
    lines += [f"    new.{n} = obj.{n}" for n in by_ref]
    lines += [f"    new.{n} = obj.{n}.copy()" for n in containers]
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__}
    exec("\n".join(lines), namespace)  # names are checked identifiers
    return namespace["clone"]


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value
