"""Helpers for the Metanoia rules tests: inline stat blocks, situations and scripted play.

``fight(...)`` builds a ``MetanoiaEncounter`` through ``from_situation`` (the same path as case
files).
By default the rules are CORE with ``round_limit: 1`` and the acting combatant is last in the
initiative order, so the fight stops (draw at the cap) right after its turn and no later turn-start
effect (Strain regain, Deteriorating tick) blurs the state under test.
"""

from __future__ import annotations

from typing import Any

from envs.core.dice import ScriptedDice
from envs.metanoia.rules import MetanoiaEncounter, from_situation


def ab(keyword: str, rank: int, **kw: Any) -> dict[str, Any]:
    """An ability entry (polarity/reach optional)."""
    return {"keyword": keyword, "rank": rank, **kw}


def item(item_id: str, rank: int, *keywords: str | dict[str, Any], **kw: Any) -> dict[str, Any]:
    kws = [k if isinstance(k, dict) else {"keyword": k} for k in keywords]
    return {"id": item_id, "rank": rank, "keywords": kws, **kw}


def blk(texture: str = "volatile", *, realm: int = 1, motive: int = 1, identity: int = 1,
        polarity: str = "stone", abilities: list | None = None, items: list | None = None,
        passives: list | None = None, **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"realm": realm, "texture": texture, "motive": motive, "identity": identity,
                         "polarity": polarity}
    if abilities:
        d["abilities"] = abilities
    if items:
        d["items"] = items
    if passives:
        d["passives"] = passives
    d.update(kw)
    return d


def unit(
    cid: str, side: str, stats: str | dict[str, Any] | None = None, zone: int = 1, **state: Any
) -> dict[str, Any]:
    """One combatant of a situation; ``state`` keys are the situation's state overrides."""
    u: dict[str, Any] = {
        "id": cid,
        "side": side,
        "stats": stats if stats is not None else blk(),
        "zone": zone,
    }
    if state:
        u["state"] = state
    return u


def resist(polarity: str, rank: int) -> dict[str, Any]:
    return {"keyword": "resistance", "rank": rank, "polarity": polarity}


def stealthy(rank: int) -> dict[str, Any]:
    return {"keyword": "stealthy", "rank": rank}


# §11 conventions: C1 = Rot-blade (Deteriorating 3, Decay); C2 = Counter 3 and Slip 4 (Shadow).
def c1_block(texture: str = "volatile", **kw: Any) -> dict[str, Any]:
    kw.setdefault(
        "items",
        [item("rot_blade", 3, {"keyword": "deteriorating", "reach": "close"}, polarity="decay")],
    )
    return blk(texture, polarity="decay", **kw)


def c2_block(texture: str = "volatile", **kw: Any) -> dict[str, Any]:
    kw.setdefault("abilities", [ab("counter", 3), ab("slip", 4)])
    return blk(texture, polarity="shadow", **kw)


def fight(*units: dict[str, Any], actor: str | None = None, order: list[str] | None = None,
          options: Any = None, dice: list[int] | None = None, **extra: Any) -> MetanoiaEncounter:
    """Build a situation. ``actor`` defaults to the first unit; ``order`` defaults to the other
    units in listed order followed by the actor (so its turn is the last of the round)."""
    ids = [u["id"] for u in units]
    data: dict[str, Any] = {
        "system": "metanoia",
        "options": options if options is not None else {"version": "core", "round_limit": 1},
        "combatants": list(units),
        **extra,
    }
    if actor is None and "actor" not in extra and dice is None:
        actor = ids[0]
    if actor is not None:
        data["actor"] = actor
        data["order"] = order if order is not None else [i for i in ids if i != actor] + [actor]
    elif order is not None:
        data["order"] = order
    return from_situation(
        data, "test", ScriptedDice(dice or [], sides=6) if dice is not None else None
    )


def play(
    enc: MetanoiaEncounter, faces: list[int | str], *labels: str, exhaust: bool = True
) -> list[str]:
    """Apply ``labels`` with exactly ``faces`` (all must be used unless ``exhaust`` is False);
    returns the event log as text."""
    dice = ScriptedDice(faces, sides=6)
    log: list[str] = []
    for label in labels:
        log.extend(str(e) for e in enc.apply(enc.parse_action(label), dice))
    if exhaust:
        dice.check_exhausted()
    return log


def legal(enc: MetanoiaEncounter) -> set[str]:
    return {a.label for a in enc.legal_actions()}


def c(enc: MetanoiaEncounter, cid: str) -> dict[str, Any]:
    """The snapshot entry of one combatant."""
    return enc.snapshot()["combatants"][cid]


def injuries(enc: MetanoiaEncounter, cid: str) -> list[tuple[str, int]]:
    return [(i["keyword"], i["severity"]) for i in c(enc, cid)["injuries"]]


def has_in_order(log: list[str], *texts: str) -> bool:
    pos = 0
    for t in texts:
        hit = next((j for j in range(pos, len(log)) if t in log[j]), None)
        if hit is None:
            return False
        pos = hit + 1
    return True
