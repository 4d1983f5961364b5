"""Which Metanoia actions are legal now (spec §4.2, §5, §6.1; RULINGS R3, R7, R11, R19-R21, R25,
R29, R36, R37, R40).

``legal_actions(enc)`` lists every choice of the deciding combatant in a fixed order (the action
encoding and the seeded games depend on it): ``recover`` first (always legal, the "pass"), then
withdraw, moves, hide, sense, guard, mark, the option actions; off-turn, the reactions or the
``no``/``yes`` of an intercept or a challenge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action

from .catalogue import Option
from .fighters import Fighter, Pending
from .preview import strain_cost

if TYPE_CHECKING:
    from .state import MetanoiaEncounter


def legal_actions(enc: MetanoiaEncounter) -> list[Action]:
    if enc.outcome() is not None:
        return []
    phase = enc.phase
    if phase == "turn":
        return turn_actions(enc, enc.by_id[enc.order[enc.turn_idx]])
    p = enc.pending
    assert p is not None
    if phase == "react":
        assert p.reactor is not None
        return react_actions(enc, enc.by_id[p.reactor], p)
    who = p.candidates[0]
    return [Action(who, phase, ("no",)), Action(who, phase, ("yes",))]


def enemies(enc: MetanoiaEncounter, c: Fighter) -> list[Fighter]:
    return [f for f in enc.fighters if f.side != c.side and f.active]


def affordable(c: Fighter, traits: int, o: Option, target: Fighter) -> bool:
    """RULING R40: Strain >= trait cost + max(0, option cost - stacks Fuel may take)."""
    return c.strain >= strain_cost(traits, o, target)


def support_ok(o: Option, target: Fighter) -> bool:
    """Preconditions of support keywords (spec §5.3 #9-#12)."""
    kw = o.keyword
    if kw == "mend":
        return bool(target.injuries)
    if kw == "clear":
        return target.stacks > 0
    if kw == "rally":
        top, conv = target.block.conv_max, target.conv
        return top is not None and conv is not None and conv < top
    return True


def rear(enc: MetanoiaEncounter, side: str) -> int:
    """RULING R37: side A's rear is zone 0, side B's the last zone."""
    return 0 if side == enc.sides()[0].side else enc.options.zones - 1


def turn_actions(enc: MetanoiaEncounter, c: Fighter) -> list[Action]:
    opts = enc.options
    cid = c.id
    acts = [Action(cid, "recover")]  # spec §5.12: always legal, the "pass"
    pinned = "pinned" in c.statuses
    foes = enemies(enc, c)
    seen_in_zone = any(e.zone == c.zone and not e.concealed for e in foes)
    boosts = c.boosts()
    paid = [b for b in boosts if len(b) <= c.strain]  # traits cost 1 Strain each (RULING R8)
    if opts.withdraw and not pinned and not seen_in_zone and c.zone == rear(enc, c.side):
        acts.append(Action(cid, "withdraw"))  # RULING R37
    if not pinned:  # spec §5.11: one zone, not off the field; traits paid only if rolled
        for z in (c.zone - 1, c.zone + 1):
            if 0 <= z < opts.zones:
                acts.extend(Action(cid, "move", (str(z),), None, b) for b in paid)
        if not seen_in_zone:  # RULING R20
            acts.extend(Action(cid, "hide", (), None, b) for b in paid)
    for e in foes:  # RULING R21: Sense any concealed enemy, any zone
        if e.concealed:
            acts.extend(Action(cid, "sense", (), e.id, b) for b in paid)
    if opts.guard:  # RULING R25
        for a in enc.fighters:
            if a.side == c.side and a is not c and a.active and a.zone == c.zone:
                acts.append(Action(cid, "guard", (), a.id))
    targets = [e for e in foes if not e.concealed]
    far_mark = any(o.reach == "far" and "Atk" in o.uses for o in c.block.options)  # RULING R11
    for e in targets:
        if far_mark or e.zone == c.zone:
            acts.extend(Action(cid, "mark", (), e.id, b) for b in paid)
    for o in c.block.options:
        uses = o.uses
        if "Sup" in uses:
            for a in enc.fighters:
                if a.side == c.side and a.active and (o.reach == "far" or a.zone == c.zone):
                    if support_ok(o, a) and affordable(c, 0, o, a):
                        acts.append(Action(cid, "support", (o.name,), a.id))
            continue
        kinds = []
        if "Atk" in uses:
            kinds.append("attack")
        if "Cnd" in uses:
            kinds.append("condition")
        if "Arg" in uses:
            kinds.append("argue")
        for kind in kinds:
            for e in targets:
                if o.reach != "far" and e.zone != c.zone:
                    continue
                if kind == "argue" and e.block.conv_max is None:  # RULING R29
                    continue
                for b in boosts:
                    if affordable(c, len(b), o, e):
                        acts.append(Action(cid, kind, (o.name,), e.id, b))
    return acts


def react_actions(enc: MetanoiaEncounter, r: Fighter, p: Pending) -> list[Action]:
    rid = r.id
    actor = enc.by_id[p.actor]
    choices: list[Option | None] = [None]
    barred = p.ambush or (r.surprised and enc.surprised_side is not None)  # RULING R19, R36
    if not barred:
        choices.extend(o for o in r.block.options if o.reactive)  # RULING R7
    acts = []
    for o in choices:
        for b in r.boosts():
            if o is None:
                if len(b) <= r.strain:
                    acts.append(Action(rid, "react", ("none",), None, b))
            elif affordable(r, len(b), o, actor):
                acts.append(Action(rid, "react", (o.name,), None, b))
    return acts
