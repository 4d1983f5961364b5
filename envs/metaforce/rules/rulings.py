"""Project rulings of the Metaforce spec (docs/rules/metaforce.md §10) that the engine relies on.

Each constant names one ruling (R-n) or one engine reading where the spec is silent (marked
ENGINE). Rulings that are whole procedures (R-3 Deflection, R-10 the V policy, R-41 the Meta-Die
flag, R-59 Knockback) live in the rules modules next to a comment citing them; the numbers and
choices they need live here, and the ones a designer may vary are options (``options.py``).
"""

from __future__ import annotations

MAX_ROUNDS = 20
# spec §8.7, §12.1 ``max_rounds``: the round limit; reaching it is a draw.

FRAMES_PER_TURN = 2
# spec §4.1: two Action Frames per turn (Action-8 adds one, FULL).

SQUARE_FT = 5
# spec §3.2, R-26: 5 ft squares, Chebyshev distance.

EXPLOSION_MINIMUM = 5
# spec §2.3.1: the explosion die is one md12 (a d12 counted as at least 5); V never explodes.

STEP_PENALTY = 4
# spec §2.4.3, R-5: -4 on the result for every Advantage step below -1.

META_DIE_MINIMUM = {4: 1, 6: 2, 8: 3, 10: 4, 12: 5, 20: 10}
# spec §2.3.2: the minimum face of each Meta die.

META_DIE_FOR_MP = ((12, 12), (10, 10), (8, 8), (6, 6), (4, 4))
# spec §6.4 Create a Meta-Die: the largest md whose size is at most the current MP (MP >= 4).

RANGE_INCREMENTS = 3
# up to 1 increment is free, each further increment is -1 step, at most 3 increments.

SAVE_TN_FLOOR = 4
# spec §7.3: TN = max(4, 12 - attribute flat).

MIRACULOUS_MARGIN = 10
# spec §7.3: a save at TN + 10 or more is Miraculous (magnitude 0).

INTENSE_MARGIN = 10
# spec §7.1: M >= SD + 10 is Intense.

DOT_DEFAULT_X = 2
# spec §7.4 [Constructed], R-18: a DoT's X is the average of the source's bonus die, or 2.

KNOCKBACK_SQUARES = {"full": 1, "intense": 2}
# Full pushes 5 ft; Intense pushes 10 ft, then Stun 1.

STUN_FRAMES = {"full": 1, "intense": 2}
# via magnitude, Partial takes the Reactions until the next turn, Full Stun 1, Intense 2.

SPECIAL_STATUS_BY_TYPE = {
    "blunt": "knockback", "slashing": "bleed", "piercing": "bleed", "fire": "burn",
    "cold": "slow", "electric": "stun", "acid": "acid", "poison": "poison", "sonic": "deafened"}
# spec §2.7, R-16: the status a weapon's Special Attack inflicts, by damage type (data may
# override it).

STATUS_CORE = {"bleed": "body", "burn": "body", "poison": "body", "acid": "body",
               "stun": "body", "knockback": "reflex", "grappled": "reflex", "slow": "reflex",
               "fear": "mind", "charm": "mind", "deafened": "body"}
# spec §7.4, §7.5: the Status Defence each status targets.

STATUS_SAVE = {"bleed": "body", "burn": "body", "poison": "body", "acid": "body",
               "stun": "body", "grappled": "reflex", "slow": "reflex", "fear": "mind",
               "charm": "mind", "deafened": "body"}
# spec §7.4, §7.5: the save against each status (Knockback cannot be saved, [Seed]).

SAVE_ATTR = {"body": "end", "reflex": "agi", "mind": "cha"}
# spec §7.3: Body (END), Reflex (AGI), Mind (CHA).

BREAK_ATTR = {"grappled": ("str", "agi"), "burn": ("agi",), "slow": ("agi",),
              "fear": ("cha",), "charm": ("cha",)}
# spec §5.10, R-38: the Attribute of each Escape / Break check (the higher of several).

CORE_STATUSES = ("bleed", "burn", "knockback", "stun", "grappled")
# spec §12.2 item 7: the statuses CORE inflicts; others (slow, poison, acid, ...) are FULL, and a
# CORE Special Attack whose weapon names one of them carries no status.

DOT_STATUSES = ("bleed", "burn", "poison", "acid")
# spec §7.4: damage-over-time statuses tick at the start of the afflicted character's turn.

SETUP_USED_BY_ANY_ATTACK = True
# ENGINE (spec §5.4 "the next attack"): a pending Special Attack setup is used by the next attack
# roll of its owner, hit or miss.

FRIENDLY_FIRE = False
# ENGINE (spec §5.2 "1 enemy (or ally)"): CORE offers attacks on enemies only, which keeps the
# action set small; allies stay movement references.

PER_FRAME_RELOAD_NEEDS_NO_UNLOAD = True
# ENGINE (spec §5.6): a weapon loaded a few rounds at a time (revolver) is topped up without an
# Unload frame; a speed-loader reloads it like a magazine (all at once) while any are left.

DEPLOY_SPACING = 2
# ENGINE (spec §3.2 default deployment): members of a side stand 2 squares apart along their edge.
