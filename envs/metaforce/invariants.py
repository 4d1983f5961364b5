"""Metaforce's state invariants (the registry's ``invariants`` part): checked after every
``apply`` by the property tests and ``arena soak``.

HP <= max and, for the living, above the death line (spec §8.6); MP within 0..Max MP; Reactions,
frames, Stun and ammunition in range; positions on the grid with no two combatants sharing a
square; statuses with positive magnitudes; grapples mutual and adjacent; FULL's concentration
effects held by active casters within the capacity of spec §7.9, their Tension summed; the
decision state
consistent (a current actor with at least one legal action while the fight is on).
"""

from __future__ import annotations

from typing import Any

from envs.core.squaregrid import distance, footprint

__all__ = ["state_invariants"]


def state_invariants(enc: Any) -> None:
    """Raise ``AssertionError`` naming the round, the combatant and the value out of bounds."""
    cells: dict[tuple[int, int], str] = {}
    dying = enc.window.actor if enc.window is not None and enc.window.kind == "deus_ex" else None
    for c in enc.combatants:
        p = c.profile
        who = f"round {enc.round}: {c.id}"
        if c.id == dying:  # W-I5: the lethal damage is shown while the victim decides
            assert c.hp <= 0, f"{who}: asked about Deus Ex at hp {c.hp}"
            continue
        assert c.hp <= p.hp_max, f"{who}: hp {c.hp} > max {p.hp_max}"
        assert 0 <= c.mp <= c.mp_max <= p.mp_max, f"{who}: mp {c.mp} / max {c.mp_max}"
        assert 0 <= c.reactions <= 2 + c.profile.mp_max // 4, f"{who}: reactions {c.reactions}"
        assert 0 <= c.frames_left <= 3, f"{who}: frames left {c.frames_left}"
        assert 0 <= c.stun <= 4, f"{who}: stun {c.stun}"
        assert c.state in ("active", "incapacitated", "unconscious", "dead", "retreated"), \
            f"{who}: state {c.state!r}"
        body = int(p.cores.get("body", 0))
        if c.state in ("active", "unconscious", "retreated"):
            assert c.hp > 0 or c.state != "active", f"{who}: active with hp {c.hp}"
        if c.alive and p.protected:
            assert c.hp >= -body, f"{who}: alive with hp {c.hp} < -Body {-body}"
        if c.alive and not p.protected and c.state != "retreated":
            assert c.hp > 0 or c.state != "active", f"{who}: unprotected at hp {c.hp}"
        for wid, n in c.loaded.items():
            w = p.weapon(wid)
            assert 0 <= n <= w.capacity + (1 if w.chamber_plus_one else 0), \
                f"{who}: {wid} holds {n} rounds"
            assert c.reserve[wid] >= 0, f"{who}: {wid} reserve {c.reserve[wid]}"
        for name, (m, _x, _src) in c.statuses.items():
            assert m > 0, f"{who}: status {name} magnitude {m}"
        if c.effects:  # spec §7.7, §7.9 (FULL)
            modes = [e[1] for e in c.effects]
            assert c.active and enc.options.full, f"{who}: holds effects while {c.state}"
            assert c.tension == sum(e[2] for e in c.effects), f"{who}: tension {c.tension}"
            assert modes.count("loose") <= 3 and modes.count("unbroken") <= 2 and not (
                modes.count("unbroken") == 2 and "loose" in modes), f"{who}: effects {modes}"
        assert c.grappling is not None or not c.extra_grips, f"{who}: further grips, no first"
        for gid in c.grips():
            t = enc.by_id[gid]
            assert c.active and t.alive, f"{who}: grapples {t.id} while {c.state}/{t.state}"
            assert t.statuses.get("grappled", (0, 0, ""))[2] == c.id, \
                f"{who}: grapples {t.id} but {t.id} is not grappled by it"
            assert distance(c.pos, c.n, t.pos, t.n) <= c.reach, \
                f"{who}: grapples {t.id} from beyond its reach"
        if "grappled" in c.statuses:
            src = c.statuses["grappled"][2]
            assert enc.by_id[src].holds(c.id), f"{who}: grappled by {src}, who lets go"
        if not c.present:
            continue
        for cell in footprint(c.pos, c.n):
            assert cell in enc.grid, f"{who}: at {c.pos} covers {cell}, off the grid"
            other = cells.get(cell)
            assert other is None, f"round {enc.round}: {c.id} and {other} share {cell}"
            cells[cell] = c.id
    if not enc.is_over():
        actor = enc.current_actor()
        assert actor is not None, f"round {enc.round}: no current actor in a fight still on"
        assert enc.legal_actions(), f"round {enc.round}: {actor} has no legal action"
        assert enc.round <= enc.options.max_rounds, f"round {enc.round} past the limit"
