"""``arena campaign FILE [--games N] [--agents A,B] [--seed S] [--workers W] [--json OUT]``:
several fights in a row with rests between them, played many times, for a designer ("can the
party still beat the giant after the ambush?") and a GM (how much a short rest buys).

A campaign file (YAML; docs/campaigns.md)::

    system: metaforce
    name: The road to the giant      # optional (default: the file's name)
    party: [fighter, wizard]         # combatant ids that go from fight to fight
    options: full                    # optional: the rules of every fight (else each fight's own)
    stages:
      - fight: skirmish_2v2          # an encounter name or a situation file (path relative to
      - rest: short 30               #   this file); a rest: every party member still alive
      - fight: giant_boss            #   rests (the system's rest rules, e.g. "long 8 harsh")

The system says what a party member carries from a fight to the next and how it rests (its
registry part ``campaign``: ``carry`` and ``rest``; Metaforce's is ``envs/metaforce/campaign.py``).
In each fight the party's members that it lists start with what they carried; one that is down
(alive but unable to fight) sits the fight out, one that is dead is gone for the rest of the
campaign, and a fight that no party member can join is lost. Members a fight lists that are not
in the party start fresh (allies met on the way, the foes). The party wins the campaign by
winning every fight; a lost fight ends it.

Game ``g`` plays fight ``i`` on seed ``(seed + g) * 100 + i`` (its rest after it on the same
seed) with agent ``A`` (seeded from it) for the party's side and ``B`` for the other. The report
gives, for every fight, how many campaigns reached it and how many of those the party won
(95% Wilson interval), and the party's HP left after it (mean, 95% interval); then the whole
campaign's win rate. Games run on ``--workers`` processes; Ctrl-C reports what has finished.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envs.core.data import Entry, load_yaml
from envs.core.stats import wilson

__all__ = ["Stage", "Campaign", "load_campaign", "play_campaign", "run_campaigns", "summarize",
           "render", "main"]


@dataclass(frozen=True)
class Stage:
    kind: str  # fight | rest
    fight: Any = None  # eval.fights.Fight
    rest: str = ""

    @property
    def label(self) -> str:
        return f"fight {self.fight.label}" if self.kind == "fight" else f"rest {self.rest}"


@dataclass(frozen=True)
class Campaign:
    system: str
    name: str
    party: tuple[str, ...]
    options: Any
    stages: tuple[Stage, ...]
    source: str


def load_campaign(path: str | Path) -> Campaign:
    """Read and check a campaign file: every fight is built once here, so a bad entry is a
    one-line ``DataError`` naming the file, the entry and the field before any game is played."""
    from envs import SYSTEMS, get_campaign

    src = str(path)
    e = Entry(load_yaml(path), src, "campaign")
    system = e.req("system", str)
    if system not in SYSTEMS:
        e.fail("system", f"unknown system {system!r}; known: {', '.join(SYSTEMS)}")
    if get_campaign(system) is None:
        e.fail("system", f"{system} has no campaigns (no 'campaign' part: no rules to carry a "
                         "party from one fight to the next)")
    name = e.opt("name", Path(src).stem, str)
    party = tuple(e.req("party", list))
    if not party or not all(isinstance(p, str) for p in party) or len(set(party)) < len(party):
        e.fail("party", f"expected a list of distinct combatant ids, got {party!r}")
    options = e.opt("options", None, (str, dict))
    try:
        opts = _opts(system, options)
    except ValueError as err:
        e.fail("options", str(err))
    stages: list[Stage] = []
    raw = e.items("stages")
    if not raw:
        e.fail("stages", "expected a list of fights and rests")
    seen: set[str] = set()
    for i, item in enumerate(raw):
        st = Entry(item, src, f"campaign.stages[{i}]")
        if not isinstance(item, dict) or len(item) != 1 or not {"fight", "rest"} & set(item):
            st.fail(None, "expected {fight: ENCOUNTER_OR_FILE} or {rest: SPEC}")
        if "rest" in item:
            stages.append(Stage("rest", rest=_rest(system, st, stages, party, opts)))
            continue
        fight = _fight(system, st.req("fight", str), Path(src).parent, st)
        members = fight.members(opts)
        mine = [cid for cid in party if cid in members]
        if not mine:
            st.fail("fight", f"{fight.label} has none of the party ({', '.join(party)})")
        sides = {members[cid] for cid in mine}
        if len(sides) > 1:
            st.fail("fight", f"the party is on more than one side in {fight.label}: "
                             + ", ".join(f"{cid} on {members[cid]}" for cid in mine))
        seen.update(mine)
        stages.append(Stage("fight", fight=fight))
        st.done()
    if stages[0].kind != "fight":
        e.fail("stages", "the first stage must be a fight")
    missing = [cid for cid in party if cid not in seen]
    if missing:
        e.fail("party", f"{', '.join(missing)} is in no fight")
    e.done()
    return Campaign(system, name, party, options, tuple(stages), src)


def _fight(system: str, text: str, base: Path, st: Entry) -> Any:
    from eval.fights import Fight

    if text.endswith((".yaml", ".yml")):
        path = Path(text) if Path(text).is_absolute() or Path(text).exists() else base / text
        fight = Fight.from_file(path)
        if fight.system != system:
            st.fail("fight", f"{path} is a {fight.system} situation, the campaign {system}")
        return fight
    from envs import get_rules

    names = get_rules(system).encounter_names()
    if text not in names:
        st.fail("fight", f"unknown {system} encounter {text!r}; known: {', '.join(names)} "
                         "(or a situation .yaml file)")
    return Fight.named(system, text)


def _rest(system: str, st: Entry, stages: list[Stage], party: tuple[str, ...],
          opts: Any) -> str:
    """A rest stage's spec, tried once on a party member of the fight before it (so a bad spec
    is a one-line error now, not in a worker)."""
    from envs import get_campaign
    from envs.core import SeededDice

    spec = st.req("rest", str)
    fights = [x for x in stages if x.kind == "fight"]
    if not fights:
        st.fail("rest", "a rest must come after a fight")
    enc = fights[-1].fight.build(opts, SeededDice(0))
    cid = next(p for p in party if p in enc.by_id)
    try:
        get_campaign(system).rest(enc, cid, spec, SeededDice(0))
    except ValueError as err:
        st.fail("rest", str(err))
    return spec


def _opts(system: str, options: Any) -> Any:
    if options is None:
        return None
    from envs import get_rules
    return get_rules(system).parse_options(options)


# ---------------------------------------------------------------------------------- one game


def play_campaign(c: Campaign, agents: tuple[str, str], seed: int) -> dict[str, Any]:
    """One campaign on ``seed``: its record (every stage, and whether the party won)."""
    from agents import make_agent
    from agents.episode import play
    from envs import get_campaign
    from envs.core import SeededDice
    from eval.fights import Fight

    part = get_campaign(c.system)
    opts = _opts(c.system, c.options)
    where: dict[str, Any] = {}  # party member -> the ended fight that holds its latest state
    gone: set[str] = set()
    stages: list[dict[str, Any]] = []
    for i, stage in enumerate(c.stages):
        s = (seed * 100) + i
        if stage.kind == "rest":
            dice = SeededDice(s)
            for cid in [p for p in c.party if p in where and p not in gone]:
                part.rest(where[cid], cid, stage.rest, dice)
            stages.append({"stage": i, "kind": "rest"})
            continue
        data = stage.fight.situation()
        entries = []
        sitting: list[str] = []
        for entry in data.get("combatants", []):
            cid = entry.get("id")
            if cid in c.party and cid in where:
                standing, state = part.carry(where[cid], cid)
                if standing == "dead":
                    gone.add(cid)
                if standing != "fit":
                    if standing != "dead":
                        sitting.append(cid)
                    continue
                entry = {**entry, "state": {**entry.get("state", {}), **state}}
            elif cid in gone:
                continue
            entries.append(entry)
        data["combatants"] = entries
        fighting = [e["id"] for e in entries if e["id"] in c.party]
        row: dict[str, Any] = {"stage": i, "kind": "fight", "fight": stage.fight.label,
                               "party": fighting, "sitting_out": sitting}
        if not fighting:
            stages.append({**row, "won": False, "reason": "no party member can fight",
                           "rounds": 0, "hp": 0, "hp_max": 0})
            return {"seed": seed, "stages": stages, "won": False, "lost_at": i}
        data["system"] = c.system
        fight = Fight.from_data(data, stage.fight.source or stage.fight.label,
                                note=stage.fight.note)
        members = fight.members(opts)
        ours = members[fighting[0]]
        sides = list(dict.fromkeys(members.values()))
        other = next(sd for sd in sides if sd != ours)
        ended: dict[str, Any] = {}

        def keep(enc: Any, when: str, _ended: dict[str, Any] = ended) -> None:
            if when == "end":
                _ended["enc"] = enc

        bots = {ours: make_agent(agents[0], c.system, 2 * s),
                other: make_agent(agents[1], c.system, 2 * s + 1)}
        rec = play(c.system, fight, bots, s, options=opts, check=keep)
        enc = ended["enc"]
        for cid in fighting:
            where[cid] = enc
        won = rec.winner == ours
        health = [part.health(enc, cid) for cid in fighting]
        hp = sum(max(0, now) for now, _ in health)
        top = sum(most for _, most in health)
        stages.append({**row, "won": won, "reason": rec.reason, "rounds": rec.rounds,
                       "hp": hp, "hp_max": top})
        if not won:
            return {"seed": seed, "stages": stages, "won": False, "lost_at": i}
    return {"seed": seed, "stages": stages, "won": True, "lost_at": None}


# ---------------------------------------------------------------------------------- many games


def _job(data: Any, g: int) -> dict[str, Any]:
    c, agents, seed = data
    return play_campaign(c, agents, seed + g)


def run_campaigns(c: Campaign, games: int, agents: tuple[str, str], seed: int = 0,
                  workers: int = 2, progress: Callable[[int], None] | None = None
                  ) -> list[dict[str, Any]]:
    """Play ``games`` campaigns (on ``workers`` processes); Ctrl-C returns those finished."""
    from eval.backend import Backend, run_jobs

    out: list[dict[str, Any]] = []
    try:
        for _, rec in run_jobs(_job, (c, agents, seed), range(games), Backend(workers=workers)):
            out.append(rec)
            if progress is not None:
                progress(len(out))
    except KeyboardInterrupt:
        pass
    return sorted(out, key=lambda r: r["seed"])


def _mean_ci(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    if not n:
        return math.nan, math.nan, math.nan
    m = sum(xs) / n
    if n < 2:
        return m, math.nan, math.nan
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = 1.96 * sd / math.sqrt(n)
    return m, max(0.0, m - h), min(1.0, m + h)


def summarize(c: Campaign, records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per fight: reached, won (Wilson), HP left (mean, 95% CI); the whole campaign's wins."""
    n = len(records)
    rows = []
    for i, stage in enumerate(c.stages):
        if stage.kind != "fight":
            rows.append({"stage": i, "label": stage.label})
            continue
        got = [st for r in records for st in r["stages"] if st["stage"] == i]
        k = sum(1 for st in got if st["won"])
        lo, hi = wilson(k, len(got))
        left = [st["hp"] / st["hp_max"] for st in got if st["won"] and st["hp_max"]]
        mean, hlo, hhi = _mean_ci(left)
        rows.append({"stage": i, "label": stage.label, "reached": len(got), "won": k,
                     "rate": k / len(got) if got else math.nan, "lo": lo, "hi": hi,
                     "hp_left": mean, "hp_lo": hlo, "hp_hi": hhi,
                     "sat_out": sum(len(st["sitting_out"]) for st in got)})
    k = sum(1 for r in records if r["won"])
    lo, hi = wilson(k, n)
    return {"campaign": c.name, "system": c.system, "party": list(c.party), "games": n,
            "stages": rows, "won": k, "rate": k / n if n else math.nan, "lo": lo, "hi": hi}


def _pct(x: float) -> str:
    return "n/a" if isinstance(x, float) and math.isnan(x) else f"{100 * x:.1f}%"


def render(summary: dict[str, Any], agents: tuple[str, str]) -> list[str]:
    s = summary
    lines = [f"campaign {s['campaign']!r} ({s['system']}): party {', '.join(s['party'])} "
             f"played by {agents[0]}, the other side by {agents[1]}, {s['games']} campaigns"]
    for r in s["stages"]:
        if "reached" not in r:
            lines.append(f"  {r['stage'] + 1}. {r['label']}")
            continue
        line = (f"  {r['stage'] + 1}. {r['label']}: reached {r['reached']}, party won "
                f"{r['won']}/{r['reached']} = {_pct(r['rate'])} (95% CI {_pct(r['lo'])}-"
                f"{_pct(r['hi'])})")
        if r["won"]:
            line += (f"; party HP left after a win {_pct(r['hp_left'])} (95% CI "
                     f"{_pct(r['hp_lo'])}-{_pct(r['hp_hi'])}, n = {r['won']})")
        if r["sat_out"]:
            line += f"; {r['sat_out']} member-fights sat out (down)"
        lines.append(line)
    lines.append(f"  whole campaign: won {s['won']}/{s['games']} = {_pct(s['rate'])} (95% CI "
                 f"{_pct(s['lo'])}-{_pct(s['hi'])})")
    return lines


def main(path: str, games: int, agents: tuple[str, str], seed: int = 0, workers: int = 2,
         json_out: str | None = None) -> int:
    from agents import make_agent

    c = load_campaign(path)
    for kind in agents:
        make_agent(kind, c.system, 0)  # a bad agent spec: one line, before any game
    step = max(1, games // 20)

    def progress(done: int) -> None:
        if done % step == 0 or done == games:
            print(f"  {done}/{games} campaigns", file=sys.stderr, flush=True)

    records = run_campaigns(c, games, agents, seed, workers, progress)
    summary = summarize(c, records)
    print("\n".join(render(summary, agents)))
    if len(records) < games:
        print(f"interrupted: {len(records)} of {games} campaigns played", file=sys.stderr)
    if json_out:
        Path(json_out).write_text(json.dumps({"summary": summary, "records": records},
                                             indent=1, default=str), encoding="utf-8")
    return 130 if len(records) < games else 0

