"""Project rulings of the Palladium Revised spec (docs/rules/palladium_revised.md §10) that the
engine relies on.

The §2 tables (attribute chart, weapons, armour, stat blocks) are the content modules'
(``content.py``, ``catalogue.py``); the engine reads them from there. Each constant below names
one ruling (Rn) or one engine reading where the spec is silent (marked ENGINE). Rulings that are
whole procedures live in the rules modules next to a comment citing them; ``RELIED_ON`` says
where. The values a designer may vary are options (``options.py``).
"""

from __future__ import annotations

MAX_ROUNDS = 20
# spec §8.8, §12.3: the round cap (20 rounds = 300 s); reaching it is a draw.

SECONDS = 15
# spec §4.1: a Melee Round is 15 Seconds.

WOUND_SECONDS = frozenset({3, 6, 9, 12, 15})
# spec §4.5 step 2, §8.6, R17: Wounds tick at the start of these Seconds, 1 damage per Wound.

ARENA_LENGTH = 200
# spec §3.2, R21, R53: the battle line is [0, 200] ft.

MELEE_MISS = 1
RANGED_MISS = 4
# spec §5.2 step 5, R13: a total at or below these misses (no natural-1/20 rule).

PARRY_STAMINA = 1
DODGE_STAMINA = 1
MULTIDODGE_STAMINA = 3
# spec §6.1, §9.1: Stamina costs of the reactions.

MORALE_PRE_ROLL = 2
# spec §5.10, §9.2, R27: 1 Morale before a roll gives +2 flat, at most once per roll.

CLOSING_WOUNDS_SECONDS = 3
CLOSING_WOUNDS_MAX = 5
# spec §5.5: X = 1..5 Stamina, a 3-Second buff, -100% to all Combat Rolls.

REST_EVERY = 5
# spec §4.6 step 2, §5.4, R30: 1D4 Stamina per 5 counted rest Seconds.

EXHAUSTION_R = 25
# spec §1.4.3, R3: Exhaustion takes 25% off positive Combat-Roll bonuses, Fatigued 25% more.

CRIPPLE_CAP_STACKS = 3
# spec §7.5, R59: each Crippled stack takes 5% of sdc_max and hp_base off max and current,
# all four Crippled effects together capped at 15% (3 stacks' worth).

CRIPPLED_LEG_MAX = 15
# spec §7.5, R6: Crippled Leg stacks up to 15 on each leg.

CLOSER_BAND_PCT = 25
# spec §2.6, §5.2.1, R45: -25% Strike and -25% Damage Modifier per band closer than the reach.

INTO_MELEE = {1: (75, 75), 2: (25, 60), 3: (10, 10), 4: (1, 1)}
# spec §5.2.2, R26: melee band -> (Strike penalty % per member, retarget chance %).

MULTIDODGE_BACK_DIVISOR = 2
# spec §6.1, R9: the BACK variant moves floor(eff_PM / 2) ft away from the first attacker.

ENTRY_MARGIN_PER_LAYER = 5
# spec §5.3, R23: one Zone layer per 5 points (or part of 5) of the Maneuver margin.

PARRY_MELEE_ONLY = True
# R62: Parry only against melee Strikes.

OPPORTUNITY_COSTS_NO_ACTION = True
# R24: one free opportunity Strike per Zone layer left; the mover is Unaware.

TWO_HANDED_ARM_SHARE = (1, 2)
# ENGINE (spec §7.5 Crippled Arm): a two-handed weapon takes half of each arm's values; an
# unarmed or first one-handed weapon is in the primary hand, the second one-handed in the other.

DEFENDER_LAYER_POLICY = "armour"
# spec §6.5: a mitigated (parried) hit lands on the armour while it has S.D.C., else the body.

MAX_TIE_REROLLS = 20
# ENGINE (spec §3.4, R18 "re-roll until distinct"): a bound so a fight always advances; a group
# still tied after it (or one whose rolls are all forced to 0) keeps roster order.

DICE_ORDERS: dict[str, str] = {
    "initiative": "spec §3.4: 1D20 per active combatant in roster order; then each tied group, "
                  "highest total first, re-rolls in roster order (turns.roll_initiative)",
    "second_end": "spec §4.6 step 2: 1D4 Stamina per resting combatant whose rest Seconds reach "
                  "a multiple of 5, in initiative order (turns._second_end)",
    "spend_slot": "spec §4.7, R60: 1D4 per Internal Bleeding stack when a slot becomes USED or "
                  "CONSUMED, before the action's own dice (economy.spend_slot)",
    "strike": "spec §5.2: [attacker's Internal Bleeding] -> strike d20 -> [defender's Internal "
              "Bleeding for a Dodge slot] -> [defender d20] -> [retarget d100 + choose(n) + "
              "natural d20 + the new defender's dice] -> [crit table d100] -> damage dice -> "
              "crit-table sub-dice (strike.strike)",
    "zone_entry": "spec §5.3: mover's Maneuver d20, then the enemy's, once per enemy per move, "
                  "enemies in initiative order (movement._contest)",
    "opportunity": "spec §5.2.3: as a Strike from its d20, with no defence (movement.move)",
}
# Every dice order the CORE engine draws in, and where it is drawn (spec §1.4.1: tests force
# results by supplying faces in exactly this order).

RELIED_ON: dict[str, str] = {
    "R2": "rolls.combat_total: percent buckets multiply (nat + flat), floored, clamped at 0",
    "R3": "rolls.effective_bonus: Exhaustion/Fatigued scale positive bonuses only",
    "R4": "turns.second_start / second_end: ticks at the start, expiry and checks at the end",
    "R5": "conditions: applied in t for D s -> triggers t+1..t+D, expires at the end of t+D",
    "R8": "slots.future_slot: a Dodge takes the earliest future AVAILABLE slot of this round",
    "R9": "strike: one defence per attack; Multi-Dodge window and the BACK move",
    "R10": "resolve.commit / slots.carry: multi-Action commitments, carry-over, abandonment",
    "R11": "damage.pipeline: Parry Mitigation 75% in the Damage Modifier when P > S0",
    "R12": "damage.apply_hit: shields, then armour S.D.C. (excess lost), then S.D.C., H.P.",
    "R13": "MELEE_MISS / RANGED_MISS; no natural-roll automatics",
    "R14": "damage.crit_table: a mitigated crit scales its numeric losses by (100 - PM)%",
    "R15": "damage.crit_table: Vital Wound to H.P., Blood Gush an immediate Wound tick",
    "R16": "damage.pipeline: closer band, crippled arm and parry in the Damage Modifier",
    "R17": "WOUND_SECONDS; tick damage bypasses armour and shields",
    "R18": "turns.roll_initiative: ties re-roll among themselves; comatose do not roll",
    "R19": "slots.slot_counts for any N; a second pass for N > 15",
    "R20": "slots.GRID row 13 as a set",
    "R21": "movement: the 1-D battle line, Full Move floor(eff_PM x 15 / N), Step budget",
    "R22": "profile.radii: 10/35/100/200% of height, rounded half up",
    "R23": "movement.entry: ceil(margin / 5) layers, ties to the defender, first failure stops",
    "R24": "OPPORTUNITY_COSTS_NO_ACTION",
    "R25": "movement: no passing a conscious enemy's coordinate",
    "R26": "INTO_MELEE; strike.into_melee and the natural-d20 retarget",
    "R27": "MORALE_PRE_ROLL; one Morale boost per turn, _M reactions",
    "R28": "conditions.state_check: Depression stacks ceil(marker - morale)",
    "R32": "damage.update_health: hp <= 0 Coma, hp <= -hp_base Dead",
    "R33": "resolve: costs paid at declaration",
    "R45": "CLOSER_BAND_PCT; unarmed always available; Grappling only with short weapons",
    "R47": "resolve: Wait, Defend, Rest",
    "R51": "exact Fractions, one floor per computation",
    "R58": "strike: no defence decision when S0 already misses",
    "R59": "CRIPPLE_CAP_STACKS",
    "R60": "slots.spend: every USED/CONSUMED slot is an Action for Internal Bleeding",
    "R62": "PARRY_MELEE_ONLY",
    "R64": "turns: the combat-end check after every action, reaction and tick phase",
}
# The rulings above and where the engine carries them out (docs and the report read this).
