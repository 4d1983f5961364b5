"""FULL reactions (spec §6.4.5 Quick Draw, R-57; §6.4.6 Dispel, R-58; §6.6).

Hooks: ``attack.attack`` offers ``quick_draw`` in R-DECLARE (``declare_options``) and calls
``quick_draw``; ``resolve._cast`` calls ``dispel`` before a single-target Magical Skill pays
its Mana; ``turns`` calls ``start_turn`` / ``end_turn`` for the borrowed resources.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from .economy import can_react, spend_reaction
from .fighter import Fighter
from .procedures import contest
from .profile import WeaponProfile
from .space import cells, dist

if TYPE_CHECKING:
    from .state import SizeboundEncounter

__all__ = ["is_full", "declare_options", "quick_draw", "dispel", "start_turn", "end_turn",
           "QuickDrawn", "Dispelled", "QUICK_STRIKE_MARGIN", "QUICK_PRIMARY_MARGIN",
           "DISPEL_NO_PAY_MARGIN", "DISPEL_PAY"]

QUICK_STRIKE_MARGIN = 4  # spec §6.4.5: win by 4 or more borrows one general attack
QUICK_PRIMARY_MARGIN = 8  # win by 8 or more borrows the whole Primary action
DISPEL_NO_PAY_MARGIN = 5  # spec §6.4.6: win by 5 or more, the caster may not pay
DISPEL_PAY = 8  # the Mana the caster pays to keep the skill


@dataclass(frozen=True, slots=True)
class QuickDrawn(Event):
    actor: str
    attacker: str
    margin: int
    borrowed: str  # nothing | attack | primary

    def __str__(self) -> str:
        what = {"nothing": "nothing to borrow", "attack": "may borrow 1 attack",
                "primary": "may borrow the Primary action"}[self.borrowed]
        return f"{self.actor} quick-draws against {self.attacker} (by {self.margin}): {what}"


@dataclass(frozen=True, slots=True)
class Dispelled(Event):
    actor: str
    caster: str
    skill: str
    outcome: str  # resisted | paid | fizzled

    def __str__(self) -> str:
        words = {"resisted": "fails to dispel", "paid": "is paid through the dispel of",
                 "fizzled": "fizzles under the dispel of"}[self.outcome]
        if self.outcome == "resisted":
            return f"{self.actor} {words} {self.caster}'s {self.skill}"
        return f"{self.caster}'s {self.skill} {words} {self.actor}"


def is_full(enc: SizeboundEncounter) -> bool:
    return enc.options.version == "full"


def declare_options(enc: SizeboundEncounter, t: Fighter, prone_ok: bool) -> list[Action]:
    """R-DECLARE (spec §6.3): drop prone (CORE), Quick Draw (FULL), pass."""
    out = [Action(t.id, "drop_prone")] if prone_ok else []
    if is_full(enc):
        out.append(Action(t.id, "quick_draw"))
    return out + [Action(t.id, "pass")]


DEBT_NEXT = "debt:next"
"""fx: general attacks a Quick Draw borrowed during the creature's own turn, owed by its next
turn's pool (R-57: "from your next turn"); moved into ``attack_debt`` as that turn starts"""


def _strike_weapons(enc: SizeboundEncounter, t: Fighter, a: Fighter) -> list[WeaponProfile]:
    """The weapons ``t`` can strike ``a`` with now (spec §6.4.5 "strike now with 1 general
    attack": any attack, melee within reach or a shot or throw in range and sight,
    ``legal.strike_mode``): its main and off weapons in that order, else its parry weapon
    (unarmed) within reach."""
    from .attack import parry_weapon
    from .legal import strike_mode, weapon_in
    out: list[WeaponProfile] = []
    for slot in ("main", "off"):
        wid = weapon_in(t, slot)
        if wid is not None:
            w = t.profile.weapon(wid)
            if w not in out and strike_mode(enc, t, a, w) is not None:
                out.append(w)
    if not out:
        w = parry_weapon(t)
        if w.reach is not None and dist(t, a) <= w.reach:
            out.append(w)
    return out


def _owe(enc: SizeboundEncounter, t: Fighter, n: int) -> None:
    """R-57: ``n`` general attacks (negative: given back) owed by ``t``'s next turn's pool; on
    its own turn that is the turn after this one (``DEBT_NEXT``)."""
    if enc.active_side == t.side:
        t.fx[DEBT_NEXT] = t.fx.get(DEBT_NEXT, 0) + n
    else:
        t.attack_debt += n


def quick_draw(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], t: Fighter,
               a: Fighter) -> None:
    """spec §6.4.5, R-57: Nimble against Nimble; by 4+ one general attack borrowed from the
    next turn (``attack_debt``), by 8+ the whole Primary (P starts spent next turn), each
    strike resolved now, before the incoming attack. The reaction does not count against the
    one-per-attack limit (spec §6.2): the caller leaves ``t`` out of ``reacted``."""
    from .attack import Strike, attack
    spend_reaction(t)
    won, margin = contest(enc, ctx, ev, "quick_draw", t, a, t.nimble, a.nimble,
                          i_athletics=False)
    if not won:
        return
    borrowed = "primary" if margin >= QUICK_PRIMARY_MARGIN else \
        "attack" if margin >= QUICK_STRIKE_MARGIN else "nothing"
    ev.append(QuickDrawn(t.id, a.id, margin, borrowed))
    _quick_item(enc, ctx, ev, t, a, margin)
    if borrowed == "nothing":
        return
    # by 4+: one general attack; by 8+ the first strike is still that one attack, and a second
    # borrows the whole Primary instead: its pool's general attacks and each weapon's own
    from .economy import weapon_attacks
    general = max(1, t.profile.attacks) if borrowed == "primary" else 1
    own = weapon_attacks(t) if borrowed == "primary" else {}
    struck = 0
    while t.alive and a.alive and t.action_rung < 4:
        ws = _strike_weapons(enc, t, a)
        pick = (ws[0], None) if general > 0 and ws else next(
            ((w, w.id) for w in ws if own.get(w.id, 0) > 0), None)
        if pick is None:
            return
        c = ctx.ask(t.id, "quick_strike", [Action(t.id, "quick_strike", target=a.id),
                                           Action(t.id, "pass")],
                    {"attacker": a.id, "margin": margin, "borrowed": borrowed,
                     "strike": struck + 1})
        if c.kind != "quick_strike":
            return
        if struck == 0:
            _owe(enc, t, 1)  # one general attack borrowed
        elif struck == 1:
            _owe(enc, t, -1)  # ... becomes the whole Primary (R-57: P spent next turn)
            t.primary_debt = True
        w, wid = pick
        if wid is None:
            general -= 1
        else:
            own[wid] -= 1
        struck += 1
        attack(enc, ctx, ev, t, a, Strike(w, False, w.id))


def _quick_item(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], t: Fighter, a: Fighter,
                margin: int) -> None:
    """spec §6.4.5 Win: one Manipulate Item use as a Free action (window ``quick_item``): a
    one-item ``swap``, ``free_hand`` or ``pick_up``; it costs nothing and leaves the turn's
    free Extra use alone."""
    from .legal import held_item, loadout_change
    from .resolve import _items
    if not t.alive or t.action_rung >= 4:
        return
    stow, draw = loadout_change(t)
    opts = [Action(t.id, "swap")] if len(stow) + len(draw) == 1 else []
    if held_item(t) is not None:
        opts.append(Action(t.id, "free_hand"))
    seen: set[str] = set()
    for wid, x, y in enc.items:
        if wid not in seen and t.free_hands >= (enc.weapon(wid).hands or 1) \
                and min(max(abs(cx - x), abs(cy - y)) for cx, cy in cells(t)) <= 1:
            seen.add(wid)
            opts.append(Action(t.id, "pick_up", (wid,)))
    if not opts:
        return
    c = ctx.ask(t.id, "quick_item", opts + [Action(t.id, "pass")],
                {"attacker": a.id, "margin": margin})
    if c.kind != "pass":
        _items(enc, ev, t, c, free=True)


def start_turn(f: Fighter) -> None:
    """R-57: a borrowed Primary leaves P spent on the next turn; attacks borrowed during the
    last turn become this turn's debt."""
    if f.primary_debt:
        f.used += "P"
        f.primary_debt = False
    f.attack_debt += f.fx.pop(DEBT_NEXT, 0)


def end_turn(f: Fighter) -> None:
    """R-57: the attack debt reduced this turn's pool (``economy.pay_attack``); it is paid
    (what this turn's own Quick Draws borrowed waits in ``DEBT_NEXT``)."""
    f.attack_debt = 0


def dispel(enc: SizeboundEncounter, ctx: Ctx, ev: list[Event], caster: Fighter, sid: str,
           t: Fighter, reacted: set[str] | None = None) -> bool:
    """spec §6.4.6, R-58, FULL: before a single-target Magical Skill resolves, ``t`` and then
    every creature adjacent to it (id order, not the caster) may Dispel: Arcana against the
    caster's Arcana. A win lets the caster pay 8 more Mana (``pay``, overdraw rules apply) or
    let it fizzle; a win by 5+ fizzles it. Returns whether the skill still resolves (its own
    Mana is paid by the caller after this, so a fizzle costs no Mana: the refund). Each
    dispeller joins ``reacted`` (spec §6.2, R-11: one reaction per creature per skill
    activation; the attack that follows is the same one)."""
    if not is_full(enc):
        return True
    cands = [t] + sorted((g for g in enc.fighters if g is not t and g is not caster and g.alive
                          and dist(g, t) <= 1), key=lambda g: g.id)
    for d in cands:
        if d is caster or not can_react(d):
            continue
        c = ctx.ask(d.id, "dispel", [Action(d.id, "dispel"), Action(d.id, "pass")],
                    {"caster": caster.id, "skill": sid, "target": t.id})
        if c.kind != "dispel":
            continue
        spend_reaction(d)
        if reacted is not None:
            reacted.add(d.id)
        won, margin = contest(enc, ctx, ev, "dispel", d, caster, d.arcana, caster.arcana,
                              i_athletics=False)
        if not won:  # spec §6.2: another creature may still Dispel the same activation
            ev.append(Dispelled(d.id, caster.id, sid, "resisted"))
            continue
        if margin < DISPEL_NO_PAY_MARGIN and caster.alive:
            p = ctx.ask(caster.id, "pay", [Action(caster.id, "pay"), Action(caster.id, "pass")],
                        {"dispeller": d.id, "skill": sid, "mana": DISPEL_PAY})
            if p.kind == "pay":
                from .resolve import _pay_mana
                _pay_mana(enc, ev, caster, "dispel", DISPEL_PAY)
                ev.append(Dispelled(d.id, caster.id, sid, "paid"))
                if not caster.alive:
                    return False
                continue  # spec §6.2: the next creature may Dispel it again
        ev.append(Dispelled(d.id, caster.id, sid, "fizzled"))
        return False
    return True

