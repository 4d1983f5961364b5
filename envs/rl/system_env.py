"""``SystemEnv`` (the raw env of one registered system, built from its rules module and encoding)
and ``env_factory`` (the standard PettingZoo wrappers around a raw env class); the generic env
itself is ``envs.rl.base_env.CombatAECEnv``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .base_env import CombatAECEnv, Shaping

__all__ = ["SystemEnv", "env_factory"]


class SystemEnv(CombatAECEnv):
    """The raw env of one registered system: a subclass names its rules module and encoding.

    ``raw_env(encounter=None, rules="full", render_mode=None, shaping=None)``: ``encounter`` is one
    of ``rules_module.encounter_names()`` (default ``default_encounter``), ``rules`` goes through
    ``rules_module.parse_options``, and ``shaping=True`` uses ``default_shaping()`` when the system
    has one. The rules module provides ``encounter_names``, ``parse_options``, ``new_encounter`` and
    ``from_situation``. A subclass that sets ``renderer`` (e.g. ``staticmethod(draw)``) also offers
    ``render_mode="rgb_array"``; the frames' titles start with the encounter's name. The toy's
    env module (``envs/toy/env.py``) is the whole of it::

        class raw_env(SystemEnv):
            metadata = {"render_modes": ["ansi"], "name": ENCODING.name, "is_parallelizable": False}
            rules_module = rules
            system_encoding = ENCODING
            default_encounter = "duel"

        env = env_factory(raw_env)

    A generic env over an encounter factory of one's own subclasses ``CombatAECEnv`` directly and
    calls ``super().__init__(encoding, new_encounter, from_situation=..., render_mode=...,
    shaping=...)``.
    """

    rules_module: Any = None
    system_encoding: Any = None
    default_encounter: str = ""

    def default_shaping(self) -> Shaping | None:
        """The system's shaping for ``shaping=True`` (none by default)."""
        return None

    def __init__(
        self,
        encounter: str | None = None,
        rules: Any = "full",
        render_mode: str | None = None,
        shaping: Any = None,
    ) -> None:
        R = self.rules_module
        self.encounter_name = encounter or self.default_encounter
        if self.encounter_name not in R.encounter_names():
            raise ValueError(
                f"unknown {R.SYSTEM} encounter {self.encounter_name!r}; "
                f"known: {', '.join(R.encounter_names())}"
            )
        self.rule_options = R.parse_options(rules)
        if shaping is True:
            shaping = self.default_shaping()
        super().__init__(
            self.system_encoding,
            lambda dice, _options: R.new_encounter(self.encounter_name, self.rule_options, dice),
            from_situation=R.from_situation,
            render_mode=render_mode,
            shaping=shaping or None,
        )

    def render_caption(self) -> str:
        """The encounter's name starts an ``rgb_array`` frame's title."""
        return self.encounter_name


def env_factory(raw_cls: type[CombatAECEnv]) -> Callable[..., AECEnv]:
    """A factory ``env(**kwargs)`` that builds ``raw_cls(**kwargs)`` inside the standard wrappers.

    The stack is ``TerminateIllegalWrapper(illegal_reward=-1)`` (an illegal index ends the game
    with -1 for the offender), ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``
    (STYLE C11, C13).
    """

    def env(**kwargs: Any) -> AECEnv:
        e: AECEnv = raw_cls(**kwargs)
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
        e = wrappers.AssertOutOfBoundsWrapper(e)
        return wrappers.OrderEnforcingWrapper(e)

    env.__doc__ = (
        f"``{raw_cls.__name__}`` wrapped for training: illegal index -> -1 and game over; "
        "order enforced."
    )
    env.__qualname__ = env.__name__ = "env"
    return env
