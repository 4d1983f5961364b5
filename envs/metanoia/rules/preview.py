"""Odds from the rules: costs, pools, landings and the preview of an action (spec §2.3-§2.4,
§5.2-§5.6; RULINGS R8, R10, R13, R14, R17, R18, R19, R32, R40).

The engine resolves with these functions and agents read the same numbers through
``MetanoiaEncounter.preview(action, reaction, viewer)``, so a heuristic's odds cannot drift from
the rules:

* ``strain_cost`` / ``price``: what a declaration costs in Strain and in Fuel stacks;
* ``pool``: the dice of one pool (traits, Rule 1, Instrument, Exploit/Ward, Slip);
* ``rule0_winner``, ``ward_dice``, ``TIE_TO_ACTOR``: how an opposed roll is decided;
* ``landing``: what a winning option lands on the loser (final rank, Injury slots, Convictions);
* ``preview_action``: all of it for one legal action, with the exact chances
  (``pools.opposed_odds``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.actions import Action

from . import rulings
from .catalogue import Option
from .fighters import HOSTILE_KINDS, TIE_TO_ACTOR, Fighter, option_named
from .pools import opposed_odds, pool_size, success_distribution

if TYPE_CHECKING:
    from .state import MetanoiaEncounter

__all__ = ["Landing", "Preview", "strain_cost", "fuel_taken", "price", "pool", "rule0_winner",
           "ward_dice", "landing", "preview_action", "TIE_TO_ACTOR"]


@dataclass(frozen=True, slots=True)
class Landing:
    """What an option lands on ``target`` if its user wins (spec §2.4, §5.6).

    ``final`` is the final rank (0: nothing lands, RULING R13); ``count`` the Injury slots or
    Convictions it would take before the track's room (Realm multiplier x Counter doubling).
    """

    target: str
    keyword: str
    mode: str  # injury | condition | argue
    rank: int
    resistance: int
    final: int
    count: int


@dataclass(frozen=True, slots=True)
class Preview:
    """The expected result of one action, as the rules compute it.

    Attributes:
        actor, reactor: the Actor and the Reactor of the roll (``reactor`` ``None`` if unopposed).
        p_actor, p_reactor: the chance that each wins (an unopposed roll: success / failure;
            no roll at all: 1 and 0).
        actor_dice, reactor_dice: pool sizes (0 when no dice are rolled, e.g. Rule 0).
        rule0: decided by Realm Rule 0 without dice.
        lands: what lands on the Reactor if the Actor wins (hostile Engages only).
        backlash: what the Reactor's Counter or Slip lands on the Actor if the Reactor wins.
        strain, fuel: what the deciding combatant surely pays for this choice (Strain; stacks
            Fuel takes from the target); a Move's traits are paid only if it is challenged or
            rolls against a hazard (RULING R23, R35), so they count only for a hazard.
    """

    actor: str
    reactor: str | None
    p_actor: float
    p_reactor: float
    actor_dice: int
    reactor_dice: int
    rule0: bool
    lands: Landing | None
    backlash: Landing | None
    strain: int
    fuel: int


def fuel_taken(o: Option, target: Fighter | None) -> int:
    """RULING R10: a Fuel option takes its cost from the target's stacks first."""
    return min(target.stacks, o.cost) if o.stacks == "fuel" and target is not None else 0


def strain_cost(traits: int, o: Option | None, target: Fighter | None) -> int:
    """RULING R8/R40: Strain = traits invoked + the option cost Fuel does not cover."""
    if o is None or not o.cost:
        return traits
    return traits + o.cost - fuel_taken(o, target)


def price(traits: int, o: Option | None, target: Fighter | None) -> tuple[int, int]:
    """(Strain, Fuel stacks) a declaration pays (RULING R8, R10)."""
    fuel = fuel_taken(o, target) if o is not None and o.cost else 0
    return strain_cost(traits, o, target), fuel


def pool(c: Fighter, boosts: tuple[str, ...], opponent: Fighter | None, o: Option | None,
         extra: int, instrument: bool, slip_known: bool = True) -> tuple[int, list[str]]:
    """Dice of ``c``'s pool and how it was built (spec §2.3; Slip RULING R18)."""
    slip = c.statuses.get("slip", 0) if slip_known else 0
    return pool_size(c.block, boosts, opponent.block if opponent is not None else None, o, extra,
                     slip, instrument)


def rule0_winner(a: Fighter, r: Fighter) -> Fighter | None:
    """spec §5.5 Rule 0 [S], RULING R14: two or more Realms apart, the higher wins, no dice."""
    gap = a.block.realm - r.block.realm
    if abs(gap) >= rulings.RULE0_GAP:
        return a if gap > 0 else r
    return None


def ward_dice(ro: Option | None) -> int:
    """spec §5.3 #5: Ward adds its rank to the Reactor's pool."""
    return ro.rank if ro is not None and ro.keyword == "ward" else 0


def landing(w: Fighter, loser: Fighter, o: Option, mode: str, dbl: int) -> Landing:
    """spec §2.4 final rank and §5.6 landing table (RULINGS R13, R14, R16, R17, R29)."""
    mult = rulings.realm_multiplier(w.block.realm, loser.block.realm)
    rank = o.rank * mult
    if mode == "condition":
        rank *= dbl
    res = loser.block.resistance(o.polarity)
    return Landing(loser.id, o.keyword, mode, rank, res, max(0, rank - res), mult * dbl)


def backlash_mode(ro: Option) -> str:
    """A reactive Counter or Slip lands as an Injury (field I) or a Condition (spec §5.2 #10)."""
    return "injury" if ro.field == "I" else "condition"


def preview_action(enc: MetanoiaEncounter, action: Action, reaction: Action | None = None,
            viewer: str | None = None) -> Preview:
    """The expected result of ``action`` (one of ``enc.legal_actions()``).

    For a hostile declaration (attack, condition, argue, mark) or ``challenge yes``, ``reaction``
    is the Reactor's assumed answer, a ``react`` action of that combatant (default: ``react
    none``); an ambush bars its reactive option (RULING R19). For a ``react`` action the pending
    declaration is the other side. ``viewer`` computes what that combatant may know (a concealed
    enemy's Slip is unknown to it, spec §7.2); ``None`` uses the whole state.
    """
    c = enc.by_id[action.actor]
    kind = action.kind
    traits = len(action.boosts)
    p = enc.pending
    if kind in HOSTILE_KINDS or kind == "mark":
        assert action.target is not None
        t = enc.by_id[action.target]
        o = None if kind == "mark" else option_named(c.block, action.args[0])
        ro, r_boosts = _reaction(enc, t, reaction)
        if c.concealed:
            ro = None  # RULING R19: an ambush bars reactive keywords
        exploit = min(o.rank, t.stacks) if o is not None and o.stacks == "exploit_dice" else 0
        strain, fuel = price(traits, o, t)
        return _opposed(enc, c, t, kind, action.boosts, o, exploit, ro, r_boosts, viewer,
                        strain, fuel)
    if kind == "react" and p is not None:
        a = enc.by_id[p.actor]
        ro = option_named(c.block, action.args[0]) if action.args[0] != "none" else None
        strain, fuel = price(traits, ro, a)
        return _opposed(enc, a, c, p.kind, p.boosts, p.option, p.exploit_dice, ro, action.boosts,
                        viewer, strain, fuel)
    if kind == "challenge" and action.args[0] == "yes" and p is not None:
        ro, r_boosts = _reaction(enc, c, reaction)
        return _opposed(enc, enc.by_id[p.actor], c, "move", p.boosts, None, 0, ro, r_boosts,
                        viewer, 0, 0)
    return _unopposed(enc, c, action)


def _reaction(enc: MetanoiaEncounter, r: Fighter,
              reaction: Action | None) -> tuple[Option | None, tuple[str, ...]]:
    if reaction is None or reaction.args[0] == "none":
        return None, reaction.boosts if reaction is not None else ()
    return option_named(r.block, reaction.args[0]), reaction.boosts


def _opposed(enc: MetanoiaEncounter, a: Fighter, r: Fighter, kind: str,
             a_boosts: tuple[str, ...], o: Option | None, exploit: int, ro: Option | None,
             r_boosts: tuple[str, ...], viewer: str | None, strain: int, fuel: int) -> Preview:
    """spec §5.2 steps 5-10 as chances: Rule 0, the two pools, the tie table, the landings."""
    top = rule0_winner(a, r)
    if top is not None:
        p_a, na, nr = (1.0 if top is a else 0.0), 0, 0
        p_r = 1.0 - p_a
    else:
        instrument = enc.options.instrument
        known_a = viewer is None or enc.knows(viewer, a.id)
        known_r = viewer is None or enc.knows(viewer, r.id)
        na, _ = pool(a, a_boosts, r, o, exploit, instrument, known_a)
        nr, _ = pool(r, r_boosts, a, ro, ward_dice(ro), instrument, known_r)
        win, tie, lose = opposed_odds(a.block.texture, na, r.block.texture, nr)
        p_a, p_r = (win + tie, lose) if kind in TIE_TO_ACTOR else (win, tie + lose)
    lands = None
    if kind in HOSTILE_KINDS and o is not None:
        dbl = rulings.COUNTER_DOUBLES if ro is not None and ro.keyword == "counter" else 1
        lands = landing(a, r, o, "injury" if kind == "attack" else kind, dbl)
    backlash = None
    if ro is not None and ro.keyword in ("counter", "slip"):
        backlash = landing(r, a, ro, backlash_mode(ro), 1)
    return Preview(a.id, r.id, p_a, p_r, na, nr, top is not None, lands, backlash, strain, fuel)


def _unopposed(enc: MetanoiaEncounter, c: Fighter, action: Action) -> Preview:
    """Hide (spec §5.9), Sense (§5.10), a Move into a hazard (R35), Support (R12), the rest."""
    kind = action.kind
    traits = len(action.boosts)
    need = bonus = 0  # successes needed (plus a bonus to them), if a roll is made
    rolled = kind in ("hide", "sense")
    if kind == "hide":
        need, bonus = 1, c.block.stealthy
    elif kind == "sense":
        assert action.target is not None
        need = enc.by_id[action.target].concealment
    elif kind == "move" and enc.options.hazards:
        need = enc.hazards.get(int(action.args[0]), 0)
        rolled = need > 0
    if kind == "support":
        assert action.target is not None
        strain, fuel = price(0, option_named(c.block, action.args[0]), enc.by_id[action.target])
    else:
        strain, fuel = (traits if rolled else 0), 0
    if not rolled:
        return Preview(c.id, None, 1.0, 0.0, 0, 0, False, None, None, strain, fuel)
    n, _ = pool(c, action.boosts, None, None, 0, enc.options.instrument)
    dist = success_distribution(c.block.texture, n)
    p = sum(q for k, q in enumerate(dist) if k + bonus >= need)
    return Preview(c.id, None, p, 1.0 - p, n, 0, False, None, None, strain, fuel)
