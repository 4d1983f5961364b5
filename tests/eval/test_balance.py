"""arena balance: restricted play, option names, the paired statistics, resuming from the records,
and bad input on the command line (docs/balance.md)."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

import eval.balance_run as balance_run
from agents import make_agent
from envs import get_rules
from envs.core import SeededDice
from envs.core.actions import Action
from envs.core.stats import paired_difference, wilson
from eval.balance import BalanceConfig, _verdict, difference, run_balance, side_summary
from eval.balance_options import (
    Restricted,
    Tracking,
    default_option_keys,
    option_keys_for,
    rule_choices_for,
    turn_structure_for,
)
from eval.balance_report import headline
from eval.balance_run import Bench, Variant
from eval.balance_sweep import rule_variants
from eval.cli import main as arena
from eval.fights import Fight

# ------------------------------------------------------------------------ restricted play


class _Enc:
    """Just enough of an encounter: one actor, a fixed list of legal actions."""

    def __init__(self, actor: str, legal: list[Action]) -> None:
        self.actor, self.legal, self.clones = actor, legal, 0

    def current_actor(self) -> str:
        return self.actor

    def legal_actions(self) -> list[Action]:
        return list(self.legal)

    def clone(self) -> _Enc:
        self.clones += 1
        return _Enc(self.actor, self.legal)

    def round_no(self) -> int:
        return 7


STRIKE_A = Action("x", "strike", ("quick", "axe"), "y")
STRIKE_B = Action("x", "strike", ("quick", "club"), "y")
MOVE = Action("x", "move", ("1",))


def test_a_ban_filters_only_the_banned_combatant_s_actions():
    enc = _Enc("x", [STRIKE_A, STRIKE_B, MOVE])
    r = Restricted(enc, {"x": frozenset({"strike quick"})}, default_option_keys)
    assert r.legal_actions() == [MOVE]
    assert r.counts == {"fallbacks": 0, "removed": 2}
    assert r.round_no() == 7  # everything else is the encounter's own
    other = Restricted(enc, {"y": frozenset({"strike quick"})}, default_option_keys)
    assert other.legal_actions() == [STRIKE_A, STRIKE_B, MOVE]  # not x's ban


def test_a_ban_never_empties_the_list_and_counts_the_fallback():
    enc = _Enc("x", [STRIKE_A, MOVE])
    r = Restricted(enc, {"x": frozenset({"family:strike", "family:move"})}, default_option_keys)
    assert r.legal_actions() == [STRIKE_A, MOVE]
    assert r.legal_actions() == [STRIKE_A, MOVE]
    assert r.fallbacks == 2 and r.counts["removed"] == 0


def test_a_clone_is_restricted_too_on_a_real_encounter():
    enc = get_rules("metanoia").new_encounter("duel_seed", None, SeededDice(0))
    actor = enc.current_actor()
    kinds = {a.kind for a in enc.legal_actions()}
    assert kinds == {"hide", "move", "recover", "sense"}
    r = Restricted(enc, {actor: frozenset({"family:move"})}, default_option_keys)
    twin = r.clone()
    assert isinstance(twin, Restricted) and twin.inner is not enc
    assert twin.banned == r.banned
    assert {a.kind for a in twin.legal_actions()} == {"hide", "recover", "sense"}
    assert twin.snapshot() == enc.snapshot()
    # the heuristic chooses through the proxy as through the encounter, never a banned action
    choice = make_agent("heuristic", "metanoia", 0).choose(twin)
    assert choice.kind != "move" and choice in twin.legal_actions()


# ------------------------------------------------------------------------ option names


def _labels(system: str, name: str, decisions: int = 40) -> dict[str, tuple[str, ...]]:
    """label -> option keys of every legal action met in a heuristic game's first decisions."""
    dice = SeededDice(0)
    enc = Fight.named(system, name).build(None, dice)
    keys = option_keys_for(system)
    agent = make_agent("heuristic", system, 0)
    out: dict[str, tuple[str, ...]] = {}
    for _ in range(decisions):
        if enc.is_over():
            break
        for a in enc.legal_actions():
            out.setdefault(a.label, keys(enc, a))
        enc.apply(agent.choose(enc), dice)
    return out


@pytest.mark.parametrize(
    "system, name, expected",
    [
        ("metanoia", "duel_seed", {
            "shadow_warden: attack strike@shadow_knife -> rotblade_duelist":
                ("family:attack", "attack strike@shadow_knife"),
            "shadow_warden: move 0 +identity": ("family:move", "boost:identity"),
            "shadow_warden: react counter": ("family:react", "react counter"),
        }),
        ("mano_a_mano", "duel_seed", {
            "steven: strike quick machete -> clone":
                ("family:strike", "strike quick", "weapon:machete"),
            "steven: throw heave right -> clone":  # a hand: the weapon is what it holds
                ("family:throw", "throw heave", "weapon:machete"),
            "clone: strike quick left_foot -> steven":
                ("family:strike", "strike quick", "weapon:left_foot"),
            "steven: move 1": ("family:move",),
            "steven: grapple wrench -> clone": ("family:grapple", "grapple wrench"),
        }),
        ("sizebound", "duel_blade_vs_shield", {
            "knight: attack main -> duelist": ("family:attack", "weapon:sword"),
            "knight: attack off -> duelist": ("family:attack", "weapon:shield"),
            "knight: step e": ("family:step",),
            "knight: react eyes": ("family:react", "react eyes"),
        }),
        ("metaforce", "duel_fighter_brawler", {
            "fighter: attack warhammer -> odonghe_brawler": ("family:attack", "weapon:warhammer"),
            "fighter: dash approach -> odonghe_brawler": ("family:dash",),
            "odonghe_brawler: react attack unarmed -> fighter": ("family:react", "react attack"),
        }),
        ("palladium_revised", "duel_sword_vs_rogue", {
            "sellsword_1: strike long_sword -> duelist_1": ("family:strike", "weapon:long_sword"),
            "duelist_1: multidodge back +morale":
                ("family:multidodge", "multidodge back", "boost:morale"),
            "sellsword_1: step engage -> duelist_1": ("family:step",),
            "duelist_1: closing_wounds 3": ("family:closing_wounds",),
            "duelist_1: pass": ("family:pass",),
        }),
    ],
)
def test_each_system_names_the_options_an_action_uses(system: str, name: str,
                                                       expected: dict[str, tuple[str, ...]]):
    got = _labels(system, name)
    assert {label: got.get(label) for label in expected} == expected


def test_turn_structure_and_rule_choices_come_from_the_balance_part():
    assert turn_structure_for("metaforce") == {"family:end_turn", "family:pass"}
    assert turn_structure_for("metanoia") == frozenset()  # no part: everything may be banned
    assert turn_structure_for("palladium_revised") == {"family:wait", "family:pass",
                                                       "family:continue"}
    for system in ("mano_a_mano", "sizebound", "metaforce", "palladium_revised"):
        full = get_rules(system).parse_options("full")
        text = {f.name for f in fields(full) if isinstance(getattr(full, f.name), str)}
        listed = rule_choices_for(system)
        assert set(listed) == text - {"version"}, system
        for name, values in listed.items():
            assert getattr(full, name) in values
            for v in values:  # every listed value is one the options parser accepts
                assert getattr(get_rules(system).parse_options({name: v}), name) == v
    labels = [label for label, _ in rule_variants(Fight.named("mano_a_mano", "duel_seed"))]
    assert labels[0] == "version=core (CORE vs FULL)"
    assert {"darkness=very_dim", "darkness=total", "armor_levels=any"} <= set(labels)
    assert "darkness=normal" not in labels  # FULL's own value is no variant
    assert "full=False" not in labels  # Mano a Mano's flag is CORE itself: one row, not two
    sb = [label for label, _ in rule_variants(Fight.named("sizebound", "duel_blade_vs_shield"))]
    assert "interleave=False" in sb and "weather=hail" in sb


def test_palladium_lists_every_weapon_and_spells_only_when_the_rules_have_them():
    from envs.palladium_revised.balance import combatant_options

    full = Fight.named("palladium_revised", "skirmish_2v2").build("full", SeededDice(0))
    core = Fight.named("palladium_revised", "skirmish_2v2").build("core", SeededDice(0))
    assert combatant_options(full, "mage_1") == (
        "weapon:quarterstaff", "weapon:unarmed", "cast fire_bolt", "cast frost_lance",
        "cast drench", "cast withering_curse", "cast stunning_hex", "cast mend", "cast ward")
    assert combatant_options(core, "mage_1") == ("weapon:quarterstaff", "weapon:unarmed")
    assert combatant_options(core, "archer_1") == ("weapon:long_bow", "weapon:dagger",
                                                   "weapon:unarmed")


# ------------------------------------------------------------------------ statistics


def _g(winner: str | None, rounds: int = 1, **more: Any) -> dict[str, Any]:
    return {"winner": winner, "rounds": rounds, "usage": {}, **more}


def test_a_score_difference_stays_inside_minus_one_to_one():
    from eval.balance import score_difference

    mean, lo, hi = score_difference([0.0, 1.0], [1.0, 1.0])
    assert (mean, lo, hi) == (-0.5, -1.0, pytest.approx(-0.5 + 1.96 * 0.5))
    assert paired_difference([0.0, 1.0], [1.0, 1.0])[1] == pytest.approx(-0.5 - 1.96 * 0.5)


def test_the_side_summary_of_a_small_sample():
    games = [_g("A", 1), _g("A", 2), _g("B", 3), _g(None, 4), _g("A", 10)]
    s = side_summary(games, ["A", "B"])
    assert s["n"] == 5
    assert s["sides"]["A"] == {"wins": 3, "rate": 0.6, "lo": wilson(3, 5)[0],
                               "hi": wilson(3, 5)[1]}
    assert s["sides"]["B"]["wins"] == 1 and s["draws"]["n"] == 1
    assert s["score"]["rate"] == pytest.approx(0.7)  # 3 wins and a draw counted half
    assert (s["score"]["lo"], s["score"]["hi"]) == pytest.approx((0.29878573, 0.92741767))
    assert s["rounds"] == {"mean": 4.0, "median": 3, "p10": 1, "p90": 10,
                           "counts": {"1": 1, "2": 1, "3": 1, "4": 1, "10": 1}}
    assert s["unwinnable"] == [] and s["balanced"] is False and s["mostly_draws"] is False
    even = side_summary([_g("A"), _g("B"), _g(None)], ["A", "B"])
    assert even["score"]["rate"] == 0.5 and even["balanced"] is True
    # half the games drawn: the score is 50% because nobody wins, which is not balance
    drawn = side_summary([_g("A"), _g("B"), _g(None), _g(None)], ["A", "B"])
    assert drawn["score"]["rate"] == 0.5 and drawn["mostly_draws"] is True
    assert drawn["balanced"] is False
    assert "MOSTLY DRAWS (50.0% of the games: nobody wins)" in "\n".join(
        headline({"system": "s", "fight": "f", "agent": "a", "balance": drawn, "options": []}))
    one_sided = side_summary([_g("A")] * 20 + [_g(None)], ["A", "B"])
    assert one_sided["unwinnable"] == ["B"] and one_sided["balanced"] is False
    # 0 of 21 is below 5%, but its upper bound (15.5%) is not: flagged, and said to be unsure
    assert one_sided["unsure"] == ["B"]
    line = headline({"system": "s", "fight": "f", "agent": "a", "balance": one_sided,
                     "options": []})[-1]
    assert line == ("  verdict: UNWINNABLE for side B (not yet proven below 5%: side B up to "
                    "15.5% at 95%; more games tell)")
    proven = side_summary([_g("A")] * 80, ["A", "B"])  # 0 of 80: up to 4.6%
    assert proven["unwinnable"] == ["B"] and proven["unsure"] == []


def test_a_paired_difference_on_hand_made_scores():
    mean, lo, hi = paired_difference([1, 1, 0, 0.5], [0, 1, 0, 0])
    assert (mean, lo, hi) == pytest.approx((0.375, -0.0941392828, 0.8441392828))
    with pytest.raises(ValueError, match="paired samples differ in size: 2 and 1"):
        paired_difference([1, 0], [1])


def test_difference_pairs_the_games_of_two_variants_seed_by_seed(tmp_path: Path):
    bench = Bench(tmp_path, "fp", "heuristic", seed=10, progress=False)
    base = Variant("base", Fight.named("metanoia", "duel_seed"))
    ban = Variant("ban:x:o", Fight.named("metanoia", "duel_seed"))
    for i, (b, v) in enumerate([("A", "B"), ("A", "A"), ("B", "B"), ("B", None)]):
        bench.done[("base", 10 + i)] = _g(b)
        bench.done[("ban:x:o", 10 + i)] = _g(v)
    d = difference(bench, ban, base, "A", 4)
    # A's scores: base 1, 1, 0, 0 and with the ban 0, 1, 0, 0.5: differences -1, 0, 0, +0.5
    assert d["with"] == 0.5 and d["without"] == 0.375 and d["changed"] == 2
    mean, lo, hi = paired_difference([0, 1, 0, 0.5], [1, 1, 0, 0])
    assert (d["delta"], d["lo"], d["hi"]) == (mean, lo, hi) and d["delta"] == -0.125
    assert bench.count("base") == 4 and bench.count("loo:x") == 0


@pytest.mark.parametrize("row, verdict", [
    ({"used": 0, "delta": -0.5, "lo": -0.8, "hi": -0.2}, "dead weight (never chosen)"),
    ({"used": 9, "delta": -0.12, "lo": -0.2, "hi": -0.01}, "dominant"),
    ({"used": 9, "delta": -0.12, "lo": -0.3, "hi": 0.05}, ""),  # interval across zero
    ({"used": 9, "delta": 0.15, "lo": 0.05, "hi": 0.25}, "a trap (better banned)"),
    ({"used": 9, "delta": 0.02, "lo": -0.04, "hi": 0.08}, "dead weight (ban changes nothing)"),
])
def test_the_verdict_of_an_option(row: dict[str, Any], verdict: str):
    assert _verdict(row) == verdict


def _fake_game(variant: Variant, seed: int, agent: str) -> dict[str, Any]:
    """A made-up game: side A wins the even seeds, B the odd ones."""
    return {"variant": variant.key, "seed": seed, "winner": "A" if seed % 2 == 0 else "B",
            "reason": "fake", "rounds": 1 + seed % 3, "sides": ["A", "B"], "decisions": 1,
            "usage": {}, "seen": {}}


def test_precision_mode_adds_batches_until_the_half_width_is_reached(tmp_path: Path,
                                                                       monkeypatch):
    monkeypatch.setattr(balance_run, "play_variant_game", _fake_game)
    cfg = BalanceConfig(Fight.named("metanoia", "duel_seed"), precision=0.1, out=str(tmp_path),
                        workers=1, progress=False, bans=False, loo=False)
    summary, _ = run_balance(cfg)
    # n = 50: a 50% rate's half-width is 0.135 > 0.1; the next batch makes n = 100 (0.096)
    assert summary["balance"]["n"] == 100 and summary["games_played"] == 100
    assert summary["balance"]["score"]["rate"] == 0.5 and summary["balance"]["balanced"]


def test_an_option_never_chosen_is_dead_weight_without_playing_its_ban(tmp_path: Path,
                                                                        monkeypatch):
    played: list[str] = []

    def game(variant: Variant, seed: int, agent: str) -> dict[str, Any]:
        played.append(variant.key)
        return {**_fake_game(variant, seed, agent),
                "usage": {"rotblade_duelist": {"family:attack": 1}},
                "seen": {"rotblade_duelist": ["family:attack", "family:hide"]}}

    monkeypatch.setattr(balance_run, "play_variant_game", game)
    cfg = BalanceConfig(Fight.named("metanoia", "duel_seed"), games=4, out=str(tmp_path),
                        workers=1, progress=False, loo=False)
    summary, report = run_balance(cfg)
    assert sorted(set(played)) == ["ban:rotblade_duelist:family:attack", "base"]
    rows = {r["option"]: r for r in summary["options"]}
    assert rows["family:attack"]["played"] and rows["family:attack"]["n"] == 4
    assert rows["family:hide"] == {
        "combatant": "rotblade_duelist", "side": "A", "option": "family:hide", "played": False,
        "n": 0, "delta": None, "lo": None, "hi": None, "changed": 0, "used": 0, "games_used": 0,
        "baseline_n": 4, "chosen_hi": wilson(0, 4)[1], "fallbacks": 0,
        "verdict": "dead weight (never chosen)"}
    assert [r["option"] for r in summary["options"]][-1] == "family:hide"  # listed last
    text = report.read_text(encoding="utf-8")
    assert "Never chosen in the baseline's 4 games (0 of 4: chosen in at most 49.0%" in text
    assert "not played: rotblade_duelist `family:hide`." in text
    # the header names the rule set (it printed the option rows under the same key)
    assert summary["rules"] == "as given"
    assert "Agent `heuristic` on both sides; rules as given; game i" in text


def test_tracking_groups_the_options_that_always_went_together():
    class Enc:
        def __init__(self, legal: list[Action]) -> None:
            self.legal = legal

        def current_actor(self) -> str:
            return "x"

        def legal_actions(self) -> list[Action]:
            return self.legal

    class First:
        def choose(self, enc: Any) -> Action:
            return enc.legal_actions()[0]

    jab, cut = Action("x", "jab", ("bonus",)), Action("x", "cut", ("sword",))
    thrust = Action("x", "cut", ("spear",))
    usage: dict[str, dict[str, int]] = {}
    t = Tracking(First(), default_option_keys, usage, seen={})
    t.choose(Enc([jab, cut]))
    # family:jab and jab bonus went together; so far family:cut and cut sword did too
    assert t.alike() == {"x": [["cut sword", "family:cut"], ["family:jab", "jab bonus"]]}
    t.choose(Enc([thrust, jab]))  # a cut without the sword: family:cut is no longer cut sword
    assert t.alike() == {"x": [["family:jab", "jab bonus"]]}
    assert usage == {"x": {"family:jab": 1, "jab bonus": 1, "family:cut": 1, "cut spear": 1}}


def _twin_game(differ: bool):
    """A duel in which the Rotblade Duelist's ``family:hide`` and ``hide shadow`` always go
    together; ``differ``: their bans play differently from game 2 on (not the same ban)."""
    played: list[tuple[str, int]] = []

    def game(variant: Variant, seed: int, agent: str) -> dict[str, Any]:
        played.append((variant.key, seed))
        rec = _fake_game(variant, seed, agent)
        if differ and variant.key == "ban:rotblade_duelist:hide shadow" and seed >= 2:
            rec["rounds"] += 1
        return {**rec, "usage": {"rotblade_duelist": {"family:hide": 1, "hide shadow": 1,
                                                      "family:attack": 2}},
                "seen": {"rotblade_duelist": ["family:attack", "family:hide", "hide shadow"]},
                "alike": {"rotblade_duelist": [["family:hide", "hide shadow"]]}}
    return game, played


def test_a_ban_equal_to_another_is_checked_for_one_batch_and_not_replayed(tmp_path: Path,
                                                                          monkeypatch):
    game, played = _twin_game(differ=False)
    monkeypatch.setattr(balance_run, "play_variant_game", game)
    cfg = BalanceConfig(Fight.named("metanoia", "duel_seed"), games=12, batch=5,
                        out=str(tmp_path), workers=1, progress=False, loo=False)
    summary, report = run_balance(cfg)
    count = {k: sum(1 for key, _ in played if key == k) for k, _ in played}
    assert count == {"base": 12, "ban:rotblade_duelist:family:attack": 12,
                     "ban:rotblade_duelist:family:hide": 12, "ban:rotblade_duelist:hide shadow": 5}
    rows = {r["option"]: r for r in summary["options"]}
    twin, first = rows["hide shadow"], rows["family:hide"]
    assert twin["same_as"] == "family:hide" and twin["checked"] == 5 and twin["n"] == 12
    assert ({k: v for k, v in twin.items() if k not in ("option", "same_as", "checked")}
            == {k: v for k, v in first.items() if k != "option"})
    assert ("the same ban as `family:hide` (played 5 games: all 5 identical)"
            in report.read_text(encoding="utf-8"))


def test_a_ban_that_only_looked_equal_is_played_in_full(tmp_path: Path, monkeypatch):
    game, played = _twin_game(differ=True)
    monkeypatch.setattr(balance_run, "play_variant_game", game)
    cfg = BalanceConfig(Fight.named("metanoia", "duel_seed"), games=12, batch=5,
                        out=str(tmp_path), workers=1, progress=False, loo=False)
    summary, _ = run_balance(cfg)
    assert sum(1 for key, _ in played if key == "ban:rotblade_duelist:hide shadow") == 12
    rows = {r["option"]: r for r in summary["options"]}
    assert "same_as" not in rows["hide shadow"] and rows["hide shadow"]["n"] == 12


# ------------------------------------------------------------------------ resuming


def test_an_interrupted_report_resumes_playing_exactly_the_missing_games(tmp_path: Path,
                                                                        monkeypatch):
    real = balance_run.play_variant_game
    played: list[tuple[str, int]] = []

    def counting(limit: int | None):
        def game(variant: Variant, seed: int, agent: str) -> dict[str, Any]:
            if limit is not None and len(played) >= limit:
                raise KeyboardInterrupt
            played.append((variant.key, seed))
            return real(variant, seed, agent)
        return game

    def cfg(out: Path) -> BalanceConfig:
        return BalanceConfig(Fight.named("metanoia", "duel_seed"), games=5, out=str(out),
                             workers=1, progress=False, only=("family:attack",))

    monkeypatch.setattr(balance_run, "play_variant_game", counting(None))
    whole, _ = run_balance(cfg(tmp_path / "whole"))
    assert len(played) == 15  # the baseline and each duellist's attack banned, 5 games each
    played.clear()
    monkeypatch.setattr(balance_run, "play_variant_game", counting(7))
    with pytest.raises(KeyboardInterrupt):
        run_balance(cfg(tmp_path / "cut"))
    first = list(played)
    lines = (tmp_path / "cut" / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert [(json.loads(x)["variant"], json.loads(x)["seed"]) for x in lines] == first
    assert len(first) == 7
    played.clear()
    monkeypatch.setattr(balance_run, "play_variant_game", counting(None))
    resumed, _ = run_balance(cfg(tmp_path / "cut"))
    assert len(played) == 8 and not set(played) & set(first)  # only the missing games
    assert resumed["reused"] == 7
    for key in ("balance", "options", "combatants"):
        assert resumed[key] == whole[key]
    played.clear()
    again, _ = run_balance(cfg(tmp_path / "cut"))  # nothing left to play
    assert played == [] and again["options"] == whole["options"]


# ------------------------------------------------------------------------ the command line


@pytest.mark.parametrize("argv, message", [
    (["balance", "nope", "--system", "metanoia"], "unknown encounter 'nope' for metanoia"),
    (["balance", "duel_seed"], "is not a situation file (give --system"),
    (["balance", "duel_seed", "--system", "chess"], "unknown system 'chess'"),
    (["balance", "duel_seed", "--system", "metanoia", "--precision", "2"],
     "argument --precision: expected a number between 0 and 1, got 2.0"),
    (["balance", "duel_seed", "--system", "metanoia", "--agent", "wizard"], "wizard"),
    (["balance", "duel_seed", "--system", "metanoia", "--games", "1"],
     "expected at least 2 games, got 1"),
    (["balance", "sweep", "configs/situations/sizebound_duel_midfight.yaml"],
     "the following arguments are required: --set"),
    (["balance", "sweep", "configs/situations/sizebound_duel_midfight.yaml", "--set",
      "combatants[9].state.hp=1,2"], "no 9 there"),
    (["balance", "sweep", "configs/situations/sizebound_duel_midfight.yaml", "--set",
      "combatants[0].state.hp=30,lots"], "--set combatants[0].state.hp='lots'"),
    (["balance", "sweep", "configs/situations/sizebound_duel_midfight.yaml", "--set", "hp"],
     "expected PATH=V1,V2,..."),
    (["balance", "rules", "duel_seed", "--system", "metanoia", "--rules", "fancy"],
     "fancy"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(argv: list[str], message: str,
                                                         tmp_path: Path, capsys):
    out = tmp_path / "out"
    try:
        rc = arena([*argv, "--out", str(out)])
    except SystemExit as e:  # a usage error of the options parser
        rc = e.code
    assert rc == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert not out.exists()


def test_a_one_sided_fight_draws_its_pictures(tmp_path: Path):
    """Wilson's upper bound of 100 of 100 is a rounding error below 1: no negative error bar."""
    from eval.balance_plots import plot_sides, plot_tornado

    assert wilson(100, 100)[1] < 1.0
    balance = side_summary([_g("A")] * 100, ["A", "B"])
    plot_sides(balance, "one-sided", tmp_path / "sides.png", {"a1": "A", "b1": "B"})
    row = {"combatant": "a1", "option": "family:strike", "delta": -1.0, "lo": -1.0, "hi": -1.0,
           "used": 3, "n": 10, "verdict": "dominant"}
    plot_tornado([row], "one row", tmp_path / "options.png")
    assert all((tmp_path / f).stat().st_size > 0 for f in ("sides.png", "options.png"))
