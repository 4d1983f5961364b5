"""Project rulings of the Sizebound spec (docs/rules/sizebound.md §10) that the engine relies on.

Each constant names one ruling or DEFAULT. Rulings that are whole procedures (R-19 interleaving,
R-24 lazy masking, R-46 the damage pipeline, ...) live in the rules modules next to a comment
citing them; the numbers and choices they need live here.
"""

from __future__ import annotations

ROUND_LIMIT = 60
# RULING R-18 / spec §3.7: the round cap; reaching it is a draw.

SHIELD_CHARGE_BASE = 100
# RULING R-33: a Shield charge knocks Prone with floor(100 / 2^k) %, k = max(0, SN difference).

AIM_BONUS = 4
# spec §5.2.2: Aim gives +4 to every Hit roll until the end of the turn (once per round).

FLANK_BONUS = 2
# RULING R-30: +2 Hit per conscious, non-Paralyzed ally of the attacker adjacent to the target.

PRONE_RANGED_BONUS = 4
# spec §5.0.4 A3 / §7.2 Prone: a Prone attacker's ranged attacks get +4 Hit.

PRONE_RANGED_FAR = 3
# spec §5.0.2: a ranged attack against a Prone target from more than 3 spaces is at disadvantage.

TIRED_PENALTY = 5
# spec §7.2 Tired: -5 on Athletics rolls and on attack rolls (Hit and Parry).

CHARGE_STEPS = 5
# RULING R-31: a Charge needs the last >= 5 steps in one direction, each closing on the target.

UNNERVED_BOUNDS = (-10, 5)
# RULING R-68 / spec §7.2: the Unnerved total is clamped to [-10, +5].

AFRAID_BELOW = -2
# spec §7.2: an Unnerved total below -2 makes the creature Afraid of the source.

DISARM_HAND_BONUS = 2
# spec §5.2.10: the holder adds +2 per hand, only if it holds the item in 2 or more hands.

DISARM_TAKE_MARGIN = 5
# spec §5.2.10: a Disarm won by 5 or more puts the item in the winner's free hand(s) (the engine
# takes it whenever the hands allow: it is never worse than leaving it on the ground).

ANY_PAYMENT_ORDER = ("B", "M", "D", "P")
# spec §4.4 Any / RULING R-62: the engine pays an Any cost itself, with the action least worth
# keeping first (the seed ranks P >= D = Reaction > M >= B); M only while no budget is open.

RIPOSTE_AUTOMATIC = True
# RULING R-12 (b) / R-78: the riposte costs nothing and can only help, so the engine always takes
# it when the attacker is within the parrying weapon's reach (no extra decision point).

STEP_STOPS = True
# spec §5.0.5 / RULING R-29: every step ends at a decision point (atomic actions, R-19), so each
# step's destination must be a legal place to stop: allies can be passed only where they may be
# shared.

AUTO_PASS_WINDOWS = True
# spec §6.3: a creature whose only choice in a window would be PASS is not asked.

DEALER_NEVER_BLOCKS = True
# spec §6.4.3 (a dominated choice, like AUTO_PASS_WINDOWS): the creature dealing the damage is not
# asked to Block it for a foe, even when it stands next to its target (for an ally it is asked).

BREAK_FREE_BEST_STAT = True
# RULING R-37: Break Free rolls the higher of Athletics and Nimble.

TERTIARY = frozenset({"Earth", "Crushing", "Water", "Psychic", "Bronze", "Iron", "Silver", "Lead"})
# spec §8.2 D1 / §8.3: Tertiary types (Earth, Crushing and Water only when paired).

GUARD_BREAKERS = frozenset({"Fall", "Crushing"})
# RULING R-07 / spec §8.5: Fall and Crushing set Guard to 0 before they are applied.

ARCANE_RESIST_TOTAL = 4
ARCANE_IMMUNE_TOTAL = 0
# RULING R-45: Total Magic <= 4 resists Arcane; Total Magic <= 0 is immune.

DIRECTIONS = ("e", "ne", "n", "nw", "w", "sw", "s", "se")
# the step labels, by envs.core.squaregrid direction index (0 = east, counter-clockwise).
AURA = "arcane_aura"
# spec §5.3, §9.4: the DEFAULT pack's one Concentration skill (``full_skills``)
