"""GM tools: ``arena suggest`` ranks moves, ``arena play`` plays through stdin, ``arena replay``
reproduces."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from agents.search import SearchAgent
from envs.core.cases import encounter_from_situation, load_situation
from eval.cli import main as arena
from eval.gm import ReplayError, load_record, play_terminal, replay, suggest
from eval.tournament import EvalConfig, play_game, schedule

ROOT = Path(__file__).resolve().parents[2]
FINISH = str(ROOT / "configs" / "situations" / "metanoia_finishing_blow.yaml")
MIDFIGHT = str(ROOT / "configs" / "situations" / "metanoia_duel_midfight.yaml")


def test_the_finishing_blow_ranks_first_and_pointless_moves_below_every_attack():
    result = suggest(FINISH, rollouts=600, seed=0, precision=None)
    moves = result["moves"]
    assert result["actor"] == "rotblade_duelist" and result["rollouts"] == 600
    assert len(moves) == result["rows"] <= result["legal_moves"]
    assert sum(len(m["variants"]) for m in moves) == result["legal_moves"] > 10
    top = moves[0]
    assert any(
        v.startswith("rotblade_duelist: attack") and v.endswith("-> shadow_warden +motive+identity")
        for v in top["variants"]
    )
    assert top["reason"].startswith("finishes shadow_warden before rotblade_duelist's next turn in")
    assert top["win_prob"] > 0.95 and top["interval"][0] > 0.9
    rank = {v: m["rank"] for m in moves for v in m["variants"]}
    worst_attack = max(r for label, r in rank.items() if ": attack " in label)
    assert rank["rotblade_duelist: recover"] > min(
        r for label, r in rank.items() if ": attack " in label
    )
    assert top["harm_dealt"] == max(
        m["harm_dealt"] for m in moves if m["rollouts"] >= top["rollouts"]
    )
    assert worst_attack <= len(moves)


def test_suggestions_are_deterministic_for_a_seed_and_change_with_it():
    a = suggest(MIDFIGHT, rollouts=400, seed=5)
    b = suggest(MIDFIGHT, rollouts=400, seed=5, workers=1)  # one process or two: the same
    c = suggest(MIDFIGHT, rollouts=400, seed=6)
    for r in (a, b, c):
        r.pop("seconds"), r.pop("footer")
    assert a == b
    assert a != c


def test_search_spends_the_budget_on_the_best_moves_with_common_dice():
    enc = encounter_from_situation(load_situation(MIDFIGHT), MIDFIGHT)
    cands = SearchAgent(seed=1, rollouts=1200, keep=3, value=None).evaluate(enc)
    assert sum(c.n for c in cands) == 1200
    top3 = cands[:3]
    # successive halving kept refining the last round's race: most of the budget went there, and
    # every move had its first batch
    assert sum(c.n for c in top3) > 600 and min(c.n for c in cands) >= 4
    assert min(c.n for c in top3) > sorted(c.n for c in cands)[len(cands) // 2]
    assert all(c.interval[1] - c.interval[0] < 0.2 for c in top3)
    assert (
        enc.snapshot() == encounter_from_situation(load_situation(MIDFIGHT), MIDFIGHT).snapshot()
    )  # untouched


def test_arena_suggest_json_and_bad_input(capsys):
    assert arena(["suggest", MIDFIGHT, "--rollouts", "200", "--top", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [m["rank"] for m in out["moves"]] == [1, 2, 3]
    assert set(out["moves"][0]) == {
        "rank",
        "group",
        "label",
        "words",
        "variants",
        "half_width",
        "index",
        "win_prob",
        "interval",
        "rollouts",
        "harm_dealt",
        "harm_taken",
        "policy_prob",
        "reason",
    }
    # --actor hands the decision to another combatant of the situation
    assert (
        arena(["suggest", MIDFIGHT, "--actor", "rotblade_duelist", "--rollouts", "50", "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["actor"] == "rotblade_duelist"
    assert arena(["suggest", MIDFIGHT, "--actor", "nobody", "--rollouts", "10"]) == 2
    err = capsys.readouterr().err
    assert "nobody" in err and MIDFIGHT in err and err.count("\n") == 1, err
    assert arena(["suggest", "no/such.yaml"]) == 2
    assert "no/such.yaml" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        arena(["suggest", MIDFIGHT, "--rollouts", "0"])
    assert info.value.code == 2 and "--rollouts: expected a number >= 1" in capsys.readouterr().err


def test_suggest_shows_a_trained_policys_probabilities(policy_files):
    result = suggest(MIDFIGHT, rollouts=100, seed=0, policy=f"trained:{policy_files['metanoia']}")
    probs = [m["policy_prob"] for m in result["moves"]]
    assert all(p is not None and 0 <= p <= 1 for p in probs)
    assert sum(probs) == pytest.approx(1.0, abs=1e-3)


def test_a_person_plays_a_whole_game_through_stdin_with_bad_input(tmp_path):
    lines = ["banana", "99", "?", "rotblade_duelist: no such move"] + ["0"] * 400
    out = io.StringIO()
    from rich.console import Console

    result = play_terminal("metanoia", "duel_seed", "A", "heuristic", seed=3, record_dir=tmp_path,
                           hint_seconds=0.05, stdin=io.StringIO("\n".join(lines) + "\n"),
                           console=Console(file=out, width=200, highlight=False))
    text = out.getvalue()
    assert result.finished
    assert "'banana' is not one of your moves" in text and "no move 99: choose 0.." in text
    assert "rollouts in" in text and "win = your side's chance" in text  # the ? suggestions
    assert "after" in text and "record:" in text
    rec = json.loads(result.path.read_text())
    assert rec["agents"] == {"A": "human", "B": "heuristic"} and rec["winner"] in ("A", "B", None)
    log = replay(rec)
    assert log[-1].startswith("== fight over")
    assert arena(["replay", str(result.path)]) == 0


def test_a_stopped_game_is_saved_and_replays_as_far_as_it_went(tmp_path, capsys):
    result = play_terminal("metanoia", "duel_seed", "B", "random", seed=1, record_dir=tmp_path,
                           stdin=io.StringIO("0\nq\n"), console=_quiet())
    assert not result.finished
    rec = load_record(result.path)
    assert (rec["reason"], rec["winner"], rec["stopped"]) == ("stopped", None, True)
    assert "situation" not in rec
    assert replay(rec)
    assert arena(["replay", str(result.path)]) == 0
    n = len(rec["actions"])
    assert f"the game was stopped after {n} actions (not finished, not a draw)" in (
        capsys.readouterr().out
    )


def test_a_finished_game_is_not_marked_stopped(tmp_path):
    result = play_terminal("toy", "duel", "heroes", "heuristic", seed=2, record_dir=tmp_path,
                           stdin=io.StringIO("0\n" * 200), console=_quiet())
    rec = load_record(result.path)
    assert result.finished and rec["stopped"] is False and rec["reason"] != "stopped"
    log = replay(rec)  # checks the recorded winner and rounds
    assert log[-1].startswith("== fight over")


def test_a_game_from_a_situation_is_recorded_with_it_and_replays(tmp_path, capsys):
    """A fresh-start situation (no actor: initiative is rolled from the record's seed) played to
    the end; the record carries the situation and replays to the same winner and round."""
    path = tmp_path / "fresh.yaml"
    path.write_text("system: metanoia\ntitle: A fresh duel\nencounter: duel_seed\n"
                    "combatants:\n  - {id: shadow_warden, state: {strain: 2}}\n")
    result = play_terminal(None, None, "A", "random", seed=5, record_dir=tmp_path,
                           stdin=io.StringIO("0\n" * 400), console=_quiet(),
                           situation=str(path))
    rec = load_record(result.path)
    assert result.finished and rec["stopped"] is False and rec["encounter"] == "duel_seed"
    assert rec["situation"]["source"] == str(path)
    assert "strain: 2" in rec["situation"]["yaml"]
    path.unlink()  # the record alone replays
    log = replay(rec)
    assert log[0].startswith("initiative") and log[-1].startswith("== fight over")
    assert arena(["replay", str(result.path)]) == 0
    assert "as recorded." in capsys.readouterr().out
    with pytest.raises(ReplayError, match="does not reproduce"):
        replay(dict(rec, seed=rec["seed"] + 1))
    bad = dict(rec, situation={"source": "x", "yaml": "system: metanoia\nround: 0\n"})
    with pytest.raises(ReplayError, match="cannot start the fight"):
        replay(bad)
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(dict(rec, situation={"source": "x"})))
    with pytest.raises(ReplayError, match="field 'situation' must be"):
        load_record(tampered)


def test_play_from_a_situation_refuses_a_system_or_rules_too(tmp_path, capsys):
    sit = str(ROOT / "configs" / "situations" / "metanoia_finishing_blow.yaml")
    base = ["play", "--situation", sit, "--as", "A", "--record-dir", str(tmp_path)]
    assert arena([*base[:1], "metanoia", *base[1:]]) == 2
    assert "give SYSTEM [ENCOUNTER] or --situation FILE, not both" in capsys.readouterr().err
    assert arena([*base, "--rules", "core"]) == 2
    assert "--rules: the situation file's options apply" in capsys.readouterr().err
    assert arena([*base, "--as", "C"]) == 2
    assert f"--as 'C' is not a side of {sit}" in capsys.readouterr().err
    assert arena(["play", "--as", "A"]) == 2
    assert "give SYSTEM [ENCOUNTER] or --situation FILE" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing was written


def test_play_refuses_a_side_that_does_not_exist(tmp_path, capsys):
    assert (
        arena(
            [
                "play",
                "metanoia",
                "duel_seed",
                "--as",
                "C",
                "--vs",
                "random",
                "--record-dir",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert "--as 'C' is not a side" in capsys.readouterr().err


def test_tournament_records_replay_and_tampered_ones_fail_clearly(tmp_path):
    cfg = EvalConfig(
        agents={"h": "heuristic", "r": "random"}, games=3, out_dir=str(tmp_path), workers=1
    )
    data = {"system": "metanoia", "rules": "full", "agents": cfg.agents}
    records = [play_game(data, g) for g in schedule(cfg)]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    for i, rec in enumerate(records):
        loaded = load_record(path, i)
        assert loaded == rec
        assert replay(loaded)[-1].startswith("== fight over")
    bad = dict(records[0], actions=list(records[0]["actions"]))
    bad["actions"][1] = bad["actions"][1].replace(bad["actions"][1].split(":")[0], "nobody", 1)
    with pytest.raises(ReplayError, match="does not reproduce at step 2"):
        replay(bad)
    with pytest.raises(ReplayError, match="does not reproduce: recorded winner"):
        replay(dict(records[0], winner="B" if records[0]["winner"] == "A" else "A"))
    with pytest.raises(ReplayError, match="no game 9"):
        load_record(path, 9)
    assert arena(["replay", str(path), "--game", "9"]) == 2


def _quiet():
    from rich.console import Console

    return Console(file=io.StringIO(), width=200)


def test_suggest_works_on_a_mano_a_mano_situation():
    """The shipped Mano a Mano situation: every legal move of the Guard is ranked, the same seed
    gives the same answer, and the Guard in the clinch is offered grappling moves."""
    path = str(ROOT / "configs" / "situations" / "mano_skirmish_grapple.yaml")
    a = suggest(path, rollouts=120, seed=3, precision=None)
    b = suggest(path, rollouts=120, seed=3, precision=None)
    a.pop("seconds"), b.pop("seconds"), a.pop("footer"), b.pop("footer")
    assert a == b
    assert a["actor"] == "guard" and a["system"] == "mano_a_mano" and a["rollouts"] == 120
    assert sum(len(m["variants"]) for m in a["moves"]) == a["legal_moves"]
    assert any(m["label"].startswith("guard: grapple") for m in a["moves"])
