"""Mano a Mano grappling (spec §5.7, §6.2): hold, push, trip, slam, slam onto, wrench, choke and
disarm; balance and breakfall rolls (RULING R49, R15), falls (RULING R14, R57), the outcome choices
(RULING R18), pair movement (RULING R43) and the end of stretched grapples
(rulings.GRAPPLES_NEED_ADJACENCY). The grapple state itself is ``ManoEncounter.grapples``.

Plain functions of the encounter (``state.ManoEncounter``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core import Action, Dice
from envs.core.events import Event
from envs.core.hexgrid import Hex, distance, neighbor

from . import guns, legal, modifiers, preview, rulings, strikes, turns
from . import resolution as R
from .events import (
    DefenseBonus,
    FollowedInto,
    Harmed,
    LedgeDrop,
    Note,
    Pushed,
    PushedIntoWall,
    Rolled,
)
from .fighter import Can, Fighter, Turn, act
from .preview import DAMAGING_GRAPPLES
from .turns import STANCES

if TYPE_CHECKING:
    from .state import ManoEncounter



def grapple_weapon(enc: ManoEncounter, f: Fighter) -> str:
    """Grappling counts as the weapon "grapple", or as the single natural weapon (RULING R11)."""
    nat = f.block.natural_weapons
    return "grapple" if len(nat) >= 2 else nat[0].name


def grapple_actions(
    enc: ManoEncounter,
    f: Fighter,
    t: Turn,
    can: Can,
    foes: list[tuple[Fighter, int]],
    occupied: set[Hex],
) -> list[Action]:
    """Grappling actions of spec §5.3 rows 19-26 (RULING R19: same base state to start one)."""
    out: list[Action] = []
    fid = f.id
    weapon = grapple_weapon(enc, f)
    quick_ok = can.quick and legal.capacity_ok(enc, f, t, weapon, None)
    strenuous_ok = can.strenuous
    hexmap = enc.map
    for g, d in foes:
        if d != 1:
            continue
        if f.standing != g.standing and enc.grapple(fid, g.id) is None:
            continue
        gid = g.id
        if quick_ok:
            out.append(act(fid, "grapple", ("hold",), gid))
            for d in range(6):  # RULING R43: the target moves 1 hex to a free hex
                dest = neighbor(g.hex, d)
                into_wall = (
                    enc.full and dest in hexmap and hexmap.at(dest).wall
                )  # spec §5.7.3, §5.7.4
                if into_wall or (hexmap.passable(dest) and dest not in occupied):
                    out.append(act(fid, "grapple", ("push", str(d)), gid))
        if strenuous_ok:
            if g.standing:
                out.append(act(fid, "grapple", ("trip",), gid))
            out.append(act(fid, "grapple", ("slam",), gid))
            if f.standing:
                out.append(act(fid, "grapple", ("slam_onto",), gid))
            for avoid in modifiers.armor_options(
                enc, g
            ):  # spec §5.7.3: wrench and choke may avoid armor
                out.append(act(fid, "grapple", ("wrench", *avoid), gid))
                out.append(act(fid, "grapple", ("choke", *avoid), gid))
            for hand in sorted(g.held):
                out.append(act(fid, "grapple", ("disarm", hand), gid))
    return out


def grapple_action(
    enc: ManoEncounter,
    f: Fighter,
    t: Turn,
    args: tuple[str, ...],
    target: Fighter,
    dice: Dice,
    events: list[Event],
) -> None:
    verb = args[0]
    enc.follow_hex = None
    p = preview.grapple(enc, f, args, target)  # the odds the heuristic sees
    if verb in DAMAGING_GRAPPLES:
        turns.charge(t)  # spends the charge (p.charge_hexes)
    turns.count_action(enc, f, t, quick=p.quick, weapon=p.weapon)
    mod, diff, absorption = p.modifier, p.difficulty, p.absorption
    die = dice.roll(20)[0]
    ok = R.success(die, mod, diff)
    events.append(Rolled(f.id, f"{verb} on {target.id}", die, mod, diff, ok))
    before = enc.grapple(f.id, target.id)
    if not ok:  # spec §6.2, RULING R18: the defender keeps (neutral) or releases
        if not target.incapacitated:  # the helpless hold nothing (RULING R23)
            ask(enc, target.id, ("keep", "release"), f.id, events, was=before)
        return
    G = f.block.grapple_power
    power = p.power_at(die)  # spec §8.1: G or 2G, optional rules, charge (RULING R28, R37)
    fell = False
    if verb == "push":
        d = int(args[1])
        dest = neighbor(target.hex, d)
        if enc.map.at(dest).wall:  # spec §5.7.4: pushed into a wall counts as a fall, in place
            events.append(PushedIntoWall(target.id, dest))
            fell = strikes.fall(enc, target, power, events)
        else:
            vacated = target.hex
            drop_m = max(0.0, enc.map.at(vacated).height_m - enc.map.at(dest).height_m)
            target.hex = dest
            events.append(Pushed(target.id, vacated, target.hex))
            enc.follow_hex = vacated
            break_stretched(enc, events, keep=frozenset((f.id, target.id)))
            if drop_m >= rulings.LEDGE_FALL_M:  # over an edge: a fall whatever the balance
                events.append(LedgeDrop(target.id, drop_m))
                fell = strikes.fall(enc, target, power + int(drop_m), events)
            elif target.standing:  # RULING R57: a fall from a height adds 1 power per metre
                fell = not balance(enc, target, dice, events) and strikes.fall(
                    enc, target, power + int(drop_m), events
                )
    elif verb == "trip":
        fell = not balance(enc, target, dice, events) and strikes.fall(enc, target, power, events)
    elif verb in ("slam", "slam_onto"):
        if balance(enc, target, dice, events, purpose="breakfall"):
            power = max(0, power - G)  # RULING R15
        target.standing = False
        fell = True
        if power > 0:
            strikes.fall_harm(enc, target, power, events)
        else:
            events.append(Note(target.id, "breaks the fall and takes nothing"))
        if verb == "slam_onto":
            f.standing = False
    elif verb == "wrench":
        strikes.harm(enc, target, power, "blunt", absorption, events)
    elif verb == "choke":
        was = target.incapacitated
        damage, stun = R.harm(power, "blunt", absorption, choke=True)
        target.stun += stun
        if stun > 0:
            target.aiming = None  # spec §8.2, RULING R31: lost on any damage or stun
        events.append(Harmed(target.id, power, absorption, 0, stun, target.health))
        if not was:  # out of the fight once (as _harm)
            strikes.after_harm(enc, target, events)
    elif verb == "disarm":  # RULING R17
        item = target.held.pop(args[1])
        if (
            f.block.items[item].kind == "bow"
        ):  # the drawn bow and its aim go with it (RULING R31, R32)
            target.bow_drawn = False
        if target.aiming == item:
            target.aiming = None
        free = [h for h in ("right", "left") if h not in f.held and "both" not in f.held]
        two = f.block.items[item].two_handed and len(free) >= 2
        if free and f.may_carry(item):  # spec §5.7.3: into the actor's free hand; a two-handed
            f.held["both" if two else free[0]] = item  # item in one hand is one-handed use (2.3)
            guns.handed_over(enc, target, f, item)  # rulings.GUN_STATE_PER_ITEM
            events.append(Note(f.id, f"takes {target.id}'s {item}"))
        else:
            enc.floor.setdefault(target.hex, []).append(item)
            guns.to_floor(enc, target, item, target.hex)
            events.append(Note(target.id, f"drops {item}"))
    if enc._outcome is not None or target.incapacitated or f.incapacitated:
        return
    if fell and f.standing:  # spec §6.2: the target went down, the actor still stands
        ask(enc, f.id, ("follow_to_ground", "let_go"), target.id, events, was=before)
    else:
        ask(enc, f.id, ("hold_dominant", "release"), target.id, events, was=before)


def ask(
    enc: ManoEncounter,
    who: str,
    options: tuple[str, ...],
    partner: str,
    events: list[Event],
    was: Any,
) -> None:
    enc.choice_was = dict(was) if was else None
    enc.stack.append(Turn(who, choice=options, partner=partner))
    events.append(Note(who, f"chooses: {' or '.join(options)}"))


def choose(enc: ManoEncounter, f: Fighter, t: Turn, option: str, events: list[Event]) -> None:
    """Apply a spec §6.2 outcome choice or a spec §3.4 initial stance."""
    enc.stack.pop()
    if option in STANCES:
        if option == "stance_evade":
            f.defense_bonus = 4
            events.append(DefenseBonus(f.id, "evade", 4))
        elif option == "stance_counter":  # RULING R47: a counter prepared on a "turn 0"
            f.counter_ready = True
            events.append(Note(f.id, "starts ready to counter"))
        if not enc.stack and not enc.order_pending:
            turns.next_turn(enc, events)
        return
    assert t.partner is not None  # a grapple outcome choice names the other member
    other = enc.by_id[t.partner]
    pair = frozenset((f.id, other.id))
    base = "ground" if not f.standing and not other.standing else "standing"
    follow_hex = enc.follow_hex
    enc.follow_hex = None
    if option in ("release", "let_go"):
        enc.grapples.pop(pair, None)
        events.append(Note(f.id, f"releases {other.id}"))
    elif option == "hold_dominant":
        enc.grapples[pair] = {"base": base, "dominant": f.id}
        events.append(Note(f.id, f"holds {other.id}, dominant ({base})"))
    elif option == "follow_to_ground":
        f.standing = False
        enc.grapples[pair] = {"base": "ground", "dominant": f.id}
        events.append(Note(f.id, f"follows {other.id} to the ground, dominant"))
    elif option == "keep":  # RULING R18
        was = enc.choice_was
        dominant = f.id if was and was["dominant"] == f.id else None
        enc.grapples[pair] = {"base": base, "dominant": dominant}
        events.append(
            Note(
                f.id, f"keeps the grapple with {other.id} ({'dominant' if dominant else 'neutral'})"
            )
        )
    if (
        option in ("hold_dominant", "follow_to_ground")
        and follow_hex is not None
        and follow_hex not in enc.occupied()
    ):
        f.hex = follow_hex  # RULING R43: the pair moves together
        events.append(FollowedInto(f.id, follow_hex))
    break_stretched(enc, events)


def break_stretched(
    enc: ManoEncounter, events: list[Event], keep: frozenset[str] = frozenset()
) -> None:
    """Grapples whose members a push left apart end (rulings.GRAPPLES_NEED_ADJACENCY)."""
    for pair in list(enc.grapples):
        if pair == keep:
            continue
        a, b = (enc.by_id[c] for c in sorted(pair))
        if distance(a.hex, b.hex) != 1:
            del enc.grapples[pair]
            events.append(Note(a.id, f"loses the grapple with {b.id}: they are no longer adjacent"))


def release(enc: ManoEncounter, a: str, b: str, events: list[Event]) -> None:
    enc.grapples.pop(frozenset((a, b)), None)
    events.append(Note(a, f"releases {b}"))


def release_all(enc: ManoEncounter, cid: str) -> None:
    for pair in [p for p in enc.grapples if cid in p]:
        del enc.grapples[pair]


def balance(
    enc: ManoEncounter, target: Fighter, dice: Dice, events: list[Event], purpose: str = "balance"
) -> bool:
    """Balance or breakfall roll: d20 + max(grappling, acrobatics) > 8 (spec §5.7.2, R49, R52)."""
    die = dice.roll(20)[0]
    mod = target.block.balance_roll_modifier
    ok = R.success(die, mod, 8)
    events.append(Rolled(target.id, purpose, die, mod, 8, ok))
    return ok
