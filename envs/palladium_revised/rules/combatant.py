"""A combatant's runtime state (spec §2.2, §3.3, §4.3, §7): pools, position, slots of the round,
commitment, reaction statuses and conditions. Declared once as ``StateFields`` so clone and
snapshot follow one list."""

from __future__ import annotations

from typing import Any

from envs.core.snapshot import StateFields

from .full_state import Effects, move_pct
from .profile import Profile, band
from .slots import AVAILABLE, RESERVED, slot_positions

__all__ = ["Combatant", "ACTIVE", "COMA", "DEAD", "OUT", "CRIPPLED"]

ACTIVE, COMA, DEAD = "active", "coma", "dead"
OUT = "out"  # spec §7.1: left the fight by Escape (FULL)
CRIPPLED = ("leg_right", "leg_left", "arm_left", "arm_right")
# spec §7.5: the four Crippled effects of the Evocation and Attacks table.


class Combatant:
    """One fighter. ``state`` is ``active``, ``coma`` or ``dead`` (spec §8.7)."""

    __slots__ = (
        "id", "side", "profile", "x", "sdc", "sdc_max", "hp", "hp_max", "stamina", "morale",
        "armor_sdc", "wounds", "state", "slot_at", "slot_state", "carry_over", "commitment",
        "step_budget", "defending", "resting", "rest_seconds", "multidodge", "md_back",
        "boost_pending", "ammo", "closing", "crippled", "concussion", "dazed",
        "internal_bleeding", "cripple_applied", "exhausted", "fatigued", "depression",
        "insanity", "initiative", "fx",
    )
    FIELDS = StateFields(
        values=("id", "side", "x", "sdc", "sdc_max", "hp", "hp_max", "stamina", "morale",
                "armor_sdc", "wounds", "state", "slot_at", "carry_over", "commitment",
                "step_budget", "defending", "resting", "rest_seconds", "multidodge", "md_back",
                "boost_pending", "closing", "concussion", "dazed", "internal_bleeding",
                "cripple_applied", "exhausted", "fatigued", "depression", "insanity",
                "initiative"),
        containers=("slot_state", "ammo", "crippled", "fx"),
        shared=("profile",),
        encode={"fx": Effects.to_dict}, decode={"fx": Effects.from_dict},
    )

    def __init__(self, cid: str, side: str, profile: Profile, x: int) -> None:
        p = profile
        self.id, self.side, self.profile, self.x = cid, side, p, x
        self.sdc, self.sdc_max = p.sdc_max, p.sdc_max
        self.hp, self.hp_max = p.hp_base, p.hp_base
        self.stamina, self.morale = p.stamina_max, p.morale_max
        self.armor_sdc = p.armor_sdc
        self.wounds = 0
        self.state = ACTIVE
        self.slot_at: tuple[tuple[int, int], ...] = slot_positions(p.actions)
        self.slot_state: list[str] = [AVAILABLE] * len(self.slot_at)
        self.carry_over = 0
        self.commitment: str | None = None  # the label of a multi-Action action in progress
        self.step_budget = 0
        self.defending = False
        self.resting = False
        self.rest_seconds = 0
        self.multidodge: int | None = None  # the stored Multi-Dodge total (spec §6.1)
        self.md_back: str | None = None  # BACK: the first attacker, until its attack resolves
        self.boost_pending = False  # spec §5.10: +2 to the next Combat Roll of this turn
        self.ammo: dict[str, int] = {w.id: w.ammo for w in p.weapons if w.ammo is not None}
        self.closing: tuple[int, int, int] | None = None  # (X, applied at, expires at)
        self.crippled: dict[str, int] = dict.fromkeys(CRIPPLED, 0)
        self.concussion = 0
        self.dazed = 0
        self.internal_bleeding = 0
        self.cripple_applied = 0  # Crippled stacks that took S.D.C./H.P. (cap R59)
        self.exhausted = False
        self.fatigued = False
        self.depression = 0
        self.insanity = 0
        self.initiative: int | None = None  # this round's total (None: did not roll)
        self.fx = Effects(p.ee_max, p.se_max)  # FULL effects and pools (full_state.py)

    # ------------------------------------------------------------------ reading
    @property
    def active(self) -> bool:
        """spec §8.7: not comatose, dead or out."""
        return self.state == ACTIVE

    @property
    def alive(self) -> bool:
        """Not dead and not out (FULL: an escaped combatant left play)."""
        return self.state not in (DEAD, OUT)

    def dist(self, other: Combatant) -> int:
        return abs(self.x - other.x)

    def band_to(self, other: Combatant) -> int:
        """``band_self(d)``: the band of ``other``'s distance by this combatant's radii."""
        return band(self.profile.radii, self.dist(other))

    def eff_pm(self) -> int:
        """spec §5.3: ``floor(P.M. x max(0, 100 + movement%) / 100)``; Crippled Leg -5%/stack."""
        pct = -5 * (self.crippled["leg_right"] + self.crippled["leg_left"]) + move_pct(self)
        return self.profile.pm * max(0, 100 + pct) // 100

    def full_move_ft(self) -> int:
        """spec §5.3, R21: ``floor(eff_PM x 15 / N)``."""
        return self.eff_pm() * 15 // self.profile.actions

    def committed(self) -> bool:
        return self.commitment is not None

    def reserved_left(self) -> int:
        return sum(1 for s in self.slot_state if s == RESERVED)

    # ------------------------------------------------------------------ clone and snapshot
    def clone(self) -> Combatant:
        return Combatant.FIELDS.clone(self)

    def to_dict(self) -> dict[str, Any]:
        return Combatant.FIELDS.dump(self)

    def load(self, d: dict[str, Any]) -> None:
        Combatant.FIELDS.load(self, d)
