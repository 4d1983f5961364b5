"""Mano a Mano rulings and fixed numbers (spec rules/mano_a_mano.md §10), one named constant each.

Every gap the seed leaves is filled by a ruling of spec §10; the constant below carries its number,
so code that relies on it cites it by name.
"""

from __future__ import annotations

from fractions import Fraction

HEX_METERS = 2
# RULING R6: one hex is a 2 m space; running N = N hexes a turn.


def range_m(hex_distance: int) -> int:
    """Range distance in metres for missile rules: ``2 x (h - 1)``, adjacent = 0 m (RULING R6,
    R8)."""
    return HEX_METERS * max(0, hex_distance - 1)


ONE_HANDED_HEFT_FACTOR = Fraction(3, 2)
# RULING R34: a two-handed weapon with neither control nor offense used in one hand compares the
# exact 1.5 x heft with the limb's power (no rounding).

INEPT_PENALTY = -4
# spec §2.8 (stated): an inept character takes -4 on rolls for which it has no applicable ability.

COMPLETE_COVER = 10
# spec §2.6 (stated): armor cover adding up to 10 or more is complete; RULING R55 keeps one region
# un-avoided then.

# RULING R16 (grapple power = best hand, or best natural weapon without hands), RULING R20 (bows and
# guns add no agility) and RULING R48 (melee defense falls back on 10 + agility) are formulas; they
# live in catalogue.StatBlock where the derived values are computed.

GRAPPLES_NEED_ADJACENCY = True
# Project ruling (spec §5.7.1 and R43 are silent): a push moves the target, and a kept hold moves
# the actor after it; any other grapple of theirs whose members end up more than one hex apart ends,
# since a hold cannot reach across a hex.

# ---- mounted combat and falls (spec §5.11, §6.3, §5.7.4, RULING R57; FULL rules, spec §12.2 item
# 9)

STAY_MOUNTED_DIFFICULTY = 10
# spec §5.11 (stated): each time a war animal attacks or defends, its rider rolls riding vs 10 to
# stay mounted.

STAY_MOUNTED_ABILITIES = ("riding",)
# Project ruling (spec §6.3 says "best eligible ability" and names none): only riding is eligible;
# the seed's animal handling "includes the ability to control riding animals, but not the physical
# ability to do riding stunts", and staying on a fighting animal is such a stunt. An inept rider
# without it takes -4 (spec §2.8); position modifiers do not apply (RULING R52).

STAY_MOUNTED_AFTER_RESOLUTION = True
# Project ruling (spec §5.11 is silent on timing): the roll comes once the attack made by or against
# the mount has resolved (after its balance or breakfall roll), once per attack; none when the mount
# went down (its rider falls anyway, MOUNT_DOWN_UNSEATS) or when the fight ended (RULING R54).

RIDER_USES_MOUNT_MOVEMENT = True
# Project ruling (the spec is silent on how "a rider may charge using the mount's movement" works in
# a turn order where the animal has turns of its own; seed [Action/Mounted Combat]: "instead of
# having the animal attack, a rider may use the animal's speed to do a charging attack"): a mounted
# rider's own move decisions move the pair, with the mount's movement points (its running, halved
# when encumbered, R26) in place of the rider's, and a straight run counts toward the rider's charge
# as any run does (spec §4.5, RULING R28). The animal's speed is then spent: the mount skips its
# next turn (no movement, no action), and the rider may move the pair again only in the turn that
# spent it. The mount's own moves in its own turns carry the rider too, but are not the rider's
# run-up.

RIDER_FALL_HEIGHT_M = 1
# Project ruling for RULING R57: a rider who falls from its mount falls from the animal's back,
# about 1.5 m for a horse, counted in whole metres: +1 to the fall's power. With no attacker the
# fall's power is the rider's own natural-weapon power (spec §5.7.4), plus any drop from the mount's
# hex to the hex it lands in.

RIDER_LANDS_NEARBY = True
# Project ruling (spec §3.2, RULING R46: one fighter per hex): a rider who falls or dismounts lands
# in the first free, passable hex next to its mount, in direction order 0..5 (then the next ring
# out); a dismount needs a free neighbouring hex.

MOUNT_DOWN_UNSEATS = True
# Project ruling (spec silent): a ridden mount that goes to the ground (a fall, a slam, following a
# partner down) or becomes incapacitated throws its rider, with no roll; so does a rider that
# becomes incapacitated. RULING R23's drop "with no fall damage" is sinking down where one stands;
# leaving a saddle is a fall (spec §5.7.4). A ridden mount may not drop to the ground by choice.

MOUNTED_NO_GRAPPLING = True
# Project ruling (spec silent on grappling a rider): a mounted rider neither makes grappling actions
# nor is the target of one (a fighter on foot cannot clinch a rider above it); a rider is unhorsed
# through its mount (attacks on it, its falls). The mount may be grappled; a push moves the pair,
# and a mount held in a grapple cannot be ridden anywhere (spec §4.5: grapplers cannot walk).

MOUNT_ACTIONS_QUICK = True
# Project ruling (the spec has no mount or dismount action): mounting (onto an adjacent, standing,
# unridden war animal of the same side, neither of them grappling) and dismounting are quick actions
# that use no weapon, like stand and drop; the rider moves into the mount's hex, or out of it
# (RIDER_LANDS_NEARBY). The movement left is capped at what the new way of moving allows.

NO_ANIMAL_HANDLING = True
# Left out (spec §5.11 animal handling): every mount in the catalogue is a trained war animal
# (``mount: war``), which fights on its own and never needs calming; rolls to keep it from attacking
# and untrained riding animals that flee are not modelled.

LEDGE_FALL_M = 2
# Project ruling for RULING R57 (spec silent on pushes over an edge): a push that moves the target
# down a drop of 2 m or more (one hex's width) is a fall whatever the balance roll, for a target on
# the ground too; smaller drops only add their metres to a fall that happens.

# Falls audited (spec §5.7.4, RULING R14, R57): a push into a wall is a fall in place (no height); a
# push to a lower hex adds the drop to a failed balance (and falls outright at LEDGE_FALL_M); trips
# and slams fell the target where it stands (no height); a rider's fall adds RIDER_FALL_HEIGHT_M and
# any drop to its landing hex; RULING R23's incapacitation drop happens in place and deals nothing,
# except for riders (MOUNT_DOWN_UNSEATS). Moving voluntarily between heights is climbing and jumping
# (spec §5.11), not implemented.

# ---- guns (spec §5.6 "Guns (FULL)", §3.6, RULING R50; FULL rules, spec §12.2 item 3; guns.py)

MUZZLE_LOADER_TURNS = 3
# RULING R50: a gun whose reload time t (``shots: [s, t]``, spec §2.4) is 3 turns or more is a heavy
# muzzle-loader: it reloads with t full-turn "other" reload actions (category O, spec §5.3 row 18:
# each the turn's single action, allowed while injured, RULING R12), and then holds s shots. A
# musket (spec §11.18) is shots [1, 9]: nine reload actions and a turn to fire.

GUN_RELOADS = ("clip", "round")
# RULING R50, for guns with a reload time under MUZZLE_LOADER_TURNS (the catalogue's ``reload``):
# "clip": unload (quick) takes the clip out, load (quick) puts a full one in (s shots): two quick
# actions and two uses of the gun, so two turns at speed 1 (RULING R11); "round": each load (quick)
# adds one round, up to s. The reload time t of these guns only prices the feature (spec §2.9.7).


def gun_reload_default(shots: int) -> str:
    """Project ruling (the catalogue may leave ``reload`` out): a single-shot gun loads by the
    round, a gun of two or more shots by the clip (RULING R50)."""
    return "round" if shots == 1 else "clip"


GUN_UNLOAD_CLIP_ONLY = True
# Project ruling (spec §5.3 row 17, §5.6): only a clip gun unloads. Ammunition is unlimited and not
# tracked (RULING R33), so spec §5.6's "held ammunition must be put away with one more quick action
# per separately stowed round" never arises: a round-by-round gun is never unloaded, only topped up.

SHOT_WEAPON = "drawn_bow_else_gun"
# Project ruling (the action layout's shoot, aim, load and unload name no weapon): with a drawn
# bow, shots and aim are the bow's (the drawn-bow lock, RULING R32, allows nothing else); otherwise
# they, load and unload use the held gun, the first in hand order right, left, both. Draw and fire
# and relax stay bow actions.

GUN_STATE_PER_ITEM = True
# Project ruling (spec §3.6: guns start loaded to full): a gun's state (shots left, clip out, reload
# actions done) belongs to the item: it stays with a gun that is dropped, disarmed or picked up.

GUNS_UNWIELDY = True
# Project reading of spec §2.3 and §4.4: the unwieldy test (heft > the wielding hand's power)
# applies to guns as to any weapon: an unwieldy gun allows one quick action a turn and no strategic
# or cautious shot (both strenuous). A muzzle-loader's reload (an "other" action) is not strenuous.

PICK_UP_CHOICES = 2
# Project ruling (spec §5.10 is silent on piles): of the items lying in one hex, a fighter can
# reach the two on top, i.e. the two distinct items dropped or landed there last; the others come
# within reach as those are taken. (The action layout gives each hex two item choices.)

DELAY_ONCE_PER_ROUND = True
# Project reading of spec §4.6 and RULING R10 (the seed is silent on repeats): a character may delay
# once a round, and not while another character's delayed turn is still waiting. Without it two
# characters could delay behind each other for ever.
