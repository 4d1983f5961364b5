"""The toy's encoding: the action layout and the observation spec (``envs.rl.SystemEncoding``).

Actions: ``pass``, ``score``, ``attack`` (enemy slot 0..1), ``react`` (none or block).
Observation (15 floats): self, allies and enemies as (present, points / target, hp / max hp) per
slot, the round as a fraction of the cap, and the phase (turn or reaction) as one-hot.
"""

from __future__ import annotations

import numpy as np

from envs.core import Action
from envs.rl.layout import ActionLayout, Block
from envs.rl.observation import ObsSpec, ego_order

from .rules import RaceEncounter

__all__ = ["ToyEncoding", "ENCODING"]

SLOT = (("present", 1), ("points", 1), ("hp", 1))
"""the features of one combatant slot"""


class ToyEncoding:
    """Spaces and Action <-> index mapping of the toy system."""

    name = "toy_v0"
    max_per_side = 2
    layout = ActionLayout(
        [
            Block("pass"),
            Block("score"),
            Block("attack", (("enemy", 2),)),
            Block("react", (("block", 2),)),
        ]
    )
    obs_spec = ObsSpec(
        [("self", 3), ("allies", 3), ("enemies", 6), ("round", 1, 0.0, 1.0), ("phase", 2, 0.0, 1.0)]
    )
    REACTIONS = ("none", "block")
    FEATURES = {
        "self": SLOT,
        "allies": SLOT,
        "enemies": tuple((f"{name}{k}", n) for k in range(2) for name, n in SLOT),
        "phase": (("turn", 1), ("reaction", 1)),
    }
    """the named features inside each piece (``arena layout toy --obs``)"""

    def obs_features(self) -> list[tuple[str, int, int, float, float]]:
        """Every named feature as ``(name, offset, size, low, high)``, in vector order."""
        rows = []
        for piece, _size, lo, hi in self.obs_spec.pieces:
            at = self.obs_spec.slices[piece].start
            for feature, n in self.FEATURES.get(piece, ()):
                rows.append((f"{piece}.{feature}", at, n, lo, hi))
                at += n
        return rows

    def encode_action(self, enc: RaceEncounter, combatant: str, action: Action) -> int:
        if action.kind == "attack":
            return self.layout.index("attack", ego_order(enc, combatant, 2)[2].index(action.target))
        if action.kind == "react":
            return self.layout.index("react", self.REACTIONS.index(action.args[0]))
        return self.layout.index(action.kind)

    def decode_action(self, enc: RaceEncounter, combatant: str, index: int) -> Action:
        block, coords = self.layout.coords(index)
        if block == "attack":
            target = ego_order(enc, combatant, 2)[2][coords["enemy"]]
            if target is None:
                raise ValueError(f"enemy slot {coords['enemy']} is empty")
            return Action(combatant, "attack", target=target)
        if block == "react":
            return Action(combatant, "react", (self.REACTIONS[coords["block"]],))
        return Action(combatant, block)

    def observe(self, enc: RaceEncounter, combatant: str) -> np.ndarray:
        vec = self.obs_spec.new()
        views = self.obs_spec.named(vec)
        me, allies, enemies = ego_order(enc, combatant, 2)
        for piece, ids in (("self", [me]), ("allies", allies), ("enemies", enemies)):
            for k, cid in enumerate(ids):
                if cid is not None:
                    views[piece][3 * k : 3 * k + 3] = (
                        1.0,
                        enc.points[cid] / enc.target,
                        enc.hp[cid] / enc.max_hp,
                    )
        views["round"][0] = enc.round / enc.max_rounds
        views["phase"][0 if enc.pending is None else 1] = 1.0
        return vec


ENCODING = ToyEncoding()
