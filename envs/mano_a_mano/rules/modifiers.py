"""Mano a Mano attack modifiers (spec §5.1 circumstances and darkness, RULING R40; §5.2 and §5.7.1
position modifiers, RULING R4, R25; §3.2 facing and rear attacks, RULING R9; §6.4 cover, RULING
R29; §2.6 armor avoidance, RULING R55): the numbers a roll's modifier and difficulty are made of.

Plain functions of the encounter (``state.ManoEncounter``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.hexgrid import Hex, direction_to, distance

from . import resolution as R
from .catalogue import block_memo
from .fighter import Fighter

if TYPE_CHECKING:
    from .state import ManoEncounter

AVOID = ("avoid_next", "avoid_all")
"""the armor-avoidance arguments of the env's compact layout (spec §2.6, §12.3); ``avoid_N``
avoids the outer N levels (``armor_levels: any``)"""


def facing(a: Hex, b: Hex) -> int:
    """Cosmetic facing (spec §3.2, RULING R9): the direction from ``a`` toward ``b``."""
    return direction_to(a, b)


def attack_mod(enc: ManoEncounter, a: Fighter, t: Fighter, kind: str) -> int:
    return R.attack_position_mod(
        enc.grappling(a.id), enc.dominant_over(a.id, t.id), not a.standing, kind
    )


def defense_mod(enc: ManoEncounter, t: Fighter, a: Fighter, kind: str) -> int:
    return R.defense_position_mod(
        enc.grappling(t.id),
        enc.dominant_over(t.id, a.id),
        enc.in_ground_grapple(t.id),
        not t.standing,
        kind,
    )


def favorable(enc: ManoEncounter, attacker: Fighter, target: Fighter) -> int:
    """The largest favorable circumstance of an attack (spec §5.1, RULING R40): very favorable
    (+4) against the helpless (RULING R23); favorable (+2) from the target's three rear hex
    sides with the optional ``rear_attack_favorable`` (spec §3.2, RULING R9)."""
    found = [4] if target.incapacitated else []
    if enc.options.rear_attack_favorable and from_behind(enc, attacker, target):
        found.append(2)
    if enc.circumstances:
        level = scenario_circumstance(enc, attacker)
        if level in FAVORABLE:
            found.append(R.CIRCUMSTANCES[level])
    return R.circumstance(found)


FAVORABLE = ("favorable", "very_favorable")
UNFAVORABLE = ("unfavorable", "hostile")
LEVELS = FAVORABLE + UNFAVORABLE
"""the circumstance levels a situation may give a side's or a fighter's attacks (spec §5.1)"""


def scenario_circumstance(enc: ManoEncounter, attacker: Fighter) -> str | None:
    """The scenario's circumstance of ``attacker``'s attacks (situation ``circumstances.attacks``,
    spec §12.2 item 7): the fighter's own level, else its side's, else ``None``."""
    c = enc.circumstances
    return c.get(attacker.id, c.get(attacker.side))


def unfavorable(enc: ManoEncounter, attacker: Fighter) -> int:
    """The difficulty the scenario's unfavorable (+2) or hostile (+4) circumstance adds to
    ``attacker``'s attacks (spec §5.1; only the largest applies, RULING R40); 0 without one."""
    if not enc.circumstances:
        return 0
    level = scenario_circumstance(enc, attacker)
    return R.CIRCUMSTANCES[level] if level in UNFAVORABLE else 0


def facing_of(enc: ManoEncounter, f: Fighter) -> int | None:
    """Cosmetic facing (spec §3.2, RULING R9): toward the nearest enemy still in the fight (the
    first in roster order among equals); ``None`` with no enemy or one in the same hex."""
    enemies = [g for g in enc.fighters if g.side != f.side and not g.incapacitated]
    if not enemies:
        return None
    nearest = min(enemies, key=lambda g: distance(f.hex, g.hex))
    return None if nearest.hex == f.hex else facing(f.hex, nearest.hex)


def from_behind(enc: ManoEncounter, attacker: Fighter, target: Fighter) -> bool:
    """Does ``attacker`` stand off one of the three rear hex sides of ``target``'s facing?"""
    face = facing_of(enc, target)
    if face is None or attacker.hex == target.hex:
        return False
    return (direction_to(target.hex, attacker.hex) - face) % 6 in (2, 3, 4)


def darkness(enc: ManoEncounter, attacker: Fighter, kind: str) -> int:
    """spec §5.1 darkness, added separately (RULING R40); blind attackers ignore it."""
    return R.darkness(enc.options.darkness, kind, blind="blind" in attacker.block.qualities)


def coverer(
    enc: ManoEncounter, target: Fighter, attacker: Fighter, kind: str
) -> tuple[Fighter | None, int]:
    """The best coverer of ``target`` and its difficulty (spec §6.4, R29), or ``(None, 0)``."""
    best, best_diff = None, 0
    for g in enc.fighters:
        if g.covering != target.id or g.incapacitated or distance(g.hex, target.hex) != 1:
            continue
        defense = g.melee_defense() if kind == "striking" else g.block.missile_defense
        diff = defense + defense_mod(enc, g, attacker, kind) + g.defense_bonus + 5
        if best is None or diff > best_diff:
            best, best_diff = g, diff
    return best, best_diff


def avoid_name(depth: int, levels: int) -> str:
    """The label argument that avoids the outer ``depth`` absorption levels of ``levels`` (spec
    §2.6): ``avoid_next`` (1), ``avoid_all`` (the lowest legal level, when more than 1), else
    ``avoid_<depth>``."""
    if depth == 1:
        return "avoid_next"
    return "avoid_all" if depth == levels else f"avoid_{depth}"


def avoid_depth(option: str, levels: int) -> int:
    """How many absorption levels ``option`` avoids (inverse of ``avoid_name``; spec §2.6: any
    level). Raises ``ValueError`` for an option the target's armor does not have."""
    if option == "avoid_next":
        depth = 1
    elif option == "avoid_all":
        depth = levels
    elif option.startswith("avoid_") and option[6:].isdigit():
        depth = int(option[6:])
    else:
        raise ValueError(f"unknown armor avoidance {option!r}: expected avoid_next, avoid_all or "
                         "avoid_N (spec §2.6)")
    if not 1 <= depth <= levels:
        raise ValueError(f"armor avoidance {option!r}: the target has {levels} level(s) to avoid")
    return depth


def armor_options(enc: ManoEncounter, target: Fighter) -> list[tuple[str, ...]]:
    """Armor-avoidance choices (spec §2.6, §12.3): none, then down to each lower absorption level
    the target's regions give (each a distinct level). ``armor_levels: compact`` (the env's
    layout) offers the next lower level and the lowest legal one; ``any`` offers every level."""
    every = enc.options.armor_levels == "any"
    memo = block_memo(target.block)
    key = ("armor_options", every)
    found = memo.get(key)
    if found is None:
        n = len(R.avoidance_levels(target.block.regions)) - 1
        depths = range(1, n + 1) if every else sorted({1, n}) if n else []
        found = memo[key] = [()] + [(avoid_name(k, n),) for k in depths]
    return found


def avoidance(enc: ManoEncounter, target: Fighter, option: str | None) -> tuple[int, int]:
    """``(difficulty added, absorption left)`` of an avoidance option (spec §2.6: the cover of
    every avoided region, the best absorption not avoided; RULING R55)."""
    memo = block_memo(target.block)
    found = memo.get(("avoidance", option))
    if found is None:
        regions = target.block.regions
        if option is None:
            found = (0, R.best_absorption(regions))
        else:
            levels = R.avoidance_levels(regions)
            level = levels[avoid_depth(option, len(levels) - 1)]
            found = (R.avoid_cost(regions, level), R.absorb_after(regions, level))
        memo[("avoidance", option)] = found
    return found
