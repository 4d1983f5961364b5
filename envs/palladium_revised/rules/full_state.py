"""FULL rules state (spec §12.2): the effects one combatant carries (``Effects``, one
``Combatant.fx`` field with its own clone and snapshot) and what they change in a roll, a save,
a Stamina cost and the movement rate (spec §7.3-§7.6, §9.1).

Every record is an immutable value (a tuple or an int), so a clone copies one level and a
snapshot is plain data. Durations follow spec §1.4.4: an effect applied in Second ``t`` for ``D``
Seconds has ``until = t + D`` and expires at the end of that Second (``full_effects.expire``).

Records (``None`` / ``()`` / 0 when absent):

* ``ee``, ``se``: the E.E. and S.E. pools (spec §9.3);
* ``power_draw`` ``(X, at, until)``; ``ward`` and ``empowered`` ``(shield, until)`` (Damage
  Shields, spec §8.3); ``enduring`` ``(amount, at, until)``; ``focused`` ``(stacks, until)``;
  ``recovery`` stacks;
* ``ignite`` ``(controller, tick, until)``; ``numbing`` and ``soaked`` ``((controller, at), ...)``
  per stack; ``stunned`` ``((controller, until), ...)``; ``prone``;
* ``taunt`` ``(controller, (until, ...))``; ``distract`` ``(controller, stacks, until)``;
* crit-table conditions (spec §7.5): ``lung_crush``/``lung_healed``, ``blood_vision``/
  ``bv_healed`` and ``bv_ranged`` (the 7-s ranged penalty per stack), ``racing_heart``/
  ``rh_healed``, ``heartbeat``/``exposure``/``broken_resistance`` (until), ``vital_blow``
  ``(until, ...)``;
* hazards (spec §8.9): ``suffocation`` ``(until, ...)``, ``air_lost_at`` (Second the air ran
  out, or None), ``coma_saves``; ``surprised`` (the ambush Second, spec §3.5);
* ``no_pe``: the being-without-P.E. rules apply (spec §2.1, R43; FULL only).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from envs.core.snapshot import StateFields

if TYPE_CHECKING:
    from .combatant import Combatant
    from .profile import Arm

__all__ = ["Effects", "full_pct", "save_pct", "stamina_cost", "stamina_loss", "move_pct", "shields",
           "COMBAT_ROLLS", "NUMBING_MAX", "SOAKED_MAX", "STUNNED_MAX"]

COMBAT_ROLLS = ("initiative", "strike", "parry", "dodge", "maneuver", "taunt", "spell_power")
# spec §1.4.3, §7: "all Combat Rolls".
NUMBING_MAX, SOAKED_MAX, STUNNED_MAX = 15, 10, 20  # spec §7.3, R6


class Effects:
    """The FULL effects on one combatant (see the module docstring for each record)."""

    __slots__ = ("ee", "se", "power_draw", "ward", "empowered", "enduring", "focused",
                 "recovery", "ignite", "numbing", "soaked", "stunned", "prone", "taunt",
                 "distract", "lung_crush", "lung_healed", "blood_vision", "bv_healed",
                 "bv_ranged", "racing_heart", "rh_healed", "heartbeat", "exposure",
                 "broken_resistance", "vital_blow", "suffocation", "air_lost_at",
                 "coma_saves", "surprised", "no_pe", "fizzled")
    FIELDS = StateFields(values=__slots__)

    def __init__(self, ee: int = 0, se: int = 0, no_pe: bool = False) -> None:
        self.ee, self.se, self.no_pe = ee, se, no_pe
        self.power_draw: tuple[int, int, int] | None = None
        self.ward: tuple[int, int] | None = None
        self.empowered: tuple[int, int] | None = None
        self.enduring: tuple[int, int, int] | None = None
        self.focused: tuple[int, int] | None = None
        self.recovery = 0
        self.ignite: tuple[str, int, int] | None = None
        self.numbing: tuple[tuple[str, int], ...] = ()
        self.soaked: tuple[tuple[str, int], ...] = ()
        self.stunned: tuple[tuple[str, int], ...] = ()
        self.prone = False
        self.taunt: tuple[str, tuple[int, ...]] | None = None
        self.distract: tuple[str, int, int] | None = None
        self.lung_crush = self.lung_healed = 0
        self.blood_vision = self.bv_healed = 0
        self.bv_ranged: tuple[int, ...] = ()
        self.racing_heart = self.rh_healed = 0
        self.heartbeat: int | None = None
        self.exposure: int | None = None
        self.broken_resistance: int | None = None
        self.vital_blow: tuple[int, ...] = ()
        self.suffocation: tuple[int, ...] = ()
        self.air_lost_at: int | None = None
        self.coma_saves = 0
        self.surprised = False
        self.fizzled = False  # a committed spell fizzled at declaration (spec §5.9 step 1)

    def copy(self) -> Effects:
        return Effects.FIELDS.clone(self)

    def to_dict(self) -> dict[str, Any]:
        return Effects.FIELDS.dump(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Effects:
        fx = cls()
        Effects.FIELDS.load(fx, d)
        return fx

    # ------------------------------------------------------------------ reading
    @property
    def taunt_stacks(self) -> int:
        return len(self.taunt[1]) if self.taunt else 0

    @property
    def distract_stacks(self) -> int:
        return self.distract[1] if self.distract else 0

    def view(self, now: int) -> dict[str, Any]:
        """The FULL condition fields of a combatant's view row (spec §12.5 condition vector);
        ``ignite`` is the Seconds left after ``now`` (0: none, 1: ends this Second)."""
        return {
            "power_draw": self.power_draw[0] if self.power_draw else 0,
            "ignite": self.ignite[2] - now + 1 if self.ignite else 0,
            "numbing": len(self.numbing), "soaked": len(self.soaked),
            "stunned": len(self.stunned), "prone": self.prone,
            "taunt": self.taunt_stacks, "taunt_by": self.taunt[0] if self.taunt else None,
            "distract": self.distract_stacks,
            "distract_by": self.distract[0] if self.distract else None,
            "lung_crush": self.lung_crush, "blood_vision": self.blood_vision,
            "racing_heart": self.racing_heart, "heartbeat": self.heartbeat is not None,
            "exposure": self.exposure is not None, "vital_blow": len(self.vital_blow),
            "broken_resistance": self.broken_resistance is not None,
            "ward": self.ward[0] if self.ward else 0,
            "empowered_body": self.empowered[0] if self.empowered else 0,
            "focused_healing": self.focused[0] if self.focused else 0,
            "recovery": self.recovery, "enduring_heal": self.enduring[0] if self.enduring else 0,
            "suffocation": len(self.suffocation), "surprised": self.surprised,
        }


def full_pct(c: Combatant, kind: str, w: Arm | None = None) -> Fraction:
    """The FULL percent terms of ``c``'s Combat Roll of ``kind`` (spec §7.6)."""
    fx = c.fx
    pct = 0
    if kind in COMBAT_ROLLS:
        pct -= 25 * (fx.ignite is not None) + 5 * len(fx.stunned) + 5 * len(fx.suffocation)
        pct -= 100 * (fx.power_draw is not None)
    if kind in ("strike", "dodge", "maneuver"):
        pct -= 10 * len(fx.numbing)
    if kind == "strike" and fx.prone:
        pct -= 200
    elif kind == "dodge" and fx.prone:
        pct -= 100
    elif kind == "maneuver":
        pct -= 15 * fx.lung_crush
    elif kind == "initiative":
        pct -= 10 * fx.blood_vision
    elif kind == "spell_power":
        pct -= 15 * c.dazed
    return Fraction(pct)


def save_pct(c: Combatant, save: str) -> Fraction:
    """spec §7.1, §7.5, §7.6: the percent bucket of a Save (``magic``, ``insanity_taunt``,
    ``insanity_distract``, ``insanity_stun``): Depression on every Save, the low-Morale
    penalty and Broken Resistance on Insanity, Concussion on Insanity (Stun/Control)."""
    pct = -5 * c.depression
    if save.startswith("insanity"):
        pct -= 5 * c.insanity
        if save in ("insanity_stun", "insanity_control"):
            pct -= 10 * c.concussion
    if c.fx.broken_resistance is not None:
        pct -= 10
    return Fraction(pct)


def stamina_cost(c: Combatant, base: int) -> int:
    """spec §6.1, §9.1, R37, R43: Soaked +50%, Suffocation +25% per stack, rounded up; a being
    without P.E. pays nothing (FULL)."""
    return _raised(c, base, 50 * bool(c.fx.soaked) + 25 * len(c.fx.suffocation))


def stamina_loss(c: Combatant, base: int) -> int:
    """spec §9.1, §8.9, R43: a Stamina loss (not a cost) takes Suffocation's +25% per stack,
    rounded up, but not Soaked's x1.5 (Soaked raises costs only, §7.3.3); 0 without P.E."""
    return _raised(c, base, 25 * len(c.fx.suffocation))


def _raised(c: Combatant, base: int, pct: int) -> int:
    if base <= 0 or c.fx.no_pe:
        return 0
    return math.ceil(Fraction(base) * (100 + pct) / 100) if pct else base


def move_pct(c: Combatant) -> int:
    """spec §7.3, §7.5: movement percent from Numbing, Soaked (-5% each) and Lung Crush (-10%)."""
    fx = c.fx
    return -5 * (len(fx.numbing) + len(fx.soaked)) - 10 * fx.lung_crush


def shields(c: Combatant) -> int:
    """Total Damage Shield (Ward and Empowered Body, spec §8.3, §9.4)."""
    return (c.fx.ward[0] if c.fx.ward else 0) + (c.fx.empowered[0] if c.fx.empowered else 0)
