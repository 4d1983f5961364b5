"""Mano a Mano snapshot and clone (DESIGN.md "The rules API"): the whole state as JSON-able data and
back (``snapshot``, ``restore``), and the cheap independent copy for look-ahead (``clone``).

Plain functions of the encounter (``state.ManoEncounter``); its methods of the same names call them.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import TYPE_CHECKING, Any

from envs.core.encounter import Outcome
from envs.core.hexgrid import HexMap

from . import guns, mounted
from .catalogue import stat_blocks
from .fighter import Fighter, Turn
from .options import RuleOptions

if TYPE_CHECKING:
    from .state import ManoEncounter

SHARED = ("options", "map", "side_ids", "roster", "rideable", "_round", "turn_idx", "_outcome",
          "delayed", "delays_used", "order_pending", "follow_hex", "_legal", "_applying",
          "_legal_next", "probed")
"""fields a clone shares with its original: immutable values, the map, and the legal-action lists
(never changed in place)"""


def clone(enc: ManoEncounter) -> ManoEncounter:
    """Independent copy for look-ahead: mutable parts copied, stat blocks and the map shared."""
    new = object.__new__(type(enc))
    for name in SHARED:
        setattr(new, name, getattr(enc, name))
    new.fighters = []
    for f in enc.fighters:
        g = copy.copy(f)
        g.held, g.stowed = dict(f.held), list(f.stowed)
        g.shots, g.clip_out, g.reloading = dict(f.shots), list(f.clip_out), dict(f.reloading)
        new.fighters.append(g)
    new.by_id = {f.id: f for f in new.fighters}
    new.order = list(enc.order)
    new.stack = []
    for t in enc.stack:
        u = copy.copy(t)
        u.weapons = Counter(t.weapons)
        new.stack.append(u)
    new.grapples = {k: dict(v) for k, v in enc.grapples.items()}
    new.floor = {k: list(v) for k, v in enc.floor.items()}
    new.start_events = list(enc.start_events)
    new.choice_was = dict(enc.choice_was) if enc.choice_was else None
    new.mounts, new.mount_spent = dict(enc.mounts), set(enc.mount_spent)
    new.floor_guns = {k: [dict(s) for s in v] for k, v in enc.floor_guns.items()}
    return new


def snapshot(enc: ManoEncounter) -> dict[str, Any]:
    """The whole state as JSON-able data; ``from_snapshot`` rebuilds it exactly."""
    return {
        "system": enc.system,
        "round": enc._round,
        "order": list(enc.order),
        "turn_idx": enc.turn_idx,
        "sides": list(enc.side_ids),
        "options": dict(enc.options.__dict__),
        "map": enc.map.to_dict(),
        "combatants": {
            f.id: {
                "block": f.block.id,
                "side": f.side,
                "slot": f.slot,
                "hex": list(f.hex),
                "standing": f.standing,
                "stun": f.stun,
                "damage": f.damage,
                "health": f.health,
                "held": dict(f.held),
                "defense_bonus": f.defense_bonus,
                "counter_ready": f.counter_ready,
                "forced_skips": f.forced_skips,
                "stowed": list(f.stowed),
                "bow_drawn": f.bow_drawn,
                "aiming": f.aiming,
                "covering": f.covering,
                **guns.fields(f),
            }
            for f in enc.fighters
        },
        "floor_guns": {k: [dict(s) for s in v] for k, v in sorted(enc.floor_guns.items())},
        "floor": {f"{h[0]},{h[1]}": list(items) for h, items in sorted(enc.floor.items()) if items},
        "stack": [
            {
                "actor": t.actor,
                "counter": t.counter,
                "move_points": t.move_points,
                "moved": t.moved,
                "actions": t.actions,
                "quick_only": t.quick_only,
                "weapons": dict(t.weapons),
                "straight_dir": t.straight_dir,
                "straight_hexes": t.straight_hexes,
                "charge_used": t.charge_used,
                "acted_while_healthy": t.acted_while_healthy,
                "choice": list(t.choice),
                "partner": t.partner,
                "declared": t.declared,
            }
            for t in enc.stack
        ],
        "deciding": [t.actor for t in enc.stack],
        "grapples": [
            {"pair": sorted(p), **g}
            for p, g in sorted(enc.grapples.items(), key=lambda kv: sorted(kv[0]))
        ],
        **mounted.snapshot_fields(enc),  # spec §5.11: rider -> mount, mounts spent
        "pending": {
            "follow_hex": list(enc.follow_hex) if enc.follow_hex else None,
            "choice_was": enc.choice_was,
            "delayed": enc.delayed,
            "delays_used": sorted(enc.delays_used),
            "order_pending": enc.order_pending,
        },
        "outcome": enc._outcome.to_dict() if enc._outcome else None,
    }


def restore(cls: type[ManoEncounter], data: dict[str, Any]) -> ManoEncounter:
    """Rebuild an encounter from ``snapshot()`` data (stat blocks come from the catalogue)."""
    blocks = stat_blocks()
    fighters = []
    for cid, c in data["combatants"].items():
        fighters.append(
            Fighter(
                cid,
                blocks[c["block"]],
                c["side"],
                c["slot"],
                tuple(c["hex"]),
                c["standing"],
                c["stun"],
                c["damage"],
                dict(c["held"]),
                c["defense_bonus"],
                c["counter_ready"],
                c["forced_skips"],
                list(c["stowed"]),
                c["bow_drawn"],
                c["aiming"],
                c["covering"],
            )
        )
    side_rank = {s: i for i, s in enumerate(data["sides"])}
    fighters.sort(key=lambda f: (side_rank[f.side], f.slot))  # roster order, whatever the key order
    opts = RuleOptions(**data["options"])
    enc = cls(fighters, list(data["order"]), HexMap.from_dict(data["map"]), opts)
    enc._round, enc.turn_idx = data["round"], data["turn_idx"]
    enc.floor = {tuple(int(x) for x in k.split(",")): list(v) for k, v in data["floor"].items()}
    enc.grapples = {
        frozenset(g["pair"]): {"base": g["base"], "dominant": g["dominant"]}
        for g in data["grapples"]
    }
    enc.stack = [
        Turn(
            t["actor"],
            t["counter"],
            t["move_points"],
            t["moved"],
            t["actions"],
            t["quick_only"],
            Counter(t["weapons"]),
            t["straight_dir"],
            t["straight_hexes"],
            t["charge_used"],
            t["acted_while_healthy"],
            tuple(t["choice"]),
            t["partner"],
            t.get("declared", False),
        )
        for t in data["stack"]
    ]
    pending = data["pending"]
    enc.follow_hex = tuple(pending["follow_hex"]) if pending["follow_hex"] else None
    enc.choice_was = pending["choice_was"]
    enc.delayed = pending["delayed"]
    enc.delays_used = frozenset(pending.get("delays_used", ()))
    enc.order_pending = pending.get("order_pending", False)
    mounted.restore(enc, data)
    guns.restore(enc, data)  # guns.py: shots left, clips out, reload actions done
    out = data["outcome"]
    enc._outcome = Outcome(out["winner"], out["reason"], out["round"]) if out else None
    return enc


def describe_row(f: Fighter) -> dict[str, str]:
    """One combatant's row of ``ManoEncounter.describe`` (short texts for a person's screen)."""
    b, t = f.block, f.stun + f.damage
    ready = "counter" if f.counter_ready else (f"+{f.defense_bonus} def" if f.defense_bonus else "")
    return {"combatant": f.id, "side": f.side, "hex": str(f.hex),
            "stance": "standing" if f.standing else "on the ground",
            "stun": str(f.stun), "damage": str(f.damage),
            "health": f"{f.health.replace('_', ' ')} (T {t}/{b.toughness}/{b.stamina})",
            "ready": ready}
