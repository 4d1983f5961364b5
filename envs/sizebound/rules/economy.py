"""The action economy (spec §4.4-§4.6): P/D/M/B flags, the attack pool (R-48), Any/Extra/Free
counts, Multi-Actions, and the lazy masks of Jarred, Staggered and Stunned (R-24, R-25).

The creature never chooses which actions a condition blocks: an action is legal while the
actions spent so far, plus this one, still fit the condition's allowance (spec §4.6).
"""

from __future__ import annotations

from . import rulings
from .fighter import ActionRung, FatigueRung, Fighter
from .full_conditions import body_locked, petrified

__all__ = ["can_spend", "spendable", "spend", "can_react", "spend_reaction", "extra_payment",
           "pay_extra", "can_free", "use_free", "can_pay_attack", "pay_attack", "defensive_bonus",
           "any_payments", "weapon_attacks"]

PDM = frozenset("PDM")


def _body_locked(f: Fighter) -> bool:
    """spec §4.6: Paralyzed (and up) or Disabled: no P/D/M/B, no Reactions, no Extra."""
    return f.action_rung >= ActionRung.PARALYZED or f.fatigue >= FatigueRung.DISABLED \
        or body_locked(f)  # FULL: Terrified, Petrified/Frozen


def can_spend(f: Fighter, needed: str) -> bool:
    """May ``f`` spend the actions in ``needed`` (one letter each, ``"PM"`` for Run) now?"""
    used = f.used
    for a in needed:
        if a in used:
            return False
    rung = f.action_rung
    if rung >= ActionRung.PARALYZED or f.fatigue >= FatigueRung.DISABLED or body_locked(f):
        return False  # _body_locked, with the rung read once
    if rung == ActionRung.STUNNED:  # one action in total; a Multi-Action is illegal
        return f.stun_count == 0 and len(needed) == 1
    if rung == ActionRung.STAGGERED:
        return len(set(used) | set(needed)) <= 2
    if rung == ActionRung.JARRED:
        return len((set(used) | set(needed)) & PDM) <= 2
    return True


def spendable(f: Fighter) -> str:
    """The letters of ``PDMB`` that ``can_spend(f, letter)`` allows now, one at a time (the
    rung read once for the four)."""
    used = f.used
    rung = f.action_rung
    if rung >= ActionRung.PARALYZED or f.fatigue >= FatigueRung.DISABLED or body_locked(f):
        return ""
    free = [a for a in "PDMB" if a not in used]
    if rung == ActionRung.STUNNED:
        return "".join(free) if f.stun_count == 0 else ""
    if rung == ActionRung.STAGGERED:
        return "".join(free) if len(set(used)) + 1 <= 2 else ""
    if rung == ActionRung.JARRED:
        spent = len(set(used) & PDM)
        return "".join(a for a in free if spent + (a in PDM) <= 2)
    return "".join(free)


def spend(f: Fighter, needed: str) -> None:
    f.used += needed
    f.stun_count += 1


def can_react(f: Fighter) -> bool:
    """spec §6.2, R-76: a reaction needs one in the pool, a body that can move, and (Stunned)
    the single action still unused."""
    if not f.alive or f.reactions <= 0 or _body_locked(f):
        return False
    return not (f.action_rung == ActionRung.STUNNED and f.stun_count > 0)


def spend_reaction(f: Fighter) -> None:
    f.reactions -= 1
    f.stun_count += 1


def can_free(f: Fighter, body: bool = True) -> bool:
    """A Free action (spec §4.4): none while Unconscious; a Disabled creature gets one Extra or
    Free action a turn; Paralyzed allows only those that need no body movement."""
    rung = f.action_rung  # read once: Unconscious is its top rung
    if rung >= ActionRung.UNCONSCIOUS or petrified(f):
        return False
    if f.fatigue >= FatigueRung.DISABLED:
        return f.minor_used == 0
    return not (body and (rung >= ActionRung.PARALYZED or body_locked(f)))


def use_free(f: Fighter) -> None:
    f.minor_used += 1


def any_payments(f: Fighter, count: int) -> list[str] | None:
    """The letters that would pay ``count`` Any costs (RULING R-62, ``ANY_PAYMENT_ORDER``), or
    ``None`` if they cannot all be paid now."""
    if count <= 0:
        return []
    out: list[str] = []
    for a in rulings.ANY_PAYMENT_ORDER:
        if len(out) == count:
            break
        if a == "M" and f.mode != "none":
            continue
        if a == "P" and f.pool_open:
            continue
        if _can_add(f, out, a):
            out.append(a)
    return out if len(out) == count else None


def _can_add(f: Fighter, out: list[str], a: str) -> bool:
    saved, count = f.used, f.stun_count
    f.used, f.stun_count = saved + "".join(out), count + len(out)
    try:
        return can_spend(f, a)
    finally:
        f.used, f.stun_count = saved, count


def extra_payment(f: Fighter, name: str, uses: int = 1) -> list[str] | None:
    """What ``uses`` uses of the Extra action ``name`` cost now: the first use each turn is Free
    (RULING R-62), each further one an Any; ``None`` if not payable."""
    if f.action_rung >= ActionRung.PARALYZED or body_locked(f):  # spec §4.6: no Extra
        return None
    if f.fatigue >= FatigueRung.DISABLED:  # one Extra or Free action, no Any to pay
        return [] if uses == 1 and f.minor_used == 0 else None
    free = 0 if name in f.extra_used else 1
    return any_payments(f, uses - free)


def pay_extra(f: Fighter, name: str, uses: int = 1) -> None:
    letters = extra_payment(f, name, uses)
    assert letters is not None, f"{f.id}: {name} x{uses} is not payable"
    if name not in f.extra_used:
        f.extra_used.append(name)
    f.minor_used += 1
    for a in letters:
        spend(f, a)


def can_pay_attack(f: Fighter, weapon: str | None = None) -> bool:
    """One general attack, or (``weapon``) one of that weapon's attacks or a general one
    (spec §4.5, R-48); the first use opens the pool and spends P."""
    if f.pool_open:
        return f.pool_general > 0 or (weapon is not None and f.pool_weapon.get(weapon, 0) > 0)
    if not can_spend(f, "P"):
        return False
    if f.profile.attacks - f.attack_debt > 0:  # borrowed attacks are gone
        return True
    return weapon is not None and weapon_attacks(f).get(weapon, 0) > 0


def weapon_attacks(f: Fighter) -> dict[str, int]:
    """Each wielded or natural weapon's own attacks in a pool opened now (spec §4.5, §2.3)."""
    p = f.profile
    out: dict[str, int] = {}
    for w in (*f.wielded.values(), *p.natural):  # spec §4.5, §2.3: each wielded weapon counts,
        out[w] = out.get(w, 0) + p.weapon(w).weapon_attacks  # two daggers give 2 dagger attacks
    return {w: n for w, n in out.items() if n > 0}


def pay_attack(f: Fighter, weapon: str | None = None) -> None:
    """Pay one attack: a weapon attack of ``weapon`` while any remain, else a general one."""
    if not f.pool_open:
        spend(f, "P")
        f.pool_open = True
        f.pool_general = max(0, f.profile.attacks - f.attack_debt)
        f.pool_weapon = weapon_attacks(f)
    if weapon is not None and f.pool_weapon.get(weapon, 0) > 0:
        f.pool_weapon[weapon] -= 1
    else:
        assert f.pool_general > 0, f"{f.id}: no general attack left"
        f.pool_general -= 1


def defensive_bonus(f: Fighter) -> bool:
    """spec §4.6-§4.7, R-24: does an unspent Defensive action earn +1 Reaction? Blocks go on
    unused actions other than D first (Jarred: M, P; Staggered: M, B, P)."""
    if "D" in f.used or _body_locked(f):  # spec §4.7 step 2: D blocked (Paralyzed and up,
        return False  # Disabled, Terrified, Petrified; Unconscious: nothing) earns nothing
    rung = f.action_rung
    if rung == ActionRung.JARRED:
        return sum(a not in f.used for a in "MP") >= 1
    if rung == ActionRung.STAGGERED:
        return sum(a not in f.used for a in "MBP") >= 2
    return True  # spec §4.6: under Stunned, D counts as spent only if the single action was D
