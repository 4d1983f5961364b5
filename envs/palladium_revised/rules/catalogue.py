"""Palladium Revised data: weapons, armour, spells, stat blocks and encounter presets (spec §2,
§3.6, §5.9, §13).

Loaded once from ``envs/palladium_revised/data/catalogue.yaml``, in the loader format of spec
§13.4 exactly as printed (``weapons``, ``armor``, ``spells``, ``defaults``, ``combatants``,
``encounters``, each a mapping by id). Bad data fails with one ``DataError`` line naming the
file, the entry and the field. The records (``Weapon``, ``Armour``, ``Spell``, ``StatBlock``,
``EncounterSpec``...) live in ``sheet.py`` and are re-exported here.

A stat block may list its final numbers (as §13.4 does) or leave them to the DEFAULT derivation
of ``content.py`` (spec §2.3, R46) from its attributes, level and training: an optional
``package`` (``fighter``, ``rogue``, ``ranger``, ``mage``: training, Actions, S.D.C., crit range)
or an optional ``training`` mapping (a monster's listed values). Listed numbers win (spec §2.3:
"stat blocks may list final values directly"). ``StatBlock.training`` is always the non-chart
part of each bonus (``bonuses - attribute_bonuses(attributes)``), so the engine can recompute
the bonuses when an attribute changes mid-fight (spec §2.1). Checks: all eight attributes,
integers >= 0 or null (no score, R43: a being without P.E. has no H.P. and no Stamina, one
without M.E. no Morale; the optional ``has_pe``/``has_me`` flags must agree), level >= 1,
Actions 1..30 (spec §2.2), known weapon, armour and spell ids, positions on the line
``[0, arena_length]`` (spec §3.2), start overrides within the pools.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from envs.core.data import DataError, Entry, load_yaml

from . import content as C
from .geometry import DEFAULT_ARENA_LENGTH, DEFAULT_START
from .sheet import (
    DAMAGE_TYPES,
    DATA,
    HANDS,
    RESOLVES,
    SAVES,
    SCHOOLS,
    START_POOLS,
    Armour,
    Attributes,
    Bonuses,
    Catalogue,
    Defaults,
    DiceExpr,
    EncounterSpec,
    Member,
    Rider,
    SideSpec,
    Spell,
    SpellBuff,
    StackFormula,
    StatBlock,
    Weapon,
)

__all__ = [
    "DATA", "DAMAGE_TYPES", "SCHOOLS", "RESOLVES", "SAVES", "HANDS", "START_POOLS", "Weapon",
    "Armour", "DiceExpr", "Bonuses", "Attributes", "Rider", "SpellBuff", "StackFormula",
    "Spell", "StatBlock", "Member", "SideSpec", "EncounterSpec", "Defaults", "Catalogue",
    "DataError", "load_catalogue", "catalogue", "stat_blocks", "encounters",
    "stat_block_from_mapping", "encounter_from_mapping", "parse_weapon", "parse_armour",
    "parse_spell", "parse_stat_block", "parse_encounter",
]

# --- parsing ------------------------------------------------------------------------------


def parse_weapon(wid: str, data: Any, src: str) -> Weapon:
    """One weapon of the ``weapons:`` section (spec §2.6, §13.4): a melee ``reach`` band and
    ``short``, or ``ranged: {inc, max_inc}`` and ``ammo`` (null: unlimited)."""
    e = Entry(data, src, f"weapons.{wid}")
    dice, hands = e.req("damage", DiceExpr.parse), e.integer("hands", lo=1, hi=2)
    kind = e.choice("kind", C.WEAPON_KINDS)
    wounds, cost, ps = e.integer("wounds", lo=0), e.integer("cost", lo=1), e.req("ps", bool)
    if e.has("ranged"):
        for key in ("reach", "short"):
            if e.has(key):
                e.fail(key, "a ranged weapon has no melee reach (spec §2.6)")
        r = e.sub("ranged")
        inc, n = r.integer("inc", lo=1), r.integer("max_inc", lo=1)
        r.done()
        ammo = e.integer("ammo", lo=1) if e.opt("ammo") is not None else None
        w = Weapon(wid, dice, None, False, hands, kind, wounds, cost, ps, inc, n, ammo)
    else:
        if e.has("ammo"):
            e.fail("ammo", "only a ranged weapon has ammunition (spec §2.6)")
        reach = C.BANDS[e.choice("reach", C.BANDS)]
        w = Weapon(wid, dice, reach, e.req("short", bool), hands, kind, wounds, cost, ps)
    e.done()
    return w


def parse_armour(aid: str, data: Any, src: str) -> Armour:
    """One armour of the ``armor:`` section (spec §2.7)."""
    e = Entry(data, src, f"armor.{aid}")
    a = Armour(aid, e.integer("ar", lo=0), e.integer("sdc", lo=0))
    e.done()
    return a


def _resolve(e: Entry) -> tuple[str, str | None]:
    raw = e.req("resolve")
    if isinstance(raw, dict):
        r = Entry(raw, e.source, f"{e.entry}.resolve")
        save = r.choice("save", SAVES)
        r.done()
        return "save", save
    if raw not in RESOLVES or raw == "save":
        e.fail("resolve", f"expected one of spell_strike, crit_only, none or "
                          f"{{save: {' | '.join(SAVES)}}}, got {raw!r}")
    return str(raw), None


def parse_spell(sid: str, data: Any, src: str) -> Spell:
    """One spell of the ``spells:`` section (spec §5.9, §13.4)."""
    e = Entry(data, src, f"spells.{sid}")
    school, actions, ee = e.choice("school", SCHOOLS), e.integer("actions", lo=1), \
        e.integer("ee", lo=0)
    rng = e.req("range")
    if rng != "touch" and (isinstance(rng, bool) or not isinstance(rng, int) or rng < 0):
        e.fail("range", f"expected feet (an integer >= 0) or 'touch', got {rng!r}")
    resolve, save = _resolve(e)
    damage = e.opt("damage", None, DiceExpr.parse)
    dtype = e.opt("type", None, str)
    if dtype is not None and dtype not in DAMAGE_TYPES:
        e.fail("type", f"unknown damage type {dtype!r}; expected one of {', '.join(DAMAGE_TYPES)}")
    rider = Rider()
    if e.opt("rider") is not None:
        rd = e.sub("rider")
        rider = Rider(rd.opt("ignite", False, bool), rd.integer("numbing", 0, lo=0),
                      rd.integer("soaked", 0, lo=0))
        rd.done()
    armour = e.opt("armour", None, str)
    if armour not in (None, "ignored"):
        e.fail("armour", f"expected 'ignored' or nothing, got {armour!r}")
    stunned = None
    if e.opt("effect") is not None:
        ef = e.sub("effect")
        stunned = ef.req("stunned", StackFormula.parse)
        ef.done()
    heal = e.opt("heal", None, DiceExpr.parse)
    buff = None
    if e.opt("buff") is not None:
        b = e.sub("buff")
        buff = SpellBuff(b.req("name", str), b.integer("damage_shield", lo=0),
                         b.integer("duration_s", lo=1))
        b.done()
    e.done()
    return Spell(sid, school, actions, ee, rng, resolve, save, damage, dtype, rider,
                 armour == "ignored", stunned, heal, buff)


def _attributes(e: Entry) -> Attributes:
    """All eight attributes, null for no score (R43); the optional flags ``has_pe`` and
    ``has_me`` (spec §2.1) must agree with them."""
    a = e.sub("attributes")
    for k in C.ATTRIBUTES:
        a.req(k, what="an integer >= 0, or null for no score (R43)")
    values = {k: a.integer(k, lo=0) if a.opt(k) is not None else None for k in C.ATTRIBUTES}
    a.done()
    attrs = Attributes(**values)
    for flag, key, has in (("has_pe", "pe", attrs.has_pe), ("has_me", "me", attrs.has_me)):
        if e.opt(flag, has, bool) != has:
            e.fail(flag, f"disagrees with attributes.{key} "
                         f"({'a score' if has else 'null, no score'}, spec §2.1)")
    return attrs


def _bonuses(e: Entry, key: str, default: Bonuses) -> Bonuses:
    if e.opt(key) is None:
        return default
    b = e.sub(key)
    out = Bonuses(**{k: b.integer(k, getattr(default, k)) for k in C.BONUS_FIELDS})
    b.done()
    return out


def _number(e: Entry, key: str, default: int | None, lo: int, hi: int | None = None) -> int:
    """A field with a derived default (``None``: required, nothing to derive it from)."""
    if default is None:
        return e.integer(key, lo=lo, hi=hi)
    return e.integer(key, default, lo=lo, hi=hi)


def _pool(e: Entry, key: str, derived: int, has: bool, what: str) -> int:
    value = e.integer(key, derived, lo=0)
    if not has and value:
        e.fail(key, f"a being without {what} has none (spec §2.1, R43), got {value}")
    return value


def _ids(e: Entry, key: str, known: dict[str, Any], what: str) -> tuple[Any, ...]:
    out = []
    for item in e.items(key, []):
        if not isinstance(item, str) or item not in known:
            e.fail(key, f"unknown {what} {item!r}; known: {', '.join(known)}")
        out.append(known[item])
    return tuple(out)


def _resists(e: Entry) -> tuple[tuple[str, int], ...]:
    if e.opt("resist_pct") is None:
        return ()
    r = e.sub("resist_pct")
    for t in list(r.data):
        if t not in DAMAGE_TYPES:
            r.fail(str(t), f"unknown damage type; expected one of {', '.join(DAMAGE_TYPES)}")
    out = tuple((str(t), r.integer(str(t))) for t in r.data)
    r.done()
    return out


def parse_stat_block(data: Any, src: str, entry: str, bid: str, cat: Catalogue) -> StatBlock:
    """One stat block in the ``combatants:`` schema (spec §13.4; see the module docstring),
    checked against ``cat``'s weapons, armour, spells and defaults."""
    e = Entry(data, src, entry)
    name = e.opt("name", bid, str)
    height = e.opt("height_ft", C.parse_height(6), C.parse_height)  # spec §2.2 defaults:
    level = e.integer("level", 1, lo=1)  # 6 ft and level 1
    attrs = _attributes(e)
    pkg = C.PACKAGES[e.choice("package", C.PACKAGES)] if e.opt("package") is not None else None
    if pkg is not None and e.opt("training") is not None:
        e.fail("training", "a stat block has a package or a training, not both (spec §2.3)")
    training = _bonuses(e, "training", pkg.training if pkg else C.NO_BONUSES)
    derived = C.derive(attrs, level, training, pkg.name if pkg else None)
    actions = _number(e, "actions", pkg.actions if pkg else None, 1, C.MAX_ACTIONS)
    hp = _pool(e, "hp_base", derived.hp_base, attrs.has_pe, "P.E.")
    sdc = _number(e, "sdc_max", pkg.sdc if pkg else None, 0)
    stamina = _pool(e, "stamina_max", derived.stamina_max, attrs.has_pe, "P.E.")
    morale = _pool(e, "morale_max", derived.morale_max, attrs.has_me, "M.E.")
    ee, se, de = (e.integer("ee_max", derived.ee_max, lo=0), e.integer("se_max", 0, lo=0),
                  e.integer("de_max", 0, lo=0))
    final = _bonuses(e, "bonuses", derived.bonuses)
    d = cat.defaults
    crit_min = e.integer("crit_min", pkg.crit_min if pkg else d.crit_min, lo=1, hi=20)
    aid = e.opt("armor", "none", str)
    if aid not in cat.armour:
        e.fail("armor", f"unknown armour {aid!r}; known: {', '.join(cat.armour)}")
    weapons = _ids(e, "weapons", cat.weapons, "weapon")
    if len(set(weapons)) != len(weapons):
        e.fail("weapons", "a weapon is listed twice")
    spells = _ids(e, "spells", cat.spells, "spell")
    b = C.body(height, weapons, attrs.pm, actions)
    block = StatBlock(
        bid, name, height, level, attrs, pkg.name if pkg else None,
        final - C.attribute_bonuses(attrs), actions, hp, sdc, stamina, morale, ee, se, de,
        final, crit_min, e.integer("crit_bonus_pct", d.crit_bonus_pct, lo=0),
        e.integer("parry_mitigation_pct", d.parry_mitigation_pct, lo=0, hi=100),
        e.integer("dmg_mod_pct", 0), e.integer("end_mod_pct", 0), cat.armour[aid], weapons,
        e.choice("primary_hand", HANDS, "right"), spells,
        e.integer("perception_pct", d.perception_pct, lo=0), _resists(e),
        e.opt("immune_physical_effects", False, bool), b.radii, b.weapon_slots, b.zoc_band,
        b.zoc_radius, b.full_move_ft, b.step_budget)
    e.done()
    return block


def _pool_max(block: StatBlock, pool: str) -> int | None:
    return {"sdc": block.sdc_max, "hp": block.hp_max, "stamina": block.stamina_max,
            "morale": block.morale_max, "ee": block.ee_max, "se": block.se_max,
            "de": block.de_max, "armor_sdc": block.armor.sdc}.get(pool)


def _overrides(e: Entry, members: dict[str, Member]) -> tuple[tuple[str, str, int], ...]:
    out = []
    so = e.sub("start_overrides", {}) if e.opt("start_overrides") is not None \
        else Entry({}, e.source, f"{e.entry}.start_overrides")
    for mid in list(so.data):
        if mid not in members:
            so.fail(str(mid), f"unknown combatant; known: {', '.join(members)}")
        o = so.sub(str(mid))
        for pool in list(o.data):
            if pool not in START_POOLS:
                o.fail(str(pool), f"unknown pool; expected one of {', '.join(START_POOLS)}")
            top = _pool_max(members[mid].block, str(pool))
            lo = None if pool in ("hp", "morale") else 0  # may be negative (spec §1.4.2)
            out.append((str(mid), str(pool), o.integer(str(pool), lo=lo, hi=top)))
        o.done()
    so.done()
    return tuple(out)


def parse_encounter(eid: str, data: Any, src: str, entry: str,
                    blocks: dict[str, StatBlock]) -> EncounterSpec:
    """One encounter (spec §3.6, §13.3): ``arena_length`` (200), ``max_rounds`` (20),
    ``ambush`` (null or ``{side: S}``), ``sides`` (side -> members ``{id, template, x}``; x
    defaults to 80 on side A and 120 on side B, spec §3.2), ``start_overrides``."""
    e = Entry(data, src, entry)
    e.opt("id", eid, str)  # the §3.6 scenario repeats its id inside
    length = e.integer("arena_length", DEFAULT_ARENA_LENGTH, lo=1)
    max_rounds = e.integer("max_rounds", 20, lo=1)
    sides_e = e.sub("sides")
    names = [str(s) for s in sides_e.data]
    if len(names) < 2:
        e.fail("sides", "an encounter needs at least two sides (spec §3.1)")
    ambush = None
    if e.opt("ambush") is not None:
        a = e.sub("ambush")
        ambush = a.choice("side", names)
        a.done()
    members: dict[str, Member] = {}
    sides = []
    for side in names:
        listed = sides_e.items(side)
        if not listed:
            sides_e.fail(side, "a side needs at least one combatant (spec §3.1)")
        for i, raw in enumerate(listed):
            p = Entry(raw, src, f"{entry}.sides.{side}[{i}]")
            mid, tid = p.req("id", str), p.req("template", str)
            if mid in members:
                p.fail("id", f"two combatants have the id {mid!r}")
            if tid not in blocks:
                p.fail("template", f"unknown combatant {tid!r}; known: {', '.join(blocks)}")
            start = DEFAULT_START.get(side)
            x = p.integer("x", lo=0, hi=length) if start is None or p.has("x") \
                else min(start, length)
            p.done()
            members[mid] = Member(mid, blocks[tid], side, x)
        sides.append(SideSpec(side, tuple(m for m in members.values() if m.side == side)))
    sides_e.done()
    spec = EncounterSpec(eid, length, max_rounds, ambush, tuple(sides), _overrides(e, members))
    e.done()
    return spec


def load_catalogue(path: str | Path) -> Catalogue:
    """Read and check a catalogue file in the §13.4 format (see the module docstring)."""
    src = str(path)
    root = Entry(load_yaml(path), src, "catalogue")

    def section(key: str, required: bool = True) -> Entry:
        return Entry(root.req(key) if required else root.opt(key, {}), src, key)

    w = section("weapons")
    weapons = {str(k): parse_weapon(str(k), v, src) for k, v in w.data.items()}
    if "unarmed" not in weapons:
        w.fail("unarmed", "missing (every combatant can always use it, R45)")
    a = section("armor")
    armour = {str(k): parse_armour(str(k), v, src) for k, v in a.data.items()}
    if "none" not in armour:
        a.fail("none", "missing (the armour of an unarmoured combatant, spec §2.7)")
    spells = {str(k): parse_spell(str(k), v, src)
              for k, v in section("spells", False).data.items()}
    d = section("defaults", False)
    defaults = Defaults(d.integer("parry_mitigation_pct", C.PARRY_MITIGATION_PCT, lo=0, hi=100),
                        d.integer("crit_bonus_pct", C.CRIT_BONUS_PCT, lo=0),
                        d.integer("crit_min", C.CRIT_MIN, lo=1, hi=20),
                        d.integer("perception_pct", C.PERCEPTION_PCT, lo=0))
    d.done()
    cat = Catalogue(weapons, armour, spells, defaults, {}, {})
    for k, v in section("combatants").data.items():
        cat.stat_blocks[str(k)] = parse_stat_block(v, src, f"combatants.{k}", str(k), cat)
    for k, v in section("encounters", False).data.items():
        cat.encounters[str(k)] = parse_encounter(str(k), v, src, f"encounters.{k}",
                                                 cat.stat_blocks)
    root.done()
    return cat


@cache
def catalogue() -> Catalogue:
    """The shipped catalogue (``data/catalogue.yaml``), loaded once."""
    return load_catalogue(DATA / "catalogue.yaml")


def stat_blocks() -> dict[str, StatBlock]:
    """The shipped stat blocks by id (spec §13.2)."""
    return catalogue().stat_blocks


def encounters() -> dict[str, EncounterSpec]:
    """The shipped encounter presets by id (spec §13.3)."""
    return catalogue().encounters


def stat_block_from_mapping(data: Any, source: str, entry: str, block_id: str | None = None,
                            cat: Catalogue | None = None) -> StatBlock:
    """One stat block from an inline mapping in the ``combatants:`` schema (a situation's own
    creature), checked as the catalogue's are, against ``cat``'s weapons, armour, spells and
    defaults (the shipped catalogue by default). Its id is ``block_id``, else the last part of
    ``entry``."""
    cat = catalogue() if cat is None else cat
    return parse_stat_block(data, source, entry, block_id or entry.rsplit(".", 1)[-1], cat)


def encounter_from_mapping(data: Any, source: str, entry: str, encounter_id: str | None = None,
                           blocks: dict[str, StatBlock] | None = None) -> EncounterSpec:
    """One encounter from an inline mapping in the ``encounters:`` schema (spec §3.6), its
    templates looked up in ``blocks`` (the shipped stat blocks by default)."""
    eid = encounter_id or entry.rsplit(".", 1)[-1]
    return parse_encounter(eid, data, source, entry, stat_blocks() if blocks is None else blocks)
