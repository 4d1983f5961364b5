"""Project rulings of the Metaforce spec (docs/rules/metaforce.md §10) that the engine relies on.

The §2 tables (dice, the ladder, sizes, save targets, statuses and their cores) are the content
module's (``content.py``, ``records.STATUSES``); the engine reads them from there.

Each constant names one ruling (R-n) or one engine reading where the spec is silent (marked
ENGINE). Rulings that are whole procedures (R-3 Deflection, R-10 the V policy, R-41 the Meta-Die
flag, R-59 Knockback) live in the rules modules next to a comment citing them; the numbers and
choices they need live here, and the ones a designer may vary are options (``options.py``).
"""

from __future__ import annotations

from .geometry import MAX_INCREMENTS as MAX_INCREMENTS  # three range increments
from .geometry import SQUARE_FT as SQUARE_FT  # spec §3.2, R-26: 5 ft squares

MAX_ROUNDS = 20
# spec §8.7, §12.1 ``max_rounds``: the round limit; reaching it is a draw.

FRAMES_PER_TURN = 2
# spec §4.1: two Action Frames per turn (Action-8 adds one, FULL).

META_DIE_FOR_MP = ((12, 12), (10, 10), (8, 8), (6, 6), (4, 4))
# spec §6.4 Create a Meta-Die: the largest md whose size is at most the current MP (MP >= 4).

INTENSE_MARGIN = 10
# spec §7.1: M >= SD + 10 is Intense.

DOT_DEFAULT_X = 2
# spec §7.4 [Constructed], R-18: a DoT's X is the average of the source's bonus die, or 2.

KNOCKBACK_SQUARES = {"full": 1, "intense": 2}
# Full pushes 5 ft; Intense pushes 10 ft, then Stun 1.

STUN_FRAMES = {"full": 1, "intense": 2}
# via magnitude, Partial takes the Reactions until the next turn, Full Stun 1, Intense 2.

BREAK_ATTR = {"grappled": ("str", "agi"), "burn": ("agi",), "slow": ("agi",),
              "fear": ("cha",), "charm": ("cha",)}
# spec §5.10, R-38: the Attribute of each Escape / Break check (the higher of several).

CORE_STATUSES = ("bleed", "burn", "knockback", "stun", "grappled")
# spec §12.2 item 7: the statuses CORE inflicts; others (slow, poison, acid, ...) are FULL, and a
# CORE Special Attack whose weapon names one of them carries no status.

SETUP_USED_BY_ANY_ATTACK = True
# ENGINE (spec §5.4 "the next attack"): a pending Special Attack setup is used by the next attack
# roll of its owner, hit or miss.

FRIENDLY_FIRE = False
# ENGINE (spec §5.2 "1 enemy (or ally)"): CORE offers attacks on enemies only, which keeps the
# action set small; allies stay movement references.

PER_FRAME_UNLOAD_ONLY_UNPROFICIENT = True
# spec §5.6 table: a weapon loaded a few rounds at a time (revolver) takes an Unload frame first
# when the shooter is not proficient (its live rounds go back to the reserve: RULING), then half
# the listed rounds a frame; a proficient shooter tops it up without unloading. A speed-loader
# reloads it like a magazine (all at once) while any are left.

RELIED_ON: dict[str, str] = {
    "R-1": "options base_core / defense_adds_level; derived stats from content.py under them",
    "R-3": "damage.defend: Deflection halves and subtracts its Resistance X a second time; "
           "statuses.inflict: a deflected hit halves the magnitude",
    "R-4": "option deflection_vs_giants (damage.giant_hit)",
    "R-5": "checks.check_roll / content.check_state: the Advantage ladder",
    "R-6": "checks.check_roll: with two dice the other die is V",
    "R-7": "turns.roll_initiative: no explosion; ties by Reflex, AGI, then a seeded draw",
    "R-8": "option unaware_bonus (attack.attack_steps; FULL)",
    "R-10": "attack.crit_use: the default V policy of spec §5.3.4",
    "R-13": "not used in CORE (Dodge is FULL)",
    "R-14": "STUN_FRAMES; combatant.evasion is 0 while Stunned; turns.advance loses frames",
    "R-15": "resolve: a Special Attack setup allows the frame's movement",
    "R-16": "KNOCKBACK_SQUARES, records.default_status; Knockback divided against larger targets",
    "R-17": "statuses.inflict: re-application keeps the higher magnitude",
    "R-18": "DOT_DEFAULT_X; option dot_x_mode",
    "R-20": "profile.exert_limit = T + 10; Tired / Exhausted in combatant",
    "R-21": "every halving floors (damage.defend)",
    "R-26": "moves: HOLD / APPROACH / RETREAT on a 5 ft Chebyshev grid",
    "R-27": "Combatant.n (N x N), Combatant.reach (5 ft x Size)",
    "R-28": "damage.attacker_damage: floor, at least 1 before defences",
    "R-30": "options range_band_penalty / range_increments (attack.attack_steps)",
    "R-31": "damage.resistance_x: ordinary armour gives nothing against firearms",
    "R-32": "arms.reload: a proficient shooter unloads and reloads in one frame",
    "R-33": "arms.reload: rounds in a removed magazine are lost",
    "R-34": "arms.fire_bow: Fire then Prime in one frame",
    "R-35": "arms.shot_steps: the Trigger Limit ladder, Auto X capped at Normal",
    "R-36": "statuses.grapple_ok / grapple_factor",
    "R-37": "Combatant.grappled severities; attack.attack_steps -1 at anyone but the grappler",
    "R-38": "statuses.escape: flat value, or the Attribute die when proficient",
    "R-41": "attack._meta_die: the Create-a-Meta-Die flag",
    "R-43": "options deus_ex_mode / deus_ex_enabled; damage._deus_ex",
    "R-55": "legal.reaction_actions: a Reaction Attack targets only the triggering combatant",
    "R-56": "legal.frame_actions: Vigilance only as the last frame; it ends the turn",
    "R-58": "profile: CORE attack cantrips are weapon slots, first in list order",
    "R-59": "moves.knockback",
    "R-60": "saves always rolled; no Exert paid for an Attribute die; R-60 hands "
            "(Combatant.free_hands); a thrown weapon is gone (arms.throw)",
}
# The rulings above and where the engine carries them out (docs and the report read this).
