"""The rest of the DEFAULT skill pack under FULL (spec §5.3, §9.4, R-50, R-74): Arcane Aura with
Concentration. (Mend, Stomp and Roar resolve in ``resolve._cast``; Roar's fear needs the
``fear`` option.)

Arcane Aura (``cast arcane_aura``, no target): D and 2 Mana on activation; while it is active
the same label pays the upkeep (D and 2 Mana again, spec §9.4 "including its Mana cost") once a
turn. At the end of each of the caster's turns with the upkeep paid (its ``end_turn``), every
other creature within 1 space takes ``1d6`` Arcane, Dodge and Block allowed (spec §8.7); a turn
that ends unpaid ends the Concentration. It lasts 10 rounds at most (spec §4.8, §9.4).

The damage check (spec §9.4, R-74): at the start of the concentrator's turn, if it lost HP since
the start of its previous turn, ``d20 + Arcana`` (the aura is magical; ``+ Athletics`` for
another skill) with the E-D20 window; a total strictly below the damage ends it. The engine
makes the roll before the concentrator's first action of that turn (its turn-start processing
has no dice), which changes nothing it could decide: paying the upkeep after a lost check costs
exactly what activating again costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event

from . import rulings
from .economy import can_spend, spend
from .events import ConditionChanged
from .full_conditions import no_magic, start_concentrating
from .labels import act
from .space import cells_within, dist

if TYPE_CHECKING:
    from envs.core.flow import Ctx

    from .fighter import Fighter
    from .profile import SkillProfile
    from .state import SizeboundEncounter

__all__ = ["AURA", "CONCENTRATION_ROUNDS", "ConcentrationCheck", "aura_actions", "cast_aura",
           "concentrating_on", "record_damage", "turn_check", "after_action", "turn_end",
           "aura_due", "end_concentration"]

AURA = rulings.AURA
CONCENTRATION_ROUNDS = 10  # spec §4.8, §9.4: 1 minute = 10 rounds
DAMAGE = "conc_dmg"  # fx: HP lost while concentrating since the last check
PAID, DONE, CHECKED = "turn:conc_paid", "turn:aura_done", "turn:conc_checked"


@dataclass(frozen=True, slots=True)
class ConcentrationCheck(Event):
    actor: str
    total: int
    damage: int
    kept: bool

    def __str__(self) -> str:
        how = "keeps" if self.kept else "loses"
        return f"{self.actor} {how} concentration ({self.total} vs {self.damage} damage)"


def concentrating_on(f: Fighter) -> str | None:
    """The skill ``f`` concentrates on (spec §9.4: one at a time), or ``None``."""
    for c in f.conds.instances("concentrating"):
        return c.source
    return None


def end_concentration(ev: list[Event], f: Fighter) -> None:
    if "concentrating" in f.conds:
        f.conds.remove("concentrating")
        ev.append(ConditionChanged(f.id, "concentrating", False))
    f.fx.pop(DAMAGE, None)


def aura_actions(enc: SizeboundEncounter, f: Fighter,
                 skills: dict[str, SkillProfile]) -> list[Action]:
    """FULL: ``cast arcane_aura`` to start the aura, or to pay this turn's upkeep."""
    s = skills.get(AURA)
    if s is None or enc.options.version != "full" or f.fx.get(PAID) or not can_spend(f, "D") \
            or (s.magical and no_magic(f)):
        return []
    on = concentrating_on(f)
    if on not in (None, AURA):
        return []  # spec §9.4: only one Concentration skill at a time
    if on is None and ("panicked" in f.conds or "terrified" in f.conds):
        return []  # spec §7.2: Panicked and Terrified creatures cannot Concentrate
    return [act(f.id, "cast", (AURA,))]


def cast_aura(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter,
              s: SkillProfile) -> None:
    """Activation or upkeep: D and the Mana (overdraw as spec §9.1)."""
    from .resolve import _pay_mana
    spend(f, "D")
    _pay_mana(enc, ev, f, AURA, s.mana)
    if not f.alive:
        return
    if concentrating_on(f) is None:
        start_concentrating(enc, ev, f, AURA, rounds=CONCENTRATION_ROUNDS)
        f.fx[DAMAGE], f.fx[CHECKED] = 0, 1  # no check before its next turn
    f.fx[PAID] = 1


def record_damage(t: Fighter, amount: int) -> None:
    """spec §8.2 D14: HP lost (after Guard) is recorded for the Concentration check."""
    if amount > 0 and "concentrating" in t.conds:
        t.fx[DAMAGE] = t.fx.get(DAMAGE, 0) + amount


def turn_check(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter) -> None:
    """spec §9.4, R-74: once a turn, before the concentrator's first own-turn action."""
    from .procedures import athletics_bonus, exert_d20, roll
    skill = concentrating_on(f)
    if skill is None or f.fx.get(CHECKED) or f.side != enc.active_side:
        return
    f.fx[CHECKED] = 1
    taken = f.fx.get(DAMAGE, 0)
    if taken <= 0:
        return
    f.fx[DAMAGE] = 0
    s = f.profile.skill(skill)
    bonus = f.arcana if s is None or s.magical else athletics_bonus(f)
    _, total = roll(ctx, ev, f, "concentration", bonus)
    total = exert_d20(enc, ctx, ev, f, "concentration", total, lambda x: x < taken)
    kept = total >= taken  # a tie keeps it
    ev.append(ConcentrationCheck(f.id, total, taken, kept))
    if not kept:
        end_concentration(ev, f)


def aura_due(f: Fighter) -> bool:
    """The aura's damage is still to come this turn (so its ``end_turn`` is a decision)."""
    return bool(f.fx.get(PAID)) and not f.fx.get(DONE) and concentrating_on(f) == AURA


def after_action(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], f: Fighter,
                 ended: bool) -> None:
    """At the caster's ``end_turn``: the aura's damage if the upkeep is paid, else it ends."""
    if not ended or enc.options.version != "full" or not f.alive:
        return
    turn_check(enc, ctx, ev, f)
    if concentrating_on(f) != AURA:
        return
    if not f.fx.get(PAID):
        end_concentration(ev, f)
        return
    f.fx[DONE] = 1
    s = f.profile.skill(AURA)
    if s is None:
        return
    from .attack import area_attack
    hit = [g for g in enc.fighters if g.alive and g is not f and dist(f, g) <= s.size]
    if hit:  # spec §8.7 D8: 3+ cells inside the aura double its damage
        doubled = {g.id for g in hit if cells_within(f, g, s.size) >= 3}
        area_attack(enc, ctx, ev, f, hit, doubled, s.dice_n, s.dice_sides, f.mod(s.stat),
                    s.dtypes)


def turn_end(enc: SizeboundEncounter, ev: list[Event], side: str) -> None:
    """spec §9.4: a Concentration not paid this turn ends (members passed without ``end_turn``
    included)."""
    if enc.options.version != "full":
        return
    for f in enc.fighters:
        if f.side == side and f.alive and concentrating_on(f) is not None \
                and not f.fx.get(PAID):
            end_concentration(ev, f)
