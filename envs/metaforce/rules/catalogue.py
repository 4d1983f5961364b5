"""Metaforce data: weapons, armour, spells, stat blocks and encounter presets (spec §2, §13).

Loaded from ``envs/metaforce/data/catalogue.yaml`` in the loader format of spec §13.5 (lists of
entries with an ``id``), plus three reference sections in the same style: ``weapons:`` (the §2.7
table), ``armour:`` (§2.8) and ``spells:`` (the §13.4 templates). Bad data fails with one
``DataError`` line naming the file, the entry and the field.

Every derived number a stat block lists (``cores``, ``hp_max``, ``evasion``... , §13.5 "so that
loaders can check their own calculations") is recomputed with ``content.py`` under the default
§12.1 parameters and must match; so must each weapon's ``tohit`` (Attribute flat + covering
Metaphor rank + ``equipment``) and ``magnitude_bonus`` (Metaphor rank + magnitude components),
the listed saves (the eligible ones, §7.3), and a spell's fields against its §13.4 template.
The records (``records.py``, ``sheet.py``), the gear readers (``gear.py``) and the §2.11
building checker (``building.py``) are re-exported here: import from this module.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from envs.core.data import DataError, Entry, load_yaml

from . import content as C
from .building import RACES, Build, CorePick, Race, build_character
from .gear import armour_field, immunities, keyed, parse_armour, parse_spell, parse_weapon
from .geometry import default_deployment, placement_problem
from .records import (
    DAMAGE_TYPES,
    DATA,
    FREE_MPOWERS,
    MPOWERS,
    RESISTANCE_KEYS,
    STATUSES,
    Armour,
    Defences,
    Penetration,
    Reload,
    SizeResistance,
    Spell,
    StatusDef,
    Weapon,
)
from .sheet import (
    Catalogue,
    Component,
    Derived,
    EncounterSpec,
    Grapple,
    Member,
    Metaphor,
    StatBlock,
)

__all__ = [
    "DATA", "DAMAGE_TYPES", "RESISTANCE_KEYS", "STATUSES", "StatusDef", "MPOWERS",
    "FREE_MPOWERS", "Weapon", "Reload", "Penetration", "Armour", "Spell", "Metaphor",
    "Component", "Defences", "SizeResistance", "Grapple", "Derived", "StatBlock", "Member",
    "EncounterSpec", "Catalogue", "load_catalogue", "catalogue", "stat_blocks", "encounters",
    "stat_block_from_mapping", "parse_weapon", "parse_spell", "parse_armour", "parse_stat_block",
    "parse_encounter", "RACES", "Race", "CorePick", "Build", "build_character",
]

_COMBAT_KINDS = ("combat", "status_defence", "noncombat")
_COMPONENT_ADDS = ("damage", "magnitude", "optimise", "tension", "other")


def _metaphor(data: Any, src: str, entry: str) -> Metaphor:
    m = Entry(data, src, entry)
    name, rank = m.req("name", str), m.integer("rank", lo=1)
    kind = m.choice("kind", _COMBAT_KINDS)
    comps = []
    for i, raw in enumerate(m.items("components", [])):
        c = Entry(raw, src, f"{entry}.components[{i}]")
        comps.append(Component(c.req("name", str), c.integer("rank", lo=1),
                               c.choice("adds", _COMPONENT_ADDS), c.opt("activity", None, str)))
        c.done()
    try:
        C.check_metaphor_components(rank, [c.rank for c in comps])
    except ValueError as err:
        m.fail("components", str(err))
    core = m.choice("core", C.CORES, None) if kind == "status_defence" else None
    if kind == "status_defence" and core is None:
        m.fail("core", "missing (the Status Defence a defensive Metaphor adds to, R-12)")
    out = Metaphor(name, rank, kind, tuple(map(str, m.items("covers", []))), tuple(comps), core,
                   m.integer("reaction_evasion_bonus", 0, lo=0),
                   m.choice("casting_attr", C.ATTRIBUTES, None),
                   m.opt("grants_firearm_proficiency", False, bool))
    m.done()
    return out


def _name(entry: str, key: str, i: int, item: Any) -> str:
    """``entry.weapons.revolver`` (or ``entry.weapons[1]`` while the id is missing)."""
    iid = item.get("id") if isinstance(item, dict) else None
    return f"{entry}.{key}.{iid}" if isinstance(iid, str) else f"{entry}.{key}[{i}]"


def _attrs(e: Entry, key: str) -> tuple[str, ...]:
    values = e.items(key, [])
    for v in values:
        if v not in C.ATTRIBUTES:
            e.fail(key, f"unknown attribute {v!r}; expected {', '.join(C.ATTRIBUTES)}")
    return tuple(values)


def parse_stat_block(data: Any, src: str, entry: str, cat: Catalogue | None = None) -> StatBlock:
    """One combatant in the §13.5 schema, checked (see the module docstring)."""
    armour_t = cat.armour if cat else {"none": Armour("none", 0, {}, False)}
    spells_t = cat.spells if cat else {}
    e = Entry(data, src, entry)
    bid = e.req("id", str)
    level = e.integer("level", lo=1)
    size = e.req("size", C.parse_size)
    mu = e.req("metaforce_user", bool)
    a = e.sub("attributes")
    attrs = {k: a.integer(k) for k in C.ATTRIBUTES}  # any integer (§2.1)
    a.done()
    metaphors = tuple(_metaphor(m, src, f"{entry}.metaphors[{i}]")
                      for i, m in enumerate(e.items("metaphors", [])))
    weapons = tuple(parse_weapon(w, src, _name(entry, "weapons", i, w))
                    for i, w in enumerate(e.items("weapons", [])))
    spells = tuple(parse_spell(s, src, _name(entry, "spells", i, s), spells_t)
                   for i, s in enumerate(e.items("spells", [])))
    for kind, group in (("weapon", weapons), ("spell", spells)):
        ids = [w.id for w in group]
        twice = [i for i in ids if ids.count(i) > 1]
        if twice:
            e.fail(kind + "s", f"two {kind}s share the id {twice[0]!r}")
    grapple = None
    if e.has("grapple"):
        g = e.sub("grapple")
        grapple = Grapple(g.choice("attr", C.ATTRIBUTES), g.integer("bonus"))
        g.done()
    mpowers = tuple(e.items("mpowers", []))
    for p in mpowers:
        if p not in MPOWERS:
            e.fail("mpowers", f"unknown M-Power {p!r}; known: {', '.join(MPOWERS)}")
    sr = None
    if e.has("size_resistance"):
        s = e.sub("size_resistance")
        sr = SizeResistance(s.integer("sources", 1, lo=0), s.integer("reduction", 0, lo=0))
        s.done()
    defences = Defences(keyed(e, "resistances", RESISTANCE_KEYS, half_ok=True),
                        immunities(e), keyed(e, "absorbs", RESISTANCE_KEYS),
                        keyed(e, "weaknesses", RESISTANCE_KEYS), sr)
    block = StatBlock(
        bid, e.opt("name", bid, str), e.opt("race", None, str), level, size,
        e.req("protected", bool), mu, e.opt("aware", True, bool),
        e.integer("base_hp", C.DEFAULT_PARAMS.base_hp, lo=0),
        e.integer("hplv", C.DEFAULT_PARAMS.hplv, lo=0),
        e.integer("base_speed_ft", C.DEFAULT_PARAMS.base_speed_ft, lo=0), attrs,
        frozenset(_attrs(e, "proficient")), frozenset(_attrs(e, "expertise")),
        frozenset(_attrs(e, "expertise_take_average")), frozenset(_attrs(e, "level_bonus_on")),
        armour_field(e, armour_t), defences,
        tuple(map(str, e.items("advantage_on_saves_vs", []))), metaphors,
        tuple(map(str, e.items("saves", []))),
        tuple(map(str, e.items("save_features", []))), weapons, spells, grapple, mpowers,
        e.integer("deus_ex_uses", 0, lo=0), e.integer("force_fate_uses", 0, lo=0),
        _combos(e, [w.id for w in weapons] + [s.id for s in spells],
                {w.id: w.appendages for w in weapons}))
    _check_block(e, block)
    e.done()
    return block


def _combos(e: Entry, ids: list[str], limbs: dict[str, tuple[str, ...]]
            ) -> tuple[tuple[str, ...], ...]:
    """spec §4.4, R-25: ``frame_combos``, lists of two or more of the block's attack ids made in
    one frame (FULL). "An appendage can do only one thing at a time": no two attacks of a combo
    may name the same appendage (a weapon's ``appendages``; the tail swipe's tail, legs, arms)."""
    out = []
    for i, combo in enumerate(e.items("frame_combos", [])):
        if not isinstance(combo, list) or len(combo) < 2 or len(set(combo)) != len(combo):
            e.fail("frame_combos", f"entry {i}: expected a list of two or more different "
                                   f"attack ids, got {combo!r}")
        for wid in combo:
            if wid not in ids:
                e.fail("frame_combos", f"entry {i}: {wid!r} is none of the block's attacks "
                                       f"({', '.join(ids) or 'none'})")
        busy: dict[str, str] = {}
        for wid in combo:
            for limb in limbs.get(wid, ()):
                if limb in busy:
                    e.fail("frame_combos", f"entry {i}: {busy[limb]!r} and {wid!r} both use the "
                                           f"{limb} (spec §4.4: one thing at a time)")
                busy[limb] = wid
        out.append(tuple(map(str, combo)))
    return tuple(out)


def _check_block(e: Entry, b: StatBlock) -> None:
    """The §13.5 self-checks of one block (module docstring)."""
    for core in b.saves:
        if core not in C.CORES:
            e.fail("saves", f"unknown save {core!r}; expected {', '.join(C.CORES)}")
    if set(b.saves) != set(b.eligible_saves()):
        e.fail("saves", f"lists {sorted(b.saves)}, but the eligible saves are "
                        f"{sorted(b.eligible_saves())} (proficiency or save_features, §7.3)")
    both = b.proficient & b.expertise
    if both:
        e.fail("expertise", f"{sorted(both)[0]!r} is listed as proficient and expert")
    if not b.metaforce_user and b.mpowers:
        e.fail("mpowers", "a combatant that is not a Metaforce user has no M-Powers (§6.4)")
    if len(b.mpowers) > C.mpower_slots(b.level):
        e.fail("mpowers", f"{len(b.mpowers)} M-Powers but level {b.level} has "
                          f"{C.mpower_slots(b.level)} slot(s) (§2.5)")
    for w in b.weapons:
        we = Entry({}, e.source, f"{e.entry}.weapons.{w.id}")
        if w.tohit != b.expected_tohit(w):
            we.fail("tohit", f"{w.tohit}, but {w.attr.upper()} {b.attributes[w.attr]} + "
                             f"Metaphor {b.covering_rank(w.id)} + equipment {w.equipment} = "
                             f"{b.expected_tohit(w)} (§2.5)")
        if w.magnitude_bonus != b.expected_magnitude_bonus(w.id):
            we.fail("magnitude_bonus", f"{w.magnitude_bonus}, but the covering Metaphor gives "
                                       f"{b.expected_magnitude_bonus(w.id)} (§13.5)")
        mult = C.size_row(b.size).damage_mult
        if w.size_multiplier is not None and w.size_multiplier != mult:
            we.fail("size_multiplier", f"{w.size_multiplier} is not the Size {b.size} "
                                       f"multiplier {mult} (§2.9)")
    for sp in b.spells:
        se = Entry({}, e.source, f"{e.entry}.spells.{sp.id}")
        if sp.tohit is not None and sp.tohit != b.expected_spell_tohit():
            se.fail("tohit", f"{sp.tohit}, but the casting Attribute and the magic Metaphor "
                             f"give {b.expected_spell_tohit()} (§5.8)")
        if sp.damage_base is not None and \
                sp.magnitude_bonus != b.expected_magnitude_bonus("spells"):
            se.fail("magnitude_bonus", f"{sp.magnitude_bonus}, but the covering Metaphor gives "
                                       f"{b.expected_magnitude_bonus('spells')} (§13.5)")
    if b.grapple is not None and b.grapple.bonus != b.attributes[b.grapple.attr] + \
            b.covering_rank("grapple"):
        e.fail("grapple", f"bonus {b.grapple.bonus}, but {b.grapple.attr.upper()} + Metaphor "
                          f"give {b.attributes[b.grapple.attr] + b.covering_rank('grapple')}")
    d = b.derived
    for key, got in d.listed().items():
        if e.has(key):
            want = e.req(key)
            if want != got:
                e.fail(key, f"the file says {want!r}, the formulas give {got!r} (§2.5)")


def _grid(e: Entry) -> tuple[int, int]:
    g = e.items("grid", [16, 16])  # §3.2 default
    if len(g) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1
                              for v in g):
        e.fail("grid", f"expected [width, height] with both >= 1, got {g!r}")
    return g[0], g[1]


def parse_encounter(data: Any, src: str, entry: str,
                    blocks: dict[str, StatBlock]) -> EncounterSpec:
    """One preset (§3, §13.3): ``{id, teams: {team: [block ids]}, grid: [w, h],
    min_start_distance_ft (30), initiative_mode (direct), positions: {member: [x, y]}}``.
    Without ``positions`` every member gets the default deployment (§3.2); a repeated block id
    names its members ``bandit``, ``bandit_2``..."""
    e = Entry(data, src, entry)
    eid = e.req("id", str)
    w, h = _grid(e)
    gap = e.integer("min_start_distance_ft", 30, lo=0)
    mode = e.choice("initiative_mode", ["direct", "alternating"], "direct")
    t = e.sub("teams")
    teams = [str(k) for k in t.data]
    if len(teams) < 2:
        e.fail("teams", "an encounter needs at least two teams (§3.1)")
    seen: dict[str, int] = {}
    members: list[tuple[str, str, StatBlock]] = []
    for team in teams:
        ids = t.items(team)
        if not ids:
            t.fail(team, "a team needs at least one combatant")
        for bid in ids:
            if bid not in blocks:
                t.fail(team, f"unknown combatant {bid!r}; known: {', '.join(blocks)}")
            seen[bid] = seen.get(bid, 0) + 1
            members.append((bid if seen[bid] == 1 else f"{bid}_{seen[bid]}", team, blocks[bid]))
    t.done()
    p = e.sub("positions", {})
    names = [m[0] for m in members]
    for k in p.data:
        if k not in names:
            p.fail(str(k), f"no such member; members: {', '.join(names)}")
    if p.data and len(p.data) != len(members):
        p.fail(next(n for n in names if n not in p.data), "missing (give every member a "
                                                          "position, or none for §3.2 deployment)")
    if p.data:
        at = {}
        for n in names:
            v = p.req(n)
            if not (isinstance(v, list) and len(v) == 2 and all(
                    isinstance(c, int) and not isinstance(c, bool) for c in v)):
                p.fail(n, f"expected an anchor [x, y], got {v!r}")
            at[n] = (v[0], v[1])
    else:
        try:
            spots = default_deployment(w, h, [[C.space_squares(m[2].size) for m in members
                                               if m[1] == team] for team in teams], gap)
        except ValueError as err:
            e.fail("grid", str(err))
        it = {team: iter(spots[i]) for i, team in enumerate(teams)}
        at = {m[0]: next(it[m[1]]) for m in members}
    p.done()
    placed = tuple(Member(n, team, b, at[n]) for n, team, b in members)
    problem = placement_problem(w, h, [(m.name, m.anchor, C.space_squares(m.block.size))
                                       for m in placed])
    if problem is not None:
        p.fail(problem[0], problem[1])
    e.done()
    return EncounterSpec(eid, tuple(teams), placed, w, h, gap, mode)


def _section(root: Entry, key: str, required: bool = False) -> list[tuple[str, Any]]:
    """A top-level list section as ``(entry name, item)`` pairs, named ``key.<id>``."""
    items = root.items(key) if required else root.items(key, [])
    out, ids = [], set()
    for i, item in enumerate(items):
        iid = item.get("id") if isinstance(item, dict) else None
        name = f"{key}.{iid}" if isinstance(iid, str) else f"{key}[{i}]"
        if iid in ids:
            raise DataError(f"{root.source}: {name}: field 'id': a second entry with this id")
        ids.add(iid)
        out.append((name, item))
    return out


def load_catalogue(path: str | Path) -> Catalogue:
    """Read and check a catalogue file in the §13.5 format (see the module docstring)."""
    src = str(path)
    root = Entry(load_yaml(path), src, "catalogue")
    root.integer("schema_version", lo=1, hi=1)
    root.choice("system", ["metaforce"])
    weapons = {w.id: w for w in (parse_weapon(d, src, n, template=True)
                                 for n, d in _section(root, "weapons"))}
    armour = {"none": Armour("none", 0, {}, False)}
    for n, d in _section(root, "armour"):
        a = Entry(d, src, n)
        aid = a.req("id", str)
        armour[aid] = parse_armour({k: v for k, v in d.items() if k != "id"}, src, n)
    spells = {s.id: s for s in (parse_spell(d, src, n, template=True)
                                for n, d in _section(root, "spells"))}
    cat = Catalogue(weapons, armour, spells, {}, {})
    for n, d in _section(root, "combatants", True):
        b = parse_stat_block(d, src, n, cat)
        cat.stat_blocks[b.id] = b
    for n, d in _section(root, "encounters"):
        enc = parse_encounter(d, src, n, cat.stat_blocks)
        cat.encounters[enc.id] = enc
    root.done()
    return cat


@cache
def catalogue() -> Catalogue:
    """The shipped catalogue (``data/catalogue.yaml``), loaded once."""
    return load_catalogue(DATA / "catalogue.yaml")


def stat_blocks() -> dict[str, StatBlock]:
    """The shipped stat blocks by id."""
    return catalogue().stat_blocks


def encounters() -> dict[str, EncounterSpec]:
    """The shipped encounter presets by id."""
    return catalogue().encounters


def stat_block_from_mapping(data: Any, source: str, entry: str,
                            cat: Catalogue | None = None) -> StatBlock:
    """One stat block from an inline mapping in the §13.5 combatant schema (a situation's own
    creature), checked as the catalogue's are, with the catalogue's armour and spell templates
    (``cat``, the shipped one by default). The id defaults to the last part of ``entry``; the
    derived fields (``hp_max``...) are optional and checked when given."""
    cat = catalogue() if cat is None else cat
    if isinstance(data, dict) and "id" not in data:
        data = {"id": entry.rsplit(".", 1)[-1], **data}
    return parse_stat_block(data, source, entry, cat)
