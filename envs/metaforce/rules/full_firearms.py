"""FULL firearms (spec §5.5, §5.6, R-32; §12.3): armour-piercing rounds and the expert
shooter's reload-and-shoot frame.

* **Armour-piercing rounds** (``armour_piercing`` on the gun): they ignore bullet resistance,
  up to what it would remove, so against ``bullet_resistant`` armour they hit as any firearm
  hits ordinary armour (R-31: direct at ToHit >= E, no armour Resistance; innate Resistances
  still apply).
* **An expert shooter** (proficient with the gun, spec §5.6, and Expertise in its Attribute):
  ``reload_fire <gun> [mode] -> <target>`` unloads and reloads (a magazine) or loads one frame's
  rounds (a gun loaded a few rounds at a time) and fires **one** Quickened shot in the same
  frame (R-32); a plain Reload of a few-at-a-time gun loads twice the rounds.

CORE has neither.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from .combatant import Combatant
from .profile import Profile, Weapon

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["piercing", "defender_profile", "expert", "expert_actions", "reload_fire"]


def piercing(enc: MetaforceEncounter, w: Weapon, t: Combatant) -> bool:
    """spec §5.5: an armour-piercing round against bullet-resistant armour (FULL)."""
    return enc.options.full and w.armour_piercing and w.family == "firearm" \
        and t.profile.bullet_resistant


def defender_profile(enc: MetaforceEncounter, w: Weapon, t: Combatant) -> Profile:
    """The profile the defender pipeline reads: without bullet resistance against a piercing
    round."""
    return replace(t.profile, bullet_resistant=False) if piercing(enc, w, t) else t.profile


def expert(enc: MetaforceEncounter, c: Combatant, w: Weapon) -> bool:
    """spec §5.6: proficient with the gun and expert in its Attribute (FULL)."""
    if not enc.options.full or w.family != "firearm":
        return False
    from .arms import reload_proficient
    return reload_proficient(c, w) and w.attr in c.profile.expertise


def expert_actions(enc: MetaforceEncounter, c: Combatant, speed: int) -> list[Action]:
    """``reload_fire <gun> [mode] -> <target>`` for every gun it can reload and every enemy in
    range at the point of the shot."""
    acts: list[Action] = []
    if not enc.options.full:
        return acts  # no expert without FULL
    from .arms import can_reload
    from .attack import range_squares, stop_squares
    from .legal import _aimed, targets
    for w in c.weapons():
        if expert(enc, c, w) and can_reload(c, w):
            for t in targets(enc, c):
                acts += _aimed(enc, c, "reload_fire", (w.id,), t, range_squares(enc, c, w),
                               stop_squares(enc, c, w), speed)
    return acts


def reload_fire(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant, w: Weapon,
                t: Combatant) -> None:
    """R-32: Unload + Reload, then one Quickened shot (the first shot's state)."""
    from .arms import fire, reload
    reload(enc, ev, c, w, quick=True)
    if c.loaded.get(w.id, 0) > 0 and t.alive:
        fire(enc, ctx, ev, c, w, t, 1)
