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

PER_FRAME_RELOAD_NEEDS_NO_UNLOAD = True
# ENGINE (spec §5.6): a weapon loaded a few rounds at a time (revolver) is topped up without an
# Unload frame; a speed-loader reloads it like a magazine (all at once) while any are left.

DEPLOY_SPACING = 2
# ENGINE (spec §3.2 default deployment): members of a side stand 2 squares apart along their edge.
