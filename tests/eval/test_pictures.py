"""``arena replay --frames/--gif`` and ``arena render``: one picture per decision, its caption
naming the action just taken, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from agents import make_agent
from envs import get_rules
from envs.core import SeededDice
from envs.mano_a_mano.render import render
from eval import pictures
from eval.cli import main as arena
from eval.match import play
from eval.pictures import FrameWriter, action_caption, renderer_for


@pytest.fixture(scope="module")
def mano_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    agents = {
        "A": make_agent("heuristic", "mano_a_mano", 1),
        "B": make_agent("heuristic", "mano_a_mano", 2),
    }
    rec = play("mano_a_mano", "duel_seed", agents, seed=4).to_dict()
    path = tmp_path_factory.mktemp("records") / "duel.json"
    path.write_text(json.dumps(rec))
    return path


def test_replay_writes_one_png_per_decision_and_a_gif_with_as_many_frames(
    mano_record, tmp_path, capsys
):
    rec = json.loads(mano_record.read_text())
    n = len(rec["actions"])
    frames, gif = tmp_path / "frames", tmp_path / "out" / "fight.gif"
    frames.mkdir()
    (frames / "frame_9999.png").write_bytes(b"stale")  # left by an earlier, longer run: removed
    (frames / "notes.txt").write_text("mine")  # not ours: kept
    assert (
        arena(
            ["replay", str(mano_record), "--frames", str(frames), "--gif", str(gif), "--fps", "4"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert f"Wrote {n + 1} frames" in out and f"({n + 1} frames, 4 per second)" in out
    pngs = sorted(frames.glob("*.png"))
    assert [p.name for p in pngs] == [f"frame_{i:04d}.png" for i in range(n + 1)]
    assert (frames / "notes.txt").read_text() == "mine"
    with Image.open(gif) as g:
        assert g.n_frames == n + 1
        assert g.info["duration"] == 250 and g.info.get("loop") == 0
    # the first frame is the fight's start, drawn by the system's renderer
    R = get_rules("mano_a_mano")
    start = R.new_encounter(
        rec["encounter"], R.parse_options(rec["options"]), SeededDice(rec["seed"])
    )
    first = np.array(Image.open(pngs[0]).convert("RGB"))
    assert np.array_equal(first, render(start, f"duel_seed, seed {rec['seed']}, step 0/{n}"))
    last = np.array(Image.open(pngs[-1]).convert("RGB"))
    assert last.shape == first.shape and not np.array_equal(first, last)


def test_frames_alone_and_gif_alone(mano_record, tmp_path):
    n = len(json.loads(mano_record.read_text())["actions"])
    assert arena(["replay", str(mano_record), "--frames", str(tmp_path / "f")]) == 0
    assert len(list((tmp_path / "f").glob("frame_*.png"))) == n + 1
    assert arena(["replay", str(mano_record), "--gif", str(tmp_path / "a.gif")]) == 0
    with Image.open(tmp_path / "a.gif") as g:
        assert g.n_frames == n + 1 and g.info["duration"] == 500  # 2 frames per second by default


def test_a_system_without_a_picture_fails_in_one_line(tmp_path, capsys):
    agents = {"A": make_agent("random", "metanoia", 1), "B": make_agent("random", "metanoia", 2)}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(play("metanoia", "duel_seed", agents, seed=0).to_dict()))
    assert arena(["replay", str(path), "--frames", str(tmp_path / "f")]) == 2
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1
        and "--frames: metanoia has no map picture" in err
        and "mano_a_mano" in err
    )
    assert not (tmp_path / "f").exists()
    assert arena(["replay", str(path), "--gif", str(tmp_path / "m.gif")]) == 2
    assert "--gif: metanoia has no map picture" in capsys.readouterr().err
    with pytest.raises(ValueError, match="--frames: metanoia"):
        renderer_for("metanoia")


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--gif", "fight.png"], "--gif: expected a path ending in .gif"),
        (["--fps", "3"], "--fps: only used with --gif"),
        (["--frames", "FILE"], "--frames: "),
    ],
)
def test_bad_picture_arguments_name_the_argument(mano_record, tmp_path, capsys, extra, message):
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    extra = [str(a_file) if e == "FILE" else e for e in extra]
    assert arena(["replay", str(mano_record), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_fps_out_of_range_is_a_usage_error(mano_record, capsys):
    for bad in ("0", "-1", "fast", "100"):
        with pytest.raises(SystemExit) as info:
            arena(["replay", str(mano_record), "--gif", "x.gif", "--fps", bad])
        assert info.value.code == 2
        assert "--fps: expected frames per second" in capsys.readouterr().err


def test_arena_render_draws_an_encounter_start_or_a_situation(tmp_path, capsys):
    out = tmp_path / "giant.png"
    assert arena(["render", "mano_a_mano", "giant", "--out", str(out)]) == 0
    assert f"Wrote {out}" in capsys.readouterr().out
    R = get_rules("mano_a_mano")
    enc = R.new_encounter("giant", R.parse_options("full"), SeededDice(0))
    assert np.array_equal(np.array(Image.open(out).convert("RGB")), render(enc, "giant"))
    case = (
        Path(__file__).resolve().parents[1]
        / "cases"
        / "mano_a_mano"
        / "s11_24_push_balance_fall.yaml"
    )
    assert arena(["render", str(case), "--out", str(tmp_path / "case.png")]) == 0
    assert (tmp_path / "case.png").stat().st_size > 1000
    assert arena(["render", "metanoia", "duel_seed", "--out", str(tmp_path / "m.png")]) == 2
    assert "render: metanoia has no map picture" in capsys.readouterr().err
    assert arena(["render", "mano_a_mano", "giant", "--out", str(tmp_path / "g.jpg")]) == 2
    assert "--out: expected a path ending in .png" in capsys.readouterr().err
    assert arena(["render", "mano_a_mano", "no_such", "--out", str(out)]) == 2
    assert "unknown encounter 'no_such'" in capsys.readouterr().err


def test_gif_frames_keep_their_colours_when_new_ones_appear(tmp_path):
    """A colour missing from the first frame's palette (a new health state) comes out right."""
    a = np.full((40, 60, 3), 240, np.uint8)
    b = a.copy()
    b[10:30, 10:50] = (112, 18, 18)
    w = FrameWriter(None, tmp_path / "c.gif", fps=5, total=2)
    w.add(a)
    w.add(b)
    w.finish()
    with Image.open(tmp_path / "c.gif") as g:
        g.seek(1)
        assert tuple(np.array(g.convert("RGB"))[20, 30].tolist()) == (112, 18, 18)


def test_replay_frames_carry_a_caption_naming_the_action_just_taken(monkeypatch, tmp_path):
    """The caption passed to the renderer names the fight at the start, then the action just
    taken in plain words, described on the encounter before it was applied: the Clone's counter
    is still ready when Steven's strike is declared, so the strike's words say it counters first.
    duel_seed, seed 0, CORE: Steven surprises the Clone and acts first."""
    captions: list[str] = []

    def fake_renderer(enc, caption):
        captions.append(caption)
        return np.zeros((4, 4, 3), np.uint8)

    monkeypatch.setattr(pictures, "renderer_for", lambda system, option="--frames": fake_renderer)
    rec = {
        "system": "mano_a_mano", "encounter": "duel_seed", "seed": 0, "options": "core",
        "reason": "stopped",
        "actions": ["steven: end", "clone: counter", "steven: strike quick machete -> clone",
                    "clone: strike quick right_hand -> steven", "clone: end"],
    }
    log, frames = pictures.replay_pictures(rec, gif=tmp_path / "c.gif")
    assert frames == 6 and "clone counterattacks before steven's strike" in log
    assert captions == [
        "duel_seed, seed 0, step 0/5",
        "step 1/5: steven: end the turn",
        "step 2/5: clone: prepare a counterattack: strike first when next attacked",
        "step 3/5: steven: strike the Clone with the machete, quick (60% to hit, ~3.0 harm, "
        "the Clone counters first)",
        "step 4/5: clone: strike Steven with the right hand, quick (40% to hit, ~1.2 harm)",
        "step 5/5: clone: end the turn",
    ]
    R = get_rules("mano_a_mano")
    enc = R.new_encounter("duel_seed", R.parse_options("core"), SeededDice(0))
    assert action_caption(enc, "steven strikes") == "steven strikes"  # unreadable: kept as it is
