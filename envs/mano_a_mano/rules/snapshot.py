"""Mano a Mano snapshot and clone (DESIGN.md "The rules API"): the whole state as JSON-able data and
back (``snapshot``, ``restore``), and the cheap independent copy for look-ahead (``clone``).

Plain functions of the encounter (``state.ManoEncounter``); its methods of the same names call them.
The fighter, the turn and the encounter declare their fields (``Fighter.FIELDS``, ``Turn.FIELDS``,
``FIELDS`` here): clone, snapshot and restore follow those lists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core.encounter import Outcome
from envs.core.hexgrid import HexMap
from envs.core.snapshot import StateFields

from . import guns, mounted, turns
from .catalogue import (
    StatBlock,
    catalogue,
    inline_source,
    parse_item,
    parse_stat_block,
    remember_source,
    stat_blocks,
)
from .fighter import Fighter, Turn
from .options import RuleOptions

if TYPE_CHECKING:
    from .state import ManoEncounter

FIELDS = StateFields(
    values=("_round", "turn_idx", "_outcome", "delayed", "delays_used", "order_pending",
            "follow_hex", "_legal", "_applying", "_legal_next", "probed", "choice_was"),
    containers=("order", "start_events", "mounts", "mount_spent"),
    shared=("options", "map", "side_ids", "roster", "rideable", "_sides", "circumstances"),
)
"""The encounter's declared fields (cloned as declared; the fighters, the turn stack, grapples,
floor items and floor guns hold containers of their own and are copied by ``clone``). The legal-
action lists are never changed in place; ``choice_was`` is replaced, never changed."""


def clone(enc: ManoEncounter) -> ManoEncounter:
    """Independent copy for look-ahead: mutable parts copied, stat blocks and the map shared."""
    new = FIELDS.clone(enc)
    fighter, turn = Fighter.FIELDS.clone, Turn.FIELDS.clone
    new.fighters = [fighter(f) for f in enc.fighters]
    new.by_id = {f.id: f for f in new.fighters}
    new.stack = [turn(t) for t in enc.stack]
    new.grapples = {k: dict(v) for k, v in enc.grapples.items()}
    new.floor = {k: list(v) for k, v in enc.floor.items()}
    new.floor_guns = {k: [dict(s) for s in v] for k, v in enc.floor_guns.items()}
    return new


def _fighter(enc: ManoEncounter, f: Fighter, moving: dict[str, int]) -> dict[str, Any]:
    data = Fighter.FIELDS.dump(f)
    del data["id"]
    out = {"block": f.block.id, **data, "health": f.health, "derived": derived(enc, f, moving)}
    source = inline_source(f.block)
    if source is not None:  # not the catalogue's block: carry it, from_snapshot reads it back
        out["stat_block"] = source
    return out


def derived(enc: ManoEncounter, f: Fighter, moving: dict[str, int]) -> dict[str, Any]:
    """The derived values the rules read for ``f`` now (issue item 12): its defences with the
    items it holds (spec §2.3, §5.4), its bonus until its next turn (RULING R3), the movement
    points a turn of its starts with (spec §4.5, RULING R26) and, while it decides, the points
    left this turn (``None`` otherwise)."""
    b = f.block
    return {
        "melee_defense": f.melee_defense(),
        "missile_defense": b.missile_defense,
        "grapple_defense": b.grapple_defense,
        "defense_bonus": f.defense_bonus,
        "encumbered": f.encumbered,
        "move_points_per_turn": turns.move_points(enc, f),
        "movement_left": moving.get(f.id),
    }


def snapshot(enc: ManoEncounter) -> dict[str, Any]:
    """The whole state as JSON-able data; ``from_snapshot`` rebuilds it exactly. Each combatant
    also shows its ``derived`` values (not read back) and, when its stat block is not the
    catalogue's (a situation's inline combatant), the block's data as ``stat_block``."""
    moving = {t.actor: t.move_points for t in enc.stack}  # the top turn wins
    return {
        "system": enc.system,
        "round": enc._round,
        "order": list(enc.order),
        "turn_idx": enc.turn_idx,
        "sides": list(enc.side_ids),
        "options": dict(enc.options.__dict__),
        "map": enc.map.to_dict(),
        "combatants": {f.id: _fighter(enc, f, moving) for f in enc.fighters},
        "floor_guns": {k: [dict(s) for s in v] for k, v in sorted(enc.floor_guns.items())},
        "floor": {f"{h[0]},{h[1]}": list(items) for h, items in sorted(enc.floor.items()) if items},
        "stack": [Turn.FIELDS.dump(t) for t in enc.stack],
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
        "circumstances": dict(enc.circumstances),
    }


def restore(cls: type[ManoEncounter], data: dict[str, Any]) -> ManoEncounter:
    """Rebuild an encounter from ``snapshot()`` data (stat blocks come from the catalogue)."""
    blocks = stat_blocks()
    fighters = []
    for cid, c in data["combatants"].items():
        own = c.get("stat_block")
        block = blocks[c["block"]] if own is None else _inline_block(cid, c["block"], own)
        f = Fighter(cid, block, c["side"], c["slot"], tuple(c["hex"]))
        Fighter.FIELDS.load(f, {**c, "id": cid})
        fighters.append(f)
    side_rank = {s: i for i, s in enumerate(data["sides"])}
    fighters.sort(key=lambda f: (side_rank[f.side], f.slot))  # roster order, whatever the key order
    opts = RuleOptions(**data["options"])
    enc = cls(fighters, list(data["order"]), HexMap.from_dict(data["map"]), opts)
    enc._round, enc.turn_idx = data["round"], data["turn_idx"]
    enc.floor = {_hex(k): list(v) for k, v in data["floor"].items()}
    enc.grapples = {
        frozenset(g["pair"]): {"base": g["base"], "dominant": g["dominant"]}
        for g in data["grapples"]
    }
    enc.stack = []
    for t in data["stack"]:
        turn = Turn(t["actor"])
        Turn.FIELDS.load(turn, t)
        enc.stack.append(turn)
    pending = data["pending"]
    enc.follow_hex = tuple(pending["follow_hex"]) if pending["follow_hex"] else None
    enc.choice_was = pending["choice_was"]
    enc.delayed = pending["delayed"]
    enc.delays_used = frozenset(pending.get("delays_used", ()))
    enc.order_pending = pending.get("order_pending", False)
    mounted.restore(enc, data)
    guns.restore(enc, data)  # guns.py: floor guns
    enc.circumstances = dict(data.get("circumstances", {}))
    out = data["outcome"]
    enc._outcome = Outcome(out["winner"], out["reason"], out["round"]) if out else None
    return enc


def _hex(key: str) -> tuple[int, int]:
    q, r = key.split(",")
    return int(q), int(r)


def _inline_block(cid: str, block_id: str, source: dict[str, Any]) -> StatBlock:
    """A snapshot's own stat block (and the items it uses), checked as a situation's are."""
    known = catalogue().items
    items = dict(known)
    for iid, raw in source.get("items", {}).items():
        items[iid] = parse_item(iid, raw, "snapshot")
    block = parse_stat_block(source["block"], "snapshot", f"combatants.{cid}", block_id, items)
    remember_source(block, source)
    return block


def describe_row(f: Fighter) -> dict[str, str]:
    """One combatant's row of ``ManoEncounter.describe`` (short texts for a person's screen)."""
    b, t = f.block, f.stun + f.damage
    ready = "counter" if f.counter_ready else (f"+{f.defense_bonus} def" if f.defense_bonus else "")
    return {"combatant": f.id, "side": f.side, "hex": str(f.hex),
            "stance": "standing" if f.standing else "on the ground",
            "stun": str(f.stun), "damage": str(f.damage),
            "health": f"{f.health.replace('_', ' ')} (T {t}/{b.toughness}/{b.stamina})",
            "ready": ready}
