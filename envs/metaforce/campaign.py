"""Metaforce's part for ``arena campaign`` (spec §12.3 FULL: multi-encounter campaigns with Rest
between fights, §9.5): what a party member carries from one fight to the next, and its rests.

``carry(enc, cid)`` is ``(standing, state)``: ``dead`` (out of the campaign), ``down`` (alive but
unable to fight now: HP 0 or less, or Exert over its limit; a rest may bring it back) or ``fit``,
and the situation ``state`` the next fight starts it with: HP, MP and Max MP (Deus Ex lowers it,
R-43), Exert, Rest Points, Deus Ex and Force Fate uses. Statuses end with the encounter (spec
§7.4: "a cure or the end of the encounter"), Tension, tapped mana, Safe-6 and the other effects
of a fight too. ``rest(enc, cid, spec, dice)``: a rest of ``spec`` (``"short 30"``, ``"short 60 rp
2"``, ``"long 8"``, ``"long 6 harsh"``: ``rules.rest``) for ``cid`` on the fight it ended.
``health(enc, cid)``: ``(HP, Max HP)``.
"""

from __future__ import annotations

from typing import Any

from envs.core.dice import Dice
from envs.core.events import Event

from .rules.combatant import ACTIVE
from .rules.rest import rest_event

__all__ = ["carry", "rest", "health"]


def carry(enc: Any, cid: str) -> tuple[str, dict[str, int]]:
    c = enc.by_id[cid]
    if c.state == "dead":
        return "dead", {}
    fit = (c.state in (ACTIVE, "retreated") and c.hp > 0
           and c.exert <= c.profile.exert_limit)
    state = {"hp": max(1, min(c.hp, c.profile.hp_max)), "mp": min(c.mp, c.mp_max),
             "mp_max": c.mp_max, "exert": c.exert, "rp": c.rp,
             "deus_ex_uses": c.deus_ex_uses, "force_fate_uses": c.ff_uses}
    return ("fit" if fit else "down"), state


def health(enc: Any, cid: str) -> tuple[int, int]:
    """``(HP, Max HP)`` of ``cid`` (what the campaign report's "HP left" adds up)."""
    c = enc.by_id[cid]
    return c.hp, c.profile.hp_max


def rest(enc: Any, cid: str, spec: str, dice: Dice) -> list[Event]:
    words = spec.split()
    if not words:
        raise ValueError("a rest needs a kind and a length ('short 30', 'long 8')")
    return rest_event(enc.by_id, " ".join(["rest", words[0], cid, *words[1:]]), dice)
