"""Metaforce FULL spellcasting with forced dice: Convoke (W-C, spec §5.8, §6.1, R-23, WE-34),
Tension (§7.6, §7.7, WE-35), concentration (§7.9, R-47) and the cantrips Ward, Heal and Magic
Missile (§13.4)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_metaforce_kit import act, cat, fight, labels, texts

from envs.metaforce.encoding import ENCODING
from envs.metaforce.rules import CORE, FULL
from envs.metaforce.rules.full_spells import costs
from envs.metaforce.rules.profile import tension_cost


def wizard(cid: str = "wizard", level: int | None = None, **kw):
    """The Wizard of §13.1; ``level`` makes its Fireball a spell of that level (frames L,
    Exert 2L, spec §5.8)."""
    p = cat("wizard", cid, **kw)
    if level is not None:
        fb = replace(p.spells[0], level=level, frames=level, exert=2 * level)
        p = replace(p, spells=(fb,))
    return p


def coven(level: int | None = None, mana: tuple[str, ...] = ("w2",), third: bool = False,
          options=FULL):
    """The Wizard ``w`` (to act), allies ``w2`` (and ``w3``) of the same magic, a Bandit 30 ft
    off; ``mana`` names who holds tapped mana."""
    members = [(wizard("w", level), "a", (0, 0)), (wizard("w2", level), "a", (1, 0))]
    if third:
        members.append((wizard("w3", level), "a", (2, 0)))
    members.append((cat("bandit"), "b", (0, 6)))
    enc = fight(*members, options=options)
    for cid in mana:
        enc.by_id[cid].mana_until = 1
    return enc


@pytest.mark.parametrize(("level", "mana", "k", "exert", "frames"), [
    (2, False, 0, 4, 2),   # WE-34 row 1
    (2, True, 0, 2, 1),    # row 2
    (1, True, 0, 1, 1),    # row 3
    (3, True, 1, 1, 1),    # row 4: 3 - 2 = 1, max(1, 3 - 1 - 1) = 1
    (3, True, 2, 0, 1),    # not below 0
    (5, True, 1, 3, 3),    # one extra frame off
    (5, True, 2, 1, 3),    # however many convoke
])
def test_spell_costs_follow_the_table_of_spec_5_8(level, mana, k, exert, frames):
    w = fight((wizard("w", level), "a", (0, 0)), (cat("bandit"), "b", (0, 6)),
              options=FULL).by_id["w"]
    w.mana_until = 1 if mana else -1
    assert costs(w, w.profile.spells[0], k) == (exert, frames)


def test_a_convoker_gives_its_mana_for_a_reaction():
    enc = coven(level=3, mana=("w", "w2"))
    ev = act(enc, "w: cast fireball -> bandit", [])
    assert enc.decision == "convoke" and enc.current_actor() == "w2"
    assert labels(enc) == ["w2: convoke", "w2: pass"]
    w2 = enc.by_id["w2"]
    ev = act(enc, "w2: convoke", ["d12=5", "d12=3", "d8=4"])  # one frame: it resolves now
    assert "w2 uses convoke (gives its tapped mana to w)" in texts(ev)
    assert "w exerts 1 (Exert now 1)" in texts(ev)  # WE-34 row 4
    assert w2.reactions == 0 and w2.mana_until == -1 and enc.by_id["w"].mana_until == -1
    assert enc.by_id["bandit"].hp == 36 - 14


def test_a_declined_convoke_costs_nothing():
    enc = coven(level=3, mana=("w", "w2"))
    act(enc, "w: cast fireball -> bandit", [])
    ev = act(enc, "w2: pass", [])
    assert "w exerts 3 (Exert now 3)" in texts(ev)  # L with tapped mana, max(1, 3 - 1) frames
    assert enc.by_id["w"].casting == "fireball" and enc.by_id["w"].cast_left == 1
    assert enc.by_id["w2"].reactions == 1 and enc.by_id["w2"].mana_until == 1


def test_convokers_are_asked_in_initiative_order_and_each_lowers_the_exert_by_2():
    enc = coven(level=5, mana=("w", "w2", "w3"), third=True)
    act(enc, "w: cast fireball -> bandit", [])
    assert enc.current_actor() == "w2"
    act(enc, "w2: convoke", [])
    assert enc.current_actor() == "w3"
    ev = act(enc, "w3: convoke", [])
    assert "w exerts 1 (Exert now 1)" in texts(ev)  # max(0, 5 - 4)
    assert enc.by_id["w"].cast_left == 2  # max(1, 5 - 2) = 3 frames, the first one spent


def test_no_window_without_tapped_mana_a_reaction_or_the_same_magic():
    enc = coven(level=2, mana=("w",))  # w2 holds no mana
    ev = act(enc, "w: cast fireball -> bandit", ["d12=5", "d12=3", "d8=4"])
    assert "w exerts 2 (Exert now 2)" in texts(ev)
    enc = coven(level=2, mana=("w", "w2"))
    enc.by_id["w2"].reactions = 0
    act(enc, "w: cast fireball -> bandit", ["d12=5", "d12=3", "d8=4"])
    assert enc.decision != "convoke" and enc.by_id["w"].exert == 2
    enc = fight((wizard("w", 2), "a", (0, 0)), (replace(wizard("w2", 2), magic="cha"), "a",
                                                         (1, 0)),
                (cat("bandit"), "b", (0, 6)), options=FULL)
    enc.by_id["w2"].mana_until = 1
    ev = act(enc, "w: cast fireball -> bandit", [])
    assert enc.decision != "convoke" and "w exerts 4 (Exert now 4)" in texts(ev)  # Sorcery



def test_convoke_without_the_casters_own_mana_pools_the_convokers():
    enc = coven(level=3, mana=("w2",))
    act(enc, "w: cast fireball -> bandit", [])
    ev = act(enc, "w2: convoke", ["d12=5", "d12=3", "d8=4"])
    assert "w exerts 1 (Exert now 1)" in texts(ev)


def test_the_convoke_window_has_the_use_index_of_spec_12_5():
    enc = coven(level=3, mana=("w", "w2"))
    act(enc, "w: cast fireball -> bandit", [])
    a = enc.parse_action("w2: convoke")
    i = ENCODING.encode_action(enc, "w2", a)
    assert i == 466 + 3 and ENCODING.decode_action(enc, "w2", i) == a
    assert ENCODING.decode_action(enc, "w2", 466) == enc.parse_action("w2: pass")


def test_core_casts_no_levelled_spell_and_opens_no_convoke():
    enc = coven(level=2, mana=("w", "w2"), options=CORE)
    assert not any("fireball" in x for x in labels(enc))


def test_tension_is_10_minus_reductions_at_least_1():
    assert [tension_cost(10, r) for r in (0, 4, 12)] == [10, 6, 1]  # WE-35
