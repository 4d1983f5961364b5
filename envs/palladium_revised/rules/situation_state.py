"""A combatant's ``state`` in a Palladium Revised situation (docs/situations.md): what the table
shows, set on the fight where it stands (``situation.from_situation``), each field checked with a
one-line error naming the file, the entry and the field.

Pools: ``sdc``, ``hp`` (1 .. H.P.: a combatant of a situation is in the fight), ``stamina``,
``morale``, ``wounds``, ``armor_sdc``, ``ee`` and ``se`` (FULL energy pools, spec §9.3),
``step_budget`` (feet of Steps left this round, spec §5.3), ``ammo`` (``{weapon: shots}``).
Statuses: ``defending``, ``resting`` with ``rest_seconds`` (spec §5.4), ``multidodge`` (the
stored Multi-Dodge total, spec §6.1). ``conditions``: the names ``arena situation check`` shows
(spec §7): CORE ``closing_wounds`` ``{x, seconds}``, ``concussion``, ``dazed``,
``internal_bleeding``, ``crippled_<limb>`` (stacks); FULL ``prone``, ``ignite`` ``{by,
seconds, damage}``, ``numbing``/``soaked`` ``{by, stacks}``, ``stunned``/``taunt``/``distract``
``{by, stacks, seconds}``, ``power_draw`` ``{ee, seconds}``, ``ward``/``empowered_body``
``{shield, seconds}``, ``focused_healing``/``vital_blow``/``suffocation`` ``{stacks,
seconds}``, ``enduring_heal`` ``{heal, seconds}``, ``recovery``/``lung_crush``/
``blood_vision``/``racing_heart`` (stacks), ``heartbeat``/``exposure``/``broken_resistance``
(seconds), ``surprised`` (true: round 1, Second 1 of an ambush). ``seconds: N`` is the effect as
applied in the Second the fight stands in, for N Seconds (it ends at the end of Second now + N,
spec §1.4.4; a fresh situation stands in Second 1 of round 1, t_abs 1). Exhausted, Fatigued,
Depression and the Insanity penalty follow from Stamina and Morale (the state check, spec §4.6).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from envs.core.data import Entry

from .combatant import CRIPPLED, Combatant
from .full_actions import POWER_DRAW_SECONDS
from .full_effects import IGNITE_SECONDS, STUNNED_SECONDS
from .full_state import NUMBING_MAX, SOAKED_MAX, STUNNED_MAX
from .full_taunt import TAUNT_SECONDS
from .rulings import CLOSING_WOUNDS_SECONDS
from .slots import LOST
from .state import PalladiumEncounter

__all__ = ["apply_state", "POOLS", "CONDITIONS", "DERIVED"]

POOLS = ("sdc", "hp", "stamina", "morale", "wounds", "armor_sdc", "ee", "se", "step_budget")
DERIVED = ("exhausted", "fatigued", "depression", "insanity")
"""conditions the state check derives from Stamina and Morale (not set by a file)"""

Reader = Callable[[PalladiumEncounter, Combatant, Entry, str, int], None]


def _tops(enc: PalladiumEncounter, c: Combatant) -> dict[str, tuple[int | None, int | None]]:
    p = c.profile
    return {"sdc": (0, c.sdc_max), "hp": (None, c.hp_max), "stamina": (0, p.stamina_max),
            "morale": (None, p.morale_max), "wounds": (0, None), "armor_sdc": (0, p.armor_sdc),
            "ee": (0, p.ee_max), "se": (0, p.se_max), "step_budget": (0, c.eff_pm())}


def _needs(enc: PalladiumEncounter, e: Entry, key: str, flag: str) -> None:
    if not getattr(enc.options, flag):
        e.fail(key, f"needs the rule option {flag!r} (on in FULL, off in CORE)")


def _by(enc: PalladiumEncounter, c: Combatant, r: Entry, enemy: bool) -> str:
    by = r.req("by", str, "the combatant that controls it")
    o = enc.by_id.get(by)
    if o is None:
        r.fail("by", f"unknown combatant {by!r}; combatants: {', '.join(enc.by_id)}")
    assert o is not None
    if enemy and o.side == c.side:
        r.fail("by", f"{by!r} is not an enemy of {c.id!r}")
    return by


def _seconds(r: Entry, hi: int | None, default: int | None = None) -> int:
    if default is not None:
        return r.integer("seconds", default, lo=1, hi=hi)
    return r.integer("seconds", lo=1, hi=hi)


# ------------------------------------------------------------------ the conditions, one reader each
def _closing(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
    r = e.sub(key)
    x = r.integer("x", lo=1, hi=5)
    c.closing = (x, now, now + _seconds(r, CLOSING_WOUNDS_SECONDS, CLOSING_WOUNDS_SECONDS))
    r.done()


def _stacks(name: str) -> Reader:
    def read(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
        setattr(c, name, e.integer(key, lo=0))
    return read


def _crippled(limb: str) -> Reader:
    def read(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
        c.crippled[limb] = e.integer(key, lo=0)
    return read


def _prone(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
    _needs(enc, e, key, "common_effects")
    c.fx.prone = e.req(key, bool)


def _ignite(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
    _needs(enc, e, key, "common_effects")
    r = e.sub(key)
    by = _by(enc, c, r, False)
    seconds = _seconds(r, IGNITE_SECONDS * 3 // 2, IGNITE_SECONDS)
    c.fx.ignite = (by, r.integer("damage", lo=1), now + seconds)
    r.done()


def _timed_stacks(name: str, cap: int) -> Reader:
    """Numbing, Soaked: ``{by, stacks}`` (each stack's timer starts now)."""
    def read(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
        _needs(enc, e, key, "common_effects")
        r = e.sub(key)
        by = _by(enc, c, r, False)
        setattr(c.fx, name, ((by, now),) * r.integer("stacks", lo=1, hi=cap))
        r.done()
    return read


def _stunned(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
    _needs(enc, e, key, "common_effects")
    r = e.sub(key)
    by = _by(enc, c, r, False)
    n = r.integer("stacks", lo=1, hi=STUNNED_MAX)
    c.fx.stunned = ((by, now + _seconds(r, None, STUNNED_SECONDS)),) * n
    r.done()


def _taunt(kind: str) -> Reader:
    def read(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
        _needs(enc, e, key, "taunt_distract")
        r = e.sub(key)
        by = _by(enc, c, r, True)
        n = r.integer("stacks", lo=1)
        until = now + _seconds(r, TAUNT_SECONDS, TAUNT_SECONDS)
        if kind == "taunt":
            c.fx.taunt = (by, (until,) * n)
        else:
            c.fx.distract = (by, n, until)
        r.done()
    return read


def _amount(name: str, field: str, flag: str, hi: int | None = None, at: bool = False) -> Reader:
    """Power Draw ``{ee, seconds}``, Ward and Empowered Body ``{shield, seconds}``, Enduring
    Heal ``{heal, seconds}``, Focused Healing ``{stacks, seconds}``."""
    def read(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
        _needs(enc, e, key, flag)
        r = e.sub(key)
        n = r.integer(field, lo=1)
        until = now + _seconds(r, hi)
        setattr(c.fx, name, (n, now, until) if at else (n, until))
        r.done()
    return read


def _count(name: str, flag: str) -> Reader:
    def read(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
        _needs(enc, e, key, flag)
        setattr(c.fx, name, e.integer(key, lo=0))
    return read


def _until(name: str) -> Reader:
    """Heartbeat, Exposure, Broken Resistance: the Seconds it lasts."""
    def read(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
        _needs(enc, e, key, "full_crit_tables")
        setattr(c.fx, name, now + e.integer(key, lo=1))
    return read


def _untils(name: str, flag: str) -> Reader:
    """Vital Blow, Suffocation: ``{stacks, seconds}``."""
    def read(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
        _needs(enc, e, key, flag)
        r = e.sub(key)
        n = r.integer("stacks", lo=1)
        setattr(c.fx, name, (now + _seconds(r, None),) * n)
        r.done()
    return read


def _surprised(enc: PalladiumEncounter, c: Combatant, e: Entry, key: str, now: int) -> None:
    _needs(enc, e, key, "ambush")
    if not e.req(key, bool):
        return
    if enc.round != 1 or enc.second != 1 or not enc.order:
        e.fail(key, "only in Second 1 of round 1 of a fight in progress (spec §3.5)")
    if enc.turn == c.id:
        e.fail(key, f"{c.id!r} decides now: a surprised combatant has no turn in Second 1")
    c.fx.surprised = True
    for i, (s, _) in enumerate(c.slot_at):
        if s == 1:
            c.slot_state[i] = LOST


CONDITIONS: dict[str, Reader] = {
    "closing_wounds": _closing,
    "concussion": _stacks("concussion"),
    "dazed": _stacks("dazed"),
    "internal_bleeding": _stacks("internal_bleeding"),
    **{f"crippled_{limb}": _crippled(limb) for limb in CRIPPLED},
    "prone": _prone,
    "ignite": _ignite,
    "numbing": _timed_stacks("numbing", NUMBING_MAX),
    "soaked": _timed_stacks("soaked", SOAKED_MAX),
    "stunned": _stunned,
    "taunt": _taunt("taunt"),
    "distract": _taunt("distract"),
    "power_draw": _amount("power_draw", "ee", "spells", POWER_DRAW_SECONDS, at=True),
    "ward": _amount("ward", "shield", "spells"),
    "empowered_body": _amount("empowered", "shield", "full_crit_tables"),
    "focused_healing": _amount("focused", "stacks", "full_crit_tables"),
    "enduring_heal": _amount("enduring", "heal", "full_crit_tables", at=True),
    "recovery": _count("recovery", "full_crit_tables"),
    "lung_crush": _count("lung_crush", "full_crit_tables"),
    "blood_vision": _count("blood_vision", "full_crit_tables"),
    "racing_heart": _count("racing_heart", "full_crit_tables"),
    "heartbeat": _until("heartbeat"),
    "exposure": _until("exposure"),
    "broken_resistance": _until("broken_resistance"),
    "vital_blow": _untils("vital_blow", "full_crit_tables"),
    "suffocation": _untils("suffocation", "common_effects"),
    "surprised": _surprised,
}
"""condition name -> its reader (the names of the view's ``conditions``)"""


def _conditions(enc: PalladiumEncounter, c: Combatant, e: Entry) -> None:
    # spec §1.4.4: an effect applied during Second t_abs with D Seconds ends at the end of
    # Second t_abs + D. A fresh situation is read before the clock's first tick (t_abs 0); the
    # fight stands in Second 1 of round 1 (t_abs 1), where the effects are applied.
    now = max(enc.t_abs, 1)
    for key in list(e.data):
        name = str(key)
        if name in DERIVED:
            e.fail(name, "follows from Stamina and Morale (the state check, spec §4.6): set "
                         "'stamina' or 'morale' instead")
        if name not in CONDITIONS:
            e.fail(name, f"unknown condition; known: {', '.join(CONDITIONS)}")
        CONDITIONS[name](enc, c, e, name, now)
    e.done()


def _one(enc: PalladiumEncounter, c: Combatant, st: Entry, actor: str | None) -> None:
    tops = _tops(enc, c)
    for key in POOLS:
        if st.has(key):
            lo, hi = tops[key]
            if key in ("ee", "se"):
                _needs(enc, st, key, "spells" if key == "ee" else "morale_to_se")
            value = st.integer(key, lo=lo, hi=hi)
            setattr(c.fx if key in ("ee", "se") else c, key, value)
    if c.fx.no_pe:  # FULL, spec §2.1, §8.7: no H.P.; in the fight while it has S.D.C.
        if c.sdc <= 0:
            st.fail("sdc", "must be above 0 for a being without P.E. in the fight")
    elif c.hp <= 0:
        st.fail("hp", "must be above 0 for a combatant in the fight")
    ammo = st.sub("ammo", {})
    for wid in list(ammo.data):
        if str(wid) not in c.ammo:
            ammo.fail(str(wid), f"not a weapon with ammunition of {c.id!r}; those: "
                                f"{', '.join(c.ammo) or 'none'}")
        c.ammo[str(wid)] = ammo.integer(str(wid), lo=0, hi=c.profile.weapon(str(wid)).ammo)
    ammo.done()
    for key in ("defending", "resting"):
        if st.opt(key, False, bool):
            if key == "defending" and c.id == actor:
                st.fail(key, f"{c.id!r} decides now: a Defend lasts until the start of its "
                             "next turn (spec §5.4)")
            setattr(c, key, True)
    c.rest_seconds = st.integer("rest_seconds", 0, lo=0, hi=enc.options.rest_every - 1)
    if c.rest_seconds and not c.resting:
        st.fail("rest_seconds", "needs 'resting: true'")
    if st.has("multidodge"):
        if c.id == actor:
            st.fail("multidodge", f"{c.id!r} decides now: a Multi-Dodge lasts until the start "
                                  "of its next turn (spec §6.1)")
        c.multidodge = st.integer("multidodge", lo=0)
    _conditions(enc, c, st.sub("conditions", {}))
    st.done()


def apply_state(enc: PalladiumEncounter, states: Mapping[str, Entry], actor: str | None) -> None:
    """Set each combatant's ``state`` (see the module docstring); ``actor``: the one deciding
    now (``None``: a fresh start)."""
    for cid, st in states.items():
        _one(enc, enc.by_id[cid], st, actor)
