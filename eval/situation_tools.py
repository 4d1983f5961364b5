"""``arena situation new|check``: a GM writes a situation file for their own fight and checks it
(docs/situations.md).

``new_situation(system, encounter)``: a starter file with every field the reader accepts, each
with the engine's current value and a comment: the shared fields (``envs.core.situation``), each
combatant's ``state`` and the system's own top-level fields (its ``rules/situation.py``). With an
encounter it lists that encounter's combatants; without one it is the GM's own fight: the first
lineup as new combatants by catalogue id, the last one inline. A field with no neutral value is
a commented-out line. The file loads as written (``new_situation`` proves it before returning).

``check_situation(path)``: the fight as the engine reads it: title, system, round, a row per
combatant, the map of a map system, the legal moves of the one deciding in plain words. The
readers do not publish their field lists, so each system's starter below names them; a test
writes and checks a starter for every system and encounter.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

import yaml

from envs import SYSTEMS, get_rules
from envs.core import SeededDice
from envs.core.cases import encounter_from_situation, load_situation
from envs.core.data import load_yaml
from eval.play import fight_table, map_lines, move_lines

__all__ = ["new_situation", "check_situation", "Line", "render_lines"]

COMMENT_COLUMN = 36
"""where the comments of a starter file start (a longer line puts its comment two spaces on)"""

HEADER = """\
# A {system} situation: a fight in progress, as a GM describes it. Every field is here with the
# value the engine gives it now: change what differs at your table, delete what you do not need.
# A line "# field: value" is a field left out (remove the "# " to use it).
# Check it: arena situation check FILE; then arena suggest FILE or arena play --situation FILE.
# docs/situations.md documents every field.
"""


@dataclass
class Line:
    """One field of a starter file: ``key: value  # note``.

    ``live=False`` writes it commented out; ``children`` writes a mapping in block style, ``items``
    a list of mappings (the combatants); an empty ``key`` is a comment line (``note``).
    """

    key: str
    value: Any = None
    note: str = ""
    live: bool = True
    children: list[Line] | None = None
    items: list[list[Line]] | None = None


def _flow(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=10_000, sort_keys=False,
                          allow_unicode=True).strip()
    return text.removesuffix("\n...").strip()


def _noted(text: str, note: str) -> str:
    return f"{text.ljust(COMMENT_COLUMN - 2)}  # {note}" if note else text


def render_lines(lines: list[Line], indent: int = 0, dash: bool = False) -> list[str]:
    """The YAML text lines of ``lines`` (``dash``: the first is a list item's)."""
    out: list[str] = []
    for i, ln in enumerate(lines):
        pad = " " * indent
        if dash and i == 0:
            pad = " " * (indent - 2) + "- "
        if not ln.key:
            out += [f"{pad}# {t}" for t in textwrap.wrap(ln.note, 96 - len(pad))]
        elif ln.children is not None or ln.items is not None:
            out.append(_noted(f"{pad}{ln.key}:", ln.note))
            if ln.children is not None:
                out += render_lines(ln.children, indent + 2)
            for item in ln.items or []:
                out += render_lines(item, indent + 4, dash=True)
        elif isinstance(ln.value, list) and ln.value and all(isinstance(v, dict) for v in ln.value):
            out.append(_noted(f"{pad}{'' if ln.live else '# '}{ln.key}:", ln.note))
            out += [f"{' ' * indent}{'' if ln.live else '# '}  - {_flow(v)}" for v in ln.value]
        else:
            off = "" if ln.live else "# "
            out.append(_noted(f"{pad}{off}{ln.key}: {_flow(ln.value)}", ln.note))
    return out


# ------------------------------------------------------------------------------- the starters


def new_situation(system: str, encounter: str | None = None) -> str:
    """A starter situation file (YAML text) for ``system`` (see the module docstring).

    Raises:
        ValueError: an unknown system or encounter.
    """
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}; known: {', '.join(SYSTEMS)}")
    R = get_rules(system)
    names = R.encounter_names()
    if encounter is not None and encounter not in names:
        raise ValueError(
            f"unknown encounter {encounter!r} for {system}; known: {', '.join(names)}"
        )
    base = encounter or names[0]
    starter = STARTERS.get(system)
    own = encounter is None
    lines = _shared_only(system, base) if starter is None else starter.lines(system, base, own)
    text = HEADER.format(system=system) + "\n".join(render_lines(lines)) + "\n"
    source = f"the {system} starter"
    encounter_from_situation(yaml.safe_load(text), source, SeededDice(0))  # loads as written
    return text


def _fresh(system: str, name: str) -> tuple[Any, dict[str, Any]]:
    """The encounter ``name`` standing at its first combatant's turn, and its snapshot."""
    R = get_rules(system)
    lineup = R.new_encounter(name, None, SeededDice(0)).sides()
    first = lineup[0].members[0]
    data = {"system": system, "encounter": name, "actor": first}
    enc = encounter_from_situation(data, f"{system}/{name}")
    return enc, enc.snapshot()


def _options_lines(system: str) -> list[Line]:
    opts = get_rules(system).parse_options("full")
    names = ", ".join(f.name for f in fields(opts)) if is_dataclass(opts) else "its fields"
    return [
        Line("", note=f"options: core | full, or a mapping of {names} (version: core|full is the "
             "preset the others change)"),
        Line("options", "full", "the rule set"),
    ]


def _shared_only(system: str, name: str) -> list[Line]:
    """A system without a starter of its own: the shared fields only."""
    return [
        Line("system", system, "the rules system (required)"),
        Line("title", f"{name}, round 1", "free text, shown by the tools"),
        Line("notes", "", "free text"),
        *_options_lines(system),
        Line("", note=f"encounters: {', '.join(get_rules(system).encounter_names())}"),
        Line("encounter", name, "a named lineup of the system's data"),
        Line("round", 1, "the round"),
    ]


def _shared_starter(system: str, name: str, own: bool, starter: Any) -> list[Line]:
    """The shared fields, then the combatants, then the system's own top-level fields."""
    R = get_rules(system)
    enc, snap = _fresh(system, name)
    ids = list(snap["combatants"])
    names = R.encounter_names()
    title = "my fight, round 1" if own else f"{name}, round 1"
    lines = [
        Line("system", system, "the rules system (required)"),
        Line("title", title, "free text, shown by the tools"),
        Line("notes", "", "free text"),
        *_options_lines(system),
        Line("", note=f"encounters: {', '.join(names)}"),
        Line("encounter", name, "a named lineup of the system's data", live=not own),
    ]
    if own:
        lines.append(Line("", note="(with an encounter, list only its combatants' side and state)"))
        lines.append(Line("", note=f"stat blocks of the catalogue: {', '.join(R.stat_blocks())}"))
    combatants = []
    for k, cid in enumerate(ids):
        c = snap["combatants"][cid]
        item = [Line("id", cid, "no spaces or ':' (action labels use it)"),
                Line("side", c["side"], starter.side_note if own else "must match the encounter")]
        item += starter.member(c)
        if own and k < len(ids) - 1:
            item.append(Line("stats", starter.block_id(c), "a stat block of the catalogue"))
        elif own:
            item.append(Line("stats", note="an inline stat block (the catalogue's schema)",
                             children=starter.inline(c, snap)))
        item.append(Line("state", note="its state now", children=starter.state(c, snap)))
        combatants.append(item)
    round_limit = R.parse_options("full").round_limit
    lines += [
        Line("combatants", note="each: id, side, stats (new ones), state", items=combatants),
        Line("order", snap["order"], "the turn order: every combatant once"),
        Line("round", snap["round"], f"1..{round_limit}"),
        Line("actor", enc.current_actor(), "whose decision it is (none: a fresh start)"),
        *starter.top(snap, own),
    ]
    return lines


class MetanoiaStarter:
    """Metanoia's fields (``envs/metanoia/rules/situation.py``)."""

    side_note = "A | B (1 to 4 combatants each)"

    def lines(self, system: str, name: str, own: bool) -> list[Line]:
        return _shared_starter(system, name, own, self)

    def block_id(self, c: dict[str, Any]) -> str:
        return str(c["block_id"])

    def member(self, c: dict[str, Any]) -> list[Line]:
        return [Line("zone", c["zone"], "0 .. zones - 1 (default: RULING R22)")]

    def state(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        from envs.metanoia.rules.fighters import STATUSES

        conv = (
            Line("conv", c["conv"], f"Convictions, 0..{c['conv_max']}")
            if c["conv_max"] is not None
            else Line("", note="conv: none (mindless)")
        )
        return [
            Line("strain", c["strain"], f"0..{c['strain_max']}"),
            Line("stacks", c["stacks"], "stacks on it"),
            conv,
            Line("injuries", c["injuries"],
                 f"[{{keyword, severity}}], at most {c['injury_slots']}"),
            Line("statuses", c["statuses"], f"{{status: rank}}: {', '.join(STATUSES)}"),
            Line("defeated", c["defeated"], "true/false"),
            Line("broken", c["broken"], "true/false (no Conviction left)"),
            Line("fled", c["fled"], "true/false"),
            Line("guarding", c["guarding"], "an ally it guards (RULING R25)"),
        ]

    def inline(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        raw = {k: v for k, v in snap["blocks"][c["block_id"]].items() if k != "id"}
        raw.setdefault("passives", [])
        return [Line(k, v, METANOIA_BLOCK_NOTES.get(k, "")) for k, v in raw.items()]

    def top(self, snap: dict[str, Any], own: bool) -> list[Line]:
        surprised = snap["surprised"]
        return [
            Line("surprised", surprised or "A", "A | B: the side surprised (RULING R36)",
                 live=surprised is not None),
            Line("hazards", {int(z): r for z, r in snap["hazards"].items()},
                 "{zone: rank} (RULING R35)"),
        ]


METANOIA_BLOCK_NOTES = {
    "name": "shown by the tools",
    "basis": "where it comes from (free text)",
    "realm": "power tier, 1 or more",
    "texture": "tranquil | volatile | rampant",
    "motive": "trait, 0-5",
    "identity": "trait, 0-5",
    "strain_max": "default 4 + 2 x realm",
    "injury_slots": "default 2 + realm",
    "convictions": "default 2 + realm, or none (mindless)",
    "polarity": "shadow | decay | steel | stone | storm | verdant | will",
    "abilities": "[{keyword, rank, polarity, reach}]",
    "items": "[{id, rank, polarity, instrument, keywords: [{keyword, reach}]}]",
    "passives": "[{keyword: resistance | stealthy, rank, polarity}]",
}


class ManoStarter:
    """Mano a Mano's fields (``envs/mano_a_mano/rules/situation.py``)."""

    side_note = "any name; two sides or more"

    def lines(self, system: str, name: str, own: bool) -> list[Line]:
        return _shared_starter(system, name, own, self)

    def block_id(self, c: dict[str, Any]) -> str:
        return str(c["block"])

    def member(self, c: dict[str, Any]) -> list[Line]:
        return []

    def state(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        return [
            Line("hex", c["hex"], "[q, r] on the map, not a wall"),
            Line("standing", c["standing"], "false: on the ground"),
            Line("stun", c["stun"], "0 or more"),
            Line("damage", c["damage"], "0 or more"),
            Line("held", c["held"], "{right | left | both: item}"),
            Line("stowed", c["stowed"], "[item, ...]; the load is at most 2 x CC"),
            Line("counter_ready", c["counter_ready"], "true/false"),
            Line("defense_bonus", c["defense_bonus"], "0..5"),
            Line("forced_skips", c["forced_skips"], "0..3 (speeds below 1)"),
            Line("bow_drawn", c["bow_drawn"], "true/false (a held bow)"),
            Line("aiming", c["aiming"], "the held weapon aimed with (RULING R31)"),
            Line("covering", c["covering"], "the combatant it covers"),
            Line("shots", c["shots"], "{gun: shots left} (not given: full)"),
            Line("clip_out", c["clip_out"], "[clip gun, ...]"),
            Line("reloading", c["reloading"], "{muzzle-loader: reload actions done}"),
        ]

    def inline(self, c: dict[str, Any], snap: dict[str, Any]) -> list[Line]:
        from envs.mano_a_mano.rules.catalogue import DATA

        blocks = load_yaml(DATA / "catalogue.yaml")["combatants"]
        raw = next(b for b in blocks if b["id"] == c["block"])
        raw = {k: v for k, v in raw.items() if k != "id"}
        for key, default in (("qualities", []), ("bow_drawn", False)):
            raw.setdefault(key, default)
        lines = [Line(k, v, MANO_BLOCK_NOTES.get(k, "")) for k, v in raw.items() if k != "mount"]
        mount = raw.get("mount")
        lines.append(Line("mount", mount or "war", "a war animal, ridden", live=mount is not None))
        return lines

    def top(self, snap: dict[str, Any], own: bool) -> list[Line]:
        hexes = [tuple(h) for h in snap["map"]["hexes"]]
        radius = max((abs(q) + abs(r) + abs(q + r)) // 2 for q, r in hexes)
        hexagon = len(hexes) == 3 * radius * (radius + 1) + 1
        width = max(q for q, _ in hexes) + 1 if not hexagon else 2 * radius + 1
        height = max(r for _, r in hexes) + 1 if not hexagon else 2 * radius + 1
        terrain = snap["map"]["terrain"]
        opts = snap["options"]
        return [
            Line("items", {}, "this file's items {id: item} (the catalogue's item schema)"),
            Line("map", note="default: a hexagon of radius 7", children=[
                Line("radius", radius, "a hexagon around [0, 0]", live=hexagon),
                Line("size", [width, height], "instead of radius: a rhombus", live=not hexagon),
                Line("walls", [t["hex"] for t in terrain if t["wall"]], "[[q, r], ...]"),
                Line("water", [t["hex"] for t in terrain if t["water"]], "[[q, r], ...]"),
                Line("heights", [{"hex": t["hex"], "m": t["height_m"]} for t in terrain
                                 if t["height_m"]], "[{hex: [q, r], m: metres}]"),
            ]),
            Line("circumstances", note="spec §5.1, RULING R40", children=[
                Line("darkness", opts["darkness"], "normal | very_dim | total"),
                Line("rear_attack_favorable", opts["rear_attack_favorable"], "RULING R9"),
                Line("attacks", snap["circumstances"],
                     "{side or id: favorable | very_favorable | unfavorable | hostile}"),
            ]),
            Line("mounted", snap["mounts"], "{rider: mount} (FULL rules)"),
            Line("grapples", snap["grapples"], "[{pair: [a, b], base: standing|ground, dominant}]"),
        ]


MANO_BLOCK_NOTES = {
    "name": "shown by the tools",
    "source": "where it comes from (free text)",
    "template": "a catalogue template (human, horse, ...)",
    "cp": "character points",
    "mass_kg": "body mass, kg",
    "agility": "attacks, defenses, throws, grapples",
    "strength": "power, carrying capacity",
    "toughness": "health thresholds",
    "running": "hexes of movement per turn",
    "speed": "1/4, 1/2, 1, 2 or 3",
    "stamina": "always 2 x toughness",
    "abilities": "{ability: level}",
    "qualities": "[quality, ...]",
    "held": "{right | left | both: weapon}",
    "stowed": "[item, ...]",
    "armor": "[{item, cover, absorption, mass_kg, inside}]",
    "bow_drawn": "true/false",
}


class ToyStarter:
    """The toy's fields (``envs/toy/rules/__init__.py``: ``from_situation``)."""

    def lines(self, system: str, name: str, own: bool) -> list[Line]:
        R = get_rules(system)
        snap = R.new_encounter(name).snapshot()
        return [
            Line("system", system, "the rules system (required)"),
            Line("title", f"{name}, round 1", "free text, shown by the tools"),
            Line("encounter", name, f"known: {', '.join(R.encounter_names())}"),
            Line("rules", "full", "core (no blocks) | full"),
            Line("max_rounds", snap["rules"][2], "the round cap"),
            Line("points", snap["points"], "{combatant: points}"),
            Line("hp", snap["hp"], "{combatant: hit points}"),
            Line("round", snap["round"], "the round"),
        ]


STARTERS: dict[str, MetanoiaStarter | ManoStarter | ToyStarter] = {
    "metanoia": MetanoiaStarter(),
    "mano_a_mano": ManoStarter(),
    "toy": ToyStarter(),
}
"""The starter of each system; one without an entry gets the shared fields only."""


# ------------------------------------------------------------------------------- the check


def check_situation(path: str) -> str:
    """The fight a situation file describes, as text (see the module docstring).

    Raises:
        DataError: a bad file (one line naming the file, the entry and the field).
    """
    data = load_situation(path)
    enc = encounter_from_situation(data, path, SeededDice(0))
    system = enc.system
    out = [f"{path}: {data.get('title') or '(no title)'}", f"system {system}, round {enc.round}"]
    if data.get("notes"):
        out.append(f"notes: {data['notes']}")
    actor = enc.current_actor()
    out += fight_table(enc, None, mark=actor)  # the GM sees everything
    out += map_lines(enc, None)
    if enc.is_over():
        o = enc.outcome()
        winner = "a draw" if o.winner is None else f"side {o.winner} wins"
        out.append(f"the fight is over: {winner} ({o.reason}, round {o.round})")
        return "\n".join(out)
    legal = enc.legal_actions()
    out.append(f"{actor} (side {enc.side_of(actor)}) decides; {len(legal)} legal moves:")
    out += move_lines(enc, legal)
    return "\n".join(out)

