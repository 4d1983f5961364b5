"""Metanoia data: Texture table, keyword catalogue, stat blocks and encounters (spec §2, §5.3, §13).

Everything here is frozen and loaded once from ``envs/metanoia/data/*.yaml``. Bad data fails with a
``DataError`` naming the file, the entry and the field. ``StatBlock.options`` derives the fixed,
ordered invocation options of a combatant (spec §2.4, RULING R6).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from envs.core.data import Entry, load_yaml

from . import rulings

DATA = Path(__file__).resolve().parent.parent / "data"
TEXTURES = ("rampant", "volatile", "tranquil")
FIELDS = ("I", "N", "C", "A", "-")
USES = ("Atk", "Cnd", "Arg", "Sup", "Rea", "Pas", "Sta")
STACK_CLAUSES = ("fuel", "none", "exploit_dice", "mend_rank", "remove")
REACHES = ("close", "far")
POLARITIES = ("shadow", "decay", "steel", "stone", "storm", "verdant", "will")  # RULING R30
HOSTILE_USES = frozenset({"Atk", "Cnd", "Arg"})


@dataclass(frozen=True, slots=True)
class KeywordDef:
    """One catalogue keyword (spec §5.3)."""

    name: str
    field: str  # I | N | C | A | -
    uses: frozenset[str]
    reach: str | None
    cost: int | str | None  # an int, "rank" (Counter: cost = rank [S]) or None (cannot be invoked)
    stacks: str

    @property
    def reactive_only(self) -> bool:
        """Reactive keywords ignore reach: they always reach the Actor they answer (R22)."""
        return self.uses == frozenset({"Rea"})

    def cost_at(self, rank: int) -> int:
        if self.cost == "rank":
            return rank
        return int(self.cost or 0)


@dataclass(frozen=True, slots=True)
class Catalogue:
    keywords: dict[str, KeywordDef]
    textures: dict[str, tuple[int, ...]]  # successes per face 1..6
    defaults: dict[str, int]


@cache
def catalogue() -> Catalogue:
    path = DATA / "catalogue.yaml"
    top = Entry(load_yaml(path), str(path), "catalogue")
    top.choice("system", ["metanoia"])
    top.integer("version", lo=1)
    d = top.sub("defaults")
    defaults = {
        "zones": d.integer("zones", lo=2),
        "round_limit": d.integer("round_limit", lo=1),
        "dice_cap": d.integer("dice_cap", lo=2),
        "stacks_cap": d.integer("stacks_cap", lo=0),
    }
    d.done()
    tex = top.sub("texture_table")
    textures = {}
    for name in TEXTURES:
        faces = tex.req(name, list)
        if len(faces) != 6 or not all(isinstance(f, int) and 0 <= f <= 3 for f in faces):
            tex.fail(name, "expected 6 success counts in 0..3")
        textures[name] = tuple(faces)
    tex.done()
    kws = top.sub("keywords")
    keywords = {}
    for name in kws.data:
        k = kws.sub(name)
        uses = k.req("use", list)
        for u in uses:
            if u not in USES:
                k.fail("use", f"unknown use {u!r}; expected {', '.join(USES)}")
        cost = k.opt("cost", None)
        if cost is not None and cost != "rank" and not (isinstance(cost, int) and cost >= 0):
            k.fail("cost", f"expected an integer >= 0 or 'rank', got {cost!r}")
        keywords[name] = KeywordDef(
            name=name,
            field=k.choice("field", FIELDS),
            uses=frozenset(uses),
            reach=k.choice("reach", REACHES, None),
            cost=cost,
            stacks=k.choice("stacks", STACK_CLAUSES, "none"),
        )
        k.done()
    top.done()
    return Catalogue(keywords, textures, defaults)


@dataclass(frozen=True, slots=True)
class Option:
    """One invocation option of a combatant (spec §2.4, RULING R6).

    ``name`` is the label word: ``deteriorating`` (ability), ``deteriorating@rot_blade`` (item
    alone), ``deteriorating+rot_blade`` (ability paired with the item).
    """

    name: str
    keyword: str
    rank: int
    polarity: str
    reach: str | None
    origin: str  # ability | item | pair
    cost: int
    item: str | None
    item_rank: int
    instrument: bool
    field: str
    uses: frozenset[str]
    stacks: str

    @property
    def reactive(self) -> bool:
        return "Rea" in self.uses

    @property
    def support(self) -> bool:
        return "Sup" in self.uses


@dataclass(frozen=True, slots=True)
class StatBlock:
    """A combatant's fixed statistics (spec §2.1)."""

    id: str
    name: str
    realm: int
    texture: str
    motive: int
    identity: int
    strain_max: int
    injury_slots: int
    conv_max: int | None  # None = mindless, cannot be Argued (RULING R4)
    polarity: str
    resistances: tuple[tuple[str, int], ...]
    stealthy: int
    options: tuple[Option, ...]
    source: dict[str, Any]  # the stat block as plain data (for snapshots)

    def resistance(self, polarity: str) -> int:
        for pol, rank in self.resistances:
            if pol == polarity:
                return rank
        return 0

    @property
    def reactive_options(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.reactive)


def parse_stat_block(data: Any, source: str, entry: str, block_id: str) -> StatBlock:
    """Read one stat block mapping; every problem names ``source``, ``entry`` and the field."""
    cat = catalogue()
    e = Entry(data, source, entry)
    e.opt("basis", "", str)
    name = e.opt("name", block_id, str)
    realm = e.integer("realm", lo=1)
    texture = e.choice("texture", TEXTURES)
    motive = e.integer("motive", lo=0, hi=rulings.TRAIT_MAX)
    identity = e.integer("identity", lo=0, hi=rulings.TRAIT_MAX)
    smax = e.integer("strain_max", rulings.strain_max(realm), lo=0)
    slots = e.integer("injury_slots", rulings.injury_slots(realm), lo=1)
    conv: int | None
    if e.has("convictions") and e.data["convictions"] == "none":
        e.req("convictions")
        conv = None
    else:
        conv = e.integer("convictions", rulings.conv_max(realm), lo=1)
    polarity = e.choice("polarity", POLARITIES)

    abilities: list[tuple[str, int, str, str]] = []
    for i, raw in enumerate(e.items("abilities", [])):
        a = Entry(raw, source, f"{entry}.abilities[{i}]")
        kw = _keyword(a, cat, invocable=True)
        if any(k == kw for k, *_ in abilities):
            a.fail("keyword", f"duplicate ability keyword {kw!r}")
        rank = a.integer("rank", lo=1)
        pol = a.choice("polarity", POLARITIES, polarity)
        reach = a.choice("reach", REACHES, cat.keywords[kw].reach)
        a.done()
        abilities.append((kw, rank, pol, reach))

    items = []
    seen_items: set[str] = set()
    for i, raw in enumerate(e.items("items", [])):
        it = Entry(raw, source, f"{entry}.items[{i}]")
        item_id = it.req("id", str)
        if item_id in seen_items:
            it.fail("id", f"duplicate item id {item_id!r}")
        seen_items.add(item_id)
        rank = it.integer("rank", lo=1)
        pol = it.choice("polarity", POLARITIES, polarity)
        instrument = it.opt("instrument", False, bool)
        kws: list[tuple[str, str]] = []
        for j, kraw in enumerate(it.items("keywords")):
            k = Entry(kraw, source, f"{entry}.items[{i}].keywords[{j}]")
            kw = _keyword(k, cat, invocable=True)
            if any(x == kw for x, _ in kws):
                k.fail("keyword", f"duplicate keyword {kw!r} on item {item_id!r}")
            kws.append((kw, k.choice("reach", REACHES, cat.keywords[kw].reach)))
            k.done()
        it.done()
        items.append((item_id, rank, pol, instrument, kws))
    if sum(1 for it in items if it[3]) > 1:
        e.fail("items", "at most one item may be the Instrument (RULING R28)")

    resistances: list[tuple[str, int]] = []
    stealthy = 0
    for i, raw in enumerate(e.items("passives", [])):
        p = Entry(raw, source, f"{entry}.passives[{i}]")
        kw = p.choice("keyword", ["resistance", "stealthy"])
        rank = p.integer("rank", lo=1)
        if kw == "resistance":
            pol = p.choice("polarity", POLARITIES)
            if any(x == pol for x, _ in resistances):
                p.fail("polarity", f"duplicate resistance to {pol!r}")
            resistances.append((pol, rank))
        else:
            stealthy = max(stealthy, rank)
        p.done()
    e.done()

    options: list[Option] = []
    for kw, rank, pol, reach in abilities:  # 1. every ability keyword alone
        kd = cat.keywords[kw]
        options.append(Option(kw, kw, rank, pol, None if kd.reactive_only else reach, "ability",
                              kd.cost_at(rank), None, 0, False, kd.field, kd.uses, kd.stacks))
    for item_id, rank, pol, instrument, kws in items:  # 2. every item keyword alone (free [S])
        for kw, reach in kws:
            kd = cat.keywords[kw]
            reach_or_none = None if kd.reactive_only else reach
            options.append(Option(f"{kw}@{item_id}", kw, rank, pol, reach_or_none, "item", 0,
                                  item_id, rank, instrument, kd.field, kd.uses, kd.stacks))
    # 3. ability + item pairs: ranks add [S], cost of ability (R6)
    for kw, arank, apol, _ in abilities:
        kd = cat.keywords[kw]
        for item_id, rank, _pol, instrument, kws in items:
            for ikw, reach in kws:
                if ikw == kw:
                    options.append(Option(f"{kw}+{item_id}", kw, arank + rank, apol,
                                           None if kd.reactive_only else reach, "pair",
                                           kd.cost_at(arank), item_id, rank, instrument, kd.field,
                                           kd.uses, kd.stacks))
    return StatBlock(block_id, name, realm, texture, motive, identity, smax, slots, conv, polarity,
                     tuple(resistances), stealthy, tuple(options), dict(data))


def _keyword(entry: Entry, cat: Catalogue, invocable: bool) -> str:
    kw = entry.req("keyword", str)
    if kw not in cat.keywords:
        entry.fail("keyword", f"unknown keyword {kw!r}; known: {', '.join(cat.keywords)}")
    kd = cat.keywords[kw]
    if invocable and not kd.uses - {"Pas", "Sta"}:
        entry.fail("keyword", f"{kw!r} is a passive/status keyword and cannot be invoked")
    return kw


def _load_section(filename: str, section: str, parse: Any) -> dict[str, Any]:
    """Read ``data/<filename>``'s mapping ``section``; ``parse(raw, source, entry, name)`` each
    item."""
    path = DATA / filename
    top = Entry(load_yaml(path), str(path), filename)
    top.choice("system", ["metanoia"])
    items = top.sub(section)
    out = {
        name: parse(raw, str(path), f"{section}.{name}", name) for name, raw in items.data.items()
    }
    top.done()
    return out


@cache
def stat_blocks() -> dict[str, StatBlock]:
    return _load_section("combatants.yaml", "combatants", parse_stat_block)


@dataclass(frozen=True, slots=True)
class Placement:
    id: str
    block: StatBlock
    side: str
    zone: int | None


@dataclass(frozen=True, slots=True)
class EncounterDef:
    name: str
    description: str
    sides: dict[str, tuple[Placement, ...]]
    surprised: str | None
    hazards: dict[int, int]


SIDES = ("A", "B")


def parse_encounter(
    data: Any, source: str, entry: str, name: str, zones: int = rulings.ZONES
) -> EncounterDef:
    e = Entry(data, source, entry)
    description = e.opt("description", "", str)
    sides: dict[str, tuple[Placement, ...]] = {}
    used: set[str] = set()
    blocks = stat_blocks()
    for key in e.data:
        if key in ("description", "surprised", "hazards"):
            continue
        if key not in SIDES:
            e.fail(str(key), f"unknown side {key!r}; sides are {' and '.join(SIDES)}")
    for side in SIDES:
        roster = e.items(side)
        if not 1 <= len(roster) <= 4:
            e.fail(side, f"expected 1 to 4 combatants, got {len(roster)}")
        placed = []
        for i, raw in enumerate(roster):
            p = Entry(raw, source, f"{entry}.{side}[{i}]")
            bid = p.req("id", str)
            if bid not in blocks:
                p.fail("id", f"unknown stat block {bid!r}; known: {', '.join(blocks)}")
            cid = p.opt("name", None, str)
            if cid is None:
                cid = bid
                n = 2
                while cid in used:
                    cid, n = f"{bid}_{n}", n + 1
            elif cid in used:
                p.fail("name", f"duplicate combatant id {cid!r}")
            used.add(cid)
            zone = p.integer("zone", None, lo=0, hi=zones - 1)
            p.done()
            placed.append(Placement(cid, blocks[bid], side, zone))
        sides[side] = tuple(placed)
    surprised = e.choice("surprised", SIDES, None)
    hazards = parse_hazards(e, zones)
    e.done()
    return EncounterDef(name, description, sides, surprised, hazards)


def parse_hazards(e: Entry, zones: int) -> dict[int, int]:
    """The optional ``hazards: {zone: rank}`` field of an encounter or situation (RULING R35)."""
    hazards: dict[int, int] = {}
    for z, rank in (e.opt("hazards", {}, dict) or {}).items():
        if not isinstance(z, int) or not 0 <= z < zones or not isinstance(rank, int) or rank < 0:
            e.fail(
                "hazards",
                f"expected zone: rank with zone in 0..{zones - 1} and rank >= 0, got {z!r}: "
                f"{rank!r}",
            )
        hazards[z] = rank
    return hazards


@cache
def encounters() -> dict[str, EncounterDef]:
    return _load_section("encounters.yaml", "encounters", parse_encounter)
