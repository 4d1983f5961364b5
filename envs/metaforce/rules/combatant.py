"""A combatant's runtime state (spec §3.5 starting resources, §4, §7, §8.6, §9) next to its fixed
``Profile``; clone and snapshot follow the declared ``FIELDS``."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from envs.core.snapshot import StateFields

from . import rulings
from .profile import Profile, Weapon, size_mult
from .records import STATUSES

__all__ = ["Combatant", "ACTIVE", "OUT_STATES", "severity", "status_core"]

ACTIVE = "active"
OUT_STATES = ("incapacitated", "unconscious", "dead", "retreated")
# spec §8.7: active means none of these (Asleep at Intense is FULL).


def status_core(status: str) -> str:
    """spec §7.4, §7.5: the Status Defence a status targets (``records.STATUSES``)."""
    d = STATUSES.get(status)
    return d.core if d is not None else "body"


def severity(magnitude: int, sd: int) -> str:
    """spec §7.1: ``ended`` (M <= 0), ``partial``, ``full`` or ``intense`` against ``sd``."""
    if magnitude <= 0:
        return "ended"
    if magnitude < sd:
        return "partial"
    return "intense" if magnitude >= sd + rulings.INTENSE_MARGIN else "full"


_HELD: dict[int, tuple[Any, list[Weapon]]] = {}
"""``Combatant.weapons`` with nothing thrown, by stat block (kept with the block, for identity)"""


class Combatant:
    """One fighter in one encounter.

    ``statuses`` maps a status name to ``(magnitude, tick X, source id)`` (spec §7.1, §7.4);
    ``loaded``/``reserve``/``speedloaders``/``fired``/``unloaded`` track firearms (§5.6), ``primed``
    and ``arrows`` bows (§5.7); ``stun`` is the number of own frames still to lose (R-14).
    """

    __slots__ = ("id", "side", "profile", "x", "y", "state", "hp", "mp", "mp_max", "mu",
                 "exert", "tension", "reactions", "no_react", "vigilance", "frames_left",
                 "frame", "turns", "acted", "aware", "stun", "special_until", "grappling",
                 "extra_grips", "deus_ex_uses", "a8_used", "bought", "safe", "safe_until",
                 "own_frames",
                 "burn_injury", "casting", "cast_left", "cast_target", "mana_until",
                 "tw_used", "ff_uses", "statuses", "suppressed", "lapse", "loaded", "reserve",
                 "speedloaders", "fired", "unloaded", "primed", "arrows", "gone", "escaped",
                 "free_move", "rp", "effects")
    FIELDS = StateFields(
        values=("id", "side", "x", "y", "state", "hp", "mp", "mp_max", "mu", "exert", "tension",
                "reactions", "no_react", "vigilance", "frames_left", "frame", "turns", "acted",
                "aware", "stun", "special_until", "grappling", "extra_grips", "deus_ex_uses",
                "a8_used", "bought", "safe", "safe_until", "own_frames", "burn_injury", "casting",
                "cast_left", "cast_target", "mana_until", "tw_used", "ff_uses", "free_move", "rp"),
        containers=("statuses", "suppressed", "lapse", "loaded", "reserve", "speedloaders",
                    "fired", "unloaded", "primed", "arrows", "gone", "escaped", "effects"),
        shared=("profile",),
        decode={"statuses": lambda d: {k: tuple(v) for k, v in d.items()},
                "effects": lambda d: [tuple(e) for e in d]})

    def __init__(self, cid: str, side: str, profile: Profile, pos: tuple[int, int],
                 aware: bool = True, primed: bool = False) -> None:
        p = profile
        self.id, self.side, self.profile = cid, side, p
        self.x, self.y = pos
        self.state = ACTIVE
        self.hp, self.mp, self.mp_max, self.mu = p.hp_max, p.mp_max, p.mp_max, p.metaforce_user
        self.exert, self.tension = 0, 0
        self.reactions = 1 if aware else 0  # spec §3.4
        self.no_react = False  # a Partial Stun takes the Reactions until the next turn
        self.vigilance = False
        self.frames_left, self.frame, self.turns = 0, 0, 0
        self.acted = False
        self.aware = aware
        self.stun = 0
        self.special_until = -1  # own turn count at whose end a pending setup lapses
        self.grappling: str | None = None
        self.extra_grips: tuple[str, ...] = ()  # FULL: the grips after the first (spec §5.9)
        self.deus_ex_uses = p.deus_ex_uses
        self.a8_used = False  # Action-8 this round (spec §6.4, FULL)
        self.bought = 0  # Reactions bought with React-4 this turn (held after it)
        self.safe = 0  # Safe-6 (6) or Assurance-8 (8) in force (spec §6.4, R-44, FULL)
        self.safe_until = 0  # the own frame whose start ends it
        self.own_frames = 0  # own frames begun (played or lost) in the encounter
        self.burn_injury = False  # R-19 (FULL): attack damage x1.5 for the rest of the fight
        self.casting: str | None = None  # a levelled spell being cast (spec §5.8, FULL)
        self.cast_left = 0  # its casting frames still to come
        self.cast_target: str | None = None
        self.mana_until = -1  # tapped mana lasts to the end of this own turn (-1: none)
        self.tw_used = False  # Team Work this round (R-40, FULL)
        self.ff_uses = p.force_fate_uses  # Force Fate uses, persistent (spec §3.5, §6.4)
        self.statuses: dict[str, tuple[int, int, str]] = {}
        self.suppressed: dict[str, int] = {}  # lingering magnitudes not in force (R-17, FULL)
        self.lapse: dict[str, int] = {}  # status -> the own turn at whose end it ends (Slow)
        self.loaded: dict[str, int] = {w.id: w.capacity for w in p.weapons
                                       if w.family == "firearm"}  # spec §3.5: no +1 yet
        self.reserve = {w.id: w.reserve for w in p.weapons if w.family == "firearm"}
        self.speedloaders = {w.id: w.speedloaders for w in p.weapons if w.family == "firearm"}
        self.fired = {w.id: False for w in p.weapons if w.family == "firearm"}
        self.unloaded = {w.id: False for w in p.weapons if w.family == "firearm"}
        self.primed = {w.id: primed for w in p.weapons if w.family == "bow"}
        self.arrows = {w.id: w.arrows or 20 for w in p.weapons if w.family == "bow"}
        self.gone: list[str] = []  # thrown weapons
        self.escaped: list[str] = []  # statuses already checked this frame (§5.10)
        self.free_move = False  # freed by this frame's Escape: its movement is still to come
        self.rp = p.level  # Rest Points (spec §9.5): Level, restored by a Long Rest
        self.effects: list[tuple[str, str, int, str, int]] = []  # full_focus (FULL, §7.9)

    # ------------------------------------------------------------------ reading
    @property
    def pos(self) -> tuple[int, int]:
        return (self.x, self.y)

    @property
    def n(self) -> int:
        s = self.profile.space
        return s if s > 1 else 1

    @property
    def active(self) -> bool:
        return self.state == ACTIVE

    @property
    def alive(self) -> bool:
        return self.state != "dead"

    @property
    def present(self) -> bool:
        """On the battlefield (dead bodies stay; the retreated are gone)."""
        return self.state != "retreated"

    def attr(self, name: str) -> int:
        return self.profile.attr(name)

    @property
    def reach(self) -> int:
        """Natural reach in squares (R-27: 5 ft x Size), the reach of a grapple."""
        return max(1, self.profile.reach_ft // rulings.SQUARE_FT)

    def sd(self, core: str) -> int:
        return int(self.profile.status_defence.get(core, 0))

    def magnitude(self, status: str) -> int:
        s = self.statuses.get(status)
        return s[0] if s else 0

    def status_severity(self, status: str) -> str:
        return severity(self.magnitude(status), self.sd(status_core(status)))

    @property
    def grappled(self) -> str:
        """``""``, or the severity of the Grappled status (R-37)."""
        return self.status_severity("grappled") if "grappled" in self.statuses else ""

    @property
    def immobilised(self) -> bool:
        return self.grappled in ("full", "intense")

    @property
    def stunned(self) -> bool:
        return self.stun > 0

    def heal(self, amount: int) -> int:
        """Heal ``amount`` HP, times the Size Rating of a Size 2+ creature (spec §8.3), up to Max
        HP; returns the HP gained (Absorb, Heal, Rest)."""
        size = self.profile.size
        gain = int(amount * size_mult(size)) if size >= 2 else amount
        gain = max(0, min(gain, self.profile.hp_max - self.hp))
        self.hp += gain
        return gain

    @property
    def exert_total(self) -> int:
        return self.exert + self.tension

    @property
    def tired(self) -> bool:
        """Cannot have Advantage: Tired (R-20), or Drowsy (Sleep Partial, spec §7.5, FULL)."""
        if self.exert + self.tension >= self.profile.exert_threshold:
            return True
        return "sleep" in self.statuses and self.status_severity("sleep") == "partial"

    @property
    def asleep(self) -> bool:
        """spec §7.5 (FULL): Sleep at Full or Intense: no frames, no Reactions, Evasion 0."""
        return "sleep" in self.statuses and self.status_severity("sleep") != "partial"

    @property
    def deep_asleep(self) -> bool:
        """spec §7.5, §8.7 (FULL): Sleep at Intense, no longer active for the end of combat."""
        return "sleep" in self.statuses and self.status_severity("sleep") == "intense"

    @property
    def exhausted(self) -> bool:
        return self.exert + self.tension >= self.profile.exert_limit

    def evasion(self) -> int:
        """spec §2.5 step 5, R-14: 0 when Immobilised, Incapacitated, Unconscious, Stunned or
        Asleep (spec §7.5, FULL)."""
        if self.state != ACTIVE or self.stun > 0:
            return 0
        if self.statuses and (self.immobilised or self.asleep):
            return 0
        return self.profile.evasion

    def deflection(self, evasion: int | None = None) -> int:
        """spec §2.5: passive Deflection (Body + armour) is kept when E is 0 (``evasion``: the
        caller's ``evasion()`` of this state, when it has it)."""
        if (self.evasion() if evasion is None else evasion) == 0:
            p = self.profile
            if p.immobile_deflection is not None:
                return p.immobile_deflection
            return int(p.cores.get("body", 0)) + p.deflection_bonus
        return self.profile.deflection

    def speed_squares(self) -> int:
        """spec §5.1, R-37: Grappled Partial halves Speed, Full or Intense stops it; spec §7.5
        (FULL): Slow Partial takes 5 ft, Full and Intense halve it."""
        if not self.statuses:
            return self.profile.speed_ft // rulings.SQUARE_FT
        if self.immobilised:
            return 0
        sq = self.profile.speed_ft // rulings.SQUARE_FT
        sq = sq // 2 if self.grappled == "partial" else sq
        if "slow" in self.statuses:
            sq = max(0, sq - 1) if self.status_severity("slow") == "partial" else sq // 2
        return sq

    def can_react(self) -> bool:
        """spec §4.5, §6.1 W-R1: holds a Reaction, not Stunned, Incapacitated or worse."""
        return (self.active and self.reactions > 0 and not self.stunned and not self.no_react
                and self.casting is None  # no Reactions while casting
                and not self.asleep)  # spec §4.5, §7.5 (FULL)

    def weapons(self) -> list[Weapon]:
        """The attack slots in hand (R-60): the first weapon that takes a hand always, each later
        one while the hands it takes still fit (weapon 1 beside weapon 0 when both fit); unarmed
        strikes, natural weapons and cantrips take none; a thrown weapon is gone, and the next
        slot may then come to hand."""
        p = self.profile
        if not self.gone:  # the common case, the same for every combatant of the stat block
            got = _HELD.get(id(p))
            if got is not None and got[0] is p:
                return got[1]
        out, used = [], 0
        for w in self.profile.weapons:
            if w.id in self.gone:
                continue
            if w.holds_hand:
                if used and used + w.hands > self.profile.hands:
                    continue  # not in hand (spec §5.2 #3, #10: "a weapon in hand")
                used += w.hands
            out.append(w)
        if not self.gone:
            if len(_HELD) > 4096:
                _HELD.clear()
            _HELD[id(p)] = (p, out)
        return out

    def grips(self) -> tuple[str, ...]:
        """Every creature it grapples: ``grappling`` first, then FULL's further grips (spec §5.9
        item 4: one grapple per free Manipulate appendage)."""
        return () if self.grappling is None else (self.grappling, *self.extra_grips)

    def holds(self, tid: str) -> bool:
        """Whether it grapples ``tid`` (``tid in grips()``, without building the tuple)."""
        return self.grappling == tid or (bool(self.extra_grips) and tid in self.extra_grips)

    def add_grip(self, tid: str) -> None:
        if self.grappling is None:
            self.grappling = tid
        elif not self.holds(tid):
            self.extra_grips = (*self.extra_grips, tid)

    def drop_grip(self, tid: str) -> None:
        """Let ``tid`` go; the next grip (if any) becomes ``grappling``."""
        if self.grappling == tid:
            self.grappling, self.extra_grips = (self.extra_grips[0], self.extra_grips[1:]) \
                if self.extra_grips else (None, ())
        else:
            self.extra_grips = tuple(g for g in self.extra_grips if g != tid)

    def free_hands(self) -> int:
        """R-60: the hands the weapons in hand (``weapons``) leave free."""
        return max(0, self.profile.hands - sum(w.hands for w in self.weapons() if w.holds_hand))

    # ------------------------------------------------------------------ clone and snapshot
    def state_key(self) -> tuple[Any, ...]:
        """Everything this combatant's state holds, hashable (the stat block by identity): see
        ``MetaforceEncounter.state_key``."""
        return (id(self.profile), _VALUES(self),
                tuple([(tuple(x.items()) if type(x) is dict else tuple(x)) if x else ()
                       for x in _CONTAINERS(self)]))

    def clone(self) -> Combatant:
        return Combatant.FIELDS.clone(self)

    def to_dict(self) -> dict[str, Any]:
        d = Combatant.FIELDS.dump(self)
        d["statuses"] = {k: list(v) for k, v in self.statuses.items()}
        return d

    def load(self, data: dict[str, Any]) -> None:
        Combatant.FIELDS.load(self, data)


_VALUES = attrgetter(*Combatant.FIELDS.values)
_CONTAINERS = attrgetter(*Combatant.FIELDS.containers)
