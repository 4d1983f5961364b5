"""The Metanoia encounter: runtime state, legal actions and resolution (spec §3 to §9).

One ``MetanoiaEncounter`` is one fight. Decisions come in four phases:

====================  =====================================  ==========================================
phase                 who decides                            labels
====================  =====================================  ==========================================
``turn``              the combatant whose turn it is         ``recover``, ``withdraw``, ``move 0``,
                                                             ``hide``, ``sense -> x``, ``guard -> x``,
                                                             ``mark -> x``, ``attack OPT -> x``,
                                                             ``condition OPT -> x``, ``argue OPT -> x``,
                                                             ``support OPT -> x``  (+motive/+identity)
``intercept``         a Guarding ally of the target (R25)    ``intercept yes`` / ``intercept no``
``challenge``         an enemy in the mover's zone (R23)     ``challenge yes`` / ``challenge no``
``react``             the Reactor of an opposed roll (§6.1)  ``react none`` / ``react OPT`` (+traits)
====================  =====================================  ==========================================

Dice are drawn in the documented order: initiative (side A slot 0.. then side B), then per opposed
roll the Actor's pool and then the Reactor's (RULING R8).
"""

from __future__ import annotations

from typing import Any

from envs.core.actions import Action, ActionSyntaxError, IllegalActionError, parse_label
from envs.core.dice import Dice
from envs.core.encounter import EncounterBase, Outcome, SideInfo
from envs.core.events import (
    ActionTaken,
    EncounterEnded,
    Event,
    OutOfFight,
    RoundStarted,
    TurnStarted,
)

from . import rulings
from .catalogue import Option, StatBlock, catalogue, parse_stat_block
from .events import (
    CheckResult,
    ConvictionsChanged,
    Healed,
    InitiativeRolled,
    InjuryLanded,
    Moved,
    NothingLands,
    OpposedResolved,
    Paid,
    PoolRolled,
    Revealed,
    StacksChanged,
    StatusChanged,
    Stayed,
    StrainChanged,
)
from .options import RuleOptions, parse_options
from .pools import pool_size

SYSTEM = "metanoia"
TRAITS = ("motive", "identity")
CONCEALMENT = ("obscured", "hidden")  # spec §7.2
STATUS_OF = {"deteriorating": "deteriorating", "pin": "pinned", "slip": "slip"}  # keyword -> status
STATUSES = ("deteriorating", "slip", "pinned", "obscured", "hidden")
HOSTILE_KINDS = ("attack", "condition", "argue")


class Fighter:
    """Runtime state of one combatant (spec §2.1)."""

    __slots__ = ("id", "block", "side", "slot", "strain", "injuries", "conv", "stacks", "zone",
                 "statuses", "defeated", "broken", "fled", "guarding", "surprised")

    def __init__(self, cid: str, block: StatBlock, side: str, slot: int, zone: int) -> None:
        self.id = cid
        self.block = block
        self.side = side
        self.slot = slot
        self.strain = block.strain_max  # spec §3.5, RULING R4/R5
        self.injuries: list[tuple[str, int]] = []  # (keyword, severity) in fill order, RULING R16
        self.conv = block.conv_max
        self.stacks = 0
        self.zone = zone
        self.statuses: dict[str, int] = {}
        if block.stealthy:  # RULING R31: Stealthy R starts the fight Obscured R
            self.statuses["obscured"] = block.stealthy
        self.defeated = self.broken = self.fled = False
        self.guarding: str | None = None
        self.surprised = False

    def copy(self) -> Fighter:
        f = Fighter.__new__(Fighter)
        f.id, f.block, f.side, f.slot = self.id, self.block, self.side, self.slot
        f.strain, f.injuries, f.conv, f.stacks = self.strain, list(self.injuries), self.conv, self.stacks
        f.zone, f.statuses = self.zone, dict(self.statuses)
        f.defeated, f.broken, f.fled = self.defeated, self.broken, self.fled
        f.guarding, f.surprised = self.guarding, self.surprised
        return f

    @property
    def active(self) -> bool:
        return not (self.defeated or self.broken or self.fled)

    @property
    def concealed(self) -> bool:
        st = self.statuses
        return "obscured" in st or "hidden" in st

    @property
    def concealment(self) -> int:
        st = self.statuses
        return max(st.get("obscured", 0), st.get("hidden", 0))

    def boosts(self) -> tuple[tuple[str, ...], ...]:
        """Motive/Identity choices with a rank above 0 (RULING R3), cheapest first."""
        b = self.block
        out: list[tuple[str, ...]] = [()]
        if b.motive:
            out.append(("motive",))
        if b.identity:
            out.append(("identity",))
        if b.motive and b.identity:
            out.append(("motive", "identity"))
        return tuple(out)

    def to_dict(self, concealed_from_viewer: bool = False) -> dict[str, Any]:
        d = {
            "id": self.id, "name": self.block.name, "block_id": self.block.id, "side": self.side,
            "slot": self.slot, "realm": self.block.realm, "texture": self.block.texture,
            "strain": self.strain, "strain_max": self.block.strain_max,
            "injuries": [{"keyword": k, "severity": s} for k, s in self.injuries],
            "injury_slots": self.block.injury_slots, "conv": self.conv, "conv_max": self.block.conv_max,
            "stacks": self.stacks, "zone": self.zone, "statuses": dict(self.statuses),
            "concealed": self.concealed, "active": self.active, "defeated": self.defeated,
            "broken": self.broken, "fled": self.fled, "guarding": self.guarding,
            "surprised": self.surprised,
        }
        if concealed_from_viewer:  # spec §7.2: enemies see neither zone nor statuses
            d["zone"] = None
            d["statuses"] = {}
            d["guarding"] = None
        return d


class Pending:
    """A declaration waiting for off-turn decisions (intercept, challenge, react)."""

    __slots__ = ("kind", "actor", "target", "reactor", "option", "boosts", "exploit_dice", "ambush",
                 "candidates", "move_from", "move_to", "paid", "react_option", "react_boosts")

    def __init__(self, kind: str, actor: str, target: str | None, option: Option | None,
                 boosts: tuple[str, ...]) -> None:
        self.kind, self.actor, self.target, self.option, self.boosts = kind, actor, target, option, boosts
        self.reactor: str | None = target
        self.exploit_dice = 0
        self.ambush = False
        self.candidates: list[str] = []
        self.move_from: int | None = None
        self.move_to: int | None = None
        self.paid = False
        self.react_option: Option | None = None
        self.react_boosts: tuple[str, ...] = ()

    def copy(self) -> Pending:
        p = Pending.__new__(Pending)
        for name in Pending.__slots__:
            setattr(p, name, getattr(self, name))
        p.candidates = list(self.candidates)
        return p

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "actor": self.actor, "target": self.target, "reactor": self.reactor,
            "option": self.option.name if self.option else None, "boosts": list(self.boosts),
            "exploit_dice": self.exploit_dice, "ambush": self.ambush, "candidates": list(self.candidates),
            "move_from": self.move_from, "move_to": self.move_to, "paid": self.paid,
            "react_option": self.react_option.name if self.react_option else None,
            "react_boosts": list(self.react_boosts),
        }


def _option_named(block: StatBlock, name: str | None) -> Option | None:
    if name is None:
        return None
    for o in block.options:
        if o.name == name:
            return o
    raise KeyError(name)


class MetanoiaEncounter(EncounterBase):
    """One Metanoia fight (the ``Encounter`` protocol of ``envs.core``)."""

    system = SYSTEM

    def __init__(self, fighters: list[Fighter], options: RuleOptions, order: list[str], *,
                 hazards: dict[int, int] | None = None, surprised: str | None = None,
                 name: str = "custom") -> None:
        self.name = name
        self.options = options
        self.fighters = fighters
        self.by_id = {f.id: f for f in fighters}
        self.order = order
        self.hazards = dict(hazards or {})
        self.surprised_side = surprised if options.surprise else None
        self.turn_idx = -1
        self._round = 1
        self.phase = "turn"
        self.pending: Pending | None = None
        self._outcome: Outcome | None = None
        self._legal: list[Action] | None = None
        self._legal_set: frozenset[Action] | None = None
        self.start_events: list[Event] = []
        self._textures = catalogue().textures
        sides: dict[str, list[str]] = {}
        for f in fighters:
            sides.setdefault(f.side, []).append(f.id)
        self._sides = tuple(SideInfo(s, tuple(m)) for s, m in sides.items())

    # ------------------------------------------------------------------ protocol: reading
    def sides(self) -> tuple[SideInfo, ...]:
        return self._sides

    def is_active(self, combatant: str) -> bool:
        return self.by_id[combatant].active

    def turn_owner(self) -> str | None:
        return None if self.turn_idx < 0 or self._outcome else self.order[self.turn_idx]

    def current_actor(self) -> str | None:
        if self._outcome is not None:
            return None
        phase = self.phase
        if phase == "turn":
            return self.order[self.turn_idx]
        p = self.pending
        if phase == "react":
            return p.reactor
        return p.candidates[0]  # intercept / challenge: asked in initiative order

    def knows(self, viewer: str, other: str) -> bool:
        """Whether ``viewer`` sees ``other``'s zone and statuses (spec §7.2: not a concealed enemy)."""
        a, b = self.by_id[viewer], self.by_id[other]
        return a.side == b.side or not b.concealed

    def view(self, actor: str) -> dict[str, Any]:
        """What ``actor`` may know: the snapshot with concealed enemies' zone and statuses hidden."""
        snap = self.snapshot()
        me = self.by_id[actor]
        for f in self.fighters:
            if f.side != me.side and f.concealed:
                snap["combatants"][f.id] = f.to_dict(concealed_from_viewer=True)
        snap["viewer"] = actor
        return snap

    # ------------------------------------------------------------------ setup
    def begin(self, dice: Dice | None, roll_initiative: bool) -> list[Event]:
        """Start the fight: roll initiative (spec §3.3, RULING R24) and start the first turn."""
        events: list[Event] = []
        if roll_initiative:
            rolls = []
            key = {}
            side_rank = {s.side: i for i, s in enumerate(self._sides)}
            for f in self.fighters:  # side A slot 0, 1, ..., then side B
                faces = dice.roll(6, rulings.INITIATIVE_DICE)
                s = self._successes(f, faces)
                rolls.append((f.id, faces, s))
                key[f.id] = (-s, -f.block.realm, side_rank[f.side], f.slot)
            self.order = sorted((f.id for f in self.fighters), key=key.__getitem__)
            events.append(InitiativeRolled(tuple(rolls), tuple(self.order)))
        if self.surprised_side:
            for f in self.fighters:
                f.surprised = f.side == self.surprised_side
        events.append(RoundStarted(self._round))
        self.turn_idx = -1
        self._next_turn(events)
        self.start_events = events
        return events

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
            self._legal_set = None
        return self._legal

    def _compute_legal(self) -> list[Action]:
        if self._outcome is not None:
            return []
        phase = self.phase
        if phase == "turn":
            return self._turn_actions(self.by_id[self.order[self.turn_idx]])
        p = self.pending
        if phase == "react":
            return self._react_actions(self.by_id[p.reactor], p)
        who = p.candidates[0]
        return [Action(who, phase, ("no",)), Action(who, phase, ("yes",))]

    def _enemies(self, c: Fighter) -> list[Fighter]:
        return [f for f in self.fighters if f.side != c.side and f.active]

    def _turn_actions(self, c: Fighter) -> list[Action]:
        opts = self.options
        cid = c.id
        acts = [Action(cid, "recover")]  # spec §5.12: always legal, the "pass"
        pinned = "pinned" in c.statuses
        enemies = self._enemies(c)
        seen_in_zone = any(e.zone == c.zone and not e.concealed for e in enemies)
        boosts = c.boosts()
        if opts.withdraw and not pinned and not seen_in_zone and c.zone == self._rear(c.side):
            acts.append(Action(cid, "withdraw"))  # RULING R37
        if not pinned:  # spec §5.11: one zone, not off the field; traits paid only if rolled
            for z in (c.zone - 1, c.zone + 1):
                if 0 <= z < opts.zones:
                    acts.extend(Action(cid, "move", (str(z),), None, b) for b in boosts if len(b) <= c.strain)
            if not seen_in_zone:  # RULING R20
                acts.extend(Action(cid, "hide", (), None, b) for b in boosts if len(b) <= c.strain)
        for e in enemies:  # RULING R21: Sense any concealed enemy, any zone
            if e.concealed:
                acts.extend(Action(cid, "sense", (), e.id, b) for b in boosts if len(b) <= c.strain)
        if opts.guard:  # RULING R25
            for a in self.fighters:
                if a.side == c.side and a is not c and a.active and a.zone == c.zone:
                    acts.append(Action(cid, "guard", (), a.id))
        targets = [e for e in enemies if not e.concealed]
        far_mark = any(o.reach == "far" and "Atk" in o.uses for o in c.block.options)  # RULING R11
        for e in targets:
            if far_mark or e.zone == c.zone:
                acts.extend(Action(cid, "mark", (), e.id, b) for b in boosts if len(b) <= c.strain)
        for o in c.block.options:
            uses = o.uses
            if "Sup" in uses:
                for a in self.fighters:
                    if a.side == c.side and a.active and (o.reach == "far" or a.zone == c.zone):
                        if self._support_ok(o, a) and self._affordable(c, 0, o, a):
                            acts.append(Action(cid, "support", (o.name,), a.id))
                continue
            kinds = []
            if "Atk" in uses:
                kinds.append("attack")
            if "Cnd" in uses:
                kinds.append("condition")
            if "Arg" in uses:
                kinds.append("argue")
            for kind in kinds:
                for e in targets:
                    if o.reach != "far" and e.zone != c.zone:
                        continue
                    if kind == "argue" and e.block.conv_max is None:  # RULING R29
                        continue
                    for b in boosts:
                        if self._affordable(c, len(b), o, e):
                            acts.append(Action(cid, kind, (o.name,), e.id, b))
        return acts

    def _react_actions(self, r: Fighter, p: Pending) -> list[Action]:
        rid = r.id
        actor = self.by_id[p.actor]
        choices: list[Option | None] = [None]
        barred = p.ambush or (r.surprised and self.surprised_side is not None)  # RULING R19, R36
        if not barred:
            choices.extend(o for o in r.block.options if o.reactive)  # RULING R7
        acts = []
        for o in choices:
            for b in r.boosts():
                if o is None:
                    if len(b) <= r.strain:
                        acts.append(Action(rid, "react", ("none",), None, b))
                elif self._affordable(r, len(b), o, actor):
                    acts.append(Action(rid, "react", (o.name,), None, b))
        return acts

    @staticmethod
    def _affordable(c: Fighter, traits: int, o: Option, target: Fighter) -> bool:
        """RULING R40: Strain >= trait cost + max(0, option cost - stacks Fuel may take)."""
        fuel = target.stacks if o.stacks == "fuel" else 0
        return c.strain >= traits + max(0, o.cost - fuel)

    @staticmethod
    def _support_ok(o: Option, target: Fighter) -> bool:
        """Preconditions of support keywords (spec §5.3 #9-#12)."""
        kw = o.keyword
        if kw == "mend":
            return bool(target.injuries)
        if kw == "clear":
            return target.stacks > 0
        if kw == "rally":
            return target.block.conv_max is not None and target.conv < target.block.conv_max
        return True

    def _rear(self, side: str) -> int:
        """RULING R37: side A's rear is zone 0, side B's the last zone."""
        return 0 if side == self._sides[0].side else self.options.zones - 1

    # ------------------------------------------------------------------ apply
    def parse_action(self, label: str) -> Action:
        action = parse_label(label)
        for who, field in ((action.actor, "actor"), (action.target, "target")):
            if who is not None and who not in self.by_id:
                raise ActionSyntaxError(f"{label!r}: unknown {field} {who!r}; combatants: {', '.join(self.by_id)}")
        for b in action.boosts:
            if b not in TRAITS:
                raise ActionSyntaxError(f"{label!r}: unknown boost '+{b}'; expected +motive, +identity or +motive+identity")
        return action

    def apply(self, action: Action, dice: Dice) -> list[Event]:
        legal = self.legal_actions()
        if not any(a is action for a in legal):  # fast path: an object from legal_actions()
            if self._legal_set is None:
                self._legal_set = frozenset(legal)
            if action not in self._legal_set:
                raise IllegalActionError(self._why_illegal(action, legal))
        events: list[Event] = [ActionTaken(action.label)]
        self._legal = self._legal_set = None
        phase = self.phase
        if phase == "turn":
            self._do_turn_action(action, dice, events)
        elif phase == "react":
            self._do_react(action, dice, events)
        elif phase == "intercept":
            self._do_intercept(action, dice, events)
        else:
            self._do_challenge(action, dice, events)
        return events

    def _why_illegal(self, action: Action, legal: list[Action]) -> str:
        head = f"round {self._round}: {action.label!r} is not legal"
        if self._outcome is not None:
            return f"{head}: the fight is over"
        who = self.current_actor()
        if action.actor != who:
            return f"{head}: it is {who}'s decision ({self.phase})"
        same = sorted({a.label for a in legal if a.kind == action.kind})
        hint = "; ".join(same[:6]) if same else ", ".join(sorted({a.kind for a in legal}))
        return f"{head} for {who} now ({self.phase}); legal {'options' if same else 'kinds'}: {hint}"

    def _do_turn_action(self, a: Action, dice: Dice, events: list[Event]) -> None:
        c = self.by_id[a.actor]
        kind = a.kind
        if kind == "recover":  # spec §5.12, RULING R5
            gain = min(rulings.RECOVER_STRAIN, c.block.strain_max - c.strain)
            c.strain += gain
            events.append(StrainChanged(c.id, gain, c.strain, "recover"))
        elif kind == "withdraw":  # RULING R37
            c.fled = True
            events.append(OutOfFight(c.id, "fled"))
        elif kind == "move":
            if self._declare_move(c, int(a.args[0]), a.boosts, dice, events):
                return
        elif kind == "hide":  # spec §5.9, RULING R20
            self._pay(c, len(a.boosts), None, None, events, "hide")
            s = self._roll(c, a.boosts, None, None, 0, dice, events, "hide")
            total = s + c.block.stealthy
            if total > 0 and total > c.statuses.get("obscured", 0):
                c.statuses["obscured"] = total
                events.append(StatusChanged(c.id, "obscured", total, "hides"))
            elif total <= 0:
                events.append(Stayed(c.id, "fails to hide: 0 successes"))
        elif kind == "sense":  # spec §5.10, RULING R21
            t = self.by_id[a.target]
            self._pay(c, len(a.boosts), None, None, events, "sense")
            s = self._roll(c, a.boosts, None, None, 0, dice, events, f"sense {t.id}")
            rank = t.concealment
            events.append(CheckResult(c.id, f"sensing {t.id}", s, rank, s >= rank))
            if s >= rank:
                self._reveal(t, f"sensed by {c.id}", events)
        elif kind == "guard":  # RULING R25
            c.guarding = a.target
        elif kind == "support":  # RULING R12
            self._support(c, _option_named(c.block, a.args[0]), self.by_id[a.target], events)
        else:  # attack / condition / argue / mark: spec §5.2
            option = None if kind == "mark" else _option_named(c.block, a.args[0])
            self._declare_hostile(c, kind, option, self.by_id[a.target], a.boosts, events)
            return
        self._end_turn(events)

    # ------------------------------------------------------------------ opposed rolls
    def _declare_hostile(self, c: Fighter, kind: str, option: Option | None, target: Fighter,
                         boosts: tuple[str, ...], events: list[Event]) -> None:
        """spec §5.2 steps 1-3: declare, pay (R8, R10), then interception (R25, R41)."""
        p = Pending(kind, c.id, target.id, option, boosts)
        p.ambush = c.concealed  # RULING R19
        self._pay(c, len(boosts), option, target, events, kind)
        if option is not None and option.stacks == "exploit_dice":  # spec §5.3 #7
            take = min(option.rank, target.stacks)
            if take:
                target.stacks -= take
                p.exploit_dice = take
                events.append(StacksChanged(target.id, -take, target.stacks, f"{c.id}'s Exploit"))
        self.pending = p
        if self.options.guard:
            guards = [g for g in (self.by_id[i] for i in self.order)
                      if g.guarding == target.id and g.active and g.zone == target.zone
                      and not (kind == "argue" and g.block.conv_max is None)]
            if guards:
                p.candidates = [g.id for g in guards]
                self.phase = "intercept"
                return
        self.phase = "react"

    def _do_intercept(self, a: Action, dice: Dice, events: list[Event]) -> None:
        p = self.pending
        if a.args[0] == "yes":  # RULING R25/R41: the guard becomes target and Reactor
            g = self.by_id[a.actor]
            g.guarding = None
            p.reactor = g.id
            p.candidates = []
            if g.concealed:
                self._reveal(g, "intercepts", events)
            self.phase = "react"
            return
        p.candidates.pop(0)
        if not p.candidates:
            self.phase = "react"

    def _declare_move(self, c: Fighter, to: int, boosts: tuple[str, ...], dice: Dice,
                      events: list[Event]) -> bool:
        """spec §5.11, RULING R23/R35. Returns True while the Move waits for challenges."""
        p = Pending("move", c.id, None, None, boosts)
        p.move_from, p.move_to = c.zone, to
        h = self.hazards.get(to, 0) if self.options.hazards else 0
        if h > 0:  # RULING R35: unopposed roll before entering; traits paid once
            self._pay(c, len(boosts), None, None, events, "move")
            p.paid = True
            s = self._roll(c, boosts, None, None, 0, dice, events, f"hazard of zone {to}")
            events.append(CheckResult(c.id, f"the hazard of zone {to}", s, h, s >= h))
            if s < h:
                events.append(Stayed(c.id, "hazard roll failed"))
                self._end_turn(events)
                return True
        if not c.concealed:
            p.candidates = [e for e in self.order
                            if self.by_id[e].side != c.side and self.by_id[e].active and self.by_id[e].zone == c.zone]
        if p.candidates:
            self.pending = p
            self.phase = "challenge"
            return True
        c.zone = to
        events.append(Moved(c.id, p.move_from, to))
        return False

    def _do_challenge(self, a: Action, dice: Dice, events: list[Event]) -> None:
        p = self.pending
        if a.args[0] == "yes":
            ch = self.by_id[a.actor]
            p.reactor = p.target = ch.id
            p.candidates = []
            if ch.concealed:  # RULING R19/R23
                self._reveal(ch, "challenges a Move", events)
            if not p.paid:  # RULING R23: the mover pays its traits only when challenged
                self._pay(self.by_id[p.actor], len(p.boosts), None, None, events, "challenged move")
                p.paid = True
            self.phase = "react"
            return
        p.candidates.pop(0)
        if not p.candidates:
            c = self.by_id[p.actor]
            c.zone = p.move_to
            events.append(Moved(c.id, p.move_from, p.move_to))
            self.pending = None
            self._end_turn(events)

    def _do_react(self, a: Action, dice: Dice, events: list[Event]) -> None:
        p = self.pending
        r = self.by_id[a.actor]
        ro = None if a.args[0] == "none" else _option_named(r.block, a.args[0])
        p.react_option, p.react_boosts = ro, a.boosts
        self._pay(r, len(a.boosts), ro, self.by_id[p.actor], events, "reaction")
        self._resolve(p, dice, events)
        self.pending = None
        self._end_turn(events)

    def _resolve(self, p: Pending, dice: Dice, events: list[Event]) -> None:
        """spec §5.2 steps 5-12."""
        A, R = self.by_id[p.actor], self.by_id[p.reactor]
        ro = p.react_option
        gap = A.block.realm - R.block.realm
        if abs(gap) >= rulings.RULE0_GAP:  # Rule 0 [S]: no dice, higher wins, no stacks (R14)
            winner, a_s, r_s, margin, how = (A if gap > 0 else R), 0, 0, 0, "rule0"
        else:
            ward = ro.rank if ro is not None and ro.keyword == "ward" else 0  # spec §5.3 #5
            a_s = self._roll(A, p.boosts, R, p.option, p.exploit_dice, dice, events, p.kind, consume_slip=False)
            r_s = self._roll(R, p.react_boosts, A, ro, ward, dice, events, "defence", consume_slip=False)
            for f in (A, R):  # Slip is used by this roll (RULING R18)
                if "slip" in f.statuses:
                    del f.statuses["slip"]
                    events.append(StatusChanged(f.id, "slip", 0, "used"))
            if a_s != r_s:
                winner, how = (A if a_s > r_s else R), "roll"
            else:  # spec §5.4: decided by the Actor's declared action only (R32)
                winner, how = (A if p.kind in ("condition", "mark", "move") else R), "tie"
            margin = abs(a_s - r_s)
        loser = R if winner is A else A
        events.append(OpposedResolved(A.id, R.id, a_s, r_s, winner.id, margin, how))
        if margin:  # step 9: margin stacks on the loser (R9 cap)
            self._add_stacks(loser, margin, "margin", events)
        if winner is A:  # step 10
            if p.kind == "move":
                A.zone = p.move_to
                events.append(Moved(A.id, p.move_from, p.move_to))
            elif p.kind in HOSTILE_KINDS:
                dbl = rulings.COUNTER_DOUBLES if ro is not None and ro.keyword == "counter" else 1
                mode = "injury" if p.kind == "attack" else p.kind
                self._land(A, R, p.option, mode, dbl, events)
        else:
            if p.kind == "move":
                events.append(Stayed(A.id, f"{R.id} stops the Move"))
            if ro is not None and ro.keyword in ("counter", "slip"):
                self._land(R, A, ro, "injury" if ro.field == "I" else "condition", 1, events)
        if p.ambush and A.concealed:  # step 11, RULING R19
            self._reveal(A, "attacked from concealment", events)
        self._check_out(A, events)
        self._check_out(R, events)

    def _land(self, W: Fighter, L: Fighter, o: Option, mode: str, dbl: int, events: list[Event]) -> None:
        """spec §2.4 final rank and §5.6 landing table (RULINGS R13, R14, R16, R17, R29)."""
        mult = rulings.realm_multiplier(W.block.realm, L.block.realm)
        rank = o.rank * mult
        if mode == "condition":
            rank *= dbl
        res = L.block.resistance(o.polarity)
        final = max(0, rank - res)
        if final == 0:
            events.append(NothingLands(L.id, o.keyword, f"rank {rank} - resistance {res} = 0"))
            return
        if mode == "injury":
            empty = L.block.injury_slots - len(L.injuries)
            n = min(mult * dbl, empty)
            L.injuries.extend([(o.keyword, final)] * n)
            events.append(InjuryLanded(L.id, o.keyword, final, n, len(L.injuries), L.block.injury_slots))
        elif mode == "condition":
            status = STATUS_OF[o.keyword]
            if final > L.statuses.get(status, 0):  # RULING R27: keep the higher rank
                L.statuses[status] = final
            events.append(StatusChanged(L.id, status, L.statuses[status], f"{W.id}'s {o.keyword}"))
        else:  # argue, RULING R29
            loss = min(L.conv, mult * dbl)
            L.conv -= loss
            events.append(ConvictionsChanged(L.id, -loss, L.conv))
            if o.keyword == "demoralize":  # rider: lose R Strain (spec §5.3 #8)
                drain = min(L.strain, final)
                L.strain -= drain
                events.append(StrainChanged(L.id, -drain, L.strain, "demoralized"))

    # ------------------------------------------------------------------ support
    def _support(self, c: Fighter, o: Option, t: Fighter, events: list[Event]) -> None:
        """RULING R12: unopposed Rank 0, automatic; invoked rank, no Realm, no resistance."""
        self._pay(c, 0, o, t, events, o.keyword)
        kw, rank = o.keyword, o.rank
        if kw == "mend":  # RULING R33
            low = min(s for _, s in t.injuries)
            idx = max(i for i, (_, s) in enumerate(t.injuries) if s == low)
            name, sev = t.injuries[idx]
            spend = min(t.stacks, max(0, sev - rank))
            if spend:
                t.stacks -= spend
                events.append(StacksChanged(t.id, -spend, t.stacks, f"{c.id}'s Mend"))
            after = sev - rank - spend
            if after <= 0:
                del t.injuries[idx]
            else:
                t.injuries[idx] = (name, after)
            events.append(Healed(t.id, name, sev, max(0, after)))
        elif kw == "clear":  # spec §5.3 #10 [S purpose]
            n = min(rank, t.stacks)
            t.stacks -= n
            events.append(StacksChanged(t.id, -n, t.stacks, f"{c.id}'s Clear"))
        elif kw == "rally":
            n = min(rank, t.block.conv_max - t.conv)
            t.conv += n
            events.append(ConvictionsChanged(t.id, n, t.conv))
        elif kw == "hidden":
            if rank > t.statuses.get("hidden", 0):
                t.statuses["hidden"] = rank
            events.append(StatusChanged(t.id, "hidden", t.statuses["hidden"], f"{c.id}'s Hidden"))

    # ------------------------------------------------------------------ helpers
    def _pay(self, c: Fighter, traits: int, o: Option | None, target: Fighter | None,
             events: list[Event], what: str) -> None:
        """RULING R8/R10: traits in Strain; option cost from Fuel stacks on the target first."""
        strain = traits
        fuel = 0
        if o is not None and o.cost:
            if o.stacks == "fuel" and target is not None:
                fuel = min(target.stacks, o.cost)
                target.stacks -= fuel
            strain += o.cost - fuel
        if strain or fuel:
            c.strain -= strain
            events.append(Paid(c.id, strain, fuel, target.id if fuel else None, what))

    def _successes(self, c: Fighter, faces: tuple[int, ...]) -> int:
        table = self._textures[c.block.texture]
        return sum(table[f - 1] for f in faces)

    def _roll(self, c: Fighter, boosts: tuple[str, ...], opponent: Fighter | None, o: Option | None,
              extra: int, dice: Dice, events: list[Event], purpose: str, consume_slip: bool = True) -> int:
        """Build the pool (spec §2.3) and roll it; returns successes."""
        slip = c.statuses.get("slip", 0)
        pool, parts = pool_size(c.block, boosts, opponent.block if opponent is not None else None, o,
                                extra, slip, self.options.instrument)
        if slip and consume_slip:  # RULING R18: used by this roll
            del c.statuses["slip"]
            events.append(StatusChanged(c.id, "slip", 0, "used"))
        faces = dice.roll(6, pool)
        s = self._successes(c, faces)
        events.append(PoolRolled(c.id, purpose, c.block.texture, faces, s, ", ".join(parts) if len(parts) > 1 else ""))
        return s

    def _add_stacks(self, f: Fighter, n: int, why: str, events: list[Event]) -> None:
        before = f.stacks
        f.stacks = min(rulings.STACKS_CAP, f.stacks + n)  # RULING R9
        if f.stacks != before:
            events.append(StacksChanged(f.id, f.stacks - before, f.stacks, why))

    def _reveal(self, f: Fighter, why: str, events: list[Event]) -> None:
        removed = [s for s in CONCEALMENT if s in f.statuses]
        for s in removed:
            del f.statuses[s]
        if removed:
            events.append(Revealed(f.id, why))

    def _check_out(self, f: Fighter, events: list[Event]) -> None:
        """spec §7.3, RULING R26."""
        if not f.active:
            return
        if len(f.injuries) >= f.block.injury_slots:
            f.defeated = True
            events.append(OutOfFight(f.id, "defeated"))
        elif f.conv is not None and f.conv <= 0:
            f.broken = True
            events.append(OutOfFight(f.id, "broken"))

    # ------------------------------------------------------------------ turns
    def _end_turn(self, events: list[Event]) -> None:
        """spec §4.2 steps 6-7 (RULING R39), then the next combatant's turn."""
        self.phase = "turn"
        self.pending = None
        c = self.by_id[self.order[self.turn_idx]]
        if "pinned" in c.statuses:
            c.statuses["pinned"] -= 1
            if c.statuses["pinned"] <= 0:
                del c.statuses["pinned"]
            events.append(StatusChanged(c.id, "pinned", c.statuses.get("pinned", 0), "end of turn"))
        c.surprised = False  # RULING R36: its first turn has passed
        if self._check_end(events):
            return
        self._next_turn(events)

    def _check_end(self, events: list[Event]) -> bool:
        """spec §8.5, RULING R26: a side with no active combatant loses."""
        alive = [s.side for s in self._sides if any(self.by_id[m].active for m in s.members)]
        if len(alive) == len(self._sides):
            return False
        winner = alive[0] if len(alive) == 1 else None
        self._finish(winner, "defeat" if winner else "mutual_defeat", events)
        return True

    def _finish(self, winner: str | None, reason: str, events: list[Event]) -> None:
        self._outcome = Outcome(winner, reason, self._round)
        self.phase = "over"
        self.pending = None
        self._legal = self._legal_set = None
        events.append(EncounterEnded(winner, reason, self._round))

    def _next_turn(self, events: list[Event]) -> None:
        n = len(self.order)
        while True:
            self.turn_idx += 1
            if self.turn_idx >= n:
                if self._round >= self.options.round_limit:  # RULING R26: draw at the cap
                    self.turn_idx = n - 1
                    self._finish(None, "round_cap", events)
                    return
                self.turn_idx = 0
                self._round += 1
                events.append(RoundStarted(self._round))
            c = self.by_id[self.order[self.turn_idx]]
            if not c.active:
                continue
            if c.surprised and self._round == 1:  # RULING R36: surprised skip round 1
                continue
            break
        self._start_turn(c, events)

    def _start_turn(self, c: Fighter, events: list[Event]) -> None:
        """spec §4.2 steps 2-4 (RULING R39): Guard ends, +1 Strain, Deteriorating ticks."""
        self.phase = "turn"
        events.append(TurnStarted(self._round, c.id))
        c.guarding = None
        if c.strain < c.block.strain_max:
            c.strain += rulings.STRAIN_PER_TURN
        det = c.statuses.get("deteriorating", 0)
        if det:  # spec §5.3 #2 (RULING R31)
            if c.strain:
                c.strain -= 1
                events.append(StrainChanged(c.id, -1, c.strain, "deteriorating"))
            self._add_stacks(c, 1, "deteriorating", events)
            if det <= 1:
                del c.statuses["deteriorating"]
            else:
                c.statuses["deteriorating"] = det - 1
            events.append(StatusChanged(c.id, "deteriorating", det - 1, "ticks"))

    # ------------------------------------------------------------------ copies and data
    def describe(self, viewer: str | None = None) -> list[dict[str, str]]:
        """One row per combatant for a person's screen, as ``viewer`` may see it (``None``: the GM)."""
        snap = self.view(viewer) if viewer is not None else self.snapshot()
        rows = []
        for cid, c in snap["combatants"].items():
            if c["defeated"] or c["broken"] or c["fled"]:
                state = "defeated" if c["defeated"] else ("broken" if c["broken"] else "fled")
            else:
                state = "concealed" if c["concealed"] else ("guarding" if c.get("guarding") else "")
            injuries = ", ".join(f"{i['keyword']} {i['severity']}" for i in c["injuries"]) or "-"
            conv = "-" if c["conv_max"] is None else f"{c['conv']}/{c['conv_max']}"
            statuses = ", ".join(f"{k} {v}" for k, v in c["statuses"].items()) or "-"
            rows.append({"combatant": cid, "side": c["side"], "zone": "?" if c["zone"] is None else str(c["zone"]),
                         "strain": f"{c['strain']}/{c['strain_max']}", "stacks": str(c["stacks"]),
                         "injuries": f"{len(c['injuries'])}/{c['injury_slots']}: {injuries}", "convictions": conv,
                         "statuses": statuses, "state": state})
        return rows

    def harm(self) -> dict[str, float]:
        """Harm taken so far per combatant, for GM tools: filled Injury slots plus Convictions lost."""
        return {f.id: float(len(f.injuries) + (f.block.conv_max - f.conv if f.block.conv_max is not None else 0))
                for f in self.fighters}

    def clone(self) -> MetanoiaEncounter:
        e = MetanoiaEncounter.__new__(MetanoiaEncounter)
        e.name, e.options = self.name, self.options
        e.fighters = [f.copy() for f in self.fighters]
        e.by_id = {f.id: f for f in e.fighters}
        e.order = self.order
        e.hazards, e.surprised_side = self.hazards, self.surprised_side
        e.turn_idx, e._round, e.phase = self.turn_idx, self._round, self.phase
        e.pending = self.pending.copy() if self.pending else None
        e._outcome = self._outcome
        e._legal, e._legal_set = self._legal, self._legal_set  # immutable once computed
        e.start_events = []
        e._textures, e._sides = self._textures, self._sides
        return e

    def snapshot(self) -> dict[str, Any]:
        return {
            "system": SYSTEM,
            "encounter": self.name,
            "options": self.options.to_dict(),
            "round": self._round,
            "phase": self.phase,
            "actor": self.current_actor(),
            "turn": self.turn_owner(),
            "order": list(self.order),
            "hazards": {str(k): v for k, v in self.hazards.items()},
            "surprised": self.surprised_side,
            "combatants": {f.id: f.to_dict() for f in self.fighters},
            "blocks": {f.id: dict(f.block.source, id=f.block.id) for f in self.fighters},
            "pending": self.pending.to_dict() if self.pending else None,
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> MetanoiaEncounter:
        options = parse_options(data["options"], "snapshot", "options")
        fighters = []
        side_rank = {s: i for i, s in enumerate(sorted({d["side"] for d in data["combatants"].values()}))}
        roster = sorted(data["combatants"].items(), key=lambda kv: (side_rank[kv[1]["side"]], kv[1]["slot"]))
        for cid, d in roster:  # roster order (side, slot), whatever order the keys come in
            raw = dict(data["blocks"][cid])
            block = parse_stat_block({k: v for k, v in raw.items() if k != "id"}, "snapshot", f"blocks.{cid}", raw["id"])
            f = Fighter(cid, block, d["side"], d["slot"], d["zone"])
            f.strain, f.conv, f.stacks = d["strain"], d["conv"], d["stacks"]
            f.injuries = [(i["keyword"], i["severity"]) for i in d["injuries"]]
            f.statuses = dict(d["statuses"])
            f.defeated, f.broken, f.fled = d["defeated"], d["broken"], d["fled"]
            f.guarding, f.surprised = d["guarding"], d["surprised"]
            fighters.append(f)
        e = cls(fighters, options, list(data["order"]),
                hazards={int(k): v for k, v in data["hazards"].items()},
                surprised=data["surprised"], name=data.get("encounter", "custom"))
        e.surprised_side = data["surprised"]
        e._round, e.phase = data["round"], data["phase"]
        e.turn_idx = e.order.index(data["turn"]) if data["turn"] else len(e.order) - 1
        if data["outcome"]:
            o = data["outcome"]
            e._outcome = Outcome(o["winner"], o["reason"], o["round"])
        if data["pending"]:
            pd = data["pending"]
            actor = e.by_id[pd["actor"]]
            p = Pending(pd["kind"], pd["actor"], pd["target"], _option_named(actor.block, pd["option"]), tuple(pd["boosts"]))
            p.reactor, p.exploit_dice, p.ambush = pd["reactor"], pd["exploit_dice"], pd["ambush"]
            p.candidates, p.move_from, p.move_to, p.paid = list(pd["candidates"]), pd["move_from"], pd["move_to"], pd["paid"]
            if pd["reactor"]:
                p.react_option = _option_named(e.by_id[pd["reactor"]].block, pd["react_option"])
            p.react_boosts = tuple(pd["react_boosts"])
            e.pending = p
        return e
