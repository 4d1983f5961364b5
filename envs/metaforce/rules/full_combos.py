"""Appendages in FULL (spec §4.4, R-25, WE-38): a stat block's ``frame_combos`` (sets of its
attacks made together in one frame, e.g. ``[claw_left, claw_right]`` or ``[bite, claw]``), and
attacks that occupy more than the hands: a weapon's ``appendages`` naming ``legs`` allow no
movement in its frame, and a ``sweep`` weapon attacks every foe within its reach (the Saurian's
tail swipe occupies tail, legs and arms: it may not move, nor use its hands, in that frame).

``combo <k> -> <target>`` (FULL) makes every attack of combo ``k`` in list order, each one an
ordinary attack roll (a firearm fires one shot, a bow needs to be primed); a sweep weapon in it
hits every foe within its reach. A combo is made where the combatant stands (ENGINE: no
movement mode), and only at a target every one of its attacks reaches. Without ``frame_combos``
CORE's one main activity a frame applies; CORE reads neither list (R-25).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action

from .attack import in_range
from .combatant import Combatant
from .profile import Weapon

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["combo_actions", "combo_attacks", "sweep_targets", "legs_busy"]


def legs_busy(enc: MetaforceEncounter, w: Weapon) -> bool:
    """WE-38 (FULL): an attack that occupies the legs has no movement in its frame."""
    return enc.options.full and "legs" in w.appendages


def _ready(c: Combatant, w: Weapon) -> bool:
    if w.id in c.gone:
        return False
    if w.family == "firearm":
        return c.loaded.get(w.id, 0) > 0
    return w.family != "bow" or bool(c.primed.get(w.id))


def sweep_targets(enc: MetaforceEncounter, c: Combatant, w: Weapon) -> list[Combatant]:
    """Every foe on the field within ``w``'s reach, in roster order."""
    return [o for o in enc.combatants if o.side != c.side and o.alive and o.present
            and in_range(enc, c, w, o)]


def combo_actions(enc: MetaforceEncounter, c: Combatant, ts: list[Combatant]) -> list[Action]:
    """``combo <k> -> <target>`` for each combo whose attacks are all ready and reach it."""
    acts = []
    for k, combo in enumerate(c.profile.frame_combos):
        ws = [c.profile.weapon(wid) for wid in combo]
        if not all(_ready(c, w) for w in ws):
            continue
        acts += [Action(c.id, "combo", (str(k),), t.id) for t in ts
                 if all(in_range(enc, c, w, t) for w in ws)]
    return acts


def combo_attacks(enc: MetaforceEncounter, c: Combatant, k: int,
                  t: Combatant) -> list[tuple[Weapon, Combatant]]:
    """The attacks of combo ``k`` at ``t``: (weapon, target) in order, a sweep's at each foe."""
    out: list[tuple[Weapon, Combatant]] = []
    for wid in c.profile.frame_combos[k]:
        w = c.profile.weapon(wid)
        out += [(w, o) for o in sweep_targets(enc, c, w)] if w.sweep else [(w, t)]
    return out
