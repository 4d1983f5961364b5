"""Combatant runtime state (spec §2.6) and the condition table (spec §7, R-22, R-23).

Conditions use ``envs.core.conditions``: the action ladder (Jarred 1 .. Unconscious 5) and the
fatigue ladder (Winded 1 .. Disabled 4, Disabled + Disabled gives Unconscious) are LADDER rungs.
Durations run on two clocks (spec §4.8, R-22): ``slot`` counts team turns from the start of the
encounter, ``(round - 1) * slots + slot``, so "for N rounds" is ``N * slots`` and expires at the
start of the same slot N rounds later; ``turn_end`` counts the bearer's own ended team turns
("until the end of its next turn").
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache
from typing import Any

from envs.core.conditions import ConditionDef, ConditionSet, ConditionTable, Stacking, ladder
from envs.core.snapshot import StateFields

from . import rulings
from .full_conditions import full_defs, stat_totals
from .profile import Profile, modifier

__all__ = ["Fighter", "condition_table", "ACTION", "FATIGUE", "ActionRung", "FatigueRung"]


class ActionRung(IntEnum):
    JARRED = 1
    STAGGERED = 2
    STUNNED = 3
    PARALYZED = 4
    UNCONSCIOUS = 5


class FatigueRung(IntEnum):
    WINDED = 1
    TIRED = 2
    LETHARGIC = 3
    DISABLED = 4


ACTION = "action"
FATIGUE = "fatigue"


@lru_cache(maxsize=16)
def condition_table(slots: int) -> ConditionTable:
    """The table for an encounter of ``slots`` team turns a round (escalation caps of "max 1
    round" are ``slots`` on the slot clock, spec §7.2)."""
    defs = ladder(ACTION, ActionRung, clock="slot", caps={4: slots, 5: slots})
    defs += ladder(FATIGUE, FatigueRung, clock="slot", nexts={4: "unconscious"})
    defs = [d for d in defs if d.name != "unconscious" or d.ladder == ACTION]
    defs += [
        ConditionDef("prone"), ConditionDef("blinded"), ConditionDef("deafened"),
        ConditionDef("unnerved", Stacking.STACK, "slot", bounds=rulings.UNNERVED_BOUNDS,
                     stack_same_source=False),
        ConditionDef("falling"),  # spec §8.8 (FULL; set and cleared by full_motion)
    ]
    defs += full_defs()  # spec §7.2 FULL conditions; Afraid is the fear ladder's rung 1
    return ConditionTable(defs)


class Fighter:
    """One combatant's mutable state; ``profile`` is shared by clones (spec §2.6)."""

    __slots__ = (
        "id", "side", "profile", "x", "y", "hp", "mana", "guard", "dice", "reactions",
        "alive", "fled", "used", "stun_count", "minor_used", "extra_used", "pool_open",
        "pool_general", "pool_weapon", "budget", "mode", "steps", "charge_dir", "charge_path",
        "mr", "aim_active", "aim_round", "wielded", "stowed", "conds", "grips", "grappled_by",
        "turns_ended", "skill_uses", "n", "z", "ground", "speeds", "fall_turn", "fallen",
        "cling", "fall_steps", "attack_debt", "primary_debt", "fx",
    )
    FIELDS = StateFields(
        values=("id", "side", "x", "y", "hp", "mana", "guard", "dice", "reactions", "alive",
                "fled", "used", "stun_count", "minor_used", "pool_open", "pool_general", "budget",
                "mode", "steps", "charge_dir", "mr", "aim_active", "aim_round", "turns_ended",
                "z", "ground", "fall_turn", "fallen", "cling", "fall_steps", "attack_debt",
                "primary_debt"),
        containers=("extra_used", "pool_weapon", "charge_path", "wielded", "stowed", "grips",
                    "grappled_by", "skill_uses", "speeds", "fx"),
        shared=("profile", "conds", "n"),
        encode={"conds": lambda c: c.to_dict()},
    )

    def __init__(self, cid: str, side: str, profile: Profile, at: tuple[int, int],
                 table: ConditionTable) -> None:
        p = profile
        self.id, self.side, self.profile = cid, side, p
        self.n = p.side_n  # the block side N (1 for a fractional footprint)
        self.x, self.y = at
        self.hp, self.mana, self.guard = p.max_hp, p.max_mana, 0
        self.dice, self.reactions = p.exertion_max, p.base_reactions
        self.alive, self.fled = True, False
        self.used = ""  # the P/D/M/B spent this turn
        self.stun_count = 0  # actions since the start of its own turn (spec §4.6 Stunned)
        self.minor_used = 0  # Extra/Free actions this turn (spec §4.6 Disabled)
        self.extra_used: list[str] = []
        self.pool_open, self.pool_general = False, 0
        self.pool_weapon: dict[str, int] = {}
        self.budget, self.mode, self.steps = 0, "none", 0
        self.charge_dir: int | None = None
        self.charge_path: list[tuple[int, int]] = []
        self.mr = p.mr
        self.aim_active, self.aim_round = False, 0
        self.wielded: dict[str, str] = dict(p.wielded)
        self.stowed: list[str] = list(p.stowed)
        self.conds = ConditionSet(table)
        self.grips: dict[str, int] = {}  # grappled target -> hands
        self.grappled_by: list[str] = []
        self.turns_ended = 0
        self.skill_uses: dict[str, int] = {}
        # FULL motion (full_motion): height above the ground under it, that ground's height,
        # the other move speeds (§5.2.18), the fall in progress (§8.8) and the Wall Cling DC
        self.z, self.ground = 0, 0
        self.speeds: dict[str, int] = {}
        self.fall_turn, self.fallen, self.cling, self.fall_steps = 0, 0, 0, 0
        self.attack_debt, self.primary_debt = 0, False  # R-57 (Quick Draw, FULL)
        self.fx: dict[str, int] = {}  # FULL counters: awareness, Strangle contests (full_actions)

    # -- clone / snapshot
    def clone(self) -> Fighter:
        new = Fighter.FIELDS.clone(self)
        new.conds = self.conds.copy()
        return new

    def to_dict(self) -> dict[str, Any]:
        d = Fighter.FIELDS.dump(self)
        d["conds"] = self.conds.to_dict()
        return d

    def load(self, data: dict[str, Any], table: ConditionTable) -> None:
        Fighter.FIELDS.load(self, data)
        self.conds = ConditionSet.from_dict(data["conds"], table)
        self.charge_path = [tuple(c) for c in self.charge_path]  # type: ignore[misc]

    # -- derived reads
    @property
    def pos(self) -> tuple[int, int]:
        return (self.x, self.y)

    def has(self, name: str) -> bool:
        return name in self.conds

    @property
    def prone(self) -> bool:
        return "prone" in self.conds

    @property
    def action_rung(self) -> int:
        """spec §7.3, R-17: the effective action rung; the HP Stun counts as Stunned."""
        r = self.conds.rung(ACTION)
        return max(r, 3) if self.hp <= 0 else r

    @property
    def fatigue(self) -> int:
        return self.conds.rung(FATIGUE)

    @property
    def unconscious(self) -> bool:
        return self.action_rung >= ActionRung.UNCONSCIOUS

    @property
    def tired(self) -> bool:
        return self.fatigue >= FatigueRung.TIRED

    @property
    def lethargic(self) -> bool:
        return self.fatigue >= FatigueRung.LETHARGIC

    @property
    def unnerved(self) -> int:
        return self.conds.value("unnerved") if "unnerved" in self.conds else 0

    def mod(self, stat: str) -> int:
        """A stat modifier from the Totals (spec §2.2)."""
        return _mods(stat_totals(self))[stat]  # FULL: Totals changed by §7.2, §7.4

    def mods(self) -> dict[str, int]:
        """Every ``mod`` by stat at once (read-only, shared)."""
        return _mods(stat_totals(self))

    @property
    def athletics(self) -> int:
        """spec §2.3: ``Might + Attacks + SN``."""
        return self.mod("might") + self.profile.attacks + self.profile.sn

    @property
    def nimble(self) -> int:
        """spec §2.3: ``Skill + Attacks + (16 - SN)``."""
        return self.mod("skill") + self.profile.attacks + 16 - self.profile.sn

    @property
    def arcana(self) -> int:
        return self.mod("magic") + self.profile.mana_scaling

    def hands_used(self) -> int:
        held = sum(self.profile.weapon(w).hands or 1 for w in self.wielded.values())
        return held + sum(self.grips.values())

    @property
    def free_hands(self) -> int:
        return max(0, self.profile.hands - self.hands_used())

    def block_guard(self) -> int:
        """RULING R-09: the highest Guard among wielded weapons, plus the armour's bonus."""
        p = self.profile
        guards = [p.weapon(w).guard for w in self.wielded.values()]
        guards += [p.weapon(w).guard for w in p.natural]
        return max(guards, default=0) + p.guard_bonus


@lru_cache(maxsize=256)
def _mods(totals: tuple[int, int, int]) -> dict[str, int]:
    """``Fighter.mod`` by stat for one set of Totals (read-only, shared)."""
    might, skill, magic = (modifier(t) for t in totals)
    return {"might": might, "skill": skill, "magic": magic,
            "best_might_skill": max(might, skill), "none": 0}
