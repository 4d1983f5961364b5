"""Project rulings of the Metanoia spec (rules/metanoia.md §10.2) that the engine relies on.

Each constant names one ruling; none of them is Metanoia canon. Rulings that are whole procedures
(R8 declaration order, R23 challenged Move, ...) are implemented in the rules modules
(``legality``, ``turns``, ``resolution``, ``opposed``, ``effects``, ``preview``) next to a comment
citing them; the numbers they need live here.
"""

from __future__ import annotations

BASE_POOL = 2
# spec §2.3 [S]: every pool starts with 2 dice.

DICE_CAP = 7
# RULING R3: the seed's "default maximum 7" caps only 2 + Motive + Identity; Rule 1, Instrument,
# Exploit and Ward dice are added after the cap.

TRAIT_MAX = 5
# RULING R3: Motive and Identity ranks are 0..5; a rank-0 trait cannot be invoked.

REALM_BONUS_DICE = 3
# spec §5.5 Rule 1 [S]: a creature exactly one Realm above its opponent adds 3 dice.

RULE0_GAP = 2
# spec §5.5 Rule 0 [S]: two or more Realms apart, no dice are rolled; RULING R14 applies it in both
# directions (Actor or Reactor higher), to reactive Injuries and to Argue.

STACKS_CAP = 10
# RULING R9: at most 10 stacks on one creature; the excess is lost.

STRAIN_PER_TURN = 1
# RULING R5: regain 1 Strain at the start of each own turn.

RECOVER_STRAIN = 1
# RULING R5: the Recover action regains 1 more Strain.

ROUND_LIMIT = 30
# RULING R26: no winner at the end of round 30 is a draw (env safety limit).

ZONES = 3
# RULING R22: a row of three zones; 0 is side A's rear, the last is side B's rear.

INITIATIVE_DICE = 2
# RULING R24: initiative is 2 dice counted by the roller's Texture, rolled once per encounter.

STEALTHY_ON_HIDE = True
# RULING R31: Stealthy R adds R to Hide successes and grants Obscured R at encounter start.

COUNTER_DOUBLES = 2
# RULING R17: a Reactor that invoked Counter and lost takes double: Injury slots x2 (severity
# unchanged), Conviction loss x2, Condition rank x2; margin stacks are not doubled.


def strain_max(realm: int) -> int:
    """RULING R4: 4 + 2 x Realm."""
    return 4 + 2 * realm


def injury_slots(realm: int) -> int:
    """RULING R4: 2 + Realm."""
    return 2 + realm


def conv_max(realm: int) -> int:
    """RULING R4: 2 + Realm (a stat block may trade 1 point with Injury slots, or be mindless)."""
    return 2 + realm


def realm_multiplier(winner_realm: int, loser_realm: int) -> int:
    """spec §2.4/§5.6 [S Rule 0/2]: 3 at two or more Realms above, 2 at exactly one, else 1."""
    gap = winner_realm - loser_realm
    return 3 if gap >= RULE0_GAP else 2 if gap == 1 else 1
