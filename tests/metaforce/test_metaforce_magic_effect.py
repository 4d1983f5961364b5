"""Magic Effect's V on any status (FULL, spec §6.4, §5.3.4 Magnitude, WE-27; rules.full_magic),
with forced dice: a critical's ``crit magnitude <status>`` and a hit's ``meta_status <status>``."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_metaforce_kit import act, cat, fight, labels, texts

from envs.core.actions import ActionSyntaxError
from envs.metaforce.encoding import ENCODING
from envs.metaforce.rules import CORE, FULL
from envs.metaforce.rules.full_magic import MAGIC_STATUSES

AGENT = replace(FULL, crit_policy="agent")


def magic(level: int = 3, **kw):
    return cat("fighter", mpowers=frozenset({"magic_effect"}), level=level, **kw)


def duel(attacker, options=FULL, **kw):
    return fight((attacker, "a", (0, 0)), (cat("bandit", hp_max=100, **kw), "b", (0, 1)),
                 aware=False, options=options)


def test_a_criticals_v_goes_to_any_status_but_the_weapons_own_and_grappled():
    enc = duel(magic(), AGENT)
    act(enc, "fighter: attack warhammer -> bandit", ["d12=12", "d12=7"])  # crit, V 7
    act(enc, "fighter: pass", [])  # Magic Effect's MP window
    got = [x for x in labels(enc) if x.startswith("fighter: crit magnitude")]
    own = "knockback"  # the warhammer is blunt
    assert got == ["fighter: crit magnitude"] + [f"fighter: crit magnitude {s}"
                                                 for s in MAGIC_STATUSES if s != own]
    assert "grappled" not in MAGIC_STATUSES and len(MAGIC_STATUSES) == 11
    f, w = enc.by_id["fighter"], enc.by_id["fighter"].profile.weapon("warhammer")
    ev = act(enc, "fighter: crit magnitude fear", ["d6=2"])
    assert "fighter puts V 7 on magnitude (fear)" in texts(ev)
    # V is not on damage: (6 + Crushing Blow 2 + d6 2) x 2; M = K 12 + STR + d6 2 + Metaphor
    # rank and components + V 7 (spec §5.3.4)
    assert enc.by_id["bandit"].hp == 100 - (8 + 2) * 2
    m = 12 + f.attr("str") + 2 + w.magnitude_bonus + 7
    assert enc.by_id["bandit"].statuses["fear"][0] == m
    assert f"bandit: fear intense (magnitude {m})" in texts(ev)  # Mind SD 2: M >= SD + 10
    assert enc.decision == "frame"  # one named status an attack: no meta_status after it


def test_without_magic_effect_a_crit_has_only_the_weapons_status():
    enc = duel(cat("fighter", level=3), AGENT)
    act(enc, "fighter: attack warhammer -> bandit", ["d12=12", "d12=7"])
    assert labels(enc) == ["fighter: crit tohit", "fighter: crit damage",
                           "fighter: crit magnitude", "fighter: pass"]
    with pytest.raises(ActionSyntaxError, match="magnitude <status>"):
        enc.parse_action("fighter: crit magnitude grappled")


def test_a_hit_offers_a_meta_die_as_any_status_magnitude_and_magic_effect_adds_mp():  # WE-27
    enc = duel(magic())
    enc.by_id["fighter"].mp = 10  # md10
    act(enc, "fighter: attack warhammer -> bandit", ["d12=5", "d12=3", "d6=1"])  # 5 + 8 > D 6
    assert enc.decision == "meta_status" and enc.by_id["bandit"].hp == 100 - 9
    assert labels(enc) == [f"fighter: meta_status {s}" for s in MAGIC_STATUSES] + [
        "fighter: pass"]
    assert dict(enc.window.info)["die"] == 10
    ev = act(enc, "fighter: meta_status slow", ["d10=7"])
    assert "fighter creates a Meta-Die md10 7: pays 7 MP" in texts(ev)
    assert labels(enc) == ["fighter: magic_effect 1", "fighter: magic_effect 2",
                           "fighter: magic_effect 3", "fighter: pass"]  # MP 3 left, Level 3
    f, w = enc.by_id["fighter"], enc.by_id["fighter"].profile.weapon("warhammer")
    ev = act(enc, "fighter: magic_effect 2", [])
    assert "fighter uses magic effect for 2 MP (V 7 -> 9)" in texts(ev)
    m = 5 + f.attr("str") + 1 + w.magnitude_bonus + 9
    assert enc.by_id["bandit"].statuses["slow"][0] == m and f.mp == 1


def test_the_meta_die_window_needs_magic_effect_4_mp_and_full():
    for who, mp, options in ((cat("fighter", level=3), 10, FULL), (magic(), 3, FULL),
                             (magic(), 10, CORE)):
        enc = duel(who, options)
        enc.by_id["fighter"].mp = mp
        act(enc, "fighter: attack warhammer -> bandit", ["d12=5", "d12=3", "d6=1"])
        assert enc.decision == "frame", (who.mpowers, mp, options.full)
    enc = _meta_window()
    with pytest.raises(ActionSyntaxError, match="meta_status takes no target"):
        enc.parse_action("fighter: meta_status charm -> bandit")


def test_both_windows_encode_and_decode_every_label():
    enc = duel(magic(), AGENT)
    act(enc, "fighter: attack warhammer -> bandit", ["d12=12", "d12=7"])
    act(enc, "fighter: pass", [])
    for enc_ in (enc, _meta_window()):
        legal = enc_.legal_actions()
        idx = ENCODING.encode_actions(enc_, "fighter", legal)
        assert len(set(idx)) == len(legal)
        assert [ENCODING.decode_action(enc_, "fighter", i) for i in idx] == legal


def _meta_window():
    enc = duel(magic())
    act(enc, "fighter: attack warhammer -> bandit", ["d12=5", "d12=3", "d6=1"])
    assert enc.decision == "meta_status"
    return enc
