"""Shared helpers of the Metaforce engine tests: small inline stat blocks in the spec §13.5 loader
format, a builder for fights at chosen squares, and a random-play driver.

Stat blocks are inline test fixtures (any GM may define combatants inline), so the forced-dice
tests do not depend on the catalogue's numbers.
"""

from __future__ import annotations

from typing import Any

from envs.core.dice import ScriptedDice, SeededDice
from envs.core.squaregrid import SquareGrid
from envs.metaforce.invariants import state_invariants
from envs.metaforce.rules import CORE, build, profile_of

WARHAMMER = {"id": "warhammer", "type": "melee", "hands": 2, "attr": "str", "tohit": 8,
             "damage_base": 8, "bonus_die": 6, "damage_type": "blunt", "reach_ft": 5,
             "special_status": "knockback", "magnitude_bonus": 6}


def block(cid: str, **kw: Any) -> dict[str, Any]:
    """A Medium level-1 combatant (defaults: the Bandit's numbers, §13.1) with overrides."""
    b: dict[str, Any] = {
        "id": cid, "level": 1, "size": 1, "protected": False, "metaforce_user": False,
        "attributes": {"str": 2, "end": 2, "agi": 1, "per": 1, "int": 0, "cha": 0},
        "proficient": ["str", "end"], "expertise": [],
        "cores": {"body": 4, "reflex": 3, "mind": 1}, "hp_max": 36, "mp_max": 0,
        "evasion": 6, "deflection": 6, "status_defence": {"body": 5, "reflex": 4, "mind": 2},
        "exert_threshold": 2, "speed_ft": 15, "space_squares": 1, "reach_ft": 5,
        "initiative_bonus": 3, "armour": {"deflection_bonus": 0, "resistance": {}},
        "metaphors": [{"name": "Thuggery", "rank": 3, "kind": "combat", "covers": ["mace"]}],
        "saves": ["body"],
        "weapons": [{"id": "mace", "type": "melee", "hands": 1, "attr": "str", "tohit": 5,
                     "damage_base": 4, "bonus_die": 6, "damage_type": "blunt", "reach_ft": 5,
                     "special_status": "knockback", "magnitude_bonus": 3}],
    }
    b.update(kw)
    return b


def fighter(cid: str = "fighter", **kw: Any) -> dict[str, Any]:
    """The Fighter of §13.1 (Protected, Metaforce user, MP 15, E 6, D 10, SD 11/6/3)."""
    base = block(
        cid, protected=True, metaforce_user=True,
        attributes={"str": 4, "end": 2, "agi": 2, "per": 1, "int": 0, "cha": 1},
        proficient=["str", "end", "agi", "per"], cores={"body": 7, "reflex": 5, "mind": 2},
        hp_max=54, mp_max=15, evasion=6, deflection=10,
        status_defence={"body": 11, "reflex": 6, "mind": 3}, exert_threshold=3,
        initiative_bonus=5, armour={"deflection_bonus": 3, "resistance": {}},
        metaphors=[{"name": "Heavy Weapons", "rank": 4, "kind": "combat",
                    "covers": ["warhammer"]}],
        saves=["body", "reflex"], weapons=[WARHAMMER])
    base.update(kw)
    return base


def revolver(**kw: Any) -> dict[str, Any]:
    w = {"id": "revolver", "type": "firearm", "hands": 1, "attr": "per", "tohit": 8,
         "damage_base": 12, "bonus_die": 6, "damage_type": "piercing",
         "range_increment_ft": 60, "trigger_limit": 2, "auto": False, "capacity": 6,
         "chamber_plus_one": False, "reload_mode": {"per_frame": 3}, "speedloaders": 2,
         "reserve_rounds": 12, "special_status": "bleed", "magnitude_bonus": 4}
    w.update(kw)
    return w


def detective(cid: str = "detective", **kw: Any) -> dict[str, Any]:
    base = block(
        cid, protected=True, metaforce_user=True,
        attributes={"str": 0, "end": 1, "agi": 2, "per": 4, "int": 2, "cha": 1},
        proficient=["agi", "per", "int", "cha"], cores={"body": 2, "reflex": 7, "mind": 5},
        hp_max=24, mp_max=15, evasion=7, deflection=7,
        status_defence={"body": 3, "reflex": 8, "mind": 6}, exert_threshold=3,
        initiative_bonus=7, armour={"deflection_bonus": 2, "resistance": {}},
        metaphors=[{"name": "Firearms", "rank": 4, "kind": "combat", "covers": ["revolver"],
                    "grants_firearm_proficiency": True}],
        saves=["reflex", "mind"], weapons=[revolver()])
    base.update(kw)
    return base


def fight(*members: tuple[dict[str, Any], str, tuple[int, int]], dice: Any = None,
          options: Any = CORE, size: tuple[int, int] = (12, 12), aware: bool = True,
          order: list[str] | None = None) -> Any:
    """A fight of ``(block, side, anchor)`` members; ``order`` fixes the initiative (no dice)."""
    rows = [(b["id"], side, profile_of(b), at, aware) for b, side, at in members]
    ids = order or [b["id"] for b, _, _ in members]
    return build(rows, SquareGrid(*size), options, "test", dice or ScriptedDice([]), ids)


def act(enc: Any, label: str, dice: list[Any]) -> list[Any]:
    """Apply ``label`` with exactly the forced ``dice`` (all must be used)."""
    d = ScriptedDice(dice)
    ev = enc.apply(enc.parse_action(label), d)
    d.check_exhausted()
    state_invariants(enc)
    return ev


def texts(ev: list[Any]) -> list[str]:
    return [str(e) for e in ev]


def labels(enc: Any) -> list[str]:
    return [a.label for a in enc.legal_actions()]


def play_random(enc: Any, seed: int, limit: int = 5000) -> int:
    """Play uniformly random legal actions to the end, checking the invariants after every
    apply; returns the number of decisions."""
    import random
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state_invariants(enc)
    for n in range(limit):
        if enc.is_over():
            return n
        acts = enc.legal_actions()
        enc.apply(acts[rng.randrange(len(acts))], dice)
        state_invariants(enc)
    raise AssertionError(f"no end after {limit} decisions (round {enc.round})")


def test_the_kit_builds_a_fight_at_the_first_decision():
    enc = fight((fighter(), "a", (0, 0)), (block("bandit"), "b", (0, 5)))
    assert enc.current_actor() == "fighter" and enc.decision == "frame"
    assert "fighter: end_turn" in labels(enc)
