"""Shared helpers of the Metaforce engine tests: engine profiles of the catalogue's stat blocks
(spec §13) with overrides, a builder for fights at chosen squares, and a random-play driver."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from envs.core.dice import ScriptedDice, SeededDice
from envs.core.squaregrid import SquareGrid
from envs.metaforce.invariants import state_invariants
from envs.metaforce.rules import CORE, Profile, Weapon, build, profile_of, stat_blocks


def cat(bid: str, cid: str | None = None, **kw: Any) -> Profile:
    """The engine's profile of a catalogue stat block (spec §13) with field overrides."""
    return replace(profile_of(stat_blocks()[bid], cid or bid), **kw)


def block(cid: str, **kw: Any) -> Profile:
    """A Medium level-1 NPC with the Bandit's numbers (§13.1: HP 36, E 6, D 6, SD 5/4/2, mace
    +5 with Advantage, 4 + d6 blunt) and overrides."""
    return cat("bandit", cid, **kw)


def novice(cid: str = "novice", **kw: Any) -> Profile:
    """The Bandit without any Proficiency (attacks at Normal)."""
    mace = replace(cat("bandit").weapon("mace"), proficient=False, metaphor=False)
    return block(cid, **{"proficient": frozenset(), "weapons": (mace,), **kw})


def fighter(cid: str = "fighter", **kw: Any) -> Profile:
    """The Fighter of §13.1 (Protected, Metaforce user, MP 15, E 6, D 10, SD 11/6/3)."""
    return cat("fighter", cid, **kw)


def detective(cid: str = "detective", **kw: Any) -> Profile:
    """The Detective of §13.1 (revolver +8, Trigger 2, 6 rounds, 12 in reserve, 2 loaders)."""
    return cat("detective", cid, **kw)


def revolver(**kw: Any) -> Weapon:
    """The Detective's revolver with overrides (engine ``Weapon`` fields)."""
    return replace(cat("detective").weapon("revolver"), **kw)


def fight(*members: tuple[Profile, str, tuple[int, int]], dice: Any = None,
          options: Any = CORE, size: tuple[int, int] = (12, 12), aware: bool = True,
          order: list[str] | None = None) -> Any:
    """A fight of ``(profile, side, anchor)`` members; ``order`` fixes the initiative (no
    dice); ``order=None`` with ``dice`` rolls it."""
    rows = [(p.id, side, p, at, aware) for p, side, at in members]
    ids = order or ([p.id for p, _, _ in members] if dice is None else None)
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
