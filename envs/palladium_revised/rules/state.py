"""The Palladium Revised encounter: the state of one fight and the ``Encounter`` protocol
(spec §3, §4).

Decisions (spec §4.8): TURN (the combatant whose AVAILABLE slot is reached, again after each
free action), COMMITTED (a RESERVED slot), and the off-turn windows DEFENSE (the target of a
Strike) and OPPORTUNITY (an enemy whose Zone layer a mover leaves), asked inside a procedure
with ``flow.Ctx``: the procedure is replayed from the state before the action with the same
dice when the answer comes (``flow.ReplayDice``).
"""

from __future__ import annotations

from typing import Any

from envs.core.actions import Action, ActionSyntaxError, parse_label, parsed_label
from envs.core.dice import Dice
from envs.core.encounter import EncounterBase, Outcome, SideInfo
from envs.core.events import Event
from envs.core.flow import Ctx, Procedure, Window, run_procedure

from .combatant import Combatant
from .geometry import home_signs
from .options import RuleOptions, parse_options
from .profile import profile_from_dict, profile_to_dict
from .slots import RESERVED

SYSTEM = "palladium_revised"

__all__ = ["SYSTEM", "PalladiumEncounter", "STAGES"]

STAGES = ("round_start", "second_start", "turns", "second_end")
# spec §4.4: where the clock stands between decisions.

_VALUES = ("name", "_round", "stage", "second", "t_abs", "pass_no", "idx", "cursor", "turn",
           "turn_slot", "ambush")


def _assigner() -> Any:
    """``assign(c, b)``: every field of combatant ``c`` set from ``b`` as ``Combatant.clone``
    copies it (containers one level, the rest shared), straight-line code."""
    f = Combatant.FIELDS
    lines = ["def assign(c, b):"]
    lines += [f"    c.{n} = b.{n}" for n in f.values + f.shared]
    lines += [f"    c.{n} = b.{n}.copy()" for n in f.containers]
    missing = set(Combatant.__slots__) - set(f.values + f.shared + f.containers)
    assert not missing, missing
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # names are the declared identifiers
    return namespace["assign"]


_assign = _assigner()


class PalladiumEncounter(EncounterBase):
    """One Palladium Revised fight (the ``Encounter`` protocol of ``envs.core``)."""

    system = SYSTEM

    def __init__(self, combatants: list[Combatant], options: RuleOptions,
                 name: str = "custom") -> None:
        self.name = name
        self.options = options
        self.combatants = combatants
        self.by_id = {c.id: c for c in combatants}
        sides: dict[str, list[str]] = {}
        for c in combatants:
            sides.setdefault(c.side, []).append(c.id)
        self._sides = tuple(SideInfo(s, tuple(m)) for s, m in sides.items())
        # spec §3.2: side A's home edge is x = 0, side B's x = L (``geometry.home_signs``)
        self.home = home_signs([s.side for s in self._sides])
        self._round = 0
        self._outcome: Outcome | None = None
        self.stage = "round_start"
        self.second = 0
        self.t_abs = 0
        self.pass_no = 1
        self.idx = 0
        self.cursor: tuple[int, int, int] = (0, 0, -1)
        self.order: list[str] = []  # this round's initiative order (spec §3.4)
        self.turn: str | None = None  # whose turn is open
        self.turn_slot = -1
        self.free_used: list[str] = []  # free actions taken this turn (once each)
        self.proc: Procedure | None = None  # an action stopped at a window (``flow``)
        self.window: Window | None = None
        self.memo: dict[Any, Any] = {}
        self.start_events: list[Event] = []
        self._legal: list[Action] | None = None
        self._by_label: tuple[list[Action] | None, dict[str, Action]] | None = None
        self.ambush: str | None = None  # FULL, spec §3.5: the ambushing side

    # ------------------------------------------------------------------ protocol: reading
    def sides(self) -> tuple[SideInfo, ...]:
        return self._sides

    def is_active(self, combatant: str) -> bool:
        return self.by_id[combatant].active

    def init_index(self, cid: str) -> int:
        """Place in this round's initiative order (not rolled: after everyone)."""
        return self.order.index(cid) if cid in self.order else len(self.combatants) + 1

    def in_order(self) -> list[Combatant]:
        """spec §4.5: combatants in initiative order, then the rest in roster order."""
        first = [self.by_id[i] for i in self.order]
        return first + [c for c in self.combatants if c.id not in self.order]

    def check_end(self, ev: list[Event]) -> bool:
        """spec §8.8, R64: at most one side with an active member ends the fight."""
        if self._outcome is None:
            self._check_defeat(ev)
        return self._outcome is not None

    @property
    def decision(self) -> str:
        """``turn``, ``committed``, ``defense``, ``opportunity`` or ``over`` (spec §4.8)."""
        if self._outcome is not None:
            return "over"
        if self.window is not None:
            return self.window.kind
        if self.turn is not None and \
                self.by_id[self.turn].slot_state[self.turn_slot] == RESERVED:
            return "committed"
        return "turn"

    def current_actor(self) -> str | None:
        if self._outcome is not None:
            return None
        if self.window is not None:
            return self.window.actor
        return self.turn

    def legal_actions(self) -> list[Action]:
        if self._outcome is not None:
            return []
        if self._legal is None:
            if self.window is not None:
                self._legal = [parsed_label(x) for x in self.window.labels]
            else:
                from .legal import turn_actions
                assert self.turn is not None
                self._legal = turn_actions(self, self.by_id[self.turn])
        return list(self._legal)

    def parse_action(self, label: str) -> Action:
        legal = self._legal
        if legal is not None and isinstance(label, str):
            # a legal label (once the legal actions are known) reads as that very action: one
            # dict per list of legal actions (``parse_label(a.label) == a``, an invariant)
            by_label = self._by_label
            if by_label is None or by_label[0] is not legal:
                by_label = self._by_label = (legal, {a.label: a for a in legal})
            found = by_label[1].get(label)
            if found is not None:
                return found
        from .labels import check_label
        a = parse_label(label)
        if a.actor not in self.by_id:
            raise ActionSyntaxError(f"cannot read action {label!r}: unknown combatant "
                                    f"{a.actor!r}; combatants: {', '.join(self.by_id)}")
        if a.target is not None and a.target not in self.by_id:
            raise ActionSyntaxError(f"cannot read action {label!r}: unknown target "
                                    f"{a.target!r}; combatants: {', '.join(self.by_id)}")
        check_label(a, label, self.by_id[a.actor])
        return a

    # ------------------------------------------------------------------ resolution
    def start(self, dice: Dice | None) -> list[Event]:
        """Run the clock to the first decision (round 1, spec §4.4)."""
        return self._run(None, dice)

    def _resolve(self, action: Action, dice: Dice, events: list[Event]) -> None:
        events.extend(self._run(action, dice))

    def _run(self, action: Action | None, dice: Dice | None) -> list[Event]:
        from .turns import step
        self._legal = None
        self.memo = {}

        def body(ctx: Ctx, ev: list[Event], label: str) -> None:
            step(self, ctx, ev, parsed_label(label) if label else None)

        return run_procedure(self, action.label if action is not None else "", dice, body)

    def scenario_event(self, text: str, dice: Dice) -> list[Event]:
        """A scenario event between decisions (``scenario.scenario_event``: a fall, Restore,
        Gain, a loss by dice, costs); a bad text is a ``ValueError``."""
        from .scenario import scenario_event
        return scenario_event(self, text, dice)

    def _ended(self) -> None:
        self.window = None
        self.turn = None

    # ------------------------------------------------------------------ clone and snapshot
    def _copy(self) -> PalladiumEncounter:
        new = object.__new__(PalladiumEncounter)
        new.__dict__.update(self.__dict__)
        new.combatants = [c.clone() for c in self.combatants]
        new.by_id = {c.id: c for c in new.combatants}
        new.order = list(self.order)
        new.free_used = list(self.free_used)
        new.proc = None
        new.memo = {}
        new._legal = None
        new._by_label = None
        return new

    def _restore(self, base: PalladiumEncounter) -> None:
        """Back to ``base`` (a window's replay); the combatant objects keep their identity and
        take ``base``'s fields as a clone would (``_assign``)."""
        proc, mine = self.proc, self.combatants
        for c, b in zip(mine, base.combatants, strict=True):
            _assign(c, b)
        self.__dict__.update(base.__dict__)
        self.combatants, self.by_id = mine, {c.id: c for c in mine}
        self.order = list(base.order)
        self.free_used = list(base.free_used)
        self.proc = proc
        self.memo = {}
        self._legal = None
        self._by_label = None

    def clone(self) -> PalladiumEncounter:
        new = self._copy()
        if self.proc is not None:
            new.proc = self.proc.clone()
        new._legal = self._legal
        return new

    def snapshot(self) -> dict[str, Any]:
        proc = None if self.proc is None else self.proc.to_dict()
        out: dict[str, Any] = {"system": SYSTEM, "options": self.options.to_dict()}
        for k in _VALUES:
            v = getattr(self, k)
            out[k.lstrip("_")] = list(v) if isinstance(v, tuple) else v
        out.update({
            "order": [c.id for c in self.combatants],  # the roster (the shared situation field)
            "initiative": list(self.order), "free_used": list(self.free_used),
            "outcome": None if self._outcome is None else self._outcome.to_dict(),
            "window": None if self.window is None else self.window.to_dict(),
            "combatants": {c.id: c.to_dict() for c in self.combatants},
            "profiles": {c.id: profile_to_dict(c.profile) for c in self.combatants},
            "proc": proc,
        })
        return out

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> PalladiumEncounter:
        cs = []
        for cid in data["order"]:
            d = data["combatants"][cid]
            c = Combatant(cid, d["side"], profile_from_dict(data["profiles"][cid]), d["x"])
            c.load(d)
            cs.append(c)
        enc = cls(cs, parse_options(data["options"]), data["name"])
        for k in _VALUES:
            v = data.get(k.lstrip("_"))
            setattr(enc, k, tuple(v) if isinstance(v, list) else v)
        enc.order, enc.free_used = list(data["initiative"]), list(data["free_used"])
        o = data["outcome"]
        enc._outcome = None if o is None else Outcome(o["winner"], o["reason"], o["round"])
        enc.window = None if data["window"] is None else Window.from_dict(data["window"])
        if data["proc"] is not None:
            enc.proc = Procedure.from_dict(data["proc"], cls.from_snapshot)
        return enc

    # ------------------------------------------------------------------ views
    def view(self, actor: str) -> dict[str, Any]:
        from .preview import public_view
        return public_view(self, actor)

    def describe(self, viewer: str | None = None) -> list[dict[str, str]]:
        from .preview import describe_rows
        return describe_rows(self)

    def harm(self) -> dict[str, float]:
        """S.D.C. and H.P. lost (spec §8.3)."""
        return {c.id: float(c.profile.sdc_max - c.sdc + c.profile.hp_base - c.hp)
                for c in self.combatants}
