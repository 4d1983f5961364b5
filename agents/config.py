"""Typed configs from YAML (STYLE C16): a frozen dataclass with a docstring under each field.

Shared by training (``agents.train_config``) and the tournaments (``eval.tournament``).

``load_config(cls, path, overrides)`` reads a YAML mapping and ``key=value`` overrides (values read
as YAML) into ``cls``. Unknown keys and values of the wrong type are one-line ``ValueError``s naming
the file and the key; nothing is ever ``eval``'d. Supported field types: ``bool``, ``int``,
``float``, ``str``, ``tuple[T, ...]`` and ``dict[str, T]`` of those.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import json
import typing
from collections.abc import Sequence
from typing import Any, NoReturn, TypeVar

import yaml

from envs.core.data import DataError, load_yaml

__all__ = ["load_config", "field_docs", "config_help", "config_dict", "OneLineParser"]

T = TypeVar("T")


def field_docs(cls: type) -> dict[str, str]:
    """The docstring under each field of a dataclass, read from its source."""
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for node, nxt in zip(body, body[1:], strict=False):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
            and isinstance(nxt.value.value, str)
        ):
            docs[node.target.id] = " ".join(nxt.value.value.split())
    return docs


def _coerce(value: Any, hint: Any, where: str) -> Any:
    """Check ``value`` against a field's type hint; returns it in the field's type."""
    origin = typing.get_origin(hint)
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise ValueError(f"{where}: expected true or false, got {value!r}")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ValueError(f"{where}: expected a whole number, got {value!r}")
    if hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):  # YAML 1.1 reads 3e-4 (no dot) as text
            try:
                return float(value)
            except ValueError:
                pass
        raise ValueError(f"{where}: expected a number, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise ValueError(f"{where}: expected text, got {value!r}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ValueError(f"{where}: expected a list, got {value!r}")
        item = typing.get_args(hint)[0]
        return tuple(_coerce(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise ValueError(f"{where}: expected a mapping, got {value!r}")
        k_hint, v_hint = typing.get_args(hint)
        return {
            _coerce(k, k_hint, where): _coerce(v, v_hint, f"{where}.{k}") for k, v in value.items()
        }
    raise TypeError(f"unsupported config type {hint!r}")  # a programming error, not bad input


def load_config(cls: type[T], path: str | None, overrides: Sequence[str] = ()) -> tuple[T, str]:
    """Read YAML ``path`` (or only defaults when ``None``) and ``key=value`` overrides into ``cls``.

    Returns:
        ``(config, source)``, where ``source`` names the inputs for later error messages.

    Raises:
        DataError: the file is unreadable, not YAML, or not a mapping.
        ValueError: an unknown key, a bad override or a value of the wrong type (one line).
    """
    data: dict[str, Any] = {}
    source = path or "defaults"
    if path is not None:
        raw = load_yaml(path)
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise DataError(f"{path}: a config must be a mapping of keys to values")
        data.update(raw)
    for item in overrides:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"command line: {item!r} is not key=value")
        try:
            data[key.strip()] = yaml.safe_load(text)
        except yaml.YAMLError as e:
            raise ValueError(
                f"command line: {item!r}: the value is not valid YAML ({getattr(e, 'problem', e)})"
            ) from None
    if overrides:
        source = f"{source} + command line"
    hints = typing.get_type_hints(cls)
    known = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    values = {}
    for key, value in data.items():
        if key not in hints:
            raise ValueError(f"{source}: unknown key {key!r}; known keys: {', '.join(known)}")
        values[key] = _coerce(value, hints[key], f"{source}: key {key!r}")
    return cls(**values), source


def config_help(cls: type) -> str:
    """Every key of a config dataclass with its default and docstring, one per line."""
    docs = field_docs(cls)
    lines = []
    for f in dataclasses.fields(cls):
        factory = f.default_factory
        if f.default is not dataclasses.MISSING or factory is dataclasses.MISSING:
            default = f.default
        else:
            default = factory()
        lines.append(
            f"  {f.name:<18} {json.dumps(default, default=list):<40} {docs.get(f.name, '')}"
        )
    return "\n".join(lines)


def config_dict(cfg: Any) -> dict[str, Any]:
    """A config dataclass as plain YAML/JSON data (tuples become lists)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(cfg).items()}


class OneLineParser(argparse.ArgumentParser):
    """``ArgumentParser`` whose usage errors are one line (no usage block), exit status 2."""

    def error(self, message: str) -> NoReturn:
        # parse_intermixed_args lists an empty ``nargs="*"`` positional as required; it is not
        message = message.replace(
            "arguments are required: config, overrides", "argument is required: config"
        )
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")
