"""Levelled area spells, Tap Mana and spell Exert (spec §5.8, R-23, R-24, §7.6; FULL).

``cast <spell> -> <target>`` pays the Exert when casting begins (2L, or L with tapped mana) and
takes L frames (``max(1, L - 1)`` with tapped mana); the frames must follow one another, each a
``channel`` decision (a ``pass`` or ``end_turn`` abandons the spell, the Exert stays paid), and a
Stun interrupts it. The caster takes no Reactions while casting (R-24). The spell resolves at
the end of its last frame: one attack roll compared with the Evasion and Deflection of every
creature within the radius of the target's square nearest the caster, allies included (R-60),
one bonus die for all. The roll meets each creature's windows (spec §6.1): its Dodge before the
roll (W-R2), the caster's Fudge Nudge on it (W-I1), then for each creature in turn its Meta-Die
(W-I2) and Force Fate against it, its Crash Out on a miss (W-I3) and the caster's Finishing Touch
after damage (W-I4). ``tap_mana`` stores mana for the next spell until the end of the
caster's next turn.

Convoke (W-C, spec §5.8, §6.1, R-23): when a caster starts a levelled spell, every ally of the
same kind of magic (the same casting Attribute: INT Wizardry, CHA Sorcery, PER Divinity) that
holds tapped mana and can react is asked in initiative order whether it gives its mana
(``convoke``, a Reaction; its tapped mana is spent). With k convokers the spell costs
``max(0, L - 2k)`` Exert and takes ``max(1, L - 2)`` frames (WE-34): the caster's own tapped
mana plus theirs, one extra frame off however many convoke. ENGINE: the pooled mana counts as
tapped mana even when the caster holds none of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx
from envs.core.squaregrid import distance

from . import rulings
from .attack import expertise_v, target_steps
from .checks import check_roll, dice_of, net_steps, roll_rank
from .combatant import Combatant
from .damage import attacker_damage, defend, exert_check, m_a, take_damage
from .events import AttackRolled, CritUsed, ExertPaid, ExpertiseUsed, MPowerUsed, ReactionsChanged
from .full_focus import ward_on
from .full_powers import force_fate, fudge
from .full_statuses import carried
from .full_windows import crash_out, defender_meta_die, dodge, finishing_touch
from .moves import dist
from .profile import AreaSpell
from .statuses import inflict

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["spell_actions", "casting_actions", "begin_cast", "channel", "tap_mana",
           "interrupt", "costs", "convokers", "area_of", "spell_of", "spell_tohit"]


def spell_of(c: Combatant, sid: str) -> AreaSpell:
    """``c``'s levelled spell ``sid``."""
    return next(sp for sp in c.profile.spells if sp.id == sid)


def costs(c: Combatant, sp: AreaSpell, convokers: int = 0) -> tuple[int, int]:
    """``(Exert, frames)`` of casting ``sp`` now with ``convokers`` (spec §5.8 table, R-23)."""
    if convokers > 0:
        return max(0, sp.level - 2 * convokers), max(1, sp.level - 2)
    if c.mana_until >= 0:
        return sp.level, max(1, sp.level - 1)
    return max(sp.exert, 2 * sp.level), sp.frames


def spell_actions(enc: MetaforceEncounter, c: Combatant) -> list[Action]:
    """``cast`` on each enemy in range, and ``tap_mana`` while no mana is held; each also with
    a 5-ft step toward or away from its target or reference (R-24: movement is at most 5 ft a
    frame while casting or tapping mana, the frame that begins the spell included)."""
    if not enc.options.full or not c.profile.spells:
        return []
    step = c.speed_squares() > 0
    acts = []
    for sp in c.profile.spells:
        for t in enc.combatants:
            if t.side != c.side and t.alive and t.present \
                    and dist(c, t) * rulings.SQUARE_FT <= sp.range_ft:
                acts.append(Action(c.id, "cast", (sp.id,), t.id))
                if step:
                    acts += _steps(c, "cast", (sp.id,), t)
    if c.mana_until < 0:
        acts.append(Action(c.id, "tap_mana"))
        if step:
            for r in enc.combatants:
                if r.side != c.side and r.active:
                    acts += _steps(c, "tap_mana", (), r)
    return acts


def _steps(c: Combatant, kind: str, args: tuple[str, ...], t: Combatant) -> list[Action]:
    """``kind args`` with a 5-ft approach (not when adjacent) and a 5-ft retreat relative to
    ``t`` (R-24)."""
    out = [Action(c.id, kind, (*args, "approach"), t.id)] if dist(c, t) > 1 else []
    return out + [Action(c.id, kind, (*args, "retreat"), t.id)]


def casting_actions(c: Combatant) -> list[Action]:
    """While casting: ``channel`` the next frame (held, or with a 5-ft step toward or away from
    the spell's target: spec §4.2, §5.1, R-24), or abandon the spell (``pass``, ``end_turn``)."""
    steps = [Action(c.id, "channel", (m,), c.cast_target) for m in ("approach", "retreat")] \
        if c.speed_squares() > 0 else []
    return [Action(c.id, "pass"), Action(c.id, "channel", (), c.cast_target), *steps,
            Action(c.id, "end_turn")]


def interrupt(ev: list[Event], c: Combatant, why: str) -> None:
    """The spell being cast is lost (a Stun, R-24, or the caster gave up)."""
    if c.casting is not None:
        ev.append(MPowerUsed(c.id, c.casting, 0, f"the spell is lost ({why})"))
        c.casting, c.cast_left, c.cast_target = None, 0, None


def tap_mana(ev: list[Event], c: Combatant) -> None:
    c.mana_until = c.turns + 1
    ev.append(MPowerUsed(c.id, "tap_mana", 0, "mana held for the next spell"))


def convokers(enc: MetaforceEncounter, c: Combatant) -> list[Combatant]:
    """W-C: the allies of ``c``'s kind of magic holding tapped mana and a Reaction."""
    return [o for o in (enc.by_id[i] for i in enc.order) if o is not c and o.side == c.side
            and o.profile.magic == c.profile.magic and o.mana_until >= 0 and o.can_react()]


def _convoke(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant,
             sid: str) -> int:
    """W-C (spec §6.1): each eligible ally decides; returns how many gave their mana."""
    k = 0
    for o in convokers(enc, c):
        use = Action(o.id, "convoke")
        if ctx.ask(o.id, "convoke", [use, Action(o.id, "pass")],
                   {"caster": c.id, "spell": sid}) != use:
            continue
        o.reactions -= 1
        o.mana_until = -1
        ev.append(ReactionsChanged(o.id, o.reactions))
        ev.append(MPowerUsed(o.id, "convoke", 0, f"gives its tapped mana to {c.id}"))
        k += 1
    return k


def begin_cast(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant, sid: str,
               target: str) -> None:
    sp = spell_of(c, sid)
    exert, frames = costs(c, sp, _convoke(enc, ctx, ev, c, sid))
    c.mana_until = -1
    c.exert += exert  # paid when casting begins
    ev.append(ExertPaid(c.id, exert, c.exert_total))
    if exert_check(enc, ev, c):  # spec §7.6
        return
    if frames <= 1:
        _resolve(enc, ctx, ev, c, sp, target)
        return
    c.casting, c.cast_left, c.cast_target = sid, frames - 1, target


def channel(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant) -> None:
    assert c.casting is not None and c.cast_target is not None
    c.cast_left -= 1
    if c.cast_left <= 0:
        sp, target = spell_of(c, c.casting), c.cast_target
        c.casting, c.cast_left, c.cast_target = None, 0, None
        _resolve(enc, ctx, ev, c, sp, target)


def area_of(enc: MetaforceEncounter, c: Combatant, sp: AreaSpell, t: Combatant
            ) -> list[Combatant]:
    """Every creature ``sp`` cast by ``c`` at ``t`` covers now, allies included (R-60): within
    its radius of the target's square nearest the caster (spec §5.8), in the fight's order."""
    cx = min(max(c.x, t.x), t.x + t.n - 1)
    cy = min(max(c.y, t.y), t.y + t.n - 1)
    reach = sp.radius_ft // rulings.SQUARE_FT
    return [o for o in enc.combatants if o.alive and o.present
            and distance((cx, cy), 1, o.pos, o.n) <= reach]


def spell_tohit(kept: int, v: int, sp: AreaSpell, penalty: int, ward: int, e: int, xv: int
                ) -> tuple[int, bool, bool]:
    """The one roll's ToHit against one creature of Evasion ``e``: ``(ToHit, V on ToHit,
    Expertise on ToHit)``; a critical's ``v`` and Expertise's ``xv`` go to ToHit while the hit
    needs them (R-10, spec §2.4.2, R-52), Ward takes its -2 (§13.4)."""
    tohit = kept + sp.tohit + penalty - ward
    v_hit = bool(v) and tohit < e
    tohit += v if v_hit else 0
    x_hit = xv > 0 and tohit < e
    return tohit + (xv if x_hit else 0), v_hit, x_hit


def _resolve(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], c: Combatant, sp: AreaSpell,
             target: str) -> None:
    t = enc.by_id[target]
    hit = area_of(enc, c, sp, t)
    # W-R2 before the roll (spec §6.1): each creature in the area may Dodge it, allies too
    # (ENGINE: an area spell is an attack on every creature it covers, R-60)
    dodged = {o.id: dodge(enc, ctx, ev, c, o, any_side=True) for o in hit}
    mine = dice_of(ctx.dice, c)
    # RULING: one roll for the area, in the state against the spell's target (R-37, R-8,
    # Fear/Charm, spec §5.3.1)
    base = target_steps(enc, c, t)
    xv = expertise_v(c, sp.attr)
    s = net_steps(base, sp.proficient, sp.attr in c.profile.expertise, c.tired, c.exhausted)
    chk = check_roll(mine, s)
    chk = fudge(enc, ctx, ev, c, t, chk, mine)  # W-I1 Fudge Nudge on the one roll (spec §6.4)
    # each creature's ToHit, and its own post-roll windows on the shared roll (spec §6.1: W-I2
    # and its Force Fate), before the bonus die (dice order, §12.1: item 3 before item 4)
    rolled: dict[str, tuple[int, int, int, bool, bool]] = {}
    for o in hit:
        e, d = o.evasion(), o.deflection()
        e, d = e + dodged[o.id], max(d, e + dodged[o.id])  # spec §6.2 Dodge
        tohit, v_hit, x_hit = spell_tohit(chk.kept, chk.v if chk.crit else 0, sp, chk.penalty,
                                          ward_on(enc, o), e, xv)
        tohit = defender_meta_die(enc, ctx, ev, c, o, tohit, e, d, False)
        tohit = force_fate(enc, ctx, ev, o, c, tohit, e, d, False, up=False)
        rolled[o.id] = (tohit, e, d, v_hit, x_hit)
    bonus = mine.roll(sp.bonus_die)[0] if sp.bonus_die else 0
    status = sp.special_status  # spec §13.4: Fireball's Burn (on a Special Attack or a crit)
    status = status if status is not None and carried(True, status) else None
    special = c.special_until >= 0 and rulings.SETUP_USED_BY_ANY_ATTACK
    if special:
        c.special_until = -1
    # spec §5.4: a pending Special Attack counts the Attribute die (dice order item 5)
    attr_value = roll_rank(mine, c.attr(sp.attr)) if special and status else c.attr(sp.attr)
    for o in hit:
        if not o.alive or enc.is_over():
            continue
        tohit, e, d, v_hit, x_hit = rolled[o.id]
        got = "miss" if tohit < e else "direct" if tohit > d else "deflected"
        ev.append(AttackRolled(c.id, o.id, sp.id, chk.faces, chk.kept, s, tohit, e, d, got,
                               chk.v))
        if xv:
            ev.append(ExpertiseUsed(c.id, "tohit" if x_hit else "damage", xv))
        if got == "miss":
            crash_out(enc, ctx, ev, c, o, chk.kept)  # W-I3
            continue
        on_mag = chk.crit and not v_hit and status is not None  # §13.4: a crit's V to Magnitude
        if on_mag:
            ev.append(CritUsed(c.id, "magnitude", chk.v))
        b = sp.damage_base + bonus + (chk.v if chk.crit and not v_hit and not on_mag else 0) \
            + (0 if x_hit else xv)
        raw = attacker_damage(b, m_a(enc, c, o), chk.crit)
        final = defend(o.profile, raw, sp.damage_type, got == "deflected")
        if o.burn_injury and final > 0:
            final = final * 3 // 2
        take_damage(enc, ctx, ev, o, final, c.id, sp.damage_type, raw)
        if final > 0 and not enc.is_over():
            finishing_touch(enc, ctx, ev, c, o, chk.v)  # W-I4
        if status is not None and (special or on_mag) and o.alive and not enc.is_over():
            m = chk.kept + attr_value + bonus + sp.magnitude_bonus \
                + (chk.v if on_mag else 0) - ward_on(enc, o)  # spec §5.3.4, §5.4
            x = sp.bonus_die // 2 if sp.bonus_die else rulings.DOT_DEFAULT_X
            inflict(enc, ctx, ev, c, o, status, m, got == "deflected", x)
