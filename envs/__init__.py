"""Tabletop combat systems as PettingZoo environments: the registry and the system contract.

``SYSTEMS`` is the only list of systems (STYLE C14): every CLI, test and tool enumerates it. Each
entry is a ``SystemEntry``, a typed record of every part a system provides (DESIGN.md, "The system
contract"): its rules module (a module that meets ``RulesModule``), its env module and encoding, its
heuristic, state invariants and spec, and the optional shaping, renderer (a map picture), starter
(the fields of ``arena situation new``) and text map. Parts are named by path (``package.module``
or ``package.module:attribute``) and imported lazily, so reading the registry imports no RL
library. ``tests/test_contract.py`` checks every entry against the contract.

A system only for the tests (the toy game) is added with ``register(entry)``; ``tests/conftest.py``
does so, and ``SYSTEMS`` then lists it like any other.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "SYSTEMS",
    "SystemEntry",
    "RulesModule",
    "StateInvariants",
    "get_rules",
    "get_env_module",
    "get_encoding",
    "get_heuristic",
    "get_invariants",
    "get_shaping",
    "weighted_shaping",
    "get_renderer",
    "get_starter",
    "get_text_map",
    "get_describe",
    "get_balance",
    "get_campaign",
    "describe_action",
    "make_env",
    "list_systems",
    "load_part",
    "register",
    "unregister",
]

StateInvariants = Callable[[Any], None]
"""``invariants(enc)``: raises ``AssertionError`` (naming the combatant and the value) when the
state of an encounter breaks a rule of its system; returns ``None`` otherwise."""


@runtime_checkable
class RulesModule(Protocol):
    """What every tool calls on ``get_rules(system)`` (eval/, agents/, train.py, envs/rl, cases).

    ``options`` below is a rule-set name (``"core"``, ``"full"``), a mapping of option values, an
    options object or ``None`` (the system's default); ``parse_options`` turns any of them into the
    system's options object, whose ``round_limit`` is the round cap.
    """

    SYSTEM: str
    """the system id (``metanoia``), equal to the registry key"""

    def encounter_names(self) -> list[str]:
        """The named encounters of the system's data, in a fixed order."""
        ...

    def new_encounter(self, encounter: str, options: Any = None, dice: Any = None) -> Any:
        """A fresh ``envs.core.Encounter`` of that name (``dice`` rolls the setup)."""
        ...

    def from_situation(
        self, data: dict[str, Any], source: str = "situation", dice: Any = None
    ) -> Any:
        """The encounter a situation mapping describes (``DataError`` naming ``source`` if bad)."""
        ...

    def parse_options(self, value: Any) -> Any:
        """The options object of a rule-set name, mapping or object (``ValueError`` if bad)."""
        ...

    def stat_blocks(self) -> dict[str, Any]:
        """The stat-block catalogue: catalogue name -> stat block."""
        ...


RULES_MEMBERS: tuple[str, ...] = (
    "SYSTEM",
    "encounter_names",
    "new_encounter",
    "from_situation",
    "parse_options",
    "stat_blocks",
)
"""The members of ``RulesModule``, in the order the contract test reports them."""


@dataclass(frozen=True)
class SystemEntry:
    """Where every part of one system lives (paths are imported only when a part is asked for).

    Attributes:
        name: system id (``metanoia``); also the key in ``SYSTEMS``.
        rules: module path of the pure rules engine; the module meets ``RulesModule``.
        env: module path of the PettingZoo env module (``raw_env``, ``env``, ``ENCODING``).
        encoding: ``module:attribute`` of the ``envs.rl.SystemEncoding`` (action layout and
            observation spec).
        heuristic: ``module:Class`` of the scripted agent (an ``agents.base.RulesPolicy``), built as
            ``Class(seed)``.
        invariants: ``module:function`` of the state invariants (``StateInvariants``) that the
            property tests and ``arena soak`` check after every ``apply``.
        describe: ``module:function`` ``describe(action, view) -> str``: the action in plain words
            for a person ("step toward the Guard (east)"), where ``view`` is the encounter the
            action is legal in (read only); ``suggest``, ``play`` and replay captions show it.
        spec: the rules page of the system in this repository (``docs/rules/<system>.md``), which
            cites the sections of the combat spec it implements.
        shaping: ``module:attribute`` of the optional shaped reward, ``SHAPING(weight)``, or
            ``None`` when the system has none.
        renderer: ``module:function`` of the optional map picture, ``draw(enc, caption)``, or
            ``None`` for a system without a map.
        starter: ``module:attribute`` of the optional starter object of ``arena situation new``
            (an ``envs.core.starter.CombatantStarter`` or ``FileStarter``: the fields of the
            system's situation files), or ``None``: a starter with the shared fields only.
        text_map: ``module:function`` of the optional map as text, ``text_map(enc, viewer) ->
            list[str]`` (``viewer=None``: as the GM sees it), which ``arena play`` and ``arena
            situation check`` print; ``None``: no map lines.
        balance: module path of the optional names of options for ``arena balance``
            (``envs/<system>/balance.py``): ``option_keys(enc, action) -> tuple[str, ...]``, the
            options an action uses (``("family:attack", "weapon:greatsword")``), and optionally
            ``combatant_options(enc, cid)``, every option a combatant has; ``None``: the generic
            names of ``eval.balance_options`` (the action's kind, and its first argument).
        campaign: module path of the optional part of ``arena campaign`` (several fights in a
            row, rests between them; ``envs/<system>/campaign.py``): ``carry(enc, cid) ->
            (standing, state)``, ``standing`` one of ``fit``, ``down`` (alive, cannot fight now)
            and ``dead``, ``state`` the situation ``state`` a next fight starts ``cid`` with; and
            ``rest(enc, cid, spec, dice) -> events``, a rest (``"short 30"``) of ``cid`` after
            the fight ``enc``; and ``health(enc, cid) -> (hp, hp_max)``; ``None``: the system
            has no campaigns.
        test_only: a system registered only for the tests (the toy game).
    """

    name: str
    rules: str
    env: str
    encoding: str
    heuristic: str
    invariants: str
    describe: str
    spec: str
    shaping: str | None = None
    renderer: str | None = None
    starter: str | None = None
    text_map: str | None = None
    balance: str | None = None
    campaign: str | None = None
    test_only: bool = False

    @classmethod
    def parts(cls) -> list[str]:
        """The names of the record's fields, in order."""
        return [f.name for f in fields(cls)]


SYSTEMS: dict[str, SystemEntry] = {
    "metanoia": SystemEntry(
        name="metanoia",
        rules="envs.metanoia.rules",
        env="envs.metanoia.env",
        encoding="envs.metanoia.encoding:ENCODING",
        heuristic="agents.heuristic.metanoia:MetanoiaHeuristic",
        invariants="envs.metanoia.invariants:state_invariants",
        describe="envs.metanoia.rules.describe:describe",
        spec="docs/rules/metanoia.md",
        shaping="envs.metanoia.env:SHAPING",
        starter="envs.metanoia.starter:STARTER",
    ),
    "mano_a_mano": SystemEntry(
        name="mano_a_mano",
        rules="envs.mano_a_mano.rules",
        env="envs.mano_a_mano.env",
        encoding="envs.mano_a_mano.encoding:ENCODING",
        heuristic="agents.heuristic.mano_a_mano:ManoHeuristic",
        invariants="envs.mano_a_mano.invariants:state_invariants",
        describe="envs.mano_a_mano.rules.describe:describe",
        spec="docs/rules/mano_a_mano.md",
        shaping="envs.mano_a_mano.env:SHAPING",
        renderer="envs.mano_a_mano.env:draw",
        starter="envs.mano_a_mano.starter:STARTER",
        text_map="envs.mano_a_mano.textmap:text_map",
        balance="envs.mano_a_mano.balance",
    ),
    "sizebound": SystemEntry(
        name="sizebound",
        rules="envs.sizebound.rules",
        env="envs.sizebound.env",
        encoding="envs.sizebound.encoding:ENCODING",
        heuristic="agents.heuristic.sizebound:SizeboundHeuristic",
        invariants="envs.sizebound.invariants:state_invariants",
        describe="envs.sizebound.rules.describe:describe",
        spec="docs/rules/sizebound.md",
        shaping="envs.sizebound.env:SHAPING",
        renderer="envs.sizebound.env:draw",
        starter="envs.sizebound.starter:STARTER",
        text_map="envs.sizebound.textmap:text_map",
        balance="envs.sizebound.balance",
    ),
    "metaforce": SystemEntry(
        name="metaforce",
        rules="envs.metaforce.rules",
        env="envs.metaforce.env",
        encoding="envs.metaforce.encoding:ENCODING",
        heuristic="agents.heuristic.metaforce:MetaforceHeuristic",
        invariants="envs.metaforce.invariants:state_invariants",
        describe="envs.metaforce.describe:describe",
        spec="docs/rules/metaforce.md",
        shaping="envs.metaforce.env:SHAPING",
        renderer="envs.metaforce.env:draw",
        starter="envs.metaforce.starter:STARTER",
        text_map="envs.metaforce.textmap:text_map",
        balance="envs.metaforce.balance",
        campaign="envs.metaforce.campaign",
    ),
    "palladium_revised": SystemEntry(
        name="palladium_revised",
        rules="envs.palladium_revised.rules",
        env="envs.palladium_revised.env",
        encoding="envs.palladium_revised.encoding:ENCODING",
        heuristic="agents.heuristic.palladium_revised:PalladiumHeuristic",
        invariants="envs.palladium_revised.invariants:state_invariants",
        describe="envs.palladium_revised.describe:describe",
        spec="docs/rules/palladium_revised.md",
        shaping="envs.palladium_revised.env:SHAPING",
        renderer="envs.palladium_revised.env:draw",
        starter="envs.palladium_revised.starter:STARTER",
        text_map="envs.palladium_revised.textmap:text_map",
        balance="envs.palladium_revised.balance",
    ),
}


def register(entry: SystemEntry) -> None:
    """Add ``entry`` to ``SYSTEMS`` (tests add the toy game this way); replaces one of its name."""
    SYSTEMS[entry.name] = entry


def unregister(name: str) -> None:
    """Remove a system added with ``register`` (no error when it is not there)."""
    SYSTEMS.pop(name, None)


def list_systems(*, include_test_only: bool = True) -> list[str]:
    """The registered system ids (without the test-only ones when asked)."""
    return [s for s, e in SYSTEMS.items() if include_test_only or not e.test_only]


def _entry(system: str) -> SystemEntry:
    try:
        return SYSTEMS[system]
    except KeyError:
        raise ValueError(f"unknown system {system!r}; known: {', '.join(SYSTEMS)}") from None


def load_part(path: str) -> Any:
    """The object a registry path names: ``pkg.mod`` (the module) or ``pkg.mod:attr``."""
    module, _, attr = path.partition(":")
    mod = importlib.import_module(module)
    return getattr(mod, attr) if attr else mod


def _part(system: str, part: str) -> Any:
    path = getattr(_entry(system), part)
    return None if path is None else load_part(path)


def get_rules(system: str) -> ModuleType:
    """The rules module of ``system`` (pure Python)."""
    return importlib.import_module(_entry(system).rules)


def get_env_module(system: str) -> ModuleType:
    """The env module of ``system`` (imports PettingZoo)."""
    return importlib.import_module(_entry(system).env)


def get_encoding(system: str) -> Any:
    """The ``SystemEncoding`` of ``system`` (imports numpy and gymnasium)."""
    return _part(system, "encoding")


def get_heuristic(system: str) -> type:
    """The heuristic agent class of ``system`` (build it as ``cls(seed)``)."""
    return _part(system, "heuristic")


def get_invariants(system: str) -> StateInvariants:
    """The state invariants of ``system``: ``invariants(enc)`` raises ``AssertionError``."""
    return _part(system, "invariants")


def get_shaping(system: str) -> Any:
    """The optional shaping factory of ``system`` (``SHAPING(weight)``), or ``None``."""
    return _part(system, "shaping")


def weighted_shaping(system: str, weight: float) -> Any:
    """``system``'s shaping at ``weight`` (the env's ``shaping=`` argument for a training config's
    ``shaping: w``); ``ValueError`` when the system has none."""
    factory = get_shaping(system)
    if factory is None:
        raise ValueError(f"{system} has no shaping to weight (its registry entry names none)")
    return factory(weight)


def get_renderer(system: str) -> Any:
    """The optional picture function of ``system`` (``draw(enc, caption)``), or ``None``."""
    return _part(system, "renderer")


def get_starter(system: str) -> Any:
    """The optional starter object of ``system`` (``arena situation new``'s fields), or ``None``."""
    return _part(system, "starter")


def get_text_map(system: str) -> Callable[[Any, str | None], list[str]] | None:
    """The optional text map of ``system`` (``text_map(enc, viewer) -> list[str]``), or ``None``."""
    return _part(system, "text_map")


def get_balance(system: str) -> Any:
    """The optional option-names module of ``system`` (``option_keys``), or ``None``."""
    return _part(system, "balance")


def get_campaign(system: str) -> Any:
    """The optional campaign part of ``system`` (``carry``, ``rest``), or ``None``."""
    return _part(system, "campaign")


def get_describe(system: str) -> Callable[[Any, Any], str]:
    """The plain-words function of ``system``: ``describe(action, view) -> str``."""
    return _part(system, "describe")


def describe_action(enc: Any, action: Any) -> str:
    """``action`` (legal in ``enc``) in plain words, by ``enc.system``'s ``describe`` part."""
    return _part(enc.system, "describe")(action, enc)


def make_env(
    system: str, encounter: str | None = None, *, wrapped: bool = True, **kwargs: Any
) -> Any:
    """Build the AEC env of ``system`` on ``encounter`` (default: the system's first encounter).

    ``wrapped=False`` returns the raw env (illegal actions raise instead of ending the game).
    Other keyword arguments go to the env (``rules="core"``, ``render_mode="ansi"``, ...).
    """
    module = get_env_module(system)
    factory = module.env if wrapped else module.raw_env
    return factory(encounter=encounter, **kwargs)


def missing_rules_members(module: Any, members: Sequence[str] = RULES_MEMBERS) -> list[str]:
    """The ``RulesModule`` members that ``module`` lacks (or that are not callable)."""
    out = []
    for name in members:
        value = getattr(module, name, None)
        if value is None or (name != "SYSTEM" and not callable(value)):
            out.append(name)
    return out
