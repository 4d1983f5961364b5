"""``arena campaign``: fights in a row with rests between them (eval/campaign.py, Metaforce's
campaign part envs/metaforce/campaign.py, spec §9.5, §12.3)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import agents.episode
from envs.core.data import DataError
from envs.core.stats import wilson
from eval.campaign import load_campaign, play_campaign, summarize
from eval.cli import main as arena

SHIPPED = Path(__file__).resolve().parents[2] / "configs/campaigns/metaforce_road_to_the_golem.yaml"


def write(tmp_path: Path, text: str, name: str = "c.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


DUELS = """system: metaforce
party: [fighter]
stages:
  - fight: duel_fighter_brawler
  - rest: short 10
  - fight: duel_fighter_brawler
"""


def test_the_party_carries_its_state_into_the_next_fight(tmp_path: Path, monkeypatch):
    c = load_campaign(write(tmp_path, DUELS))
    starts: list[dict[str, Any]] = []
    ends: list[dict[str, Any]] = []
    real = agents.episode.play

    def spy(system, fight, bots, seed, options=None, check=None, **kw):
        def both(enc, when):
            f = enc.by_id["fighter"]
            row = {"hp": f.hp, "mp": f.mp, "rp": f.rp, "exert": f.exert}
            (starts if when == "start" else ends if when == "end" else []).append(row)
            if check is not None:
                check(enc, when)
        return real(system, fight, bots, seed, options=options, check=both, **kw)

    monkeypatch.setattr(agents.episode, "play", spy)
    for seed in range(12):
        starts.clear()
        ends.clear()
        rec = play_campaign(c, ("heuristic", "random"), seed)
        assert starts[0] == {"hp": 54, "mp": 15, "rp": 1, "exert": 0}  # fresh
        if len(starts) < 2:
            continue
        # the second duel starts where the first ended, plus the rest: 1 RP for Level 1 point
        first = ends[0]
        assert first["hp"] > 0 and rec["stages"][0]["won"]
        healed = first["hp"] < 54  # the 1 point goes to HP first, else to Exert
        assert starts[1] == {"hp": first["hp"] + (1 if healed else 0), "mp": first["mp"],
                             "rp": 0, "exert": first["exert"] - (0 if healed or
                                                                 not first["exert"] else 1)}
        break
    else:
        pytest.fail("no seed reached the second fight")


def test_a_lost_fight_ends_the_campaign_and_the_summary_counts_each_fight():
    c = load_campaign(SHIPPED)
    recs = [{"seed": 0, "won": True, "lost_at": None, "stages": [
                {"stage": 0, "kind": "fight", "won": True, "hp": 50, "hp_max": 100,
                 "sitting_out": []},
                {"stage": 1, "kind": "rest"},
                {"stage": 2, "kind": "fight", "won": True, "hp": 25, "hp_max": 100,
                 "sitting_out": ["wizard"]}]},
            {"seed": 1, "won": False, "lost_at": 0, "stages": [
                {"stage": 0, "kind": "fight", "won": False, "hp": 0, "hp_max": 100,
                 "sitting_out": []}]}]
    s = summarize(c, recs)
    first, rest, last = s["stages"]
    assert (first["reached"], first["won"], first["lo"], first["hi"]) == (2, 1, *wilson(1, 2))
    assert first["hp_left"] == 0.5 and rest == {"stage": 1, "label": "rest short 30"}
    assert (last["reached"], last["won"], last["sat_out"]) == (1, 1, 1)
    assert (s["won"], s["games"], s["lo"], s["hi"]) == (1, 2, *wilson(1, 2))


@pytest.mark.parametrize("text, message", [
    ("system: nope\nparty: [a]\nstages: [{fight: x}]\n", "field 'system': unknown system"),
    ("system: sizebound\nparty: [duelist]\nstages: [{fight: duel_blade_vs_shield}]\n",
     "sizebound has no campaigns"),
    ("system: metaforce\nparty: []\nstages: [{fight: duel_fighter_brawler}]\n",
     "field 'party': expected a list of distinct combatant ids"),
    ("system: metaforce\nparty: [fighter]\nstages: [{rest: short 30}]\n",
     "stages[0]: field 'rest': a rest must come after a fight"),
    ("system: metaforce\nparty: [fighter]\nstages: [{fight: nowhere}]\n",
     "stages[0]: field 'fight': unknown metaforce encounter 'nowhere'"),
    ("system: metaforce\nparty: [gandalf]\nstages: [{fight: duel_fighter_brawler}]\n",
     "has none of the party (gandalf)"),
    ("system: metaforce\nparty: [fighter, odonghe_brawler]\n"
     "stages: [{fight: duel_fighter_brawler}]\n", "the party is on more than one side"),
    ("system: metaforce\nparty: [fighter]\nstages: [{fight: duel_fighter_brawler},"
     " {rest: nap 3}]\n", "stages[1]: field 'rest':"),
    ("system: metaforce\nparty: [fighter]\nstages: [{fight: duel_fighter_brawler},"
     " {rest: short 10 rp 2}]\n", "holds 1 RP, cannot spend 2"),
    ("system: metaforce\nparty: [fighter]\nstages: [{fight: duel_fighter_brawler, rest: x}]\n",
     "stages[0]: expected {fight: ENCOUNTER_OR_FILE} or {rest: SPEC}"),
    ("system: metaforce\nparty: [fighter]\noptions: sideways\n"
     "stages: [{fight: duel_fighter_brawler}]\n", "field 'options'"),
])
def test_bad_campaign_files_are_one_line_errors(tmp_path: Path, text: str, message: str):
    path = write(tmp_path, text)
    with pytest.raises(DataError, match=re.escape(message)) as err:
        load_campaign(path)
    assert str(err.value).startswith(f"{path}: campaign") and "\n" not in str(err.value)


def test_the_command_plays_the_shipped_campaign_and_refuses_bad_input(tmp_path: Path, capsys):
    assert arena(["campaign", str(SHIPPED), "--games", "3", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "campaign 'The road to the golem' (metaforce): party fighter, wizard" in out
    assert "1. fight skirmish_2v2: reached 3, party won" in out
    assert "whole campaign: won" in out and "(95% CI" in out
    assert arena(["campaign", str(SHIPPED), "--agents", "heuristic"]) == 2
    assert "--agents: expected A,B" in capsys.readouterr().err
    assert arena(["campaign", str(write(tmp_path, "system: metaforce\n"))]) == 2
    assert "field 'party': missing" in capsys.readouterr().err
