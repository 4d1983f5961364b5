"""What a game starts from: a built-in encounter or a situation file (docs/balance.md).

``Fight`` is one value for both. ``Fight.named(system, name)`` is an encounter of the system's data;
``Fight.from_file(path)`` reads a situation file (docs/situations.md): a file with ``actor`` (or
``order``/``round``) stands in the middle of a fight, one without is a fresh start whose setup
(surprise, initiative) comes from the dice. ``fight.build(options, dice)`` is the ``Encounter``
(``rules.new_encounter`` or ``envs.core.cases.encounter_from_situation``, with the variant's
options over the file's), ``fight.sides()`` the side ids, ``fight.label`` its name in reports and
records, and ``fight.record()`` what a game record keeps (the file's source and its YAML text, so a
replay does not need the file).

``resolve_fight(system, text)``: an encounter name of ``system`` or a path to a ``.yaml`` file
(``ValueError`` naming the file and the field when bad). ``own_form(system, name)``: a named
encounter written as the situation of one's own fight (every combatant new, with its side, stat
block and place), which is what leave-one-out drops entries from. ``set_path(data, path, value)``:
change one field of a situation (``combatants[1].stats.totals.might``) for sweeps.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Collection
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

import yaml

from envs import get_rules, get_starter
from envs.core import SeededDice
from envs.core.data import DataError

__all__ = ["Fight", "resolve_fight", "own_form", "set_path", "get_path", "options_mapping"]


def options_mapping(options: Any) -> Any:
    """Rule options as a situation's ``options`` field accepts them (a name or a mapping)."""
    if options is None or isinstance(options, str | dict):
        return options
    if is_dataclass(options) and not isinstance(options, type):
        return {f.name: getattr(options, f.name) for f in fields(options)}
    return options


@dataclass(frozen=True)
class Fight:
    """A built-in encounter (``name``) or a situation (``data``, read from ``source``)."""

    system: str
    name: str | None = None
    data: dict[str, Any] | None = field(default=None, compare=False, hash=False)
    source: str = ""
    text: str = field(default="", compare=False, hash=False)
    """the situation's YAML text as read (records keep it)"""
    note: str = ""
    """what this variant of a fight changed ("without knight"), for labels"""

    @staticmethod
    def named(system: str, name: str) -> Fight:
        return Fight(system, name=name)

    @staticmethod
    def from_data(data: dict[str, Any], source: str, text: str | None = None,
                  note: str = "") -> Fight:
        system = str(data.get("system", ""))
        body = text if text is not None else yaml.safe_dump(data, sort_keys=False)
        return Fight(system, data=data, source=source, text=body, note=note)

    @staticmethod
    def from_file(path: str | Path) -> Fight:
        from envs.core.cases import load_situation

        data = load_situation(path)  # checks 'system' (a DataError naming the file)
        text = Path(path).read_text(encoding="utf-8")
        fight = Fight.from_data(data, str(path), text)
        fight.build(None, SeededDice(0))  # every other field checked now, not in a worker
        return fight

    @property
    def is_file(self) -> bool:
        return self.data is not None

    @property
    def label(self) -> str:
        base = self.name if self.name is not None else Path(self.source).stem or "situation"
        return f"{base} ({self.note})" if self.note else base

    def build(self, options: Any = None, dice: Any = None) -> Any:
        """The ``Encounter`` this fight starts from (``options``: the variant's rules, or the
        file's own when ``None``)."""
        if self.data is None:
            return get_rules(self.system).new_encounter(str(self.name), options, dice)
        from envs.core.cases import encounter_from_situation

        data = dict(self.data)
        if options is not None:
            data["options"] = options_mapping(options)
        return encounter_from_situation(data, self.source or "situation", dice)

    def sides(self, options: Any = None) -> tuple[str, ...]:
        enc = self.build(options, SeededDice(0))
        return tuple(info.side for info in enc.sides())

    def members(self, options: Any = None) -> dict[str, str]:
        """combatant id -> its side, in roster order."""
        enc = self.build(options, SeededDice(0))
        return {cid: info.side for info in enc.sides() for cid in info.members}

    def record(self) -> dict[str, Any]:
        """What a game record stores: the name, or the file's source and YAML text."""
        if self.data is None:
            return {"encounter": self.name}
        return {"situation": {"source": self.source, "yaml": self.text}}

    def situation(self) -> dict[str, Any]:
        """This fight as a situation mapping (a named encounter: its own-fight form)."""
        if self.data is not None:
            return copy.deepcopy(self.data)
        return own_form(self.system, str(self.name))

    def without(self, cid: str) -> Fight:
        """This fight without combatant ``cid`` (leave-one-out); ``ValueError`` if it is not in
        the fight's list."""
        data = self.situation()
        listed = data.get("combatants") or []
        kept = [c for c in listed if not (isinstance(c, dict) and str(c.get("id")) == cid)]
        if len(kept) == len(listed):
            raise ValueError(f"{self.label}: no combatant {cid!r} listed to leave out")
        data["combatants"] = kept
        for key in ("order",):
            if isinstance(data.get(key), list):
                data[key] = [x for x in data[key] if str(x) != cid]
        if str(data.get("actor")) == cid:
            data.pop("actor")
        return Fight.from_data(data, self.source or f"{self.label}", note=f"without {cid}")


def resolve_fight(system: str | None, text: str) -> Fight:
    """An encounter name of ``system`` or a situation file path (``.yaml``/``.yml``/an existing
    file). ``ValueError``/``DataError`` with one line naming what is wrong."""
    looks_like_file = text.endswith((".yaml", ".yml")) or "/" in text or Path(text).is_file()
    if looks_like_file:
        if not Path(text).is_file():
            raise ValueError(f"{text}: no such situation file")
        fight = Fight.from_file(text)
        if system is not None and fight.system != system:
            raise DataError(f"{text}: situation: field 'system': the file is a {fight.system} "
                            f"fight, not {system}")
        return fight
    if system is None:
        raise ValueError(f"{text!r} is not a situation file (give --system for an encounter name)")
    known = get_rules(system).encounter_names()
    if text not in known:
        raise ValueError(f"unknown encounter {text!r} for {system}; known: {', '.join(known)} "
                         "(or a situation .yaml file)")
    return Fight.named(system, text)


def own_form(system: str, name: str, inline: Collection[str] = ()) -> dict[str, Any]:
    """Encounter ``name`` as the situation of one's own fight, a fresh start: every combatant new
    (side, stat block by catalogue id, place), the system's own top-level fields (a map) kept,
    but not those that place a fight in progress (the starter's ``in_progress_fields``).
    The combatants in ``inline`` have their stat block written out (the catalogue's schema), to
    change one field of it (a planted imbalance, a sweep).

    Written by the system's starter (``envs.get_starter``), as ``arena situation new`` does;
    ``ValueError`` for a system whose starter cannot write one."""
    from envs.core.starter import CombatantStarter
    from eval.situation_tools import render_lines

    starter = get_starter(system)
    if not isinstance(starter, CombatantStarter):
        raise ValueError(f"{system}: its starter cannot write {name!r} as new combatants")
    R = get_rules(system)
    first = R.new_encounter(name, None, SeededDice(0)).sides()[0].members[0]
    from envs.core.cases import encounter_from_situation

    enc = encounter_from_situation({"system": system, "encounter": name, "actor": first}, name)
    snap = enc.snapshot()
    combatants = []
    for cid, c in snap["combatants"].items():
        from envs.core.starter import Line

        stats = (Line("stats", children=starter.inline(c, snap)) if cid in inline
                 else Line("stats", starter.block_id(c)))
        lines = [Line("id", cid), Line("side", c["side"]), *starter.member(c), stats,
                 Line("state", children=starter.state(c, snap))]
        combatants.append(yaml.safe_load("\n".join(render_lines(lines))))
    top = yaml.safe_load("\n".join(render_lines(starter.top(snap, True)))) or {}
    for key in getattr(starter, "in_progress_fields", ()):  # a fresh start: no actor to place
        top.pop(key, None)
    data: dict[str, Any] = {"system": system, "title": f"{name} (own form)", "options": "full",
                            "combatants": combatants}
    data.update(top)
    return data


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _steps(path: str) -> list[str | int]:
    out: list[str | int] = []
    pos = 0
    for m in _STEP.finditer(path):
        if m.start() != pos and path[pos:m.start()] != ".":
            raise ValueError(f"bad field path {path!r} at {path[pos:]!r}")
        out.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    if not out or pos != len(path):
        raise ValueError(f"bad field path {path!r}")
    return out


def get_path(data: Any, path: str) -> Any:
    """The value at ``path`` (``combatants[1].stats.totals.might``); ``KeyError`` naming the
    missing step."""
    node = data
    for step in _steps(path):
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            raise KeyError(f"field path {path!r}: no {step!r} there") from None
    return node


def set_path(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A deep copy of ``data`` with ``path`` set to ``value`` (the last step may be new)."""
    out = copy.deepcopy(data)
    steps = _steps(path)
    node: Any = out
    for step in steps[:-1]:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            raise KeyError(f"field path {path!r}: no {step!r} there") from None
    last = steps[-1]
    if isinstance(node, list) and isinstance(last, int) and last < len(node):
        node[last] = value
    elif isinstance(node, dict):
        node[last] = value
    else:
        raise KeyError(f"field path {path!r}: cannot set {last!r}")
    return out
