"""FULL Morale purchases (spec §6.3, §6.4, §5.1 rows 16 and 19, R27, R53): the SAVE decision
(1 Morale for +2 before a Save), the POST_ROLL decision (1 Morale for +1 after a roll, offered
only when the +1 changes the outcome; the acting roller first, then the defender), the free
action Morale -> S.E., and Escape.

Windows: ``save`` and ``post_roll`` ask ``<id>: spend_morale`` or ``<id>: pass``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from . import rulings
from .combatant import OUT, Combatant
from .economy import spend_morale
from .events import MoraleAdded, PoolChanged, StateChanged

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["ask_morale", "save_boost", "post_roll_contest", "post_roll_strike",
           "strike_outcome", "morale_to_se", "can_escape", "escape"]

POST_ROLL = 1  # spec §6.4: +1 per Morale after a roll, once per roll


def ask_morale(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], c: Combatant, phase: str,
               info: dict[str, Any]) -> bool:
    """Ask ``c`` the SAVE or POST_ROLL question; True (and 1 Morale paid) on ``spend_morale``."""
    if not c.active or c.morale < 1:
        return False
    opts = [Action(c.id, "spend_morale"), Action(c.id, "pass")]
    if ctx.ask(c.id, phase, opts, info).kind != "spend_morale":
        return False
    spend_morale(ev, c, phase.replace("_", "-"))
    return True


def save_boost(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], t: Combatant, save: str,
               actor: str, check: int) -> int:
    """spec §6.3: the SAVE phase before ``t``'s Save (``+2`` flat when it spends Morale)."""
    if not enc.options.save_phase:
        return 0
    info = {"save": save, "against": actor, "check": check}
    if ask_morale(enc, ctx, ev, t, "save", info):
        ev.append(MoraleAdded(t.id, "save", rulings.MORALE_PRE_ROLL, rulings.MORALE_PRE_ROLL))
        return rulings.MORALE_PRE_ROLL
    return 0


def post_roll_contest(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], actor: Combatant,
                      a: int, target: Combatant, t: int, kind: str,
                      target_rolled: bool = True) -> tuple[int, int]:
    """spec §6.4: an opposed check (ties to the defender): the actor may add +1 when its total
    equals the defender's, then the defender when its total is exactly 1 lower."""
    if not enc.options.post_roll:
        return a, t
    if a == t and ask_morale(enc, ctx, ev, actor, "post_roll",
                             {"roll": kind, "own": a, "other": t}):
        a += POST_ROLL
        ev.append(MoraleAdded(actor.id, "post_roll", POST_ROLL, a))
    if target_rolled and t == a - 1 and ask_morale(enc, ctx, ev, target, "post_roll",
                                                   {"roll": kind, "own": t, "other": a}):
        t += POST_ROLL
        ev.append(MoraleAdded(target.id, "post_roll", POST_ROLL, t))
    return a, t


def strike_outcome(s0: int, dodge: int | None, parry: int | None, miss_at: int, ar: int,
                   armour: bool) -> tuple[bool, bool, str]:
    """spec §5.2 steps 5-7 as ``(hit, mitigated, layer)`` (``armour``: armour S.D.C. > 0)."""
    s1 = max(0, s0 - dodge) if dodge is not None else s0
    if s1 <= miss_at:
        return False, False, "-"
    mitigated = parry is not None and parry > s0
    s2 = max(0, s1 - parry) if parry is not None else s1
    layer = "armour" if armour and (mitigated or s2 <= ar) else "body"
    return True, mitigated, layer


def post_roll_strike(enc: PalladiumEncounter, ctx: Ctx, ev: list[Event], a: Combatant,
                     t: Combatant, s0: int, dodge: int | None, parry: int | None,
                     miss_at: int, defender_rolled: bool, attacker: bool = True
                     ) -> tuple[int, int | None, int | None]:
    """spec §6.4 for a Strike or spell strike: returns ``(S0, D, P)`` after the purchases;
    ``attacker=False``: the roller may not buy (a retargeted shot, spec §5.2.2)."""
    if not enc.options.post_roll:
        return s0, dodge, parry
    def out(s: int, dd: int | None, pp: int | None) -> tuple[bool, bool, str]:
        return strike_outcome(s, dd, pp, miss_at, t.profile.ar, t.armor_sdc > 0)

    now = out(s0, dodge, parry)
    if attacker and out(s0 + 1, dodge, parry) != now and ask_morale(
            enc, ctx, ev, a, "post_roll", {"roll": "strike", "own": s0, "target": t.id}):
        s0 += POST_ROLL
        ev.append(MoraleAdded(a.id, "post_roll", POST_ROLL, s0))
        now = out(s0, dodge, parry)
    if not defender_rolled:
        return s0, dodge, parry
    if dodge is not None:
        if out(s0, dodge + 1, parry) != now and ask_morale(
                enc, ctx, ev, t, "post_roll", {"roll": "dodge", "own": dodge, "other": s0}):
            dodge += POST_ROLL
            ev.append(MoraleAdded(t.id, "post_roll", POST_ROLL, dodge))
    elif parry is not None:
        if out(s0, dodge, parry + 1) != now and ask_morale(
                enc, ctx, ev, t, "post_roll", {"roll": "parry", "own": parry, "other": s0}):
            parry += POST_ROLL
            ev.append(MoraleAdded(t.id, "post_roll", POST_ROLL, parry))
    return s0, dodge, parry


def morale_to_se(ev: list[Event], c: Combatant) -> None:
    """spec §5.1 row 16, §9.2: 1 Morale restores ``floor(5% x se_max)`` S.E."""
    spend_morale(ev, c, "morale to S.E.")
    gain = min(c.profile.se_max * 5 // 100, c.profile.se_max - c.fx.se)
    c.fx.se += gain
    ev.append(PoolChanged(c.id, "se", gain, c.fx.se, "morale"))


def can_escape(enc: PalladiumEncounter, c: Combatant) -> bool:
    """spec §5.1 row 19, R53: at its own home edge and outside every enemy Zone of Control."""
    edge = 0 if enc.home[c.side] < 0 else enc.options.arena_length
    if c.x != edge:
        return False
    return not any(e.side != c.side and e.active and e.dist(c) <= e.profile.zoc_radius
                   for e in enc.combatants)


def escape(enc: PalladiumEncounter, ev: list[Event], c: Combatant) -> None:
    """The combatant leaves the fight (state OUT, spec §7.1): not defeated, no longer active."""
    from .damage import abandon
    from .slots import AVAILABLE, LOST, RESERVED
    abandon(ev, c, "escape")
    c.state = OUT
    ev.append(StateChanged(c.id, OUT))
    c.multidodge, c.md_back, c.defending, c.resting = None, None, False, False
    for i, st in enumerate(c.slot_state):
        if st in (AVAILABLE, RESERVED):
            c.slot_state[i] = LOST
