"""Reading Metaforce gear from YAML (spec §2.7, §2.8, §5.5, §5.6, §5.8, §13.4, §13.5): weapons,
spells, armour and the per-type defensive property maps, each bad field a ``DataError`` naming
the file, the entry and the field."""

from __future__ import annotations

from typing import Any

from envs.core.data import Entry

from . import content as C
from .records import (
    DAMAGE_TYPES,
    RESISTANCE_KEYS,
    STATUSES,
    WEAPON_KINDS,
    Armour,
    Penetration,
    Reload,
    Spell,
    Weapon,
    default_status,
)

__all__ = ["parse_weapon", "parse_spell", "parse_armour", "armour_field", "keyed",
           "immunities"]

def keyed(e: Entry, key: str, allowed: tuple[str, ...], half_ok: bool = False) -> dict[str, int]:
    """A ``{type: X}`` mapping with X >= 0 (``half``: plain Resistance, X = 0, §2.8)."""
    s = e.sub(key, {})
    out = {}
    for k in list(s.data):
        name = str(k)
        # spec §2.8: "Status names may also be keys" (a bare status name is status:<name>;
        # poison names the damage type, status:poison the status)
        own = f"status:{name}" if name not in allowed and name in STATUSES else name
        if own not in allowed and not own.startswith("status:"):
            s.fail(name, f"unknown type; expected one of {', '.join(allowed)}, a status name or "
                         "status:<id>")
        if half_ok and s.data[k] == "half":
            s.req(name)
            out[own] = 0
        else:
            out[own] = s.integer(name, lo=0)
    s.done()
    return out


def immunities(e: Entry) -> dict[str, int]:
    """``immunities``: a list of types (value 0) or a ``{type: X}`` mapping (§2.8, §8.2)."""
    raw = e.opt("immunities", [])
    if isinstance(raw, dict):
        return keyed(e, "immunities", RESISTANCE_KEYS)
    out = {}
    for item in e.items("immunities", []):
        if isinstance(item, str) and item not in RESISTANCE_KEYS and item in STATUSES:
            item = f"status:{item}"  # spec §2.8: a bare status name
        if not isinstance(item, str) or not (item in RESISTANCE_KEYS or item.startswith(
                "status:") and item[7:] in STATUSES):
            e.fail("immunities", f"unknown immunity {item!r}; expected a damage type or "
                                 f"status:<{'|'.join(STATUSES)}>")
        out[item] = 0
    return out


def _penetration(e: Entry) -> Penetration | None:
    raw = e.opt("penetration")
    if raw is None:
        return None
    try:
        return Penetration.parse(raw)
    except ValueError as err:
        e.fail("penetration", str(err))
    raise AssertionError  # pragma: no cover


_DIES = (0, 4, 6, 8, 10, 12, 20)


def _die(e: Entry) -> int:
    """``bonus_die``: the sides of the bonus die, 0 for none (§2.7)."""
    sides = e.integer("bonus_die", 0)
    if sides not in _DIES:
        e.fail("bonus_die", f"expected one of {', '.join(map(str, _DIES))}, got {sides}")
    return sides


def _ft(e: Entry, key: str) -> int | None:
    return e.integer(key, None, lo=0)


def parse_weapon(data: Any, src: str, entry: str, template: bool = False) -> Weapon:
    """One weapon (spec §2.7, §5.5, §5.6): a stat block's (``tohit`` required) or a ``weapons:``
    template (no ``tohit``)."""
    e = Entry(data, src, entry)
    wid = e.req("id", str)
    kind = e.choice("type", WEAPON_KINDS)
    dtype = e.choice("damage_type", DAMAGE_TYPES)
    firearm, bow = kind == "firearm", kind == "bow"
    reach, inc, thrown = _ft(e, "reach_ft"), _ft(e, "range_increment_ft"), _ft(e, "thrown_ft")
    if (firearm or bow) != (inc is not None):
        e.fail("range_increment_ft", "firearms and bows (only) have a range increment (§2.7)")
    if kind in ("melee", "natural") and reach is None:
        e.fail("reach_ft", f"missing (a {kind} weapon has a reach, §2.7)")
    if kind == "thrown" and thrown is None:
        e.fail("thrown_ft", "missing (a thrown weapon has a thrown range, §2.7)")
    status = e.opt("special_status", default_status(dtype), str)
    if status is not None and status not in STATUSES:
        e.fail("special_status", f"unknown status {status!r}; known: {', '.join(STATUSES)}")
    trig = e.integer("trigger_limit", 1 if firearm else None, lo=1)
    auto = e.opt("auto", False, bool)
    cap = e.integer("capacity", None, lo=1)
    reload = None
    if e.has("reload_mode"):
        r = e.req("reload_mode")
        if r == "all":
            reload = Reload(None)
        elif isinstance(r, dict) and list(r) == ["per_frame"] and isinstance(
                r["per_frame"], int) and not isinstance(r["per_frame"], bool) and r[
                    "per_frame"] >= 1:
            reload = Reload(r["per_frame"])
        else:
            e.fail("reload_mode", f"expected 'all' or {{per_frame: N >= 1}}, got {r!r}")
    if firearm and (cap is None or reload is None):
        e.fail("capacity" if cap is None else "reload_mode",
               "missing (a firearm has a capacity and a reload_mode, §5.6)")
    if not firearm:
        for key in ("capacity", "reload_mode", "auto", "chamber_plus_one", "speedloaders",
                    "reserve_rounds", "reserve_magazines", "armour_piercing"):
            if e.has(key):
                e.fail(key, f"only a firearm has {key} (§5.5, §5.6)")
        if e.has("trigger_limit"):
            e.fail("trigger_limit", "only a firearm has a trigger limit (§5.5)")
    w = Weapon(
        wid, e.opt("name", wid, str), kind, e.integer("hands", lo=0, hi=2),
        e.choice("attr", C.ATTRIBUTES), 0 if template else e.integer("tohit"),
        e.integer("equipment", 0), e.integer("damage_base", lo=0),
        _die(e), dtype, reach, inc, thrown,
        _ft(e, "range_ft"), status, 0 if template else e.integer("magnitude_bonus", 0),
        e.integer("size_multiplier", None, lo=1), trig, auto, cap,
        e.opt("chamber_plus_one", False, bool), reload, e.integer("speedloaders", 0, lo=0),
        e.integer("reserve_rounds", 0, lo=0), e.integer("reserve_magazines", 0, lo=0),
        e.opt("armour_piercing", False, bool), _penetration(e),
        appendages=tuple(map(str, e.items("appendages", []))),  # spec §4.4, R-25 (FULL)
        sweep=e.opt("sweep", False, bool),
        size_ranks=e.integer("size_ranks", 0, lo=0),  # spec §8.4 size-enhanced gear (FULL)
        size_ranks_direct=e.opt("size_ranks_direct", False, bool))
    e.done()
    return w


_SPELL_RESOLUTIONS = ("attack", "ignores_evasion", "ward", "heal")
_CONCENTRATION = ("loose", "unbroken")  # spec §7.9


def parse_spell(data: Any, src: str, entry: str, templates: dict[str, Spell] | None = None,
                template: bool = False) -> Spell:
    """One spell (spec §5.8, §13.4). A stat block's spell with a template's id takes the
    template's fields it omits, and may not contradict the ones it gives."""
    raw = data
    base = None
    if not template and isinstance(data, dict) and templates and data.get("id") in templates:
        base = templates[data["id"]]
        raw = {**base.fields(), **data}
    e = Entry(raw, src, entry)
    sid = e.req("id", str)
    level = e.integer("level", lo=0, hi=5)
    dtype = e.opt("damage_type", None, str)
    if dtype is not None and dtype not in DAMAGE_TYPES:
        e.fail("damage_type", f"unknown value {dtype!r}; expected one of "
                              f"{', '.join(DAMAGE_TYPES)}")
    status = e.opt("special_status", None if dtype is None else default_status(dtype),
                   str)
    if status is not None and status not in STATUSES:
        e.fail("special_status", f"unknown status {status!r}; known: {', '.join(STATUSES)}")
    s = Spell(sid, e.opt("name", sid, str), level, e.integer("frames", lo=1),
              e.integer("exert", lo=0), e.choice("resolution", _SPELL_RESOLUTIONS, "attack"),
              None if template else e.integer("tohit", None),
              e.integer("damage_base", None, lo=0), _die(e),
              dtype, _ft(e, "reach_ft"), _ft(e, "range_increment_ft"), _ft(e, "range_ft"),
              _ft(e, "area_radius_ft"), status, 0 if template else e.integer("magnitude_bonus", 0),
              e.choice("concentration", _CONCENTRATION, None),
              e.integer("tension", None, lo=1))  # spec §7.7, §7.9 (FULL)
    if (s.damage_base is None) != (dtype is None):
        e.fail("damage_type", "a damaging spell has both damage_base and damage_type")
    if not template and s.level > 0 and s.resolution == "attack" and s.tohit is None:
        e.fail("tohit", "missing (a stat block's levelled attack spell needs its caster's ToHit, "
                        "§13.4)")
    if s.reach_ft is None and s.range_increment_ft is None and s.range_ft is None:
        e.fail("reach_ft", "a spell has a reach_ft, range_increment_ft or range_ft (§13.4)")
    if base is not None:
        for key, value in base.fields().items():
            if key in data and data[key] != value:
                e.fail(key, f"{data[key]!r} contradicts the {sid} template's {value!r} (§13.4)")
    e.done()
    return s


def armour_field(e: Entry, armour: dict[str, Armour]) -> Armour:
    raw = e.opt("armour", "none")
    if isinstance(raw, str):
        if raw not in armour:
            e.fail("armour", f"unknown armour {raw!r}; known: {', '.join(armour)}")
        return armour[raw]
    return parse_armour(raw, e.source, f"{e.entry}.armour")


def parse_armour(data: Any, src: str, entry: str) -> Armour:
    """Armour (spec §2.8): ``{name, deflection_bonus, resistance {type: X}, bullet_resistant}``
    and optional ``hands`` (a shield's)."""
    a = Entry(data, src, entry)
    out = Armour(a.req("name", str), a.integer("deflection_bonus", lo=0),
                 keyed(a, "resistance", RESISTANCE_KEYS), a.opt("bullet_resistant", False, bool),
                 a.integer("hands", 0, lo=0, hi=2))
    a.done()
    return out


