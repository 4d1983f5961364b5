"""What a system gives ``arena situation new`` (docs/situations.md): the fields of its starter file.

A starter file lists every field a system's situation reader accepts, each with the engine's
current value and a comment. The readers do not publish their field lists, so each system names
them in a starter object (its optional registry part ``starter``, ``envs/<system>/starter.py``),
as ``Line`` values that eval/situation_tools.py writes as YAML. A starter is one of two kinds:

- ``CombatantStarter``: a system whose reader uses the shared fields (``envs.core.situation``). The
  tool writes the shared fields and the combatants (``id``, ``side``, ``stats``, ``state``); the
  starter adds each combatant's own fields, its ``state``, an inline stat block, and the system's
  own top-level fields (a map, hazards), reading a snapshot of the encounter;
- ``FileStarter``: a system whose reader is its own (the toy): the starter gives the whole file.

A ``CombatantStarter`` may also name ``in_progress_fields``, the top-level fields of its ``top``
that place a fight in progress (Palladium Revised's ``second``, which needs an ``actor``): the own
form of an encounter, a fresh start (``eval.fights.own_form``), leaves them out.

A system without a starter gets the shared fields only. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = ["Line", "CombatantStarter", "FileStarter"]


@dataclass
class Line:
    """One field of a starter file: ``key: value  # note``.

    ``live=False`` writes it commented out; ``children`` writes a mapping in block style, ``items``
    a list of mappings (the combatants); an empty ``key`` is a comment line (``note``).
    """

    key: str
    value: Any = None
    note: str = ""
    live: bool = True
    children: list[Line] | None = None
    items: list[list[Line]] | None = None


@runtime_checkable
class CombatantStarter(Protocol):
    """The fields of a system whose situations use the shared fields. ``c`` is one combatant of
    the encounter's ``snapshot()`` (``snap["combatants"][id]``), ``snap`` the whole snapshot,
    ``own`` true for the GM's own fight (new combatants by catalogue id, the last one inline)."""

    side_note: str
    """the comment of a new combatant's ``side`` (which sides there may be)"""

    def block_id(self, c: dict[str, Any]) -> str:
        """The catalogue id of the combatant's stat block."""
        ...

    def member(self, c: dict[str, Any]) -> list[Line]:
        """The system's own per-combatant fields, beside ``id`` and ``side`` (Metanoia's zone)."""
        ...

    def state(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        """The combatant's ``state`` fields, each with its value now."""
        ...

    def inline(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        """The combatant's stat block written inline, in the catalogue's schema."""
        ...

    def top(self, snap: dict[str, Any], own: bool) -> list[Line]:
        """The system's own top-level fields (after ``actor``)."""
        ...


@runtime_checkable
class FileStarter(Protocol):
    """The whole starter of a system whose situation reader is its own."""

    def lines(self, name: str, own: bool) -> list[Line]:
        """Every field of the file, for the encounter ``name`` (``own``: no encounter given)."""
        ...
