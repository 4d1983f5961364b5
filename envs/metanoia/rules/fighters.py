"""The runtime model of a Metanoia fight (spec §2.1, §7): combatants and pending declarations.

``Fighter`` is one combatant's changing state next to its (immutable, shared) stat block;
``Pending`` is a declaration waiting for off-turn decisions (intercept, challenge, react). Both
declare their fields once as a ``StateFields`` (envs/core/snapshot.py): clone, snapshot and
restore follow that list.
"""

from __future__ import annotations

from typing import Any

from envs.core.snapshot import StateFields

from .catalogue import Option, StatBlock

TRAITS = ("motive", "identity")
CONCEALMENT = ("obscured", "hidden")  # spec §7.2
STATUS_OF = {"deteriorating": "deteriorating", "pin": "pinned", "slip": "slip"}  # keyword -> status
STATUSES = ("deteriorating", "slip", "pinned", "obscured", "hidden")
HOSTILE_KINDS = ("attack", "condition", "argue")
TIE_TO_ACTOR = ("condition", "mark", "move")  # spec §5.4, RULING R32: the Actor wins these ties


def _injuries_out(injuries: list[tuple[str, int]]) -> list[dict[str, Any]]:
    return [{"keyword": k, "severity": s} for k, s in injuries]


def _injuries_in(rows: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(i["keyword"], i["severity"]) for i in rows]


class Fighter:
    """Runtime state of one combatant (spec §2.1)."""

    __slots__ = ("id", "block", "side", "slot", "strain", "injuries", "conv", "stacks", "zone",
                 "statuses", "defeated", "broken", "fled", "guarding", "surprised")
    FIELDS = StateFields(
        values=("id", "side", "slot", "strain", "conv", "stacks", "zone", "defeated", "broken",
                "fled", "guarding", "surprised"),
        containers=("injuries", "statuses"),
        shared=("block",),
        encode={"injuries": _injuries_out}, decode={"injuries": _injuries_in},
    )

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
        return Fighter.FIELDS.clone(self)

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
        """The snapshot row: the declared fields plus what the block and the rules derive."""
        b = self.block
        d = Fighter.FIELDS.dump(self)
        d.update(name=b.name, block_id=b.id, realm=b.realm, texture=b.texture,
                 strain_max=b.strain_max, injury_slots=b.injury_slots, conv_max=b.conv_max,
                 concealed=self.concealed, active=self.active)
        if concealed_from_viewer:  # spec §7.2: enemies see neither zone nor statuses
            d["zone"] = None
            d["statuses"] = {}
            d["guarding"] = None
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], block: StatBlock) -> Fighter:
        """Inverse of ``to_dict`` (derived keys are ignored; the block comes from the caller)."""
        f = cls(d["id"], block, d["side"], d["slot"], d["zone"])
        Fighter.FIELDS.load(f, d)
        return f


class Pending:
    """A declaration waiting for off-turn decisions (intercept, challenge, react)."""

    __slots__ = ("kind", "actor", "target", "reactor", "option", "boosts", "exploit_dice", "ambush",
                 "candidates", "move_from", "move_to", "paid", "react_option", "react_boosts")
    FIELDS = StateFields(
        values=("kind", "actor", "target", "reactor", "option", "boosts", "exploit_dice",
                "ambush", "move_from", "move_to", "paid", "react_option", "react_boosts"),
        containers=("candidates",),
        encode={"option": lambda o: o.name if o else None,
                "react_option": lambda o: o.name if o else None},
    )

    def __init__(self, kind: str, actor: str, target: str | None, option: Option | None,
                 boosts: tuple[str, ...]) -> None:
        self.kind, self.actor, self.target = kind, actor, target
        self.option, self.boosts = option, boosts
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
        return Pending.FIELDS.clone(self)

    def to_dict(self) -> dict[str, Any]:
        return Pending.FIELDS.dump(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any], blocks: dict[str, StatBlock]) -> Pending:
        """Inverse of ``to_dict``; ``blocks`` (combatant id -> block) names the options."""
        p = cls(d["kind"], d["actor"], d["target"], None, ())
        reactor = d["reactor"]
        Pending.FIELDS.load(p, d, decode={
            "option": lambda n: option_named(blocks[d["actor"]], n),
            "react_option": lambda n: option_named(blocks[reactor], n) if reactor else None,
        })
        return p


def option_named(block: StatBlock, name: str | None) -> Option | None:
    """The option ``name`` of ``block`` (``None`` for ``None``; ``KeyError`` if it has none)."""
    if name is None:
        return None
    for o in block.options:
        if o.name == name:
            return o
    raise KeyError(name)
