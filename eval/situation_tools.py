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
readers do not publish their field lists, so each system names them in its optional registry part
``starter`` (``envs.get_starter``; ``envs.core.starter``: a ``CombatantStarter`` adds its fields to
the shared ones written here, a ``FileStarter`` gives the whole file; none: the shared fields
only); the map is the system's optional ``text_map`` part. Nothing here knows a particular
system. A test writes and checks a starter for every system and encounter.
"""

from __future__ import annotations

import textwrap
from dataclasses import fields, is_dataclass
from typing import Any

import yaml

from envs import SYSTEMS, get_rules, get_starter
from envs.core import SeededDice
from envs.core.cases import encounter_from_situation, load_situation
from envs.core.starter import CombatantStarter, FileStarter, Line
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
    own = encounter is None
    starter = get_starter(system)
    if isinstance(starter, FileStarter):
        lines = starter.lines(base, own)
    elif isinstance(starter, CombatantStarter):
        lines = _shared_starter(system, base, own, starter)
    else:
        lines = _shared_only(system, base)
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


def _shared_starter(
    system: str, name: str, own: bool, starter: CombatantStarter
) -> list[Line]:
    """The shared fields, then the combatants (with the starter's fields of each), then the
    system's own top-level fields."""
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

