"""Metanoia observation and action encoding (spec §12.4, §12.5; advice, adapted).

Ego-centric slots: 0 = self, 1..3 = allies in roster order, 4..7 = enemies in roster order
(zero-padded). Zones are mirrored for side B so that 0 is always the observer's own rear and
"dir 0" always moves toward it; a policy trained on one side plays the other.

Action layout (``Discrete(581)``, ``arena layout metanoia`` prints it); pool ``p``: 0 none,
1 Motive, 2 Identity, 3 both; mode 1 = a Choice keyword declared as a Condition::

    0          recover
    1          withdraw                              (full rules)
    2..9       move      dir(2) x pool(4)             dir 0 = toward own rear
    10..13     hide      pool(4)
    14..29     sense     enemy(4) x pool(4)
    30..32     guard     ally(3)                      (full rules)
    33..48     mark      enemy(4) x pool(4)
    49..560    engage    option(8) x target(8) x mode(2) x pool(4)
    561..576   react     choice(4) x pool(4)          choice 0 = none, k = k-th reactive option
    577..578   intercept no/yes                       (full rules)
    579..580   challenge no/yes

Every block encodes and decodes through ``LAYOUT``: ``encode_actions`` computes an index from the
block's coordinates and the layout's place values (``ActionLayout.strides``), ``decode_action``
reads the coordinates back with ``ActionLayout.coords``.

Observation (float32, every value in [-1, 1]), named tables all the way down: the pieces of
``OBS`` (``slot0``..``slot7``, ``round``, ``phase``, ``pending``, ``options``), the per-slot
features ``SLOT_FEATURES``, the pending declaration ``PENDING_FEATURES`` (during off-turn
decisions) and one ``OPTION_FEATURES`` row per own invocation option; ``obs_features()`` lists
every feature with its offset. Concealed enemies show neither zone nor statuses (spec §7.2): only
"concealed". The encoding's lookup tables (ego slots, per-block constants) live in the encoding
object, keyed by the identity of the rules objects, never inside them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core import Action
from envs.rl import ActionLayout, Block, ObsSpec, ego_order

from .rules import MetanoiaEncounter
from .rules.catalogue import POLARITIES, TEXTURES, catalogue
from .rules.fighters import STATUSES
from .rules.preview import pool

NAME = "metanoia_v0"
MAX_PER_SIDE = 4
SLOTS = 2 * MAX_PER_SIDE
MAX_OPTIONS = 8
MAX_REACTIVE = 3
POOLS: tuple[tuple[str, ...], ...] = ((), ("motive",), ("identity",), ("motive", "identity"))
POOL_INDEX = {b: i for i, b in enumerate(POOLS)}
KEYWORDS = tuple(catalogue().keywords)
KIND_CODES = ("attack", "condition", "argue", "mark", "move")
PHASES = ("turn", "react", "intercept", "challenge")

LAYOUT = ActionLayout([
    Block("recover"),
    Block("withdraw"),
    Block("move", (("dir", 2), ("pool", 4))),
    Block("hide", (("pool", 4),)),
    Block("sense", (("enemy", MAX_PER_SIDE), ("pool", 4))),
    Block("guard", (("ally", MAX_PER_SIDE - 1),)),
    Block("mark", (("enemy", MAX_PER_SIDE), ("pool", 4))),
    Block("engage", (("option", MAX_OPTIONS), ("target", SLOTS), ("mode", 2), ("pool", 4))),
    Block("react", (("choice", MAX_REACTIVE + 1), ("pool", 4))),
    Block("intercept", (("yes", 2),)),
    Block("challenge", (("yes", 2),)),
])

# per-slot features, in order
SLOT_FEATURES = (
    ("presence", 5),     # exists, active, defeated, broken, fled
    ("realm", 2),        # realm/3, (realm - own realm)/2 clipped to -1..1
    ("texture", 3),
    ("traits", 2),       # M/5, I/5
    ("strain", 2),       # strain/max, max/10
    ("injuries", 3),     # filled/slots, slots/5, max severity/10
    ("convictions", 2),  # conv/max, has convictions
    ("stacks", 1),
    ("zone", 4),         # known, own-rear-relative zone/(zones-1), same zone as self,
                         # distance/(zones-1)
    ("statuses", 6),     # deteriorating, slip, pinned, obscured, hidden (/10), concealed
    ("resistance", len(POLARITIES)),
    ("guard", 2),        # guarding someone, being guarded
    ("reactions", 4),    # counter, slip, ward ranks /5, has a far attack
)
# the pending declaration (off-turn decisions only), in order
PENDING_FEATURES = (
    ("actor", SLOTS),            # ego slot of the Actor
    ("kind", len(KIND_CODES)),
    ("keyword", len(KEYWORDS)),  # the declared option's keyword
    ("rank", 1),                 # option rank/10
    ("pool", 1),                 # the Actor's pool/16
    ("ambush", 1),
    ("exploit", 1),              # Exploit dice/10
    ("boosts", 2),               # motive, identity invoked
    ("target", SLOTS),           # ego slot of the target
)
# one row per own invocation option, in order
OPTION_FEATURES = (
    ("keyword", len(KEYWORDS)),
    ("rank", 1),                 # rank/10
    ("cost", 1),                 # cost/5
    ("far", 1),
    ("origin", 3),               # ability, item, pair
    ("instrument", 1),
)


def _offsets(table: tuple[tuple[str, int], ...]) -> dict[str, int]:
    out, at = {}, 0
    for name, n in table:
        out[name] = at
        at += n
    return out


SLOT_SIZE = sum(n for _, n in SLOT_FEATURES)
OPTION_SIZE = sum(n for _, n in OPTION_FEATURES)
PENDING_SIZE = sum(n for _, n in PENDING_FEATURES)

OBS = ObsSpec([
    *((f"slot{i}", SLOT_SIZE) for i in range(SLOTS)),
    ("round", 1),
    ("phase", len(PHASES)),
    ("pending", PENDING_SIZE),
    ("options", MAX_OPTIONS * OPTION_SIZE),
])
_SLOT_OFF = [OBS[f"slot{i}"].start for i in range(SLOTS)]
_ROUND = OBS["round"].start
_PHASE = OBS["phase"].start
_PENDING = OBS["pending"].start
_PEND = _offsets(PENDING_FEATURES)
_OPTIONS = OBS["options"].start
_STRIDES = {b.name: LAYOUT.strides(b.name) for b in LAYOUT.blocks}


def obs_features() -> list[tuple[str, int, int, float, float]]:
    """Every observation feature as ``(name, offset, size, low, high)``, in vector order
    (``slot3.zone``, ``pending.kind``, ``options[2].rank``...)."""
    rows: list[tuple[str, int, int, float, float]] = []
    tables = {"pending": PENDING_FEATURES}
    for name, size, lo, hi in OBS.pieces:
        start = OBS[name].start
        if name.startswith("slot"):
            rows += [(f"{name}.{f}", start + o, n, lo, hi)
                     for (f, n), o in zip(SLOT_FEATURES, _offsets(SLOT_FEATURES).values(),
                                          strict=True)]
        elif name in tables:
            rows += [(f"{name}.{f}", start + o, n, lo, hi)
                     for (f, n), o in zip(tables[name], _offsets(tables[name]).values(),
                                          strict=True)]
        elif name == "options":
            for k in range(MAX_OPTIONS):
                base = start + k * OPTION_SIZE
                rows += [(f"options[{k}].{f}", base + o, n, lo, hi)
                         for (f, n), o in zip(OPTION_FEATURES, _offsets(OPTION_FEATURES).values(),
                                              strict=True)]
        else:
            rows.append((name, start, size, lo, hi))
    return rows


class MetanoiaEncoding:
    """The ``SystemEncoding`` of Metanoia (see the module docstring)."""

    name = NAME
    layout = LAYOUT
    obs_spec = OBS
    max_per_side = MAX_PER_SIDE
    obs_features = staticmethod(obs_features)

    def __init__(self) -> None:
        self._ego: dict[tuple[int, str], tuple[Any, dict[str, int], list[str | None]]] = {}
        self._static: dict[int, tuple[Any, list[list[float]], list[float]]] = {}
        self._option_index: dict[int, tuple[Any, dict[str, int], dict[str, int]]] = {}

    # ------------------------------------------------------------------ slots
    def ego(self, enc: MetanoiaEncounter, cid: str) -> tuple[dict[str, int], list[str | None]]:
        """``{combatant: ego slot}`` and the slot list (self, allies, enemies; padded with None)."""
        sides = enc.sides()
        hit = self._ego.get((id(sides), cid))
        if hit is not None and hit[0] is sides:
            return hit[1], hit[2]
        me, allies, enemies = ego_order(enc, cid, MAX_PER_SIDE)
        slots: list[str | None] = [me, *allies, *enemies]
        index = {c: i for i, c in enumerate(slots) if c is not None}
        self._ego[(id(sides), cid)] = (sides, index, slots)
        return index, slots

    @staticmethod
    def _rel_zone(enc: MetanoiaEncounter, side: str, zone: int) -> int:
        return zone if side == enc.sides()[0].side else enc.options.zones - 1 - zone

    # ------------------------------------------------------------------ actions
    def encode_action(self, enc: MetanoiaEncounter, combatant: str, a: Action) -> int:
        return self.encode_actions(enc, combatant, (a,))[0]

    def _names(self, block: Any) -> tuple[dict[str, int], dict[str, int]]:
        """{option name: option index} and {reactive option name: react choice} of a block."""
        hit = self._option_index.get(id(block))
        if hit is not None and hit[0] is block:
            return hit[1], hit[2]
        names = {o.name: i for i, o in enumerate(block.options)}
        reactive = {o.name: k + 1 for k, o in enumerate(o for o in block.options if o.reactive)}
        reactive["none"] = 0
        self._option_index[id(block)] = (block, names, reactive)
        return names, reactive

    def encode_actions(self, enc: MetanoiaEncounter, combatant: str, actions: Any) -> list[int]:
        """Indices of ``actions`` (all of ``combatant``), with the shared context computed once.

        Each kind names its block and coordinates; the index is the layout's
        ``start + sum(coordinate * place value)`` (``ActionLayout.strides``).
        """
        st = _STRIDES
        me = enc.by_id[combatant]
        names, reactive = self._names(me.block)
        index, _ = self.ego(enc, combatant)
        mirrored = me.side != enc.sides()[0].side
        options = me.block.options
        out = []
        for a in actions:
            kind = a.kind
            p = POOL_INDEX[a.boosts] if a.boosts else 0
            if kind in ("attack", "condition", "argue", "support"):
                o = names[a.args[0]]
                if o >= MAX_OPTIONS:
                    raise ValueError(f"{combatant} has more than {MAX_OPTIONS} invocation options")
                mode = 1 if kind == "condition" and options[o].field == "C" else 0
                start, (k_o, k_t, k_m, k_p) = st["engage"]
                out.append(start + o * k_o + index[a.target] * k_t + mode * k_m + p * k_p)
            elif kind in ("mark", "sense"):
                start, (k_e, k_p) = st[kind]
                out.append(start + (index[a.target] - MAX_PER_SIDE) * k_e + p * k_p)
            elif kind == "react":
                choice = reactive[a.args[0]]
                if choice > MAX_REACTIVE:
                    raise ValueError(f"{combatant} has more than {MAX_REACTIVE} reactive options")
                start, (k_c, k_p) = st["react"]
                out.append(start + choice * k_c + p * k_p)
            elif kind == "move":
                toward_rear = (int(a.args[0]) < me.zone) != mirrored
                start, (k_d, k_p) = st["move"]
                out.append(start + (0 if toward_rear else 1) * k_d + p * k_p)
            elif kind in ("intercept", "challenge"):
                start, (k_y,) = st[kind]
                out.append(start + (a.args[0] == "yes") * k_y)
            elif kind == "hide":
                start, (k_p,) = st["hide"]
                out.append(start + p * k_p)
            elif kind == "guard":
                start, (k_a,) = st["guard"]
                out.append(start + (index[a.target] - 1) * k_a)
            else:  # recover, withdraw
                out.append(st[kind][0])
        return out

    def decode_action(self, enc: MetanoiaEncounter, combatant: str, index: int) -> Action:
        block, c = LAYOUT.coords(index)
        me = enc.by_id[combatant]
        boosts = POOLS[c["pool"]] if "pool" in c else ()
        if block in ("recover", "withdraw"):
            return Action(combatant, block)
        if block == "move":
            step = -1 if c["dir"] == 0 else 1
            if me.side != enc.sides()[0].side:
                step = -step
            return Action(combatant, "move", (str(me.zone + step),), None, boosts)
        if block == "hide":
            return Action(combatant, "hide", (), None, boosts)
        if block in ("intercept", "challenge"):
            return Action(combatant, block, ("yes" if c["yes"] else "no",))
        if block == "react":
            reactive = [o.name for o in me.block.options if o.reactive]
            k = c["choice"]
            name = "none" if k == 0 else (reactive[k - 1] if k - 1 < len(reactive)
                                          else f"reactive{k}")
            return Action(combatant, "react", (name,), None, boosts)
        _, slots = self.ego(enc, combatant)
        if block in ("sense", "mark"):
            foe = slots[MAX_PER_SIDE + c["enemy"]] or "nobody"
            return Action(combatant, block, (), foe, boosts)
        if block == "guard":
            return Action(combatant, "guard", (), slots[1 + c["ally"]] or "nobody")
        options = me.block.options
        o = options[c["option"]] if c["option"] < len(options) else None
        target = slots[c["target"]] or "nobody"
        if o is None:
            return Action(combatant, "attack", (f"option{c['option']}",), target, boosts)
        if o.support:
            kind = "support"
        elif c["mode"] == 1 or ("Cnd" in o.uses and "Atk" not in o.uses):
            kind = "condition"
        elif "Arg" in o.uses:
            kind = "argue"
        else:
            kind = "attack"
        return Action(combatant, kind, (o.name,), target, boosts)

    # ------------------------------------------------------------------ observation
    def _static_features(self, block: Any) -> tuple[list[list[float]], list[float]]:
        """Per-block constant features: (slot part, option rows)."""
        hit = self._static.get(id(block))
        if hit is not None and hit[0] is block:
            return hit[1], hit[2]
        tex = [1.0 if block.texture == t else 0.0 for t in TEXTURES]
        res = [min(1.0, block.resistance(p) / 5) for p in POLARITIES]
        rea = {"counter": 0.0, "slip": 0.0, "ward": 0.0}
        for o in block.options:
            if o.keyword in rea:
                rea[o.keyword] = max(rea[o.keyword], min(1.0, o.rank / 5))
        far = float(any(o.reach == "far" and ("Atk" in o.uses) for o in block.options))
        slot = [tex, [block.motive / 5, block.identity / 5], res,
                [rea["counter"], rea["slip"], rea["ward"], far]]
        rows: list[float] = []
        for o in block.options[:MAX_OPTIONS]:
            rows += [1.0 if k == o.keyword else 0.0 for k in KEYWORDS]
            rows += [min(1.0, o.rank / 10), min(1.0, o.cost / 5), float(o.reach == "far"),
                     float(o.origin == "ability"), float(o.origin == "item"),
                     float(o.origin == "pair"), float(o.instrument)]
        self._static[id(block)] = (block, slot, rows)
        return slot, rows

    def observe(self, enc: MetanoiaEncounter, combatant: str) -> np.ndarray:
        vec = np.zeros(OBS.size, dtype=np.float32)
        index, slots = self.ego(enc, combatant)
        me = enc.by_id[combatant]
        zones = enc.options.zones
        span = max(1, zones - 1)
        guarded = {f.guarding for f in enc.fighters if f.guarding and f.active}
        my_rel = self._rel_zone(enc, me.side, me.zone)
        for i, cid in enumerate(slots):
            if cid is None:
                continue
            f = enc.by_id[cid]
            b = f.block
            (tex, traits, res, rea), _ = self._static_features(b)
            known = f.side == me.side or not f.concealed
            st = f.statuses
            filled = len(f.injuries)
            if known:
                rel = self._rel_zone(enc, me.side, f.zone)
                zone = [1.0, rel / span, float(f.zone == me.zone), abs(rel - my_rel) / span]
                status = [min(1.0, st.get(s, 0) / 10) for s in STATUSES]
            else:
                zone = [0.0, 0.0, 0.0, 0.0]
                status = [0.0] * 5
            row = [1.0, float(f.active), float(f.defeated), float(f.broken), float(f.fled),
                   min(1.0, b.realm / 3), max(-1.0, min(1.0, (b.realm - me.block.realm) / 2)),
                   *tex, *traits,
                   f.strain / max(1, b.strain_max), min(1.0, b.strain_max / 10),
                   filled / b.injury_slots, min(1.0, b.injury_slots / 5),
                   min(1.0, max((s for _, s in f.injuries), default=0) / 10),
                   (f.conv / b.conv_max) if b.conv_max else 0.0, float(b.conv_max is not None),
                   f.stacks / 10,
                   *zone, *status, float(f.concealed),
                   *res,
                   float(known and f.guarding is not None),
                   float(cid in guarded and (known or f.side == me.side)),
                   *rea]
            o = _SLOT_OFF[i]
            vec[o:o + SLOT_SIZE] = row
        vec[_ROUND] = min(1.0, enc.round / enc.options.round_limit)
        phase = enc.phase
        if phase in PHASES:
            vec[_PHASE + PHASES.index(phase)] = 1.0
        p = enc.pending
        if p is not None and phase != "turn":
            at = {f: _PENDING + o for f, o in _PEND.items()}
            actor = enc.by_id[p.actor]
            vec[at["actor"] + index[p.actor]] = 1.0
            vec[at["kind"] + KIND_CODES.index(p.kind)] = 1.0
            if p.option is not None:
                vec[at["keyword"] + KEYWORDS.index(p.option.keyword)] = 1.0
            opp = enc.by_id[p.reactor] if p.reactor else None
            n, _ = pool(actor, p.boosts, opp, p.option, p.exploit_dice, enc.options.instrument)
            vec[at["rank"]] = min(1.0, (p.option.rank if p.option else 0) / 10)
            vec[at["pool"]] = min(1.0, n / 16)
            vec[at["ambush"]] = float(p.ambush)
            vec[at["exploit"]] = min(1.0, p.exploit_dice / 10)
            vec[at["boosts"]:at["boosts"] + 2] = [float("motive" in p.boosts),
                                                  float("identity" in p.boosts)]
            if p.target is not None:
                vec[at["target"] + index[p.target]] = 1.0
        _, rows = self._static_features(me.block)
        vec[_OPTIONS:_OPTIONS + len(rows)] = rows
        return vec


ENCODING = MetanoiaEncoding()
