"""The small state changes every Metanoia action is made of (spec §2.2-§2.4, §5.6, §7.1-§7.3).

Paying costs, rolling a pool, gaining stacks, being revealed, landing an option and leaving the
fight: each a plain function on the encounter that appends its events. The numbers come from
``preview.py``, the same functions agents read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.dice import Dice
from envs.core.events import Event, OutOfFight

from . import rulings
from .catalogue import Option
from .events import (
    ConvictionsChanged,
    InjuryLanded,
    NothingLands,
    Paid,
    PoolRolled,
    Revealed,
    StacksChanged,
    StatusChanged,
    StrainChanged,
)
from .fighters import CONCEALMENT, STATUS_OF, Fighter
from .preview import landing, pool, price

if TYPE_CHECKING:
    from .state import MetanoiaEncounter


def pay(c: Fighter, traits: int, o: Option | None, target: Fighter | None,
        events: list[Event], what: str) -> None:
    """RULING R8/R10: traits in Strain; option cost from Fuel stacks on the target first."""
    strain, fuel = price(traits, o, target)
    if fuel:
        assert target is not None
        target.stacks -= fuel
    if strain or fuel:
        c.strain -= strain
        events.append(Paid(c.id, strain, fuel, target.id if fuel and target else None, what))


def successes(enc: MetanoiaEncounter, c: Fighter, faces: tuple[int, ...]) -> int:
    """spec §2.2: each face counts by the roller's Texture."""
    table = enc.textures[c.block.texture]
    return sum(table[f - 1] for f in faces)


def roll(enc: MetanoiaEncounter, c: Fighter, boosts: tuple[str, ...], opponent: Fighter | None,
         o: Option | None, extra: int, dice: Dice, events: list[Event], purpose: str,
         consume_slip: bool = True) -> int:
    """Build the pool (spec §2.3) and roll it; returns successes."""
    n, parts = pool(c, boosts, opponent, o, extra, enc.options.instrument)
    if consume_slip and "slip" in c.statuses:  # RULING R18: used by this roll
        del c.statuses["slip"]
        events.append(StatusChanged(c.id, "slip", 0, "used"))
    faces = dice.roll(6, n)
    s = successes(enc, c, faces)
    events.append(PoolRolled(c.id, purpose, c.block.texture, faces, s,
                             ", ".join(parts) if len(parts) > 1 else ""))
    return s


def add_stacks(f: Fighter, n: int, why: str, events: list[Event]) -> None:
    before = f.stacks
    f.stacks = min(rulings.STACKS_CAP, f.stacks + n)  # RULING R9
    if f.stacks != before:
        events.append(StacksChanged(f.id, f.stacks - before, f.stacks, why))


def reveal(f: Fighter, why: str, events: list[Event]) -> None:
    """spec §7.2: Obscured and Hidden end."""
    removed = [s for s in CONCEALMENT if s in f.statuses]
    for s in removed:
        del f.statuses[s]
    if removed:
        events.append(Revealed(f.id, why))


def check_out(f: Fighter, events: list[Event]) -> None:
    """spec §7.3, RULING R26: every Injury slot filled is defeat, no Conviction left is broken."""
    if not f.active:
        return
    if len(f.injuries) >= f.block.injury_slots:
        f.defeated = True
        events.append(OutOfFight(f.id, "defeated"))
    elif f.conv is not None and f.conv <= 0:
        f.broken = True
        events.append(OutOfFight(f.id, "broken"))


def land(w: Fighter, loser: Fighter, o: Option, mode: str, dbl: int, events: list[Event]) -> None:
    """Apply ``preview.landing`` (spec §5.6; RULINGS R13, R16, R17, R27, R29)."""
    hit = landing(w, loser, o, mode, dbl)
    final = hit.final
    if final == 0:
        events.append(NothingLands(loser.id, o.keyword,
                                   f"rank {hit.rank} - resistance {hit.resistance} = 0"))
        return
    if mode == "injury":
        n = min(hit.count, loser.block.injury_slots - len(loser.injuries))
        loser.injuries.extend([(o.keyword, final)] * n)
        events.append(InjuryLanded(loser.id, o.keyword, final, n, len(loser.injuries),
                                   loser.block.injury_slots))
    elif mode == "condition":
        status = STATUS_OF[o.keyword]
        if final > loser.statuses.get(status, 0):  # RULING R27: keep the higher rank
            loser.statuses[status] = final
        events.append(StatusChanged(loser.id, status, loser.statuses[status],
                                    f"{w.id}'s {o.keyword}"))
    else:  # argue, RULING R29
        assert loser.conv is not None
        loss = min(loser.conv, hit.count)
        loser.conv -= loss
        events.append(ConvictionsChanged(loser.id, -loss, loser.conv))
        if o.keyword == "demoralize":  # rider: lose R Strain (spec §5.3 #8)
            drain = min(loser.strain, final)
            loser.strain -= drain
            events.append(StrainChanged(loser.id, -drain, loser.strain, "demoralized"))
