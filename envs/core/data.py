"""YAML data files and field checking with errors that name the file, the entry and the field.

Bad input never produces a deep traceback: every problem becomes one ``DataError`` line such as
``combatants.yaml: combatants.gravel_brute: field 'realm': expected an integer >= 1, got 'two'``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml  # data-format library (not an RL library); the only non-stdlib import of core

from .files import read_text

__all__ = ["DataError", "load_yaml", "Entry"]


class DataError(ValueError):
    """Malformed data: one line naming the file, the entry and the field."""


_Safe = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser: about 10x faster start-up


class _UniqueKeyLoader(_Safe):  # type: ignore[valid-type,misc]
    """SafeLoader that refuses duplicate mapping keys (PyYAML silently keeps the last one)."""


def _construct_mapping(
    loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False
) -> dict:
    loader.flatten_mapping(node)
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise DataError(
                f"line {key_node.start_mark.line + 1}: duplicate key {key!r} "
                f"(first at line {seen[key] + 1})"
            )
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml(path: str | Path) -> Any:
    """Read a YAML file; unreadable or non-UTF-8 files, syntax errors and duplicate keys become
    ``DataError`` naming the file."""
    path = Path(path)
    text = read_text(path)
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - SafeLoader subclass
    except DataError as e:
        raise DataError(f"{path}: {e}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise DataError(f"{path}: {where}invalid YAML ({problem})") from None


_MISSING = object()


class Entry:
    """A mapping read field by field, with its file and entry name for error messages.

    ``Entry(data, "combatants.yaml", "combatants.gravel_brute")``; read fields with ``req``/``opt``
    and finish with ``done()``, which rejects keys nobody read (typos are errors, not ignored).
    """

    def __init__(self, data: Any, source: str, entry: str) -> None:
        self.source, self.entry = str(source), entry
        if not isinstance(data, Mapping):
            self.fail(None, f"expected a mapping, got {_show(data)}")
        self.data: Mapping[str, Any] = data
        self._read: set[str] = set()

    def fail(self, field: str | None, message: str) -> None:
        where = f"{self.source}: {self.entry}"
        if field is not None:
            where += f": field {field!r}"
        raise DataError(f"{where}: {message}")

    def has(self, key: str) -> bool:
        return key in self.data

    def req(
        self,
        key: str,
        kind: type | tuple[type, ...] | Callable[[Any], Any] | None = None,
        what: str = "",
    ) -> Any:
        if key not in self.data:
            self.fail(key, "missing" + (f" ({what})" if what else ""))
        return self._check(key, self.data[key], kind, what)

    def opt(
        self,
        key: str,
        default: Any = None,
        kind: type | tuple[type, ...] | Callable[[Any], Any] | None = None,
        what: str = "",
    ) -> Any:
        if key not in self.data or self.data[key] is None and default is None:
            self._read.add(key)
            return default
        return self._check(key, self.data[key], kind, what)

    def integer(
        self, key: str, default: Any = _MISSING, lo: int | None = None, hi: int | None = None
    ) -> int:
        if default is not _MISSING and key not in self.data:
            self._read.add(key)
            return default
        value = self.req(key)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"expected an integer{_range(lo, hi)}, got {_show(value)}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.fail(key, f"expected an integer{_range(lo, hi)}, got {value}")
        return value

    def choice(self, key: str, choices: Iterable[str], default: Any = _MISSING) -> str:
        choices = list(choices)
        if default is not _MISSING and key not in self.data:
            self._read.add(key)
            return default
        value = self.req(key)
        if value not in choices:
            self.fail(
                key, f"unknown value {_show(value)}; expected one of {', '.join(map(str, choices))}"
            )
        return value

    def sub(self, key: str, default: Any = _MISSING) -> Entry:
        if default is not _MISSING and key not in self.data:
            self._read.add(key)
            return Entry(default, self.source, f"{self.entry}.{key}")
        return Entry(self.req(key), self.source, f"{self.entry}.{key}")

    def items(self, key: str, default: Any = _MISSING) -> list[Any]:
        if default is not _MISSING and key not in self.data:
            self._read.add(key)
            return list(default)
        value = self.req(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(key, f"expected a list, got {_show(value)}")
        return value

    def _check(self, key: str, value: Any, kind: Any, what: str) -> Any:
        self._read.add(key)
        if kind is None:
            return value
        if isinstance(kind, type | tuple):
            kinds = kind if isinstance(kind, tuple) else (kind,)
            if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
                names = " or ".join(k.__name__ for k in kinds)
                self.fail(key, f"expected {what or names}, got {_show(value)}")
            return value
        try:
            return kind(value)
        except (TypeError, ValueError) as e:
            self.fail(key, str(e))

    def done(self) -> None:
        extra = [k for k in self.data if k not in self._read]
        if extra:
            self.fail(
                str(extra[0]),
                f"unknown field (known here: {', '.join(sorted(self._read)) or 'none'})",
            )


def _range(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f" in {lo}..{hi}"
    if lo is not None:
        return f" >= {lo}"
    if hi is not None:
        return f" <= {hi}"
    return ""


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
