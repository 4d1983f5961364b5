"""The Metanoia encounter: the state of one fight and the ``Encounter`` protocol (spec §3 to §9).

One ``MetanoiaEncounter`` is one fight. Decisions come in four phases:

====================  =====================================  ====================================
phase                 who decides                            labels
====================  =====================================  ====================================
``turn``              the combatant whose turn it is         ``recover``, ``withdraw``,
                                                             ``move 0``, ``hide``, ``sense -> x``,
                                                             ``guard -> x``, ``mark -> x``,
                                                             ``attack OPT -> x``,
                                                             ``condition OPT -> x``,
                                                             ``argue OPT -> x``,
                                                             ``support OPT -> x``
                                                             (+motive/+identity)
``intercept``         a Guarding ally of the target (R25)    ``intercept yes`` / ``intercept no``
``challenge``         an enemy in the mover's zone (R23)     ``challenge yes`` / ``challenge no``
``react``             the Reactor of an opposed roll (§6.1)  ``react none`` / ``react OPT``
                                                             (+traits)
====================  =====================================  ====================================

Dice are drawn in the documented order: initiative (side A slot 0.. then side B), then per opposed
roll the Actor's pool and then the Reactor's (RULING R8).

The rules live in one module per part of the spec, as plain functions on the encounter:
``fighters`` (the runtime model, §2.1), ``legality`` (legal actions, §5), ``turns`` (initiative
and the turn flow, §3.3, §4.2), ``resolution`` (turn actions, §5.9-§5.13), ``opposed`` (opposed
rolls, §5.2-§5.6), ``effects`` (costs, pools, landings applied) and ``preview`` (the same numbers
as odds, for agents). ``EncounterBase`` (envs/core) owns ``apply``'s legality check, the end of
the fight, defeat and the round cap.
"""

from __future__ import annotations

from typing import Any

from envs.core.actions import Action, ActionSyntaxError, parse_label
from envs.core.dice import Dice
from envs.core.encounter import EncounterBase, Outcome, SideInfo
from envs.core.events import Event
from envs.core.snapshot import StateFields

from . import legality
from .catalogue import catalogue, parse_stat_block
from .fighters import (
    CONCEALMENT,
    HOSTILE_KINDS,
    STATUS_OF,
    STATUSES,
    TRAITS,
    Fighter,
    Pending,
)
from .options import RuleOptions, parse_options
from .preview import Preview, preview_action
from .resolution import resolve_decision
from .turns import begin, start_turn

SYSTEM = "metanoia"

__all__ = ["SYSTEM", "MetanoiaEncounter", "Fighter", "Pending", "TRAITS", "CONCEALMENT",
           "STATUS_OF", "STATUSES", "HOSTILE_KINDS"]


class MetanoiaEncounter(EncounterBase):
    """One Metanoia fight (the ``Encounter`` protocol of ``envs.core``)."""

    system = SYSTEM
    FIELDS = StateFields(
        values=("name", "turn_idx", "_round", "phase", "surprised_side", "_outcome"),
        shared=("options", "order", "hazards", "_legal", "textures", "_sides"),
    )
    """Cloned as declared; ``fighters``, ``by_id``, ``pending`` and ``start_events`` by ``clone``.
    ``order`` and ``hazards`` are replaced, never changed in place; ``_legal`` is never changed
    once listed."""

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
        self.start_events: list[Event] = []
        self.textures = catalogue().textures
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
        assert p is not None
        if phase == "react":
            return p.reactor
        return p.candidates[0]  # intercept / challenge: asked in initiative order

    def knows(self, viewer: str, other: str) -> bool:
        """Whether ``viewer`` sees ``other``'s zone and statuses (spec §7.2: not a concealed
        enemy)."""
        a, b = self.by_id[viewer], self.by_id[other]
        return a.side == b.side or not b.concealed

    def view(self, actor: str) -> dict[str, Any]:
        """What ``actor`` may know: the snapshot with concealed enemies' zone and statuses
        hidden."""
        snap = self.snapshot()
        me = self.by_id[actor]
        for f in self.fighters:
            if f.side != me.side and f.concealed:
                snap["combatants"][f.id] = f.to_dict(concealed_from_viewer=True)
        snap["viewer"] = actor
        return snap

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = legality.legal_actions(self)
        return self._legal

    def preview(self, action: Action, reaction: Action | None = None,
                viewer: str | None = None) -> Preview:
        """The odds, landings and costs of ``action`` as the rules compute them
        (``rules/preview.py``); ``reaction`` is the Reactor's assumed answer to a hostile
        declaration, ``viewer`` limits it to what that combatant may know."""
        return preview_action(self, action, reaction, viewer)

    # ------------------------------------------------------------------ setup
    def begin(self, dice: Dice | None, roll_initiative: bool) -> list[Event]:
        """Start the fight: roll initiative (spec §3.3, RULING R24) and start the first turn."""
        return begin(self, dice, roll_initiative)

    def at_turn(self, actor: str, round: int = 1, start: bool = False) -> list[Event]:
        """Stand the fight at ``actor``'s turn decision in ``round`` (situations, tests).

        The turn-start effects (spec §4.2 steps 2-4) are applied only with ``start``: a situation
        describes the state after them. Round 1 of a surprise (RULING R36) marks the surprised
        side, except ``actor``. Ends the fight at once if a side has no active combatant.
        """
        a = self.by_id[actor]
        if not a.active:
            raise ValueError(f"{actor!r} is out of the fight")
        if self.surprised_side and round == 1:
            for f in self.fighters:
                f.surprised = f.side == self.surprised_side and f is not a
        self._round = round
        self.turn_idx = self.order.index(actor)
        self.phase, self.pending, self._legal = "turn", None, None
        events: list[Event] = []
        if not self._check_defeat(events) and start:
            start_turn(self, a, events)
        self.start_events.extend(events)
        return events

    # ------------------------------------------------------------------ EncounterBase hooks
    def parse_action(self, label: str) -> Action:
        action = parse_label(label)
        for who, field in ((action.actor, "actor"), (action.target, "target")):
            if who is not None and who not in self.by_id:
                raise ActionSyntaxError(f"{label!r}: unknown {field} {who!r}; "
                                        f"combatants: {', '.join(self.by_id)}")
        for b in action.boosts:
            if b not in TRAITS:
                raise ActionSyntaxError(f"{label!r}: unknown boost '+{b}'; "
                                        "expected +motive, +identity or +motive+identity")
        return action

    def _resolve(self, action: Action, dice: Dice, events: list[Event]) -> None:
        self._legal = None
        resolve_decision(self, action, dice, events)

    def _ended(self) -> None:
        self.phase = "over"
        self.pending = None
        self._legal = None

    def _check_end(self, events: list[Event]) -> bool:
        """spec §8.5, RULING R26 (kept for ``from_situation``; ``at_turn`` is the public way)."""
        return self._check_defeat(events)

    # ------------------------------------------------------------------ copies and data
    def describe(self, viewer: str | None = None) -> list[dict[str, str]]:
        """One row per combatant for a person's screen, as ``viewer`` may see it (``None``: the
        GM)."""
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
            rows.append({
                "combatant": cid, "side": c["side"],
                "zone": "?" if c["zone"] is None else str(c["zone"]),
                "strain": f"{c['strain']}/{c['strain_max']}", "stacks": str(c["stacks"]),
                "injuries": f"{len(c['injuries'])}/{c['injury_slots']}: {injuries}",
                "convictions": conv, "statuses": statuses, "state": state,
            })
        return rows

    def harm(self) -> dict[str, float]:
        """Harm taken so far per combatant, for GM tools: filled Injury slots plus Convictions
        lost."""
        out = {}
        for f in self.fighters:
            top, conv = f.block.conv_max, f.conv
            lost = top - conv if top is not None and conv is not None else 0
            out[f.id] = float(len(f.injuries) + lost)
        return out

    def clone(self) -> MetanoiaEncounter:
        e = MetanoiaEncounter.FIELDS.clone(self)
        e.fighters = [f.copy() for f in self.fighters]
        e.by_id = {f.id: f for f in e.fighters}
        e.pending = self.pending.copy() if self.pending else None
        e.start_events = []
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
        combatants = data["combatants"]
        side_rank = {s: i for i, s in enumerate(sorted({d["side"] for d in combatants.values()}))}
        roster = sorted(combatants.items(),
                        key=lambda kv: (side_rank[kv[1]["side"]], kv[1]["slot"]))
        fighters = []
        for cid, d in roster:  # roster order (side, slot), whatever order the keys come in
            raw = dict(data["blocks"][cid])
            block = parse_stat_block({k: v for k, v in raw.items() if k != "id"}, "snapshot",
                                     f"blocks.{cid}", raw["id"])
            fighters.append(Fighter.from_dict(dict(d, id=cid), block))
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
            e.pending = Pending.from_dict(data["pending"], {f.id: f.block for f in fighters})
        return e
