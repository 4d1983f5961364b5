"""One rule-options parser for every system (DESIGN.md, "Situations and cases").

A system's rule options are a frozen dataclass (its ``RuleOptions``) with two presets, CORE and
FULL. ``parse_rule_options`` turns what a caller gives into one of them:

- ``None`` -> the default preset (FULL), a ``RuleOptions`` -> itself,
- ``"core"`` / ``"full"`` -> that preset,
- a mapping of the dataclass's fields, with an optional ``version: core|full`` that picks the
  preset the other fields change (``{version: core, round_limit: 20}``).

Every field of a mapping is checked against the type of the preset's value (``bool`` fields take
only true/false, ``int`` fields only whole numbers at or above their minimum, text fields only
their listed choices). Every problem is one ``DataError`` naming the file (``rules=`` for an env
argument), the entry and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any, TypeVar, cast

from .data import DataError

__all__ = ["parse_rule_options"]

T = TypeVar("T")


def parse_rule_options(
    spec: Any,
    presets: Mapping[str, T],
    *,
    source: str = "rules=",
    entry: str = "options",
    minimum: Mapping[str, int] | None = None,
    choices: Mapping[str, tuple[str, ...]] | None = None,
    default: str = "full",
) -> T:
    """The options ``spec`` names (see the module docstring).

    Args:
        spec: what the caller gave.
        presets: ``{"core": CORE, "full": FULL}``, instances of one frozen dataclass.
        source: the file (or ``rules=`` for an env argument) for error messages.
        entry: the entry in that file (``situation.options``).
        minimum: the smallest value of each integer field (default 1).
        choices: the accepted values of each text field.
        default: the preset of ``None`` and of a mapping without ``version``.
    """
    base = presets[default]
    cls = type(base)
    if spec is None:
        return base
    if isinstance(spec, cls):
        return spec
    where = f"{source}: {entry}"
    names = ", ".join(repr(p) for p in presets)
    if isinstance(spec, str):
        if spec not in presets:
            raise DataError(
                f"{where}: unknown rules {spec!r}: must be {names} or a mapping of rule options"
            )
        return presets[spec]
    if not isinstance(spec, Mapping):
        raise DataError(
            f"{where}: unknown rules {_show(spec)}: must be {names} or a mapping of rule options"
        )
    version = spec.get("version", default)
    if not isinstance(version, str) or version not in presets:
        raise DataError(
            f"{where}: field 'version': unknown rules {version!r}; version must be "
            f"{' or '.join(presets)}"
        )
    base = presets[version]
    known = [f.name for f in fields(cast(Any, base)) if f.name != "version"]
    lows, texts = minimum or {}, choices or {}
    changes: dict[str, Any] = {}
    for key, value in spec.items():
        if key == "version":
            continue
        if key not in known:
            raise DataError(
                f"{where}: field {key!r}: unknown field {key!r}; known: {', '.join(sorted(known))}"
            )
        current = getattr(base, key)
        field_where = f"{where}: field {key!r}: {key}"
        if isinstance(current, bool):
            if not isinstance(value, bool):
                raise DataError(f"{field_where} must be true or false, got {_show(value)}")
        elif isinstance(current, int):
            low = lows.get(key, 1)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise DataError(
                    f"{field_where} must be a whole number >= {low}, got {_show(value)}"
                )
        elif key in texts and value not in texts[key]:
            raise DataError(f"{field_where} must be {', '.join(texts[key])}, got {_show(value)}")
        elif not isinstance(value, type(current)):
            raise DataError(f"{field_where} must be a {type(current).__name__}, got {_show(value)}")
        changes[key] = value
    return cast(T, replace(cast(Any, base), **changes))


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
