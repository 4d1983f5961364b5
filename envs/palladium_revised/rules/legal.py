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

from . import rulings
from .combatant import Combatant
from .full_state import stamina_cost
from .movement import MODES, destinations, reaches
from .profile import Arm
from .slots import RESERVED

if TYPE_CHECKING:
    from .state import PalladiumEncounter

__all__ = ["turn_actions", "strike_targets", "can_strike", "move_refs", "FREE_KINDS",
           "MAIN_KINDS"]

FREE_KINDS = ("step", "morale_boost", "drop")
MAIN_KINDS = ("wait", "defend", "rest", "closing_wounds", "strike", "move", "continue")


def can_strike(c: Combatant, w: Arm, t: Combatant) -> bool:
    """spec §5.1 row 1: in reach (melee) or range with ammunition (ranged)."""
    if w.ranged and w.ammo is not None and c.ammo.get(w.id, 0) <= 0:
        return False
    return reaches(w, c, c.dist(t))


def strike_targets(enc: PalladiumEncounter, c: Combatant) -> list[Combatant]:
    """spec §5.1 row 1: enemies that are not dead (a comatose one is Unaware)."""
    return [o for o in enc.combatants if o.side != c.side and o.alive]


def move_refs(enc: PalladiumEncounter, c: Combatant) -> list[Combatant]:
    """spec §5.1 row 2: any other living combatant."""
    return [o for o in enc.combatants if o.id != c.id and o.alive]


def _moves(enc: PalladiumEncounter, c: Combatant, kind: str, allowance: int) -> list[Action]:
    out: list[Action] = []
    if allowance < 1:
        return out
    for t in move_refs(enc, c):
        for mode, dest in zip(MODES, destinations(enc, c, t, allowance), strict=True):
            if mode == "edge" and t.side == c.side:
                continue  # EDGE: enemy only
            if dest != c.x:
                out.append(Action(c.id, kind, (mode,), t.id))
    return out


def turn_actions(enc: PalladiumEncounter, c: Combatant) -> list[Action]:
    """Every legal choice of ``c`` at its TURN or COMMITTED decision (spec §4.8)."""
    committed = c.slot_state[enc.turn_slot] == RESERVED
    used = enc.free_used
    acts: list[Action] = [Action(c.id, "wait")]
    if committed:
        acts.append(Action(c.id, "continue"))
    else:
        if "step" not in used:
            acts += _moves(enc, c, "step", c.step_budget)
        if "morale_boost" not in used and c.morale >= 1:
            acts.append(Action(c.id, "morale_boost"))
    if "drop" not in used and c.closing is not None:
        acts.append(Action(c.id, "drop", ("closing_wounds",)))
    acts += [Action(c.id, "defend"), Action(c.id, "rest")]
    if c.wounds >= 1:  # spec §5.1 row 7, env pruning: Wounds >= 1
        acts += [Action(c.id, "closing_wounds", (str(x),))
                 for x in range(1, rulings.CLOSING_WOUNDS_MAX + 1)
                 if c.stamina >= stamina_cost(c, x)]
    for t in strike_targets(enc, c):
        acts += [Action(c.id, "strike", (w.id,), t.id) for w in c.profile.weapons
                 if can_strike(c, w, t)]
    acts += _moves(enc, c, "move", c.full_move_ft())
    if enc.options.full:  # FULL actions and the Prone/Stand limits (full_actions.adjust)
        from .full_actions import adjust
        acts = adjust(enc, c, acts, committed)
    return acts
