"""Building an encounter (spec §3.1-§3.3): combatants on the battle line with full pools, the
start-of-fight state check, then the clock runs to the first decision (round 1 initiative)."""

from __future__ import annotations

from collections.abc import Sequence

from envs.core.dice import Dice, SeededDice
from envs.core.events import Event

from .combatant import Combatant
from .options import RuleOptions
from .profile import Profile
from .state import PalladiumEncounter
from .turns import state_check

__all__ = ["Row", "build"]

Row = tuple[str, str, Profile, int]
"""``(id, side, profile, x)`` in roster order."""


def build(rows: Sequence[Row], options: RuleOptions, name: str = "custom",
          dice: Dice | None = None, overrides: dict[str, dict[str, int]] | None = None,
          ambush: str | None = None) -> PalladiumEncounter:
    """A fresh fight; ``overrides`` sets starting pools (spec §3.3 ``start_overrides``, e.g.
    ``{"sellsword_1": {"stamina": 22}}``) before the state check. FULL: ``ambush`` names the
    ambushing side (spec §3.5); ``ee``/``se`` overrides set the energy pools."""
    dice = dice if dice is not None else SeededDice(0)
    cs = [Combatant(cid, side, p, x) for cid, side, p, x in rows]
    enc = PalladiumEncounter(cs, options, name)
    enc.ambush = ambush
    for c in cs:  # FULL, spec §2.1, R43
        c.fx.no_pe = options.no_pe_beings and not c.profile.has_pe
    for cid, values in (overrides or {}).items():
        for key, value in values.items():
            setattr(enc.by_id[cid].fx if key in ("ee", "se") else enc.by_id[cid], key, value)
    ev: list[Event] = []
    for c in cs:  # spec §3.3: the state check runs once after setup
        if overrides and c.id in overrides:
            from .damage import update_health
            update_health(enc, ev, c)  # §7.1: an override of H.P. <= 0 is a Coma (or death)
        state_check(ev, c)
    enc.start_events = ev + enc.start(dice)
    return enc
