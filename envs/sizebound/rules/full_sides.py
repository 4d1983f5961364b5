"""FULL sides (spec §3.1, §3.4, §6.1, §6.5, §9.2, R-15, R-20, R-56): the Host-style Exertion
pool, hazard/object sides and the GM option of +1 Reaction at a hazard's turn.

* **Host-style pool** (a stat block's ``exertion_pool: host``, under FULL): the Host's creatures
  of one side share one pool of 3 dice for the encounter (whatever their levels); at most 1 die
  in any one window; no E-CRIT (``attack``); a natural 1 regains a die, capped at 3. Every
  member's ``dice`` shows the shared pool (``spend_die``/``gain_die`` keep them equal). Under
  CORE a Host block uses a player-style pool (spec §1.3: the Host rules are FULL).
* **Hazard sides** (a situation's ``hazard_sides``): an environmental hazard that acts is a side
  of its own (spec §3.1) and takes its turn after the creature sides (spec §3.4, R-20: the
  default order when the file gives no ``side_order``). It acts through its members' stat
  blocks. RULING: a hazard is not an opponent to defeat, so its members never count as "in the
  fight" for the end of the encounter (spec §3.7, §8.11): the fight ends when at most one
  creature side is left.
* **Per-side pool** (the option ``exertion_pool: per_side``, spec §9.2: "when a single player
  controls the side, companions included"): the player-style creatures of one side share one
  pool. RULING: its size is the highest of their level-table values (the player's own, the
  companions being at most its level), full at the start; regaining is capped at it; every
  member's ``dice`` shows the shared pool, as with the Host pool. Any number of dice a window,
  and E-CRIT, as for any player-style pool.
* **GM option** ``hazard_reaction`` (spec §6.1, WE-08): at the start of a hazard side's turn
  every player-side creature gains +1 Reaction. RULING: the player sides are the creature sides
  whose members use player-style pools (the pool style is the only mark of a Host creature the
  stat blocks carry, spec §9.2); a Host creature gets nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.events import Event

from .events import ExertionRegained

if TYPE_CHECKING:
    from .fighter import Fighter
    from .state import SizeboundEncounter

__all__ = ["HOST_DICE", "host", "side_pool", "pool_cap", "setup", "spend_die", "gain_die",
           "one_die", "set_pool", "order_sides", "turn_start", "check_end", "HazardReaction"]

HOST_DICE = 3  # spec §9.2: 3 dice for the whole encounter, shared by the side


@dataclass(frozen=True, slots=True)
class HazardReaction(Event):
    actor: str
    reactions: int

    def __str__(self) -> str:
        return f"{self.actor} gains a Reaction at a hazard's turn ({self.reactions})"


def host(enc: SizeboundEncounter, f: Fighter) -> bool:
    """``f`` draws on its side's Host-style pool (FULL)."""
    return f.profile.host_pool and enc.options.version == "full"


def side_pool(enc: SizeboundEncounter, f: Fighter) -> bool:
    """``f`` draws on its side's shared player-style pool (``exertion_pool: per_side``)."""
    return enc.options.exertion_pool == "per_side" and not host(enc, f)


def _mates(enc: SizeboundEncounter, f: Fighter) -> list[Fighter]:
    if side_pool(enc, f):
        return [g for g in enc.fighters if g.side == f.side and not host(enc, g)]
    return [g for g in enc.fighters if g.side == f.side and g.profile.host_pool]


def pool_cap(enc: SizeboundEncounter, f: Fighter) -> int:
    """The most dice ``f``'s pool holds: 3 (Host), the side's highest level-table value
    (per side), or its own."""
    if host(enc, f):
        return HOST_DICE
    if side_pool(enc, f):
        return max(g.profile.exertion_max for g in _mates(enc, f))
    return f.profile.exertion_max


def setup(enc: SizeboundEncounter) -> None:
    """spec §9.2: a Host pool starts with 3 dice (never more); a per-side pool starts full."""
    for f in enc.fighters:
        if host(enc, f):
            f.dice = min(f.dice, HOST_DICE)
        elif side_pool(enc, f):
            f.dice = pool_cap(enc, f)


def set_pool(enc: SizeboundEncounter, f: Fighter, value: int) -> None:
    """Set ``f``'s Exertion pool to ``value``: its own, or the one its side shares (spec §9.2;
    a spend, a regain, a situation's ``state.dice``)."""
    for g in _mates(enc, f) if host(enc, f) or side_pool(enc, f) else [f]:
        g.dice = value


def spend_die(enc: SizeboundEncounter, f: Fighter) -> None:
    """One die from ``f``'s pool (its own, or its side's Host pool)."""
    set_pool(enc, f, f.dice - 1)


def gain_die(enc: SizeboundEncounter, ev: list[Event], f: Fighter) -> None:
    """R-56, R-72: a natural 1 on an attack roll regains one die, capped (Host: 3)."""
    cap = pool_cap(enc, f)
    if f.dice < cap:
        set_pool(enc, f, f.dice + 1)
        ev.append(ExertionRegained(f.id, f.dice))


def one_die(enc: SizeboundEncounter, f: Fighter) -> bool:
    """spec §6.5: a Host-style pool spends at most 1 die in any one window."""
    return host(enc, f)


def order_sides(sides: list[str], hazards: frozenset[str]) -> list[str]:
    """spec §3.4 item 2, R-20: hazard sides last, the others in their order."""
    return [s for s in sides if s not in hazards] + [s for s in sides if s in hazards]


def turn_start(enc: SizeboundEncounter, ev: list[Event], side: str) -> None:
    """The GM option ``hazard_reaction`` (spec §6.1): +1 Reaction for every player-side
    creature when a hazard side's turn begins."""
    if enc.options.version != "full" or not enc.options.hazard_reaction \
            or side not in enc.hazards:
        return
    for f in sorted(enc.fighters, key=lambda g: g.id):
        if f.alive and f.side not in enc.hazards and not f.profile.host_pool:
            f.reactions += 1
            ev.append(HazardReaction(f.id, f.reactions))


def check_end(enc: SizeboundEncounter, ev: list[Event]) -> bool:
    """spec §3.7 with hazard sides (the ruling above); ``False`` when there are none (the
    shared check applies). Returns whether this check ran."""
    if not enc.hazards:
        return False
    standing = [s.side for s in enc.sides() if s.side not in enc.hazards
                and any(enc.is_active(m) for m in s.members)]
    if len(standing) <= 1:
        from envs.core.encounter import DEFEAT, MUTUAL_DEFEAT
        enc._end(standing[0] if standing else None, DEFEAT if standing else MUTUAL_DEFEAT, ev)
    return True
