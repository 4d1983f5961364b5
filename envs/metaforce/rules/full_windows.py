"""FULL decision windows inside an attack (spec §6.1, §6.4; §12.3): W-R2 Dodge before the roll,
W-I3 Crash Out after a failed roll, W-I4 Finishing Touch after damage. Each is a ``Ctx.ask`` of
the deciding combatant whose last option is ``pass``; CORE opens none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from .checks import check_roll, dice_of, meta_die_for, net_steps, roll_rank
from .combatant import Combatant
from .events import MetaDieRolled, MPowerUsed, ReactionsChanged, SaveFailedOutright, SaveRolled

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["dodge", "crash_out", "finishing_touch", "crit_choice", "defender_meta_die"]


def dodge(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant,
          t: Combatant, any_side: bool = False) -> int:
    """W-R2, the pre-roll window (spec §5.3.7, R-13): the target of an attack may spend a
    Reaction on its Dodge Metaphor for +rank Evasion against it, or on casting its Ward on
    itself (RULING: as a Reaction, Ward is cast on its caster; the attack then meets its -2).
    Returns the Evasion it adds (0: no Dodge). ``any_side``: an ally may dodge too (an area
    spell that covers it)."""
    if not enc.options.full or (t.side == a.side and not any_side) or t is a \
            or t.grappled == "intense":  # R-37: a Restrained target's only activity is Escape
        return 0
    bonus = t.profile.dodge_bonus
    uses = [Action(t.id, "dodge")] if bonus > 0 else []
    uses += ward_reaction(enc, t)
    if not uses:
        return 0
    info = {"attacker": a.id, "bonus": bonus}
    if not t.can_react():
        from .full_meta import buy_reaction, can_buy_reaction
        if not can_buy_reaction(enc, t):
            return 0
        buy = Action(t.id, "react4")  # spec §6.4: React-4 at any time, here to react with
        if ctx.ask(t.id, "dodge", [buy, Action(t.id, "pass")], info) != buy:
            return 0
        buy_reaction(ev, t)
    pick = ctx.ask(t.id, "dodge", [*uses, Action(t.id, "pass")], info)
    if pick.kind == "pass":
        return 0
    t.reactions -= 1
    ev.append(ReactionsChanged(t.id, t.reactions))
    if pick.kind == "cast":
        from .full_focus import cast_support
        cast_support(enc, ctx, ev, t, pick.args[0], t.id)
        return 0
    ev.append(MPowerUsed(t.id, "dodge", 0, f"+{bonus} Evasion"))
    return bonus


def ward_reaction(enc: MetaforceEncounter, t: Combatant) -> list[Action]:
    """``cast <ward> -> t`` for ``t``'s first Ward cantrip, if it fits its concentration and is
    not already on ``t`` (spec §5.3.7 pre-roll Ward reactions, §13.4; the layout's USE index)."""
    sp = next((sp for sp in t.profile.cantrips if sp.resolution == "ward"), None)
    if sp is None:
        return []
    from .full_focus import fits
    if not fits(t, sp) or any(e[0] == sp.id and e[3] == t.id for e in t.effects):
        return []
    return [Action(t.id, "cast", (sp.id,), t.id)]


def crash_out(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant, t: Combatant,
              kept: int) -> None:
    """W-I3 (spec §6.4, R-45): after an attack on ``t`` missed on a natural 1-11, ``t`` may pay
    the natural d12 in MP (free on a 1) to make ``a`` save (Reflex, AGI) against
    ``12 + 2 x Level``: a success still Stuns 1, a failure Stuns 2; after a natural 1 the save
    fails without a roll (the seed's Crash Out page)."""
    cost = 0 if kept == 1 else min(kept, 11)
    if not (enc.options.full and "crash_out" in t.profile.mpowers and t.mu and t.mp >= cost
            and t.active and kept < 12 and not t.asleep):  # spec §7.5: a sleeper cannot act
        return
    use = Action(t.id, "crash_out")
    if ctx.ask(t.id, "crash_out", [use, Action(t.id, "pass")],
               {"attacker": a.id, "cost": cost}) != use:
        return
    t.mp -= cost
    ev.append(MPowerUsed(t.id, "crash_out", cost, a.id))
    tn = 12 + 2 * t.profile.level
    from .statuses import stun
    if kept == 1:  # spec §6.4, WE-31: "if the opponent had rolled a 1, it automatically fails"
        ev.append(SaveFailedOutright(a.id, "reflex", tn, "it rolled a natural 1"))
        stun(enc, ev, a, 2)
        return
    p = a.profile
    expert = "agi" in p.expertise
    mine = dice_of(ctx.dice, a)  # the saver's own d12s (its Safe-6 raises them, §6.4)
    chk = check_roll(mine, net_steps(1 if expert else 0, False, False, a.tired, a.exhausted))
    from .full_powers import fudge
    chk = fudge(enc, ctx, ev, a, t, chk, mine)  # its Fudge Nudge: any of its own rolls (§6.4)
    bonus = roll_rank(mine, a.attr("agi")) if expert else a.attr("agi")
    total = chk.kept + chk.v + chk.penalty + bonus
    ok = total >= tn
    ev.append(SaveRolled(a.id, "reflex", chk.faces, total, tn, "success" if ok else "failure"))
    stun(enc, ev, a, 1 if ok else 2)


def finishing_touch(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant,
                    t: Combatant, v: int) -> None:
    """W-I4 (spec §6.4): after ``a``'s attack damaged ``t`` and left it above 0 HP, ``a`` may pay
    MP equal to the HP left (free if this attack's crit V covers it) to set it to 0."""
    left = t.hp
    cost = 0 if v >= left else left
    if not (enc.options.full and "finishing_touch" in a.profile.mpowers and a.mu
            and left > 0 and t.active and a.mp >= cost):
        return
    use = Action(a.id, "finish", (), t.id)
    if ctx.ask(a.id, "finishing_touch", [use, Action(a.id, "pass")],
               {"target": t.id, "cost": cost}) != use:
        return
    a.mp -= cost
    ev.append(MPowerUsed(a.id, "finishing_touch", cost, t.id))
    from .damage import take_damage
    take_damage(enc, ctx, ev, t, left, a.id, "finishing_touch", left)


def crit_choice(enc: MetaforceEncounter, ctx: Ctx, a: Combatant, t: Combatant,
                status: bool, v: int, others: Sequence[str] = ()) -> tuple[str, ...] | None:
    """Option ``crit_policy: agent`` (spec §5.3.4, §12.5 CRIT_ALLOC, FULL): the attacker assigns
    a critical's V to ToHit, Damage, Magnitude (a weapon with a status) or Size (a larger
    target), or with Magic Effect to the magnitude of one of ``others`` (``crit magnitude
    <status>``, ``full_magic``); returns the pick's words (``("magnitude", "charm")``), or
    ``None`` for ``pass``, which leaves V to the default policy."""
    if not enc.options.agent_crits:
        return None
    uses = ["tohit", "damage"] + (["magnitude"] if status else []) + (
        ["size"] if t.profile.size > a.profile.size else [])
    opts = [Action(a.id, "crit", (u,)) for u in uses] + [
        Action(a.id, "crit", ("magnitude", s)) for s in others] + [Action(a.id, "pass")]
    pick = ctx.ask(a.id, "crit", opts, {"target": t.id, "v": v})
    return pick.args if pick.kind == "crit" else None


_RANK = {"miss": 0, "deflected": 1, "direct": 2}


def defender_meta_die(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant,
                      t: Combatant, tohit: int, e: int, d: int, firearm_direct: bool) -> int:
    """W-I2 (spec §6.1, §6.4, R-41, R-42): after the roll, a defending Metaforce user may Create
    a Meta-Die against an attacker who is not one, to lower its ToHit. The die is rolled only if
    it could lower the band and paid only if it did. Returns the ToHit."""
    sides = meta_die_for(t.mp) if t.mu else None
    if not enc.options.full or sides is None or a.mu or not t.active or t.asleep:
        return tohit
    from .attack import band
    now = band(tohit, e, d, firearm_direct)
    from .full_powers import meta_reach, meta_value
    if now == "miss" or band(tohit - meta_reach(enc, t, sides), e, d, firearm_direct) == now:
        return tohit
    use = Action(t.id, "meta_die")
    if ctx.ask(t.id, "meta_die", [use, Action(t.id, "pass")],
               {"attacker": a.id, "tohit": tohit, "die": sides}) != use:
        return tohit
    value, cost = meta_value(enc, ctx.dice, ev, t, sides)  # item 3 (R-29, Hype: FULL)
    from .full_powers import fudge_meta
    nudged = fudge_meta(enc, ctx, ev, t, a, value, sides,
                        lambda v: _RANK[band(tohit - v, e, d, firearm_direct)] < _RANK[now])
    if nudged != value:
        value, cost = nudged, min(nudged, t.mp)
    if _RANK[band(tohit - value, e, d, firearm_direct)] >= _RANK[now]:
        ev.append(MetaDieRolled(t.id, sides, value, 0))
        return tohit
    t.mp -= cost
    ev.append(MetaDieRolled(t.id, sides, value, cost))
    return tohit - value
