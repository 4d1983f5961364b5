"""Metaforce's plain words (envs/metaforce/describe.py): the exact line of each action kind, with
the odds of the engine's previews, in frames, W-R1 Reactions and the W-I5 Deus Ex window."""

from __future__ import annotations

import pytest

from envs.core import Action, SeededDice
from envs.metaforce import rules as R
from envs.metaforce.describe import LIMIT, describe, display_name

_AT = {"fighter": [0, 0], "wizard": [3, 3], "detective": [5, 5], "bandit": [9, 5],
       "bandit_2": [1, 0], "wolf": [5, 6]}


def _party(first: str, **state):
    order = [first] + [c for c in _AT if c != first]
    return R.from_situation({
        "system": "metaforce", "encounter": "party_3v3", "options": "core", "order": order,
        "actor": first, "combatants": [
            {"id": c, "at": at, **({"state": state[c]} if c in state else {})}
            for c, at in _AT.items()]})


def _archer():
    return R.from_situation({
        "system": "metaforce", "options": "core", "map": {"w": 8, "h": 8},
        "order": ["archer", "bandit"], "actor": "archer", "combatants": [
            {"id": "archer", "side": "a", "at": [0, 3], "stats": {
                "name": "Archer", "level": 1, "size": 1, "protected": False,
                "metaforce_user": False,
                "attributes": {"str": 1, "end": 0, "agi": 2, "per": 2, "int": 0, "cha": 0},
                "proficient": ["agi", "per"], "saves": ["reflex"], "armour": "none",
                "weapons": [
                    # one hand each, so both are in hand (R-60)
                    {"id": "shortbow", "type": "bow", "hands": 1, "attr": "per", "tohit": 2,
                     "damage_base": 4, "bonus_die": 6, "damage_type": "piercing",
                     "range_increment_ft": 60},
                    {"id": "dagger", "type": "melee", "hands": 1, "attr": "agi", "tohit": 2,
                     "damage_base": 4, "bonus_die": 4, "damage_type": "piercing", "reach_ft": 5,
                     "thrown_ft": 20}]}},
            {"id": "bandit", "side": "b", "stats": "bandit", "at": [3, 3]}]})


def _words(enc, label: str) -> str:
    a = enc.parse_action(label)
    assert a in enc.legal_actions(), label
    return describe(a, enc)


@pytest.mark.parametrize(("label", "words"), [
    ("detective: pass", "do nothing this frame"),
    ("detective: pass approach -> bandit_2", "move toward Bandit 2"),
    ("detective: pass retreat -> wolf", "move away from the Wolf"),
    ("detective: fire revolver 1 -> bandit",
     "shoot the Bandit once with the revolver (100% to hit, ~20.3 harm)"),
    ("detective: fire revolver 2 retreat -> wolf",
     "shoot the Wolf twice with the revolver, then fall back (100% to hit, ~38.3 harm)"),
    ("detective: attack revolver_butt -> wolf",
     "strike the Wolf with the revolver butt (50% to hit, 42% direct, ~4.7 harm)"),
    ("detective: attack revolver_butt retreat -> wolf +meta",
     "strike the Wolf with the revolver butt + Meta Die, then fall back (50%, ~4.7)"),
    ("detective: special", "set up a Special Attack (bleed) for the next attack"),
    ("detective: special approach -> bandit",
     "move toward the Bandit, then set up a Special Attack (bleed)"),
    ("detective: special retreat -> wolf",
     "set up a Special Attack (bleed), then fall back from the Wolf"),
    ("detective: end_turn", "end the turn (2 frames unused)"),
])
def test_the_detectives_frame_in_words(label, words):
    assert _words(_party("detective"), label) == words


@pytest.mark.parametrize(("label", "words"), [
    ("wolf: dash approach -> fighter", "dash toward the Fighter (twice the Speed, 60 ft)"),
    ("wolf: dash retreat -> detective", "dash away from the Detective (twice the Speed, 60 ft)"),
    ("wolf: attack bite approach -> wizard",
     "close in, then strike the Wizard with its bite (100% to hit, ~11.0 harm)"),
    ("wolf: attack bite -> detective",
     "strike the Detective with its bite (100% to hit, 99% direct, ~10.9 harm)"),
    ("wolf: maintain -> detective", "keep hold of the Detective (maintain the grapple)"),
])
def test_the_wolf_holding_the_detective_in_words(label, words):
    enc = _party("wolf", detective={"statuses": {"grappled": 3, "burn": 4}, "grappler": "wolf"})
    assert _words(enc, label) == words


def test_escapes_grapples_and_withdrawal_in_words():
    held = _party("detective", detective={"statuses": {"grappled": 3, "burn": 4},
                                          "grappler": "wolf"})
    assert _words(held, "detective: escape grappled") == \
        "try to break free of the grapple (magnitude 3)"
    assert _words(held, "detective: escape burn") == \
        "try to put out the flames (Burn) (magnitude 4)"
    wolf = _party("wolf")
    assert _words(wolf, "wolf: grapple -> detective") == "grab the Detective (grapple)"
    assert _words(wolf, "wolf: grapple retreat -> detective") == \
        "grab the Detective (grapple), then pull back"
    assert _words(wolf, "wolf: grapple approach -> wizard") == \
        "close in and grab the Wizard (grapple)"
    assert _words(_party("fighter"), "fighter: withdraw") == \
        "withdraw: leave the battlefield by this edge (out of the fight)"


def test_a_bow_and_a_thrown_dagger_in_words():
    enc = _archer()
    assert _words(enc, "archer: prime shortbow") == "nock an arrow on the shortbow (20 left)"
    assert _words(enc, "archer: prime shortbow approach -> bandit") == \
        "move toward the Bandit, then nock an arrow on the shortbow (20 left)"
    assert _words(enc, "archer: throw dagger retreat -> bandit") == \
        "throw the dagger at the Bandit, then fall back (94% to hit, 89% direct, ~9.2 harm)"
    assert _words(enc, "archer: attack dagger approach -> bandit") == \
        "close in, then strike the Bandit with the dagger (94% to hit, 89% direct, ~9.2 harm)"


def test_reload_vigilance_and_a_reaction_in_words():
    enc = _party("detective")
    dice = SeededDice(3)
    enc.apply(enc.parse_action("detective: fire revolver 1 -> bandit"), dice)
    assert (enc.decision, enc.current_actor(), enc.trigger) == ("reaction", "bandit", "detective")
    assert _words(enc, "bandit: react approach -> detective") == "react: move toward the Detective"
    assert _words(enc, "bandit: react retreat -> detective") == \
        "react: move away from the Detective"
    assert _words(enc, "bandit: pass") == "let it pass: no Reaction now"
    while enc.decision != "frame":
        enc.apply(Action(str(enc.current_actor()), "pass"), dice)
    assert enc.current_actor() == "detective"
    assert _words(enc, "detective: reload revolver") == \
        "reload the revolver (5/6 loaded, 12 spare)"
    assert _words(enc, "detective: reload revolver retreat -> bandit") == \
        "reload the revolver (5/6 loaded, 12 spare), then fall back from the Bandit"
    assert _words(enc, "detective: vigilance") == "stay vigilant: end the turn ready to react"


def test_a_reaction_attack_and_the_deus_ex_window_in_words():
    enc = _party("bandit_2", fighter={"hp": 1})
    enc.apply(enc.parse_action("bandit_2: attack mace -> fighter"), SeededDice(0))
    assert (enc.decision, enc.current_actor()) == ("reaction", "wizard")
    assert _words(enc, "wizard: react attack fire_bolt -> bandit_2 +meta") == \
        "react: cast fire bolt at Bandit 2 + Meta Die (100% to hit, ~12.1 harm)"
    window = _party("bandit_2", fighter={"hp": 1})
    window.apply(window.parse_action("bandit_2: attack mace -> fighter"), SeededDice(3))
    assert (window.decision, window.current_actor()) == ("deus_ex", "fighter")
    assert _words(window, "fighter: deus_ex") == \
        "use Deus Ex to survive this blow (costs 1 Max MP)"
    assert _words(window, "fighter: pass") == "take the blow without Deus Ex"


def test_names_lines_and_the_fallback():
    enc = R.new_encounter("giant_boss", "core", SeededDice(0))
    assert display_name(enc, "hill_giant") == "the Hill Giant"
    assert display_name(enc, "odonghe_brawler") == "the Odonghe Brawler"
    party = _party("fighter")
    assert display_name(party, "bandit_2") == "Bandit 2"
    snap = party.snapshot()
    for a in party.legal_actions():
        text = describe(a, party)
        assert 0 < len(text) <= LIMIT and "\n" not in text and text == describe(a, party)
    assert party.snapshot() == snap  # describing changes nothing
    assert describe(Action("fighter", "juggle", ("balls",)), party) == "juggle balls"
    assert describe(Action("fighter", "attack", ("nothing",), "bandit"), party) == \
        "attack nothing -> bandit"


def test_the_free_m_powers_of_full_in_words():
    enc = R.from_situation({
        "system": "metaforce", "encounter": "skirmish_2v2", "options": "full",
        "order": ["fighter", "wizard", "bandit", "wolf"], "actor": "fighter"})
    assert _words(enc, "fighter: action8") == \
        "use Action-8: one more frame this turn (8 MP, 7 left)"
    assert _words(enc, "fighter: react4") == "use React-4: one more Reaction (4 MP, 11 left)"
    wiz = R.from_situation({
        "system": "metaforce", "encounter": "skirmish_2v2", "options": "full",
        "order": ["wizard", "fighter", "bandit", "wolf"], "actor": "wizard"})
    assert _words(wiz, "wizard: safe6") == \
        "use Safe-6 on the own dice for two frames (6 MP, 9 left)"
    assert _words(wiz, "wizard: assurance8") == \
        "use Assurance-8 on the own dice for two frames (8 MP, 7 left)"


def test_every_kind_of_random_full_games_gets_its_own_words():
    import random

    from envs.core.describe import plain
    rng = random.Random(5)
    kinds = set()
    for seed in range(6):
        enc = R.new_encounter(R.encounter_names()[seed], "full", SeededDice(seed))
        dice = SeededDice(seed + 9)
        while enc.outcome() is None:
            for a in enc.legal_actions():
                text = describe(a, enc)
                assert text != plain(a) and len(text) <= LIMIT, a.label
                kinds.add(a.kind)
            enc.apply(rng.choice(enc.legal_actions()), dice)
    assert {"attack", "pass", "end_turn", "react", "action8"} <= kinds
