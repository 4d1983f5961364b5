"""Palladium Revised's state invariants (the registry's ``invariants`` part): checked after every
``apply`` by the property tests and ``arena soak``.

Pools within their bounds (S.D.C., Stamina, armour S.D.C. and Wounds at 0 or more; H.P. at most
its maximum and above the death line for the living; spec §1.4.2, §8.7), positions on the line,
slots of the round matching the Melee Grid with known states, commitments consistent with their
reserved slots, the clock in range, and the decision state consistent (a current actor with at
least one legal action while the fight is on). FULL: E.E. and S.E. within [0, max], stack caps
(Numbing 15, Soaked 10, Stunned 20), no effect past its expiry, Damage Shields above 0, every
Taunt/Distract/common-effect controller a combatant that is not dead (R7), Prone and the ambush
flag only where they can be.
"""

from __future__ import annotations

from typing import Any

from envs.palladium_revised.rules.slots import RESERVED, STATES, slot_positions

__all__ = ["state_invariants"]


def _full(enc: Any, c: Any, who: str) -> None:
    """The FULL effects of ``c`` (``full_state.Effects``)."""
    fx, p, now = c.fx, c.profile, enc.t_abs
    assert 0 <= fx.ee <= p.ee_max, f"{who}: E.E. {fx.ee} / {p.ee_max}"
    assert 0 <= fx.se <= p.se_max, f"{who}: S.E. {fx.se} / {p.se_max}"
    assert len(fx.numbing) <= 15 and len(fx.soaked) <= 10 and len(fx.stunned) <= 20, \
        f"{who}: stacks numbing {len(fx.numbing)} soaked {len(fx.soaked)} stunned {len(fx.stunned)}"
    if enc.is_over():
        return
    if not (fx.stunned or fx.numbing or fx.soaked or fx.vital_blow or fx.bv_ranged
            or fx.suffocation or fx.taunt or fx.heartbeat is not None
            or fx.exposure is not None or fx.broken_resistance is not None) and all(
            r is None for r in (fx.power_draw, fx.ward, fx.empowered, fx.enduring, fx.focused,
                                fx.ignite, fx.distract)):
        untils: list[int] = []  # no effect with an expiry (the usual case)
    else:
        untils = _untils(fx)
    assert all(u >= now for u in untils), f"{who}: an effect past its expiry at {now}: {untils}"
    _controls(enc, c, who)


def _untils(fx: Any) -> list[int]:
    """Every expiry Second of ``fx``'s effects."""
    return [u for _, u in fx.stunned] + [at + 7 for _, at in fx.numbing] + \
        [at + 60 for _, at in fx.soaked] + list(fx.vital_blow) + list(fx.bv_ranged) + \
        list(fx.suffocation) + [r[-1] for r in (fx.power_draw, fx.ward, fx.empowered,
                                                fx.enduring, fx.focused, fx.ignite,
                                                fx.distract) if r is not None] + \
        [u for u in (fx.heartbeat, fx.exposure, fx.broken_resistance) if u is not None] + \
        (list(fx.taunt[1]) if fx.taunt else [])


def _controls(enc: Any, c: Any, who: str) -> None:
    """Damage Shields, controllers, stacks, Prone and the ambush flag of ``c``'s effects."""
    fx = c.fx
    for sh in (fx.ward, fx.empowered):
        assert sh is None or sh[0] > 0, f"{who}: an empty Damage Shield {sh}"
    ctl = [s[0] for s in fx.numbing + fx.soaked + fx.stunned] + \
        [r[0] for r in (fx.ignite, fx.taunt, fx.distract) if r is not None]
    for cid in ctl:
        assert cid in enc.by_id and enc.by_id[cid].state != "dead", \
            f"{who}: an effect controlled by {cid}, who is dead or unknown"
    assert fx.taunt is None or fx.taunt[1], f"{who}: a Taunt with no stacks"
    assert fx.distract is None or fx.distract[1] >= 1, f"{who}: a Distract with no stacks"
    if c.state == "dead":
        assert not fx.prone and fx.ignite is None, f"{who}: effects on the dead"
    if fx.surprised:
        assert enc.round == 1 and enc.second <= 1, f"{who}: surprised after the ambush Second"
    if fx.power_draw is not None:
        x, at, until = fx.power_draw
        assert 1 <= x <= 5 and until == at + 3, f"{who}: power draw {fx.power_draw}"


def state_invariants(enc: Any) -> None:
    """Raise ``AssertionError`` naming the round, the combatant and the value out of bounds."""
    L = enc.options.arena_length
    for c in enc.combatants:
        p = c.profile
        who = f"round {enc.round}: {c.id}"
        assert 0 <= c.x <= L, f"{who}: x {c.x} off the line [0, {L}]"
        assert 0 <= c.sdc <= c.sdc_max <= p.sdc_max, f"{who}: sdc {c.sdc} / max {c.sdc_max}"
        assert c.hp <= c.hp_max <= p.hp_base, f"{who}: hp {c.hp} / max {c.hp_max}"
        assert 0 <= c.stamina <= p.stamina_max, f"{who}: stamina {c.stamina}"
        assert c.morale <= p.morale_max, f"{who}: morale {c.morale}"
        assert 0 <= c.armor_sdc <= p.armor_sdc, f"{who}: armour sdc {c.armor_sdc}"
        assert c.wounds >= 0, f"{who}: wounds {c.wounds}"
        assert c.state in ("active", "coma", "dead", "out"), f"{who}: state {c.state!r}"
        _full(enc, c, who)
        if c.fx.no_pe or c.state == "out":
            pass
        elif c.state == "active":
            assert c.hp > 0, f"{who}: active at hp {c.hp}"
        elif c.state == "coma":
            assert -p.hp_base < c.hp <= 0, f"{who}: in a coma at hp {c.hp}"
        else:
            assert c.hp <= -p.hp_base, f"{who}: dead at hp {c.hp}"
        assert c.slot_at == slot_positions(p.actions), f"{who}: slots {c.slot_at}"
        assert len(c.slot_state) == len(c.slot_at), f"{who}: {len(c.slot_state)} slot states"
        assert all(s in STATES for s in c.slot_state), f"{who}: slot states {c.slot_state}"
        reserved = c.slot_state.count(RESERVED)
        if c.commitment is None:
            assert reserved == 0 and c.carry_over == 0, \
                f"{who}: {reserved} reserved slots, carry-over {c.carry_over}, no commitment"
        assert c.carry_over >= 0, f"{who}: carry-over {c.carry_over}"
        assert 0 <= c.step_budget <= p.pm, f"{who}: step budget {c.step_budget}"
        for wid, n in c.ammo.items():
            assert 0 <= n <= (p.weapon(wid).ammo or 0), f"{who}: {wid} ammo {n}"
        if c.closing is not None:
            x, at, until = c.closing
            assert 1 <= x <= 5 and until == at + 3, f"{who}: closing wounds {c.closing}"
        if c.multidodge is not None:
            assert c.active, f"{who}: a Multi-Dodge window while {c.state}"
    assert 0 <= enc.second <= 15, f"round {enc.round}: second {enc.second}"
    assert enc.t_abs == max(0, (enc.round - 1) * 15 + enc.second) or enc.is_over(), \
        f"round {enc.round}: t_abs {enc.t_abs} at second {enc.second}"
    assert enc.round <= enc.options.max_rounds, f"round {enc.round} past the cap"
    if not enc.is_over():
        actor = enc.current_actor()
        assert actor is not None, f"round {enc.round}: no current actor in a fight still on"
        assert enc.by_id[actor].active, f"round {enc.round}: {actor} decides while inactive"
        legal = enc.legal_actions()
        assert legal, f"round {enc.round}: {actor} has no legal action"
        labels = [a.label for a in legal]
        assert len(set(labels)) == len(labels), f"round {enc.round}: duplicate labels"
