"""FULL skills with Line and Cone areas (spec §8.7, R-42) and the fire they may put out (spec
§8.3 Water, WE-34): ``cast <skill> <dir>``, listed by ``full_actions`` under the FULL options
for every skill of the stat block whose ``area.shape`` is ``line`` or ``cone``.

The DEFAULT pack (spec §5.3) has no Line or Cone skill, so such a skill comes from a
situation's own ``skills:`` section (the catalogue's skill schema; ``situation_catalogue``) and
an inline stat block that lists it. RULINGS:

* Cost: the skill's ``cost`` (general attacks and/or P/D/M/B; P needs the attack pool closed,
  as Arcane Burst's does), its Mana (overdraw as spec §9.1), no free hands; a magical one is
  masked while Silenced or suffocating from round 2 (spec §5.3).
* The area leaves the caster's block in the chosen direction (``full_geometry.line_cells`` L x
  W, W = ``area.width``, default 1; ``cone_cells`` size L, L = ``area.size``), walls cut it
  (LoS from the origin); there is no Hit roll: every creature in it gets its own Dodge window,
  one damage roll (``dice + stat``) serves them all, a creature with 3+ cells inside takes it
  doubled (D8), as any area does.
* Fire (spec §7.2 Ignited, §8.3): the map's ``fire`` cells are fire spaces. A skill dealing
  Water damage puts out 1 fire space of its area per 10 points of its roll (dice + stat, before
  any creature's defences; WE-34), the ones nearest the origin first (ties: lowest y, then
  lowest x). Paper (WE-34's pages) is not modelled: no item of the catalogue carries writing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx
from envs.core.squaregrid import Cell

from . import rulings
from .conventions import fires_put_out
from .economy import can_pay_attack, can_spend, pay_attack, spend
from .fighter import Fighter
from .full_conditions import no_magic
from .full_geometry import _start, area_hits, cone_cells, line_cells
from .labels import act

if TYPE_CHECKING:
    from .profile import SkillProfile
    from .state import SizeboundEncounter

__all__ = ["DIRECTED", "area_skill_actions", "resolve_area_skill", "skill_area",
           "situation_catalogue", "put_out", "FireOut"]

DIRECTED = ("line", "cone")


@dataclass(frozen=True, slots=True)
class FireOut(Event):
    x: int
    y: int

    def __str__(self) -> str:
        return f"the fire at ({self.x}, {self.y}) goes out"


def _can_pay(f: Fighter, s: SkillProfile) -> bool:
    n = s.cost_attacks
    if n:
        if not can_pay_attack(f):
            return False
        if n > (f.pool_general if f.pool_open else f.profile.attacks):
            return False
    letters = s.cost_actions
    if "P" in letters and (f.pool_open or n):
        return False  # spec §5.3 (Arcane Burst): P with the attack pool closed
    return not letters or can_spend(f, letters)


def _pay(f: Fighter, s: SkillProfile) -> None:
    for _ in range(s.cost_attacks):
        pay_attack(f)
    if s.cost_actions:
        spend(f, s.cost_actions)
        if len(s.cost_actions) > 1:
            f.stun_count += 1  # a Multi-Action counts as 2 actions


def area_skill_actions(enc: SizeboundEncounter, f: Fighter) -> list[Action]:
    """``cast <skill> <dir>`` for the Line and Cone skills ``f`` can pay for now."""
    if not enc.options.skills or f.unconscious:
        return []
    out = []
    for s in f.profile.skills:
        if s.shape not in DIRECTED or (s.magical and no_magic(f)) or not _can_pay(f, s):
            continue
        if s.min_size_index and f.profile.size_index < s.min_size_index:
            continue
        out += [act(f.id, "cast", (s.id, d)) for d in rulings.DIRECTIONS]
    return out


def skill_area(enc: SizeboundEncounter, f: Fighter, s: SkillProfile, d: int) -> set[Cell]:
    """The cells of ``s`` cast by ``f`` in direction ``d`` (spec §8.7)."""
    if s.shape == "line":
        return line_cells(enc.grid, f.pos, f.n, d, s.size, s.width)
    return cone_cells(enc.grid, f.pos, f.n, d, s.size)


def resolve_area_skill(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter,
                       a: Action) -> None:
    from .attack import area_attack
    from .resolve import _pay_mana
    s = f.profile.skill(a.args[0])
    assert s is not None
    d = rulings.DIRECTIONS.index(a.args[1])
    _pay(f, s)
    _pay_mana(enc, ev, f, s.id, s.mana)
    if not f.alive:  # spec §3.1 "then", WE-32: killed by the overdraw, nothing goes off
        return
    area = skill_area(enc, f, s, d)
    hit, doubled = area_hits(enc, area)
    faces: list[int] = []
    area_attack(enc, ctx, ev, f, hit, doubled, s.dice_n, s.dice_sides, f.mod(s.stat),
                s.dtypes, faces_out=faces)
    if "Water" in s.dtypes:
        total = (sum(faces) if faces else s.dice_n * s.dice_sides // 2) + f.mod(s.stat)
        put_out(enc, ev, area, _start(f.pos, f.n, d), total)


def put_out(enc: SizeboundEncounter, ev: list[Event], area: set[Cell], origin: Cell,
            water: int) -> None:
    """WE-34: 1 fire space of ``area`` per 10 Water points, nearest ``origin`` first."""
    fires = sorted((c for c in area if enc.terrain.get(c) == "fire"),
                   key=lambda c: (max(abs(c[0] - origin[0]), abs(c[1] - origin[1])), c[1], c[0]))
    for c in fires[:fires_put_out(water)]:
        del enc.terrain[c]
        ev.append(FireOut(c[0], c[1]))


def situation_catalogue(e: Any, cat: Any) -> Any:
    """The catalogue with a situation's own ``skills:`` (FULL content a situation defines, in
    the catalogue's skill schema); ``cat`` itself when there are none. ``e``: the situation's
    ``Entry``."""
    from .catalogue import parse_skill
    if not e.has("skills"):
        return cat
    raw = e.sub("skills")
    extra = {}
    for sid in list(raw.data):
        if str(sid) in cat.skills:
            raw.fail(str(sid), "a skill of the catalogue; a situation's skill needs a new id")
        extra[str(sid)] = parse_skill(str(sid), raw.data[sid], e.source)
    return replace(cat, skills={**cat.skills, **extra})
