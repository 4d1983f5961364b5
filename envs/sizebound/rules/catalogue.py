"""Sizebound data: weapons, armour, skills, stat blocks and encounters (spec §2.5, §5.3, §13).

Loaded once from ``envs/sizebound/data/catalogue.yaml``, in the loader format of spec §13.4 (its
``encounters:`` section holds the encounters of §13.3, in the same style). Bad data fails with one
``DataError`` line naming the file, the entry and the field. The records (``Weapon``,
``StatBlock``, ``EncounterSpec``...) live in ``sheet.py`` and are re-exported here; the derived
numbers of a stat block come from ``content.py``, and the file's ``expected_derived`` section is
checked against them on load.

Validation (spec §2.2, §2.4, §2.7, §3.3, R-29, R-55, R-64): level 1..30; Totals reachable from
10/12/14 and the level's stat bonuses; scaling improvements as many as the level grants; hands
enough for the wielded weapons; at most two Immunities beyond those of the creature type,
Arcane and Tertiary types; every placement on the map, off walls, within cell capacity.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from envs.core.data import DataError, Entry, load_yaml
from envs.core.squaregrid import Cell

from . import content as C
from . import rulings
from .geometry import placement_problem
from .sheet import (
    ACTION_LETTERS,
    AREA_SHAPES,
    CRIT_LOWEST,
    DAMAGE_ROLL_MODES,
    DAMAGE_TYPES,
    DATA,
    DERIVED_KEYS,
    EXERTION_POOLS,
    HAND_SLOTS,
    MAX_EXTRA_IMMUNITIES,
    RESOLVES,
    SKILL_STATS,
    TAG_IMMUNITIES,
    TAGS,
    TERTIARY_TYPES,
    WEAPON_STATS,
    Area,
    Armour,
    Catalogue,
    ConditionEffect,
    DamageMods,
    Defaults,
    EncounterSpec,
    Loadout,
    Placement,
    Roll,
    SideSpec,
    Skill,
    StatBlock,
    Weapon,
)

__all__ = [
    "DATA", "WEAPON_STATS", "SKILL_STATS", "DAMAGE_TYPES", "TERTIARY_TYPES", "TAGS",
    "HAND_SLOTS", "EXERTION_POOLS", "DAMAGE_ROLL_MODES", "ACTION_LETTERS", "DERIVED_KEYS",
    "Roll", "Weapon", "Armour", "Area", "ConditionEffect", "Skill", "DamageMods", "Loadout",
    "Defaults", "StatBlock", "Placement", "SideSpec", "EncounterSpec", "Catalogue",
    "load_catalogue", "catalogue", "stat_blocks", "encounters", "stat_block_from_mapping",
    "parse_weapon",
]


def _types(e: Entry, key: str, default: Any = (), source: bool = False) -> tuple[str, ...]:
    """Damage type names; a ``source``'s (a weapon's or a skill's ``dtype``) are at most 2, or 3
    with at least one Tertiary among them (spec §8.2 D1)."""
    values = e.items(key, default)
    for v in values:
        if v not in DAMAGE_TYPES:
            e.fail(key, f"unknown damage type {v!r}; known: {', '.join(DAMAGE_TYPES)}")
    if source and (len(values) > 3 or (len(values) == 3
                                       and not any(v in rulings.TERTIARY for v in values))):
        e.fail(key, f"{len(values)} damage types; a source has at most 2, or 3 when one of them "
                    "is Tertiary (spec §8.2 D1)")
    return tuple(values)


def _crit(e: Entry, default: Any = ()) -> frozenset[int]:
    faces = e.items("crit", default)
    lows = ", ".join(f"{lo}-20" for lo in CRIT_LOWEST)
    if faces and (not all(isinstance(f, int) and not isinstance(f, bool) for f in faces)
                  or sorted(faces) != list(range(min(faces), 21))
                  or min(faces) not in CRIT_LOWEST):
        e.fail("crit", f"expected [] (never) or the faces of one of {lows}, got {faces!r}")
    return frozenset(faces)


def _range(e: Entry, key: str) -> int | None:
    return e.integer(key, None, lo=0)


def parse_weapon(wid: str, data: Any, src: str) -> Weapon:
    """One weapon of the ``weapons:`` section (spec §2.5)."""
    e = Entry(data, src, f"weapons.{wid}")
    reach, thrown, rng = _range(e, "reach"), _range(e, "thrown"), _range(e, "range")
    if (reach is None) == (rng is None):
        e.fail("reach", "a weapon has either a melee reach or a ranged range (spec §2.5)")
    if thrown is not None and reach is None:
        e.fail("thrown", "only a melee weapon (with a reach) has a thrown range")
    w = Weapon(wid, e.opt("name", wid, str), e.req("type", str), e.integer("hands", lo=0, hi=2),
               e.req("dice", Roll.parse), e.choice("stat", WEAPON_STATS),
               _types(e, "dtype", source=True), reach, thrown, rng,
               e.integer("weapon_attacks", 0, lo=0),
               e.integer("guard", 0, lo=0), _crit(e, [20]), e.opt("natural", False, bool))
    if not w.dtype:
        e.fail("dtype", "a weapon deals at least one damage type")
    if w.natural and w.hands:
        e.fail("hands", "a natural weapon uses no hands (spec §2.5)")
    e.done()
    return w


def parse_armour(aid: str, data: Any, src: str) -> Armour:
    e = Entry(data, src, f"armour.{aid}")
    a = Armour(aid, e.integer("guard_bonus", lo=0), e.integer("dodge_bonus"))
    e.done()
    return a


def _effect(e: Entry, key: str) -> ConditionEffect | None:
    if not e.has(key):
        e.opt(key)
        return None
    s = e.sub(key)
    eff = ConditionEffect(s.req("condition", str), s.integer("value", None),
                          s.opt("duration", None, str), s.integer("duration_rounds", None, lo=1))
    s.done()
    return eff


def parse_skill(sid: str, data: Any, src: str) -> Skill:
    """One skill of the ``skills:`` section (spec §5.3)."""
    e = Entry(data, src, f"skills.{sid}")
    cost = e.sub("cost", {})
    actions = cost.items("actions", [])
    for a in actions:
        if a not in ACTION_LETTERS:
            cost.fail("actions", f"unknown action {a!r}; expected {', '.join(ACTION_LETTERS)}")
    attacks, conc = cost.integer("attacks", 0, lo=0), cost.opt("concentration", False, bool)
    if conc and sid != rulings.AURA:  # spec §9.4: the pack's one Concentration skill
        cost.fail("concentration", "only Arcane Aura's Concentration is in the engine (its upkeep "
                                   "and end-of-turn effect, spec §5.3, §9.4); another skill's has "
                                   "no lasting effect to keep")
    cost.done()
    area = None
    if e.has("area"):
        a = e.sub("area")
        shape = a.choice("shape", AREA_SHAPES)
        if a.has("width") and shape != "line":
            a.fail("width", f"only a line has a width (spec §8.7), not {shape!r}")
        area = Area(shape, a.integer("size", lo=0), a.integer("width", 1, lo=1))
        a.done()
    size_min = e.opt("requires_size_at_least", None, C.size)
    dice = e.opt("dice", None, Roll.parse)
    skill = Skill(
        sid, e.req("magical", bool), attacks, tuple(actions), conc, e.integer("mana", 0, lo=0),
        e.choice("resolve", RESOLVES, "automatic"), _range(e, "range"),
        e.opt("self_ok", False, bool), area, _range(e, "radius"), dice,
        e.choice("stat", SKILL_STATS, "none"), _types(e, "dtype", source=True), _crit(e),
        e.opt("excludes_self", False, bool), e.opt("enemies_only", False, bool), size_min,
        e.opt("requires_hearing", False, bool), e.integer("uses_per_encounter", None, lo=1),
        _effect(e, "on_damage"), _effect(e, "apply"))
    if not attacks and not actions:
        e.fail("cost", "a skill costs attacks or actions (spec §5.3)")
    e.done()
    return skill


def _weapon_ref(e: Entry, key: str, wid: Any, weapons: dict[str, Weapon],
                natural: bool) -> Weapon:
    w = weapons.get(wid) if isinstance(wid, str) else None
    if w is None or w.natural != natural:
        kind = "natural weapon" if natural else "weapon"
        known = ", ".join(k for k, v in weapons.items() if v.natural == natural)
        e.fail(key, f"unknown {kind} {wid!r}; known: {known}")
    assert w is not None
    return w


def _loadout(e: Entry, key: str, weapons: dict[str, Weapon], hands: int,
             default: Any = None) -> Loadout:
    raw = e.opt(key, {} if default is None else default)
    if isinstance(raw, dict):  # YAML 1.1 reads an unquoted ``off`` key as false (§13.4)
        raw = {("off" if k is False else k): v for k, v in raw.items()}
    s = Entry(raw, e.source, f"{e.entry}.{key}")
    held = {}
    for slot in list(s.data):
        if slot not in HAND_SLOTS:
            s.fail(str(slot), f"unknown hand slot; expected one of {', '.join(HAND_SLOTS)}")
        w = _weapon_ref(s, slot, s.req(slot), weapons, natural=False)
        if (w.hands == 2) != (slot == "both"):
            s.fail(slot, f"{w.id} takes {w.hands} hand(s): a two-handed weapon goes in 'both', "
                         "a one-handed one in 'main' or 'off'")
        held[slot] = w
    s.done()
    out = Loadout(held.get("main"), held.get("off"), held.get("both"))
    if out.both and (out.main or out.off):
        e.fail(key, "a weapon in both hands leaves no hand for 'main' or 'off'")
    if out.hands_used > hands:
        e.fail(key, f"the weapons need {out.hands_used} hands, the creature has {hands}")
    return out


def _damage_mods(e: Entry, tags: frozenset[str]) -> DamageMods:
    s = e.sub("damage_mods", {})
    absorb_e = s.sub("absorb", {})
    absorb = []
    for t in list(absorb_e.data):
        if t not in DAMAGE_TYPES:
            absorb_e.fail(str(t), f"unknown damage type; known: {', '.join(DAMAGE_TYPES)}")
        absorb.append((str(t), absorb_e.integer(str(t), lo=1, hi=100)))
    absorb_e.done()
    mods = DamageMods(frozenset(_types(s, "resist")), frozenset(_types(s, "vulnerable")),
                      frozenset(_types(s, "immune")), tuple(absorb))
    s.done()
    given = set().union(*(TAG_IMMUNITIES.get(t, set()) for t in tags))
    extra = sorted(mods.immune - given - TERTIARY_TYPES - {"Arcane"})
    if len(extra) > MAX_EXTRA_IMMUNITIES:
        s.fail("immune", f"at most {MAX_EXTRA_IMMUNITIES} Immunities beyond the creature "
                         f"type's, Arcane and Tertiary ones (spec §2.7), got {', '.join(extra)}")
    return mods


def parse_stat_block(data: Any, src: str, entry: str, bid: str, weapons: dict[str, Weapon],
                     armour: dict[str, Armour], skills: dict[str, Skill],
                     defaults: Defaults) -> StatBlock:
    """One stat block in the ``combatants:`` schema (spec §13.4), checked (module docstring).

    Fields: ``name``, ``size``, ``level``, ``totals {might, skill, magic}``; optional
    ``scaling_improvements {hp, mana}`` (all to HP), ``armour`` (none), ``wielded`` and
    ``alternate_loadout`` ``{main, off | both}``, ``stowed``, ``natural_weapons``, ``skills``,
    ``tags``, ``damage_mods {resist, vulnerable, immune, absorb {type: pct}}``,
    ``exertion_pool`` (player | host), ``damage_roll_mode`` (roll | average, R-61), and
    ``attacks``, ``walk``, ``hands``, ``mana_scaling`` (the base, before improvements) from
    ``defaults``."""
    e = Entry(data, src, entry)
    name = e.req("name", str)
    size = e.opt("size", C.size("Medium"), C.size)  # spec §2.3: Medium, level 1 by default
    level = e.opt("level", 1, C.check_level)
    t = e.sub("totals")
    totals = (t.integer("might"), t.integer("skill"), t.integer("magic"))
    t.done()
    if not C.totals_reachable(totals, level):
        e.fail("totals", f"might {totals[0]}, skill {totals[1]}, magic {totals[2]} cannot come "
                         f"from 10/12/14 and the stat bonuses of levels 1..{level} "
                         "(spec §2.2, §2.4, R-64)")
    grant = C.scaling_improvements(level)
    s = e.sub("scaling_improvements", {"hp": grant})
    hp_imp, mana_imp = s.integer("hp", 0, lo=0), s.integer("mana", 0, lo=0)
    s.done()
    if hp_imp + mana_imp != grant:
        e.fail("scaling_improvements", f"hp + mana must be {grant}, the improvements level "
                                        f"{level} grants (spec §2.3), got {hp_imp + mana_imp}")
    hands = e.integer("hands", defaults.hands, lo=0)
    aid = e.opt("armour", "none", str)
    if aid not in armour:
        e.fail("armour", f"unknown armour {aid!r}; known: {', '.join(armour)}")
    wielded = _loadout(e, "wielded", weapons, hands)
    stowed = tuple(_weapon_ref(e, "stowed", w, weapons, False) for w in e.items("stowed", []))
    alternate = _loadout(e, "alternate_loadout", weapons, hands) \
        if e.has("alternate_loadout") else e.opt("alternate_loadout")
    if alternate is not None:
        carried = set(wielded.weapons) | set(stowed)
        for w in alternate.weapons:
            if w not in carried:
                e.fail("alternate_loadout", f"{w.id} is neither wielded nor stowed")
    natural = tuple(_weapon_ref(e, "natural_weapons", w, weapons, True)
                    for w in e.items("natural_weapons", []))
    known = []
    for sid in e.items("skills", []):
        if sid not in skills:
            e.fail("skills", f"unknown skill {sid!r}; known: {', '.join(skills)}")
        need = skills[sid].requires_size_at_least
        if need is not None and size.index < need.index:
            e.fail("skills", f"{sid} needs a creature of size {need.name} or larger "
                             f"(spec §5.3), this one is {size.name}")
        known.append(skills[sid])
    tags = e.items("tags", [])
    for tag in tags:
        if tag not in TAGS:
            e.fail("tags", f"unknown tag {tag!r}; known: {', '.join(TAGS)}")
    block = StatBlock(
        bid, name, size, level, *totals, hp_imp, mana_imp, armour[aid], wielded, stowed,
        natural, alternate, tuple(known), frozenset(tags),
        _damage_mods(e, frozenset(tags)), e.choice("exertion_pool", EXERTION_POOLS,
                                                              "player"),
        e.choice("damage_roll_mode", DAMAGE_ROLL_MODES, "roll"),
        e.integer("attacks", defaults.attacks, lo=0), e.integer("walk", defaults.walk, lo=0),
        hands, e.integer("mana_scaling", defaults.mana_scaling, lo=0))
    e.done()
    return block


def _cells(e: Entry, key: str, w: int, h: int) -> frozenset[Cell]:
    """Cells ``[x, y]`` or inclusive rectangles ``[x1, y1, x2, y2]`` on a w x h map."""
    out: set[Cell] = set()
    for item in e.items(key, []):
        ok = isinstance(item, list) and len(item) in (2, 4) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in item)
        if not ok:
            e.fail(key, f"expected [x, y] or [x1, y1, x2, y2], got {item!r}")
        x1, y1, x2, y2 = item if len(item) == 4 else item * 2
        if not (0 <= x1 <= x2 < w and 0 <= y1 <= y2 < h):
            e.fail(key, f"{item!r} is not inside the {w} x {h} map (x1 <= x2, y1 <= y2)")
        out.update((x, y) for x in range(x1, x2 + 1) for y in range(y1, y2 + 1))
    return frozenset(out)


def parse_encounter(eid: str, data: Any, src: str,
                    blocks: dict[str, StatBlock]) -> EncounterSpec:
    """One encounter of the ``encounters:`` section (spec §3, §13.3)."""
    e = Entry(data, src, f"encounters.{eid}")
    m = e.sub("map", {})
    w, h = m.integer("w", 16, lo=1), m.integer("h", 16, lo=1)  # §3.2: default 16 x 16
    walls, rough = _cells(m, "walls", w, h), _cells(m, "difficult", w, h)
    m.done()
    sides_e = e.sub("sides")
    names = [str(s) for s in sides_e.data]
    if len(names) < 2:
        e.fail("sides", "an encounter needs at least two sides (spec §3.1)")
    order = e.items("side_order", names)
    if sorted(map(str, order)) != sorted(names):
        e.fail("side_order", f"expected each side once ({', '.join(names)}), got {order!r}")
    first = e.choice("first_side", names, str(order[0]))
    order = [first] + [str(s) for s in order if s != first]
    seen: dict[str, int] = {}
    members: dict[str, list[Placement]] = {}
    where: dict[str, str] = {}
    for side in names:
        listed = sides_e.items(side)
        if not listed:
            sides_e.fail(side, "a side needs at least one combatant")
        members[side] = []
        for i, raw in enumerate(listed):
            p = Entry(raw, src, f"encounters.{eid}.sides.{side}[{i}]")
            bid = p.req("id", str)
            if bid not in blocks:
                p.fail("id", f"unknown combatant {bid!r}; known: {', '.join(blocks)}")
            at = p.req("at", list)
            if len(at) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                       for v in at):
                p.fail("at", f"expected an anchor [x, y], got {at!r}")
            seen[bid] = seen.get(bid, 0) + 1
            pid = p.opt("name", bid if seen[bid] == 1 else f"{bid}_{seen[bid]}", str)
            if pid in where:
                p.fail("name", f"two combatants are named {pid!r}")
            p.done()
            where[pid] = p.entry
            members[side].append(Placement(pid, blocks[bid], side, (at[0], at[1])))
    sides_e.done()
    spec = EncounterSpec(eid, tuple(SideSpec(s, tuple(members[s])) for s in order), w, h,
                         walls, rough, first)
    problem = placement_problem(spec.grid(), (p.body for p in spec.placements))
    if problem is not None:
        raise DataError(f"{src}: {where[problem[0]]}: field 'at': {problem[1]}")
    e.done()
    return spec


def _section(root: Entry, key: str, required: bool = False) -> Entry:
    """A top-level section, named by its key alone in messages (``weapons.dagger``)."""
    return Entry(root.req(key) if required else root.opt(key, {}), root.source, key)


def load_catalogue(path: str | Path) -> Catalogue:
    """Read and check a catalogue file in the §13.4 format (see the module docstring)."""
    src = str(path)
    root = Entry(load_yaml(path), src, "catalogue")
    root.choice("system", ["sizebound"])
    d = _section(root, "defaults")
    defaults = Defaults(d.integer("walk", 5, lo=0), d.integer("attacks", 1, lo=0),
                        d.integer("mana_scaling", 6, lo=0), d.integer("hands", 2, lo=0))
    d.done()
    weapons = {str(k): parse_weapon(str(k), v, src)
               for k, v in _section(root, "weapons", True).data.items()}
    armour_e = _section(root, "armour", True)
    armour = {str(k): parse_armour(str(k), v, src) for k, v in armour_e.data.items()}
    if "none" not in armour:
        armour_e.fail("none", "missing (the armour of an unarmoured creature, spec §2.5)")
    skills = {str(k): parse_skill(str(k), v, src)
              for k, v in _section(root, "skills").data.items()}
    blocks = {str(k): parse_stat_block(v, src, f"combatants.{k}", str(k), weapons, armour,
                                       skills, defaults)
              for k, v in _section(root, "combatants", True).data.items()}
    _check_expected(root, blocks)
    encs = {str(k): parse_encounter(str(k), v, src, blocks)
            for k, v in _section(root, "encounters").data.items()}
    root.done()
    return Catalogue(weapons, armour, skills, blocks, encs, defaults)


def _check_expected(root: Entry, blocks: dict[str, StatBlock]) -> None:
    """The ``expected_derived`` self-check: each listed value must equal the block's (§13.4)."""
    exp = _section(root, "expected_derived")
    for bid in list(exp.data):
        e = exp.sub(str(bid))
        if bid not in blocks:
            exp.fail(str(bid), f"unknown combatant; known: {', '.join(blocks)}")
        for key in list(e.data):
            if key not in DERIVED_KEYS:
                e.fail(str(key), f"unknown derived value; known: {', '.join(DERIVED_KEYS)}")
            want = e.integer(str(key))
            got = getattr(blocks[bid], DERIVED_KEYS[key])
            if got != want:
                e.fail(str(key), f"the stat block gives {got}, the file expects {want}")
        e.done()
    exp.done()


@cache
def catalogue() -> Catalogue:
    """The shipped catalogue (``data/catalogue.yaml``), loaded once."""
    return load_catalogue(DATA / "catalogue.yaml")


def stat_blocks() -> dict[str, StatBlock]:
    """The shipped stat blocks by id."""
    return catalogue().stat_blocks


def encounters() -> dict[str, EncounterSpec]:
    """The shipped encounters by id."""
    return catalogue().encounters


def stat_block_from_mapping(data: Any, source: str, entry: str, block_id: str | None = None,
                            cat: Catalogue | None = None) -> StatBlock:
    """One stat block from an inline mapping in the catalogue's schema (a situation's own
    creature), checked as the catalogue's are, with the catalogue's weapons, armour, skills and
    defaults (``cat``, the shipped one by default). The id is ``block_id``, else the mapping's
    ``id``, else the last part of ``entry``; ``name`` defaults to the id."""
    cat = catalogue() if cat is None else cat
    bid = block_id or entry.rsplit(".", 1)[-1]
    if isinstance(data, dict):
        bid = block_id or str(data.get("id") or bid)
        data = {"name": bid, **{k: v for k, v in data.items() if k != "id"}}
    return parse_stat_block(data, source, entry, bid, cat.weapons, cat.armour, cat.skills,
                            cat.defaults)
