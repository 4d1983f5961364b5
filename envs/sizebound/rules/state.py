"""The Sizebound encounter: the state of one fight and the ``Encounter`` protocol (spec §3-§9).

Decisions: an own-turn action of the front member of the active side's queue (R-19), or a
window (spec §6.3, §6.5) whose ``current_actor()`` is the deciding creature. Windows run inside
interruptible procedures (``flow``): the state before the action, the dice drawn and the
decisions made are kept in ``proc`` and replayed when the next decision arrives.
"""

from __future__ import annotations

from typing import Any

from envs.core.actions import Action, ActionSyntaxError
from envs.core.dice import Dice
from envs.core.encounter import EncounterBase, Outcome, SideInfo
from envs.core.events import Event
from envs.core.flow import Ctx, Procedure, Window, run_procedure
from envs.core.squaregrid import DIRECTIONS, SquareGrid

from . import full_lift, full_motion, full_sides, full_skills, full_terrain
from .events import Dragged, GrappleChanged, Stepped
from .fighter import Fighter, condition_table
from .full_conditions import body_locked, breath_upkeep
from .labels import check_label, parse
from .legal import step_target, turn_actions
from .options import RuleOptions, parse_options
from .profile import UNARMED, WeaponProfile, profile_from_dict, profile_to_dict
from .resolve import resolve_turn_action
from .space import can_stop, dist
from .turns import advance, begin

SYSTEM = "sizebound"

__all__ = ["SYSTEM", "SizeboundEncounter"]

_CHECKED: dict[str, Action] = {}
"""``parse_action``'s grammar check passed, by label (the combatants are checked each time)"""


class SizeboundEncounter(EncounterBase):
    """One Sizebound fight (the ``Encounter`` protocol of ``envs.core``)."""

    system = SYSTEM

    def __init__(self, fighters: list[Fighter], grid: SquareGrid, order: list[str],
                 options: RuleOptions, name: str = "custom") -> None:
        self.name = name
        self.options = options
        self.grid = grid
        self.order = list(order)  # side ids by turn slot (spec §3.4)
        self.fighters = fighters
        self.by_id = {f.id: f for f in fighters}
        self._round, self.slot = 1, 0
        self.queue: list[str] = []
        self.items: list[list[Any]] = []  # [weapon id, x, y] on the ground
        self._outcome: Outcome | None = None
        self.proc: Procedure | None = None  # an action stopped at a window (``flow``)
        self.window: Window | None = None
        self.heights: dict[tuple[int, int], int] = {}  # FULL ground height per cell (§3.2)
        self.terrain: dict[tuple[int, int], str] = {}  # FULL water/magma cells (full_terrain)
        self.hazards: frozenset[str] = frozenset()  # FULL hazard sides (full_sides)
        self.cover: frozenset[tuple[int, int]] = frozenset()  # FULL roofed cells (WE-37)
        self.dark: frozenset[tuple[int, int]] = frozenset()  # FULL dark cells (spec §3.2)
        self.table = condition_table(len(self.order))
        sides: dict[str, list[str]] = {s: [] for s in self.order}
        for f in fighters:
            sides.setdefault(f.side, []).append(f.id)
        self._sides = tuple(SideInfo(s, tuple(m)) for s, m in sides.items())
        self.arsenal: dict[str, WeaponProfile] = {"unarmed": UNARMED}
        for f in fighters:
            self.arsenal.update(f.profile.weapons)
        self._legal: list[Action] | None = None

    def begin(self) -> list[Event]:
        ev: list[Event] = []
        begin(self, ev)
        return ev

    # ------------------------------------------------------------------ clock and helpers
    @property
    def slots(self) -> int:
        return len(self.order)

    @property
    def clock(self) -> int:
        """R-22: team turns since the start, ``(round - 1) * slots + slot``."""
        return (self._round - 1) * self.slots + self.slot

    @property
    def active_side(self) -> str:
        return self.order[self.slot]

    def end_of_next_turn(self, side: str) -> int:
        """The clock at which "until the end of its next turn" ends for a member of ``side``
        (the start of the slot after that turn)."""
        s = self.order.index(side)
        base = (self._round - 1) * self.slots
        turn = base + s if s > self.slot else base + self.slots + s
        return turn + 1

    @property
    def exertion_windows(self) -> bool:
        """The E-D20, E-DMG and E-CRIT windows run (spec §6.5): asked, or decided by §9.2's
        heuristic (``exertion_auto``)."""
        return self.options.exertion_control != "off"

    @property
    def exertion_auto(self) -> bool:
        """``exertion_control: heuristic``: the engine decides the E-windows (spec §9.2)."""
        return self.options.exertion_control == "heuristic"

    def weapon(self, wid: str) -> WeaponProfile:
        return self.arsenal[wid]

    def turn_actions(self, f: Fighter) -> list[Action]:
        return turn_actions(self, f)

    def check_end(self, ev: list[Event]) -> None:
        if self._outcome is None and not full_sides.check_end(self, ev):
            self._check_defeat(ev)

    # ------------------------------------------------------------------ movement
    def _drag_cell(self, f: Fighter, g: Fighter, d: int, new: tuple[int, int]
                   ) -> tuple[int, int] | None:
        """R-75: the same step if legal, else the legal cell next to the grappler's new place
        nearest the old one (ties: lowest y, then lowest x). A Rooted creature cannot leave its
        spaces (spec §7.2): it stays while the grappler stays next to it, else no step."""
        dx, dy = DIRECTIONS[d]
        moved = Fighter.FIELDS.clone(f)
        moved.x, moved.y = new
        if "rooted" in g.conds:
            return g.pos if dist(g, moved, g.pos) <= 1 else None
        others = [o for o in self.fighters if o is not f and o is not g] + [moved]
        same = (g.x + dx, g.y + dy)
        if can_stop(self.grid, g, same, others) and dist(g, moved, same) <= 1:
            return same
        best: tuple[Any, ...] | None = None
        for x in range(new[0] - g.n, new[0] + f.n + 1):
            for y in range(new[1] - g.n, new[1] + f.n + 1):
                if dist(g, moved, (x, y)) != 1 or not can_stop(self.grid, g, (x, y), others):
                    continue
                key = (max(abs(x - g.x), abs(y - g.y)), y, x)
                if best is None or key < best:
                    best = key
        return None if best is None else (best[2], best[1])

    def drag_ok(self, f: Fighter, d: int, new: tuple[int, int]) -> bool:
        return all(self._drag_cell(f, self.by_id[g], d, new) is not None for g in f.grips)

    def do_step(self, ctx: Ctx, ev: list[Event], f: Fighter, d: int) -> None:
        """spec §5.0.5, §5.2.3: pay the step; drag grappled creatures (their MR cancels)."""
        from .procedures import make_prone
        if f.mode == "none":
            from .resolve import _open_move
            _open_move(ev, f, full_motion.move_speed(self, f))
        cost = full_motion.step_cost(self, f, self.grid.step_cost(f.pos, d, f.n,
                                                                  2 if f.prone else 1))
        f.budget -= cost
        f.steps += 1
        name = ("e", "ne", "n", "nw", "w", "sw", "s", "se")[d]
        resist = [self.by_id[g] for g in f.grips if self.by_id[g].mr > 0
                  and not full_lift.carried(f, g)]  # a lifted creature has no footing
        if resist:  # each MR point spent cancels one step
            for g in resist:
                g.mr -= 1
            ev.append(Stepped(f.id, name, f.x, f.y, cost, cancelled=True))
            f.charge_dir, f.charge_path = None, []
            return
        new = step_target(self, f, d)
        assert new is not None
        places = {g: self._drag_cell(f, self.by_id[g], d, new) for g in f.grips}
        if f.charge_dir != d:
            f.charge_dir, f.charge_path = d, [f.pos]
        f.x, f.y = new
        f.charge_path.append(new)
        ev.append(Stepped(f.id, name, f.x, f.y, cost))
        for gid, cell in places.items():
            assert cell is not None
            g = self.by_id[gid]
            g.x, g.y = cell
            ev.append(Dragged(gid, f.id, g.x, g.y))
            full_motion.settle(self, ctx, ev, g)
            full_terrain.entered(self, ev, g)
        if self.options.elevation:
            full_motion.settle(self, ctx, ev, f)  # spec §3.2 FULL, §8.8
        full_terrain.entered(self, ev, f)  # spec §5.2.18 Swim, §8.3 Magma (FULL)
        if f.mode == "run" and "blinded" in f.conds and f.steps == 1:
            make_prone(self, ctx, ev, f, on_purpose=False)  # spec §5.2.4

    def end_grapple(self, ev: list[Event], grappler: Fighter, target: Fighter, how: str) -> None:
        grappler.grips.pop(target.id, None)
        if grappler.id in target.grappled_by:
            target.grappled_by.remove(grappler.id)
        ev.append(GrappleChanged(grappler.id, target.id, how))

    def _grapple_upkeep(self, ev: list[Event]) -> None:
        """spec §5.2.9: a grapple ends when the grappler is Paralyzed or worse, lacks the hands,
        or the two are no longer adjacent."""
        for f in self.fighters:
            for gid in list(f.grips):
                g = self.by_id[gid]
                if not f.alive or f.action_rung >= 4 or body_locked(f) or dist(f, g) > 1 \
                        or f.hands_used() > f.profile.hands:
                    self.end_grapple(ev, f, g, "ended")
        breath_upkeep(self, ev)  # FULL: spec §5.2.14, §7.4, §9.4

    # ------------------------------------------------------------------ protocol: reading
    def sides(self) -> tuple[SideInfo, ...]:
        return self._sides

    def is_active(self, combatant: str) -> bool:
        f = self.by_id[combatant]
        if not f.alive or f.fled:
            return False
        mode = self.options.defeat_mode
        if mode == "zero_hp":
            return f.hp > 0
        if mode == "incapacitated":  # spec §8.11: Unconscious, Paralyzed or Petrified (Frozen
            # alike) with no expiry puts a creature out; one that will wear off does not
            return not any(c.expires_at is None for c in f.conds
                           if c.name in ("paralyzed", "unconscious", "petrified", "frozen"))
        return True

    def current_actor(self) -> str | None:
        if self._outcome is not None:
            return None
        if self.window is not None:
            return self.window.actor
        return self.queue[0] if self.queue else None

    def legal_actions(self) -> list[Action]:
        if self._outcome is not None:
            return []
        if self._legal is None:
            if self.window is not None:
                self._legal = [parse(x) for x in self.window.labels]
            else:
                self._legal = turn_actions(self, self.by_id[self.queue[0]])
        return list(self._legal)

    def parse_action(self, label: str) -> Action:
        a = _CHECKED.get(label) if isinstance(label, str) else None
        if a is not None:
            if a.actor in self.by_id and (a.target is None or a.target in self.by_id):
                return a
        a = parse(label)
        if a.actor not in self.by_id:
            raise ActionSyntaxError(f"cannot read action {label!r}: unknown combatant "
                                    f"{a.actor!r}; combatants: {', '.join(self.by_id)}")
        if a.target is not None and a.target not in self.by_id:
            raise ActionSyntaxError(f"cannot read action {label!r}: unknown target {a.target!r}")
        check_label(a, label)
        if len(_CHECKED) > 50_000:
            _CHECKED.clear()
        _CHECKED[label] = a
        return a

    # ------------------------------------------------------------------ resolution
    def _resolve(self, action: Action, dice: Dice, events: list[Event]) -> None:
        self._legal = None

        def body(ctx: Ctx, ev: list[Event], label: str) -> None:
            first = parse(label)
            if first.kind != "end_turn":
                resolve_turn_action(self, ctx, ev, first)
            full_motion.after_action(self, ctx, ev, self.by_id[first.actor],
                                     first.kind == "end_turn")  # spec §8.8 fall steps
            full_skills.after_action(self, ctx, ev, self.by_id[first.actor],
                                     first.kind == "end_turn")  # spec §5.3 Arcane Aura
            self._grapple_upkeep(ev)
            self.check_end(ev)
            # the turn flow runs inside the procedure: the team turns it ends and starts may
            # open windows (an Ignited tick's Block, spec §7.2, §8.2 D11)
            advance(self, ctx, ev, first.actor, first.kind == "end_turn")

        events.extend(run_procedure(self, action.label, dice, body))

    def _ended(self) -> None:
        self.queue = []

    # ------------------------------------------------------------------ clone and snapshot
    def _copy(self) -> SizeboundEncounter:
        new = object.__new__(SizeboundEncounter)
        new.__dict__.update(self.__dict__)
        new.fighters = [f.clone() for f in self.fighters]
        new.by_id = {f.id: f for f in new.fighters}
        new.queue = list(self.queue)
        new.items = [list(i) for i in self.items]
        new.proc = None
        new._legal = None
        return new

    def _restore(self, base: SizeboundEncounter) -> None:
        twin = base._copy()
        proc = self.proc
        self.__dict__.update(twin.__dict__)
        self.proc = proc

    def clone(self) -> SizeboundEncounter:
        new = self._copy()
        if self.proc is not None:
            new.proc = self.proc.clone()
        new._legal = self._legal
        return new

    def snapshot(self) -> dict[str, Any]:
        proc = None if self.proc is None else self.proc.to_dict()
        return {
            "system": SYSTEM, "name": self.name, "options": self.options.to_dict(),
            "grid": self.grid.to_dict(), "side_order": list(self.order),
            "order": [f.id for f in self.fighters],  # the roster (the shared situation field)
            "round": self._round,
            "slot": self.slot, "queue": list(self.queue), "items": [list(i) for i in self.items],
            "outcome": None if self._outcome is None else self._outcome.to_dict(),
            "window": None if self.window is None else self.window.to_dict(),
            "combatants": {f.id: f.to_dict() for f in self.fighters},
            "profiles": {f.id: profile_to_dict(f.profile) for f in self.fighters},
            "proc": proc,
            "heights": [[x, y, h] for (x, y), h in sorted(self.heights.items())],
            "terrain": [[x, y, k] for (x, y), k in sorted(self.terrain.items())],
            "hazards": sorted(self.hazards),
            "cover": [list(c) for c in sorted(self.cover)],
            "dark": [list(c) for c in sorted(self.dark)],
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> SizeboundEncounter:
        opts = parse_options(data["options"])
        profiles = {k: profile_from_dict(v) for k, v in data["profiles"].items()}
        table = condition_table(len(data["side_order"]))
        fighters = []
        for cid in data["order"]:  # roster order, whatever the order of the mapping's keys
            d = data["combatants"][cid]
            f = Fighter(cid, d["side"], profiles[cid], (d["x"], d["y"]), table)
            f.load(d, table)
            fighters.append(f)
        enc = cls(fighters, SquareGrid.from_dict(data["grid"]), data["side_order"], opts,
                  data["name"])
        enc._round, enc.slot = data["round"], data["slot"]
        enc.queue = list(data["queue"])
        enc.heights = {(int(x), int(y)): int(h) for x, y, h in data.get("heights", [])}
        enc.terrain = {(int(x), int(y)): str(k) for x, y, k in data.get("terrain", [])}
        enc.hazards = frozenset(data.get("hazards", ()))
        enc.cover = frozenset((int(x), int(y)) for x, y in data.get("cover", ()))
        enc.dark = frozenset((int(x), int(y)) for x, y in data.get("dark", ()))
        enc.items = [list(i) for i in data["items"]]
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
        return [{"id": f.id, "side": f.side, "hp": f"{f.hp}/{f.profile.max_hp}",
                 "at": f"{f.x},{f.y}", "state": ", ".join(sorted({c.name for c in f.conds}))
                 or ("fled" if f.fled else "dead" if not f.alive else "-")} for f in self.fighters]

    def harm(self) -> dict[str, float]:
        return {f.id: float(f.profile.max_hp - f.hp) for f in self.fighters}
