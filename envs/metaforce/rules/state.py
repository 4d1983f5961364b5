"""The Metaforce encounter: the state of one fight and the ``Encounter`` protocol (spec §3-§9).

Decisions: a frame of the turn owner (spec §4.2), a W-R1 Reaction of an opponent after that
frame (spec §6.1), or a W-I5 Deus Ex window inside a procedure (``flow``), whose
``current_actor()`` is the deciding combatant. A window's procedure is replayed from the state
before the action with the same dice (``flow.ReplayDice``).
"""

from __future__ import annotations

from typing import Any

from envs.core.actions import Action, ActionSyntaxError, parse_label
from envs.core.dice import Dice
from envs.core.encounter import EncounterBase, Outcome, SideInfo
from envs.core.events import Event
from envs.core.flow import Ctx, Procedure, Window, run_procedure
from envs.core.squaregrid import SquareGrid

from .combatant import Combatant
from .full_statuses import ALL_CHARMED, charmed_end
from .legal import frame_actions, reaction_actions
from .options import RuleOptions, parse_options
from .preview import public_view
from .profile import Profile
from .turns import step

SYSTEM = "metaforce"
LEGAL_MEMO = 10_000  # legal actions kept by state (cleared when it grows past this)

__all__ = ["SYSTEM", "MetaforceEncounter"]


class MetaforceEncounter(EncounterBase):
    """One Metaforce fight (the ``Encounter`` protocol of ``envs.core``)."""

    system = SYSTEM

    def __init__(self, combatants: list[Combatant], grid: SquareGrid, order: list[str],
                 options: RuleOptions, name: str = "custom",
                 home_edge: dict[str, str] | None = None) -> None:
        self.name = name
        self.options = options
        self.grid = grid
        self.combatants = combatants
        self.by_id = {c.id: c for c in combatants}
        self.order = list(order)  # initiative order (spec §3.3), fixed for the encounter
        self.home_edge = dict(home_edge or {})  # side -> its own edge (south, north, west, east)
        self._round = 1
        self.turn = -1  # index into ``order`` of the turn owner
        self.in_turn = False
        self.frame_open = False
        self.reactors: list[str] = []  # W-R1 queue after a frame (spec §6.1)
        self.trigger: str | None = None
        self.guest: str | None = None  # a frame outside its turn (full_meta, FULL)
        self.resume: tuple[tuple[str, tuple[str, ...]], ...] = ()  # W-R1 queues put off
        self.link_used = False  # Initiative Link, once in the encounter (spec §6.4, FULL)
        self._outcome: Outcome | None = None
        self.proc: Procedure | None = None  # an action stopped at a window (``flow``)
        self.window: Window | None = None
        self.memo: dict[Any, Any] = {}  # previews of this decision (cleared by every apply)
        self.reach_memo: dict[Any, Any] = {}  # movement, keyed by the layout of the field
        self.start_events: list[Event] = []  # initiative and the first turn's start
        sides: dict[str, list[str]] = {}
        for c in combatants:
            sides.setdefault(c.side, []).append(c.id)
        self._sides = tuple(SideInfo(s, tuple(m)) for s, m in sides.items())
        self._legal: list[Action] | None = None
        self._key: tuple[Any, ...] | None = None  # state_key() of the state ``_legal`` is for
        # legal actions by state_key(), from the first clone on (look-ahead meets states again),
        # shared by the clones (which share the fixed parts the key names)
        self.legal_memo: dict[tuple[Any, ...], tuple[list[Action], tuple[Any, ...]]] | None = None

    # ------------------------------------------------------------------ protocol: reading
    def sides(self) -> tuple[SideInfo, ...]:
        return self._sides

    def is_active(self, combatant: str) -> bool:
        c = self.by_id[combatant]
        return c.active and not (c.statuses and c.deep_asleep)  # spec §8.7: Asleep at Intense

    def check_end(self, ev: list[Event]) -> None:
        """spec §8.7: the fight ends when the active combatants all belong to one team; under
        FULL also when every active member of all teams but one is Charmed by another team."""
        if self._outcome is None and not self._check_defeat(ev) and self.options.full:
            ended, winner = charmed_end(self)
            if ended:
                self._end(winner, ALL_CHARMED, ev)

    @property
    def decision(self) -> str:
        """What the current decision is: ``frame`` (the turn owner's frame), ``reaction`` (W-R1),
        ``deus_ex`` (W-I5), the FULL windows ``dodge`` (W-R2), ``meta_die`` (W-I2), ``crash_out``
        (W-I3), ``finishing_touch`` (W-I4) and ``crit`` (``crit_policy: agent``), or ``over``."""
        if self._outcome is not None:
            return "over"
        if self.window is not None:
            return self.window.kind
        return "reaction" if self.reactors else "frame"

    def current_actor(self) -> str | None:
        if self._outcome is not None:
            return None
        if self.window is not None:
            return self.window.actor
        if self.reactors:
            return self.reactors[0]
        if self.guest is not None:
            return self.guest
        return self.order[self.turn] if self.turn >= 0 else None

    def decides_out_of_fight(self, combatant: str) -> bool:
        """spec §6.1 W-I5, §8.6: a protected combatant already Incapacitated still decides
        whether Deus Ex saves it from the blow that would kill it (the shared decision
        invariant lets an out-of-fight combatant decide only where this says so)."""
        return self.window is not None and self.window.kind == "deus_ex" \
            and self.window.actor == combatant

    def legal_actions(self) -> list[Action]:
        if self._outcome is not None:
            return []
        if self._legal is None:
            if self.legal_memo is None:  # no clone yet: a fight played on rarely meets a state
                self._legal, self._key = self._legal_now(), None  # again
                return list(self._legal)
            key = self._key = self._state_key()
            try:
                got = self.legal_memo.get(key)  # a state met before (a rollout's): its actions
            except TypeError:  # a value that cannot be hashed (none is declared so): no memo
                got, self._key = (self._legal_now(), ()), None
            if got is None:
                if len(self.legal_memo) > LEGAL_MEMO:
                    self.legal_memo.clear()
                # the fixed parts are kept with the entry: no other object takes their ids
                got = self.legal_memo[key] = (self._legal_now(), self.fixed_parts())
            self._legal = got[0]
        return list(self._legal)

    def _legal_now(self) -> list[Action]:
        if self.window is not None:
            return [parse_label(x) for x in self.window.labels]
        if self.reactors:
            assert self.trigger is not None
            return reaction_actions(self, self.by_id[self.reactors[0]], self.by_id[self.trigger])
        if self.guest is not None:
            from .full_meta import guest_actions
            return guest_actions(self, self.by_id[self.guest])
        return frame_actions(self, self.by_id[self.order[self.turn]])

    def parse_action(self, label: str) -> Action:
        from .labels import check_label
        a = parse_label(label)
        if a.actor not in self.by_id:
            raise ActionSyntaxError(f"cannot read action {label!r}: unknown combatant "
                                    f"{a.actor!r}; combatants: {', '.join(self.by_id)}")
        if a.target is not None and a.target not in self.by_id:
            raise ActionSyntaxError(f"cannot read action {label!r}: unknown target {a.target!r}")
        check_label(a, label, self.by_id[a.actor])
        return a

    # ------------------------------------------------------------------ resolution
    def start(self, dice: Dice | None) -> list[Event]:
        """Run the clock to the first decision (the first turn's start, spec §4.1)."""
        return self._run(None, dice)

    def _resolve(self, action: Action, dice: Dice, events: list[Event]) -> None:
        events.extend(self._run(action, dice))

    def _run(self, action: Action | None, dice: Dice | None) -> list[Event]:
        self._legal = None
        self.memo = {}
        resumed = self.proc is not None
        first: Action | None = action  # a legal action reads back from its label as itself

        def body(ctx: Ctx, ev: list[Event], label: str) -> None:
            step(self, ctx, ev, (parse_label(label) if label else None) if resumed else first)

        return run_procedure(self, action.label if action is not None else "", dice, body)

    def scenario_event(self, text: str, dice: Dice) -> list[Event]:
        """A scenario event between decisions or fights: a rest (``rest.rest_event``, spec
        §9.5); a bad text is a ``ValueError``."""
        from .rest import rest_event
        self._key = None  # the state changes under the legal actions kept (as before)
        return rest_event(self.by_id, text, dice)

    def _ended(self) -> None:
        self.reactors = []
        self.window = None

    # ------------------------------------------------------------------ clone and snapshot
    def state_key(self) -> tuple[Any, ...]:
        """Everything the state of this fight holds, as one hashable key: equal keys, the same
        state (its view, legal actions and previews), so an agent may keep what it works out
        from one state for the next time it meets it. The fixed parts (rule options, grid, home
        edges, stat blocks) enter by identity, as clones share them: a cache keeps them alive
        (``fixed_parts``) while it keeps a key. Worked out once with the legal actions."""
        if self._legal is not None and self._key is not None:
            return self._key
        return self._state_key()

    def _state_key(self) -> tuple[Any, ...]:
        w = self.window
        return (self.name, id(self.options), id(self.grid), tuple(self.order), id(self.home_edge),
                self._round, self.turn, self.in_turn, self.frame_open, tuple(self.reactors),
                self.trigger, self.guest, self.resume, self.link_used, self._outcome,
                None if w is None else (w.actor, w.kind, w.labels, repr(w.info)),  # info: dicts
                tuple([c.state_key() for c in self.combatants]))

    def fixed_parts(self) -> tuple[Any, ...]:
        """The objects ``state_key`` names by identity."""
        return (self.options, self.grid, self.home_edge,
                *[c.profile for c in self.combatants])

    def _copy(self) -> MetaforceEncounter:
        new = object.__new__(MetaforceEncounter)
        new.__dict__.update(self.__dict__)
        new.combatants = [c.clone() for c in self.combatants]
        new.by_id = {c.id: c for c in new.combatants}
        new.reactors = list(self.reactors)
        new.proc = None
        new.memo = {}
        new.reach_memo = self.reach_memo  # shared: entries are keyed by the whole layout
        new._legal = None
        return new

    def _restore(self, base: MetaforceEncounter) -> None:
        """Back to ``base`` (a window's replay); the combatant objects keep their identity."""
        twin = base._copy()
        proc, mine = self.proc, self.combatants
        for c, t in zip(mine, twin.combatants, strict=True):
            for name in Combatant.__slots__:
                setattr(c, name, getattr(t, name))
        self.__dict__.update(twin.__dict__)
        self.combatants, self.by_id = mine, {c.id: c for c in mine}
        self.proc = proc

    def clone(self) -> MetaforceEncounter:
        if self.legal_memo is None:
            self.legal_memo = {}  # a cache, shared from here on with every clone
        new = self._copy()
        if self.proc is not None:
            new.proc = self.proc.clone()
        new._legal = self._legal
        return new

    def snapshot(self) -> dict[str, Any]:
        proc = None if self.proc is None else self.proc.to_dict()
        from .profile import profile_to_dict
        return {
            "system": SYSTEM, "name": self.name, "options": self.options.to_dict(),
            "grid": self.grid.to_dict(), "initiative": list(self.order),
            "order": [c.id for c in self.combatants],  # the roster (the shared situation field)
            "home_edge": dict(self.home_edge), "round": self._round, "turn": self.turn,
            "in_turn": self.in_turn, "frame_open": self.frame_open,
            "reactors": list(self.reactors), "trigger": self.trigger, "guest": self.guest,
            "resume": [[t, list(q)] for t, q in self.resume], "link_used": self.link_used,
            "outcome": None if self._outcome is None else self._outcome.to_dict(),
            "window": None if self.window is None else self.window.to_dict(),
            "combatants": {c.id: c.to_dict() for c in self.combatants},
            "profiles": {c.id: profile_to_dict(c.profile) for c in self.combatants},
            "proc": proc,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> MetaforceEncounter:
        from .profile import profile_from_dict
        opts = parse_options(data["options"])
        cs = []
        for cid in data["order"]:
            d = data["combatants"][cid]
            prof: Profile = profile_from_dict(data["profiles"][cid])
            c = Combatant(cid, d["side"], prof, (d["x"], d["y"]))
            c.load(d)
            cs.append(c)
        enc = cls(cs, SquareGrid.from_dict(data["grid"]), data["initiative"], opts,
                  data["name"], {str(k): str(v) for k, v in data["home_edge"].items()})
        enc._round, enc.turn = data["round"], data["turn"]
        enc.in_turn, enc.frame_open = data["in_turn"], data["frame_open"]
        enc.reactors, enc.trigger = list(data["reactors"]), data["trigger"]
        enc.guest, enc.link_used = data.get("guest"), bool(data.get("link_used", False))
        enc.resume = tuple((str(t), tuple(q)) for t, q in data.get("resume", ()))
        o = data["outcome"]
        enc._outcome = None if o is None else Outcome(o["winner"], o["reason"], o["round"])
        enc.window = None if data["window"] is None else Window.from_dict(data["window"])
        if data["proc"] is not None:
            enc.proc = Procedure.from_dict(data["proc"], cls.from_snapshot)
        return enc

    # ------------------------------------------------------------------ views
    def view(self, actor: str) -> dict[str, Any]:
        return public_view(self, actor)

    def describe(self, viewer: str | None = None) -> list[dict[str, str]]:
        rows = []
        for c in self.combatants:
            st = [f"{k} {v[0]}" for k, v in sorted(c.statuses.items())]
            if c.stun:
                st.append(f"stun {c.stun}")
            rows.append({"id": c.id, "side": c.side, "hp": f"{c.hp}/{c.profile.hp_max}",
                         "mp": f"{c.mp}/{c.mp_max}", "at": f"{c.x},{c.y}",
                         "state": c.state if not st else f"{c.state}: {', '.join(st)}"})
        return rows

    def harm(self) -> dict[str, float]:
        return {c.id: float(c.profile.hp_max - c.hp) for c in self.combatants}
