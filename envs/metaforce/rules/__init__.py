"""Metaforce's rules engine (docs/rules/metaforce.md): pure Python, standard library and
``envs.core`` only.

Public surface: ``SYSTEM``, ``encounter_names``, ``new_encounter``, ``from_situation``,
``parse_options``, ``stat_blocks`` (the ``envs.RulesModule`` contract), ``MetaforceEncounter``
(``current_actor``, ``legal_actions``, ``apply``, ``decision``, ``view``, ``describe``,
``snapshot``/``from_snapshot``, ``clone``, ``parse_action``, ``harm``), ``RuleOptions``, ``CORE``,
``FULL``, ``build``, ``profile_of``, ``Profile``, ``Weapon``, the previews ``preview_attack``
(``AttackPreview``) and ``in_reach``. Labels: ``labels``; events: ``events``; plain words:
``describe.describe``; state invariants: ``envs.metaforce.invariants``.
"""

from __future__ import annotations

from typing import Any

from envs.core.data import DataError
from envs.core.dice import Dice
from envs.core.squaregrid import SquareGrid

from .options import CORE, FULL, RuleOptions, parse_options
from .preview import AttackPreview, in_reach, preview_attack
from .profile import Profile, Weapon, profile_of
from .setup import build
from .state import SYSTEM, MetaforceEncounter

__all__ = [
    "SYSTEM", "CORE", "FULL", "RuleOptions", "parse_options", "MetaforceEncounter",
    "new_encounter", "from_situation", "encounter_names", "stat_blocks", "build",
    "profile_of", "Profile", "Weapon", "preview_attack", "AttackPreview", "in_reach",
]


def stat_blocks() -> dict[str, Any]:
    """The stat-block catalogue (spec §13): catalogue name -> stat block."""
    from .catalogue import stat_blocks as blocks
    return dict(blocks())


def _encounters() -> dict[str, Any]:
    from .catalogue import encounters
    return dict(encounters())


def encounter_names() -> list[str]:
    """The presets of spec §13.3, in data order."""
    return list(_encounters())


_PRESETS: dict[Any, Any] = {}
"""``situation.preset_rows`` by preset name and options (with the catalogue entry it read)"""


def new_encounter(name: str, options: Any = None, dice: Dice | None = None
                  ) -> MetaforceEncounter:
    """A fresh fight of a named preset (spec §13.3): default deployment (§3.2) and initiative
    rolled with ``dice`` (seeded 0 when ``None``)."""
    from .situation import preset_mode, preset_rows
    encs = _encounters()
    if name not in encs:
        raise DataError(f"metaforce: unknown encounter {name!r}; known: {', '.join(encs)}")
    opts = parse_options(options)
    spec = encs[name]
    key = (name, opts)
    got = _PRESETS.get(key)
    if got is None or got[0] is not spec:  # profiles and grids are frozen: shared by fights
        if len(_PRESETS) > 256:
            _PRESETS.clear()
        got = _PRESETS[key] = (spec, preset_rows(spec, opts))
    rows, grid, mode = got[1]
    return build(rows, grid, preset_mode(opts, mode), name, dice)


def from_situation(data: dict[str, Any], source: str = "situation",
                   dice: Dice | None = None) -> MetaforceEncounter:
    """The encounter a situation mapping describes (docs/situations.md)."""
    from .situation import from_situation as read
    return read(data, source, dice)


_ = SquareGrid  # re-exported type of ``MetaforceEncounter.grid``
