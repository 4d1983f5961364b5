"""Mano a Mano data: body templates, items, combatants and encounters (spec §2, §13).

Loaded once from ``envs/mano_a_mano/data/catalogue.yaml``; bad data fails with a ``DataError``
naming the file, the entry and the field. The sheet model (``StatBlock``, ``Item``, ``Region``...
and their derived combat values, spec §2.3 and §2.6) lives in ``sheet.py``; its names are
re-exported here.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from envs.core.data import DataError, Entry, load_yaml

from . import rulings
from .records import (
    ABILITIES,
    CARRYING_CAPACITY,
    DATA,
    HELD_SLOTS,
    ITEM_KINDS,
    MOUNT_KINDS,
    QUALITIES,
    SHARPNESS,
    SPEEDS,
    SURPRISE_MODES,
    EncounterDef,
    Item,
    NaturalWeapon,
    Region,
    Template,
    WeaponStats,
    Worn,
)
from .sheet import Catalogue, StatBlock, block_memo

__all__ = [
    "DATA",
    "SHARPNESS",
    "ITEM_KINDS",
    "ABILITIES",
    "QUALITIES",
    "SPEEDS",
    "HELD_SLOTS",
    "SURPRISE_MODES",
    "MOUNT_KINDS",
    "CARRYING_CAPACITY",
    "NaturalWeapon",
    "Region",
    "Item",
    "Template",
    "Worn",
    "WeaponStats",
    "block_memo",
    "StatBlock",
    "EncounterDef",
    "Catalogue",
    "catalogue",
    "stat_blocks",
    "encounters",
    "load_catalogue",
    "parse_stat_block",
    "parse_item",
    "remember_source",
    "inline_source",
]


def _speed(e: Entry, key: str) -> Fraction:
    value = e.req(key, (int, float))
    speed = Fraction(value).limit_denominator(4)
    if speed not in SPEEDS:
        e.fail(key, f"expected one of 1/4, 1/2, 1, 2, 3, got {value!r}")
    return speed


def _abilities(e: Entry) -> dict[str, int]:
    sub = e.sub("abilities", {})
    out = {}
    for name in list(sub.data):
        if name not in ABILITIES:
            sub.fail(name, f"unknown ability; known: {', '.join(ABILITIES)}")
        out[name] = sub.integer(name, lo=0)
    sub.done()
    return out


def _qualities(e: Entry) -> frozenset[str]:
    qs = e.items("qualities", [])
    for q in qs:
        if q not in QUALITIES:
            e.fail("qualities", f"unknown quality {q!r}; known: {', '.join(QUALITIES)}")
    return frozenset(qs)


def _region(e: Entry) -> Region:
    cover = e.req("cover")
    if cover != "complete" and (
        isinstance(cover, bool) or not isinstance(cover, int) or not 1 <= cover <= 9
    ):
        e.fail("cover", f"expected 1..9 or complete, got {cover!r}")
    return Region(None if cover == "complete" else cover, e.integer("absorption", lo=1))


def _template(tid: str, data: Any, src: str) -> Template:
    e = Entry(data, src, f"templates.{tid}")
    weapons = []
    for i, raw in enumerate(e.items("natural_weapons", [])):
        w = Entry(raw, src, f"templates.{tid}.natural_weapons[{i}]")
        weapons.append(
            NaturalWeapon(
                w.req("name", str),
                w.req("hand", bool),
                w.integer("leverage", 0),
                w.integer("offense", 0, 0, 2),
                w.choice("sharpness", SHARPNESS, "blunt"),
                w.opt("unlisted", False, bool),
            )
        )
        w.done()
    armor = []
    for i, raw in enumerate(e.items("natural_armor", [])):
        a = Entry(raw, src, f"templates.{tid}.natural_armor[{i}]")
        a.opt("name", None, str)
        armor.append(_region(a))
        a.done()
    for key in ("length_type", "variability", "source", "swimming", "airspeed"):
        e.opt(key)
    t = Template(
        tid,
        e.req("mass_kg", (int, float)),
        e.req("length_m", (int, float)),
        e.integer("cp", lo=0),
        _speed(e, "speed"),
        e.integer("agility"),
        e.integer("strength", lo=0),
        e.integer("toughness", lo=0),
        e.integer("running", lo=0),
        _abilities(e),
        _qualities(e),
        tuple(weapons),
        tuple(armor),
    )
    e.done()
    return t


def _item(iid: str, data: Any, src: str) -> Item:
    e = Entry(data, src, f"items.{iid}")
    kind = e.choice("kind", ITEM_KINDS)
    shots = e.opt("shots", None, list)
    if shots is not None and (
        len(shots) != 2 or not all(isinstance(s, int) and s >= 0 for s in shots)
    ):
        e.fail("shots", f"expected [shots, reload turns], got {shots!r}")
    cover = None
    if kind == "armor":
        region = _region(e)
        cover = region.cover
    item = Item(
        iid,
        kind,
        e.integer("cp"),
        e.req("mass_kg", (int, float)),
        ability=e.choice("ability", ABILITIES, None) if kind != "armor" else None,
        heft=e.integer("heft", 0, lo=0),
        power=e.integer("power", 0, lo=0),
        sharpness=e.choice("sharpness", SHARPNESS, "blunt"),
        control=e.integer("control", 0, 0, 2),
        offense=e.integer("offense", 0, 0, 2),
        two_handed=e.opt("two_handed", False, bool),
        throwable=e.opt("throwable", False, bool),
        range_m=e.integer("range_m", 0, lo=0),
        shots=tuple(shots) if shots else None,
        hands_to_draw=e.integer("hands_to_draw", 0, 0, 2),
        cover=cover,
        absorption=e.integer("absorption", 0, lo=0) if kind == "armor" else 0,
        source=e.opt("source", "seed", str),
        reload=_reload(e, kind, shots),
    )
    e.done()
    return item


def _reload(e: Entry, kind: str, shots: list[int] | None) -> str | None:
    """A gun's ``reload``: clip or round, for reload times under MUZZLE_LOADER_TURNS (RULING
    R50)."""
    reload = e.choice("reload", rulings.GUN_RELOADS, None)
    if reload is not None and kind != "gun":
        e.fail("reload", "only a gun has a reload (spec §5.6)")
    if reload is not None and (shots is None or shots[1] >= rulings.MUZZLE_LOADER_TURNS):
        turns = rulings.MUZZLE_LOADER_TURNS
        e.fail(
            "reload",
            f"a gun with a reload time of {turns}+ turns is a muzzle-loader (RULING R50); "
            f"clip or round needs shots: [s, t] with t < {turns}",
        )
    if kind == "gun" and shots is not None and shots[0] < 1:
        e.fail("shots", f"a gun holds at least one shot, got {shots!r}")
    return reload


def _stat_block(
    data: Any, src: str, index: int | str, templates: dict[str, Template], items: dict[str, Item]
) -> StatBlock:
    e = Entry(data, src, f"combatants[{index}]" if isinstance(index, int) else index)
    cid = e.req("id", str)
    if isinstance(index, int):
        e.entry = f"combatants.{cid}"
    tid = e.req("template", str)
    if tid not in templates:
        e.fail("template", f"unknown template {tid!r}; known: {', '.join(templates)}")
    template = templates[tid]
    held_e = e.sub("held", {})
    held = {}
    for slot in list(held_e.data):
        if slot not in HELD_SLOTS:
            held_e.fail(slot, f"unknown hand; expected one of {', '.join(HELD_SLOTS)}")
        item = held_e.req(slot, str)
        if item not in items or items[item].kind == "armor":
            held_e.fail(
                slot,
                f"unknown weapon {item!r}; known: "
                + ", ".join(i for i in items if items[i].kind != "armor"),
            )
        held[slot] = item
    held_e.done()
    if "both" in held and len(held) > 1:
        e.fail("held", "an item held in both hands leaves no hand free for another")
    stowed = tuple(e.items("stowed", []))
    for item in stowed:
        if item not in items:
            e.fail("stowed", f"unknown item {item!r}")
    worn: list[Worn] = []
    for i, raw in enumerate(e.items("armor", [])):
        a = Entry(raw, src, f"{e.entry}.armor[{i}]")
        name = a.req("item", str)
        if name not in items or items[name].kind != "armor":
            a.fail("item", f"unknown armor {name!r}")
        base = items[name]
        cover = a.opt("cover", "complete" if base.cover is None else base.cover)
        fitted = Entry(
            {"cover": cover, "absorption": a.integer("absorption", base.absorption, lo=1)},
            src,
            a.entry,
        )
        inside = a.opt("inside", None, str)
        if inside is not None and inside not in [w.item for w in worn]:
            a.fail("inside", f"{inside!r} is not a piece worn (and listed) before {name!r}")
        worn.append(
            Worn(name, a.opt("mass_kg", base.mass_kg, (int, float)), _region(fitted), inside)
        )
        a.done()
    toughness = e.integer("toughness", lo=0)
    stamina = e.integer("stamina", 2 * toughness)
    if stamina != 2 * toughness:
        e.fail(
            "stamina",
            f"stamina is always 2 x toughness = {2 * toughness} (spec §2.1), got {stamina}",
        )
    block = StatBlock(
        cid,
        e.req("name", str),
        template,
        e.integer("cp", lo=0),
        e.req("mass_kg", (int, float)),
        _speed(e, "speed"),
        e.integer("agility"),
        e.integer("strength", lo=0),
        toughness,
        e.integer("running", lo=0),
        _abilities(e),
        template.qualities | _qualities(e),
        held,
        stowed,
        tuple(worn),
        e.opt("bow_drawn", False, bool),
        e.opt("source", "seed", str),
        items,
        mount=e.choice("mount", MOUNT_KINDS, None),
    )
    e.done()
    return block


def _encounter(data: Any, src: str, index: int, blocks: dict[str, StatBlock]) -> EncounterDef:
    e = Entry(data, src, f"encounters[{index}]")
    eid = e.req("id", str)
    e.entry = f"encounters.{eid}"
    sides_e = e.sub("sides")
    sides = {}
    for side in list(sides_e.data):
        members = sides_e.items(side)
        for m in members:
            if m not in blocks:
                sides_e.fail(side, f"unknown combatant {m!r}; known: {', '.join(blocks)}")
        if not members:
            sides_e.fail(side, "a side needs at least one combatant")
        sides[str(side)] = tuple(members)
    sides_e.done()
    if len(sides) < 2:
        e.fail("sides", "an encounter needs at least two sides")
    surprise = e.choice("surprise_mode", SURPRISE_MODES, "none")
    enc = EncounterDef(eid, sides, e.req("placement"), surprise, _mounted(e, sides, blocks))
    e.done()
    return enc


def _mounted(
    e: Entry, sides: dict[str, tuple[str, ...]], blocks: dict[str, StatBlock]
) -> dict[str, str]:
    """``mounted: {rider: mount}``: both on one side, the mount a war animal, each in one pair."""
    mounted = e.opt("mounted", {}, dict)
    side_of = {m: s for s, members in sides.items() for m in members}
    for rider, mount in mounted.items():
        if rider not in side_of or mount not in side_of or side_of[rider] != side_of[mount]:
            e.fail("mounted", f"{rider!r} and {mount!r} must both be on one side of the encounter")
        if blocks[mount].mount is None or blocks[rider].mount is not None:
            e.fail("mounted", f"{rider!r} cannot ride {mount!r}: the mount needs 'mount: war'")
    if len(set(mounted.values())) != len(mounted) or set(mounted) & set(mounted.values()):
        e.fail("mounted", "each mount carries one rider, and a rider is not a mount")
    return dict(mounted)


def parse_stat_block(
    data: Any, source: str, entry: str, block_id: str, items: dict[str, Item] | None = None
) -> StatBlock:
    """One stat block in the catalogue's schema, checked as the catalogue's are (a situation's
    inline combatant); ``id`` defaults to ``block_id``, ``name`` to the id, ``items`` to the
    catalogue's items."""
    cat = catalogue()
    if isinstance(data, dict):
        data = {"id": block_id, "name": block_id, **data}
    return _stat_block(data, source, entry, cat.templates, cat.items if items is None else items)


_SOURCES: dict[int, tuple[StatBlock, dict[str, Any]]] = {}
"""the data an inline stat block was read from, by the block's identity (the block kept alive)"""


def remember_source(block: StatBlock, data: dict[str, Any]) -> None:
    """Keep the plain data ``block`` was read from (a situation's inline combatant and its own
    items), so that a snapshot can carry the block (``inline_source``)."""
    if len(_SOURCES) > 4096:
        _SOURCES.clear()
    _SOURCES[id(block)] = (block, data)


def inline_source(block: StatBlock) -> dict[str, Any] | None:
    """``{"block": data, "items": {id: data}}`` of an inline stat block, ``None`` for others."""
    found = _SOURCES.get(id(block))
    return found[1] if found is not None and found[0] is block else None


def parse_item(item_id: str, data: Any, source: str) -> Item:
    """One item in the catalogue's schema (a situation's own ``items``), checked as the
    catalogue's are."""
    return _item(item_id, data, source)


def load_catalogue(path: str | Path) -> Catalogue:
    """Read and check a catalogue file (see the module docstring)."""
    src = str(path)
    root = Entry(load_yaml(path), src, "catalogue")
    templates = {tid: _template(tid, raw, src) for tid, raw in root.sub("templates").data.items()}
    items = {iid: _item(iid, raw, src) for iid, raw in root.sub("items").data.items()}
    blocks: dict[str, StatBlock] = {}
    for i, raw in enumerate(root.items("combatants")):
        block = _stat_block(raw, src, i, templates, items)
        if block.id in blocks:
            raise DataError(f"{src}: combatants.{block.id}: field 'id': duplicate id")
        blocks[block.id] = block
    encounters = {}
    for i, raw in enumerate(root.items("encounters")):
        enc = _encounter(raw, src, i, blocks)
        if enc.id in encounters:
            raise DataError(f"{src}: encounters.{enc.id}: field 'id': duplicate id")
        encounters[enc.id] = enc
    root.done()
    return Catalogue(templates, items, blocks, encounters)


@cache
def catalogue() -> Catalogue:
    """The shipped catalogue (``data/catalogue.yaml``), loaded once."""
    return load_catalogue(DATA / "catalogue.yaml")


def stat_blocks() -> dict[str, StatBlock]:
    return catalogue().stat_blocks


def encounters() -> dict[str, EncounterDef]:
    return catalogue().encounters
