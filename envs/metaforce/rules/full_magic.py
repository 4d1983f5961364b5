"""Magic Effect's other half (FULL): a V-Bonus on the magnitude of any status.

spec §6.4 (the M-Power table: "V-Bonuses may be given to any effect (e.g. any status
magnitude)"), §5.3.4 (the Magnitude use: "the status must suit the weapon; Magic Effect lifts
this limit"), WE-27 (a level-3 user's unarmed slap hits; Create a Meta-Die gives V 7 for 7 MP;
V becomes a Charm magnitude; 3 MP more make it +10; 10 MP in all). Two ways in:

* **A critical's V** (option ``crit_policy: agent``, ``full_windows.crit_choice``): besides
  ``crit tohit|damage|magnitude|size``, a Magic Effect user may put V on the magnitude of any
  status its weapon does not carry, ``crit magnitude <status>`` (the weapon's own stays
  ``crit magnitude``).
* **Create a Meta-Die on a hit** (WE-27, ``meta_status``): once a hit has landed (deflected or
  direct) on a target still in the fight, ``meta_status <status>`` rolls the largest md the
  user's MP affords (spec §6.4, with R-29's extra Size dice and Hype copies as for W-I1), pays
  its result, and the result is a V-Bonus on that status's magnitude; Magic Effect's own window
  (``magic_effect k``, k MP for +k, up to the Level) follows.

Either way the status is inflicted as a weapon's is (spec §7.2, ``statuses.inflict``): ``M = K +
attribute (a pending Special Attack's Attribute die) + bonus die + Metaphor rank + magnitude
components + V``, halved on a deflected hit, then the target's SD, resistances and Save.

RULINGS (ENGINE, the spec gives no procedure): every status of spec §7 but Grappled (only a
grapple makes it, §5.9) that these rules carry; one named status an attack (no ``meta_status``
after a critical's V went to one); the window opens only for a Metaforce user holding Magic
Effect with MP for a Meta-Die (at least 4, spec §6.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.actions import Action
from envs.core.events import Event
from envs.core.flow import Ctx

from .checks import meta_die_for
from .combatant import Combatant
from .events import MetaDieRolled
from .full_powers import has, magic_mp, meta_value
from .full_statuses import carried
from .records import STATUSES

if TYPE_CHECKING:
    from .state import MetaforceEncounter

__all__ = ["MAGIC_STATUSES", "magic_statuses", "meta_status"]

MAGIC_STATUSES = tuple(s for s in STATUSES if s != "grappled")
"""the statuses a Magic Effect V may be the magnitude of (``records.STATUSES`` order; the
layout's ``magic`` block)"""


def magic_statuses(enc: MetaforceEncounter, a: Combatant, own: str | None = None) -> list[str]:
    """The statuses Magic Effect lets ``a``'s V go to, but ``own`` (the weapon's own status)."""
    if not has(enc, a, "magic_effect"):
        return []
    return [s for s in MAGIC_STATUSES if s != own and carried(enc.options.full, s)]


def meta_status(enc: MetaforceEncounter, ctx: Ctx, ev: list[Event], a: Combatant,
                t: Combatant) -> tuple[str, int] | None:
    """WE-27: after ``a``'s hit on ``t``, the ``meta_status`` window; returns ``(status, V)``
    (the Meta-Die's result with Magic Effect's MP added) or ``None`` (passed, or not open)."""
    sides = meta_die_for(a.mp) if has(enc, a, "magic_effect") else None
    if sides is None:
        return None
    opts = [Action(a.id, "meta_status", (s,)) for s in magic_statuses(enc, a)]
    if not opts:
        return None
    pick = ctx.ask(a.id, "meta_status", opts + [Action(a.id, "pass")],
                   {"target": t.id, "die": sides})
    if pick.kind != "meta_status":
        return None
    value, cost = meta_value(enc, ctx.dice, ev, a, sides, "magnitude")
    a.mp -= cost
    ev.append(MetaDieRolled(a.id, sides, value, cost))
    return pick.args[0], magic_mp(enc, ctx, ev, a, t, value)
