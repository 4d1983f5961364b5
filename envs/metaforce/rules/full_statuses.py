"""The FULL statuses (spec §7.1, §7.4, §7.5, §5.10, §8.7, R-17, R-39; §12.3): Poison and Acid Burn
(damage over time; Acid lingers and adds up), Slow, Fear, Charm / Mind-Control, Sleep and
Deafened, and the "all Charmed" end of combat. CORE inflicts none of them
(``rulings.CORE_STATUSES``); under FULL a Special Attack or a critical whose status is one of
them carries it (``carried``), resolved by ``statuses.inflict`` like the CORE ones.

What each one does here:

* **Poison**, **Acid Burn**: tick like Bleed (``statuses.dot_ticks``), Acid as acid damage;
  neither can be Broken. Acid ``lingers``: a new attempt adds to the magnitude it holds, and an
  attempt below the Status Defence stays Suppressed and joins the next one (R-17).
* **Slow**: Partial Speed -5 ft, Full Speed halved, Intense also no Dash
  (``Combatant.speed_squares``); it ends at the end of the victim's next turn, or by Break (AGI).
* **Fear** (the source is the attacker): Partial -1 step on attacks at the source; Full and
  Intense mask every action aimed at the source and every move that ends closer to it, and a
  frame's movement is a RETREAT from it whenever one gets farther away (``filter_actions``: an
  attack at someone else is offered held, and the engine retreats after it, ``flee``); Intense
  also drains HP equal to the magnitude at the start of the victim's turn within 60 ft of the
  source (no line of sight on this grid). The rules hold while the source is in the fight.
  Break (CHA).
* **Charm** (the controller is the attacker): Partial -1 step on attacks at the controller; Full
  and Intense mask every harmful action (attack, shot, throw, grapple, maintain, a spell whose
  area holds one of them) at the controller's side (R-39); Intense allows no Break (CHA). It ends
  when the controller leaves the fight (``controller_gone``).
* **Sleep**: Partial (Drowsy) cannot have Advantage (``Combatant.tired``); Full and Intense lose
  every frame and Reaction, Evasion 0, a grappler lets go and a spell is lost; Full ends when
  the sleeper takes damage (``wake``); Intense is not active for §8.7 (``state.is_active``).
* **Deafened**: held to the end of the encounter; no hearing-based check exists in a fight here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx
from envs.core.squaregrid import distance

from . import rulings
from .events import FearDrained, StatusChanged

if TYPE_CHECKING:
    from .combatant import Combatant
    from .state import MetaforceEncounter

__all__ = ["FULL_STATUSES", "ALL_CHARMED", "carried", "step_mod", "took_hold", "end_turn",
           "fear_drain", "wake", "controller_gone", "filter_actions", "flee",
           "fear_source", "charmed_end", "slow_no_dash", "BREAKABLE", "DOT_TYPES"]

FULL_STATUSES = ("poison", "acid_burn", "slow", "fear", "charm", "sleep", "deafened")
# spec §12.3: the statuses FULL adds to CORE's (rulings.CORE_STATUSES).

BREAKABLE = ("grappled", "burn", "slow", "fear", "charm")
# spec §5.10: the statuses an Escape / Break check works on (Charm not at Intense, §7.5).

DOT_TYPES = {"burn": "fire", "acid_burn": "acid"}
# spec §7.4: the damage type of a tick (the others are named after it: bleed, poison).

FEAR_RANGE_SQUARES = 60 // rulings.SQUARE_FT
# spec §7.5: Intense Fear drains within 60 ft (and sight: the grid has no walls that block it).

ALL_CHARMED = "all_charmed"
# spec §8.7 (FULL): the outcome reason when every active member of a team is Charmed.

AIMED = ("attack", "fire", "throw", "grapple")
# the frame activities with a target and a movement mode relative to it (legal._aimed)
HARMFUL = (*AIMED, "maintain", "cast", "channel", "react")
# the actions that can harm their target (react: a Reaction Attack, throw or Maintain)
_MOVING = ("pass", "dash", "special", "reload", "prime")
# the frame activities whose movement reference is any enemy (legal._moving)


def carried(full: bool, status: str | None) -> bool:
    """A Special Attack or critical carries ``status`` under these rules (spec §12.2, §12.3)."""
    return status in rulings.CORE_STATUSES or (full and status in FULL_STATUSES)


def slow_no_dash(c: Combatant) -> bool:
    """spec §7.5: Slow at Intense forbids Dash."""
    return "slow" in c.statuses and c.status_severity("slow") == "intense"


def _source(enc: MetaforceEncounter, c: Combatant, status: str) -> Combatant | None:
    """The source of ``c``'s ``status`` while it is in the fight (ENGINE)."""
    s = c.statuses.get(status)
    if s is None or s[2] not in enc.by_id:
        return None
    src = enc.by_id[s[2]]
    return src if src.active and src is not c else None


def fear_source(enc: MetaforceEncounter, c: Combatant) -> Combatant | None:
    """The source of a Full or Intense Fear (spec §7.5), else ``None``."""
    if "fear" not in c.statuses or c.status_severity("fear") == "partial":
        return None
    return _source(enc, c, "fear")


def _charm_side(enc: MetaforceEncounter, c: Combatant) -> str | None:
    """The controller's side of a Full or Intense Charm (R-39), else ``None``."""
    if "charm" not in c.statuses or c.status_severity("charm") == "partial":
        return None
    src = _source(enc, c, "charm")
    return src.side if src is not None and src.side != c.side else None


def step_mod(a: Combatant, t: Combatant) -> int:
    """spec §5.3.1: -1 step for Fear (Partial) on an attack at the source, and -1 for Charm
    (Partial) on one at the controller (at Full they are masked out)."""
    if not a.statuses:
        return 0
    return -sum(1 for s in ("fear", "charm") if s in a.statuses and a.statuses[s][2] == t.id)


def took_hold(enc: MetaforceEncounter, ev: list[Event], t: Combatant, status: str,
              sev: str) -> None:
    """A FULL status was just set on ``t`` (``statuses.inflict``): Slow runs to the end of its
    next turn; Sleep at Full or Intense ends a spell being cast and lets a grapple go."""
    if status == "slow":
        t.lapse["slow"] = t.turns + 1  # spec §7.5: the end of the victim's next turn
    if status == "sleep" and sev != "partial":
        from .full_spells import interrupt
        from .moves import release_grapple
        interrupt(ev, t, "asleep")
        release_grapple(enc, ev, t, "ended")


def end_turn(ev: list[Event], c: Combatant) -> None:
    """spec §4.1 end_of_turn: a Slow whose time has come ends."""
    for name, until in list(c.lapse.items()):
        if until <= c.turns:
            del c.lapse[name]
            if c.statuses.pop(name, None) is not None:
                ev.append(StatusChanged(c.id, name, 0, "ended"))


def fear_drain(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant) -> None:
    """spec §4.1 start_of_turn item 3, §7.5: Intense Fear within 60 ft of its source costs HP
    equal to the magnitude (HP lost, not damage: no defences)."""
    src = fear_source(enc, c)
    if src is None or not c.active or c.status_severity("fear") != "intense":
        return
    if distance(c.pos, c.n, src.pos, src.n) > FEAR_RANGE_SQUARES:
        return
    m = c.magnitude("fear")
    ev.append(FearDrained(c.id, src.id, m))
    from .damage import take_damage
    take_damage(enc, ctx, ev, c, m, "fear", "fear", m)


def wake(ev: list[Event], c: Combatant) -> None:
    """spec §7.5: damage wakes a sleeper at Full (not at Intense; Drowsy stays Drowsy)."""
    if c.status_severity("sleep") == "full":
        del c.statuses["sleep"]
        ev.append(StatusChanged(c.id, "sleep", 0, "ended"))


def controller_gone(enc: MetaforceEncounter, ev: list[Event], g: Combatant) -> None:
    """spec §7.5: a Charm ends when its controller is defeated (leaves the fight, ENGINE)."""
    for o in enc.combatants:
        s = o.statuses.get("charm")
        if s is not None and s[2] == g.id:
            del o.statuses["charm"]
            ev.append(StatusChanged(o.id, "charm", 0, "ended"))


def _area(enc: MetaforceEncounter, c: Combatant, a: Action) -> list[Combatant]:
    """The creatures a ``cast`` (or the ``channel`` that finishes the spell being cast) would
    hit (``full_spells.area_of``)."""
    from .full_spells import area_of
    t = enc.by_id[str(a.target)]
    sid = c.casting if a.kind == "channel" else a.args[0]
    sp = next((s for s in c.profile.spells if s.id == sid), None)
    return [t] if sp is None else area_of(enc, c, sp, t)


def _aims(a: Action) -> bool:
    """``a`` acts on its target (R-39 "harmful"): an attack, shot, throw, grapple, Maintain, a
    spell, or the Reaction Attack, throw or Maintain."""
    if a.kind == "react":
        return a.args[0] in ("attack", "throw", "maintain")
    return a.kind in HARMFUL and a.target is not None


def _harms(enc: MetaforceEncounter, c: Combatant, a: Action, side: str) -> bool:
    """R-39: ``a`` is harmful to a member of ``side``."""
    if not _aims(a) or a.target is None:
        return False
    if a.kind in ("cast", "channel"):
        return any(o.side == side for o in _area(enc, c, a))
    return enc.by_id[a.target].side == side


def _end_cell(enc: MetaforceEncounter, c: Combatant, a: Action, mode: str, budget: int
              ) -> tuple[int, int]:
    """Where the movement of ``a`` (its mode relative to its target) leaves ``c``."""
    from .moves import approach_cell, retreat_cell
    if a.target is None:
        return c.pos
    ref = enc.by_id[a.target]
    if a.kind == "dash":
        budget *= 2
    return (approach_cell(enc, c, ref, budget) if mode == "approach"
            else retreat_cell(enc, c, ref, budget))


def _feared(enc: MetaforceEncounter, c: Combatant, src: Combatant, acts: list[Action],
            frame: bool) -> list[Action]:
    """spec §7.5 Fear (Full, Intense): nothing aimed at the source, no move that ends closer to
    it; in a frame, while a retreat from it gets farther away, every movement is that retreat
    (an aimed activity on another is offered held and followed by the retreat, ``flee``)."""
    from .legal import split_mode
    from .moves import dist, retreat_cell
    speed = c.speed_squares()
    now = dist(c, src)
    flee_to = retreat_cell(enc, c, src, speed) if speed > 0 and frame else c.pos
    must = distance(flee_to, c.n, src.pos, src.n) > now
    out = []
    for a in acts:
        _, mode = split_mode(a.args)
        if a.target == src.id and _aims(a):
            continue
        if mode != "hold":
            if a.target == src.id and mode == "retreat" and a.kind in (*_MOVING, "react"):
                out.append(a)  # the flight itself
            elif not must and distance(_end_cell(enc, c, a, mode, speed), c.n, src.pos,
                                       src.n) >= now:
                out.append(a)
            continue
        if must and a.kind in _MOVING:
            continue  # it has to run: held passes and setups are not offered
        out.append(a)
    return out


def filter_actions(enc: MetaforceEncounter, c: Combatant, acts: list[Action],
                   frame: bool = True) -> list[Action]:
    """The frame actions (``frame``) or W-R1 Reactions of ``c`` left under a Full or Intense
    Charm (R-39) and Fear (spec §7.5); ``pass`` and ``end_turn`` always stay."""
    side = _charm_side(enc, c)
    if side is not None:
        acts = [a for a in acts if not _harms(enc, c, a, side)]
    src = fear_source(enc, c)
    if src is not None:
        acts = _feared(enc, c, src, acts, frame)
    return acts


def flee(enc: MetaforceEncounter, ev: list[Event], c: Combatant, a: Action) -> bool:
    """spec §7.5 Fear: after a held aimed activity, the frame's movement is a RETREAT from the
    source (when it gets farther away). Returns whether ``c`` moved."""
    if a.kind not in AIMED or not c.active or enc.is_over() or a.args[-1:] in (("approach",),
                                                                                ("retreat",)):
        return False
    src = fear_source(enc, c)
    if src is None:
        return False
    from .moves import dist, move_to, retreat_cell
    cell = retreat_cell(enc, c, src, c.speed_squares())
    if distance(cell, c.n, src.pos, src.n) <= dist(c, src):
        return False
    move_to(enc, ev, c, cell, "flee")
    return True


def charmed_end(enc: MetaforceEncounter) -> tuple[bool, str | None]:
    """spec §8.7 (FULL): ``(ended, winner)`` when every active member of all teams but one (or
    of every team: a draw) is Charmed at Full or Intense by another team."""
    standing: dict[str, bool] = {}
    for c in enc.combatants:
        if enc.is_active(c.id):
            held = _charm_side(enc, c) is not None
            standing[c.side] = standing.get(c.side, True) and held
    if len(standing) < 2 or not any(standing.values()):
        return False, None
    free = [s for s, charmed in standing.items() if not charmed]
    if len(free) > 1:
        return False, None
    return True, free[0] if free else None
