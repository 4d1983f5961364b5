"""Legal actions of a turn (spec §4.7, §4.8, §5.1 preconditions): one ``Action`` per choice,
each with a canonical label (grammar in ``labels``). The off-turn windows build their options
where they are asked (``strike.defense_options``, ``movement`` opportunity Strikes).

TURN: the free actions not yet used this turn (``step <mode> -> <ref>``, ``morale_boost``,
``drop closing_wounds``) and the main actions (``wait``, ``defend``, ``rest``,
``closing_wounds <X>``, ``strike <weapon> -> <enemy>``, ``move <mode> -> <ref>``).
COMMITTED: ``continue``, ``drop closing_wounds`` and every main action (which abandons).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.actions import shared_action as act

from . import rulings
from .combatant import Combatant
from .full_state import stamina_cost
from .movement import MODES, destinations, reaches
from .profile import Arm
from .slots import RESERVED

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["turn_actions", "strike_targets", "can_strike", "move_refs", "FREE_KINDS",
           "MAIN_KINDS", "act"]

FREE_KINDS = ("step", "morale_boost", "drop")
MAIN_KINDS = ("wait", "defend", "rest", "closing_wounds", "strike", "move", "continue")


def can_strike(c: Combatant, w: Arm, t: Combatant, spent: bool = False) -> bool:
    """spec §5.1 row 1: in reach (melee) or range with ammunition (ranged). ``spent``: the
    Strike's ammunition is already paid (spec §5.2: "when declared"), so only the range counts:
    a redirect (steps 1-2) or a commitment's re-check (§4.7) of the last arrow or knife."""
    if not spent and w.ranged and w.ammo is not None and c.ammo.get(w.id, 0) <= 0:
        return False
    return reaches(w, c, c.dist(t))


def strike_targets(enc: PalladiumEncounter, c: Combatant) -> list[Combatant]:
    """spec §5.1 row 1: enemies that are not dead (a comatose one is Unaware)."""
    return [o for o in enc.combatants if o.side != c.side and o.alive]


def move_refs(enc: PalladiumEncounter, c: Combatant) -> list[Combatant]:
    """spec §5.1 row 2: any other living combatant."""
    return [o for o in enc.combatants if o.id != c.id and o.alive]


_ARGS = tuple((m,) for m in MODES)
"""the args of a move of each mode, in ``MODES`` order (engage, close, edge, away)"""


def _moves(enc: PalladiumEncounter, c: Combatant, kind: str, allowance: int) -> list[Action]:
    out: list[Action] = []
    if allowance < 1:
        return out
    if enc.options.in_water:  # spec §8.9: +1 Stamina a Full Move or Step; §9.1: a cost that
        from .full_state import stamina_cost  # cannot be paid is not offered
        if c.stamina < stamina_cost(c, 1):
            return out
    cid, x, own = c.id, c.x, c.side
    engage_a, close_a, edge_a, away_a = _ARGS
    for t in move_refs(enc, c):
        engage, close, edge, away = destinations(enc, c, t, allowance)
        tid = t.id
        if engage != x:
            out.append(act(cid, kind, engage_a, tid))
        if close != x:
            out.append(act(cid, kind, close_a, tid))
        if edge != x and t.side != own:  # EDGE: enemy only
            out.append(act(cid, kind, edge_a, tid))
        if away != x:
            out.append(act(cid, kind, away_a, tid))
    return out


def turn_actions(enc: PalladiumEncounter, c: Combatant) -> list[Action]:
    """Every legal choice of ``c`` at its TURN or COMMITTED decision (spec §4.8)."""
    committed = c.slot_state[enc.turn_slot] == RESERVED
    used = enc.free_used
    cid = c.id
    acts: list[Action] = [act(cid, "wait")]
    if committed:
        acts.append(act(cid, "continue"))
    else:
        if "step" not in used:
            acts += _moves(enc, c, "step", c.step_budget)
        if "morale_boost" not in used and c.morale >= 1:
            acts.append(act(cid, "morale_boost"))
    if "drop" not in used and c.closing is not None:
        acts.append(act(cid, "drop", ("closing_wounds",)))
    acts += [act(cid, "defend"), act(cid, "rest")]
    if c.wounds >= 1:  # spec §5.1 row 7, env pruning: Wounds >= 1
        acts += [act(cid, "closing_wounds", (str(x),))
                 for x in range(1, rulings.CLOSING_WOUNDS_MAX + 1)
                 if c.stamina >= stamina_cost(c, x)]
    weapons = c.profile.weapons
    for t in strike_targets(enc, c):
        acts += [act(cid, "strike", (w.id,), t.id) for w in weapons if can_strike(c, w, t)]
    acts += _moves(enc, c, "move", c.full_move_ft())
    if enc.options.full:  # FULL actions and the Prone/Stand limits (full_actions.adjust)
        from .full_actions import adjust
        acts = adjust(enc, c, acts, committed)
    return acts
